"""Long runs of the Raft simulator (issue 32): seeds run, seeds/s, failing seeds with their replay.

    python -m bench.raft_sim --seeds 20000
    python -m bench.raft_sim --seeds 1 --start 4711      # replay one seed, with its failure trace

Seeds alternate 3 and 5 voters (even/odd) unless --nodes is given, with an observer every 4th seed;
the suite runs the first 700
(tests/unit/test_raft_sim.py). Exit status 1 if any seed fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from testsupport.raft_sim import SimConfig, Simulation, SimulationFailure, config_for_seed  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=2000)
    p.add_argument("--start", type=int, default=0, help="first seed")
    p.add_argument("--nodes", type=int, choices=[3, 5], default=None, help="default: 3 for even seeds, 5 for odd")
    p.add_argument("--chaos-ms", type=int, default=SimConfig.chaos_ms, help="simulated time with faults per seed")
    p.add_argument("--json", metavar="PATH", help="write the totals as JSON ('-' = stdout)")
    args = p.parse_args(argv)

    totals: Counter[str] = Counter()
    failures: list[tuple[int, str]] = []
    worst_liveness = 0
    t0 = time.perf_counter()
    for seed in range(args.start, args.start + args.seeds):
        try:
            r = Simulation(seed, config_for_seed(seed, args.nodes, args.chaos_ms)).run()
        except SimulationFailure as e:
            failures.append((seed, str(e)))
            print(f"seed {seed}: FAILED\n{e}\n", file=sys.stderr)
            continue
        worst_liveness = max(worst_liveness, r.liveness_ms)
        for k in (
            "sim_ms",
            "events",
            "messages",
            "committed",
            "elections",
            "crashes",
            "partitions",
            "snapshots_installed",
            "truncations",
            "voter_changes",
        ):
            totals[k] += getattr(r, k)
    elapsed = time.perf_counter() - t0
    summary = {
        "seeds": args.seeds,
        "first_seed": args.start,
        "failed": [s for s, _ in failures],
        "seconds": round(elapsed, 2),
        "seeds_per_second": round(args.seeds / elapsed, 1),
        "worst_liveness_ms": worst_liveness,
        **dict(totals),
    }
    print(
        f"{args.seeds} seeds in {elapsed:.1f} s ({summary['seeds_per_second']} seeds/s), "
        f"{len(failures)} failed; simulated {totals['sim_ms'] / 1000:.0f} s, {totals['messages']} messages, "
        f"{totals['committed']} committed entries, {totals['elections']} elected epochs, {totals['crashes']} crashes, "
        f"{totals['partitions']} partitions, {totals['snapshots_installed']} snapshot loads, "
        f"{totals['truncations']} truncations, {totals['voter_changes']} voter changes; "
        f"slowest recovery after healing {worst_liveness} ms simulated"
    )
    if failures:
        print("failing seeds: " + " ".join(str(s) for s, _ in failures))
    if args.json:
        text = json.dumps(summary, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
