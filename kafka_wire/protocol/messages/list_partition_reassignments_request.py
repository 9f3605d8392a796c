"""Generated from Kafka's ListPartitionReassignmentsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListPartitionReassignmentsRequest'
API_KEY = 46
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')


class ListPartitionReassignmentsRequest(Struct):
    """ListPartitionReassignmentsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 46
    VALID_VERSIONS = (0, 0)

    __slots__ = ('timeout_ms', 'topics')

    def __init__(self, timeout_ms: Any = 60000, topics: Any = None) -> None:
        self.timeout_ms = timeout_ms
        self.topics = topics


class ListPartitionReassignmentsTopics(Struct):
    __slots__ = ('name', 'partition_indexes')

    def __init__(self, name: Any = '', partition_indexes: Any = None) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is None else partition_indexes



def _decode_ListPartitionReassignmentsTopics_0(buf: Buffer, pos: int) -> tuple[ListPartitionReassignmentsTopics, int]:
    o = ListPartitionReassignmentsTopics.__new__(ListPartitionReassignmentsTopics)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListPartitionReassignmentsRequest_0(buf: Buffer, pos: int) -> tuple[ListPartitionReassignmentsRequest, int]:
    o = ListPartitionReassignmentsRequest.__new__(ListPartitionReassignmentsRequest)
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListPartitionReassignmentsTopics_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListPartitionReassignmentsTopics_0(o: ListPartitionReassignmentsTopics, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_indexes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_ListPartitionReassignmentsRequest_0(o: ListPartitionReassignmentsRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.timeout_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListPartitionReassignmentsTopics_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ListPartitionReassignmentsRequest_0}
ENCODERS = {0: _encode_ListPartitionReassignmentsRequest_0}
MESSAGE = ListPartitionReassignmentsRequest
