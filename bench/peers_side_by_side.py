"""Side by side with the JVM peers (peers/pom.xml, resolved by scripts/setup.sh), in one run:

    .venv/bin/python -m bench.peers_side_by_side                        # tables on stdout
    .venv/bin/python -m bench.peers_side_by_side --out bench/RESULTS.md   # also rewrite our section

* **broker**: our broker (``python -m broker_embedded``) vs Apache Kafka (KRaft combined mode,
  ``-Xmx1g``, default GC): process start to ready (first Metadata answered), resident memory
  idle and right after the load, produce / consume MB/s and produce→consume latency p50/p99,
  with bench/workload.py's confluent-kafka workload (the same one bench.broker_throughput runs).
* **Spark source**: ``format("pykafka")`` vs Spark's own ``format("kafka")`` in one SparkSession
  (local[2]) on the same topic of our broker (and of Apache Kafka with ``--source-brokers``):
  batch ``count()``, a stream to the ``noop`` sink (Trigger.AvailableNow), and a batch
  ``from_json`` parse of the values to ``noop``; records/s, 100 B and 1 KiB.
* **Spark sink**: ``df.write.format("pykafka")`` vs ``format("kafka")`` of the same cached
  DataFrame into our broker; records/s.

Ratios are ours/theirs (above 1: ours is faster; for latency and memory below 1 is better). The
measurements of a pair run back to back, alternating, median of ``--repeat``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import report, workload
from bench.targets import BrokerProcess
from peers import jvm

SECTION_BEGIN = "<!-- BEGIN bench.peers_side_by_side -->"
SECTION_END = "<!-- END bench.peers_side_by_side -->"
PARTITIONS = 4


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its children (the JVM has none; ours neither)."""
    total = 0
    for p in [pid, *_children(pid)]:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total / 1024


def _children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                out += [int(c) for c in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
    return out


# --------------------------------------------------------------------------------------------
# brokers
# --------------------------------------------------------------------------------------------


class Ours:
    name = "pykafka"

    def __init__(self, workdir: Path) -> None:
        self.proc = BrokerProcess("pykafka", workdir)

    def start(self) -> tuple[str, float]:
        t0 = time.monotonic()
        bootstrap = self.proc.start(60)
        _wait_metadata(bootstrap)
        return bootstrap, time.monotonic() - t0

    @property
    def pid(self) -> int:
        assert self.proc._proc is not None
        return self.proc._proc.pid

    def stop(self) -> None:
        self.proc.stop()


class Apache:
    name = "apache"

    def __init__(self, workdir: Path) -> None:
        self.kafka = jvm.ApacheKafka(1, num_partitions=PARTITIONS, heap="-Xmx1g", jvm_opts=())

    def start(self) -> tuple[str, float]:
        self.kafka.start()
        assert self.kafka.start_seconds is not None
        return self.kafka.bootstrap_servers, self.kafka.start_seconds

    @property
    def pid(self) -> int:
        return self.kafka.pid(0)

    def stop(self) -> None:
        self.kafka.close()


def _wait_metadata(bootstrap: str, timeout: float = 60) -> None:
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    deadline = time.monotonic() + timeout
    while True:
        try:
            admin.list_topics(timeout=1)
            return
        except Exception:  # noqa: BLE001
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def bench_brokers(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {}
    brokers = [Ours(tmp / "ours"), Apache(tmp / "apache")]
    (tmp / "ours").mkdir(parents=True)
    try:
        for b in brokers:
            bootstrap, ready = b.start()
            time.sleep(2.0)
            out[b.name] = {"bootstrap": bootstrap, "start_s": ready, "rss_idle_mib": rss_mib(b.pid), "sizes": {}}
        for size in args.sizes:
            records = args.records if size < 1024 else args.records // 2
            runs: dict[str, dict[str, list[float]]] = {b.name: {"produce": [], "consume": []} for b in brokers}
            for _ in range(args.repeat):
                for b in brokers:
                    bootstrap = out[b.name]["bootstrap"]
                    topic = f"bench-{size}-{uuid.uuid4().hex[:8]}"
                    common = {"bootstrap": bootstrap, "topic": topic, "size": size, "records": records}
                    p = workload.run_isolated(workload.measure_produce, {**common, "create_topic": True}, 120)
                    c = workload.run_isolated(workload.measure_consume, common, 120) if p.get("ok") else p
                    if p.get("ok"):
                        runs[b.name]["produce"].append(p["mb_per_s"])
                    if c.get("ok"):
                        runs[b.name]["consume"].append(c["mb_per_s"])
                    out[b.name]["rss_load_mib"] = max(out[b.name].get("rss_load_mib", 0.0), rss_mib(b.pid))
            for b in brokers:
                lat = workload.run_isolated(
                    workload.measure_latency,
                    {
                        "bootstrap": out[b.name]["bootstrap"],
                        "topic": f"bench-lat-{uuid.uuid4().hex[:8]}",
                        "size": size,
                        "count": 1000,
                        "interval_ms": 2,
                        "create_topic": True,
                    },
                    120,
                )
                out[b.name]["sizes"][str(size)] = {
                    "produce_mb_s": _median(runs[b.name]["produce"]),
                    "consume_mb_s": _median(runs[b.name]["consume"]),
                    "p50_ms": lat.get("p50_ms"),
                    "p99_ms": lat.get("p99_ms"),
                    "latency_error": None if lat.get("ok") else lat.get("error"),
                }
                print(f"[broker {b.name}] {size} B {out[b.name]['sizes'][str(size)]}", file=sys.stderr)
    finally:
        for b in brokers:
            b.stop()
    return out


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


# --------------------------------------------------------------------------------------------
# Spark
# --------------------------------------------------------------------------------------------


def produce(bootstrap: str, topic: str, n: int, size: int) -> None:
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.size": 1 << 20, "compression.type": "none"})
    body = '{"id": %d, "name": "n%d", "score": %d.5, "pad": "'
    for i in range(n):
        head = (body % (i, i, i % 100)).encode()
        value = head + b"x" * max(0, size - len(head) - 2) + b'"}'
        while True:
            try:
                p.produce(topic, value=value, key=b"k%d" % i, partition=i % PARTITIONS)
                break
            except BufferError:
                p.poll(0.01)
    assert p.flush(120) == 0


def spark_session() -> Any:
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    spark = jvm.spark_with(
        kafka=True,
        delta=False,
        **{
            "spark.driver.memory": "2g",
            "spark.sql.shuffle.partitions": "2",
            "spark.app.name": "bench-peers",
        },
    )
    spark.sparkContext.setLogLevel("ERROR")
    from connector.datasource import PyKafkaDataSource

    spark.dataSource.register(PyKafkaDataSource)
    return spark


def _batch_count(spark: Any, fmt: str, bootstrap: str, topic: str) -> int:
    df = spark.read.format(fmt).option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic).load()
    return int(df.count())


def _from_json(spark: Any, fmt: str, bootstrap: str, topic: str) -> int:
    from pyspark.sql.functions import col, from_json

    df = spark.read.format(fmt).option("kafka.bootstrap.servers", bootstrap).option("subscribe", topic).load()
    parsed = df.select(
        from_json(col("value").cast("string"), "id LONG, name STRING, score DOUBLE, pad STRING").alias("j")
    )
    row = parsed.selectExpr("count(j.id) AS n", "sum(j.score) AS s").collect()[0]
    assert row["s"] is not None
    return int(row["n"])


def _stream_noop(spark: Any, fmt: str, bootstrap: str, topic: str) -> int:
    cp = tempfile.mkdtemp(prefix="bench-cp-")
    q = (
        spark.readStream.format(fmt)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .writeStream.format("noop")
        .option("checkpointLocation", cp)
        .trigger(availableNow=True)
        .start()
    )
    try:
        q.awaitTermination(600)
        return sum(int(p["numInputRows"]) for p in q.recentProgress)
    finally:
        q.stop()


def bench_delta(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """Exactly-once Kafka -> Delta: pykafka -> pykafka-delta (this pyspark) vs Spark's Kafka source
    -> foreachBatch(delta-spark with txnAppId/txnVersion) (delta-spark's pyspark, its own JVM)."""
    from peers import delta_spark

    out: dict[str, Any] = {}
    ours = Ours(tmp / "delta-ours")
    (tmp / "delta-ours").mkdir(parents=True)
    bootstrap, _ = ours.start()
    spark = spark_session()
    try:
        for size in args.sizes:
            n = args.spark_records if size < 1024 else args.spark_records // 2
            topic = f"delta-{size}-{uuid.uuid4().hex[:8]}"
            produce(bootstrap, topic, n, size)
            samples: dict[str, list[float]] = {"delta-spark": [], "pykafka-delta": []}
            for attempt in range(-1, args.repeat):  # attempt -1: ours' warm-up, not timed
                path = str(tmp / f"theirs-{size}-{attempt}")
                per = str(args.delta_per_trigger)
                r = {"rows": n, "seconds": 0.0}
                if attempt >= 0:
                    r = delta_spark.run("kafka-to-delta", path, bootstrap, topic, per, timeout=900)
                if r["rows"] != n:
                    raise RuntimeError(f"delta-spark wrote {r['rows']} rows, expected {n}")
                if attempt >= 0:
                    samples["delta-spark"].append(n / r["seconds"])
                path = str(tmp / f"ours-{size}-{attempt}")
                reader = (
                    spark.readStream.format("pykafka")
                    .option("kafka.bootstrap.servers", bootstrap)
                    .option("subscribe", topic)
                    .option("startingOffsets", "earliest")
                )
                if args.delta_per_trigger:
                    reader = reader.option("maxOffsetsPerTrigger", str(args.delta_per_trigger))
                t0 = time.perf_counter()
                q = (
                    reader.load()
                    .writeStream.format("pykafka-delta")
                    .option("checkpointLocation", str(tmp / f"ours-cp-{size}-{attempt}"))
                    .trigger(availableNow=True)
                    .start(path)
                )
                q.awaitTermination(900)
                seconds = time.perf_counter() - t0
                from deltalake import DeltaTable

                rows = DeltaTable(path).to_pyarrow_dataset().count_rows()
                if rows != n:
                    raise RuntimeError(f"pykafka-delta wrote {rows} rows, expected {n}")
                if attempt >= 0:
                    samples["pykafka-delta"].append(n / seconds)
            out[str(size)] = {k: statistics.median(v) for k, v in samples.items()}
            print(f"[delta] {size} B: {out[str(size)]}", file=sys.stderr)
    finally:
        ours.stop()
        spark.stop()
    return out


def _timed(fn: Callable[[], int]) -> tuple[float, int]:
    t0 = time.perf_counter()
    n = fn()
    return time.perf_counter() - t0, n


def _timed_retrying(fn: Callable[[], int], what: str, out: dict[str, Any]) -> tuple[float, int]:
    """`_timed`, run again (up to twice) when pyspark's Python streaming source worker did not
    connect back within the 10 s PythonWorkerFactory allows a fresh worker (its imports of pyspark
    on a machine loaded far beyond its cores); each such failure is listed in the results."""
    for attempt in range(3):
        try:
            return _timed(fn)
        except Exception as e:  # noqa: BLE001
            if "failed to connect back" not in str(e) or attempt == 2:
                raise
            out.setdefault("worker_start_failures", []).append(what)
            print(f"[spark source] {what}: Python worker did not connect back; measured again", file=sys.stderr)
    raise AssertionError("unreachable")


def bench_spark(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"source": {}, "sink": {}}
    targets: list[tuple[str, Any]] = []
    ours = Ours(tmp / "spark-ours")
    (tmp / "spark-ours").mkdir(parents=True)
    targets.append(("pykafka broker", ours))
    if args.source_brokers == "both":
        targets.append(("apache broker", Apache(tmp / "spark-apache")))
    spark = spark_session()
    try:
        for label, broker in targets:
            bootstrap, _ = broker.start()
            for size in args.sizes:
                n = args.spark_records if size < 1024 else args.spark_records // 2
                topic = f"spark-{size}-{uuid.uuid4().hex[:8]}"
                produce(bootstrap, topic, n, size)
                cases = {
                    "batch count()": lambda f, t=topic, b=bootstrap: _batch_count(spark, f, b, t),
                    "stream → noop": lambda f, t=topic, b=bootstrap: _stream_noop(spark, f, b, t),
                    "from_json → sum": lambda f, t=topic, b=bootstrap: _from_json(spark, f, b, t),
                }
                for case, fn in cases.items():
                    if args.spark_cases and case.split()[0] not in args.spark_cases:
                        continue
                    samples: dict[str, list[float]] = {"kafka": [], "pykafka": []}
                    for fmt in ("kafka", "pykafka"):
                        fn(fmt)  # warm-up
                    for _ in range(args.repeat):
                        for fmt in ("kafka", "pykafka"):
                            what = f"{label} {size} B {case} {fmt}"
                            seconds, got = _timed_retrying(lambda f=fmt, g=fn: g(f), what, out)
                            if got != n:
                                raise RuntimeError(f"{case} {fmt}: {got} rows, expected {n}")
                            samples[fmt].append(n / seconds)
                    row = {fmt: statistics.median(v) for fmt, v in samples.items()}
                    out["source"][f"{label}|{size}|{case}"] = row
                    print(f"[spark source] {label} {size} B {case}: {row}", file=sys.stderr)
            if label == "pykafka broker" and not args.spark_cases:
                for size in args.sizes:
                    n = args.spark_records if size < 1024 else args.spark_records // 2
                    df = spark.range(0, n, numPartitions=2).selectExpr(
                        "cast(concat('k', id) AS binary) AS key", f"cast(repeat('x', {size}) AS binary) AS value"
                    )
                    df = df.cache()
                    df.count()
                    samples = {"kafka": [], "pykafka": []}
                    for attempt in range(args.repeat + 1):
                        for fmt in ("kafka", "pykafka"):
                            topic = f"sink-{fmt}-{size}-{uuid.uuid4().hex[:8]}"
                            t0 = time.perf_counter()
                            (
                                df.write.format(fmt)
                                .option("kafka.bootstrap.servers", bootstrap)
                                .option("topic", topic)
                                .mode("append")
                                .save()
                            )
                            if attempt:
                                samples[fmt].append(n / (time.perf_counter() - t0))
                    df.unpersist()
                    row = {fmt: statistics.median(v) for fmt, v in samples.items()}
                    out["sink"][str(size)] = row
                    print(f"[spark sink] {size} B: {row}", file=sys.stderr)
            broker.stop()
    finally:
        for _, broker in targets:
            broker.stop()
        spark.stop()
    return out


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def _f(v: float | None, digits: int = 1) -> str:
    return "—" if v is None else f"{v:,.{digits}f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "—" if not a or not b else f"{a / b:.2f}"


def render(results: dict[str, Any], command: str) -> str:
    m = results["machine"]
    parts = [
        SECTION_BEGIN,
        "## Side by side with the JVM peers (`python -m bench.peers_side_by_side`)",
        "",
        f"Run {m['date_utc']} with `{command}`; {m['cpu_model']}, {m['usable_cores']} usable cores, "
        f"load average {m['load_avg_start']} at start, {results.get('load_avg_end')} at end. "
        f"Peers: {results['peers']}. The machine was shared with other work while this ran: "
        "absolute numbers are low and noisy, the ratios (pairs measured back to back, alternating) are the result.",
        "",
    ]
    if "brokers" in results:
        b = results["brokers"]
        ours, apache = b["pykafka"], b["apache"]
        parts += [
            "### Broker: ours vs Apache Kafka (confluent-kafka clients, bench/workload.py)",
            "",
            "| metric | pykafka | Apache Kafka | pykafka/apache |",
            "|---|---:|---:|---:|",
            f"| process start → ready (s) | {_f(ours['start_s'], 2)} | {_f(apache['start_s'], 2)} | "
            f"{_ratio(ours['start_s'], apache['start_s'])} |",
            f"| RSS idle (MiB) | {_f(ours['rss_idle_mib'])} | {_f(apache['rss_idle_mib'])} | "
            f"{_ratio(ours['rss_idle_mib'], apache['rss_idle_mib'])} |",
            f"| RSS after load (MiB) | {_f(ours.get('rss_load_mib'))} | {_f(apache.get('rss_load_mib'))} | "
            f"{_ratio(ours.get('rss_load_mib'), apache.get('rss_load_mib'))} |",
        ]
        for size in ours["sizes"]:
            o, a = ours["sizes"][size], apache["sizes"][size]
            for label, key in (
                ("produce MB/s", "produce_mb_s"),
                ("consume MB/s", "consume_mb_s"),
                ("latency p50 (ms)", "p50_ms"),
                ("latency p99 (ms)", "p99_ms"),
            ):
                parts.append(f"| {size} B {label} | {_f(o[key], 2)} | {_f(a[key], 2)} | {_ratio(o[key], a[key])} |")
        parts.append("")
    if "spark" in results:
        s = results["spark"]
        parts += [
            '### Spark source: `format("pykafka")` vs Spark\'s `format("kafka")` (records/s, one SparkSession)',
            "",
            "| broker | size | query | kafka | pykafka | pykafka/kafka |",
            "|---|---:|---|---:|---:|---:|",
        ]
        for key, row in s["source"].items():
            broker, size, case = key.split("|")
            parts.append(
                f"| {broker} | {size} B | {case} | {_f(row['kafka'], 0)} | {_f(row['pykafka'], 0)} | "
                f"{_ratio(row['pykafka'], row['kafka'])} |"
            )
        parts += [
            "",
            '### Spark sink: `write.format("pykafka")` vs `format("kafka")` into our broker (records/s)',
            "",
            "| size | kafka | pykafka | pykafka/kafka |",
            "|---:|---:|---:|---:|",
        ]
        for size, row in s["sink"].items():
            ratio = _ratio(row["pykafka"], row["kafka"])
            parts.append(f"| {size} B | {_f(row['kafka'], 0)} | {_f(row['pykafka'], 0)} | {ratio} |")
        parts.append("")
    if "delta" in results:
        parts += [
            "### Exactly-once Kafka → Delta: `pykafka` → `pykafka-delta` vs Spark's `kafka` → "
            "`foreachBatch` delta-spark with `txnAppId`/`txnVersion` (records/s, our broker)",
            "",
            "| size | delta-spark | pykafka-delta | pykafka-delta/delta-spark |",
            "|---:|---:|---:|---:|",
        ]
        for size, row in results["delta"].items():
            ratio = _ratio(row["pykafka-delta"], row["delta-spark"])
            parts.append(f"| {size} B | {_f(row['delta-spark'], 0)} | {_f(row['pykafka-delta'], 0)} | {ratio} |")
        parts.append("")
    notes = list(results.get("notes", []))
    if notes:
        parts += ["Notes:", ""] + [f"- {n}" for n in notes] + [""]
    parts += [SECTION_END, ""]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default="brokers,spark,delta", help="brokers,spark,delta (default all)")
    ap.add_argument("--delta-per-trigger", type=int, default=0, help="maxOffsetsPerTrigger of the Delta runs")
    ap.add_argument("--sizes", default="100,1024", type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--records", type=int, default=200_000, help="broker runs (half from 1 KiB)")
    ap.add_argument("--spark-records", type=int, default=200_000, help="Spark runs (half from 1 KiB)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--source-brokers", choices=["ours", "both"], default="both")
    ap.add_argument(
        "--spark-cases",
        type=lambda s: set(s.split(",")),
        default=set(),
        help="only these source queries: batch,stream,from_json (default all, and the sink rows)",
    )
    ap.add_argument("--out", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--note", action="append", default=[], help="extra bullet under the tables (repeatable)")
    ap.add_argument("--from-json", type=Path, help="run nothing: re-render a saved --json file (with --note/--out)")
    args = ap.parse_args(argv)
    if args.from_json:
        results = json.loads(args.from_json.read_text())
        results["notes"] = results.get("notes", []) + args.note
        section = render(results, results["command"])
        print(section)
        if args.out:
            report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
        return 0
    parts = set(args.parts.split(","))
    versions = jvm.spark_peer_versions()
    kafka_jar = next(jvm.KAFKA_LIB.glob("kafka_2.13-*.jar")).name.removeprefix("kafka_2.13-").removesuffix(".jar")
    import pyspark

    results: dict[str, Any] = {
        "machine": report.machine_info(),
        "peers": f"Apache Kafka {kafka_jar}, Spark's Kafka connector {versions['spark']} "
        f"in pyspark {pyspark.__version__}",
    }
    results["machine"]["load_avg_start"] = report.load_average()
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp:
        if "brokers" in parts:
            results["brokers"] = bench_brokers(args, Path(tmp) / "b")
        if "spark" in parts:
            results["spark"] = bench_spark(args, Path(tmp) / "s")
        if "delta" in parts:
            results["delta"] = bench_delta(args, Path(tmp) / "d")
    results["load_avg_end"] = report.load_average()
    command = "python -m bench.peers_side_by_side " + " ".join(argv if argv is not None else sys.argv[1:])
    results["command"] = command.strip()
    results["notes"] = list(args.note)
    section = render(results, command.strip())
    print(section)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
