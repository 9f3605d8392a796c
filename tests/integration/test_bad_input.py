"""Hostile and malformed input: each bad request is refused the way Kafka refuses it (a closed
connection for undecodable/unsupported requests, a per-partition error code for bad batches), and
never disturbs anyone else: after every case a client that was connected all along (a raw
BrokerConnection and a confluent-kafka producer) still works.
"""

from __future__ import annotations

import os
import struct
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from confluent_kafka import KafkaError as CKafkaError
from confluent_kafka import Producer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker_embedded import EmbeddedBroker
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import encode_request
from kafka_wire.protocol.messages import api_versions_request, api_versions_response, produce_request
from kafka_wire.records import build_batch
from kafka_wire.varint import decode_varint
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(120)

MAX_REQUEST = 1 << 20  # socket.request.max.bytes of this module's broker
MAX_MESSAGE = 10_000  # message.max.bytes of this module's broker


@dataclass
class Bystanders:
    """Clients connected before the bad input arrives; they must keep working after it."""

    bootstrap: str
    topic: str
    conn: BrokerConnection
    producer: Producer
    delivered: list[Any] = field(default_factory=list)

    def check(self) -> None:
        md = w.metadata(self.conn, [self.topic])
        assert md.topics[0].error_code == ErrorCode.NONE
        assert [p.partition_index for p in md.topics[0].partitions] == [0]
        before = w.list_offset(self.conn, self.topic, 0)
        results: list[Any] = []
        self.producer.produce(
            self.topic, value=b"still-alive", partition=0, on_delivery=lambda err, msg: results.append((err, msg))
        )
        left = self.producer.flush(15)
        assert left == 0, "the bystander producer could not deliver"
        assert len(results) == 1
        err, msg = results[0]
        assert err is None, err
        assert msg.offset() == before
        assert w.list_offset(self.conn, self.topic, 0) == before + 1
        # and a brand-new connection is welcome too
        with w.connect(self.bootstrap) as fresh:
            assert w.list_offset(fresh, self.topic, 0) == before + 1


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(
        **{"socket.request.max.bytes": MAX_REQUEST, "message.max.bytes": MAX_MESSAGE, "num.partitions": 1}
    ) as b:
        yield b


@pytest.fixture(scope="module")
def bystanders(broker: EmbeddedBroker) -> Iterator[Bystanders]:
    topic = f"bystander-{uuid.uuid4().hex[:8]}"
    conn = w.connect(broker.bootstrap_servers)
    w.create_topic(conn, topic, 1)
    producer = Producer({"bootstrap.servers": broker.bootstrap_servers, "acks": "all", "linger.ms": 0})
    b = Bystanders(broker.bootstrap_servers, topic, conn, producer)
    b.check()  # connected and warmed up before any bad input
    try:
        yield b
    finally:
        producer.flush(5)
        conn.close()


@pytest.fixture
def topic(broker: EmbeddedBroker, bystanders: Bystanders) -> str:
    name = f"bad-{uuid.uuid4().hex[:10]}"
    w.create_topic(bystanders.conn, name, 1)
    return name


@pytest.fixture
def conn(broker: EmbeddedBroker) -> Iterator[BrokerConnection]:
    c = w.connect(broker.bootstrap_servers)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(autouse=True)
def _others_keep_working(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    if "bystanders" in request.fixturenames or "topic" in request.fixturenames:
        request.getfixturevalue("bystanders").check()


def _batch(n: int = 3, **kw: Any) -> bytearray:
    return bytearray(build_batch(w.records(n), **kw))


# --------------------------------------------------------------------------------------------
# requests that close the connection
# --------------------------------------------------------------------------------------------


def test_malformed_frame_closes_connection(broker: EmbeddedBroker, bystanders: Bystanders) -> None:
    # a valid size prefix around bytes that are not a request header at all
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(b"\x01\x02\x03"))
        assert w.wait_closed(s) == b""
    # a valid Metadata v12 header followed by a body that cannot be decoded
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(w.request_header_v2(3, 12) + b"\xff\xff\xff\x7f" + os.urandom(64)))
        assert w.wait_closed(s) == b""
    # a body that runs past its frame (an array claiming 1000 topics, none present)
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(w.request_header_v1(3, 4) + struct.pack(">i", 1000)))
        assert w.wait_closed(s) == b""


def test_oversized_frame_closes_connection_without_reading_it(broker: EmbeddedBroker, bystanders: Bystanders) -> None:
    with w.raw_socket(broker.bootstrap_servers) as s:
        # announce 2 MiB but send only a few bytes: the broker must refuse on the size alone
        s.sendall(struct.pack(">i", 2 * MAX_REQUEST) + w.request_header_v1(0, 9) + b"\x00" * 100)
        t0 = time.monotonic()
        assert w.wait_closed(s, timeout=5) == b""
        assert time.monotonic() - t0 < 5
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(struct.pack(">i", -5))  # a negative size is no better
        assert w.wait_closed(s) == b""


def test_frame_just_under_the_request_limit_is_read(broker: EmbeddedBroker, conn: BrokerConnection, topic: str) -> None:
    # ~900 KB frame < socket.request.max.bytes: decoded and answered (the batch itself is too big)
    big = build_batch([(None, None, os.urandom(900_000), [])])
    r = w.produce(conn, topic, 0, big)
    assert r.error_code == ErrorCode.MESSAGE_TOO_LARGE
    assert w.list_offset(conn, topic, 0) == 0


def test_unknown_api_key_closes_connection(broker: EmbeddedBroker, bystanders: Bystanders) -> None:
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(w.request_header_v1(999, 0) + b"\x00" * 8))
        assert w.wait_closed(s) == b""
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(w.request_header_v1(-1, 0)))
        assert w.wait_closed(s) == b""


@pytest.mark.parametrize(("api_key", "version"), [(0, 2), (0, 99), (1, 99), (1, 3), (3, 77), (2, 0)])
def test_unsupported_version_closes_connection(
    broker: EmbeddedBroker, bystanders: Bystanders, api_key: int, version: int
) -> None:
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(w.frame(w.request_header_v1(api_key, version) + b"\x00" * 32))
        assert w.wait_closed(s) == b""


def _decode_api_versions_v0(frame: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """(correlation id, error code, [(key, min, max)]) read by hand with the v0 layouts."""
    cid, error_code, n = struct.unpack_from(">ihi", frame, 0)
    pos = 10
    keys = []
    for _ in range(n):
        keys.append(struct.unpack_from(">hhh", frame, pos))
        pos += 6
    assert pos == len(frame), f"{len(frame) - pos} trailing bytes after a v0 ApiVersions body"
    return cid, error_code, keys


def test_api_versions_unsupported_version_answers_v0(broker: EmbeddedBroker, bystanders: Bystanders) -> None:
    with w.raw_socket(broker.bootstrap_servers) as s:
        # v9: header v2 (ApiVersions is flexible from v3) and a compact-string body, as a future client sends
        body = b"\x05java\x06" + b"9.9.9" + b"\x00"
        s.sendall(w.frame(w.request_header_v2(18, 9, correlation_id=4242) + body))
        cid, error_code, keys = _decode_api_versions_v0(w.recv_frame(s))
        assert cid == 4242
        assert error_code == ErrorCode.UNSUPPORTED_VERSION
        ranges = {k: (lo, hi) for k, lo, hi in keys}
        assert 18 in ranges
        lo, hi = ranges[18]
        assert lo == 0 and 3 <= hi < 9
        # the client retries with a version from that range, on the same connection
        send_v = min(hi, 3)
        s.sendall(
            encode_request(
                18,
                send_v,
                4243,
                "t",
                api_versions_request.ApiVersionsRequest(client_software_name="java", client_software_version="9.9.9"),
            )
        )
        resp = w.recv_frame(s)
        assert struct.unpack_from(">i", resp)[0] == 4243
        decoded, _ = api_versions_response.DECODERS[send_v](resp, 4)
        assert decoded.error_code == ErrorCode.NONE
        assert any(k.api_key == 0 for k in decoded.api_keys)


@pytest.mark.parametrize(("name", "version"), [("bad name!", "1.0"), ("ok", "bad version?"), ("", "1.0"), ("-x", "1")])
def test_api_versions_v3_invalid_client_software(
    broker: EmbeddedBroker, bystanders: Bystanders, name: str, version: str
) -> None:
    with w.raw_socket(broker.bootstrap_servers) as s:
        body = api_versions_request.ApiVersionsRequest(client_software_name=name, client_software_version=version)
        s.sendall(encode_request(18, 3, 77, "t", body))
        resp = w.recv_frame(s)
        assert struct.unpack_from(">i", resp)[0] == 77
        decoded, _ = api_versions_response.DECODERS[3](resp, 4)
        assert decoded.error_code == ErrorCode.INVALID_REQUEST


# --------------------------------------------------------------------------------------------
# bad record batches: per-partition errors, nothing appended
# --------------------------------------------------------------------------------------------


def _assert_refused(conn: BrokerConnection, topic: str, records: bytes, *codes: ErrorCode) -> Any:
    before = w.list_offset(conn, topic, 0)
    r = w.produce(conn, topic, 0, bytes(records))
    assert r.error_code in codes, f"{ErrorCode(r.error_code).name}, expected one of {[c.name for c in codes]}"
    assert r.base_offset == -1
    assert w.list_offset(conn, topic, 0) == before, "a refused batch was appended"
    # the same connection keeps working: a good batch lands at the unchanged end
    ok = w.produce(conn, topic, 0, build_batch(w.records(1)))
    assert ok.error_code == ErrorCode.NONE and ok.base_offset == before
    return r


def test_bad_crc_is_corrupt_message(conn: BrokerConnection, topic: str) -> None:
    batch = _batch()
    batch[-1] ^= 0xFF  # a payload byte: the CRC no longer matches
    _assert_refused(conn, topic, batch, ErrorCode.CORRUPT_MESSAGE)
    batch = _batch()
    batch[17] ^= 0x01  # the CRC field itself
    _assert_refused(conn, topic, batch, ErrorCode.CORRUPT_MESSAGE)


@pytest.mark.parametrize("magic", [0, 1, 3])
def test_wrong_magic_is_refused(conn: BrokerConnection, topic: str, magic: int) -> None:
    batch = _batch()
    batch[16] = magic
    # Apache Kafka answers INVALID_RECORD ("only magic v2 allowed" in ProduceRequest v3+);
    # CORRUPT_MESSAGE is also a faithful refusal of what is no v2 batch.
    _assert_refused(conn, topic, batch, ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_RECORD)


def test_batch_larger_than_message_max_bytes(conn: BrokerConnection, topic: str) -> None:
    big = build_batch([(None, b"k", os.urandom(20_000), [])])
    assert len(big) > 2 * MAX_MESSAGE
    r = _assert_refused(conn, topic, big, ErrorCode.MESSAGE_TOO_LARGE)
    assert r.error_message is None or "bytes" in r.error_message
    # just under the limit is fine
    fits = build_batch([(None, b"k", os.urandom(MAX_MESSAGE - 200), [])])
    assert len(fits) <= MAX_MESSAGE
    r = w.produce(conn, topic, 0, fits)
    assert r.error_code == ErrorCode.NONE


def test_confluent_producer_large_record_fails_delivery(broker: EmbeddedBroker, topic: str) -> None:
    p = Producer(
        {
            "bootstrap.servers": broker.bootstrap_servers,
            "message.max.bytes": 1_000_000,  # let the client send it: the broker must refuse
            "compression.type": "none",
            "linger.ms": 0,
            "acks": "all",
            "retries": 0,
        }
    )
    results: list[Any] = []
    p.produce(topic, value=os.urandom(20_000), partition=0, on_delivery=lambda e, m: results.append(e))
    assert p.flush(20) == 0  # alone in its batch
    p.produce(topic, value=b"small", partition=0, on_delivery=lambda e, m: results.append(e))
    assert p.flush(20) == 0
    assert len(results) == 2
    big_err, small_err = results
    assert big_err is not None
    assert big_err.code() == CKafkaError.MSG_SIZE_TOO_LARGE, big_err
    assert small_err is None
    with w.connect(broker.bootstrap_servers) as c:
        assert w.list_offset(c, topic, 0) == 1
        [rec] = w.fetch_records(c, topic, 0)
        assert rec.value == b"small"


def test_truncated_batch(conn: BrokerConnection, topic: str) -> None:
    batch = _batch(5)
    cut = bytes(batch[: len(batch) - 10])  # batch_length now claims 10 bytes more than present
    _assert_refused(conn, topic, cut, ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_RECORD)
    # a header cut short
    _assert_refused(conn, topic, bytes(batch[:40]), ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_RECORD)
    # a batch_length too small to hold the header
    bad = bytearray(batch)
    struct.pack_into(">i", bad, 8, 10)
    _assert_refused(conn, topic, bytes(bad), ErrorCode.CORRUPT_MESSAGE, ErrorCode.INVALID_RECORD)


def test_two_batches_in_one_partition(conn: BrokerConnection, topic: str) -> None:
    two = bytes(_batch(2)) + bytes(_batch(3))
    _assert_refused(conn, topic, two, ErrorCode.INVALID_RECORD)


def test_empty_records_is_invalid(conn: BrokerConnection, topic: str) -> None:
    for records in (b"", None):
        r = w.produce(conn, topic, 0, records)
        assert r.error_code in (ErrorCode.INVALID_RECORD, ErrorCode.CORRUPT_MESSAGE), ErrorCode(r.error_code)
    assert w.list_offset(conn, topic, 0) == 0


@pytest.mark.parametrize("codec", [5, 6, 7])
def test_unknown_compression_codec(conn: BrokerConnection, topic: str, codec: int) -> None:
    batch = _batch()
    attrs = struct.unpack_from(">h", batch, 21)[0]
    struct.pack_into(">h", batch, 21, (attrs & ~0x07) | codec)
    _fix_crc(batch)  # only the codec is wrong
    _assert_refused(conn, topic, batch, ErrorCode.UNSUPPORTED_COMPRESSION_TYPE, ErrorCode.CORRUPT_MESSAGE)


def _fix_crc(batch: bytearray) -> None:
    import crc32c

    struct.pack_into(">I", batch, 17, crc32c.crc32c(bytes(batch[21:])))


def test_control_batch_from_a_client_is_invalid(conn: BrokerConnection, topic: str) -> None:
    _assert_refused(conn, topic, build_batch(w.records(1), is_control=True), ErrorCode.INVALID_RECORD)


@pytest.mark.parametrize("delta", [0, 1, 9, -1])
def test_offset_range_inconsistent_with_record_count(conn: BrokerConnection, topic: str, delta: int) -> None:
    """3 records whose lastOffsetDelta is not 2 would leave phantom (or overlapping) offsets."""
    batch = _batch(3)
    struct.pack_into(">i", batch, 23, delta)
    _fix_crc(batch)
    _assert_refused(conn, topic, batch, ErrorCode.INVALID_RECORD, ErrorCode.CORRUPT_MESSAGE)


def _count_lie(batch: bytearray) -> None:
    struct.pack_into(">i", batch, 57, 5)  # 5 records claimed, 3 present
    struct.pack_into(">i", batch, 23, 4)  # (offset range consistent with the claim)


def _garbage_records(batch: bytearray) -> None:
    batch[61:] = b"\xff" * (len(batch) - 61)


def _repeated_offset_delta(batch: bytearray) -> None:
    # the second record's offset delta (zig-zag varint, 1 byte) says 0 again: offsets would repeat
    length, first = decode_varint(batch, 61)
    second = first + length
    _, at = decode_varint(batch, second)
    # attributes, timestamp delta 0 (one byte), then the offset delta: 1, zig-zag 2
    assert (batch[at + 1], batch[at + 2]) == (0, 2)
    batch[at + 2] = 0


def _one_byte_too_many(batch: bytearray) -> None:
    batch += b"\x00"
    struct.pack_into(">i", batch, 8, len(batch) - 12)  # batchLength covers it


@pytest.mark.parametrize(
    ("codec", "mangle"),
    [
        (0, _count_lie),
        (0, _garbage_records),
        (1, _garbage_records),
        (4, _garbage_records),
        (0, _repeated_offset_delta),
        (0, _one_byte_too_many),
    ],
    ids=["count-lie", "garbage", "gzip-garbage", "zstd-garbage", "offset-delta", "extra-byte"],
)
def test_records_not_matching_their_header(conn: BrokerConnection, topic: str, codec: int, mangle: Any) -> None:
    batch = bytearray(build_batch(w.records(3), compression=codec))
    mangle(batch)
    _fix_crc(batch)  # a consistent CRC: only the content is wrong
    _assert_refused(conn, topic, batch, ErrorCode.INVALID_RECORD, ErrorCode.CORRUPT_MESSAGE)


@pytest.mark.parametrize("codec", [1, 2, 3, 4])
def test_a_batch_that_inflates_past_the_bound_is_refused(
    conn: BrokerConnection, topic: str, codec: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few kilobytes of compressed batch may claim gigabytes: the broker inflates a produced batch
    into at most MAX_DECOMPRESSED_BATCH_BYTES (256 MiB; 64 KiB here) and refuses one that claims more."""
    from kafka_wire import records as records_module

    monkeypatch.setattr(records_module, "MAX_DECOMPRESSED_BATCH_BYTES", 64 << 10)
    now = int(time.time() * 1000)
    bomb = build_batch([(now, b"k", bytes(150 << 10), [])], compression=codec)
    assert len(bomb) < 10_000  # under the topic's max.message.bytes: only the inflated size is wrong
    r = _assert_refused(conn, topic, bomb, ErrorCode.CORRUPT_MESSAGE)
    assert r.error_message is None or "at most" in r.error_message
    # under the bound the same kind of batch is stored
    ok = w.produce(conn, topic, 0, build_batch([(now, b"k", bytes(32 << 10), [])], compression=codec))
    assert ok.error_code == ErrorCode.NONE


def _acks0_request(topic: str, partition: int, records: bytes) -> bytes:
    req = produce_request.ProduceRequest(
        acks=0,
        timeout_ms=1000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic, partition_data=[produce_request.PartitionProduceData(index=partition, records=records)]
            )
        ],
    )
    return encode_request(0, 9, 5, "acks0", req)


def test_acks0_failure_closes_the_connection(broker: EmbeddedBroker, conn: BrokerConnection, topic: str) -> None:
    """acks=0 has no response to carry an error: Kafka closes the connection instead."""
    bad = _batch()
    bad[-1] ^= 0xFF
    for partition, records in ((0, bytes(bad)), (5, build_batch(w.records(1)))):
        with w.raw_socket(broker.bootstrap_servers) as s:
            s.sendall(_acks0_request(topic, partition, records))
            assert w.wait_closed(s, timeout=5) == b""
    assert w.list_offset(conn, topic, 0) == 0
    # a successful acks=0 produce keeps the connection, and answers nothing
    with w.raw_socket(broker.bootstrap_servers) as s:
        s.sendall(_acks0_request(topic, 0, build_batch(w.records(2))))
        s.sendall(encode_request(18, 0, 31, "t", api_versions_request.ApiVersionsRequest()))
        assert struct.unpack_from(">i", w.recv_frame(s))[0] == 31  # the next answer is the ApiVersions one
    assert w.list_offset(conn, topic, 0) == 2


def test_invalid_required_acks(conn: BrokerConnection, topic: str) -> None:
    before = w.list_offset(conn, topic, 0)
    for acks in (5, 2, -2):
        r = w.produce(conn, topic, 0, build_batch(w.records(1)), acks=acks)
        assert r.error_code == ErrorCode.INVALID_REQUIRED_ACKS
    assert w.list_offset(conn, topic, 0) == before


def test_nonexistent_partition_and_topic(conn: BrokerConnection, topic: str) -> None:
    r = w.produce(conn, topic, 7, build_batch(w.records(1)))
    assert r.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    r = w.produce(conn, topic, -1, build_batch(w.records(1)))
    assert r.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    missing = f"missing-{uuid.uuid4().hex[:8]}"
    r = w.produce(conn, missing, 0, build_batch(w.records(1)))
    assert r.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    # Produce never auto-creates the topic
    md = w.metadata(conn, [missing])
    assert md.topics[0].error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION


def test_mixed_good_and_bad_partitions_in_one_request(conn: BrokerConnection, topic: str) -> None:
    """A bad partition's error does not spoil the good partitions of the same request."""
    bad = _batch()
    bad[-1] ^= 0xFF
    req = produce_request.ProduceRequest(
        acks=-1,
        timeout_ms=5000,
        topic_data=[
            produce_request.TopicProduceData(
                name=topic,
                partition_data=[
                    produce_request.PartitionProduceData(index=0, records=bytes(bad)),
                    produce_request.PartitionProduceData(index=3, records=build_batch(w.records(1))),
                ],
            ),
            produce_request.TopicProduceData(
                name=topic,
                partition_data=[produce_request.PartitionProduceData(index=0, records=build_batch(w.records(2)))],
            ),
        ],
    )
    resp = conn.request(0, req, version=9)
    codes = [[p.error_code for p in t.partition_responses] for t in resp.responses]
    assert codes == [[ErrorCode.CORRUPT_MESSAGE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION], [ErrorCode.NONE]]
    assert w.list_offset(conn, topic, 0) == 2


# --------------------------------------------------------------------------------------------
# fuzz
# --------------------------------------------------------------------------------------------

_FUZZ_DONE: list[int] = []
_PROBE_CID = 0x7A7A7A


def _fuzz_one(
    bootstrap: str, api_key: int, version: int, flexible_header: bool, body: bytes, raw: bool = False
) -> None:
    if raw:  # `body` is a whole request (header included)
        header = b""
    else:
        header = (w.request_header_v2 if flexible_header else w.request_header_v1)(api_key, version, correlation_id=99)
    probe = encode_request(18, 0, _PROBE_CID, "probe", api_versions_request.ApiVersionsRequest())
    with w.raw_socket(bootstrap, timeout=2) as s:
        try:
            # the fuzz frame, then a valid ApiVersions: its answer proves the frame was dealt with
            s.sendall(w.frame(header + body) + probe)
            deadline = time.monotonic() + 1.5
            while time.monotonic() < deadline:
                try:
                    f = w.recv_frame(s, timeout=max(0.05, deadline - time.monotonic()))
                except (ConnectionError, TimeoutError):
                    return  # closed (refused), or parked (a long poll): both fine
                if struct.unpack_from(">i", f)[0] == _PROBE_CID:
                    return
        except (BrokenPipeError, ConnectionResetError):
            return
        finally:
            _FUZZ_DONE.append(1)


@settings(
    max_examples=200,
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    api_key=st.one_of(
        st.sampled_from([0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 18, 19, 20, 21, 22, 32, 33, 37, 60]), st.integers(-3, 80)
    ),
    version=st.one_of(st.integers(0, 18), st.integers(-2, 40)),
    flexible_header=st.booleans(),
    body=st.binary(max_size=300),
)
def test_fuzz_random_bodies_never_crash(
    broker: EmbeddedBroker, api_key: int, version: int, flexible_header: bool, body: bytes
) -> None:
    _fuzz_one(broker.bootstrap_servers, api_key, version, flexible_header, body)


def _templates() -> list[bytes]:
    """Valid requests (without size prefix) of read-mostly APIs, to be mutated by the fuzzer."""
    from kafka_wire.protocol.messages import (
        describe_cluster_request,
        describe_configs_request,
        fetch_request,
        init_producer_id_request,
        list_offsets_request,
        metadata_request,
    )

    topic = "fuzz-target"
    batch = build_batch(w.records(2))
    reqs: list[tuple[int, int, Any]] = [
        (18, 3, api_versions_request.ApiVersionsRequest(client_software_name="fz", client_software_version="1")),
        (18, 0, api_versions_request.ApiVersionsRequest()),
        (
            3,
            12,
            metadata_request.MetadataRequest(
                topics=[metadata_request.MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False
            ),
        ),
        (3, 4, metadata_request.MetadataRequest(topics=None, allow_auto_topic_creation=False)),
        (
            0,
            9,
            produce_request.ProduceRequest(
                acks=-1,
                timeout_ms=1000,
                topic_data=[
                    produce_request.TopicProduceData(
                        name=topic, partition_data=[produce_request.PartitionProduceData(index=0, records=batch)]
                    )
                ],
            ),
        ),
        (
            0,
            3,
            produce_request.ProduceRequest(
                acks=1,
                timeout_ms=1000,
                topic_data=[
                    produce_request.TopicProduceData(
                        name=topic, partition_data=[produce_request.PartitionProduceData(index=0, records=batch)]
                    )
                ],
            ),
        ),
        (
            1,
            12,
            fetch_request.FetchRequest(
                max_wait_ms=0,
                min_bytes=0,
                topics=[
                    fetch_request.FetchTopic(
                        topic=topic,
                        partitions=[
                            fetch_request.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 16)
                        ],
                    )
                ],
            ),
        ),
        (
            2,
            7,
            list_offsets_request.ListOffsetsRequest(
                replica_id=-1,
                topics=[
                    list_offsets_request.ListOffsetsTopic(
                        name=topic,
                        partitions=[list_offsets_request.ListOffsetsPartition(partition_index=0, timestamp=-1)],
                    )
                ],
            ),
        ),
        (22, 4, init_producer_id_request.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=-1)),
        (
            32,
            4,
            describe_configs_request.DescribeConfigsRequest(
                resources=[describe_configs_request.DescribeConfigsResource(resource_type=2, resource_name=topic)]
            ),
        ),
        (60, 0, describe_cluster_request.DescribeClusterRequest()),
    ]
    return [encode_request(k, v, 99, "fuzz", body)[4:] for k, v, body in reqs]


_TEMPLATES = _templates()


@settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_fuzz_mutated_valid_requests_never_crash(
    broker: EmbeddedBroker, bystanders: Bystanders, data: st.DataObject
) -> None:
    """Bit flips and truncations of valid requests reach much deeper than random bytes."""
    if not _FUZZ_TOPIC:
        w.create_topic(bystanders.conn, "fuzz-target", 1)
        _FUZZ_TOPIC.append(1)
    buf = bytearray(data.draw(st.sampled_from(_TEMPLATES)))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(buf) - 1))
        buf[i] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        buf = buf[: data.draw(st.integers(8, len(buf)))]
    api_key, version = struct.unpack_from(">hh", buf, 0)
    _fuzz_one(broker.bootstrap_servers, api_key, version, False, bytes(buf), raw=True)


_FUZZ_TOPIC: list[int] = []


def test_after_fuzz_normal_clients_still_work(broker: EmbeddedBroker, bystanders: Bystanders) -> None:
    """Runs after the fuzz test (file order): the broker survived ≥200 random frames."""
    assert _FUZZ_DONE, "the fuzz test did not run before this one (file order)"
    assert len(_FUZZ_DONE) >= 400
    assert broker._thread is not None and broker._thread.is_alive()
    with w.connect(broker.bootstrap_servers) as c:
        name = f"after-fuzz-{uuid.uuid4().hex[:8]}"
        w.create_topic(c, name, 2)
        r = w.produce(c, name, 1, build_batch(w.records(4)))
        assert r.error_code == ErrorCode.NONE and r.base_offset == 0
        assert [x.value for x in w.fetch_records(c, name, 1)] == [b"v0", b"v1", b"v2", b"v3"]
