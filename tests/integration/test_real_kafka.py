"""The same client-level checks against our EmbeddedBroker and against a real Apache Kafka
(the JVM peer from peers/pom.xml, KRaft combined mode, started once per test run by the
``apache_kafka`` fixture): produce/consume, admin operations, ListOffsets by timestamp and a few
raw-protocol refusals. A difference between the two targets is a compatibility bug of ours.

Without the JVM peers (``./scripts/setup.sh`` resolves them with Maven) the apache target skips,
except under CI=true, where it fails.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka import KafkaError as CKafkaError
from confluent_kafka.admin import AdminClient, ConfigResource, ConfigSource, NewPartitions, NewTopic

from broker_embedded import EmbeddedBroker
from kafka_wire.errors import ErrorCode
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module", params=["embedded", "apache-kafka"])
def target(request: pytest.FixtureRequest) -> Iterator[str]:
    """Bootstrap servers of the target under test."""
    if request.param == "embedded":
        with EmbeddedBroker(num_partitions=1) as b:
            yield b.bootstrap_servers
        return
    yield request.getfixturevalue("apache_kafka").bootstrap_servers


def _admin(bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": bootstrap})


def _wait(futures: dict[Any, Any], timeout: float = 30) -> dict[Any, Any]:
    return {k: f.result(timeout=timeout) for k, f in futures.items()}


def create_topic(bootstrap: str, name: str, partitions: int, config: dict[str, str] | None = None) -> None:
    admin = _admin(bootstrap)  # keep a reference: a collected client fails its futures
    _wait(admin.create_topics([NewTopic(name, partitions, 1, config=config or {})]))
    wait_for_leaders(bootstrap, name, partitions)


def wait_for_leaders(bootstrap: str, topic: str, partitions: int, timeout: float = 30) -> None:
    """Topic creation is asynchronous in a real cluster: wait until every partition has a leader."""
    admin = _admin(bootstrap)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        md = admin.list_topics(topic, timeout=5).topics.get(topic)
        if (
            md is not None
            and md.error is None
            and len(md.partitions) == partitions
            and all(p.leader >= 0 for p in md.partitions.values())
        ):
            return
        time.sleep(0.1)
    raise AssertionError(f"{topic} has no leader for all {partitions} partitions after {timeout}s")


def _consumer(bootstrap: str) -> Consumer:
    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"check-{uuid.uuid4().hex[:8]}",
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
        }
    )


# --------------------------------------------------------------------------------------------
# checks: each takes the bootstrap servers of a target
# --------------------------------------------------------------------------------------------


def check_produce_consume(bootstrap: str) -> None:
    topic = f"pc-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 3)
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 5})
    acked: list[tuple[int, int, bytes, bytes]] = []
    errors: list[Any] = []

    def on_delivery(err: Any, msg: Any) -> None:
        if err is not None:
            errors.append(err)
        else:
            acked.append((msg.partition(), msg.offset(), msg.key(), msg.value()))

    n = 300
    for i in range(n):
        p.produce(
            topic,
            key=f"k{i % 17}".encode(),
            value=f"v{i}".encode(),
            headers=[("h", f"{i}".encode())],
            on_delivery=on_delivery,
        )
    assert p.flush(30) == 0
    assert not errors, errors
    assert len(acked) == n
    c = _consumer(bootstrap)
    try:
        c.assign([TopicPartition(topic, i, 0) for i in range(3)])
        got: list[Any] = []
        deadline = time.monotonic() + 30
        while len(got) < n and time.monotonic() < deadline:
            for m in c.consume(500, timeout=0.5):
                assert m.error() is None, m.error()
                got.append(m)
    finally:
        c.close()
    assert len(got) == n
    by_key_partition: dict[bytes, set[int]] = {}
    for m in got:
        by_key_partition.setdefault(m.key(), set()).add(m.partition())
        i = int(m.value()[1:])
        assert m.headers() == [("h", f"{i}".encode())]
    assert all(len(ps) == 1 for ps in by_key_partition.values()), "a key landed in two partitions"
    assert sorted((m.partition(), m.offset(), m.key(), m.value()) for m in got) == sorted(acked)
    for part in range(3):
        offsets = [m.offset() for m in got if m.partition() == part]
        assert offsets == list(range(len(offsets)))


def check_admin(bootstrap: str) -> None:
    admin = _admin(bootstrap)
    topic = f"adm-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 2, {"retention.ms": "3600000", "cleanup.policy": "delete"})
    # creating it again fails with TOPIC_ALREADY_EXISTS
    with pytest.raises(KafkaException) as exc:
        _wait(admin.create_topics([NewTopic(topic, 2, 1)]))
    assert exc.value.args[0].code() == CKafkaError.TOPIC_ALREADY_EXISTS
    # a bad config is refused
    with pytest.raises(KafkaException) as exc:
        _wait(admin.create_topics([NewTopic(f"{topic}-bad", 1, 1, config={"retention.ms": "soon"})]))
    assert exc.value.args[0].code() == CKafkaError.INVALID_CONFIG
    # configs: the override and its source, a default
    res = ConfigResource(ConfigResource.Type.TOPIC, topic)
    configs = _wait(admin.describe_configs([res]))[res]
    assert configs["retention.ms"].value == "3600000"
    assert ConfigSource(int(configs["retention.ms"].source)) == ConfigSource.DYNAMIC_TOPIC_CONFIG
    assert ConfigSource(int(configs["segment.bytes"].source)) != ConfigSource.DYNAMIC_TOPIC_CONFIG
    assert configs["cleanup.policy"].value == "delete"
    assert "segment.bytes" in configs and int(configs["segment.bytes"].value) > 0
    # more partitions
    _wait(admin.create_partitions([NewPartitions(topic, 4)]))
    wait_for_leaders(bootstrap, topic, 4)
    with pytest.raises(KafkaException) as exc:
        _wait(admin.create_partitions([NewPartitions(topic, 3)]))
    assert exc.value.args[0].code() == CKafkaError.INVALID_PARTITIONS
    # delete
    _wait(admin.delete_topics([topic]))
    deadline = time.monotonic() + 30
    while topic in admin.list_topics(timeout=5).topics and time.monotonic() < deadline:
        time.sleep(0.1)
    assert topic not in admin.list_topics(timeout=5).topics


def check_list_offsets_by_timestamp(bootstrap: str) -> None:
    topic = f"ts-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1)
    t0 = int(time.time() * 1000) - 60_000
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0})
    for i in range(5):
        p.produce(topic, value=f"v{i}".encode(), partition=0, timestamp=t0 + 1000 * i)
        p.flush(10)  # one batch per record: timestamps index per batch
    assert len(p) == 0
    c = _consumer(bootstrap)
    try:
        assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=10) == (0, 5)
        queries = {t0 - 5: 0, t0: 0, t0 + 1: 1, t0 + 1000: 1, t0 + 2500: 3, t0 + 4000: 4}
        for ts, expected in queries.items():
            [tp] = c.offsets_for_times([TopicPartition(topic, 0, ts)], timeout=10)
            assert tp.error is None and tp.offset == expected, (ts - t0, tp.offset, expected)
        [tp] = c.offsets_for_times([TopicPartition(topic, 0, t0 + 4001)], timeout=10)
        assert tp.offset == -1  # nothing at or after: end (OFFSET_END)
    finally:
        c.close()
    # the same over the raw protocol, with the timestamp found
    with w.connect(bootstrap) as conn:
        from kafka_wire.protocol.messages import list_offsets_request as lo

        req = lo.ListOffsetsRequest(
            replica_id=-1,
            topics=[
                lo.ListOffsetsTopic(
                    name=topic, partitions=[lo.ListOffsetsPartition(partition_index=0, timestamp=t0 + 1500)]
                )
            ],
        )
        part = conn.request(2, req).topics[0].partitions[0]
        assert (part.error_code, part.offset, part.timestamp) == (0, 2, t0 + 2000)
        # MAX_TIMESTAMP (-3, v7+): the record with the largest timestamp
        req.topics[0].partitions[0].timestamp = -3
        part = conn.request(2, req).topics[0].partitions[0]
        assert (part.error_code, part.offset, part.timestamp) == (0, 4, t0 + 4000)


def check_raw_refusals(bootstrap: str) -> None:
    topic = f"raw-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1)
    with w.connect(bootstrap) as conn:
        bad = bytearray(build_batch(w.records(2)))
        bad[-1] ^= 0xFF
        assert w.produce(conn, topic, 0, bytes(bad)).error_code == ErrorCode.CORRUPT_MESSAGE
        assert w.produce(conn, topic, 0, build_batch(w.records(1)), acks=5).error_code == (
            ErrorCode.INVALID_REQUIRED_ACKS
        )
        assert w.produce(conn, topic, 9, build_batch(w.records(1))).error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        two = build_batch(w.records(1)) + build_batch(w.records(1))
        assert w.produce(conn, topic, 0, two).error_code == ErrorCode.INVALID_RECORD
        assert w.list_offset(conn, topic, 0) == 0
        ok = w.produce(conn, topic, 0, build_batch(w.records(3)))
        assert (ok.error_code, ok.base_offset) == (ErrorCode.NONE, 0)
        assert [r.value for r in w.fetch_records(conn, topic, 0)] == [b"v0", b"v1", b"v2"]


CHECKS = [check_produce_consume, check_admin, check_list_offsets_by_timestamp, check_raw_refusals]


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__.removeprefix("check_") for c in CHECKS])
def test_against_target(target: str, check: Any) -> None:
    check(target)
