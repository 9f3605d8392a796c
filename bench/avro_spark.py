"""``from_avro`` in Spark: ``connector.avro.from_avro`` (an Arrow UDF with fastavro, in the Python
workers) vs Spark's own ``pyspark.sql.avro.functions.from_avro`` (spark-avro, in the JVM), on the same
cached DataFrame of plain Avro records (no Confluent header) in one SparkSession (local[2]).

Each decoder's query projects every decoded field and runs to Spark's ``noop`` sink; the two run
interleaved, ``--rounds`` times each, and the best round of each counts. Needs spark-avro among the
JVM peers (``./scripts/setup.sh``).

    python -m bench.avro_spark [--records 200000] [--rounds 3] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import fastavro

from bench import report
from bench.avro_decode import SCHEMA, record
from connector import avro

SECTION_BEGIN = "<!-- BEGIN bench.avro_spark -->"
SECTION_END = "<!-- END bench.avro_spark -->"


def encode(n: int) -> list[bytes]:
    schema = fastavro.parse_schema(SCHEMA)
    out = []
    for i in range(n):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, schema, record(i))
        out.append(buf.getvalue())
    return out


def run(records: int, rounds: int) -> dict[str, Any]:
    from pyspark.sql.avro.functions import from_avro as spark_from_avro

    from peers import jvm

    if jvm.spark_avro_version() is None:
        raise SystemExit(f"spark-avro is not in {jvm.SPARK_KAFKA_LIB}: run ./scripts/setup.sh")
    # the Python workers run this interpreter (fastavro, pyarrow), not whatever `python3` is on PATH
    os.environ["PYSPARK_PYTHON"] = os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    spark = jvm.spark_with(kafka=True, delta=False, master="local[2]", **{"spark.ui.enabled": "false"})
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    schema_json = json.dumps(SCHEMA)
    values = encode(records)
    df = spark.createDataFrame([(v,) for v in values], "value binary").repartition(2).cache()
    assert df.count() == records

    ours = df.select(avro.from_avro("value", schema_json).alias("v")).select("v.*")
    theirs = df.select(spark_from_avro("value", schema_json).alias("v")).select("v.*")
    # parity first: the same rows, the same types
    assert ours.schema == theirs.schema, (ours.schema, theirs.schema)
    assert ours.orderBy("id").limit(2000).collect() == theirs.orderBy("id").limit(2000).collect()
    best = {"ours": 1e9, "spark": 1e9}
    for _ in range(rounds):
        for name, q in (("ours", ours), ("spark", theirs)):
            t = time.perf_counter()
            q.write.format("noop").mode("overwrite").save()
            best[name] = min(best[name], time.perf_counter() - t)
    spark.stop()
    return {
        "records": records,
        "rounds": rounds,
        "ours": records / best["ours"],
        "spark": records / best["spark"],
        "ratio": best["spark"] / best["ours"],
        "pyspark": __import__("pyspark").__version__,
        "spark_avro": jvm.spark_avro_version(),
    }


def render(r: dict[str, Any], machine: dict[str, Any], argv: str) -> str:
    return "\n".join(
        [
            SECTION_BEGIN,
            "## `from_avro` in Spark: `connector.avro` vs Spark's spark-avro (`python -m bench.avro_spark`)",
            "",
            f"Command: `python -m bench.avro_spark{argv}` — {r['records']:,} plain Avro records (the schema of",
            "`bench.avro_decode`) in a cached 2-partition DataFrame, decoded and every field projected to the",
            f"`noop` sink; SparkSession local[2], pyspark {r['pyspark']}, spark-avro {r['spark_avro']} (the newest",
            "Maven Central serves). The two run interleaved, "
            f"{r['rounds']} rounds each; the best round of each counts. Both give the same rows and types (checked).",
            f"Machine: {machine['cpu_model']}, {machine['usable_cores']} usable cores, {machine['memory']},",
            f"Python {machine['python']}, commit {machine['repo_commit']}, {machine['date_utc']};",
            f"load average (1/5/15 min) at the start: {machine['load_avg_start']}, at the end:",
            f"{report.load_average()} (other jobs were running on the machine).",
            "",
            "| decoder | rows/s (wall) |",
            "|---|---|",
            f"| Spark's `pyspark.sql.avro.functions.from_avro` (JVM) | {r['spark']:,.0f} |",
            f"| `connector.avro.from_avro` (Arrow UDF, fastavro) | {r['ours']:,.0f} |",
            f"| ratio ours / Spark's | **{r['ratio']:.2f}×** |",
            "",
            "Ours runs in Python workers: each Arrow batch of bytes goes to a worker and the decoded column comes",
            "back (that share of the time is not measured separately here); Spark's decodes in the JVM.",
            SECTION_END,
            "",
        ]
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--records", type=int, default=200_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--out", type=Path, default=None, help="write the section of this results file")
    a = p.parse_args(argv)
    machine = report.machine_info()
    r = run(a.records, a.rounds)
    print(f"records={r['records']} rounds={r['rounds']}")
    print(f"Spark from_avro: {r['spark']:,.0f} rows/s; connector.avro.from_avro: {r['ours']:,.0f} rows/s")
    print(f"ratio ours/Spark's: {r['ratio']:.2f}x")
    if a.out is not None:
        args = " ".join(argv if argv is not None else sys.argv[1:])
        report.update_results_file(a.out, render(r, machine, f" {args}" if args else ""), SECTION_BEGIN, SECTION_END)


if __name__ == "__main__":
    main()
