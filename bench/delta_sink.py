"""Rows/s into Delta through the ``pykafka-delta`` sink vs Spark's own Parquet writer, same data.

Run from the repository root::

    .venv/bin/python -m bench.delta_sink                          # table on stdout
    .venv/bin/python -m bench.delta_sink --out bench/RESULTS.md   # also rewrite our section

The DataFrame has the Kafka source's columns (topic, partition, offset, key, value, timestamp,
timestampType), values of N bytes, 4 Kafka partitions in contiguous offset runs, 2 per task, as
the pykafka source's tasks hold them (the sink writes one file per partition per task and records
per-partition offsets). It is cached with
``--tasks`` partitions, so row generation is not timed. For each value size and repeat, back to
back (order alternating):

* ``pykafka-delta``: ``df.write.format("pykafka-delta").mode("append").save(path)`` into a new
  table: executors write Parquet (pyarrow, snappy), the driver makes one Delta commit with the
  per-partition app transactions;
* ``spark parquet``: ``df.write.mode("overwrite").parquet(path)`` (Spark's JVM writer, snappy).

Both are checked by counting the rows written. The median of ``--repeat`` runs is reported.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import report
from bench.report import load_average, machine_info

SECTION_BEGIN = "<!-- BEGIN delta_sink -->"
SECTION_END = "<!-- END delta_sink -->"


def _null_source_class() -> type:
    """An Arrow writer that only receives the batches: the ceiling of Spark's Python data source path."""
    from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, WriterCommitMessage

    class NullArrowWriter(DataSourceArrowWriter):
        def write(self, iterator: Any) -> WriterCommitMessage:
            for _batch in iterator:
                pass
            return WriterCommitMessage()

    class BenchNullDelta(DataSource):
        @classmethod
        def name(cls) -> str:
            return "bench_null_delta"

        def writer(self, schema: Any, overwrite: bool) -> NullArrowWriter:
            return NullArrowWriter()

    return BenchNullDelta


def _session(tasks: int) -> Any:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(f"local[{tasks}]")
        .appName("bench-delta-sink")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(tasks))
        .config("spark.driver.memory", "3g")
        .config("spark.sql.parquet.compression.codec", "snappy")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("WARN")
    return spark


def _frame(spark: Any, rows: int, size: int, tasks: int) -> Any:
    # value: the row number padded to `size` bytes (compressible like real payloads, not constant)
    df = spark.range(0, rows, 1, tasks).selectExpr(
        "'bench-events' AS topic",
        f"CAST(id * 4 DIV {rows} AS INT) AS partition",  # contiguous runs, as the pykafka source's tasks hold
        f"id - (id * 4 DIV {rows}) * ({rows} DIV 4) AS offset",
        "CAST(CAST(id AS STRING) AS BINARY) AS key",
        f"CAST(rpad(CAST(id AS STRING), {size}, 'x') AS BINARY) AS value",
        "timestamp_millis(1700000000000 + id) AS timestamp",
        "0 AS timestampType",
    )
    df = df.cache()
    assert df.count() == rows
    return df


def _delta_rows(path: str) -> int:
    from deltalake import DeltaTable

    return DeltaTable(path).to_pyarrow_dataset().count_rows()


def _timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def measure(spark: Any, df: Any, rows: int, workdir: Path, repeat: int) -> dict[str, Any]:
    delta_s: list[float] = []
    parquet_s: list[float] = []
    null_s: list[float] = []
    for i in range(repeat):
        delta_path, parquet_path = str(workdir / f"delta-{i}"), str(workdir / f"parquet-{i}")

        def delta(path: str = delta_path) -> None:
            df.write.format("pykafka-delta").mode("append").save(path)

        def parquet(path: str = parquet_path) -> None:
            df.write.mode("overwrite").parquet(path)

        def null() -> None:
            df.write.format("bench_null_delta").mode("append").save()

        order = [(delta, delta_s), (parquet, parquet_s), (null, null_s)]
        for fn, out in order if i % 2 == 0 else reversed(order):
            out.append(_timed(fn))
        got_delta, got_parquet = _delta_rows(delta_path), spark.read.parquet(parquet_path).count()
        if got_delta != rows or got_parquet != rows:
            raise AssertionError(f"rows written: delta {got_delta}, parquet {got_parquet}, expected {rows}")
        sizes = {
            "delta_bytes": sum(p.stat().st_size for p in Path(delta_path).rglob("*.parquet")),
            "parquet_bytes": sum(p.stat().st_size for p in Path(parquet_path).rglob("*.parquet")),
        }
        shutil.rmtree(delta_path)
        shutil.rmtree(parquet_path)
    d, p, z = statistics.median(delta_s), statistics.median(parquet_s), statistics.median(null_s)
    return {
        "delta_rows_per_s": rows / d,
        "parquet_rows_per_s": rows / p,
        "null_rows_per_s": rows / z,
        "ratio": p / d,
        "delta_s": delta_s,
        "parquet_s": parquet_s,
        "null_s": null_s,
        **sizes,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    import pyspark

    results: dict[str, Any] = {"machine": machine_info(), "config": vars(args) | {"out": str(args.out)}, "runs": {}}
    results["machine"]["pyspark"] = pyspark.__version__
    spark = _session(args.tasks)
    spark.dataSource.register(_null_source_class())
    workdir = Path(tempfile.mkdtemp(prefix="bench-delta-"))
    try:
        for batch_rows in args.arrow_batch_rows:
            spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(batch_rows))
            for size in args.sizes:
                rows = args.rows if size < 1024 else max(1, args.rows * 3 // 10)
                df = _frame(spark, rows, size, args.tasks)
                # warm-up: Python workers, imports, JIT of both paths (not timed)
                df.limit(1000).write.format("pykafka-delta").mode("append").save(str(workdir / "warm-delta"))
                df.limit(1000).write.mode("overwrite").parquet(str(workdir / "warm-parquet"))
                r = measure(spark, df, rows, workdir, args.repeat)
                r["rows"] = rows
                r["size"], r["arrow_batch_rows"] = size, batch_rows
                results["runs"][f"{size}/{batch_rows}"] = r
                df.unpersist()
                print(
                    f"{size:>6} B  arrow batch {batch_rows:>7}  pykafka-delta {r['delta_rows_per_s']:>12,.0f} rows/s"
                    f"   spark parquet {r['parquet_rows_per_s']:>12,.0f} rows/s   delta/parquet {r['ratio']:.2f}"
                    f"   null writer {r['null_rows_per_s']:>12,.0f} rows/s",
                    flush=True,
                )
    finally:
        spark.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    results["machine"]["load_avg_end"] = load_average()
    return results


def render_section(results: dict[str, Any]) -> str:
    m, c = results["machine"], results["config"]
    lines = [
        SECTION_BEGIN,
        "## Delta sink throughput (`python -m bench.delta_sink`)",
        "",
        f"Run {m['date_utc']} with `python -m bench.delta_sink --out bench/RESULTS.md`.",
        "",
        f"- **CPU:** {m['cpu_model']}; cores: {m['logical_cores']} logical ({m['usable_cores']} usable); "
        f"memory: {m['memory']}",
        f"- **OS / Python:** {m['os']}; Python {m['python']}; pyspark {m['pyspark']} (local[{c['tasks']}])",
        f"- **Load average (1/5/15 min):** {m['load_avg_start']} at start, {m['load_avg_end']} at end",
        f"- **pykafka** at commit {m['repo_commit']}",
        f"- **Workload:** the Kafka source's columns (topic, partition, offset, key, value, timestamp, "
        f"timestampType); {c['rows']:,} rows below 1 KiB, {c['rows'] * 3 // 10:,} from 1 KiB; 4 Kafka partitions "
        f"in contiguous offset runs over {c['tasks']} tasks (as the pykafka source hands them over); "
        f"DataFrame cached; snappy on both sides; median of "
        f"{c['repeat']} runs, the two writers back to back in alternating order",
        "",
        "| value size | Arrow batch rows | pykafka-delta rows/s | spark parquet rows/s | **delta / parquet** | "
        "null Arrow writer rows/s | files' bytes delta / parquet |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results["runs"].values():
        size = r["size"]
        label = f"{size // 1024} KiB" if size >= 1024 else f"{size} B"
        default = " (default)" if r["arrow_batch_rows"] == 10_000 else ""
        lines.append(
            f"| {label} | {r['arrow_batch_rows']:,}{default} | {r['delta_rows_per_s']:,.0f} | "
            f"{r['parquet_rows_per_s']:,.0f} | **{r['ratio']:.2f}** | {r['null_rows_per_s']:,.0f} | "
            f"{r['delta_bytes'] / max(1, r['parquet_bytes']):.2f} |"
        )
    lines += [
        "",
        '`pykafka-delta` is `df.write.format("pykafka-delta").mode("append").save(path)` end to end: JVM → '
        "Arrow → Python workers writing one Parquet file per Kafka partition per task with pyarrow, then one Delta "
        "commit (delta-rs) with the per-partition offsets as app transactions. `spark parquet` is "
        "`df.write.parquet(path)`, Spark's own JVM writer with no transaction log. Bar: delta / parquet ≥ 0.8.",
    ]
    if results.get("notes"):
        lines += ["", "**Notes:**", "", *[f"- {n}" for n in results["notes"]]]
    lines.append(SECTION_END)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1024])
    ap.add_argument("--tasks", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--arrow-batch-rows",
        type=int,
        nargs="+",
        default=[10_000, 100_000],
        help="spark.sql.execution.arrow.maxRecordsPerBatch values to run (Spark's default is 10000)",
    )
    ap.add_argument("--note", action="append", default=[], help="a note to add under the table")
    ap.add_argument("--out", type=Path, help="rewrite the delta_sink section of this RESULTS.md")
    ap.add_argument("--json", type=Path, help="also write the raw results here")
    args = ap.parse_args(argv)
    results = run(args)
    results["notes"] = args.note
    section = render_section(results)
    print(section)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, default=str))
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
