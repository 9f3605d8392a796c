"""Issue 22 strict decoding: a null (-1) length where Kafka's spec forbids null is a decode error,
not a None handed to the broker's handlers."""

from __future__ import annotations

import pytest

from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol import decode_request, encode_request
from kafka_wire.protocol.messages import list_groups_request, list_offsets_request, metadata_request


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
