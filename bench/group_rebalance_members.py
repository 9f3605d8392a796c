"""10 members x 100 partitions: how long a consumer group takes to settle after a join and after a kill, on
our broker and Apache Kafka 4.3.1, with the classic and the consumer (KIP-848) group protocols.

    .venv/bin/python -m bench.group_rebalance --members [--targets ours,apache] [--protocols classic,consumer]
        [--repeat 3] [--out bench/RESULTS.md]

Each member is a confluent-kafka consumer in its own process (testsupport/group_member_proc.py) reporting its
whole assignment, with the time, whenever it changes. Both brokers run as their own process with the same
group timeouts: session 6 s and heartbeat 1 s for both protocols (the consumer protocol's are the broker's
`group.consumer.*`, the classic one's the members' own; librdkafka's `range` assignor there, the broker's
`uniform` one for the consumer protocol). One run per (target, protocol), interleaved run by run:

- join: 9 members own the 100 partitions; the 10th subscribes; from its subscribe to the first moment the
  10 members' assignments are disjoint, cover the 100 partitions, and none is empty;
- kill: one of the 10 is SIGKILLed; from the kill to the first moment the 9 others' assignments cover the
  100 partitions disjointly (the session timeout is in it: the coordinator finds the member dead by it).

Every time is the members' own report, so a run measures what the members know, not the broker's view.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from confluent_kafka.admin import AdminClient, NewTopic

from bench import report
from bench.report import load_average, machine_info
from bench.targets import BrokerProcess
from testsupport.group_member_proc import MemberProcess

SECTION_BEGIN = "<!-- BEGIN bench.group_rebalance members (generated; edits inside are overwritten) -->"
SECTION_END = "<!-- END bench.group_rebalance members -->"
MEMBERS, PARTITIONS = 10, 100
SESSION_MS, HEARTBEAT_MS = 6000, 1000
GROUP_OVERRIDES: dict[str, object] = {
    "group.consumer.session.timeout.ms": SESSION_MS,
    "group.consumer.min.session.timeout.ms": 1000,
    "group.consumer.heartbeat.interval.ms": HEARTBEAT_MS,
    "group.consumer.min.heartbeat.interval.ms": HEARTBEAT_MS,
    "group.min.session.timeout.ms": 1000,
    "group.initial.rebalance.delay.ms": 0,
    "offsets.topic.num.partitions": 4,
}


@contextlib.contextmanager
def start_target(name: str, workdir: Path) -> Iterator[str]:
    if name == "ours":
        proc = BrokerProcess("pykafka", workdir, pykafka_overrides=[f"{k}={v}" for k, v in GROUP_OVERRIDES.items()])
        try:
            yield proc.start(60)
        finally:
            proc.stop()
    elif name == "apache":
        from peers.jvm import ApacheKafka

        with ApacheKafka(1, num_partitions=4, overrides=GROUP_OVERRIDES) as kafka:
            yield kafka.bootstrap_servers
    else:
        raise SystemExit(f"unknown target {name!r}: choose from ours, apache")


def settled_at(members: list[MemberProcess], after: float) -> float | None:
    """The first time >= `after` at which the members' reported assignments are disjoint, cover every
    partition and none is empty (replaying every member's reports in time order)."""
    reports = sorted((e["t"], i, e["p"]) for i, m in enumerate(members) for e in m.of("assignment"))
    current: dict[int, list[int]] = {}
    for t, i, parts in reports:
        current[i] = parts
        if t < after or len(current) < len(members):
            continue
        owned = [p for ps in current.values() for p in ps]
        if all(current.values()) and len(owned) == len(set(owned)) == PARTITIONS:
            return t
    return None


def wait_settled(members: list[MemberProcess], after: float, timeout: float, what: str) -> float:
    deadline = time.monotonic() + timeout
    while (t := settled_at(members, after)) is None:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not settled within {timeout:.0f} s")
        time.sleep(0.05)
    return t


def one_run(bootstrap: str, topic: str, protocol: str, timeout: float) -> dict[str, float]:
    group = f"bench-members-{uuid.uuid4().hex[:8]}"
    args = ["--protocol", protocol, "--session-ms", str(SESSION_MS), "--heartbeat-ms", str(HEARTBEAT_MS)]
    members = [MemberProcess(f"m{i}", bootstrap, topic, group, *args) for i in range(MEMBERS - 1)]
    try:
        wait_settled(members, 0.0, timeout, f"{MEMBERS - 1} members")
        time.sleep(1.0)  # a settled group, not one still reconciling its last moves
        members.append(MemberProcess(f"m{MEMBERS - 1}", bootstrap, topic, group, *args))
        deadline = time.monotonic() + timeout
        while not (started := members[-1].of("started")):
            if time.monotonic() > deadline:
                raise TimeoutError("the 10th member did not start")
            time.sleep(0.02)
        joined = started[0]["t"]
        join_s = wait_settled(members, joined, timeout, "the join") - joined
        time.sleep(1.0)
        victim = members.pop(len(members) // 2)
        killed = victim.kill9()
        kill_s = wait_settled(members, killed, timeout, "the kill") - killed
        return {"join_s": join_s, "kill_s": kill_s}
    finally:
        for m in members:
            m.close()


def render(results: dict[tuple[str, str], list[dict[str, float]]], argv: list[str], load: tuple[str, str]) -> str:
    m = machine_info()
    targets = sorted({t for t, _ in results}, key=lambda t: (t != "ours", t))
    protocols = sorted({p for _, p in results})

    def cell(t: str, p: str, key: str) -> str:
        runs = [r[key] for r in results.get((t, p), [])]
        if not runs:
            return "—"
        return f"{statistics.median(runs):.2f} ({min(runs):.2f}–{max(runs):.2f})"

    lines = [
        SECTION_BEGIN,
        f"## Consumer groups: {MEMBERS} members × {PARTITIONS} partitions "
        "(`python -m bench.group_rebalance --members`)",
        "",
        f"Run {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with `python -m bench.group_rebalance --members "
        f"{' '.join(argv)}`; {m.get('cpu_model', '?')}, {m.get('usable_cores', '?')} usable cores, confluent-kafka "
        f"{m.get('confluent_kafka', '?')} (librdkafka {m.get('librdkafka', '?')}); load average at the start "
        f"{load[0]}, at the end {load[1]}.",
        "",
        f"Session timeout {SESSION_MS / 1000:.0f} s and heartbeat {HEARTBEAT_MS / 1000:.0f} s for both protocols "
        "(consumer: the brokers' `group.consumer.*`; classic: the members', librdkafka's `range` assignor). "
        "Seconds, median (min–max) of the runs, from the members' own reports.",
        "",
        "| protocol | settle after | " + " | ".join(targets) + " |",
        "|---|---|" + "---:|" * len(targets),
    ]
    for p in protocols:
        lines.append(f"| {p} | the 10th joins | " + " | ".join(cell(t, p, "join_s") for t in targets) + " |")
        lines.append(
            f"| {p} | one is SIGKILLed (incl. the {SESSION_MS / 1000:.0f} s session) | "
            + " | ".join(cell(t, p, "kill_s") for t in targets)
            + " |"
        )
    lines += [
        "",
        "Runs (s): "
        + "; ".join(
            f"{t} {p} join "
            + ", ".join(f"{r['join_s']:.2f}" for r in runs)
            + " kill "
            + ", ".join(f"{r['kill_s']:.2f}" for r in runs)
            for (t, p), runs in sorted(results.items())
        ),
        SECTION_END,
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--targets", default="ours,apache")
    ap.add_argument("--protocols", default="consumer,classic")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds per settle")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    load_start = load_average()
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bench-members-") as tmp, contextlib.ExitStack() as stack:
        topics: dict[str, tuple[str, str]] = {}
        for name in args.targets.split(","):
            (Path(tmp) / name).mkdir()
            bootstrap = stack.enter_context(start_target(name, Path(tmp) / name))
            topic = f"bench-members-{uuid.uuid4().hex[:6]}"
            admin = AdminClient({"bootstrap.servers": bootstrap})
            admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, replication_factor=1)])[topic].result(60)
            topics[name] = (bootstrap, topic)
        for run in range(args.repeat):
            for protocol in args.protocols.split(","):
                for name, (bootstrap, topic) in topics.items():
                    try:
                        r: dict[str, Any] = one_run(bootstrap, topic, protocol, args.timeout)
                    except Exception as e:  # a failed run is reported, the others go on
                        errors.append(f"{name} {protocol} run {run + 1}: {type(e).__name__}: {e}")
                        print(errors[-1], flush=True)
                        continue
                    results.setdefault((name, protocol), []).append(r)
                    print(
                        f"run {run + 1} {name:6s} {protocol:8s} join {r['join_s']:.2f} s, kill {r['kill_s']:.2f} s; "
                        f"load {load_average()}",
                        flush=True,
                    )
    section = render(results, argv, (load_start, load_average()))
    print(section)
    if args.out:
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
