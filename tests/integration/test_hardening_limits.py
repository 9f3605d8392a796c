"""Issue 22 limits: Kafka's per-request partition cap (KAFKA-17870) and internal topics that the
admin API may not delete or grow. Driven through confluent-kafka's AdminClient, as a client would."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from confluent_kafka import KafkaError as CKafkaError
from confluent_kafka.admin import AdminClient, NewPartitions, NewTopic

from broker_embedded import EmbeddedBroker

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(**{"num.partitions": 1}) as b:
        yield b


@pytest.fixture(scope="module")
def admin(broker: EmbeddedBroker) -> AdminClient:
    return AdminClient({"bootstrap.servers": broker.bootstrap_servers})


def _error(future: object) -> CKafkaError | None:
    try:
        future.result(timeout=30)  # type: ignore[attr-defined]
    except Exception as e:  # confluent_kafka.KafkaException wraps the KafkaError
        return e.args[0]
    return None


def _partitions(admin: AdminClient, topic: str) -> int:
    md = admin.list_topics(topic, timeout=10)
    return len(md.topics[topic].partitions)


def test_30000_partition_create_topics_is_refused(admin: AdminClient) -> None:
    name = f"huge-{uuid.uuid4().hex[:8]}"
    err = _error(admin.create_topics([NewTopic(name, 30_000, 1)], operation_timeout=30)[name])
    assert err is not None and err.code() == CKafkaError.POLICY_VIOLATION, err
    assert "Excessively large number of partitions per request" in err.str()
    assert name not in admin.list_topics(timeout=10).topics


def test_partitions_are_counted_across_the_whole_request(admin: AdminClient) -> None:
    names = [f"split-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    futures = admin.create_topics([NewTopic(n, 6_000, 1) for n in names], operation_timeout=30)
    for n in names:
        err = _error(futures[n])
        assert err is not None and err.code() == CKafkaError.POLICY_VIOLATION, err
    topics = admin.list_topics(timeout=10).topics
    assert not any(n in topics for n in names)


def test_small_create_topics_still_works(admin: AdminClient) -> None:
    name = f"ok-{uuid.uuid4().hex[:8]}"
    assert _error(admin.create_topics([NewTopic(name, 3, 1)], operation_timeout=30)[name]) is None
    assert _partitions(admin, name) == 3


def test_30000_partition_create_partitions_is_refused(admin: AdminClient) -> None:
    name = f"grow-{uuid.uuid4().hex[:8]}"
    assert _error(admin.create_topics([NewTopic(name, 2, 1)], operation_timeout=30)[name]) is None
    err = _error(admin.create_partitions([NewPartitions(name, 30_002)], operation_timeout=30)[name])
    assert err is not None and err.code() == CKafkaError.POLICY_VIOLATION, err
    assert _partitions(admin, name) == 2
    # growing by a sane amount is still allowed
    assert _error(admin.create_partitions([NewPartitions(name, 4)], operation_timeout=30)[name]) is None
    assert _partitions(admin, name) == 4


def test_internal_topic_cannot_be_deleted_or_grown(broker: EmbeddedBroker, admin: AdminClient) -> None:
    from confluent_kafka import Consumer

    # make __consumer_offsets exist: a group commits an offset
    c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": f"g-{uuid.uuid4().hex[:6]}"})
    try:
        from confluent_kafka import TopicPartition

        name = f"t-{uuid.uuid4().hex[:8]}"
        assert _error(admin.create_topics([NewTopic(name, 1, 1)], operation_timeout=30)[name]) is None
        c.commit(offsets=[TopicPartition(name, 0, 0)], asynchronous=False)
    finally:
        c.close()
    before = _partitions(admin, "__consumer_offsets")
    assert before > 0
    err = _error(admin.delete_topics(["__consumer_offsets"], operation_timeout=30)["__consumer_offsets"])
    assert err is not None and err.code() == CKafkaError.INVALID_REQUEST, err
    err = _error(
        admin.create_partitions([NewPartitions("__consumer_offsets", before + 1)], operation_timeout=30)[
            "__consumer_offsets"
        ]
    )
    assert err is not None and err.code() == CKafkaError.INVALID_REQUEST, err
    assert _partitions(admin, "__consumer_offsets") == before
