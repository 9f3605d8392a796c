"""Fetch behaviour seen through real consumers: long polls answered as soon as data arrives,
fetch size limits smaller than a batch, fetching from the middle of a compressed batch, and
offsets outside the log."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from tests.integration.clients_util import (
    CLIENTS,
    CODEC_ID,
    Spec,
    check_roundtrip,
    ck_consumer,
    ck_produce,
    ck_rec,
    ck_wait_for_leader,
    consume_with,
    create_topic,
    kp_consumer,
    kp_rec,
    log_start,
    make_specs,
    now_ms,
    stored_batches,
)
from tests.peers.fixtures import ours_only

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

# --------------------------------------------------------------------------------------------
# long poll
# --------------------------------------------------------------------------------------------

LONG_WAIT_MS = 10_000  # far above any scheduling delay: a missed wake-up is seconds late
PRODUCE_DELAY = 0.3


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    """Differential: every test of this module runs against our broker, then real Apache Kafka."""
    return either_broker


def _produce_later(bootstrap: str, topic: str, delay: float, sent_at: list[float]) -> threading.Thread:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    p.list_topics(topic, timeout=10)  # metadata ready: the timed part is the produce alone

    def run() -> None:
        time.sleep(delay)
        sent_at.append(time.monotonic())
        p.produce(topic, value=b"wake up", partition=0)
        p.flush(10)

    t = threading.Thread(target=run, daemon=True)
    return t


def _wait_ck(bootstrap: str, topic: str, start_producer: Any) -> tuple[float, Any]:
    from confluent_kafka import TopicPartition

    c = ck_consumer(bootstrap, **{"fetch.wait.max.ms": LONG_WAIT_MS, "fetch.error.backoff.ms": 10})
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        assert c.consume(num_messages=1, timeout=1.0) == []  # a long poll is now parked
        start_producer()
        msgs = c.consume(num_messages=1, timeout=20)
        got_at = time.monotonic()
        assert len(msgs) == 1 and msgs[0].error() is None
        return got_at, ck_rec(msgs[0])
    finally:
        c.close()


def _wait_kp(bootstrap: str, topic: str, start_producer: Any) -> tuple[float, Any]:
    from kafka import TopicPartition

    c = kp_consumer(bootstrap, fetch_max_wait_ms=LONG_WAIT_MS)
    try:
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        c.seek(tp, 0)
        assert c.poll(timeout_ms=1000) == {}
        start_producer()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            got = c.poll(timeout_ms=100, max_records=1)
            if got:
                got_at = time.monotonic()
                (msgs,) = got.values()
                return got_at, kp_rec(msgs[0])
        raise AssertionError("no record within 20 s")
    finally:
        c.close(autocommit=False)


def _wait_aio(bootstrap: str, topic: str, start_producer: Any) -> tuple[float, Any]:
    from aiokafka import TopicPartition

    from tests.integration.clients_util import aio_consumer, aio_rec

    async def run() -> tuple[float, Any]:
        c = aio_consumer(bootstrap, fetch_max_wait_ms=LONG_WAIT_MS)
        await c.start()
        try:
            tp = TopicPartition(topic, 0)
            c.assign([tp])
            c.seek(tp, 0)
            assert await c.getmany(timeout_ms=1000) == {}
            start_producer()
            got = await c.getmany(timeout_ms=20_000, max_records=1)
            got_at = time.monotonic()
            (msgs,) = got.values()
            return got_at, aio_rec(msgs[0])
        finally:
            await c.stop()

    return asyncio.run(run())


WAITERS = {"confluent": _wait_ck, "kafka-python": _wait_kp, "aiokafka": _wait_aio}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
def test_long_poll_answers_when_data_arrives(broker, topic_name, client):
    """A consumer parked in a fetch with max wait 10 s on an empty partition gets a record produced
    300 ms later right away (the append completes the delayed fetch), not when the wait ends."""
    create_topic(broker, topic_name, 1)
    sent_at: list[float] = []
    producer = _produce_later(broker.bootstrap_servers, topic_name, PRODUCE_DELAY, sent_at)
    got_at, rec = WAITERS[client](broker.bootstrap_servers, topic_name, producer.start)
    producer.join(10)
    assert rec.value == b"wake up" and rec.offset == 0
    latency = got_at - sent_at[0]
    # typically a few ms; a fetch that sat out its max wait would take ~9.7 s more (a bound with
    # seconds to spare on a loaded machine; the purgatory's own timing is on a fake clock in
    # tests/unit/test_purgatory_reaper.py)
    assert latency < 5, f"record arrived {latency:.3f}s after it was produced"


# --------------------------------------------------------------------------------------------
# fetch sizes below one batch
# --------------------------------------------------------------------------------------------

SMALL_FETCH = {
    "kafka-python": {"fetch_max_bytes": 1024, "max_partition_fetch_bytes": 512},
    "aiokafka": {"fetch_max_bytes": 1024, "max_partition_fetch_bytes": 512},
    "confluent": {
        "fetch.max.bytes": 1024,
        "max.partition.fetch.bytes": 512,
        "message.max.bytes": 1000,
        "receive.message.max.bytes": 10_000_000,
    },
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("client", CLIENTS)
def test_fetch_limits_smaller_than_a_batch(broker, topic_name, client):
    """KIP-74: a batch bigger than fetch.max.bytes / max.partition.fetch.bytes is still returned
    whole (one batch at least), so a consumer with tiny limits reads everything."""
    create_topic(broker, topic_name, 4)
    n = 2_000
    specs = [
        Spec(i % 4, b"k%d" % i, bytes([i % 251]) * (100 + i % 300), (("h", b"v"),), now_ms() - 60_000 + i)
        for i in range(n)
    ]
    deliveries = ck_produce(broker.bootstrap_servers, topic_name, specs, **{"linger.ms": 50, "batch.size": 16_384})
    big = [h for p in range(4) for h in stored_batches(broker, topic_name, p) if h.size > 1024]
    assert big, "the test needs batches larger than the fetch limits"
    consumed = consume_with(client, broker.bootstrap_servers, topic_name, range(4), n, **SMALL_FETCH[client])
    check_roundtrip(specs, deliveries, consumed)


# --------------------------------------------------------------------------------------------
# fetching from inside a batch
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["gzip", "zstd"])
def one_batch_topic(request, broker) -> tuple[str, list[Spec]]:
    """A single compressed batch of 100 records at offsets 0..99."""
    import uuid

    from confluent_kafka import Producer

    codec = request.param
    topic = f"one-batch-{codec}-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 1)
    specs = make_specs(100, partitions=1, producer="kafka-python")
    p = Producer({"bootstrap.servers": broker.bootstrap_servers, "linger.ms": 60_000, "compression.type": codec})
    ck_wait_for_leader(p, topic, 0)
    for s in specs:
        p.produce(topic, key=s.key, value=s.value, headers=list(s.headers), timestamp=s.timestamp, partition=0)
    assert p.flush(30) == 0
    stored = [(h.base_offset, h.record_count, h.compression) for h in stored_batches(broker, topic, 0)]
    assert stored == [(0, 100, CODEC_ID[codec])], f"one batch expected; stored (base offset, records, codec): {stored}"
    return topic, specs


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("start", [37, 99, 0])
def test_fetch_from_inside_a_compressed_batch(broker, one_batch_topic, client, start):
    """The broker returns the whole batch holding the fetch offset; the client drops the records
    before it, so consumption starts exactly at the requested offset."""
    topic, specs = one_batch_topic
    consumed = consume_with(client, broker.bootstrap_servers, topic, [0], 100 - start, start=start)
    assert [r.offset for r in consumed[0]] == list(range(start, 100))
    for r in consumed[0]:
        s = specs[r.offset]
        assert (r.key, r.value, r.headers, r.timestamp) == (s.key, s.value, s.headers, s.timestamp)


# --------------------------------------------------------------------------------------------
# offsets outside the log
# --------------------------------------------------------------------------------------------


def _ck_first_offset(bootstrap: str, topic: str, start: int, reset: str) -> int | None:
    from confluent_kafka import TopicPartition

    c = ck_consumer(bootstrap, **{"auto.offset.reset": reset})
    try:
        c.assign([TopicPartition(topic, 0, start)])
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            for m in c.consume(num_messages=1, timeout=0.5):
                if m.error() is None:
                    return m.offset()
        return None
    finally:
        c.close()


def _kp_first_offset(bootstrap: str, topic: str, start: int, reset: str) -> int | None:
    from kafka import TopicPartition

    c = kp_consumer(bootstrap, auto_offset_reset=reset)
    try:
        tp = TopicPartition(topic, 0)
        c.assign([tp])
        c.seek(tp, start)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            for msgs in c.poll(timeout_ms=500, max_records=1).values():
                return msgs[0].offset
        return None
    finally:
        c.close(autocommit=False)


def _aio_first_offset(bootstrap: str, topic: str, start: int, reset: str) -> int | None:
    from aiokafka import TopicPartition

    from tests.integration.clients_util import aio_consumer

    async def run() -> int | None:
        c = aio_consumer(bootstrap, auto_offset_reset=reset)
        await c.start()
        try:
            tp = TopicPartition(topic, 0)
            c.assign([tp])
            c.seek(tp, start)
            got = await c.getmany(timeout_ms=5000, max_records=1)
            return next((msgs[0].offset for msgs in got.values()), None)
        finally:
            await c.stop()

    return asyncio.run(run())


FIRST_OFFSET = {"confluent": _ck_first_offset, "kafka-python": _kp_first_offset, "aiokafka": _aio_first_offset}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
def test_offset_below_log_start_resets_to_earliest(broker, topic_name, client):
    """Seek to 0 after DeleteRecords moved the log start to 30: OFFSET_OUT_OF_RANGE, and the
    consumer resets (earliest) to the new log start."""
    ours_only(broker)  # looks inside our broker
    create_topic(broker, topic_name, 1)
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(50, partitions=1))
    broker.call(lambda br: br.partition(topic_name, 0).delete_records_before(30))
    assert log_start(broker, topic_name, 0) == 30
    assert FIRST_OFFSET[client](broker.bootstrap_servers, topic_name, 0, "earliest") == 30


@pytest.mark.timeout(60)
@pytest.mark.parametrize("client", CLIENTS)
def test_offset_beyond_high_watermark_resets(broker, topic_name, client):
    """Seek past the end: OFFSET_OUT_OF_RANGE, reset to earliest gives offset 0."""
    create_topic(broker, topic_name, 1)
    ck_produce(broker.bootstrap_servers, topic_name, make_specs(10, partitions=1))
    assert FIRST_OFFSET[client](broker.bootstrap_servers, topic_name, 1000, "earliest") == 0
