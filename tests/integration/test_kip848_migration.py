"""Online upgrade of a live classic group to the consumer protocol (KIP-848,
group.consumer.migration.policy=bidirectional, Kafka 4's default), against ours and Apache Kafka 4.3.1.

Two confluent-kafka consumers with group.protocol=classic consume under a running producer; each is
replaced in turn by a group.protocol=consumer member (the new one joins, then the old one closes).
The first consumer-protocol join converts the classic group; the remaining classic member keeps
working through JoinGroup/SyncGroup/Heartbeat translated by the coordinator. Every record is
consumed, no partition is ever assigned to two members at once, and at the end the two
consumer-protocol members own all the partitions."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture

pytestmark = pytest.mark.slow

PARTITIONS = 4
# commit errors of a member caught in a rebalance (classic: generation; consumer protocol: epoch)
REBALANCING = {
    KafkaError.ILLEGAL_GENERATION,
    KafkaError.REBALANCE_IN_PROGRESS,
    KafkaError.UNKNOWN_MEMBER_ID,
    KafkaError.STALE_MEMBER_EPOCH,
    KafkaError.FENCED_MEMBER_EPOCH,
}


class Group:
    """Consumers of one group polled from this thread; assignments tracked from their callbacks."""

    def __init__(self, bootstrap: str, topic: str, group: str) -> None:
        self.bootstrap, self.topic, self.group = bootstrap, topic, group
        self.members: dict[str, Consumer] = {}
        self.owners: dict[int, str] = {}
        self.double_owned: list[tuple[int, str, str]] = []
        self.seen: set[int] = set()

    def join(self, name: str, protocol: str) -> None:
        conf = {
            "bootstrap.servers": self.bootstrap,
            "group.id": self.group,
            "group.protocol": protocol,
            "client.id": name,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
        if protocol == "classic":
            conf.update({"session.timeout.ms": 10000, "heartbeat.interval.ms": 500})
        consumer = Consumer(conf)

        def on_assign(_c: Any, partitions: list[Any]) -> None:
            for tp in partitions:
                owner = self.owners.get(tp.partition)
                if owner is not None and owner != name:
                    self.double_owned.append((tp.partition, owner, name))
                self.owners[tp.partition] = name

        def on_revoke(c: Any, partitions: list[Any]) -> None:
            for tp in partitions:
                if self.owners.get(tp.partition) == name:
                    del self.owners[tp.partition]

        consumer.subscribe([self.topic], on_assign=on_assign, on_revoke=on_revoke, on_lost=on_revoke)
        self.members[name] = consumer

    def leave(self, name: str) -> None:
        self.members.pop(name).close()

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            for consumer in list(self.members.values()):
                msg = consumer.poll(0.05)
                if msg is not None and not msg.error():
                    self.seen.add(int(msg.value()))
                    # synchronous: the next owner of the partition starts after this record. A commit
                    # racing a rebalance is refused (as by Kafka): the record is then delivered again
                    try:
                        consumer.commit(msg, asynchronous=False)
                    except KafkaException as e:
                        if e.args[0].code() not in REBALANCING:
                            raise


def test_classic_group_upgraded_member_by_member(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group_id = f"migr-{uuid.uuid4().hex[:8]}", f"migr-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bs})
    for f in admin.create_topics([NewTopic(topic, PARTITIONS, 1)]).values():
        f.result(30)

    produced = [0]
    stop = threading.Event()
    errors: list[BaseException] = []

    def produce() -> None:
        try:
            p = Producer({"bootstrap.servers": bs, "linger.ms": 5})
            while not stop.is_set():
                p.produce(topic, str(produced[0]).encode(), partition=produced[0] % PARTITIONS)
                produced[0] += 1
                p.poll(0)
                time.sleep(0.01)
            assert p.flush(30) == 0
        except BaseException as e:  # reported by the test thread
            errors.append(e)

    group = Group(bs, topic, group_id)
    group.join("classic-1", "classic")
    group.join("classic-2", "classic")
    producer = threading.Thread(target=produce, daemon=True)
    producer.start()
    try:
        # the classic group is live: both members own partitions
        deadline = time.monotonic() + 30
        while set(group.owners.values()) != {"classic-1", "classic-2"}:
            assert time.monotonic() < deadline, f"classic group never settled: {group.owners}"
            group.pump(0.2)
        for old, new in (("classic-1", "consumer-1"), ("classic-2", "consumer-2")):
            group.join(new, "consumer")
            group.pump(3)
            group.leave(old)
            group.pump(2)
    finally:
        stop.set()
        producer.join(30)
    assert not errors, errors
    deadline = time.monotonic() + 60
    while (len(group.seen) < produced[0] or set(group.owners.values()) != {"consumer-1", "consumer-2"}) and (
        time.monotonic() < deadline
    ):
        group.pump(0.5)
    final_owners = dict(group.owners)
    for name in list(group.members):
        group.leave(name)
    assert group.double_owned == []
    assert produced[0] > 100
    assert len(group.seen) == produced[0], f"missing {sorted(set(range(produced[0])) - group.seen)[:20]}"
    # the upgrade completed: the consumer-protocol members own every partition between them
    assert len(final_owners) == PARTITIONS and set(final_owners.values()) == {"consumer-1", "consumer-2"}


def group_type(admin: AdminClient, group_id: str) -> tuple[str, int]:
    (desc,) = (f.result(30) for f in admin.describe_consumer_groups([group_id]).values())
    return desc.type.name, len(desc.members)


def test_downgrade_when_the_last_consumer_member_leaves(broker: Any) -> None:
    """A classic member and a consumer member share an upgraded group; the consumer member leaves:
    the group is a classic group again (Kafka's default policy, bidirectional), the classic member
    rejoins it and consumes what is produced afterwards."""
    bs = broker.bootstrap_servers
    topic, group_id = f"migr-{uuid.uuid4().hex[:8]}", f"migr-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bs})
    for f in admin.create_topics([NewTopic(topic, PARTITIONS, 1)]).values():
        f.result(30)
    producer = Producer({"bootstrap.servers": bs, "linger.ms": 5})

    def produce(start: int, count: int) -> None:
        for i in range(start, start + count):
            producer.produce(topic, str(i).encode(), partition=i % PARTITIONS)
        assert producer.flush(30) == 0

    group = Group(bs, topic, group_id)
    group.join("classic-1", "classic")
    produce(0, 40)
    deadline = time.monotonic() + 30
    while len(group.owners) < PARTITIONS:
        assert time.monotonic() < deadline, f"classic group never settled: {group.owners}"
        group.pump(0.2)
    group.join("consumer-1", "consumer")
    deadline = time.monotonic() + 30
    while group_type(admin, group_id) != ("CONSUMER", 2):
        assert time.monotonic() < deadline, "the classic group was not upgraded"
        group.pump(0.5)
    group.leave("consumer-1")
    deadline = time.monotonic() + 30
    while group_type(admin, group_id) != ("CLASSIC", 1):
        assert time.monotonic() < deadline, f"not downgraded: {group_type(admin, group_id)}"
        group.pump(0.5)
    produce(40, 40)
    deadline = time.monotonic() + 30
    while len(group.seen) < 80 or len(group.owners) < PARTITIONS:
        assert time.monotonic() < deadline, f"consumed {len(group.seen)} of 80, owners {group.owners}"
        group.pump(0.5)
    assert group.double_owned == []
    assert set(group.owners.values()) == {"classic-1"}
    group.leave("classic-1")
