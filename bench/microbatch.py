"""Micro-batch overhead of a Kafka → Delta streaming query: ours vs Spark's.

    .venv/bin/python -m bench.microbatch                                  # table on stdout
    .venv/bin/python -m bench.microbatch --repeat 3 --out bench/RESULTS.md

* **pykafka**: ``readStream.format("pykafka")`` → ``writeStream.format("pykafka-delta")`` in this
  pyspark.
* **kafka**: Spark's own ``readStream.format("kafka")`` → ``writeStream.format("delta")``
  (delta-spark) in delta-spark's pyspark (``peers/target/delta-venv``, its own JVM, as
  ``bench.peers_side_by_side`` runs it).

Both read the same kind of topic of our broker (4 partitions, a fresh topic per run) with a
``processingTime`` trigger, ``local[2]``. Each run is one query in its own process; the bench feeds
it: after each batch it produces either a handful of records (one per partition: the "~0 records"
batch) or ``--big`` records, alternating, so that every batch of the query is a measured one. From
Spark's progress reports (``durationMs``) and Spark's REST API (the stage that reads the source)
each batch gives:

* **to first read**: trigger start (progress ``timestamp``) → the first task of the batch's read
  stage launched (``firstTaskLaunchedTime``): latestOffset, offset log, planning, the source's
  ``partitions()``, task scheduling, and for delta-spark its Delta log work, which runs before
  the read (the read stage is the one with one task per topic partition). Both sources send their
  first Fetch as their task starts.
* **batch duration**: ``triggerExecution``; the fixed cost per batch is its median over the small
  batches; the cost per record is the slope between the small and the big batches.

Runs alternate ours/theirs (``--repeat`` pairs, order flipped each pair); the table gives medians
over all runs. The first two batches of every query (the start-up batch and a warm-up) are not
measured.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SECTION_BEGIN = "<!-- BEGIN bench.microbatch -->"
SECTION_END = "<!-- END bench.microbatch -->"
PARTITIONS = 4
SIDES = ("pykafka", "kafka")
WARMUP_BATCHES = 2


# --------------------------------------------------------------------------------------------
# worker: one streaming query, in this pyspark (pykafka) or in the delta venv (kafka)
# --------------------------------------------------------------------------------------------


def _emit(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def _rest_time(value: str | None) -> float | None:
    # Spark's REST API: "2026-11-25T09:01:19.235GMT"
    if not value:
        return None
    return datetime.strptime(value.replace("GMT", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def _read_stage_launch(ui: str, app: str, batch_id: int, run_id: str) -> dict[str, Any]:
    """First task launch of the batch's source-reading stage and the stages seen (Spark's REST API)."""
    jobs = _get_json(f"{ui}/api/v1/applications/{app}/jobs")
    mine = [
        j
        for j in jobs
        if run_id in (j.get("jobGroup") or "") + (j.get("description") or "")
        and f"batch = {batch_id}" in (j.get("description") or "")
    ]
    stages = []
    for j in sorted(mine, key=lambda j: j["jobId"]):
        for sid in sorted(j.get("stageIds", [])):
            for attempt in _get_json(f"{ui}/api/v1/applications/{app}/stages/{sid}"):
                stages.append(
                    {
                        "stage": sid,
                        "name": attempt.get("name", ""),
                        "tasks": attempt.get("numTasks"),
                        "status": attempt.get("status"),
                        "first_task": _rest_time(attempt.get("firstTaskLaunchedTime")),
                    }
                )
    done = [s for s in stages if s["first_task"] is not None and s["status"] == "COMPLETE"]
    # Both sources plan one task per topic partition, so the stage that reads the source (and
    # writes the files) has PARTITIONS tasks; delta-spark's own log work before it (snapshot
    # state reconstruction, 1-2 tasks) carries the same call-site name and is not the read
    reads = [s for s in done if s["tasks"] == PARTITIONS]
    first = min((s["first_task"] for s in reads), default=None)
    return {"first_task_launch": first, "stages": stages}


def _session(side: str) -> Any:
    from peers import jvm

    conf = {
        "spark.driver.memory": "1g",
        "spark.sql.shuffle.partitions": "2",
        "spark.ui.enabled": "true",
        "spark.ui.port": "0",
        "spark.ui.showConsoleProgress": "false",
        "spark.app.name": f"bench-microbatch-{side}",
    }
    if side == "kafka":
        conf["spark.databricks.delta.snapshotPartitions"] = "1"
        spark = jvm.spark_with(kafka=True, delta=True, **conf)
    else:
        spark = jvm.spark_with(kafka=False, delta=False, **conf)
        import connector

        connector.register(spark)
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def worker(args: argparse.Namespace) -> int:
    """Run one query; print one JSON line per finished batch; stop at 'stop' on stdin."""
    import threading

    spark = _session(args.side)
    ui = spark.sparkContext.uiWebUrl.rstrip("/")
    app = spark.sparkContext.applicationId
    cp = tempfile.mkdtemp(prefix="bench-mb-cp-")
    fmt = "pykafka" if args.side == "pykafka" else "kafka"
    sink = "pykafka-delta" if args.side == "pykafka" else "delta"
    t0 = time.time()
    q = (
        spark.readStream.format(fmt)
        .option("kafka.bootstrap.servers", args.bootstrap)
        .option("subscribe", args.topic)
        .option("startingOffsets", "earliest")
        .load()
        .writeStream.format(sink)
        .option("checkpointLocation", cp)
        .trigger(processingTime=f"{args.trigger_ms} milliseconds")
        .start(args.path)
    )
    _emit({"event": "started", "start_s": time.time() - t0})
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True).start()
    seen: set[int] = set()
    try:
        while not stop.is_set():
            if q.exception() is not None:
                raise RuntimeError(str(q.exception()))
            for p in q.recentProgress:
                bid = int(p["batchId"])
                if bid in seen or int(p["numInputRows"]) == 0 and bid > 0:
                    continue
                seen.add(bid)
                start = datetime.strptime(p["timestamp"].replace("Z", "+0000"), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
                try:
                    launch = _read_stage_launch(ui, app, bid, str(q.runId))
                except OSError as e:  # the UI did not answer in time (a loaded machine): no value
                    launch = {"first_task_launch": None, "stages": [], "error": repr(e)}
                _emit(
                    {
                        "event": "batch",
                        "batch": bid,
                        "rows": int(p["numInputRows"]),
                        "durations_ms": dict(p["durationMs"]),
                        "trigger_start": start,
                        "to_first_read_ms": (launch["first_task_launch"] - start) * 1000
                        if launch["first_task_launch"]
                        else None,
                        "stages": launch["stages"],
                    }
                )
            time.sleep(0.05)
    finally:
        q.stop()
        spark.stop()
    _emit({"event": "done"})
    return 0


# --------------------------------------------------------------------------------------------
# parent: broker, topics, the feeding loop, alternation, report
# --------------------------------------------------------------------------------------------


def _produce(producer: Any, topic: str, n: int, size: int, start: int) -> None:
    value = b"x" * size
    for i in range(start, start + n):
        while True:
            try:
                producer.produce(topic, value=value, key=b"k%d" % i, partition=i % PARTITIONS)
                break
            except BufferError:
                producer.poll(0.01)
    if producer.flush(60) != 0:
        raise RuntimeError("records left unsent")


def _worker_cmd(side: str) -> tuple[list[str], dict[str, str]]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT)
    if side == "kafka":
        from peers import delta_spark

        reason = delta_spark.available()
        if reason:
            raise RuntimeError(reason)
        py = str(delta_spark.DELTA_PYTHON)
        env.pop("SPARK_HOME", None)
    else:
        py = sys.executable
    env["PYSPARK_PYTHON"] = py
    env["PYSPARK_DRIVER_PYTHON"] = py
    return [py, "-m", "bench.microbatch", "worker"], env


def run_one(side: str, bootstrap: str, size: int, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    """One query of `side` fed with alternating small/big loads; its measured batches."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"mb-{side}-{size}-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 1 << 20})
    _produce(producer, topic, PARTITIONS, size, 0)  # batch 0 reads these
    cmd, env = _worker_cmd(side)
    path = str(tmp / f"table-{side}-{size}-{uuid.uuid4().hex[:6]}")
    cmd += [
        "--side",
        side,
        "--bootstrap",
        bootstrap,
        "--topic",
        topic,
        "--path",
        path,
        "--trigger-ms",
        str(args.trigger_ms),
    ]
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(REPO_ROOT),
    )
    batches: list[dict[str, Any]] = []
    sent = PARTITIONS
    total = WARMUP_BATCHES + 2 * args.batches
    deadline = time.monotonic() + args.timeout
    try:
        assert proc.stdout is not None and proc.stdin is not None
        got = 0
        while got < total:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{side}: {got} of {total} batches within {args.timeout} s")
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{side} worker exited {proc.wait()}: {proc.stderr.read()[-4000:]}")  # type: ignore[union-attr]
            if not line.startswith("{"):
                continue
            ev = json.loads(line)
            if ev["event"] != "batch":
                continue
            got += 1
            if got > WARMUP_BATCHES:
                batches.append(ev)
            # the next batch: big after a small one and after batch 0, small after a big one
            n = args.big if ev["rows"] <= PARTITIONS else PARTITIONS
            if got < total:
                _produce(producer, topic, n, size, sent)
                sent += n
        proc.stdin.write("stop\n")
        proc.stdin.flush()
        proc.wait(120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return {"side": side, "topic": topic, "batches": batches}


def _run_retrying(
    side: str, bootstrap: str, size: int, args: argparse.Namespace, tmp: Path, results: dict[str, Any]
) -> dict[str, Any]:
    """`run_one`, run again (up to twice) when pyspark's Python streaming source worker did not
    connect back within the 10 s PythonWorkerFactory allows a fresh worker (its own imports on a
    machine loaded far beyond its cores); each such failure is listed in the results."""
    for attempt in range(3):
        try:
            return run_one(side, bootstrap, size, args, tmp)
        except RuntimeError as e:
            if "failed to connect back" not in str(e) or attempt == 2:
                raise
            results.setdefault("worker_start_failures", []).append(f"{size} B {side}")
            print(f"[microbatch] {side}: Python worker did not connect back; run again", file=sys.stderr)
    raise AssertionError("unreachable")


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over every measured batch of every run of one side and size."""
    small = [b for r in runs for b in r["batches"] if b["rows"] <= PARTITIONS]
    big = [b for r in runs for b in r["batches"] if b["rows"] > PARTITIONS]
    phases = ("latestOffset", "walCommit", "queryPlanning", "getBatch", "addBatch", "commitOffsets")
    out: dict[str, Any] = {
        "small_batches": len(small),
        "big_batches": len(big),
        "first_read_small_ms": _median([b["to_first_read_ms"] for b in small if b["to_first_read_ms"] is not None]),
        "first_read_big_ms": _median([b["to_first_read_ms"] for b in big if b["to_first_read_ms"] is not None]),
        "fixed_ms": _median([b["durations_ms"]["triggerExecution"] for b in small]),
        "big_ms": _median([b["durations_ms"]["triggerExecution"] for b in big]),
        "big_rows": _median([b["rows"] for b in big]),
        "small_rows": _median([b["rows"] for b in small]),
        "phases_small_ms": {ph: _median([b["durations_ms"].get(ph, 0) for b in small]) for ph in phases},
    }
    if out["big_ms"] is not None and out["fixed_ms"] is not None and out["big_rows"]:
        out["us_per_record"] = (out["big_ms"] - out["fixed_ms"]) * 1000 / (out["big_rows"] - out["small_rows"])
    return out


def _f(v: float | None, digits: int = 0) -> str:
    return "—" if v is None else f"{v:,.{digits}f}"


def _r(a: float | None, b: float | None) -> str:
    return "—" if not a or not b else f"{a / b:.2f}"


def render(results: dict[str, Any]) -> str:
    m = results["machine"]
    lines = [
        SECTION_BEGIN,
        "## Micro-batch overhead: Kafka → Delta (`python -m bench.microbatch`)",
        "",
        f"Run {m['date_utc']} at {m.get('repo_commit', '?')} with `{results['command']}`; {m['cpu_model']}, "
        f"{m['usable_cores']} usable cores, load average {m['load_avg_start']} at start, "
        f'{results["load_avg_end"]} at end. pykafka: `format("pykafka")` → `pykafka-delta` in pyspark '
        f'{results["versions"]["pyspark"]}; kafka: Spark\'s `format("kafka")` → delta-spark\'s `format("delta")` '
        f"in pyspark {results['versions']['delta_pyspark']} (its own JVM, peers/target/delta-venv). Trigger "
        f"processingTime {results['settings']['trigger_ms']} ms, local[2], a fresh topic of our broker "
        f"(4 partitions) per run; small batches = {PARTITIONS} records (one per partition), big = "
        f"{results['settings']['big']:,} records; {results['settings']['repeat']} runs per side, alternating, "
        f"{results['settings']['batches']} small + {results['settings']['batches']} big batches measured per run.",
        "",
        "| size | measure (median) | kafka → delta-spark | pykafka → pykafka-delta | pykafka/kafka |",
        "|---:|---|---:|---:|---:|",
    ]
    for size, sides in results["sizes"].items():
        k, p = sides["kafka"], sides["pykafka"]
        rows = [
            ("trigger start → first read task, ~0 records (ms)", "first_read_small_ms", 0),
            (f"trigger start → first read task, {results['settings']['big']:,} records (ms)", "first_read_big_ms", 0),
            ("fixed cost: batch duration with ~0 records (ms)", "fixed_ms", 0),
            (f"batch duration, {results['settings']['big']:,} records (ms)", "big_ms", 0),
            ("cost per record above the fixed cost (µs)", "us_per_record", 2),
        ]
        for label, key, digits in rows:
            lines.append(f"| {size} B | {label} | {_f(k.get(key), digits)} | {_f(p.get(key), digits)} | "
                         f"{_r(p.get(key), k.get(key))} |")  # fmt: skip
    lines += [
        "",
        "Phases of the ~0-record batches (progress `durationMs`, median ms):",
        "",
        "| size | side | latestOffset | walCommit | queryPlanning | getBatch | addBatch | commitOffsets |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    for size, sides in results["sizes"].items():
        for side in ("kafka", "pykafka"):
            ph = sides[side]["phases_small_ms"]
            cells = " | ".join(_f(ph[k]) for k in ph)
            lines.append(f"| {size} B | {side} | {cells} |")
    lines.append("")
    notes = results.get("notes", [])
    if notes:
        lines += ["Notes:", ""] + [f"- {n}" for n in notes] + [""]
    lines += [SECTION_END, ""]
    return "\n".join(lines)


def _delta_pyspark_version() -> str:
    from peers import delta_spark

    try:
        out = subprocess.run(
            [str(delta_spark.DELTA_PYTHON), "-c", "import pyspark; print(pyspark.__version__)"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return out.stdout.strip() or "?"
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["worker"]:
        wp = argparse.ArgumentParser()
        wp.add_argument("--side", choices=SIDES, required=True)
        wp.add_argument("--bootstrap", required=True)
        wp.add_argument("--topic", required=True)
        wp.add_argument("--path", required=True)
        wp.add_argument("--trigger-ms", type=int, default=2000)
        return worker(wp.parse_args(argv[1:]))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100", type=lambda s: [int(x) for x in s.split(",")])
    ap.add_argument("--big", type=int, default=10_000, help="records of a big batch")
    ap.add_argument("--batches", type=int, default=4, help="measured small (and as many big) batches per run")
    ap.add_argument("--trigger-ms", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3, help="runs per side (alternating)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--note", action="append", default=[])
    ap.add_argument("--from-json", type=Path, help="run nothing: re-render a saved --json file")
    args = ap.parse_args(argv)
    from bench import report

    if args.from_json:
        results = json.loads(args.from_json.read_text())
        results["notes"] = results.get("notes", []) + args.note
    else:
        import pyspark

        from bench.targets import BrokerProcess

        results = {
            "machine": report.machine_info(),
            "versions": {"pyspark": pyspark.__version__, "delta_pyspark": _delta_pyspark_version()},
            "settings": {
                "trigger_ms": args.trigger_ms,
                "big": args.big,
                "batches": args.batches,
                "repeat": args.repeat,
            },  # fmt: skip
            "command": ("python -m bench.microbatch " + " ".join(argv)).strip(),
            "notes": list(args.note),
            "runs": [],
            "sizes": {},
        }
        with tempfile.TemporaryDirectory(prefix="bench-microbatch-") as tmp:
            broker = BrokerProcess("pykafka", Path(tmp))
            bootstrap = broker.start(60)
            try:
                for size in args.sizes:
                    per_side: dict[str, list[dict[str, Any]]] = {s: [] for s in SIDES}
                    for rep in range(args.repeat):
                        order = SIDES if rep % 2 == 0 else SIDES[::-1]
                        for side in order:
                            run = _run_retrying(side, bootstrap, size, args, Path(tmp), results)
                            run["size"] = size
                            per_side[side].append(run)
                            results["runs"].append(run)
                            s = summarize([run])
                            msg = f"first read {_f(s['first_read_small_ms'])} ms, fixed {_f(s['fixed_ms'])} ms"
                            print(f"[microbatch] {size} B {side} run {rep}: {msg}, big {_f(s['big_ms'])} ms",
                                  file=sys.stderr)  # fmt: skip
                    results["sizes"][str(size)] = {s: summarize(per_side[s]) for s in SIDES}
            finally:
                broker.stop()
        results["load_avg_end"] = report.load_average()
    section = render(results)
    print(section)
    if args.json and not args.from_json:
        args.json.write_text(json.dumps(results, indent=2, default=str))
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
