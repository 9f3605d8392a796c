"""Metadata through the clients: topics auto-created on first use (num.partitions), and refused
when the broker runs with auto.create.topics.enable=false."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from tests.integration.clients_util import CLIENTS, create_topic
from tests.peers.fixtures import ours_only

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    """Differential: every test of this module runs against our broker, then real Apache Kafka."""
    return either_broker


def _produce_one(client: str, bootstrap: str, topic: str, timeout_s: float) -> tuple[int, int]:
    """Produce one keyed record without naming a partition; returns (partition, offset)."""
    if client == "confluent":
        from confluent_kafka import KafkaException, Producer

        p = Producer({"bootstrap.servers": bootstrap, "message.timeout.ms": int(timeout_s * 1000)})
        out: list[tuple[object, object]] = []
        p.produce(topic, key=b"k", value=b"v", on_delivery=lambda err, m: out.append((err, m)))
        p.flush(timeout_s + 5)
        ((err, m),) = out
        if err is not None:
            raise KafkaException(err)
        return m.partition(), m.offset()
    if client == "kafka-python":
        from kafka import KafkaProducer

        kp = KafkaProducer(bootstrap_servers=bootstrap, max_block_ms=int(timeout_s * 1000))
        try:
            md = kp.send(topic, key=b"k", value=b"v").get(timeout_s + 5)
            return md.partition, md.offset
        finally:
            kp.close(timeout=5)

    async def run() -> tuple[int, int]:
        from aiokafka import AIOKafkaProducer

        ap = AIOKafkaProducer(bootstrap_servers=bootstrap, request_timeout_ms=int(timeout_s * 1000))
        await ap.start()
        try:
            md = await ap.send_and_wait(topic, key=b"k", value=b"v")
            return md.partition, md.offset
        finally:
            await ap.stop()

    return asyncio.run(run())


def _broker_partitions(b: EmbeddedBroker, topic: str) -> int | None:
    def get(broker: object) -> int | None:
        meta = broker.topics.get(topic)  # type: ignore[attr-defined]
        return None if meta is None else meta.num_partitions

    return b.call(get)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
def test_produce_to_unknown_topic_auto_creates_it(broker, topic_name, client):
    ours_only(broker)  # looks inside our broker
    assert _broker_partitions(broker, topic_name) is None
    partition, offset = _produce_one(client, broker.bootstrap_servers, topic_name, 20)
    assert offset == 0 and 0 <= partition < 4
    assert _broker_partitions(broker, topic_name) == 4  # the fixture's num.partitions
    from confluent_kafka.admin import AdminClient

    md = AdminClient({"bootstrap.servers": broker.bootstrap_servers}).list_topics(topic_name, timeout=10)
    t = md.topics[topic_name]
    assert t.error is None and sorted(t.partitions) == [0, 1, 2, 3]
    assert all(p.leader == 0 and p.replicas == [0] and p.isrs == [0] for p in t.partitions.values())


@pytest.mark.timeout(60)
def test_consumer_metadata_does_not_auto_create(broker, topic_name):
    """Consumers ask with allow_auto_topic_creation=false (Metadata v4+): the broker must honour it."""
    ours_only(broker)  # looks inside our broker
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "g", "allow.auto.create.topics": False})
    try:
        md = c.list_topics(topic_name, timeout=10)
        assert md.topics[topic_name].error is not None
        assert md.topics[topic_name].error.code() == 3  # UNKNOWN_TOPIC_OR_PARTITION
    finally:
        c.close()
    assert _broker_partitions(broker, topic_name) is None


@pytest.fixture(scope="module")
def no_auto_create() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(**{"num.partitions": 2, "auto.create.topics.enable": False}) as b:
        yield b


@pytest.mark.timeout(60)
def test_metadata_reports_unknown_topic_without_auto_create(no_auto_create, topic_name):
    # a producer's metadata request asks for auto-creation: it must still be refused
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient

    from kafka_wire.errors import ErrorCode

    p = Producer({"bootstrap.servers": no_auto_create.bootstrap_servers})
    md = p.list_topics(topic_name, timeout=10)
    assert md.topics[topic_name].error is not None
    assert md.topics[topic_name].error.code() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert (
        topic_name
        not in AdminClient({"bootstrap.servers": no_auto_create.bootstrap_servers}).list_topics(timeout=10).topics
    )
    assert _broker_partitions(no_auto_create, topic_name) is None


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
def test_produce_to_unknown_topic_fails_without_auto_create(no_auto_create, topic_name, client):
    with pytest.raises(Exception) as info:  # noqa: B017 - each client raises its own type
        _produce_one(client, no_auto_create.bootstrap_servers, topic_name, 2)
    text = f"{type(info.value).__name__}: {info.value}"
    assert any(w in text for w in ("UNKNOWN_TOPIC", "UnknownTopic", "Timeout", "TIMED_OUT", "timed out")), text
    assert _broker_partitions(no_auto_create, topic_name) is None
    # an explicitly created topic works on the same broker
    create_topic(no_auto_create, topic_name, 2)
    partition, offset = _produce_one(client, no_auto_create.bootstrap_servers, topic_name, 20)
    assert offset == 0 and partition in (0, 1)
