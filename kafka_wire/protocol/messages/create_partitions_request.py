"""Generated from Kafka's CreatePartitionsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'CreatePartitionsRequest'
API_KEY = 37
VALID_VERSIONS = (0, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>i?')


class CreatePartitionsRequest(Struct):
    """CreatePartitionsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 37
    VALID_VERSIONS = (0, 3)

    __slots__ = ('topics', 'timeout_ms', 'validate_only')

    def __init__(self, topics: Any = None, timeout_ms: Any = 0, validate_only: Any = False) -> None:
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only


class CreatePartitionsTopic(Struct):
    __slots__ = ('name', 'count', 'assignments')

    def __init__(self, name: Any = '', count: Any = 0, assignments: Any = UNSET) -> None:
        self.name = name
        self.count = count
        self.assignments = [] if assignments is UNSET else assignments


class CreatePartitionsAssignment(Struct):
    __slots__ = ('broker_ids',)

    def __init__(self, broker_ids: Any = None) -> None:
        self.broker_ids = [] if broker_ids is None else broker_ids



def _decode_CreatePartitionsAssignment_0(buf: Buffer, pos: int) -> tuple[CreatePartitionsAssignment, int]:
    o = CreatePartitionsAssignment.__new__(CreatePartitionsAssignment)
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('BrokerIds')
    else:
        o.broker_ids = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_CreatePartitionsTopic_0(buf: Buffer, pos: int) -> tuple[CreatePartitionsTopic, int]:
    o = CreatePartitionsTopic.__new__(CreatePartitionsTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.count,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        o.assignments = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatePartitionsAssignment_0(buf, pos)
            append(x)
        o.assignments = items
    return o, pos


def _decode_CreatePartitionsRequest_0(buf: Buffer, pos: int) -> tuple[CreatePartitionsRequest, int]:
    o = CreatePartitionsRequest.__new__(CreatePartitionsRequest)
    n, pos = read_array_len(buf, pos, 10)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatePartitionsTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms, o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 5
    return o, pos


def _decode_CreatePartitionsAssignment_1(buf: Buffer, pos: int) -> tuple[CreatePartitionsAssignment, int]:
    o = CreatePartitionsAssignment.__new__(CreatePartitionsAssignment)
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('BrokerIds')
    else:
        o.broker_ids = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatePartitionsTopic_1(buf: Buffer, pos: int) -> tuple[CreatePartitionsTopic, int]:
    o = CreatePartitionsTopic.__new__(CreatePartitionsTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.count,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        o.assignments = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatePartitionsAssignment_1(buf, pos)
            append(x)
        o.assignments = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatePartitionsRequest_1(buf: Buffer, pos: int) -> tuple[CreatePartitionsRequest, int]:
    o = CreatePartitionsRequest.__new__(CreatePartitionsRequest)
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatePartitionsTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms, o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_CreatePartitionsAssignment_0(o: CreatePartitionsAssignment, out: list[Any]) -> None:
    items = o.broker_ids
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_CreatePartitionsTopic_0(o: CreatePartitionsTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(_S0.pack(o.count))
    items = o.assignments
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatePartitionsAssignment_0(x, out)


def _encode_CreatePartitionsRequest_0(o: CreatePartitionsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatePartitionsTopic_0(x, out)
    out.append(_S1.pack(o.timeout_ms, o.validate_only))


def _encode_CreatePartitionsAssignment_1(o: CreatePartitionsAssignment, out: list[Any]) -> None:
    items = o.broker_ids
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_CreatePartitionsTopic_1(o: CreatePartitionsTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S0.pack(o.count))
    items = o.assignments
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatePartitionsAssignment_1(x, out)
    out.append(b'\x00')


def _encode_CreatePartitionsRequest_1(o: CreatePartitionsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatePartitionsTopic_1(x, out)
    out.append(_S1.pack(o.timeout_ms, o.validate_only))
    out.append(b'\x00')


DECODERS = {0: _decode_CreatePartitionsRequest_0, 1: _decode_CreatePartitionsRequest_0, 2: _decode_CreatePartitionsRequest_1, 3: _decode_CreatePartitionsRequest_1}
ENCODERS = {0: _encode_CreatePartitionsRequest_0, 1: _encode_CreatePartitionsRequest_0, 2: _encode_CreatePartitionsRequest_1, 3: _encode_CreatePartitionsRequest_1}
MESSAGE = CreatePartitionsRequest
