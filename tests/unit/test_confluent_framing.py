"""The Confluent framing the JSON and Protobuf Spark functions read, against confluent-kafka's own
SchemaId encoder/decoder (prefix and header forms, Protobuf message-index lists), without Spark."""

from __future__ import annotations

import io
import uuid

import pytest

pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka.schema_registry.common.serde import SchemaId  # noqa: E402

from connector.confluent_framing import (  # noqa: E402
    ConfluentDecodeError,
    header_values,
    read_indexes,
    split_frame,
    write_indexes,
)

INDEXES = [[0], [1], [0, 2], [3, 0, 1], [127], [300, 5]]


@pytest.mark.parametrize("indexes", INDEXES)
def test_prefix_frames_match_confluent_kafka(indexes: list[int]) -> None:
    framed = SchemaId("PROTOBUF", 4242, None, indexes).id_to_bytes() + b"BODY"
    ref, got, body = split_frame(framed, None, with_indexes=True)
    assert ref == ("id", 4242) and list(got or []) == indexes and bytes(body) == b"BODY"
    # and ours encodes what confluent-kafka decodes
    theirs = SchemaId("PROTOBUF")
    rest = theirs.from_bytes(io.BytesIO(b"\x00" + (4242).to_bytes(4, "big") + write_indexes(indexes) + b"B"))
    assert theirs.message_indexes == indexes and rest.read() == b"B"


@pytest.mark.parametrize("indexes", INDEXES)
def test_header_frames_match_confluent_kafka(indexes: list[int]) -> None:
    guid = str(uuid.uuid4())
    header = SchemaId("PROTOBUF", None, guid, indexes).guid_to_bytes()
    ref, got, body = split_frame(b"BODY", header, with_indexes=True)
    assert ref == ("guid", guid) and list(got or []) == indexes and bytes(body) == b"BODY"


def test_json_frames_have_no_indexes() -> None:
    framed = SchemaId("JSON", 7).id_to_bytes() + b'{"a":1}'
    assert split_frame(framed, None, with_indexes=False)[::2] == (("id", 7), memoryview(b'{"a":1}'))


@pytest.mark.parametrize(
    ("value", "header", "needle"),
    [
        (b"\x07\x00\x00\x00\x01{}", None, "not Confluent-framed"),
        (b"\x00\x00", None, "not Confluent-framed"),
        (b"{}", b"\x00" + bytes(16), "magic byte 1"),
        (b"\x00\x00\x00\x00\x01\x81", None, "truncated"),
    ],
)
def test_bad_frames_are_named(value: bytes, header: bytes | None, needle: str) -> None:
    with pytest.raises(ConfluentDecodeError, match=needle):
        split_frame(value, header, with_indexes=True)


def test_header_lookup_takes_the_last_matching_header() -> None:
    hs = [{"key": "x", "value": b"1"}, {"key": "__value_schema_id", "value": b"a"}, ("__value_schema_id", b"b")]
    assert header_values(hs, "__value_schema_id") == b"b"
    assert header_values(None, "__value_schema_id") is None
    assert read_indexes(b"\x00", 0) == ((0,), 1)
