"""Bad input: malformed frames raise ProtocolDecodeError, unknown APIs/versions UnsupportedVersionError.

A broker must answer garbage with a clean error (or by closing the connection), never crash on a
`struct.error`/`IndexError` from deep inside a generated decoder.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import (
    UnsupportedVersionError,
    decode_request,
    decode_request_header,
    decode_response,
    encode_request,
    encode_response,
    request_header_version,
    response_header_version,
)
from kafka_wire.protocol.messages import REQUESTS, RESPONSES
from kafka_wire.protocol.messages import fetch_request as fq
from kafka_wire.protocol.messages import metadata_request as mq
from kafka_wire.protocol.messages import produce_request as pq
from tests.unit.test_protocol_roundtrip import MODELS, PAIRS, message_strategy, pair_id

FUZZ_SETTINGS = settings(
    max_examples=5,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

REQUEST_PAIRS = [(n, v) for n, v in PAIRS if MODELS[n].kind == "request"]
RESPONSE_PAIRS = [(n, v) for n, v in PAIRS if MODELS[n].kind == "response"]


def _join(chunks: list[Any]) -> bytes:
    return b"".join(bytes(c) for c in chunks)


# --- truncation ---------------------------------------------------------------------------------


def produce_frame() -> bytes:
    body = pq.ProduceRequest(
        transactional_id=None,
        acks=-1,
        timeout_ms=30000,
        topic_data=[
            pq.TopicProduceData(
                name="orders",
                partition_data=[pq.PartitionProduceData(index=i, records=b"R" * 61) for i in range(2)],
            )
        ],
    )
    return encode_request(0, 9, 42, "client-1", body)[4:]


def fetch_frame() -> bytes:
    body = fq.FetchRequest(
        max_wait_ms=500,
        min_bytes=1,
        max_bytes=1 << 20,
        topics=[fq.FetchTopic(topic="orders", partitions=[fq.FetchPartition(partition=0, fetch_offset=7)])],
    )
    return encode_request(1, 12, 43, None, body)[4:]


def metadata_frame() -> bytes:
    return encode_request(3, 1, 44, "c", mq.MetadataRequest(topics=[mq.MetadataRequestTopic(name="t")]))[4:]


@pytest.mark.parametrize("make_frame", [produce_frame, fetch_frame, metadata_frame])
def test_truncated_request_frames(make_frame: Any) -> None:
    frame = make_frame()
    decode_request(frame)  # the whole frame is fine
    for cut in range(len(frame)):
        with pytest.raises(ProtocolDecodeError):
            decode_request(frame[:cut])
        with pytest.raises(ProtocolDecodeError):
            decode_request(memoryview(frame)[:cut])


@pytest.mark.parametrize("pair", REQUEST_PAIRS, ids=pair_id)
def test_every_truncated_request_raises_decode_error(pair: tuple[str, int]) -> None:
    name, v = pair
    api_key = MODELS[name].api_key

    @FUZZ_SETTINGS
    @given(message_strategy(name, v), st.data())
    def check(msg: Any, data: st.DataObject) -> None:
        frame = encode_request(api_key, v, 1, "c", msg)[4:]
        header, body = decode_request(frame)
        assert body == msg
        cut = data.draw(st.integers(0, len(frame) - 1), label="cut")
        with pytest.raises(ProtocolDecodeError):
            decode_request(frame[:cut])

    check()


@pytest.mark.parametrize("pair", RESPONSE_PAIRS, ids=pair_id)
def test_every_truncated_response_raises_decode_error(pair: tuple[str, int]) -> None:
    name, v = pair
    api_key = MODELS[name].api_key

    @FUZZ_SETTINGS
    @given(message_strategy(name, v), st.data())
    def check(msg: Any, data: st.DataObject) -> None:
        frame = _join(encode_response(api_key, v, 9, msg))[4:]
        assert decode_response(api_key, v, frame) == (9, msg)
        cut = data.draw(st.integers(0, len(frame) - 1), label="cut")
        with pytest.raises(ProtocolDecodeError):
            decode_response(api_key, v, frame[:cut])

    check()


def test_truncated_header() -> None:
    for frame in (
        b"",
        b"\x00",
        b"\x00\x03\x00",
        b"\x00\x03\x00\x01\x00\x00\x00",
        b"\x00\x03\x00\x01\x00\x00\x00\x01\x00",
    ):
        with pytest.raises(ProtocolDecodeError):
            decode_request_header(frame)
        with pytest.raises(ProtocolDecodeError):
            decode_request(frame)
    # a client id longer than the frame
    with pytest.raises(ProtocolDecodeError):
        decode_request(b"\x00\x03\x00\x01\x00\x00\x00\x01\x00\x09abc")


# --- corrupt frames -----------------------------------------------------------------------------


def test_array_length_past_the_frame_is_rejected_without_allocating() -> None:
    frame = bytearray(metadata_frame())
    header_len = 2 + 2 + 4 + 2 + 1  # key, version, correlation id, client id "c"
    struct.pack_into(">i", frame, header_len, 2**31 - 1)  # topics array: 2 billion entries
    with pytest.raises(ProtocolDecodeError):
        decode_request(bytes(frame))


def test_compact_lengths_past_the_frame_are_rejected() -> None:
    # Metadata v12 (flexible): topics is a compact array; claim ~2**35 entries
    body = b"\xff\xff\xff\xff\x7f" + b"\x01\x00\x00"
    frame = b"\x00\x03\x00\x0c\x00\x00\x00\x01\xff\xff\x00" + body
    with pytest.raises(ProtocolDecodeError):
        decode_request(frame)
    # an over-long (6-byte) varint
    frame = b"\x00\x03\x00\x0c\x00\x00\x00\x01\xff\xff\x00" + b"\x80\x80\x80\x80\x80\x80\x01"
    with pytest.raises(ProtocolDecodeError):
        decode_request(frame)


def test_invalid_utf8_is_a_decode_error() -> None:
    frame = bytearray(metadata_frame())
    frame[-1:] = b"\xff"  # the topic name "t" becomes an invalid UTF-8 byte
    with pytest.raises(ProtocolDecodeError):
        decode_request(bytes(frame))


def test_tagged_field_running_past_the_frame() -> None:
    # ApiVersions v3 request whose tag section claims a 100-byte field
    frame = b"\x00\x12\x00\x03\x00\x00\x00\x01\xff\xff\x00" + b"\x02x\x021" + b"\x01\x05\x64ab"
    with pytest.raises(ProtocolDecodeError):
        decode_request(frame)


@pytest.mark.parametrize("api_key", sorted(REQUESTS))
def test_random_garbage_never_crashes(api_key: int) -> None:
    module = REQUESTS[api_key]
    lo, hi = module.VALID_VERSIONS

    @settings(max_examples=40, deadline=None, database=None)
    @given(st.integers(lo, hi), st.binary(max_size=64))
    def check(version: int, garbage: bytes) -> None:
        frame = struct.pack(">hhi", api_key, version, 1) + b"\xff\xff"
        if request_header_version(api_key, version) >= 2:
            frame += b"\x00"
        try:
            decode_request(frame + garbage)
        except ProtocolDecodeError:
            pass

    check()


# --- unknown APIs and versions ------------------------------------------------------------------


def test_unknown_api_key_request() -> None:
    frame = struct.pack(">hhi", 9999, 0, 5) + b"\x00\x01c" + b"\x00\x00"
    with pytest.raises(UnsupportedVersionError) as info:
        decode_request(frame)
    assert (info.value.api_key, info.value.api_version) == (9999, 0)
    # the header alone still decodes: a broker can answer with the correlation id
    header, _ = decode_request_header(frame)
    assert (header.api_key, header.correlation_id, header.client_id) == (9999, 5, "c")


@pytest.mark.parametrize("version", [-1, 0, 2, 14, 999])
def test_unknown_produce_version(version: int) -> None:
    lo, hi = REQUESTS[0].VALID_VERSIONS
    assert not lo <= version <= hi
    frame = struct.pack(">hhi", 0, version, 5) + b"\x00\x01c"
    if request_header_version(0, version) >= 2:
        frame += b"\x00"
    frame += b"\x00" * 16
    with pytest.raises(UnsupportedVersionError) as info:
        decode_request(frame)
    assert (info.value.api_key, info.value.api_version) == (0, version)


def test_api_versions_request_from_the_future_has_a_readable_header() -> None:
    """KIP-511: a broker must be able to read the header of an ApiVersions request of a version it
    does not know, to answer it with UNSUPPORTED_VERSION."""
    hi = REQUESTS[18].VALID_VERSIONS[1]
    frame = struct.pack(">hhi", 18, hi + 1, 77) + b"\x00\x01c\x00" + b"\x02x\x021\x00"
    header, _ = decode_request_header(frame)
    assert (header.api_key, header.api_version, header.correlation_id) == (18, hi + 1, 77)
    with pytest.raises(UnsupportedVersionError):
        decode_request(frame)
    assert response_header_version(18, hi + 1) == 0


def test_unknown_api_and_version_on_the_other_entry_points() -> None:
    body = mq.MetadataRequest()
    for api_key, version in ((9999, 0), (3, 999), (3, -1)):
        with pytest.raises(UnsupportedVersionError):
            encode_request(api_key, version, 1, "c", body)
        with pytest.raises(UnsupportedVersionError):
            encode_response(api_key, version, 1, body)
        with pytest.raises(UnsupportedVersionError):
            decode_response(api_key, version, b"\x00\x00\x00\x01\x00\x00\x00\x00")
    assert set(RESPONSES) == set(REQUESTS)
