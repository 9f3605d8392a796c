"""Exactly-once consume-transform-produce with KIP-848 members, differential (ours and Apache 4.3.1).

Two confluent-kafka consumers with `group.protocol=consumer`, each with its own transactional
producer, copy an input topic to an output topic: every record is produced and its offset sent with
`send_offsets_to_transaction` (TxnOffsetCommit carrying the member id and member epoch) in one
transaction. The second member joins mid-run, so partitions move one by one while the first keeps
processing. Read back read_committed, every input record is in the output exactly once, and the
group's committed offsets equal the input's end offsets.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.test_kip848_consumer_group import create_topic, produce

pytestmark = pytest.mark.slow

PARTITIONS = 4


class EosMember:
    """A consumer + transactional producer pair; one transaction per polled record, finished before
    the next poll, so a revocation never finds an open transaction."""

    def __init__(self, bootstrap: str, group: str, name: str, source: str, sink: str) -> None:
        self.name, self.sink = name, sink
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "group.protocol": "consumer",
                "client.id": name,
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
                "isolation.level": "read_committed",
            }
        )
        self.producer = Producer(
            {
                "bootstrap.servers": bootstrap,
                "transactional.id": f"{group}-{name}",
                "linger.ms": 0,
                "transaction.timeout.ms": 30000,
            }
        )
        self.producer.init_transactions(30)
        self.consumer.subscribe([source])
        self.copied = 0

    def step(self) -> None:
        m = self.consumer.poll(0.05)
        if m is None or m.error():
            return
        self.producer.begin_transaction()
        self.producer.produce(self.sink, m.value(), partition=m.partition())
        offsets = [TopicPartition(m.topic(), m.partition(), m.offset() + 1)]
        self.producer.send_offsets_to_transaction(offsets, self.consumer.consumer_group_metadata(), 30)
        self.producer.commit_transaction(30)
        self.copied += 1

    def owned(self) -> set[int]:
        return {tp.partition for tp in self.consumer.assignment()}

    def close(self) -> None:
        self.consumer.close()
        self.producer.flush(10)


def run_until(members: list[EosMember], condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in members:
            m.step()
        if condition():
            return
    raise AssertionError(f"timed out waiting for {what}: {[(m.name, sorted(m.owned()), m.copied) for m in members]}")


def read_committed(bootstrap: str, topic: str, expected: int) -> list[bytes]:
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"reader-{uuid.uuid4().hex[:6]}",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
        }
    )
    c.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
    out: list[bytes] = []
    deadline = time.monotonic() + 30
    try:
        # poll past the expected count for a moment so a duplicate would show up too
        quiet_until = None
        while time.monotonic() < deadline:
            m = c.poll(0.1)
            if m is not None and not m.error():
                out.append(m.value())
            if len(out) >= expected:
                quiet_until = quiet_until or time.monotonic() + 1.0
                if time.monotonic() >= quiet_until:
                    break
    finally:
        c.close()
    return out


def test_consume_transform_produce_exactly_once_while_a_member_joins(broker: Any) -> None:
    bs = broker.bootstrap_servers
    tag = uuid.uuid4().hex[:8]
    source, sink, group = f"eos848-in-{tag}", f"eos848-out-{tag}", f"eos848-g-{tag}"
    create_topic(bs, source, PARTITIONS)
    create_topic(bs, sink, PARTITIONS)
    produce(bs, source, PARTITIONS, 0, 40)
    first = EosMember(bs, group, "m1", source, sink)
    members = [first]
    try:
        run_until(members, lambda: first.copied >= 20 and len(first.owned()) == PARTITIONS, 30, "m1 to copy 20")
        second = EosMember(bs, group, "m2", source, sink)
        members.append(second)
        # the second member's partitions arrive while the first goes on copying its own
        run_until(members, lambda: len(first.owned()) == 2 and len(second.owned()) == 2, 45, "two balanced members")
        assert first.owned().isdisjoint(second.owned())
        produce(bs, source, PARTITIONS, 40, 40)
        run_until(members, lambda: sum(m.copied for m in members) >= 80, 45, "every record copied")
        assert second.copied > 0
    finally:
        for m in members:
            m.close()
    out = read_committed(bs, sink, 80)
    counts = Counter(out)
    assert sorted(counts) == sorted(str(i).encode() for i in range(80)), "every input record in the output"
    assert max(counts.values()) == 1, f"duplicates: {[v for v, n in counts.items() if n > 1]}"
    assert sum(m.copied for m in members) == 80
    check = Consumer({"bootstrap.servers": bs, "group.id": group, "group.protocol": "consumer"})
    try:
        committed = check.committed([TopicPartition(source, p) for p in range(PARTITIONS)], timeout=30)
    finally:
        check.close()
    assert sorted(tp.offset for tp in committed) == [20] * PARTITIONS
