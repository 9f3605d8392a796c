"""Generated from Kafka's OffsetCommitResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetCommitResponse'
API_KEY = 8
VALID_VERSIONS = (2, 10)
FLEXIBLE_VERSIONS = (8, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>16s')


class OffsetCommitResponse(Struct):
    """OffsetCommitResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 8
    VALID_VERSIONS = (2, 10)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class OffsetCommitResponseTopic(Struct):
    __slots__ = ('name', 'topic_id', 'partitions')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class OffsetCommitResponsePartition(Struct):
    __slots__ = ('partition_index', 'error_code')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.error_code = error_code



def _decode_OffsetCommitResponsePartition_0(buf: Buffer, pos: int) -> tuple[OffsetCommitResponsePartition, int]:
    o = OffsetCommitResponsePartition.__new__(OffsetCommitResponsePartition)
    (o.partition_index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_OffsetCommitResponseTopic_0(buf: Buffer, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    o = OffsetCommitResponseTopic.__new__(OffsetCommitResponseTopic)
    o.topic_id = ZERO_UUID
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
            x, pos = _decode_OffsetCommitResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetCommitResponse_0(buf: Buffer, pos: int) -> tuple[OffsetCommitResponse, int]:
    o = OffsetCommitResponse.__new__(OffsetCommitResponse)
    o.throttle_time_ms = 0
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitResponse_1(buf: Buffer, pos: int) -> tuple[OffsetCommitResponse, int]:
    o = OffsetCommitResponse.__new__(OffsetCommitResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitResponsePartition_1(buf: Buffer, pos: int) -> tuple[OffsetCommitResponsePartition, int]:
    o = OffsetCommitResponsePartition.__new__(OffsetCommitResponsePartition)
    (o.partition_index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitResponseTopic_1(buf: Buffer, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    o = OffsetCommitResponseTopic.__new__(OffsetCommitResponseTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitResponse_2(buf: Buffer, pos: int) -> tuple[OffsetCommitResponse, int]:
    o = OffsetCommitResponse.__new__(OffsetCommitResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitResponseTopic_2(buf: Buffer, pos: int) -> tuple[OffsetCommitResponseTopic, int]:
    o = OffsetCommitResponseTopic.__new__(OffsetCommitResponseTopic)
    o.name = ''
    (o.topic_id,) = _S2.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitResponse_3(buf: Buffer, pos: int) -> tuple[OffsetCommitResponse, int]:
    o = OffsetCommitResponse.__new__(OffsetCommitResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitResponseTopic_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OffsetCommitResponsePartition_0(o: OffsetCommitResponsePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code))


def _encode_OffsetCommitResponseTopic_0(o: OffsetCommitResponseTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponsePartition_0(x, out)


def _encode_OffsetCommitResponse_0(o: OffsetCommitResponse, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponseTopic_0(x, out)


def _encode_OffsetCommitResponse_1(o: OffsetCommitResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponseTopic_0(x, out)


def _encode_OffsetCommitResponsePartition_1(o: OffsetCommitResponsePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code))
    out.append(b'\x00')


def _encode_OffsetCommitResponseTopic_1(o: OffsetCommitResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponsePartition_1(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitResponse_2(o: OffsetCommitResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponseTopic_1(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitResponseTopic_2(o: OffsetCommitResponseTopic, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponsePartition_1(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitResponse_3(o: OffsetCommitResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitResponseTopic_2(x, out)
    out.append(b'\x00')


DECODERS = {2: _decode_OffsetCommitResponse_0, 3: _decode_OffsetCommitResponse_1, 4: _decode_OffsetCommitResponse_1, 5: _decode_OffsetCommitResponse_1, 6: _decode_OffsetCommitResponse_1, 7: _decode_OffsetCommitResponse_1, 8: _decode_OffsetCommitResponse_2, 9: _decode_OffsetCommitResponse_2, 10: _decode_OffsetCommitResponse_3}
ENCODERS = {2: _encode_OffsetCommitResponse_0, 3: _encode_OffsetCommitResponse_1, 4: _encode_OffsetCommitResponse_1, 5: _encode_OffsetCommitResponse_1, 6: _encode_OffsetCommitResponse_1, 7: _encode_OffsetCommitResponse_1, 8: _encode_OffsetCommitResponse_2, 9: _encode_OffsetCommitResponse_2, 10: _encode_OffsetCommitResponse_3}
MESSAGE = OffsetCommitResponse
