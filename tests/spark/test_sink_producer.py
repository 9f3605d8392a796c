"""The sink's executor-side producing (`produce_batches`) without Spark: Arrow batches in, Kafka out.

Covers what is hard to provoke through a Spark job: a full local queue (BufferError retries must
neither lose nor duplicate rows), max.block.ms, delivery timeouts, bad rows, producer reuse.
"""

from __future__ import annotations

import time
import uuid

import pyarrow as pa
import pytest

from broker_embedded import EmbeddedBroker
from connector.sink import writer as sink
from connector.sink.writer import KafkaSinkWriteError, SinkColumns, parse_sink_options, produce_batches

pytest.importorskip("confluent_kafka")


def batches(n: int, per_batch: int = 1000, size: int = 50) -> list[pa.RecordBatch]:
    out = []
    for start in range(0, n, per_batch):
        ids = range(start, min(n, start + per_batch))
        out.append(
            pa.RecordBatch.from_arrays(
                [pa.array([str(i) for i in ids]), pa.array([str(i).encode().ljust(size, b".") for i in ids])],
                names=["key", "value"],
            )
        )
    return out


def count_records(bootstrap: str, topic: str) -> dict[bytes, int]:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": uuid.uuid4().hex, "enable.auto.commit": False})
    try:
        parts = c.list_topics(topic, timeout=10).topics[topic].partitions
        ends = {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in parts}
        c.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in parts])
        seen: dict[bytes, int] = {}
        total, deadline = sum(ends.values()), time.monotonic() + 30
        got = 0
        while got < total and time.monotonic() < deadline:
            for m in c.consume(10_000, 0.5):
                if m.error() is None:
                    seen[m.key()] = seen.get(m.key(), 0) + 1
                    got += 1
        return seen
    finally:
        c.close()


def test_full_local_queue_retries_without_loss_or_duplicates(broker: EmbeddedBroker) -> None:
    topic = f"queue-full-{uuid.uuid4().hex[:8]}"
    cfg = parse_sink_options(
        {
            "kafka.bootstrap.servers": broker.bootstrap_servers,
            "topic": topic,
            "kafka.queue.buffering.max.messages": "200",  # forces BufferError many times
            "kafka.linger.ms": "1",
        }
    )
    assert produce_batches(cfg, SinkColumns(key="key"), batches(20_000)) == 20_000
    seen = count_records(broker.bootstrap_servers, topic)
    assert len(seen) == 20_000 and set(seen.values()) == {1}


def test_producer_is_reused_across_tasks(broker: EmbeddedBroker) -> None:
    topic = f"reuse-{uuid.uuid4().hex[:8]}"
    cfg = parse_sink_options({"kafka.bootstrap.servers": broker.bootstrap_servers, "topic": topic})
    produce_batches(cfg, SinkColumns(key="key"), batches(10))
    handle = sink._PRODUCERS[cfg.producer_config]
    produce_batches(cfg, SinkColumns(key="key"), batches(10))
    assert sink._PRODUCERS[cfg.producer_config] is handle
    assert sum(count_records(broker.bootstrap_servers, topic).values()) == 20


def test_max_block_ms_when_kafka_is_unreachable() -> None:
    cfg = parse_sink_options(
        {
            "kafka.bootstrap.servers": "127.0.0.1:1",  # nothing listens
            "topic": "t",
            "kafka.queue.buffering.max.messages": "10",
            "kafka.max.block.ms": "300",
            "kafka.message.timeout.ms": "60000",
        }
    )
    started = time.monotonic()
    with pytest.raises(KafkaSinkWriteError, match="queue stayed full for more than max.block.ms=300"):
        produce_batches(cfg, SinkColumns(), batches(100))
    assert time.monotonic() - started < 10
    assert cfg.producer_config not in sink._PRODUCERS  # a failed producer is not reused


def test_delivery_timeout_is_a_task_failure() -> None:
    cfg = parse_sink_options(
        {"kafka.bootstrap.servers": "127.0.0.1:1", "topic": "t", "kafka.delivery.timeout.ms": "500"}
    )
    with pytest.raises(KafkaSinkWriteError, match="(?s)5 record.*not acknowledged.*_MSG_TIMED_OUT"):
        produce_batches(cfg, SinkColumns(), batches(5))


def test_null_header_key_fails_clearly(broker: EmbeddedBroker) -> None:
    cfg = parse_sink_options({"kafka.bootstrap.servers": broker.bootstrap_servers, "topic": "hdr"})
    headers_type = pa.list_(pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())]))
    batch = pa.RecordBatch.from_arrays(
        [pa.array([b"v"]), pa.array([[{"key": None, "value": b"x"}]], headers_type)], names=["value", "headers"]
    )
    with pytest.raises(KafkaSinkWriteError, match="null header key"):
        produce_batches(cfg, SinkColumns(headers="headers"), [batch])


def test_empty_input_writes_nothing(broker: EmbeddedBroker) -> None:
    cfg = parse_sink_options({"kafka.bootstrap.servers": broker.bootstrap_servers, "topic": "empty"})
    assert produce_batches(cfg, SinkColumns(key="key"), []) == 0
    assert produce_batches(cfg, SinkColumns(key="key"), [batches(1)[0].slice(0, 0)]) == 0
