"""Produce/consume round trips with real clients: every codec, keys, values, headers, timestamps,
offsets; cross-client decoding; LogAppendTime; idempotence; acks 0/1/all."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pytest

from kafka_wire.records import BATCH_HEADER_SIZE
from tests.integration.clients_util import (
    CLIENTS,
    CODEC_ID,
    CODECS,
    CREATE_TIME,
    LOG_APPEND_TIME,
    check_roundtrip,
    ck_consume,
    ck_produce,
    consume_with,
    create_topic,
    delete_topic,
    hw,
    kp_consume,
    kp_produce,
    make_specs,
    now_ms,
    produce_with,
    stored_batches,
    stored_log,
    wait_until,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # kafka-python internals

# Records per codec: 30k for librdkafka (100k until session 17: its ten tests, five codecs on both brokers,
# were 68 s of the suite's CPU in session 17's run 1, mostly the brokers'; 30k is 7,500 records per partition),
# 20k for the pure-Python clients, 100k per client over the five codecs.
PER_CODEC = {"confluent": 30_000, "kafka-python": 20_000, "aiokafka": 20_000}
PARTITIONS = range(4)


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    """Differential: every test of this module runs against our broker, then real Apache Kafka."""
    return either_broker


def check_stored_codec(broker, topic: str, codec: str, counts: dict[int, int]) -> None:
    """The broker keeps the producer's batches as they are (compression.type=producer). Clients
    send a batch uncompressed when compressing does not shrink it (random payloads): under load a
    partition can get only small batches that way (session 18: kafka-python, snappy, one partition all
    uncompressed), so the codec must show in the topic, and nothing else in any partition."""
    seen: set[int] = set()
    for p, n in counts.items():
        batches = stored_batches(broker, topic, p)
        assert sum(h.record_count for h in batches) == n
        codecs = {h.compression for h in batches}
        assert codecs <= {CODEC_ID[codec], 0}, f"partition {p}: {codecs}"
        assert not any(h.is_log_append_time for h in batches)
        seen |= codecs
    assert CODEC_ID[codec] in seen, f"no {codec} batch in any partition: {seen}"


def check_create_time_reports(client, specs, deliveries) -> None:
    for i, (s, d) in enumerate(zip(specs, deliveries, strict=True)):
        # aiokafka (0.14) bug: MessageBatch.done() overwrites its loop variable with the first
        # record's timestamp, so later records of a CreateTime batch report that one.
        if client != "aiokafka":
            assert d.timestamp == s.timestamp, f"record {i}: reported timestamp {d.timestamp} != {s.timestamp}"
        assert d.timestamp_type in (None, CREATE_TIME), f"record {i}: timestamp type {d.timestamp_type}"


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("client", CLIENTS)
def test_roundtrip_same_client(broker, topic_name, client, codec):
    n = PER_CODEC[client]
    specs = make_specs(n, producer=client)
    create_topic(broker, topic_name, 4)
    try:
        deliveries = produce_with(client, broker.bootstrap_servers, topic_name, specs, codec)
        check_create_time_reports(client, specs, deliveries)
        consumed = consume_with(client, broker.bootstrap_servers, topic_name, PARTITIONS, n)
        check_roundtrip(specs, deliveries, consumed)
        check_stored_codec(broker, topic_name, codec, {p: n // 4 for p in PARTITIONS})
    finally:
        delete_topic(broker, topic_name)


CROSS = [(p, c) for p, c in itertools.permutations(CLIENTS, 2)]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize(("producer", "consumer"), CROSS, ids=[f"{p}-to-{c}" for p, c in CROSS])
def test_roundtrip_cross_client(broker, topic_name, producer, consumer, codec):
    """kafka-python/aiokafka write xerial-framed snappy, librdkafka raw snappy: each client must
    read what the others wrote, through the broker, for every codec."""
    n = 2_000
    specs = make_specs(n, producer=producer)
    create_topic(broker, topic_name, 4)
    deliveries = produce_with(producer, broker.bootstrap_servers, topic_name, specs, codec)
    consumed = consume_with(consumer, broker.bootstrap_servers, topic_name, PARTITIONS, n)
    check_roundtrip(specs, deliveries, consumed)
    check_stored_codec(broker, topic_name, codec, {p: n // 4 for p in PARTITIONS})


def test_snappy_framing_differs_between_clients(broker, topic_name):
    """The cross-client snappy tests only mean something if the framings really differ: the
    batch kafka-python wrote starts with the xerial header, librdkafka's with raw snappy."""
    create_topic(broker, topic_name, 2)
    specs = make_specs(200, partitions=1, producer="kafka-python")
    kp_produce(broker.bootstrap_servers, topic_name, specs, compression_type="snappy")
    ck_produce(
        broker.bootstrap_servers,
        topic_name,
        [dataclasses.replace(s, partition=1) for s in specs],
        **{"compression.type": "snappy"},
    )
    xerial = b"\x82SNAPPY\x00"
    kp_log, ck_log = stored_log(broker, topic_name, 0), stored_log(broker, topic_name, 1)
    assert kp_log[BATCH_HEADER_SIZE : BATCH_HEADER_SIZE + 8] == xerial
    assert ck_log[BATCH_HEADER_SIZE : BATCH_HEADER_SIZE + 8] != xerial
    # and both decode to the same records for either consumer
    for consume in (ck_consume, kp_consume):
        got = consume(broker.bootstrap_servers, topic_name, [0, 1], 400)
        assert [(r.key, r.value, r.headers) for r in got[0]] == [(r.key, r.value, r.headers) for r in got[1]]


# --------------------------------------------------------------------------------------------
# LogAppendTime
# --------------------------------------------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize("codec", ["none", "lz4"])
@pytest.mark.parametrize("client", CLIENTS)
def test_log_append_time(broker, topic_name, client, codec):
    """message.timestamp.type=LogAppendTime: the broker's append time replaces the producer's
    CreateTime for every record (also inside compressed batches), and the produce response
    carries it to the delivery report / RecordMetadata."""
    create_topic(broker, topic_name, 4, {"message.timestamp.type": "LogAppendTime"})
    n = 2_000
    specs = make_specs(n, base_ts=now_ms() - 3_600_000, producer=client)  # an hour-old CreateTime
    before = now_ms()
    deliveries = produce_with(client, broker.bootstrap_servers, topic_name, specs, codec)
    after = now_ms()
    consumed = consume_with(client, broker.bootstrap_servers, topic_name, PARTITIONS, n)
    appended = {(r.partition, r.offset): r.timestamp for recs in consumed.values() for r in recs}
    assert all(before <= ts <= after for ts in appended.values()), (before, min(appended.values()), after)
    check_roundtrip(specs, deliveries, consumed, timestamp_type=LOG_APPEND_TIME, timestamps=appended)
    for i, d in enumerate(deliveries):
        assert d.timestamp == appended[(d.partition, d.offset)], f"record {i}: reported {d.timestamp}"
        assert d.timestamp_type in (None, LOG_APPEND_TIME), f"record {i}: type {d.timestamp_type}"
    for p in PARTITIONS:
        batches = stored_batches(broker, topic_name, p)
        assert all(h.is_log_append_time for h in batches)
        for h in batches:  # one append time per batch, stored as the batch's max timestamp
            assert {appended[(p, o)] for o in range(h.base_offset, h.next_offset)} == {h.max_timestamp}


# --------------------------------------------------------------------------------------------
# idempotence and acks
# --------------------------------------------------------------------------------------------

IDEMPOTENT = {
    "confluent": {"enable.idempotence": True, "acks": "all", "max.in.flight.requests.per.connection": 5},
    "kafka-python": {},  # idempotent by default (acks=all, 5 in flight)
    "aiokafka": {"enable_idempotence": True, "acks": "all"},
}


@pytest.mark.timeout(120)
@pytest.mark.parametrize("client", CLIENTS)
def test_idempotent_producer_exactly_once_in_order(broker, topic_name, client):
    create_topic(broker, topic_name, 4)
    n = 20_000
    specs = make_specs(n, producer=client)
    deliveries = produce_with(client, broker.bootstrap_servers, topic_name, specs, "lz4", **IDEMPOTENT[client])
    consumed = consume_with(client, broker.bootstrap_servers, topic_name, PARTITIONS, n)
    check_roundtrip(specs, deliveries, consumed)
    producer_ids = set()
    for p in PARTITIONS:
        batches = stored_batches(broker, topic_name, p)
        assert batches
        sequence = 0
        for h in batches:  # sequences are contiguous per partition from 0: no gap, no duplicate
            assert h.producer_id >= 0 and h.producer_epoch >= 0
            assert h.base_sequence == sequence, f"partition {p} batch at {h.base_offset}"
            sequence += h.record_count
            producer_ids.add((h.producer_id, h.producer_epoch))
    assert len(producer_ids) == 1, producer_ids


ACKS = {
    "confluent": [("0", {"acks": 0}), ("1", {"acks": 1}), ("all", {"acks": "all"})],
    "kafka-python": [
        ("0", {"acks": 0, "enable_idempotence": False}),
        ("1", {"acks": 1, "enable_idempotence": False}),
        ("all", {"acks": "all", "enable_idempotence": False}),
    ],
}
ACKS_CASES = [(client, name, conf) for client, cases in ACKS.items() for name, conf in cases]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("client", "acks", "conf"), ACKS_CASES, ids=[f"{c}-acks{a}" for c, a, _ in ACKS_CASES])
def test_acks(broker, topic_name, client, acks, conf):
    """Every acks level stores every record; with acks=0 nothing comes back, so flush then read."""
    create_topic(broker, topic_name, 4)
    n = 5_000
    specs = make_specs(n, producer=client)
    deliveries = produce_with(client, broker.bootstrap_servers, topic_name, specs, "none", **conf)
    if acks == "0":
        # no produce response: the producer cannot know the offsets (librdkafka reports None,
        # kafka-python -1 + the record's position in its batch)
        deliveries = None
        wait_until(lambda: sum(hw(broker, topic_name, p) for p in PARTITIONS) == n, what="acks=0 records to land")
    consumed = consume_with(client, broker.bootstrap_servers, topic_name, PARTITIONS, n)
    check_roundtrip(specs, deliveries, consumed)


# --------------------------------------------------------------------------------------------
# produce errors
# --------------------------------------------------------------------------------------------


def _ck_send_one(bootstrap: str, topic: str, **kwargs) -> tuple[int | None, int | None]:
    """One record in its own batch; returns (error code or None, offset)."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "message.timeout.ms": 10_000, "retries": 0})
    out: list = []
    p.produce(topic, on_delivery=lambda err, m: out.append((err and err.code(), m.offset())), **kwargs)
    assert p.flush(15) == 0
    return out[0]


@pytest.mark.timeout(60)
def test_produce_errors_are_reported(broker, topic_name):
    from kafka_wire.errors import ErrorCode

    small, compacted = f"{topic_name}-small", f"{topic_name}-compact"
    create_topic(broker, small, 1, {"max.message.bytes": 1000})
    create_topic(broker, compacted, 1, {"cleanup.policy": "compact"})
    bs = broker.bootstrap_servers
    assert _ck_send_one(bs, small, value=b"x" * 5000)[0] == ErrorCode.MESSAGE_TOO_LARGE
    assert _ck_send_one(bs, small, value=b"x" * 100) == (None, 0)
    assert _ck_send_one(bs, compacted, value=b"no key")[0] == ErrorCode.INVALID_RECORD
    assert _ck_send_one(bs, compacted, key=b"k", value=b"v") == (None, 0)
    assert [hw(broker, small, 0), hw(broker, compacted, 0)] == [1, 1]  # the refused batches left no trace


@pytest.mark.timeout(60)
def test_create_time_out_of_bounds_is_refused(broker, topic_name):
    from kafka_wire.errors import ErrorCode

    create_topic(broker, topic_name, 1, {"message.timestamp.before.max.ms": 86_400_000})
    bs, now = broker.bootstrap_servers, now_ms()
    assert _ck_send_one(bs, topic_name, value=b"ok", timestamp=now - 3_600_000) == (None, 0)
    assert _ck_send_one(bs, topic_name, value=b"future", timestamp=now + 7_200_000)[0] == ErrorCode.INVALID_TIMESTAMP
    assert _ck_send_one(bs, topic_name, value=b"old", timestamp=now - 2 * 86_400_000)[0] == ErrorCode.INVALID_TIMESTAMP
    assert hw(broker, topic_name, 0) == 1
