"""Generated from Kafka's AlterPartitionReassignmentsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterPartitionReassignmentsRequest'
API_KEY = 45
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>i?')


class AlterPartitionReassignmentsRequest(Struct):
    """AlterPartitionReassignmentsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 45
    VALID_VERSIONS = (0, 1)

    __slots__ = ('timeout_ms', 'allow_replication_factor_change', 'topics')

    def __init__(self, timeout_ms: Any = 60000, allow_replication_factor_change: Any = True, topics: Any = None) -> None:
        self.timeout_ms = timeout_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.topics = [] if topics is None else topics


class ReassignableTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class ReassignablePartition(Struct):
    __slots__ = ('partition_index', 'replicas')

    def __init__(self, partition_index: Any = 0, replicas: Any = None) -> None:
        self.partition_index = partition_index
        self.replicas = replicas



def _decode_ReassignablePartition_0(buf: Buffer, pos: int) -> tuple[ReassignablePartition, int]:
    o = ReassignablePartition.__new__(ReassignablePartition)
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        o.replicas = None
    else:
        o.replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReassignableTopic_0(buf: Buffer, pos: int) -> tuple[ReassignableTopic, int]:
    o = ReassignableTopic.__new__(ReassignableTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReassignablePartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterPartitionReassignmentsRequest_0(buf: Buffer, pos: int) -> tuple[AlterPartitionReassignmentsRequest, int]:
    o = AlterPartitionReassignmentsRequest.__new__(AlterPartitionReassignmentsRequest)
    o.allow_replication_factor_change = True
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReassignableTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterPartitionReassignmentsRequest_1(buf: Buffer, pos: int) -> tuple[AlterPartitionReassignmentsRequest, int]:
    o = AlterPartitionReassignmentsRequest.__new__(AlterPartitionReassignmentsRequest)
    (o.timeout_ms, o.allow_replication_factor_change,) = _S1.unpack_from(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReassignableTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ReassignablePartition_0(o: ReassignablePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index))
    items = o.replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_ReassignableTopic_0(o: ReassignableTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignablePartition_0(x, out)
    out.append(b'\x00')


def _encode_AlterPartitionReassignmentsRequest_0(o: AlterPartitionReassignmentsRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.timeout_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignableTopic_0(x, out)
    out.append(b'\x00')


def _encode_AlterPartitionReassignmentsRequest_1(o: AlterPartitionReassignmentsRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.timeout_ms, o.allow_replication_factor_change))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignableTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterPartitionReassignmentsRequest_0, 1: _decode_AlterPartitionReassignmentsRequest_1}
ENCODERS = {0: _encode_AlterPartitionReassignmentsRequest_0, 1: _encode_AlterPartitionReassignmentsRequest_1}
MESSAGE = AlterPartitionReassignmentsRequest
