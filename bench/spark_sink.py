"""Rows/s into Kafka through the pykafka Spark sink vs confluent-kafka producing the same rows.

Run from the repository root::

    .venv/bin/python -m bench.spark_sink                          # table on stdout
    .venv/bin/python -m bench.spark_sink --out bench/RESULTS.md   # also rewrite our section

For each target broker (our embedded broker, and librdkafka's mock cluster, which isolates the
client side from broker speed), each record size and each repeat:

* ``direct``: one Python process runs the sink's own hot loop shape (``produce(topic, value,
  key)`` over prebuilt lists, failures-only delivery reports) and flushes, with exactly the
  producer settings the sink derives from its options (same defaults: acks=all, idempotence,
  murmur2_random partitioner);
* ``spark sink``: ``df.write.format("pykafka").mode("append").save()`` of a cached DataFrame
  with the same keys and values (local[2], 2 tasks);
* ``spark null writer``: the same DataFrame into a Python Arrow writer that only turns the
  columns into lists (what the sink does before ``produce``): the ceiling Spark's Python data
  source path allows on this machine.

Each measurement writes to a fresh topic (4 partitions) and is checked by summing the high
watermarks. The median of ``--repeat`` runs is reported.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench import report
from bench.report import load_average, machine_info
from bench.targets import REPO_ROOT, BrokerProcess

SECTION_BEGIN = "<!-- BEGIN bench.spark_sink -->"
SECTION_END = "<!-- END bench.spark_sink -->"
PARTITIONS = 4
SPARK_TASKS = 2


# -- the null writer (imported by Spark's Python workers from this module) --------------------


def _null_source_class() -> type:
    from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, WriterCommitMessage

    class NullArrowWriter(DataSourceArrowWriter):
        def write(self, iterator: Iterator[Any]) -> WriterCommitMessage:
            n = 0
            for batch in iterator:
                for name in ("key", "value"):
                    batch.column(batch.schema.get_field_index(name)).to_pylist()
                n += batch.num_rows
            return WriterCommitMessage()

    class BenchNullSink(DataSource):
        @classmethod
        def name(cls) -> str:
            return "bench_null_arrow"

        def writer(self, schema: Any, overwrite: bool) -> NullArrowWriter:
            return NullArrowWriter()

    return BenchNullSink


# -- measurements -------------------------------------------------------------------------------


def _create_topic(bootstrap: str, topic: str, can_create: bool) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    if can_create:
        admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    else:  # the mock cluster auto-creates (4 partitions) on metadata
        admin.list_topics(topic, timeout=10)


def _records_in(bootstrap: str, topic: str) -> int:
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-count", "enable.auto.commit": False})
    try:
        parts = c.list_topics(topic, timeout=10).topics[topic].partitions
        return sum(c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in parts)
    finally:
        c.close()


def _sink_producer_config(bootstrap: str, extra: dict[str, str]) -> dict[str, Any]:
    from connector.sink.writer import _FIXED_PRODUCER_SETTINGS, parse_sink_options

    opts = {"kafka.bootstrap.servers": bootstrap, **{f"kafka.{k}": v for k, v in extra.items()}}
    return {**parse_sink_options(opts).producer_dict(), **_FIXED_PRODUCER_SETTINGS}


def measure_direct(bootstrap: str, topic: str, keys: list[bytes], values: list[bytes], conf: dict[str, Any]) -> float:
    from confluent_kafka import Producer

    errors: list[Any] = []
    p = Producer({**conf, "on_delivery": lambda err, _m: errors.append(err) if err else None})
    p.list_topics(topic, timeout=10)  # connect + metadata outside the timed part, as the sink's cache does
    produce, n, i = p.produce, len(values), 0
    start = time.perf_counter()
    while i < n:
        s = i
        try:
            for i in range(s, n):
                produce(topic, values[i], keys[i])
            i = n
        except BufferError:
            p.poll(0.05)
    while p.flush(1.0):
        pass
    elapsed = time.perf_counter() - start
    p.close()
    if errors:
        raise RuntimeError(f"direct produce failed: {errors[0]}")
    return elapsed


def measure_spark(df: Any, fmt: str, options: dict[str, str]) -> float:
    start = time.perf_counter()
    df.write.format(fmt).options(**options).mode("append").save()
    return time.perf_counter() - start


def run(args: argparse.Namespace) -> dict[str, Any]:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    from pyspark.sql import SparkSession

    from connector.datasource import PyKafkaDataSource

    extra = dict(kv.split("=", 1) for kv in args.producer)
    spark = (
        SparkSession.builder.master(f"local[{SPARK_TASKS}]")
        .appName("bench-spark-sink")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.shuffle.partitions", str(SPARK_TASKS))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    spark.dataSource.register(PyKafkaDataSource)
    spark.dataSource.register(_null_source_class())
    results: dict[str, Any] = {"machine": machine_info(), "config": vars(args), "runs": {}}
    results["config"]["producer_overrides"] = extra
    try:
        with tempfile.TemporaryDirectory(prefix="bench-spark-sink-") as tmp:
            for target in args.targets:
                broker = BrokerProcess(target, Path(tmp))
                try:
                    bootstrap = broker.start(30)
                    results["runs"][target] = _run_target(spark, target, bootstrap, args, extra)
                finally:
                    broker.stop()
    finally:
        results["machine"]["load_avg_end"] = load_average()
        spark.stop()
    return results


def _run_target(spark: Any, target: str, bootstrap: str, args: argparse.Namespace, extra: dict[str, str]) -> Any:
    can_create = target != "mock"
    conf = _sink_producer_config(bootstrap, extra)
    sink_options = {"kafka.bootstrap.servers": bootstrap, **{f"kafka.{k}": v for k, v in extra.items()}}
    out: dict[str, Any] = {"producer_config": {k: str(v) for k, v in conf.items()}}
    for size in args.sizes:
        n = args.records_100 if size < 1024 else args.records_1k
        df = spark.range(0, n, numPartitions=SPARK_TASKS).selectExpr(
            "cast(id AS string) AS key", f"cast(repeat('x', {size}) AS binary) AS value"
        )
        df.cache().count()  # generation and caching are not what we measure
        keys = [str(i).encode() for i in range(n)]
        values = [b"x" * size] * n
        # Warm-up: start the Python workers and the sink's cached producers.
        warm = f"bench-warm-{uuid.uuid4().hex[:8]}"
        _create_topic(bootstrap, warm, can_create)
        measure_spark(df.limit(10_000), "pykafka", {**sink_options, "topic": warm})
        measure_spark(df.limit(10_000), "bench_null_arrow", {})
        rows: dict[str, list[float]] = {"direct": [], "spark_sink": [], "spark_null_writer": []}
        for _ in range(args.repeat):
            for kind in rows:
                topic = f"bench-{kind}-{size}-{uuid.uuid4().hex[:8]}"
                if kind == "spark_null_writer":
                    rows[kind].append(measure_spark(df, "bench_null_arrow", {}))
                    continue
                _create_topic(bootstrap, topic, can_create)
                if kind == "direct":
                    elapsed = measure_direct(bootstrap, topic, keys, values, conf)
                else:
                    elapsed = measure_spark(df, "pykafka", {**sink_options, "topic": topic})
                got = _records_in(bootstrap, topic)
                if got != n:
                    raise RuntimeError(f"{target} {kind} {size} B: {got} records in the topic, expected {n}")
                rows[kind].append(elapsed)
        df.unpersist()
        out[str(size)] = {
            "records": n,
            "seconds": rows,
            "rows_per_s": {k: n / statistics.median_low(v) for k, v in rows.items()},
        }
        r = out[str(size)]["rows_per_s"]
        print(
            f"{target:8s} {size:5d} B  direct {r['direct']:>11,.0f}/s  spark sink {r['spark_sink']:>11,.0f}/s  "
            f"null writer {r['spark_null_writer']:>11,.0f}/s  sink/direct {r['spark_sink'] / r['direct']:.2f}",
            file=sys.stderr,
        )
    return out


# -- report -------------------------------------------------------------------------------------


def render_section(results: dict[str, Any], command: str) -> str:
    m = results["machine"]
    cfg = results["config"]
    lines = [
        SECTION_BEGIN,
        "## Spark sink throughput (`python -m bench.spark_sink`)",
        "",
        f"Run {m['date_utc']} with `{command}`.",
        "",
        f"- **CPU:** {m['cpu_model']}; cores: {m['logical_cores']} logical ({m['usable_cores']} usable); "
        f"memory: {m['memory']}",
        f"- **OS / Python:** {m['os']}; Python {m['python']}; pyspark {_pyspark_version()} (local[{SPARK_TASKS}])",
        f"- **Load average (1/5/15 min):** {m['load_avg_start']} at start, {m.get('load_avg_end', '?')} at end",
        f"- **Clients:** confluent-kafka {m['confluent_kafka']}, librdkafka {m['librdkafka']}; "
        f"pykafka at commit {m['repo_commit']}",
        f"- **Workload:** key = the row number as a string, value = N bytes; {cfg['records_100']:,} rows below "
        f"1 KiB, {cfg['records_1k']:,} from 1 KiB; a fresh {PARTITIONS}-partition topic per run; median of "
        f"{cfg['repeat']} runs; the DataFrame is cached ({SPARK_TASKS} partitions = {SPARK_TASKS} tasks) so "
        "row generation is not timed",
        "- **Producer settings (sink and direct alike, the sink's defaults"
        + (f" plus {cfg['producer_overrides']}" if cfg["producer_overrides"] else "")
        + "):** "
        + ", ".join(
            f"`{k}={v}`"
            for k, v in sorted(next(iter(results["runs"].values()))["producer_config"].items())
            if k not in ("bootstrap.servers",)
        ),
        "",
        "| target | size | direct rows/s | spark sink rows/s | sink/direct | spark null writer rows/s |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for target, runs in results["runs"].items():
        for size in cfg["sizes"]:
            r = runs[str(size)]["rows_per_s"]
            label = f"{size} B" if size < 1024 else f"{size // 1024} KiB"
            lines.append(
                f"| {target} | {label} | {r['direct']:,.0f} | {r['spark_sink']:,.0f} | "
                f"{r['spark_sink'] / r['direct']:.2f} | {r['spark_null_writer']:,.0f} |"
            )
    lines += [
        "",
        "`direct` is one Python process running the sink's hot loop shape with the same producer; "
        '`spark sink` is `df.write.format("pykafka")` end to end (job scheduling, JVM → Arrow → Python '
        "worker, produce, flush); `spark null writer` is the same Spark job into an Arrow writer that only "
        "converts the key/value columns to Python lists, i.e. the ceiling of Spark's Python data source "
        "path on this machine. `pykafka` = this repo's embedded broker (`python -m broker_embedded`, own "
        "process); `mock` = librdkafka's mock cluster (`python -m bench.mock_cluster`), which shows the "
        "client side without our broker's cost.",
    ]
    if cfg.get("note"):
        lines += ["", "**Notes:**", ""]
    for note in cfg.get("note") or []:
        lines.append(f"- {note}")
    lines.append(SECTION_END)
    return "\n".join(lines) + "\n"


def _pyspark_version() -> str:
    import pyspark

    return pyspark.__version__


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="pykafka,mock", type=lambda s: [t for t in s.split(",") if t])
    ap.add_argument("--sizes", default="100,1024", type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--records-100", type=int, default=1_000_000, help="rows per run below 1 KiB")
    ap.add_argument("--records-1k", type=int, default=300_000, help="rows per run from 1 KiB")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--producer", action="append", default=[], metavar="KEY=VALUE",
                    help="extra producer setting for both sides (as kafka.KEY on the sink)")  # fmt: skip
    ap.add_argument("--out", type=Path, help="rewrite the bench.spark_sink section of this RESULTS.md")
    ap.add_argument("--json", type=Path, help="write raw results here")
    ap.add_argument("--note", action="append", default=[], help="extra bullet under the table (repeatable)")
    ap.add_argument("--from-json", type=Path, help="run nothing: re-render a saved --json file (e.g. new notes)")
    args = ap.parse_args(argv)
    if args.from_json:
        results = json.loads(args.from_json.read_text())
        results["config"]["note"] = args.note
        command = results.get("command", "python -m bench.spark_sink")
    else:
        command = "python -m bench.spark_sink " + " ".join(argv if argv is not None else sys.argv[1:])
        results = run(args)
        results["finished_utc"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        results["command"] = command.strip()
    section = render_section(results, command.strip())
    print(section)
    if args.json and not args.from_json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2, default=str))
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
