"""Kafka's group cleanup (the group coordinator's cleanupGroupMetadata, every
offsets.retention.check.interval.ms): an Empty group without committed offsets is deleted -- a classic
group and a consumer-protocol (KIP-848) group whose members left without committing -- while an Empty
group holding offsets younger than offsets.retention.minutes and a group with a member stay, the offsets
too. Differential: our broker and Apache Kafka 4.3.1, both with a 1 s check interval, driven by
confluent-kafka; what is listed afterwards must be the same."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker
from peers import jvm
from tests.integration.clients_util import listed_groups, wait_until
from tests.peers.fixtures import require_kafka_peers

pytestmark = pytest.mark.timeout(120)

FAST_CLEANUP: dict[str, Any] = {
    "offsets.retention.check.interval.ms": 1000,
    "group.initial.rebalance.delay.ms": 0,
}


@pytest.fixture(params=["ours", "apache"])
def bootstrap(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "ours":
        with EmbeddedBroker(tmp_path, num_partitions=1, **FAST_CLEANUP) as broker:
            yield broker.bootstrap_servers
        return
    require_kafka_peers()
    with jvm.ApacheKafka(1, num_partitions=1, overrides=FAST_CLEANUP) as kafka:
        yield kafka.bootstrap_servers


def _consumer(bootstrap: str, group: str, **extra: Any) -> Consumer:
    conf = {"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False, **extra}
    return Consumer(conf)


def _join(consumer: Consumer, topic: str) -> None:
    consumer.subscribe([topic])
    wait_until(lambda: (consumer.poll(0.1), consumer.assignment())[1], 30, what=f"an assignment of {topic}")


def test_empty_groups_without_offsets_are_deleted_at_the_check(bootstrap: str) -> None:
    topic = f"cleanup-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=1)])[topic].result(10)
    left_classic, left_consumer, committed, active = (f"{topic}-{n}" for n in ("left", "left-848", "kept", "active"))

    member = _consumer(bootstrap, active, **{"session.timeout.ms": 30000})
    _join(member, topic)
    try:
        for group, protocol in ((left_classic, "classic"), (left_consumer, "consumer")):
            leaving = _consumer(bootstrap, group, **{"group.protocol": protocol})
            _join(leaving, topic)
            leaving.close()  # leaves the group without committing: the group is Empty, without offsets
        simple = _consumer(bootstrap, committed)
        simple.commit(offsets=[TopicPartition(topic, 0, 5)], asynchronous=False)
        simple.close()

        # within a few check intervals both groups without offsets are gone; the others stay
        wait_until(
            lambda: not ({left_classic, left_consumer} & listed_groups(admin)),
            30,
            what=lambda: f"listed: {listed_groups(admin)}",
        )
        listed = listed_groups(admin)
        assert {committed, active} <= listed, listed
        reader = _consumer(bootstrap, committed)
        try:
            assert reader.committed([TopicPartition(topic, 0)], timeout=10)[0].offset == 5
        finally:
            reader.close()
        assert [(tp.topic, tp.partition) for tp in member.assignment()] == [(topic, 0)]
    finally:
        member.close()
