"""Long streaming queries as users run them: ``format("pykafka")`` vs Spark's ``format("kafka")``.

    .venv/bin/python -m bench.spark_stream_long                       # tables on stdout
    .venv/bin/python -m bench.spark_stream_long --repeat 5 --json /tmp/stream-long.json

Every query reads a pre-produced topic (4 partitions) from the earliest offset with
``maxOffsetsPerTrigger`` sized so that the topic takes ``--batches`` micro-batches, a
``processingTime`` trigger of 0 and the ``noop`` sink, in one SparkSession (``local[2]``) with
Spark's Kafka connector jars from peers/target; on our broker and on Apache Kafka, 100 B and 1 KiB
records. Per query, from Spark's progress reports:

* **steady rec/s**: records of batches 1..n over the time from batch 1's trigger start to the
  end of the last batch (its ``timestamp`` + ``triggerExecution``): the first batch is left out,
  the gaps between batches are in.
* **start → 1st batch**: wall time from ``start()`` to the end of batch 0 (process start of
  pyspark's Python streaming source runner, initialOffset, the first latestOffset and the read).
* **per-batch overhead**: median over batches 1..n of ``triggerExecution - addBatch`` (latestOffset,
  offset log writes, planning, commit log), and the median ``addBatch`` (tasks: the source's
  partitions(), the read, the sink) and ``latestOffset``.

The two sources alternate (ours, Spark's, ours, ... with the order flipped every pair), one warm-up
query each per case is not counted; medians and min–max spread of ``--repeat`` runs are reported,
with the load average before and after each case.
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
from datetime import datetime
from pathlib import Path
from typing import Any

from bench import peers_side_by_side, report
from bench.peers_side_by_side import Apache, Ours, produce
from peers import jvm

SECTION_BEGIN = "<!-- BEGIN bench.spark_stream_long -->"
SECTION_END = "<!-- END bench.spark_stream_long -->"


def spark_session() -> Any:
    """local[2] with Spark's Kafka connector jars from peers/target (as bench.peers_side_by_side)."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    spark = jvm.spark_with(
        kafka=True,
        delta=False,
        **{
            "spark.driver.memory": "2g",
            "spark.sql.shuffle.partitions": "2",
            "spark.ui.showConsoleProgress": "false",
            "spark.app.name": "bench-stream-long",
        },
    )
    spark.sparkContext.setLogLevel("ERROR")
    from connector.datasource import PyKafkaDataSource

    spark.dataSource.register(PyKafkaDataSource)
    return spark


_TICK = os.sysconf("SC_CLK_TCK")


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError):
            for tid in os.listdir(f"/proc/{p}/task"):
                with contextlib.suppress(OSError):
                    kids = [int(c) for c in Path(f"/proc/{p}/task/{tid}/children").read_text().split()]
                    out += kids
                    todo += kids
    return out


def _cpu_s(pid: int) -> float:
    """utime + stime of a live process (seconds); 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK


def _role(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    if "python_streaming_source_runner" in cmd:
        return "source runner"
    if "pyspark.daemon pyspark.worker" in cmd:
        return "python workers"
    return "python planners" if "python" in cmd else "other"


def cpu_snapshot(jvm_pid: int, broker_pid: int) -> dict[int, tuple[str, float]]:
    """CPU seconds per process: the Spark JVM, its Python processes (by role), the broker."""
    snap = {jvm_pid: ("spark JVM", _cpu_s(jvm_pid)), broker_pid: ("broker", _cpu_s(broker_pid))}
    for pid in _descendants(jvm_pid):
        snap[pid] = (_role(pid), _cpu_s(pid))
    return snap


def cpu_delta(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds used between two snapshots, per role (processes that exited in between are lost:
    the source runner is read before the query stops)."""
    out: dict[str, float] = {}
    for pid, (role, cpu) in after.items():
        out[role] = out.get(role, 0.0) + cpu - before.get(pid, (role, 0.0))[1]
    return out


def _epoch(ts: str) -> float:
    # progress timestamps: "2026-11-27T23:01:02.345Z"
    return datetime.strptime(ts.replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def run_query(
    spark: Any,
    fmt: str,
    bootstrap: str,
    topic: str,
    n: int,
    per_trigger: int,
    timeout: float,
    broker_pid: int,
    options: dict[str, str] | None = None,
) -> dict:
    """One long query until it has read `n` records; its per-batch numbers and CPU seconds by process."""
    jvm_pid = int(spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid())
    cpu_before = cpu_snapshot(jvm_pid, broker_pid)
    cp = tempfile.mkdtemp(prefix="bench-long-cp-")
    reader = (
        spark.readStream.format(fmt)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", str(per_trigger))
        .options(**(options or {}))
        .load()
    )
    t0 = time.time()
    q = reader.writeStream.format("noop").option("checkpointLocation", cp).trigger(processingTime="0 seconds").start()
    try:
        deadline = time.monotonic() + timeout
        while True:
            if q.exception() is not None:
                raise RuntimeError(str(q.exception()))
            progress = [p for p in q.recentProgress if int(p["numInputRows"]) > 0]
            if sum(int(p["numInputRows"]) for p in progress) >= n:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"{fmt}: {sum(int(p['numInputRows']) for p in progress)} of {n} rows in {timeout} s")
            time.sleep(0.1)
        cpu = cpu_delta(cpu_before, cpu_snapshot(jvm_pid, broker_pid))
    finally:
        q.stop()
    batches = sorted(
        (
            {
                "batch": int(p["batchId"]),
                "rows": int(p["numInputRows"]),
                "start": _epoch(p["timestamp"]),
                "durations_ms": {k: int(v) for k, v in dict(p["durationMs"]).items()},
            }
            for p in progress
        ),
        key=lambda b: b["batch"],
    )
    first, steady = batches[0], batches[1:]
    if not steady:
        raise RuntimeError(f"{fmt}: only one batch; lower maxOffsetsPerTrigger")
    last = steady[-1]
    span = last["start"] + last["durations_ms"]["triggerExecution"] / 1000 - steady[0]["start"]
    overhead = [b["durations_ms"]["triggerExecution"] - b["durations_ms"].get("addBatch", 0) for b in steady]
    return {
        "batches": len(batches),
        "rows": sum(b["rows"] for b in batches),
        "steady_rps": sum(b["rows"] for b in steady) / span,
        "first_batch_s": first["start"] + first["durations_ms"]["triggerExecution"] / 1000 - t0,
        "to_first_trigger_s": first["start"] - t0,
        "overhead_ms": statistics.median(overhead),
        "add_batch_ms": statistics.median(b["durations_ms"].get("addBatch", 0) for b in steady),
        "latest_offset_ms": statistics.median(b["durations_ms"].get("latestOffset", 0) for b in steady),
        "cpu_us_per_record": {role: round(sec * 1e6 / n, 2) for role, sec in sorted(cpu.items()) if sec > 0},
        "per_batch": batches,
    }


def _retrying(fn: Any, what: str, out: dict[str, Any]) -> dict:
    """pyspark's Python streaming source worker must connect back within a hard-coded 10 s
    (PythonWorkerFactory); on a machine loaded far beyond its cores it sometimes does not: the run
    is repeated (up to twice) and the failure listed in the results."""
    for attempt in range(3):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001
            if "failed to connect back" not in str(e) or attempt == 2:
                raise
            out.setdefault("worker_start_failures", []).append(what)
            print(f"[stream-long] {what}: Python worker did not connect back; measured again", file=sys.stderr)
    raise AssertionError("unreachable")


def _stats(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def bench(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {"cases": {}}
    targets: list[tuple[str, Any]] = []
    if "ours" in args.brokers:
        (tmp / "ours").mkdir(parents=True)
        targets.append(("pykafka broker", Ours(tmp / "ours")))
    if "apache" in args.brokers:
        targets.append(("apache broker", Apache(tmp / "apache")))
    spark = spark_session()
    # (label, format, options): with --max-partitions a third source, pykafka with that option, runs
    # interleaved with the other two, so its ratios come from the same runs
    variants: list[tuple[str, str, dict[str, str]]] = [("pykafka", "pykafka", {}), ("kafka", "kafka", {})]
    if args.max_partitions:
        variants.append((grouped_label(args.max_partitions), "pykafka", {"maxPartitions": str(args.max_partitions)}))
    try:
        for label, broker in targets:
            bootstrap, _ = broker.start()
            for size in args.sizes:
                n = args.records if size < 1024 else args.records // 2
                per_trigger = -(-n // args.batches)  # ceil: n records take `batches` batches
                topic = f"long-{size}-{uuid.uuid4().hex[:8]}"
                # produce() creates the topic with peers_side_by_side.PARTITIONS partitions
                peers_side_by_side.PARTITIONS = args.kafka_partitions
                produce(bootstrap, topic, n, size)
                load_before = report.load_average()
                runs: dict[str, list[dict]] = {v[0]: [] for v in variants}
                for i in range(-1, args.repeat):  # -1: one warm-up query per source, not counted
                    order = variants if i % 2 else variants[::-1]
                    for name, fmt, options in order:
                        what = f"{label} {size} B {name} run {i}"
                        query = (spark, fmt, bootstrap, topic, n, per_trigger, args.timeout, broker.pid, options)
                        r = _retrying(lambda q=query: run_query(*q), what, out)
                        if r["rows"] != n:
                            raise RuntimeError(f"{what}: {r['rows']} rows, expected {n}")
                        print(
                            f"[stream-long] {what}: {r['batches']} batches, steady {r['steady_rps']:,.0f} rec/s, "
                            f"first batch {r['first_batch_s']:.2f} s, overhead {r['overhead_ms']:.0f} ms, "
                            f"addBatch {r['add_batch_ms']:.0f} ms",
                            file=sys.stderr,
                        )
                        if i >= 0:
                            runs[name].append(r)
                case = {
                    "records": n,
                    "max_offsets_per_trigger": per_trigger,
                    "load_before": load_before,
                    "load_after": report.load_average(),
                }
                for fmt in runs:
                    rs = runs[fmt]
                    case[fmt] = {
                        key: _stats([r[key] for r in rs])
                        for key in (
                            "steady_rps",
                            "first_batch_s",
                            "to_first_trigger_s",
                            "overhead_ms",
                            "add_batch_ms",
                            "latest_offset_ms",
                        )
                    }
                    case[fmt]["batches"] = _stats([r["batches"] for r in rs])
                    roles = sorted({role for r in rs for role in r["cpu_us_per_record"]})
                    case[fmt]["cpu_us_per_record"] = {
                        role: statistics.median(r["cpu_us_per_record"].get(role, 0.0) for r in rs) for role in roles
                    }
                    case[fmt]["runs"] = [{k: v for k, v in r.items() if k != "per_batch"} for r in rs]
                    if args.keep_batches:
                        case[fmt]["per_batch"] = [r["per_batch"] for r in rs]
                out["cases"][f"{label}|{size}"] = case
            broker.stop()
    finally:
        for _, broker in targets:
            broker.stop()
        spark.stop()
    return out


# --------------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------------


def _cell(s: dict[str, float], digits: int = 0, scale: float = 1.0) -> str:
    return f"{s['median'] * scale:,.{digits}f} ({s['min'] * scale:,.{digits}f}–{s['max'] * scale:,.{digits}f})"


def _cpu(roles: dict[str, float]) -> str:
    parts = ", ".join(f"{role} {v:.1f}" for role, v in sorted(roles.items(), key=lambda kv: -kv[1]) if v >= 0.05)
    return f"{sum(roles.values()):.1f} ({parts})"


def grouped_label(max_partitions: int) -> str:
    return f"pykafka maxPartitions={max_partitions}"


def _ours_options(results: dict[str, Any]) -> str:
    mp = results.get("max_partitions")
    return f"; a third source, pykafka with maxPartitions={mp}, interleaved with the two" if mp else ""


def render(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        SECTION_BEGIN,
        '## Long streaming queries: `format("pykafka")` vs Spark\'s `format("kafka")` '
        "(`python -m bench.spark_stream_long`)",
        "",
        f"Run {m['date_utc']} with `{results['command']}`; {m['cpu_model']}, {m['usable_cores']} usable cores, "
        f"load average {m['load_avg_start']} at start, {results.get('load_avg_end')} at end. {results['peers']}. "
        f"Each query: {results['batches']} micro-batches (maxOffsetsPerTrigger = records / batches), "
        f"processingTime 0, noop sink, {results.get('kafka_partitions', 4)} partitions, startingOffsets earliest"
        f"{_ours_options(results)}. Median (min–max) of "
        f"{results['repeat']} interleaved runs per source; ratios of medians.",
        "",
    ]
    grouped = grouped_label(results["max_partitions"]) if results.get("max_partitions") else None
    if grouped:
        lines += [
            f"| broker | size | metric | kafka | pykafka | {grouped} | pykafka/kafka | {grouped}/kafka |",
            "|---|---:|---|---:|---:|---:|---:|---:|",
        ]
    else:
        lines += ["| broker | size | metric | kafka | pykafka | pykafka/kafka |", "|---|---:|---|---:|---:|---:|"]
    for key, case in results["bench"]["cases"].items():
        broker, size = key.split("|")
        k, p = case["kafka"], case["pykafka"]
        g = case.get(grouped) if grouped else None
        for label, metric, digits, scale in (
            ("steady rec/s", "steady_rps", 0, 1.0),
            ("start → 1st batch end (s)", "first_batch_s", 2, 1.0),
            ("  of which start → 1st trigger (s)", "to_first_trigger_s", 2, 1.0),
            ("per-batch overhead (ms)", "overhead_ms", 0, 1.0),
            ("addBatch (ms)", "add_batch_ms", 0, 1.0),
            ("latestOffset (ms)", "latest_offset_ms", 0, 1.0),
        ):
            ratio = p[metric]["median"] / k[metric]["median"] if k[metric]["median"] else float("nan")
            if g is None:
                lines.append(
                    f"| {broker} | {size} B | {label} | {_cell(k[metric], digits, scale)} | "
                    f"{_cell(p[metric], digits, scale)} | {ratio:.2f} |"
                )
                continue
            g_ratio = g[metric]["median"] / k[metric]["median"] if k[metric]["median"] else float("nan")
            lines.append(
                f"| {broker} | {size} B | {label} | {_cell(k[metric], digits, scale)} | "
                f"{_cell(p[metric], digits, scale)} | {_cell(g[metric], digits, scale)} | {ratio:.2f} | "
                f"{g_ratio:.2f} |"
            )
        cpu_k, cpu_p = k.get("cpu_us_per_record", {}), p.get("cpu_us_per_record", {})
        total_k, total_p = sum(cpu_k.values()), sum(cpu_p.values())
        cpu_ratio = total_p / total_k if total_k else float("nan")
        if g is None:
            lines.append(f"| {broker} | {size} B | CPU µs/record | {_cpu(cpu_k)} | {_cpu(cpu_p)} | {cpu_ratio:.2f} |")
            lines.append(
                f"| {broker} | {size} B | load before / after | {case['load_before']} | {case['load_after']} | |"
            )
            continue
        cpu_g = g.get("cpu_us_per_record", {})
        g_cpu_ratio = sum(cpu_g.values()) / total_k if total_k else float("nan")
        lines.append(
            f"| {broker} | {size} B | CPU µs/record | {_cpu(cpu_k)} | {_cpu(cpu_p)} | {_cpu(cpu_g)} | "
            f"{cpu_ratio:.2f} | {g_cpu_ratio:.2f} |"
        )
        lines.append(
            f"| {broker} | {size} B | load before / after | {case['load_before']} | {case['load_after']} | | | |"
        )
    lines += [
        "",
        "Steady rec/s: records of batches 1..n over batch 1's trigger start → the last batch's end. Per-batch "
        "overhead: median of `triggerExecution - addBatch` over batches 1..n. start → 1st batch end: wall time "
        "from `start()`. CPU µs/record: utime+stime of the Spark JVM, its Python processes (the query's "
        "source runner, the executor Python workers, the planners) and the broker over the whole query "
        "(first batch included) divided by its records; median of the runs.",
    ]
    failures = results["bench"].get("worker_start_failures")
    if failures:
        lines.append(f"Repeated after 'Python worker failed to connect back': {', '.join(failures)}.")
    lines += [*(f"- {n}" for n in results.get("notes", [])), "", SECTION_END, ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--brokers", default="ours,apache", type=lambda s: s.split(","), help="ours,apache")
    ap.add_argument("--sizes", default="100,1024", type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--records", type=int, default=200_000, help="records per topic at < 1 KiB (half from 1 KiB)")
    ap.add_argument("--batches", type=int, default=21, help="micro-batches per query (the first is not steady)")
    ap.add_argument("--repeat", type=int, default=5, help="counted runs per source and case")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per query")
    ap.add_argument(
        "--pycache",
        default=str(Path(tempfile.gettempdir()) / "pykafka-bench-pycache"),
        help="PYTHONPYCACHEPREFIX for Spark's Python processes, so they load bytecode as after a pip install "
        "(this environment sets PYTHONDONTWRITEBYTECODE=1: every fresh process would compile the sources); "
        "'none' leaves the environment as it is",
    )
    ap.add_argument("--kafka-partitions", type=int, default=4, help="partitions of the topic read")
    ap.add_argument(
        "--max-partitions",
        type=int,
        default=0,
        help="the pykafka source's maxPartitions option (at most that many tasks per micro-batch); 0: not set",
    )
    ap.add_argument("--keep-batches", action="store_true", help="keep every batch's progress in --json")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--out", type=Path, help="rewrite this bench's section of RESULTS.md")
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--from-json", type=Path, help="run nothing: re-render a saved --json file")
    args = ap.parse_args(argv)
    if args.from_json:
        results = json.loads(args.from_json.read_text())
        results["notes"] = results.get("notes", []) + args.note
    else:
        versions = jvm.spark_peer_versions()
        kafka_jar = next(jvm.KAFKA_LIB.glob("kafka_2.13-*.jar")).name.removeprefix("kafka_2.13-")
        import pyspark

        results = {
            "machine": report.machine_info(),
            "peers": f"Apache Kafka {kafka_jar.removesuffix('.jar')}, Spark's Kafka connector {versions['spark']} "
            f"in pyspark {pyspark.__version__}",
            "batches": args.batches,
            "repeat": args.repeat,
            "kafka_partitions": args.kafka_partitions,
            "max_partitions": args.max_partitions,
            "command": "python -m bench.spark_stream_long " + " ".join(argv if argv is not None else sys.argv[1:]),
            "notes": list(args.note),
        }
        if args.pycache != "none":
            # set before the JVM starts: Spark's Python processes inherit it
            os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
            os.environ["PYTHONPYCACHEPREFIX"] = args.pycache
            results["notes"].append(f"Spark's Python processes load bytecode from PYTHONPYCACHEPREFIX={args.pycache}")
        results["machine"]["load_avg_start"] = report.load_average()
        with tempfile.TemporaryDirectory(prefix="bench-long-") as tmp:
            results["bench"] = bench(args, Path(tmp))
        results["load_avg_end"] = report.load_average()
        if args.json:
            args.json.write_text(json.dumps(results, indent=2, default=str))
    section = render(results)
    print(section)
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
