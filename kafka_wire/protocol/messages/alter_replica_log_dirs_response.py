"""Generated from Kafka's AlterReplicaLogDirsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterReplicaLogDirsResponse'
API_KEY = 34
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ih')


class AlterReplicaLogDirsResponse(Struct):
    """AlterReplicaLogDirsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 34
    VALID_VERSIONS = (1, 2)

    __slots__ = ('throttle_time_ms', 'results')

    def __init__(self, throttle_time_ms: Any = 0, results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results


class AlterReplicaLogDirTopicResult(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class AlterReplicaLogDirPartitionResult(Struct):
    __slots__ = ('partition_index', 'error_code')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.error_code = error_code



def _decode_AlterReplicaLogDirPartitionResult_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirPartitionResult, int]:
    o = AlterReplicaLogDirPartitionResult.__new__(AlterReplicaLogDirPartitionResult)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_AlterReplicaLogDirTopicResult_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirTopicResult, int]:
    o = AlterReplicaLogDirTopicResult.__new__(AlterReplicaLogDirTopicResult)
    o.topic_name, pos = read_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirPartitionResult_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_AlterReplicaLogDirsResponse_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirsResponse, int]:
    o = AlterReplicaLogDirsResponse.__new__(AlterReplicaLogDirsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirTopicResult_0(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_AlterReplicaLogDirPartitionResult_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirPartitionResult, int]:
    o = AlterReplicaLogDirPartitionResult.__new__(AlterReplicaLogDirPartitionResult)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterReplicaLogDirTopicResult_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirTopicResult, int]:
    o = AlterReplicaLogDirTopicResult.__new__(AlterReplicaLogDirTopicResult)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirPartitionResult_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterReplicaLogDirsResponse_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirsResponse, int]:
    o = AlterReplicaLogDirsResponse.__new__(AlterReplicaLogDirsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirTopicResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterReplicaLogDirPartitionResult_0(o: AlterReplicaLogDirPartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))


def _encode_AlterReplicaLogDirTopicResult_0(o: AlterReplicaLogDirTopicResult, out: list[Any]) -> None:
    out.append(enc_string(o.topic_name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirPartitionResult_0(x, out)


def _encode_AlterReplicaLogDirsResponse_0(o: AlterReplicaLogDirsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirTopicResult_0(x, out)


def _encode_AlterReplicaLogDirPartitionResult_1(o: AlterReplicaLogDirPartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))
    out.append(b'\x00')


def _encode_AlterReplicaLogDirTopicResult_1(o: AlterReplicaLogDirTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirPartitionResult_1(x, out)
    out.append(b'\x00')


def _encode_AlterReplicaLogDirsResponse_1(o: AlterReplicaLogDirsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirTopicResult_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_AlterReplicaLogDirsResponse_0, 2: _decode_AlterReplicaLogDirsResponse_1}
ENCODERS = {1: _encode_AlterReplicaLogDirsResponse_0, 2: _encode_AlterReplicaLogDirsResponse_1}
MESSAGE = AlterReplicaLogDirsResponse
