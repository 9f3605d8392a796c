"""Generated from Kafka's AlterPartitionReassignmentsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterPartitionReassignmentsResponse'
API_KEY = 45
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i?h')


class AlterPartitionReassignmentsResponse(Struct):
    """AlterPartitionReassignmentsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 45
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'allow_replication_factor_change', 'error_code', 'error_message', 'responses')

    def __init__(self, throttle_time_ms: Any = 0, allow_replication_factor_change: Any = True, error_code: Any = 0, error_message: Any = '', responses: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.allow_replication_factor_change = allow_replication_factor_change
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is None else responses


class ReassignableTopicResponse(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class ReassignablePartitionResponse(Struct):
    __slots__ = ('partition_index', 'error_code', 'error_message')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, error_message: Any = '') -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message



def _decode_ReassignablePartitionResponse_0(buf: Buffer, pos: int) -> tuple[ReassignablePartitionResponse, int]:
    o = ReassignablePartitionResponse.__new__(ReassignablePartitionResponse)
    (o.partition_index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReassignableTopicResponse_0(buf: Buffer, pos: int) -> tuple[ReassignableTopicResponse, int]:
    o = ReassignableTopicResponse.__new__(ReassignableTopicResponse)
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
            x, pos = _decode_ReassignablePartitionResponse_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterPartitionReassignmentsResponse_0(buf: Buffer, pos: int) -> tuple[AlterPartitionReassignmentsResponse, int]:
    o = AlterPartitionReassignmentsResponse.__new__(AlterPartitionReassignmentsResponse)
    o.allow_replication_factor_change = True
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReassignableTopicResponse_0(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterPartitionReassignmentsResponse_1(buf: Buffer, pos: int) -> tuple[AlterPartitionReassignmentsResponse, int]:
    o = AlterPartitionReassignmentsResponse.__new__(AlterPartitionReassignmentsResponse)
    (o.throttle_time_ms, o.allow_replication_factor_change, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 7
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReassignableTopicResponse_0(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ReassignablePartitionResponse_0(o: ReassignablePartitionResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_ReassignableTopicResponse_0(o: ReassignableTopicResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignablePartitionResponse_0(x, out)
    out.append(b'\x00')


def _encode_AlterPartitionReassignmentsResponse_0(o: AlterPartitionReassignmentsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignableTopicResponse_0(x, out)
    out.append(b'\x00')


def _encode_AlterPartitionReassignmentsResponse_1(o: AlterPartitionReassignmentsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.allow_replication_factor_change, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReassignableTopicResponse_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterPartitionReassignmentsResponse_0, 1: _decode_AlterPartitionReassignmentsResponse_1}
ENCODERS = {0: _encode_AlterPartitionReassignmentsResponse_0, 1: _encode_AlterPartitionReassignmentsResponse_1}
MESSAGE = AlterPartitionReassignmentsResponse
