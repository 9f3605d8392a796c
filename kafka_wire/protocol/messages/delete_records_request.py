"""Generated from Kafka's DeleteRecordsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteRecordsRequest'
API_KEY = 21
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>iq')
_S1 = struct.Struct('>i')


class DeleteRecordsRequest(Struct):
    """DeleteRecordsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 21
    VALID_VERSIONS = (0, 2)

    __slots__ = ('topics', 'timeout_ms')

    def __init__(self, topics: Any = None, timeout_ms: Any = 0) -> None:
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms


class DeleteRecordsTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class DeleteRecordsPartition(Struct):
    __slots__ = ('partition_index', 'offset')

    def __init__(self, partition_index: Any = 0, offset: Any = 0) -> None:
        self.partition_index = partition_index
        self.offset = offset



def _decode_DeleteRecordsPartition_0(buf: Buffer, pos: int) -> tuple[DeleteRecordsPartition, int]:
    o = DeleteRecordsPartition.__new__(DeleteRecordsPartition)
    (o.partition_index, o.offset,) = _S0.unpack_from(buf, pos)
    pos += 12
    return o, pos


def _decode_DeleteRecordsTopic_0(buf: Buffer, pos: int) -> tuple[DeleteRecordsTopic, int]:
    o = DeleteRecordsTopic.__new__(DeleteRecordsTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteRecordsPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_DeleteRecordsRequest_0(buf: Buffer, pos: int) -> tuple[DeleteRecordsRequest, int]:
    o = DeleteRecordsRequest.__new__(DeleteRecordsRequest)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteRecordsTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_DeleteRecordsPartition_1(buf: Buffer, pos: int) -> tuple[DeleteRecordsPartition, int]:
    o = DeleteRecordsPartition.__new__(DeleteRecordsPartition)
    (o.partition_index, o.offset,) = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteRecordsTopic_1(buf: Buffer, pos: int) -> tuple[DeleteRecordsTopic, int]:
    o = DeleteRecordsTopic.__new__(DeleteRecordsTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteRecordsPartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteRecordsRequest_1(buf: Buffer, pos: int) -> tuple[DeleteRecordsRequest, int]:
    o = DeleteRecordsRequest.__new__(DeleteRecordsRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteRecordsTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteRecordsPartition_0(o: DeleteRecordsPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.offset))


def _encode_DeleteRecordsTopic_0(o: DeleteRecordsTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeleteRecordsPartition_0(x, out)


def _encode_DeleteRecordsRequest_0(o: DeleteRecordsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeleteRecordsTopic_0(x, out)
    out.append(_S1.pack(o.timeout_ms))


def _encode_DeleteRecordsPartition_1(o: DeleteRecordsPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.offset))
    out.append(b'\x00')


def _encode_DeleteRecordsTopic_1(o: DeleteRecordsTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteRecordsPartition_1(x, out)
    out.append(b'\x00')


def _encode_DeleteRecordsRequest_1(o: DeleteRecordsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteRecordsTopic_1(x, out)
    out.append(_S1.pack(o.timeout_ms))
    out.append(b'\x00')


DECODERS = {0: _decode_DeleteRecordsRequest_0, 1: _decode_DeleteRecordsRequest_0, 2: _decode_DeleteRecordsRequest_1}
ENCODERS = {0: _encode_DeleteRecordsRequest_0, 1: _encode_DeleteRecordsRequest_0, 2: _encode_DeleteRecordsRequest_1}
MESSAGE = DeleteRecordsRequest
