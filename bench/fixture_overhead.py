"""Broker fixture overhead: setup + teardown of a fresh broker per test.

* pytest-pykafka's ``kafka_broker`` (an in-process EmbeddedBroker), measured in a real pytest run
  (``--durations``-style per-test timings of setup and teardown, from pytest's own reports);
* the same EmbeddedBroker started/stopped directly (no pytest around it);
* Apache Kafka (one KRaft JVM, peers/jvm.py) start + stop, when the JVM peers are installed;
* testcontainers' Kafka module needs Docker: measured only when a Docker engine answers.

Writes its section of bench/RESULTS.md: ``python -m bench.fixture_overhead [--tests 30]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from bench import report

SECTION_BEGIN = "<!-- fixture_overhead:begin -->"
SECTION_END = "<!-- fixture_overhead:end -->"
ROOT = Path(__file__).resolve().parent.parent


def _pytest_run(n: int) -> list[float]:
    """setup+teardown (ms) of ``kafka_broker`` per test, from a pytest run of ``n`` trivial tests."""
    with tempfile.TemporaryDirectory() as d:
        test = Path(d) / "test_overhead.py"
        test.write_text(
            textwrap.dedent(
                f"""
                import pytest

                @pytest.mark.parametrize("i", range({n}))
                def test_broker(i, kafka_broker):
                    assert kafka_broker.bootstrap_servers
                """
            )
        )
        hook = Path(d) / "conftest.py"
        out = Path(d) / "times.json"
        hook.write_text(
            textwrap.dedent(
                f"""
                import json
                TIMES = {{}}
                def pytest_runtest_logreport(report):
                    if report.when in ("setup", "teardown"):
                        TIMES.setdefault(report.nodeid, 0.0)
                        TIMES[report.nodeid] += report.duration
                def pytest_sessionfinish(session):
                    open({str(out)!r}, "w").write(json.dumps(TIMES))
                """
            )
        )
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "pytest_pykafka.plugin", "-p", "no:cacheprovider", str(test)],
            cwd=d,
            env=env,
            check=True,
            capture_output=True,
        )
        times = json.loads(out.read_text())
        return [v * 1000 for v in times.values()]


def _direct(n: int) -> list[float]:
    from broker_embedded import EmbeddedBroker

    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        with EmbeddedBroker():
            pass
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _apache_kafka(n: int) -> list[float] | str:
    try:
        from peers import jvm
    except ImportError as e:
        return f"peers/jvm.py not importable: {e}"
    if not jvm.kafka_peers_available():
        return "JVM peers not installed (./scripts/setup.sh)"
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        with jvm.ApacheKafka(1):
            pass
        out.append((time.perf_counter() - t0) * 1000)
    return out


def _docker() -> str | None:
    try:
        r = subprocess.run(["docker", "info"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "no Docker engine on this machine: testcontainers' Kafka module not measured"
    return None if r.returncode == 0 else "Docker engine not answering: testcontainers' Kafka module not measured"


def _row(name: str, ms: list[float] | str) -> str:
    if isinstance(ms, str):
        return f"| {name} | – | – | – | {ms} |"
    ms = sorted(ms)
    p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
    return f"| {name} | {len(ms)} | {statistics.median(ms):.1f} | {p90:.1f} | |"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--tests", type=int, default=30, help="tests (brokers) in the pytest run")
    p.add_argument("--jvm-runs", type=int, default=3)
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS.md")
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args(argv)
    rows = [
        _row("pytest-pykafka `kafka_broker` (setup+teardown per test, in pytest)", _pytest_run(args.tests)),
        _row("EmbeddedBroker start+stop (direct)", _direct(args.tests)),
        _row("Apache Kafka 1 node KRaft JVM start+stop (peers/jvm.py)", _apache_kafka(args.jvm_runs)),
    ]
    m = report.machine_info()
    docker = _docker()
    if docker:
        rows.append(f"| testcontainers Kafka | – | – | – | {docker} |")
    section = "\n".join(
        [
            SECTION_BEGIN,
            "## Broker fixture overhead (pytest-pykafka)",
            "",
            f"`python -m bench.fixture_overhead --tests {args.tests}`; {m['cpu_model']}, "
            f"{m['usable_cores']} usable cores, "
            f"load {report.load_average()}, {m['date_utc']}, commit {m['repo_commit']}. "
            "Goal: < 20 ms per test for the function-scoped embedded broker.",
            "",
            "| fixture | n | median ms | p90 ms | note |",
            "|---|---|---|---|---|",
            *rows,
            SECTION_END,
            "",
        ]
    )
    print(section)
    if not args.no_write:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
