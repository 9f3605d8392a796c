"""Longer Jepsen-style runs against a Raft-mode cluster on test hosts (issue 32; needs root and `ip netns`).

    python -m bench.raft_jepsen --seeds 20                    # seeds 1..20, 3 faults each, 3 s per fault
    python -m bench.raft_jepsen --seeds 1 --start 18 --faults-per-seed 2 --fault-s 1.5   # CI's first seed

One cluster per `--runs-of` seeds (default: all seeds in one cluster, as the suite's test does), faults drawn per
seed by testsupport/jepsen_run.py (partitions of controllers, pauses and kills of controllers and brokers) while
idempotent and transactional writers and readers run; the checker's report per cluster. Exit status 1 if any
check fails or the cluster does not recover from a fault in time.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from testsupport import netns  # noqa: E402
from testsupport.jepsen_run import FAULTS, run  # noqa: E402


def _say(t0: float, line: str) -> None:
    print(f"{time.monotonic() - t0:6.1f} s  {line}", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=20)
    p.add_argument("--start", type=int, default=1, help="first seed")
    p.add_argument("--faults-per-seed", type=int, default=3)
    p.add_argument("--fault-s", type=float, default=3.0, help="how long each fault lasts")
    p.add_argument("--runs-of", type=int, default=0, help="seeds per cluster (0: all in one)")
    p.add_argument("--faults", default=",".join(FAULTS), help="the faults to draw from")
    p.add_argument("--json", metavar="PATH", help="write the results as JSON ('-' = stdout)")
    args = p.parse_args(argv)
    reason = netns.available()
    if reason is not None:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    faults = tuple(f for f in args.faults.split(",") if f)
    if unknown := set(faults) - set(FAULTS):
        p.error(f"unknown faults {sorted(unknown)}; the faults are {', '.join(FAULTS)}")
    seeds = list(range(args.start, args.start + args.seeds))
    size = args.runs_of or len(seeds)
    out, failed = [], 0
    for i in range(0, len(seeds), size):
        batch = seeds[i : i + size]
        t0 = time.monotonic()
        try:
            r = run(
                batch,
                args.faults_per_seed,
                args.fault_s,
                faults=faults,
                say=functools.partial(_say, t0),
            )
            ok, summary, history = r.ok, r.summary(), r.history
        except (AssertionError, TimeoutError, RuntimeError) as e:  # a fault the cluster did not recover from
            ok, summary, history = False, f"did not recover: {e}", []
        failed += not ok
        print(f"seeds {batch[0]}..{batch[-1]}: {'ok' if ok else 'FAILED'} in {time.monotonic() - t0:.0f} s: {summary}")
        out.append({"seeds": batch, "ok": ok, "summary": summary, "history": history})
    if args.json:
        text = json.dumps(out, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
