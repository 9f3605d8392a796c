"""The proof of group mode: streaming queries in SEPARATE Spark driver processes share one
12-partition topic through the consumer group protocol and write one Delta table exactly once.

Scenario 1: queries A and B start, C joins, A is killed with SIGKILL (its partitions move to the
survivors after the 6 s session timeout), C is stopped cleanly (it leaves the group at once),
while a producer keeps writing. At the end the table holds every acknowledged record exactly
once (compared by (partition, offset)), and the plan log every driver writes (generation,
member, offset ranges of each micro-batch) shows no partition planned by two members in the
same generation.

Scenario 2: the same group with a confluent-kafka (librdkafka) consumer as an extra member,
cooperative-sticky on both sides: it is assigned partitions by our leader and consumes them
(counted separately); snapshots of the group (DescribeGroups) never show a partition owned twice.

Each driver is a Spark driver process of its own, in its own process group (the harness is
testsupport/group_mode_procs.py, shared with bench/group_mode.py).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from testsupport.group_mode_procs import (
    PARTITIONS,
    SESSION_TIMEOUT_MS,
    Driver,
    GroupWatch,
    Producer,
    first_read_of,
    owned_by,
    planned_by,
    split_is,
    wait_for,
)
from testsupport.topics import create_topic

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


def table_rows(table: Path) -> list[tuple[int, int]]:
    from deltalake import DeltaTable
    from deltalake.exceptions import TableNotFoundError

    try:
        t = DeltaTable(str(table)).to_pyarrow_table(columns=["partition", "offset"])
    except TableNotFoundError:
        return []
    return list(zip(t.column("partition").to_pylist(), t.column("offset").to_pylist(), strict=True))


def check_plan_log(path: Path) -> dict[str, set[tuple[int, int]]]:
    """No partition planned by two members in one generation; returns the ranges each member read."""
    by_generation: dict[int, dict[tuple[str, int], set[str]]] = defaultdict(lambda: defaultdict(set))
    per_member: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        for topic, p, lo, _hi in rec["ranges"]:
            by_generation[rec["generation"]][(topic, p)].add(rec["member"])
            per_member[rec["member"]].add((p, lo))
    for gen, owners in by_generation.items():
        double = {tp: m for tp, m in owners.items() if len(m) > 1}
        assert not double, f"generation {gen}: partitions planned by two members: {double}"
    return per_member


def assert_snapshots_disjoint(watch: GroupWatch) -> None:
    assert watch.snapshots, "no group snapshot was taken"
    for g in watch.snapshots:
        owned = [tp for tps in g.members.values() for tp in tps]
        assert len(set(owned)) == len(owned), f"a partition owned twice in one group snapshot: {g.members}"


@pytest.fixture
def scenario(tmp_path: Path) -> Iterator[dict[str, Any]]:
    pytest.importorskip("deltalake")
    pytest.importorskip("pyspark_pykafka_delta", reason="the pykafka-delta sink is not available")
    with EmbeddedBroker(tmp_path / "broker") as b:
        topic, group = f"gm-{uuid.uuid4().hex[:6]}", f"billing-{uuid.uuid4().hex[:6]}"
        create_topic(b, topic, PARTITIONS)
        common = {
            "bootstrap": b.bootstrap_servers,
            "topic": topic,
            "group": group,
            "table": str(tmp_path / "table"),
            "plan_log": str(tmp_path / "plan.jsonl"),
            "lifetime_s": 200,
        }
        drivers: list[Driver] = []
        state = {"broker": b, "common": common, "dir": tmp_path, "drivers": drivers, "topic": topic, "group": group}
        try:
            yield state
        finally:
            for d in drivers:
                d.close()


def start(state: dict[str, Any], name: str, gated: bool = False) -> Driver:
    d = Driver(name, state["dir"], state["common"], gated)
    state["drivers"].append(d)
    return d


def final_check(
    state: dict[str, Any], producer: Producer, extra: set[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    """Every acknowledged record is in the table (or, in `extra`, consumed by another member), and
    nothing is in the table twice."""
    extra = extra or set()
    table = Path(state["common"]["table"])
    producer.stop()
    acked = producer.acked
    assert len(acked) > 500
    wait_for(lambda: acked <= set(table_rows(table)) | extra, 90, "every acknowledged record in the table")
    rows = table_rows(table)
    dupes = len(rows) - len(set(rows))
    assert dupes == 0, f"{dupes} records written twice"
    assert set(rows) <= acked | extra
    return rows


def test_queries_in_separate_drivers_share_a_topic_exactly_once(scenario: dict[str, Any]) -> None:
    b, group, common = scenario["broker"], scenario["group"], scenario["common"]
    watch = GroupWatch(b.bootstrap_servers, group)
    t0 = time.monotonic()
    a, bq, c = start(scenario, "A"), start(scenario, "B"), start(scenario, "C", gated=True)
    a.wait_ready(120)
    producer = Producer(b.bootstrap_servers, scenario["topic"])  # from when the first query runs
    bq.wait_ready(120)
    wait_for(lambda: split_is(watch, [6, 6]), 60, "A and B splitting 6/6")
    c.wait_ready(120, c.warm)
    c.go()  # a third query joins
    c.wait_ready(60)
    wait_for(lambda: split_is(watch, [4, 4, 4]), 60, "A, B and C splitting 4/4/4")
    plan_log = Path(common["plan_log"])
    # every query reads its share (a driver's first micro-batch starts its Python workers: slow)
    wait_for(lambda: planned_by(plan_log, "C"), 90, "C reading its partitions")

    a_parts = owned_by(watch, "A")
    a.kill9()
    killed, killed_wall = time.monotonic(), time.time()
    wait_for(lambda: split_is(watch, [6, 6]), 60, "B and C taking over A's partitions")
    handover_kill = time.monotonic() - killed
    seen_c = planned_by(plan_log, "C")
    wait_for(lambda: planned_by(plan_log, "C") - seen_c, 90, "C reading after the rebalance")

    c_parts = owned_by(watch, "C")
    stopped, stopped_wall = time.monotonic(), time.time()
    c.stop()
    wait_for(lambda: split_is(watch, [12]), 60, "B owning every partition")
    handover_leave = time.monotonic() - stopped
    assert c.wait_exit(60) == 0, c.tail()

    final_check(scenario, producer)
    watch.stop()
    per_member = check_plan_log(Path(common["plan_log"]))
    assert len(per_member) >= 3, f"expected A, B and C in the plan log, got {list(per_member)}"
    assert_snapshots_disjoint(watch)
    # A's partitions moved after its session expired; C left the group, so its partitions moved at once
    assert handover_leave < SESSION_TIMEOUT_MS / 1000, f"clean stop took {handover_leave:.1f}s to hand over"
    read_after_kill = first_read_of(plan_log, a_parts, killed_wall, "A") - killed_wall
    read_after_stop = first_read_of(plan_log, c_parts, stopped_wall, "C") - stopped_wall
    print(
        f"\ngroup mode: kill -9 -> reassigned {handover_kill:.1f}s, -> a survivor reads them {read_after_kill:.1f}s "
        f"(session timeout {SESSION_TIMEOUT_MS / 1000:.0f}s); clean stop -> reassigned {handover_leave:.1f}s, "
        f"-> read {read_after_stop:.1f}s; scenario {time.monotonic() - t0:.0f}s"
    )


def test_a_confluent_consumer_is_a_member_of_the_same_group(scenario: dict[str, Any]) -> None:
    from confluent_kafka import Consumer, KafkaError, KafkaException

    RETRY_COMMIT = {KafkaError.REBALANCE_IN_PROGRESS, KafkaError.ILLEGAL_GENERATION, KafkaError.UNKNOWN_MEMBER_ID}

    b, group, common = scenario["broker"], scenario["group"], scenario["common"]
    watch = GroupWatch(b.bootstrap_servers, group)
    a, bq = start(scenario, "A"), start(scenario, "B", gated=True)
    a.wait_ready(120)
    producer = Producer(b.bootstrap_servers, scenario["topic"])
    wait_for(lambda: split_is(watch, [12]), 60, "A owning every partition")

    consumed: set[tuple[int, int]] = set()
    commit_refusals: list[int] = []
    assignments: list[list[int]] = []
    stop = threading.Event()

    def on_assign(consumer: Any, parts: list[Any]) -> None:
        assignments.append(sorted(p.partition for p in parts))

    def run() -> None:
        c = Consumer(
            {
                "bootstrap.servers": b.bootstrap_servers,
                "group.id": group,
                "client.id": "librdkafka-member",
                "partition.assignment.strategy": "cooperative-sticky",
                "session.timeout.ms": SESSION_TIMEOUT_MS,
                "heartbeat.interval.ms": 1000,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
        c.subscribe([scenario["topic"]], on_assign=on_assign)
        try:
            while not stop.is_set():
                msgs = c.consume(100, timeout=0.2)
                for m in msgs:
                    if m.error() is None:
                        consumed.add((m.partition(), m.offset()))
                if msgs:
                    try:
                        c.commit(asynchronous=False)
                    except KafkaException as e:
                        # a commit that meets a rebalance is refused (REBALANCE_IN_PROGRESS while the
                        # group completes it, as Kafka's coordinator does); a member retries later
                        if not e.args[0].retriable() and e.args[0].code() not in RETRY_COMMIT:
                            raise
                        commit_refusals.append(e.args[0].code())
        finally:
            c.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    try:
        # our query is the leader: librdkafka decodes the assignment our assignor wrote
        wait_for(lambda: split_is(watch, [6, 6]), 60, "A and the confluent consumer splitting 6/6")
        wait_for(lambda: len({p for p, _ in consumed}) == 6, 30, "the confluent consumer reading its 6 partitions")
        bq.wait_ready(120, bq.warm)
        bq.go()
        bq.wait_ready(60)
        wait_for(lambda: split_is(watch, [4, 4, 4]), 60, "A, B and the confluent consumer splitting 4/4/4")
        plan_log = Path(common["plan_log"])
        wait_for(lambda: planned_by(plan_log, "B"), 90, "B reading its partitions")
        a.kill9()
        wait_for(
            lambda: split_is(watch, [6, 6]) or not t.is_alive(),
            60,
            "B and the confluent consumer taking over A's partitions",
        )
        assert t.is_alive(), "the confluent consumer's thread stopped (see its exception above)"
        seen_b = planned_by(plan_log, "B")
        wait_for(lambda: planned_by(plan_log, "B") - seen_b, 90, "B reading after the rebalance")
        producer_acked = final_check(scenario, producer, extra=consumed)
        assert producer_acked
    finally:
        stop.set()
        t.join(15)
    watch.stop()
    check_plan_log(Path(common["plan_log"]))
    assert_snapshots_disjoint(watch)
    assert assignments and any(assignments), "the confluent consumer never got partitions"
    confluent_members = [g for g in watch.snapshots if any(len(tps) for tps in g.members.values())]
    assert confluent_members
