"""Helpers for the exactly-once sink and read_committed source tests: topics, keyed input, and
reading a topic back to its end with a chosen isolation level (confluent-kafka)."""

from __future__ import annotations

import time
import uuid
from collections import Counter

from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic


def create_topics(bootstrap: str, names: list[str], partitions: int, replication_factor: int = 1) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for fut in admin.create_topics([NewTopic(n, partitions, replication_factor) for n in names]).values():
        fut.result(timeout=30)
    # Apache Kafka propagates new topics' metadata asynchronously: wait until every partition is known
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        md = admin.list_topics(timeout=10).topics
        if all(n in md and len(md[n].partitions) == partitions and md[n].error is None for n in names):
            return
        time.sleep(0.1)
    raise TimeoutError(f"topics {names} not in metadata after 30 s")


def produce_keyed(bootstrap: str, topic: str, start: int, count: int) -> list[bytes]:
    """Produce keys k-<start>..k-<start+count-1>; returns the acknowledged keys."""
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "acks": "all"})
    acked: list[bytes] = []

    def on_delivery(err: object, msg: object) -> None:
        assert err is None, err
        acked.append(msg.key())  # type: ignore[attr-defined]

    for i in range(start, start + count):
        producer.produce(topic, key=b"k-%d" % i, value=b"v-%d" % i, on_delivery=on_delivery)
        producer.poll(0)
    assert producer.flush(30) == 0
    return acked


def read_to_end(
    bootstrap: str, topic: str, *, isolation: str = "read_committed", timeout: float = 30.0
) -> list[tuple[int, int, bytes | None, bytes | None]]:
    """(partition, offset, key, value) of every record a consumer with `isolation` sees up to the end
    (the last stable offset for read_committed, the high watermark otherwise)."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"eos-reader-{uuid.uuid4().hex}",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
            "isolation.level": isolation,
        }
    )
    try:
        md = consumer.list_topics(topic, timeout=10).topics[topic]
        parts = sorted(md.partitions)
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in parts])
        out: list[tuple[int, int, bytes | None, bytes | None]] = []
        at_end: set[int] = set()
        deadline = time.monotonic() + timeout
        while len(at_end) < len(parts):
            if time.monotonic() > deadline:
                raise TimeoutError(f"reading {topic} ({isolation}): only partitions {sorted(at_end)} reached the end")
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error() is not None:
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    at_end.add(msg.partition())
                    continue
                raise RuntimeError(msg.error())
            at_end.discard(msg.partition())
            out.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
        return out
    finally:
        consumer.close()


def key_counts(records: list[tuple[int, int, bytes | None, bytes | None]]) -> Counter[bytes | None]:
    return Counter(key for _, _, key, _ in records)


def committed_marker(bootstrap: str, group: str, topic: str) -> tuple[int, str]:
    """(offset, metadata) committed by `group` for partition 0 of `topic` (-1001 when none)."""
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "isolation.level": "read_committed"})
    try:
        (tp,) = consumer.committed([TopicPartition(topic, 0)], timeout=30)
        return tp.offset, tp.metadata or ""
    finally:
        consumer.close()


__all__ = ["committed_marker", "create_topics", "key_counts", "produce_keyed", "read_to_end"]
