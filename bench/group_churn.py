"""The group churn scenario (testsupport/group_churn.py) against our broker and Apache Kafka 4.3.1,
under optional CPU pressure, many seeds: duplicates, and every offset commit the coordinator
refused, by error name (client side, both brokers) and by group state (our coordinator only).

    .venv/bin/python -m bench.group_churn [--targets ours,ours-process,apache] [--strategies range,cooperative-sticky]
        [--runs 10] [--burn 2] [--cycles 10]

``ours`` runs the EmbeddedBroker inside this process (as tests/integration/test_groups_churn.py
does, sharing the GIL with the members' threads); ``ours-process`` runs ``python -m broker_embedded``
as a child, as ``apache`` runs a JVM. ``--burn N`` keeps N busy-loop processes running for the
whole bench (bounded by the bench's lifetime), to reproduce a loaded CI machine. Runs are
interleaved target by target. Servers listen on 127.0.0.1 and are stopped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import statistics
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from confluent_kafka.admin import AdminClient, NewTopic

from bench.report import load_average
from bench.targets import BrokerProcess
from testsupport.group_churn import ChurnResult, run_churn

PARTITIONS = 12
GROUP_OVERRIDES = {
    "group.min.session.timeout.ms": 1000,
    "group.initial.rebalance.delay.ms": 0,
    "offsets.topic.num.partitions": 4,
}


def _burn(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    x = 0
    while time.monotonic() < deadline:
        x += 1


@contextmanager
def cpu_burners(n: int, seconds: float) -> Iterator[None]:
    procs = [multiprocessing.Process(target=_burn, args=(seconds,), daemon=True) for _ in range(n)]
    for p in procs:
        p.start()
    try:
        yield
    finally:
        for p in procs:
            p.terminate()
            p.join(5)


class Target:
    """A running broker: its bootstrap, and for our in-process broker a view into the coordinator."""

    def __init__(self, name: str, bootstrap: str, inproc: Any = None) -> None:
        self.name = name
        self.bootstrap = bootstrap
        self.inproc = inproc
        self.refusals: Counter[str] = Counter()  # "ERROR in STATE" from our coordinator
        self.evictions = 0

    def stable_assignments(self, group: str, topic: str) -> Callable[[], list[list[int]] | None] | None:
        if self.inproc is None:
            return None
        from tests.integration.group_util import stable_assignments

        return lambda: stable_assignments(self.inproc, group, topic)

    def instrument(self) -> None:
        """Count the coordinator's refused commits by group state, and its session evictions."""
        if self.inproc is None:
            return

        def install(broker: Any) -> None:
            gc = broker.group_coordinator
            commit, expired = gc.commit_offsets, gc._on_heartbeat_expired

            def counting_commit(group_id: str, *args: Any, **kw: Any) -> Any:
                g = gc.groups.get(group_id)
                state = g.state.value if g is not None else "none"
                codes = commit(group_id, *args, **kw)
                for code in set(codes.values()):
                    if code != 0:
                        self.refusals[f"{code.name} in {state}"] += 1
                return codes

            def counting_expiry(group: Any, member: Any, deadline: int) -> Any:
                before = member.member_id in group.members
                out = expired(group, member, deadline)
                if before and member.member_id not in group.members:
                    self.evictions += 1
                return out

            gc.commit_offsets = counting_commit
            gc._on_heartbeat_expired = counting_expiry

        self.inproc.call(install)


@contextmanager
def start_target(name: str, workdir: Path) -> Iterator[Target]:
    if name == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(log_dir=workdir / "ours", **GROUP_OVERRIDES) as b:
            t = Target(name, b.bootstrap_servers, inproc=b)
            t.instrument()
            yield t
    elif name == "ours-process":
        proc = BrokerProcess("pykafka", workdir, pykafka_overrides=[f"{k}={v}" for k, v in GROUP_OVERRIDES.items()])
        try:
            yield Target(name, proc.start(30))
        finally:
            proc.stop()
    elif name == "apache":
        from peers.jvm import ApacheKafka

        with ApacheKafka(1, num_partitions=4, overrides=GROUP_OVERRIDES) as kafka:
            yield Target(name, kafka.bootstrap_servers)
    else:
        raise SystemExit(f"unknown target {name!r}: choose from ours, ours-process, apache")


def one_run(target: Target, strategy: str, seed: int, cycles: int, session_ms: int | None = None) -> ChurnResult:
    tag = uuid.uuid4().hex[:8]
    topic, group = f"churn-{tag}", f"churn-{tag}"
    admin = AdminClient({"bootstrap.servers": target.bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, replication_factor=1)])[topic].result(30)
    target.refusals.clear()
    target.evictions = 0
    return run_churn(
        target.bootstrap,
        topic,
        group,
        strategy,
        partitions=PARTITIONS,
        cycles=cycles,
        seed=seed,
        stable_assignments=target.stable_assignments(group, topic),
        member_config={"session.timeout.ms": session_ms} if session_ms else None,
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="ours,apache")
    ap.add_argument("--strategies", default="range,cooperative-sticky")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--cycles", type=int, default=10)
    ap.add_argument("--burn", type=int, default=0, help="busy-loop processes beside the runs")
    ap.add_argument("--session-ms", type=int, default=None, help="the members' session.timeout.ms (default 3000)")
    args = ap.parse_args(argv)
    targets = args.targets.split(",")
    strategies = args.strategies.split(",")
    print(f"# bench.group_churn {' '.join(argv or [])}  load at start: {load_average()}", flush=True)
    rows: dict[tuple[str, str], list[tuple[ChurnResult, Counter[str], int]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-churn-") as tmp, contextlib.ExitStack() as stack:
        for name in targets:
            (Path(tmp) / name).mkdir()
        started = {name: stack.enter_context(start_target(name, Path(tmp) / name)) for name in targets}
        stack.enter_context(cpu_burners(args.burn, 6 * 3600))
        for run in range(args.runs):
            for strategy in strategies:
                for name in targets:
                    t = started[name]
                    r = one_run(t, strategy, seed=2978 + run, cycles=args.cycles, session_ms=args.session_ms)
                    rows.setdefault((name, strategy), []).append((r, Counter(t.refusals), t.evictions))
                    server = ", ".join(f"{k} x{v}" for k, v in sorted(t.refusals.items())) or "-"
                    print(
                        f"{name:13s} {r.summary()}; coordinator refusals: {server}; evictions: {t.evictions}; "
                        f"load {load_average()}",
                        flush=True,
                    )
    print(
        "\n| broker | strategy | runs | runs with duplicates | duplicates (median, max) | runs with refused "
        "commits | runs with duplicates and no refused commit or eviction |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for (name, strategy), results in rows.items():
        dups = [r.duplicates for r, _, _ in results]
        refused_runs = sum(1 for r, _, _ in results if r.refused_commits)
        unexplained = sum(1 for r, s, ev in results if r.duplicates and not r.refused_commits and not s and not ev)
        print(
            f"| {name} | {strategy} | {len(results)} | {sum(1 for d in dups if d)} | "
            f"{statistics.median(dups):.0f}, {max(dups)} | {refused_runs} | {unexplained} |"
        )
    print(f"\nload at end: {load_average()}")


if __name__ == "__main__":
    main()
