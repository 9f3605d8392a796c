"""Generated from Kafka's TxnOffsetCommitResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'TxnOffsetCommitResponse'
API_KEY = 28
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ih')


class TxnOffsetCommitResponse(Struct):
    """TxnOffsetCommitResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 28
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class TxnOffsetCommitResponseTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class TxnOffsetCommitResponsePartition(Struct):
    __slots__ = ('partition_index', 'error_code')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.error_code = error_code



def _decode_TxnOffsetCommitResponsePartition_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponsePartition, int]:
    o = TxnOffsetCommitResponsePartition.__new__(TxnOffsetCommitResponsePartition)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_TxnOffsetCommitResponseTopic_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponseTopic, int]:
    o = TxnOffsetCommitResponseTopic.__new__(TxnOffsetCommitResponseTopic)
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
            x, pos = _decode_TxnOffsetCommitResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_TxnOffsetCommitResponse_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponse, int]:
    o = TxnOffsetCommitResponse.__new__(TxnOffsetCommitResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_TxnOffsetCommitResponsePartition_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponsePartition, int]:
    o = TxnOffsetCommitResponsePartition.__new__(TxnOffsetCommitResponsePartition)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitResponseTopic_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponseTopic, int]:
    o = TxnOffsetCommitResponseTopic.__new__(TxnOffsetCommitResponseTopic)
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
            x, pos = _decode_TxnOffsetCommitResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitResponse_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitResponse, int]:
    o = TxnOffsetCommitResponse.__new__(TxnOffsetCommitResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TxnOffsetCommitResponsePartition_0(o: TxnOffsetCommitResponsePartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))


def _encode_TxnOffsetCommitResponseTopic_0(o: TxnOffsetCommitResponseTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitResponsePartition_0(x, out)


def _encode_TxnOffsetCommitResponse_0(o: TxnOffsetCommitResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitResponseTopic_0(x, out)


def _encode_TxnOffsetCommitResponsePartition_1(o: TxnOffsetCommitResponsePartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))
    out.append(b'\x00')


def _encode_TxnOffsetCommitResponseTopic_1(o: TxnOffsetCommitResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitResponsePartition_1(x, out)
    out.append(b'\x00')


def _encode_TxnOffsetCommitResponse_1(o: TxnOffsetCommitResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitResponseTopic_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_TxnOffsetCommitResponse_0, 1: _decode_TxnOffsetCommitResponse_0, 2: _decode_TxnOffsetCommitResponse_0, 3: _decode_TxnOffsetCommitResponse_1, 4: _decode_TxnOffsetCommitResponse_1, 5: _decode_TxnOffsetCommitResponse_1}
ENCODERS = {0: _encode_TxnOffsetCommitResponse_0, 1: _encode_TxnOffsetCommitResponse_0, 2: _encode_TxnOffsetCommitResponse_0, 3: _encode_TxnOffsetCommitResponse_1, 4: _encode_TxnOffsetCommitResponse_1, 5: _encode_TxnOffsetCommitResponse_1}
MESSAGE = TxnOffsetCommitResponse
