"""Consumer groups, scenario 1: three members of one group split a 12-partition topic.

For each client and assignment strategy: the assignments the clients report are disjoint and
complete, each member fetches all of its partitions, and DescribeGroups (through the clients' own
admin APIs) shows the group Stable with all three members and the chosen protocol.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.group_util import (
    assert_disjoint_complete,
    make_topic,
    produce_keyed,
    unique,
    wait_until,
)

pytestmark = pytest.mark.timeout(60)

PARTITIONS = 12
PER_PARTITION = 5
MEMBERS = 3


@pytest.fixture
def topic(gb: Any) -> str:
    name = make_topic(gb.bootstrap_servers, PARTITIONS)
    produce_keyed(gb.bootstrap_servers, name, PARTITIONS, PER_PARTITION)
    return name


def _fully_fetched(assignments: list[list[int]], positions: list[dict[int, int]]) -> bool:
    """Each member has read every record of every partition it owns."""
    return all(pos.get(p, 0) >= PER_PARTITION for a, pos in zip(assignments, positions, strict=True) for p in a)


def _split_ok(assignments: list[list[int]]) -> bool:
    """Disjoint, complete and balanced: the split every strategy here ends in. A cooperative
    rebalance passes through complete splits that are not balanced yet (kafka-python's
    cooperative-sticky was seen at [6, 3, 3] while a revocation was still under way)."""
    flat = [p for a in assignments for p in a]
    share = PARTITIONS // len(assignments)
    return len(flat) == len(set(flat)) == PARTITIONS and all(len(a) == share for a in assignments)


def _check_confluent_description(bootstrap: str, group: str, protocol: str, assignments: list[list[int]]) -> None:
    from confluent_kafka import ConsumerGroupState
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap})
    d = admin.describe_consumer_groups([group], request_timeout=10)[group].result()
    assert d.state == ConsumerGroupState.STABLE, d.state
    assert d.partition_assignor == protocol
    assert len(d.members) == MEMBERS
    described = sorted(sorted(tp.partition for tp in m.assignment.topic_partitions) for m in d.members)
    assert described == sorted(sorted(a) for a in assignments)


def _check_kafka_python_description(bootstrap: str, group: str, protocol: str, assignments: list[list[int]]) -> None:
    from kafka import KafkaAdminClient

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    try:
        d = admin.describe_groups([group])[group]
    finally:
        admin.close()
    assert d["error"] is None, d
    assert d["group_state"] == "Stable"
    assert d["protocol_type"] == "consumer"
    assert d["protocol_data"] == protocol
    assert len(d["members"]) == MEMBERS
    described = sorted(
        sorted(p for tp in m["member_assignment"]["assigned_partitions"] for p in tp["partitions"])
        for m in d["members"]
    )
    assert described == sorted(sorted(a) for a in assignments)


def _pump(consumers: list[Any]) -> None:
    """Serve confluent-kafka consumers (a rebalance is applied in consume())."""
    for c in consumers:
        c.consume(num_messages=500, timeout=0.02)


def _check_descriptions(
    bootstrap: str,
    group: str,
    protocol: str,
    current: Callable[[], list[list[int]]],
    pump: Callable[[], None] = lambda: None,
    timeout: float = 15,
) -> None:
    """Both admin clients describe the group as Stable with the members' current assignments.

    A client may start another rebalance right after the split looked complete (kafka-python's
    leader rejoins when its metadata snapshot changes; cooperative-sticky needs a follow-up
    rebalance), so this retries until the description and the clients agree."""
    deadline = time.monotonic() + timeout
    while True:
        pump()
        try:
            a = current()
            assert_disjoint_complete(a, PARTITIONS)
            _check_confluent_description(bootstrap, group, protocol, a)
            _check_kafka_python_description(bootstrap, group, protocol, a)
            return
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.1)


# --------------------------------------------------------------------------------------------
# per-client drivers: run MEMBERS consumers until the split is complete and fully fetched
# --------------------------------------------------------------------------------------------


def _confluent_consumer(bootstrap: str, group: str, strategy: str) -> Any:
    from confluent_kafka import Consumer

    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "partition.assignment.strategy": strategy,
            "session.timeout.ms": 3000,
            "heartbeat.interval.ms": 300,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )


class _KafkaPythonMember(threading.Thread):
    def __init__(self, bootstrap: str, group: str, topic: str, strategy: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        from kafka import KafkaConsumer
        from kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
        from kafka.coordinator.assignors.range import RangePartitionAssignor
        from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
        from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

        assignors = {
            "range": RangePartitionAssignor,
            "roundrobin": RoundRobinPartitionAssignor,
            "sticky": StickyPartitionAssignor,
            "cooperative-sticky": CooperativeStickyAssignor,
        }
        self.consumer = KafkaConsumer(
            bootstrap_servers=bootstrap,
            group_id=group,
            partition_assignment_strategy=[assignors[strategy]],
            session_timeout_ms=3000,
            heartbeat_interval_ms=300,
            auto_offset_reset="earliest",
            enable_auto_commit=False,
        )
        self.topic = topic
        self.stop = stop
        self.assignment: list[int] = []
        self.positions: dict[int, int] = {}
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            # load the topic's metadata first: a kafka-python 3.0.12 leader that assigns before it
            # knows the partitions ("No partition metadata for topic") can hang in its own poll()
            wait_until(lambda: self.consumer.partitions_for_topic(self.topic), 10, what="topic metadata")
            self.consumer.subscribe([self.topic])
            while not self.stop.is_set():
                # kafka-python 3.0.12 can lose a rebalance when a short poll() times out in the
                # middle of it (see group_members/member.py): poll with a longer timeout
                for tp, recs in self.consumer.poll(timeout_ms=500).items():
                    for r in recs:
                        self.positions[tp.partition] = r.offset + 1
                self.assignment = sorted(tp.partition for tp in self.consumer.assignment())
        except BaseException as e:  # reported by the test
            self.error = e
        finally:
            self.consumer.close()


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "cooperative-sticky"])
def test_confluent_three_members(gb: Any, topic: str, strategy: str) -> None:
    group = unique("cf")
    consumers = [_confluent_consumer(gb.bootstrap_servers, group, strategy) for _ in range(MEMBERS)]
    positions: list[dict[int, int]] = [{} for _ in consumers]
    try:
        t0 = time.monotonic()
        for c in consumers:
            c.subscribe([topic])

        def step() -> list[list[int]] | None:
            for c, pos in zip(consumers, positions, strict=True):
                for m in c.consume(num_messages=500, timeout=0.02):
                    if m.error() is None:
                        pos[m.partition()] = m.offset() + 1
            a = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
            return a if _split_ok(a) and _fully_fetched(a, positions) else None

        assignments = wait_until(step, 30, interval=0, what=f"{strategy} split")
        print(f"\n[confluent {strategy}] split and fetched after {time.monotonic() - t0:.2f}s: {assignments}")
        assert_disjoint_complete(assignments, PARTITIONS)
        if strategy == "range":
            assert sorted(assignments) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
        else:
            assert sorted(len(a) for a in assignments) == [4, 4, 4]
        _check_descriptions(
            gb.bootstrap_servers,
            group,
            strategy,
            lambda: [sorted(tp.partition for tp in c.assignment()) for c in consumers],
            pump=lambda: _pump(consumers),
        )
    finally:
        for c in consumers:
            c.close()


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "sticky", "cooperative-sticky"])
def test_kafka_python_three_members(gb: Any, topic: str, strategy: str) -> None:
    group = unique("kp")
    stop = threading.Event()
    members = [_KafkaPythonMember(gb.bootstrap_servers, group, topic, strategy, stop) for _ in range(MEMBERS)]
    t0 = time.monotonic()
    for m in members:
        m.start()
    try:

        def ready() -> list[list[int]] | None:
            errors = [m.error for m in members if m.error is not None]
            assert not errors, errors
            a = [list(m.assignment) for m in members]
            return a if _split_ok(a) and _fully_fetched(a, [dict(m.positions) for m in members]) else None

        assignments = wait_until(ready, 30, what=f"{strategy} split")
        print(f"\n[kafka-python {strategy}] split and fetched after {time.monotonic() - t0:.2f}s: {assignments}")
        assert_disjoint_complete(assignments, PARTITIONS)
        assert sorted(len(a) for a in assignments) == [4, 4, 4]
        _check_descriptions(gb.bootstrap_servers, group, strategy, lambda: [list(m.assignment) for m in members])
    finally:
        stop.set()
        for m in members:
            m.join(timeout=15)
    assert not any(m.is_alive() for m in members)


@pytest.mark.parametrize("strategy", ["range", "roundrobin"])
def test_aiokafka_three_members(gb: Any, topic: str, strategy: str) -> None:
    from aiokafka import AIOKafkaConsumer
    from aiokafka.coordinator.assignors.range import RangePartitionAssignor
    from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

    assignor = {"range": RangePartitionAssignor, "roundrobin": RoundRobinPartitionAssignor}[strategy]
    group = unique("aio")

    async def scenario() -> list[list[int]]:
        consumers = [
            AIOKafkaConsumer(
                topic,
                bootstrap_servers=gb.bootstrap_servers,
                group_id=group,
                partition_assignment_strategy=(assignor,),
                session_timeout_ms=3000,
                heartbeat_interval_ms=300,
                auto_offset_reset="earliest",
                enable_auto_commit=False,
            )
            for _ in range(MEMBERS)
        ]
        positions: list[dict[int, int]] = [{} for _ in consumers]
        try:
            await asyncio.gather(*(c.start() for c in consumers))
            deadline = time.monotonic() + 30
            while True:
                batches = await asyncio.gather(*(c.getmany(timeout_ms=50) for c in consumers))
                for pos, batch in zip(positions, batches, strict=True):
                    for tp, recs in batch.items():
                        for r in recs:
                            pos[tp.partition] = r.offset + 1
                a = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
                if _split_ok(a) and _fully_fetched(a, positions):
                    return a
                assert time.monotonic() < deadline, f"no complete split: {a}"
        finally:
            await asyncio.gather(*(c.stop() for c in consumers))

    t0 = time.monotonic()
    assignments = asyncio.run(scenario())
    print(f"\n[aiokafka {strategy}] split and fetched after {time.monotonic() - t0:.2f}s: {assignments}")
    assert_disjoint_complete(assignments, PARTITIONS)
    if strategy == "range":
        assert sorted(assignments) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_aiokafka_described_while_stable(gb: Any, topic: str) -> None:
    """DescribeGroups while three aiokafka members are Stable (round robin)."""
    from aiokafka import AIOKafkaConsumer
    from aiokafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

    group = unique("aio-d")

    async def scenario() -> None:
        consumers = [
            AIOKafkaConsumer(
                topic,
                bootstrap_servers=gb.bootstrap_servers,
                group_id=group,
                partition_assignment_strategy=(RoundRobinPartitionAssignor,),
                session_timeout_ms=3000,
                heartbeat_interval_ms=300,
                auto_offset_reset="earliest",
            )
            for _ in range(MEMBERS)
        ]
        try:
            await asyncio.gather(*(c.start() for c in consumers))
            deadline = time.monotonic() + 30
            while True:
                await asyncio.gather(*(c.getmany(timeout_ms=50) for c in consumers))
                a = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
                if _split_ok(a):
                    break
                assert time.monotonic() < deadline, f"no complete split: {a}"
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(
                None, _check_kafka_python_description, gb.bootstrap_servers, group, "roundrobin", a
            )
            await loop.run_in_executor(None, _check_confluent_description, gb.bootstrap_servers, group, "roundrobin", a)
        finally:
            await asyncio.gather(*(c.stop() for c in consumers))

    asyncio.run(scenario())


def test_mixed_clients_common_protocol(gb: Any, topic: str) -> None:
    """Two confluent members preferring roundrobin (range second) and one kafka-python member
    with range only: the coordinator must pick range, the only protocol all three support."""
    group = unique("mixed")
    consumers = [_confluent_consumer(gb.bootstrap_servers, group, "roundrobin,range") for _ in range(2)]
    positions: list[dict[int, int]] = [{} for _ in consumers]
    stop = threading.Event()
    kp = _KafkaPythonMember(gb.bootstrap_servers, group, topic, "range", stop)
    try:
        for c in consumers:
            c.subscribe([topic])
        kp.start()

        def step() -> list[list[int]] | None:
            assert kp.error is None, kp.error
            for c, pos in zip(consumers, positions, strict=True):
                for m in c.consume(num_messages=500, timeout=0.02):
                    if m.error() is None:
                        pos[m.partition()] = m.offset() + 1
            a = [sorted(tp.partition for tp in c.assignment()) for c in consumers] + [list(kp.assignment)]
            ok = _split_ok(a) and _fully_fetched(a, [*positions, dict(kp.positions)])
            return a if ok else None

        assignments = wait_until(step, 30, interval=0, what="mixed split")
        assert_disjoint_complete(assignments, PARTITIONS)
        assert sorted(assignments) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
        _check_descriptions(
            gb.bootstrap_servers,
            group,
            "range",
            lambda: [sorted(tp.partition for tp in c.assignment()) for c in consumers] + [list(kp.assignment)],
            pump=lambda: _pump(consumers),
        )
    finally:
        stop.set()
        kp.join(timeout=15)
        for c in consumers:
            c.close()
