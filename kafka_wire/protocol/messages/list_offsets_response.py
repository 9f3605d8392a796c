"""Generated from Kafka's ListOffsetsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListOffsetsResponse'
API_KEY = 2
VALID_VERSIONS = (1, 11)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>ihqq')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>ihqqi')


class ListOffsetsResponse(Struct):
    """ListOffsetsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 2
    VALID_VERSIONS = (1, 11)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class ListOffsetsTopicResponse(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class ListOffsetsPartitionResponse(Struct):
    __slots__ = ('partition_index', 'error_code', 'old_style_offsets', 'timestamp', 'offset', 'leader_epoch')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, old_style_offsets: Any = None, timestamp: Any = -1, offset: Any = -1, leader_epoch: Any = -1) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.old_style_offsets = [] if old_style_offsets is None else old_style_offsets
        self.timestamp = timestamp
        self.offset = offset
        self.leader_epoch = leader_epoch



def _decode_ListOffsetsPartitionResponse_0(buf: Buffer, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    o = ListOffsetsPartitionResponse.__new__(ListOffsetsPartitionResponse)
    o.old_style_offsets = []
    o.leader_epoch = -1
    (o.partition_index, o.error_code, o.timestamp, o.offset,) = _S0.unpack_from(buf, pos)
    pos += 22
    return o, pos


def _decode_ListOffsetsTopicResponse_0(buf: Buffer, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    o = ListOffsetsTopicResponse.__new__(ListOffsetsTopicResponse)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 22)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartitionResponse_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_ListOffsetsResponse_0(buf: Buffer, pos: int) -> tuple[ListOffsetsResponse, int]:
    o = ListOffsetsResponse.__new__(ListOffsetsResponse)
    o.throttle_time_ms = 0
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopicResponse_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsResponse_1(buf: Buffer, pos: int) -> tuple[ListOffsetsResponse, int]:
    o = ListOffsetsResponse.__new__(ListOffsetsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopicResponse_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsPartitionResponse_1(buf: Buffer, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    o = ListOffsetsPartitionResponse.__new__(ListOffsetsPartitionResponse)
    o.old_style_offsets = []
    (o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch,) = _S2.unpack_from(buf, pos)
    pos += 26
    return o, pos


def _decode_ListOffsetsTopicResponse_1(buf: Buffer, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    o = ListOffsetsTopicResponse.__new__(ListOffsetsTopicResponse)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 26)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartitionResponse_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_ListOffsetsResponse_2(buf: Buffer, pos: int) -> tuple[ListOffsetsResponse, int]:
    o = ListOffsetsResponse.__new__(ListOffsetsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopicResponse_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsPartitionResponse_2(buf: Buffer, pos: int) -> tuple[ListOffsetsPartitionResponse, int]:
    o = ListOffsetsPartitionResponse.__new__(ListOffsetsPartitionResponse)
    o.old_style_offsets = []
    (o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch,) = _S2.unpack_from(buf, pos)
    pos += 26
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListOffsetsTopicResponse_2(buf: Buffer, pos: int) -> tuple[ListOffsetsTopicResponse, int]:
    o = ListOffsetsTopicResponse.__new__(ListOffsetsTopicResponse)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 27)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartitionResponse_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListOffsetsResponse_3(buf: Buffer, pos: int) -> tuple[ListOffsetsResponse, int]:
    o = ListOffsetsResponse.__new__(ListOffsetsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopicResponse_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListOffsetsPartitionResponse_0(o: ListOffsetsPartitionResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code, o.timestamp, o.offset))


def _encode_ListOffsetsTopicResponse_0(o: ListOffsetsTopicResponse, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartitionResponse_0(x, out)


def _encode_ListOffsetsResponse_0(o: ListOffsetsResponse, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopicResponse_0(x, out)


def _encode_ListOffsetsResponse_1(o: ListOffsetsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopicResponse_0(x, out)


def _encode_ListOffsetsPartitionResponse_1(o: ListOffsetsPartitionResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch))


def _encode_ListOffsetsTopicResponse_1(o: ListOffsetsTopicResponse, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartitionResponse_1(x, out)


def _encode_ListOffsetsResponse_2(o: ListOffsetsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopicResponse_1(x, out)


def _encode_ListOffsetsPartitionResponse_2(o: ListOffsetsPartitionResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch))
    out.append(b'\x00')


def _encode_ListOffsetsTopicResponse_2(o: ListOffsetsTopicResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartitionResponse_2(x, out)
    out.append(b'\x00')


def _encode_ListOffsetsResponse_3(o: ListOffsetsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopicResponse_2(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ListOffsetsResponse_0, 2: _decode_ListOffsetsResponse_1, 3: _decode_ListOffsetsResponse_1, 4: _decode_ListOffsetsResponse_2, 5: _decode_ListOffsetsResponse_2, 6: _decode_ListOffsetsResponse_3, 7: _decode_ListOffsetsResponse_3, 8: _decode_ListOffsetsResponse_3, 9: _decode_ListOffsetsResponse_3, 10: _decode_ListOffsetsResponse_3, 11: _decode_ListOffsetsResponse_3}
ENCODERS = {1: _encode_ListOffsetsResponse_0, 2: _encode_ListOffsetsResponse_1, 3: _encode_ListOffsetsResponse_1, 4: _encode_ListOffsetsResponse_2, 5: _encode_ListOffsetsResponse_2, 6: _encode_ListOffsetsResponse_3, 7: _encode_ListOffsetsResponse_3, 8: _encode_ListOffsetsResponse_3, 9: _encode_ListOffsetsResponse_3, 10: _encode_ListOffsetsResponse_3, 11: _encode_ListOffsetsResponse_3}
MESSAGE = ListOffsetsResponse
