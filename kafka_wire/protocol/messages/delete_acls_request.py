"""Generated from Kafka's DeleteAclsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteAclsRequest'
API_KEY = 31
VALID_VERSIONS = (1, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>bb')


class DeleteAclsRequest(Struct):
    """DeleteAclsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 31
    VALID_VERSIONS = (1, 3)

    __slots__ = ('filters',)

    def __init__(self, filters: Any = None) -> None:
        self.filters = [] if filters is None else filters


class DeleteAclsFilter(Struct):
    __slots__ = ('resource_type_filter', 'resource_name_filter', 'pattern_type_filter', 'principal_filter', 'host_filter', 'operation', 'permission_type')

    def __init__(self, resource_type_filter: Any = 0, resource_name_filter: Any = '', pattern_type_filter: Any = 3, principal_filter: Any = '', host_filter: Any = '', operation: Any = 0, permission_type: Any = 0) -> None:
        self.resource_type_filter = resource_type_filter
        self.resource_name_filter = resource_name_filter
        self.pattern_type_filter = pattern_type_filter
        self.principal_filter = principal_filter
        self.host_filter = host_filter
        self.operation = operation
        self.permission_type = permission_type



def _decode_DeleteAclsFilter_0(buf: Buffer, pos: int) -> tuple[DeleteAclsFilter, int]:
    o = DeleteAclsFilter.__new__(DeleteAclsFilter)
    (o.resource_type_filter,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name_filter, pos = read_string(buf, pos)
    (o.pattern_type_filter,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.principal_filter, pos = read_string(buf, pos)
    o.host_filter, pos = read_string(buf, pos)
    (o.operation, o.permission_type,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DeleteAclsRequest_0(buf: Buffer, pos: int) -> tuple[DeleteAclsRequest, int]:
    o = DeleteAclsRequest.__new__(DeleteAclsRequest)
    n, pos = read_array_len(buf, pos, 10)
    if n < 0:
        null_field('Filters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsFilter_0(buf, pos)
            append(x)
        o.filters = items
    return o, pos


def _decode_DeleteAclsFilter_1(buf: Buffer, pos: int) -> tuple[DeleteAclsFilter, int]:
    o = DeleteAclsFilter.__new__(DeleteAclsFilter)
    (o.resource_type_filter,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name_filter, pos = read_compact_string(buf, pos)
    (o.pattern_type_filter,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.principal_filter, pos = read_compact_string(buf, pos)
    o.host_filter, pos = read_compact_string(buf, pos)
    (o.operation, o.permission_type,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteAclsRequest_1(buf: Buffer, pos: int) -> tuple[DeleteAclsRequest, int]:
    o = DeleteAclsRequest.__new__(DeleteAclsRequest)
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Filters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsFilter_1(buf, pos)
            append(x)
        o.filters = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteAclsFilter_0(o: DeleteAclsFilter, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type_filter))
    out.append(enc_string(o.resource_name_filter))
    out.append(_S0.pack(o.pattern_type_filter))
    out.append(enc_string(o.principal_filter))
    out.append(enc_string(o.host_filter))
    out.append(_S1.pack(o.operation, o.permission_type))


def _encode_DeleteAclsRequest_0(o: DeleteAclsRequest, out: list[Any]) -> None:
    items = o.filters
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsFilter_0(x, out)


def _encode_DeleteAclsFilter_1(o: DeleteAclsFilter, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type_filter))
    out.append(enc_compact_string(o.resource_name_filter))
    out.append(_S0.pack(o.pattern_type_filter))
    out.append(enc_compact_string(o.principal_filter))
    out.append(enc_compact_string(o.host_filter))
    out.append(_S1.pack(o.operation, o.permission_type))
    out.append(b'\x00')


def _encode_DeleteAclsRequest_1(o: DeleteAclsRequest, out: list[Any]) -> None:
    items = o.filters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsFilter_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DeleteAclsRequest_0, 2: _decode_DeleteAclsRequest_1, 3: _decode_DeleteAclsRequest_1}
ENCODERS = {1: _encode_DeleteAclsRequest_0, 2: _encode_DeleteAclsRequest_1, 3: _encode_DeleteAclsRequest_1}
MESSAGE = DeleteAclsRequest
