"""Group mode handover time: how long after a streaming query goes away the survivor reads its partitions.

    .venv/bin/python -m bench.group_mode [--repeat 1] [--group-protocol classic|consumer] [--out bench/RESULTS.md]

Two (then three, then four) pykafka streaming queries, each in its own Spark driver process (local[1]), share a
12-partition topic of an embedded broker through the consumer group protocol (cooperative-sticky,
session timeout 6 s, heartbeat 1 s, trigger 1 s) and write one Delta table with the pykafka-delta
sink, while a producer writes 80 records/s. Measured from the moment a query is killed with
SIGKILL, or stopped with SIGTERM (its driver calls `query.stop()`), to (1) the group's new
assignment giving its partitions to the survivor (DescribeGroups, polled every 250 ms) and (2) the
survivor's first micro-batch that reads one of them (its plan log). Three cases: a query killed
right after both queries planned their first batch (the survivor's first micro-batch is then in
flight: the original case of issue 17), one stopped, and one killed in steady state (both queries
past a batch of the 6/6 split). For the first case it also records which batch of the survivor was
in flight and when the survivor planned its next one. The drivers are the ones of
the group-mode proof (`testsupport/group_mode_procs.py`; group mode switched on with `groupMode` = `true` and
`kafka.group.id`: a group id alone no longer turns it on).

With `--group-protocol consumer` the queries are KIP-848 members (`kafka.group.protocol` = `consumer`): the
broker's `group.consumer.session.timeout.ms` 6 s and heartbeat 1 s, its `uniform` assignor; the section it
writes is its own. Both protocols also report how long the survivor's own partitions went unread
meanwhile: the longest gap between its batches that read them, from the event to its first batch reading
the moved partitions (its steady batch interval when they never pause).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench import report
from bench.report import load_average, machine_info
from broker_embedded import EmbeddedBroker
from testsupport.group_mode_procs import (
    CONSUMER_GROUP_BROKER,
    PARTITIONS,
    SESSION_TIMEOUT_MS,
    Driver,
    GroupWatch,
    Producer,
    by,
    first_read_of,
    owned_by,
    planned_by,
    split_is,
    wait_for,
)
from testsupport.topics import create_topic

SECTION_BEGIN = "<!-- BEGIN group_mode -->"
SECTION_END = "<!-- END group_mode -->"
CONSUMER_SECTION_BEGIN = "<!-- BEGIN group_mode consumer protocol -->"
CONSUMER_SECTION_END = "<!-- END group_mode consumer protocol -->"


def one_run(base: Path, protocol: str = "classic") -> dict[str, float]:
    overrides: dict[str, Any] = dict(CONSUMER_GROUP_BROKER) if protocol == "consumer" else {}
    with EmbeddedBroker(base / "broker", **overrides) as b:
        topic, group = f"gm-{uuid.uuid4().hex[:6]}", f"bench-{uuid.uuid4().hex[:6]}"
        create_topic(b, topic, PARTITIONS)
        common: dict[str, Any] = {
            "bootstrap": b.bootstrap_servers,
            "topic": topic,
            "group": group,
            "table": str(base / "table"),
            "plan_log": str(base / "plan.jsonl"),
            "lifetime_s": 300,
            "group_protocol": protocol,
        }
        plan_log = Path(common["plan_log"])
        drivers = [
            Driver("A", base, common),
            Driver("B", base, common),
            Driver("C", base, common, gated=True),
            Driver("D", base, common, gated=True),
        ]
        a, bq, c, d = drivers
        watch = GroupWatch(b.bootstrap_servers, group, protocol)
        producer = None
        try:
            a.wait_ready(180)
            producer = Producer(b.bootstrap_servers, topic)
            bq.wait_ready(180)
            wait_for(lambda: split_is(watch, [6, 6]), 90, "A and B splitting 6/6")
            wait_for(lambda: planned_by(plan_log, "A") and planned_by(plan_log, "B"), 120, "A and B reading")
            a_parts, b_parts = owned_by(watch, "A"), owned_by(watch, "B")
            killed, killed_wall = time.monotonic(), time.time()
            a.kill9()
            wait_for(lambda: split_is(watch, [12]), 90, "B owning every partition")
            kill_assigned = time.monotonic() - killed
            wait_for(lambda: _read_since(plan_log, a_parts, killed_wall, "A"), 90, "B reading A's partitions")
            kill_read = first_read_of(plan_log, a_parts, killed_wall, "A") - killed_wall
            kill_own_gap = _own_gap(plan_log, "B", b_parts, killed_wall, killed_wall + kill_read)
            # where the time after the reassignment goes: Spark asks the source for the next batch only
            # once the batch in flight is committed; here that batch is the survivor's first one
            b_plans = _plans(plan_log, "B")
            kill_inflight = max(t for t in b_plans if t <= killed_wall)
            kill_next_plan = min(t for t in b_plans if t > killed_wall) - killed_wall
            kill_inflight_nth = sum(1 for t in b_plans if t <= killed_wall)

            c.wait_ready(180, c.warm)
            c.go()
            wait_for(lambda: split_is(watch, [6, 6]), 90, "B and C splitting 6/6")
            wait_for(lambda: planned_by(plan_log, "C"), 120, "C reading")
            c_parts, b_parts = owned_by(watch, "C"), owned_by(watch, "B")
            stopped, stopped_wall = time.monotonic(), time.time()
            c.stop()
            wait_for(lambda: split_is(watch, [12]), 90, "B owning every partition again")
            stop_assigned = time.monotonic() - stopped
            wait_for(lambda: _read_since(plan_log, c_parts, stopped_wall, "C"), 90, "B reading C's partitions")
            stop_read = first_read_of(plan_log, c_parts, stopped_wall, "C") - stopped_wall
            stop_own_gap = _own_gap(plan_log, "B", b_parts, stopped_wall, stopped_wall + stop_read)

            # the same kill once both queries are past their first micro-batch (steady state)
            d.wait_ready(180, d.warm)
            d.go()
            wait_for(lambda: split_is(watch, [6, 6]), 90, "B and D splitting 6/6")
            split_wall = time.time()

            def past_first_batches() -> bool:
                b_since = [t for t in _plans(plan_log, "B") if t > split_wall]
                return len(_plans(plan_log, "D")) >= 2 and len(b_since) >= 2

            wait_for(past_first_batches, 180, "B and D each past a batch of the 6/6 split")
            d_parts, b_parts = owned_by(watch, "D"), owned_by(watch, "B")
            # the survivor's batch interval in steady state: the "one batch" of the goal (session
            # timeout + one batch)
            b_steady = [t for t in _plans(plan_log, "B") if t > split_wall]
            steady_batch = statistics.median(b - a for a, b in itertools.pairwise(b_steady))
            killed2, killed2_wall = time.monotonic(), time.time()
            d.kill9()
            wait_for(lambda: split_is(watch, [12]), 90, "B owning every partition after D's kill")
            steady_assigned = time.monotonic() - killed2
            wait_for(lambda: _read_since(plan_log, d_parts, killed2_wall, "D"), 90, "B reading D's partitions")
            steady_read = first_read_of(plan_log, d_parts, killed2_wall, "D") - killed2_wall
            steady_own_gap = _own_gap(plan_log, "B", b_parts, killed2_wall, killed2_wall + steady_read)
        finally:
            watch.stop()
            if producer is not None:
                producer.stop()
            for drv in drivers:
                drv.close()
    return {
        "kill_assigned": kill_assigned,
        "kill_read": kill_read,
        "kill_next_plan": kill_next_plan,
        "kill_inflight_age": killed_wall - kill_inflight,
        "kill_inflight_nth": float(kill_inflight_nth),
        "stop_assigned": stop_assigned,
        "stop_read": stop_read,
        "steady_assigned": steady_assigned,
        "steady_read": steady_read,
        "steady_batch": steady_batch,
        "kill_own_gap": kill_own_gap,
        "stop_own_gap": stop_own_gap,
        "steady_own_gap": steady_own_gap,
    }


def _plans(plan_log: Path, client_id: str) -> list[float]:
    """Wall-clock times at which a driver planned a batch (any, empty ranges included)."""
    if not plan_log.exists():
        return []
    return sorted(rec["time"] for rec in map(json.loads, plan_log.read_text().splitlines()) if by(rec, client_id))


def _own_gap(plan_log: Path, client_id: str, own: set[tuple[str, int]], start: float, end: float) -> float:
    """The longest time between `start`, the driver's batches reading its own partitions `own` (a
    non-empty range of one of them) and its first such batch at or after `end`."""
    reads = sorted(
        rec["time"]
        for rec in map(json.loads, plan_log.read_text().splitlines())
        if by(rec, client_id) and any((t, p) in own and hi > lo for t, p, lo, hi in rec["ranges"])
    )
    points = [start, *(t for t in reads if start < t < end), *[t for t in reads if t >= end][:1]]
    return max((b - a for a, b in itertools.pairwise(points)), default=0.0)


def _read_since(plan_log: Path, parts: set[tuple[str, int]], after: float, old: str) -> bool:
    try:
        first_read_of(plan_log, parts, after, old)
        return True
    except AssertionError:
        return False


def render(runs: list[dict[str, float]], argv: list[str], load_at_start: str) -> str:
    m = machine_info()

    def med(key: str) -> str:
        return f"{statistics.median(r[key] for r in runs):.1f} s"

    shown = " ".join(a for i, a in enumerate(argv) if a != "--out" and (i == 0 or argv[i - 1] != "--out"))
    lines = [
        SECTION_BEGIN,
        "## Group mode: rebalance handover of a streaming query (`python -m bench.group_mode`)",
        "",
        f"Command: `{f'python -m bench.group_mode {shown}'.strip()}` — {len(runs)} run(s), median.",
        f"Machine: {m['cpu_model']}, {m['usable_cores']} usable cores, {m['memory']}, Python {m['python']}, "
        f"commit {m['repo_commit']}, {m['date_utc']}; load average (1/5/15 min) at the start: {load_at_start}, "
        f"at the end: {load_average()} (the bench's own three Spark drivers, broker and producer add ~2-5; "
        "on a busier machine every batch, and the first one most, takes longer).",
        "",
        "Two pykafka queries (after each kill or stop: a new second one) in separate Spark drivers (local[1]) share a "
        f"{PARTITIONS}-partition topic (cooperative-sticky, session timeout {SESSION_TIMEOUT_MS / 1000:.0f} s, "
        "heartbeat 1 s, trigger 1 s, pykafka-delta sink, 80 records/s produced).",
        "",
        "| the other query ... | partitions reassigned to the survivor | survivor's first batch reading them |",
        "|---|---|---|",
        f"| killed (SIGKILL) while the survivor runs its first micro-batch | {med('kill_assigned')} "
        f"| {med('kill_read')} |",
        f"| stopped (`query.stop()`) | {med('stop_assigned')} | {med('stop_read')} |",
        f"| killed (SIGKILL) in steady state (both past their first batch) | {med('steady_assigned')} "
        f"| {med('steady_read')} |",
        "",
        f"Goal: session timeout + one batch = {SESSION_TIMEOUT_MS / 1000:.0f} s + {med('steady_batch')} (the "
        "survivor's median batch interval in steady state) = "
        f"{SESSION_TIMEOUT_MS / 1000 + statistics.median(r['steady_batch'] for r in runs):.1f} s.",
        "",
        "Each run (s): "
        + "; ".join(
            f"kill {r['kill_read']:.1f} (batch #{r['kill_inflight_nth']:.0f} in flight), stop {r['stop_read']:.1f}, "
            f"steady {r['steady_read']:.1f}, batch interval {r['steady_batch']:.1f}"
            for r in runs
        )
        + ".",
        "",
        "Where the time of the first row goes (medians): the survivor's batch in flight at the kill was its "
        f"batch #{statistics.median(r['kill_inflight_nth'] for r in runs):.0f}, planned "
        f"{med('kill_inflight_age')} before the kill; the survivor planned its next batch {med('kill_next_plan')} "
        "after the kill. The first batch that reads the moved partitions is planned once both the reassignment "
        "(session timeout + at most one heartbeat) and the batch in flight are done: Spark asks the source for a "
        "new batch only once the batch in flight is committed.",
        "",
        "A killed driver is detected by its session timeout; a stopped one sends LeaveGroup (Spark SIGTERMs",
        "the reader process), so the handover then takes one rebalance plus the survivor's next trigger.",
        "What limits us: the group protocol hands the partitions over at session timeout + at most one heartbeat",
        "(one join/sync round: a dead member's partitions are unowned, no cooperative second round); the rest",
        "is the survivor's micro-batch in flight, which Spark finishes before it asks the source again. In the",
        "first case that batch is the survivor's first one, which pays Spark's cold start of its Python data",
        "source processes (see the trace section below).",
        SECTION_END,
        "",
    ]
    return "\n".join(lines)


def render_consumer(runs: list[dict[str, float]], argv: list[str], load_at_start: str) -> str:
    """The consumer protocol's section: the issue's bars (a stopped query's partitions at the survivor
    within one heartbeat + one batch, a killed one's within session timeout + heartbeat + batch) and the
    survivor's own partitions meanwhile."""
    m = machine_info()

    def med(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    def cell(key: str) -> str:
        return f"{med(key):.1f} s ({min(r[key] for r in runs):.1f}–{max(r[key] for r in runs):.1f})"

    session, heartbeat, batch = SESSION_TIMEOUT_MS / 1000, 1.0, med("steady_batch")
    shown = " ".join(a for i, a in enumerate(argv) if a != "--out" and (i == 0 or argv[i - 1] != "--out"))
    lines = [
        CONSUMER_SECTION_BEGIN,
        "## Group mode on the consumer protocol (KIP-848): handover of a streaming query "
        "(`python -m bench.group_mode --group-protocol consumer`)",
        "",
        f"Command: `{f'python -m bench.group_mode {shown}'.strip()}` — {len(runs)} run(s), median (min–max).",
        f"Machine: {m['cpu_model']}, {m['usable_cores']} usable cores, Python {m['python']}, commit "
        f"{m['repo_commit']}, {m['date_utc']}; load average (1/5/15 min) at the start: {load_at_start}, at the end: "
        f"{load_average()}.",
        "",
        "Two pykafka queries (`kafka.group.protocol` = `consumer`; after each kill or stop a new second one) in "
        f"separate Spark drivers (local[1]) share a {PARTITIONS}-partition topic of our broker "
        f"(`group.consumer.session.timeout.ms` {SESSION_TIMEOUT_MS}, `group.consumer.heartbeat.interval.ms` 1000, "
        "the `uniform` assignor; trigger 1 s, pykafka-delta sink, 80 records/s produced).",
        "",
        "| the other query ... | its partitions reassigned to the survivor | survivor's first batch reading them "
        "| bar | survivor's own partitions: longest gap between its batches reading them |",
        "|---|---|---|---|---|",
        f"| stopped (`query.stop()`) | {cell('stop_assigned')} | {cell('stop_read')} | heartbeat + batch = "
        f"{heartbeat + batch:.1f} s | {cell('stop_own_gap')} |",
        f"| killed (SIGKILL) in steady state | {cell('steady_assigned')} | {cell('steady_read')} | session + "
        f"heartbeat + batch = {session + heartbeat + batch:.1f} s | {cell('steady_own_gap')} |",
        f"| killed (SIGKILL) during the survivor's first micro-batch | {cell('kill_assigned')} | {cell('kill_read')} "
        f"| (same; plus Spark's cold first batch) | {cell('kill_own_gap')} |",
        "",
        f"One batch = the survivor's median batch interval in steady state, {batch:.1f} s. Each run (s): "
        + "; ".join(
            f"stop {r['stop_read']:.1f} (own gap {r['stop_own_gap']:.1f}), steady kill {r['steady_read']:.1f} "
            f"(own gap {r['steady_own_gap']:.1f}), first-batch kill {r['kill_read']:.1f} (batch "
            f"#{r['kill_inflight_nth']:.0f} in flight), batch interval {r['steady_batch']:.1f}"
            for r in runs
        )
        + ".",
        CONSUMER_SECTION_END,
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("RESULTS.md"))
    ap.add_argument("--group-protocol", choices=["classic", "consumer"], default="classic")
    args = ap.parse_args(argv)
    load_at_start = load_average()
    runs: list[dict[str, Any]] = []
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="bench-group-mode-") as d:
            r = one_run(Path(d), args.group_protocol)
        print(f"run {i + 1}: " + ", ".join(f"{k}={v:.1f}s" for k, v in r.items()), flush=True)
        runs.append(r)
    if args.group_protocol == "consumer":
        section = render_consumer(runs, argv, load_at_start)
        report.update_results_file(args.out, section, CONSUMER_SECTION_BEGIN, CONSUMER_SECTION_END)
    else:
        section = render(runs, argv, load_at_start)
        report.update_results_file(args.out, section, SECTION_BEGIN, SECTION_END)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
