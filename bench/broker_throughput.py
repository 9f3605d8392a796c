"""Run one produce/consume/latency workload side by side against several brokers.

Usage (from the repository root)::

    .venv/bin/python -m bench.broker_throughput                       # all targets, print table
    .venv/bin/python -m bench.broker_throughput --targets tansu,mock --out bench/RESULTS.md
    .venv/bin/python -m bench.broker_throughput --records 50000 --sizes 100 --json -

All targets are started up front on 127.0.0.1 (see ``bench/targets.py``) and measured in
turns, so outside load on a shared machine hits every column alike; each
measurement runs in a fresh worker process (``bench/workload.py``) with a timeout, so a
broken target turns into ``error: ...`` cells instead of a hung run. Servers are always
stopped, also on Ctrl-C and SIGTERM.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from bench import report, workload
from bench.targets import ALL_TARGETS, TARGET_INFO, BrokerProcess, TargetStartError

DEFAULT_SIZES = (100, 1024)
SMALL_RECORD_DEFAULT = 200_000  # records per run for sizes below 1 KiB
LARGE_RECORD_DEFAULT = 100_000  # records per run for 1 KiB and above


def default_records(size: int) -> int:
    return SMALL_RECORD_DEFAULT if size < 1024 else LARGE_RECORD_DEFAULT


def _csv(kind: type[int] | type[str]) -> Any:
    def parse(text: str) -> list[Any]:
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise argparse.ArgumentTypeError("empty list")
        try:
            return [kind(item) for item in items]
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from exc

    return parse


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.broker_throughput",
        description="Produce/consume throughput and produce→consume latency, side by side per broker.",
    )
    parser.add_argument(
        "--targets",
        type=_csv(str),
        default=list(ALL_TARGETS),
        help=f"comma-separated subset of {','.join(ALL_TARGETS)} (default: all)",
    )
    parser.add_argument(
        "--records",
        type=int,
        default=None,
        help=f"records per throughput run for every size (default: {SMALL_RECORD_DEFAULT:,} below 1 KiB, "
        f"{LARGE_RECORD_DEFAULT:,} from 1 KiB)",
    )
    parser.add_argument("--sizes", type=_csv(int), default=list(DEFAULT_SIZES), help="record value sizes, bytes")
    parser.add_argument("--repeat", type=int, default=3, help="throughput runs per size; the median is reported")
    parser.add_argument("--latency-count", type=int, default=2000, help="timed records in the latency test")
    parser.add_argument("--latency-interval-ms", type=float, default=2.0, help="gap between latency sends")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds allowed per measurement")
    parser.add_argument("--start-timeout", type=float, default=30.0, help="seconds allowed for a broker to start")
    parser.add_argument("--out", type=Path, default=None, help="markdown file whose section to write/update")
    parser.add_argument(
        "--json",
        dest="json_out",
        nargs="?",
        const="-",
        default=None,
        metavar="PATH",
        help="also write the raw results as JSON to PATH (default: stdout)",
    )
    parser.add_argument("--note", action="append", default=[], help="extra note for the markdown section")
    parser.add_argument(
        "--from-json",
        type=Path,
        default=None,
        metavar="PATH",
        help="do not run anything: re-render the table/section from a saved --json file",
    )
    parser.add_argument(
        "--pykafka-override", action="append", default=[], metavar="KEY=VALUE",
        help="passed to the embedded broker as --override KEY=VALUE (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--pykafka-command",
        type=shlex.split,
        default=None,
        metavar="CMD",
        help="command that starts the embedded broker, before '--port 0 --log-dir DIR' "
        "(default: this Python with -m broker_embedded)",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.targets if name not in TARGET_INFO]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; choose from {', '.join(ALL_TARGETS)}")
    if any(size < 16 for size in args.sizes):
        parser.error("sizes must be at least 16 bytes (the latency test stores a timestamp in the value)")
    if args.repeat < 1 or args.latency_count < 1 or (args.records is not None and args.records < 1):
        parser.error("--repeat, --latency-count and --records must be positive")
    return args


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _summary(result: dict[str, Any]) -> str:
    if not result.get("ok"):
        return f"error: {result.get('error')}"
    if "p50_ms" in result:
        return f"p50 {result['p50_ms']:.2f} ms, p99 {result['p99_ms']:.2f} ms"
    return f"{result['mb_per_s']:.1f} MB/s, {result['records_per_s']:,.0f} rec/s ({result['seconds']:.2f}s)"


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The median successful run (by MB/s), annotated with all runs; else the first failure."""
    good = sorted((run for run in runs if run.get("ok")), key=lambda run: run["mb_per_s"])
    if not good:
        return runs[0]
    chosen = dict(good[(len(good) - 1) // 2])
    chosen["runs_mb_per_s"] = [round(run["mb_per_s"], 2) if run.get("ok") else None for run in runs]
    chosen["median_of"] = len(good)
    if len(good) < len(runs):
        first_error = next(run["error"] for run in runs if not run.get("ok"))
        chosen["notes"] = [*chosen.get("notes", []), f"{len(runs) - len(good)} failed run(s): {first_error}"]
    return chosen


def _server_gone(broker: BrokerProcess) -> dict[str, Any]:
    tail = broker.log_tail(5).replace("\n", " / ")
    return {"ok": False, "error": f"skipped: server exited with code {broker.returncode} ({tail})"}


def _blame_dead_server(result: dict[str, Any], broker: BrokerProcess) -> dict[str, Any]:
    if not result.get("ok") and not broker.alive():
        return {**result, "error": f"{result.get('error')} (server exited with code {broker.returncode})"}
    return result


@dataclass
class TargetRun:
    """A started target and the results gathered for it so far."""

    broker: BrokerProcess
    bootstrap: str
    produce_runs: list[dict[str, Any]] = field(default_factory=list)
    consume_runs: list[dict[str, Any]] = field(default_factory=list)
    sizes: dict[str, dict[str, Any]] = field(default_factory=dict)
    skip_reason: dict[str, Any] | None = None  # set when the rest of its rows are skipped

    @property
    def name(self) -> str:
        return self.broker.name

    def skip(self) -> dict[str, Any] | None:
        if not self.broker.alive():
            return _server_gone(self.broker)
        return self.skip_reason


def _measure(run: TargetRun, func: workload.Measurement, kwargs: dict[str, Any], timeout: float) -> dict[str, Any]:
    return _blame_dead_server(workload.run_isolated(func, kwargs, timeout), run.broker)


def _throughput_round(run: TargetRun, size: int, attempt: int, args: argparse.Namespace) -> None:
    """One produce run on a fresh topic, then one consume run of it."""
    if run.skip() is not None:
        return
    if attempt > 0 and not (run.produce_runs[-1].get("ok") and run.consume_runs[-1].get("ok")):
        return  # A failing target fails fast: no point in repeating (and timing out) again.
    records = args.records or default_records(size)
    topic = f"bench-{size}-{uuid.uuid4().hex[:8]}"
    common = {"bootstrap": run.bootstrap, "topic": topic, "size": size, "records": records}
    create = run.broker.info.supports_create_topics
    produced = _measure(run, workload.measure_produce, {**common, "create_topic": create}, args.timeout)
    log(f"[{run.name}] {size} B produce #{attempt + 1}: {_summary(produced)}")
    if produced.get("ok"):
        consumed = _measure(run, workload.measure_consume, common, args.timeout)
    else:
        consumed = {"ok": False, "error": "skipped: produce failed"}
    log(f"[{run.name}] {size} B consume #{attempt + 1}: {_summary(consumed)}")
    run.produce_runs.append(produced)
    run.consume_runs.append(consumed)


def _latency(run: TargetRun, size: int, args: argparse.Namespace) -> dict[str, Any]:
    kwargs = {
        "bootstrap": run.bootstrap,
        "topic": f"bench-lat-{size}-{uuid.uuid4().hex[:8]}",
        "size": size,
        "count": args.latency_count,
        "interval_ms": args.latency_interval_ms,
        "create_topic": run.broker.info.supports_create_topics,
    }
    result = _measure(run, workload.measure_latency, kwargs, args.timeout)
    log(f"[{run.name}] {size} B latency: {_summary(result)}")
    return result


def bench_sizes(runs: list[TargetRun], args: argparse.Namespace) -> None:
    """Measure every size on every started target.

    Targets take turns within each round (produce+consume runs, then latency), so a burst
    of outside load on a shared machine is spread over all columns instead of hitting one.
    """
    for size in args.sizes:
        skipped_at_start = {target.name: target.skip() for target in runs}
        for target in runs:
            target.produce_runs, target.consume_runs = [], []
        for attempt in range(args.repeat):
            for target in runs:
                if skipped_at_start[target.name] is None:
                    _throughput_round(target, size, attempt, args)
        for target in runs:
            skipped = skipped_at_start[target.name] or target.skip()
            not_run = skipped or {"ok": False, "error": "not run"}
            if skipped is None:
                latency = _latency(target, size, args)
            else:
                latency = skipped
                log(f"[{target.name}] {size} B latency: {_summary(skipped)}")
            target.sizes[str(size)] = {
                "produce": _median_run(target.produce_runs) if target.produce_runs else not_run,
                "consume": _median_run(target.consume_runs) if target.consume_runs else not_run,
                "latency": latency,
            }
            if not any(result.get("ok") for result in target.sizes[str(size)].values()):
                # A dead target should not cost a timeout per row at every size.
                target.skip_reason = {"ok": False, "error": "skipped: every measurement failed at an earlier size"}


def run(args: argparse.Namespace, command: str) -> dict[str, Any]:
    results: dict[str, Any] = {
        "machine": report.machine_info(),
        "settings": {
            "command": command,
            "targets": args.targets,
            "sizes": args.sizes,
            "records": {str(size): args.records or default_records(size) for size in args.sizes},
            "repeat": args.repeat,
            "latency_count": args.latency_count,
            "latency_interval_ms": args.latency_interval_ms,
            "timeout_s": args.timeout,
            "producer": workload.THROUGHPUT_PRODUCER_CONFIG,
            "latency_producer": workload.LATENCY_PRODUCER_CONFIG,
            "consumer": workload.CONSUMER_CONFIG,
            "latency_consumer": workload.LATENCY_CONSUMER_CONFIG,
        },
        "targets": {},
    }
    with tempfile.TemporaryDirectory(prefix="bench-brokers-") as tmp, contextlib.ExitStack() as servers:
        runs: list[TargetRun] = []
        for name in args.targets:
            workdir = Path(tmp) / name
            workdir.mkdir()
            broker = BrokerProcess(name, workdir, args.pykafka_override, args.pykafka_command)
            servers.callback(broker.stop)  # Always stopped, also on Ctrl-C/SIGTERM.
            log(f"[{name}] starting ({TARGET_INFO[name].description})")
            started = time.monotonic()
            try:
                bootstrap = broker.start(args.start_timeout)
            except (TargetStartError, OSError) as exc:
                log(f"[{name}] failed to start: {exc}")
                results["targets"][name] = {"error": str(exc)}
                continue
            log(f"[{name}] ready at {bootstrap} after {time.monotonic() - started:.2f}s")
            runs.append(TargetRun(broker, bootstrap))

        bench_sizes(runs, args)
        for target in runs:
            entry: dict[str, Any] = {"bootstrap": target.bootstrap, "sizes": target.sizes}
            if not target.broker.alive():
                entry["notes"] = [f"server exited during the run (code {target.broker.returncode})"]
            results["targets"][target.name] = entry
    results["targets"] = {name: results["targets"][name] for name in args.targets if name in results["targets"]}
    results["machine"]["load_avg_end"] = report.load_average()
    return results


def _without_notes(argv: Sequence[str]) -> list[str]:
    """The command line as shown in RESULTS.md, minus the (long) --note texts."""
    shown: list[str] = []
    skip_next = False
    for arg in argv:
        if skip_next:
            skip_next = False
        elif arg == "--note":
            skip_next = True
        elif not arg.startswith("--note="):
            shown.append(arg)
    return shown


def _raise_keyboard_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    command = "python -m bench.broker_throughput " + shlex.join(_without_notes(sys.argv[1:] if argv is None else argv))
    # SIGTERM takes the same path as Ctrl-C, so the finally blocks stop the servers.
    signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
    signal.signal(signal.SIGINT, _raise_keyboard_interrupt)  # Even if started with SIGINT ignored.
    if args.from_json is not None:
        results = json.loads(args.from_json.read_text())
    else:
        try:
            results = run(args, command.strip())
        except KeyboardInterrupt:
            log("interrupted; servers stopped")
            return 130

    section = report.render_section(results, args.note)
    table = report.render_table(results)
    if args.json_out == "-":
        log(table)  # Keep stdout parseable JSON.
    else:
        print(table)
    if args.out is not None:
        report.update_results_file(args.out, section)
        log(f"updated {args.out}")
    if args.json_out == "-":
        print(json.dumps(results, indent=2, default=str))
    elif args.json_out and args.from_json is None:
        json_path = Path(args.json_out)
        json_path.parent.mkdir(parents=True, exist_ok=True)
        json_path.write_text(json.dumps(results, indent=2, default=str) + "\n")
        log(f"wrote {args.json_out}")
    failed = any(
        target.get("error") or any(not r.get("ok") for m in target["sizes"].values() for r in m.values())
        for target in results["targets"].values()
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
