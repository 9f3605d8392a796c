"""Generated from Kafka's OffsetDeleteResponse.json by kafka_wire.protocol.generator: do not edit."""

# ruff: noqa
from __future__ import annotations

import struct
from typing import Any

from kafka_wire.protocol.primitives import (
    UNSET, Buffer, Struct, ZERO_UUID,
    enc_array_len, enc_bytes, enc_compact_array_len, enc_compact_bytes,
    enc_compact_records, enc_compact_string, enc_records, enc_string, enc_tagged_fields,
    read_array_len, read_bytes, read_compact_array_len, read_compact_bytes,
    read_compact_records, read_compact_string, read_records, read_string, read_uvarint,
    null_field, skip_tagged_fields,
)

NAME = 'OffsetDeleteResponse'
API_KEY = 47
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = None

_S0 = struct.Struct('>hi')
_S1 = struct.Struct('>ih')


class OffsetDeleteResponse(Struct):
    """OffsetDeleteResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 47
    VALID_VERSIONS = (0, 0)

    __slots__ = ('error_code', 'throttle_time_ms', 'topics')

    def __init__(self, error_code: Any = 0, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.error_code = error_code
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class OffsetDeleteResponseTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class OffsetDeleteResponsePartition(Struct):
    __slots__ = ('partition_index', 'error_code')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.error_code = error_code



def _decode_OffsetDeleteResponsePartition_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteResponsePartition, int]:
    o = OffsetDeleteResponsePartition.__new__(OffsetDeleteResponsePartition)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_OffsetDeleteResponseTopic_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteResponseTopic, int]:
    o = OffsetDeleteResponseTopic.__new__(OffsetDeleteResponseTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetDeleteResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetDeleteResponse_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteResponse, int]:
    o = OffsetDeleteResponse.__new__(OffsetDeleteResponse)
    (o.error_code, o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetDeleteResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _encode_OffsetDeleteResponsePartition_0(o: OffsetDeleteResponsePartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))


def _encode_OffsetDeleteResponseTopic_0(o: OffsetDeleteResponseTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetDeleteResponsePartition_0(x, out)


def _encode_OffsetDeleteResponse_0(o: OffsetDeleteResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code, o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetDeleteResponseTopic_0(x, out)


DECODERS = {0: _decode_OffsetDeleteResponse_0}
ENCODERS = {0: _encode_OffsetDeleteResponse_0}
MESSAGE = OffsetDeleteResponse
