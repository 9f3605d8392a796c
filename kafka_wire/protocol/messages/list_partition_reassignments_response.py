"""Generated from Kafka's ListPartitionReassignmentsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListPartitionReassignmentsResponse'
API_KEY = 46
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i')


class ListPartitionReassignmentsResponse(Struct):
    """ListPartitionReassignmentsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 46
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is None else topics


class OngoingTopicReassignment(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class OngoingPartitionReassignment(Struct):
    __slots__ = ('partition_index', 'replicas', 'adding_replicas', 'removing_replicas')

    def __init__(self, partition_index: Any = 0, replicas: Any = None, adding_replicas: Any = None, removing_replicas: Any = None) -> None:
        self.partition_index = partition_index
        self.replicas = [] if replicas is None else replicas
        self.adding_replicas = [] if adding_replicas is None else adding_replicas
        self.removing_replicas = [] if removing_replicas is None else removing_replicas



def _decode_OngoingPartitionReassignment_0(buf: Buffer, pos: int) -> tuple[OngoingPartitionReassignment, int]:
    o = OngoingPartitionReassignment.__new__(OngoingPartitionReassignment)
    (o.partition_index,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Replicas')
    else:
        o.replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('AddingReplicas')
    else:
        o.adding_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('RemovingReplicas')
    else:
        o.removing_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OngoingTopicReassignment_0(buf: Buffer, pos: int) -> tuple[OngoingTopicReassignment, int]:
    o = OngoingTopicReassignment.__new__(OngoingTopicReassignment)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OngoingPartitionReassignment_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListPartitionReassignmentsResponse_0(buf: Buffer, pos: int) -> tuple[ListPartitionReassignmentsResponse, int]:
    o = ListPartitionReassignmentsResponse.__new__(ListPartitionReassignmentsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OngoingTopicReassignment_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OngoingPartitionReassignment_0(o: OngoingPartitionReassignment, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index))
    items = o.replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.adding_replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.removing_replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_OngoingTopicReassignment_0(o: OngoingTopicReassignment, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OngoingPartitionReassignment_0(x, out)
    out.append(b'\x00')


def _encode_ListPartitionReassignmentsResponse_0(o: ListPartitionReassignmentsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OngoingTopicReassignment_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ListPartitionReassignmentsResponse_0}
ENCODERS = {0: _encode_ListPartitionReassignmentsResponse_0}
MESSAGE = ListPartitionReassignmentsResponse
