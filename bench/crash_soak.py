"""Crash soaks: the suite's SIGKILL tests with more kills per run and more runs (issue 35 kept the suite's
counts small: 3 Delta kills, 4 Kafka exactly-once kills, each a Spark driver start).

    python -m bench.crash_soak --kills 12 --runs 3
    python -m bench.crash_soak --tests delta --kills 9 --runs 5

Each run is one pytest process over the chosen test files with ``PYKAFKA_CRASH_KILLS`` set; every run
uses new random seeds (printed by the tests). Prints a markdown table (run, test, outcome, seconds)
and the kills that landed per phase in each run. Exit status 1 if any run failed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = {
    "delta": "tests/spark/test_delta_crash.py",
    "kafka": "tests/spark/test_exactly_once_crash.py",
}
_OUTCOME = re.compile(r"^(PASSED|FAILED|ERROR|SKIPPED) (tests/\S+::\S+)")  # -rA summary lines
_LANDED = re.compile(r"kills landed: (\[[^\]]*\])")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kills", type=int, default=12, help="SIGKILLs per test run (PYKAFKA_CRASH_KILLS)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--tests", default="delta,kafka", help=f"comma-separated: {', '.join(TESTS)}")
    p.add_argument("--timeout", type=int, default=3600, help="seconds per pytest run")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.tests.split(",") if n.strip()]
    unknown = [n for n in names if n not in TESTS]
    if unknown:
        p.error(f"--tests: unknown {unknown}; accepted: {', '.join(TESTS)}")
    env = {**os.environ, "PYKAFKA_CRASH_KILLS": str(args.kills)}
    rows: list[tuple[int, str, str, float]] = []
    landed_per_run: list[tuple[int, list[str]]] = []
    failed = False
    for run in range(1, args.runs + 1):
        t0 = time.monotonic()
        cmd = [sys.executable, "-m", "pytest", "-rA", "-s", "-p", "no:cacheprovider", "--timeout", str(args.timeout)]
        proc = subprocess.run(
            [*cmd, *(TESTS[n] for n in names)], cwd=ROOT, env=env, capture_output=True, text=True, check=False
        )
        took = time.monotonic() - t0
        # the summary groups lines by outcome, so kills are listed per run (in run order), not per test
        landed_per_run.append((run, _LANDED.findall(proc.stdout)))
        outcomes = [m.groups() for m in map(_OUTCOME.match, proc.stdout.splitlines()) if m]
        if proc.returncode != 0:
            failed = True
            sys.stderr.write(proc.stdout[-4000:] + proc.stderr[-2000:])
        if not outcomes:
            rows.append((run, "(nothing ran)", f"exit {proc.returncode}", took))
        for outcome, test in outcomes:
            rows.append((run, test.split("::", 1)[1], outcome, took))
    print(f"PYKAFKA_CRASH_KILLS={args.kills}, {args.runs} runs of {', '.join(TESTS[n] for n in names)}\n")
    print("| run | test | outcome | run s |\n|---|---|---|---|")
    for run, test, outcome, took in rows:
        print(f"| {run} | {test} | {outcome} | {took:.0f} |")
    print()
    for run, landed in landed_per_run:
        print(f"- run {run}, kills landed (tests in run order): {'; '.join(landed) or 'none reported'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
