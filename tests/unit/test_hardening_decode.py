"""Issue 22 strict decoding: a null (-1) length where Kafka's spec forbids null is a decode error,
not a None handed to the broker's handlers."""

from __future__ import annotations

import pytest

from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import decode_request, encode_request
from kafka_wire.protocol.messages import (
    create_topics_request,
    list_groups_request,
    list_offsets_request,
    metadata_request,
)


def _with_tail(api_key: int, version: int, body: object, tail: bytes, replace: int) -> bytes:
    frame = encode_request(api_key, version, 1, "t", body)[4:]
    return frame[: len(frame) - replace] + tail


def test_null_non_nullable_array_is_refused() -> None:
    body = list_offsets_request.ListOffsetsRequest(replica_id=-1, topics=[])
    ok = _with_tail(2, 1, body, b"\x00\x00\x00\x00", 4)
    assert decode_request(ok)[1].topics == []
    with pytest.raises(ProtocolDecodeError, match="non-nullable field Topics"):
        decode_request(_with_tail(2, 1, body, b"\xff\xff\xff\xff", 4))


def test_null_nullable_array_is_still_accepted() -> None:
    # Metadata v1+: a null topic list means "all topics"
    body = metadata_request.MetadataRequest(topics=None)
    _, decoded = decode_request(encode_request(3, 1, 1, "t", body)[4:])
    assert decoded.topics is None


def test_null_string_in_string_array_is_refused() -> None:
    # ListGroups v4 (flexible): states_filter is a compact array of non-nullable strings
    body = list_groups_request.ListGroupsRequest(states_filter=["Stable"])
    frame = encode_request(16, 4, 1, "t", body)[4:]
    assert decode_request(frame)[1].states_filter == ["Stable"]
    i = frame.index(b"Stable")
    bad = frame[: i - 1] + b"\x00" + frame[i + len(b"Stable") :]  # compact length 0 = null
    with pytest.raises(ProtocolDecodeError, match="non-nullable"):
        decode_request(bad)


# --- counts and lengths are checked against the bytes left in the frame, before allocation ---


def _peak_alloc(fn: object) -> int:
    import tracemalloc

    tracemalloc.start()
    try:
        fn()  # type: ignore[operator]
    except ProtocolDecodeError:
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def test_huge_array_count_in_small_frame_is_refused_before_allocation() -> None:
    body = list_offsets_request.ListOffsetsRequest(replica_id=-1, topics=[])
    bad = _with_tail(2, 1, body, b"\x7f\xff\xff\xff", 4)  # 2,147,483,647 topics in ~20 bytes
    with pytest.raises(ProtocolDecodeError, match="bytes left in the frame"):
        decode_request(bad)
    assert _peak_alloc(lambda: decode_request(bad)) < 256 * 1024


def test_count_is_checked_against_the_minimum_element_size() -> None:
    # CreateTopics v2: one CreatableTopic takes at least 16 bytes (name, partitions, replication
    # factor, two array lengths), so 10 of them cannot fit in the 12 bytes that follow the count
    body = create_topics_request.CreateTopicsRequest(topics=[], timeout_ms=1000, validate_only=False)
    frame = encode_request(19, 2, 1, "t", body)[4:]
    # the body is: topics count (4) + timeout (4) + validate_only (1); claim 10 topics, 12 bytes left
    i = len(frame) - 9
    bad = frame[:i] + b"\x00\x00\x00\x0a" + b"\x00" * 12
    with pytest.raises(ProtocolDecodeError, match="array length 10 exceeds"):
        decode_request(bad)


def test_huge_primitive_array_and_compact_counts_are_refused() -> None:
    # ListGroups v4 (flexible): a compact count of 2**31 in a tiny frame (uvarint 80 80 80 80 08)
    body = list_groups_request.ListGroupsRequest(states_filter=[])
    frame = encode_request(16, 4, 1, "t", body)[4:]
    bad = frame[:-2] + b"\x80\x80\x80\x80\x08" + b"\x00"
    with pytest.raises(ProtocolDecodeError, match="bytes left in the frame"):
        decode_request(bad)
    assert _peak_alloc(lambda: decode_request(bad)) < 256 * 1024


def test_huge_string_and_records_lengths_are_refused() -> None:
    body = list_groups_request.ListGroupsRequest(states_filter=["Stable"])
    frame = encode_request(16, 4, 1, "t", body)[4:]
    i = frame.index(b"Stable")
    bad = frame[: i - 1] + b"\xff\xff\xff\x7f" + frame[i:]  # a 268 MB compact string
    with pytest.raises(ProtocolDecodeError):
        decode_request(bad)
    assert _peak_alloc(lambda: decode_request(bad)) < 256 * 1024
