"""Generated from Kafka's DeleteAclsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteAclsResponse'
API_KEY = 31
VALID_VERSIONS = (1, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>b')
_S3 = struct.Struct('>bb')


class DeleteAclsResponse(Struct):
    """DeleteAclsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 31
    VALID_VERSIONS = (1, 3)

    __slots__ = ('throttle_time_ms', 'filter_results')

    def __init__(self, throttle_time_ms: Any = 0, filter_results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.filter_results = [] if filter_results is None else filter_results


class DeleteAclsFilterResult(Struct):
    __slots__ = ('error_code', 'error_message', 'matching_acls')

    def __init__(self, error_code: Any = 0, error_message: Any = '', matching_acls: Any = None) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.matching_acls = [] if matching_acls is None else matching_acls


class DeleteAclsMatchingAcl(Struct):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'pattern_type', 'principal', 'host', 'operation', 'permission_type')

    def __init__(self, error_code: Any = 0, error_message: Any = '', resource_type: Any = 0, resource_name: Any = '', pattern_type: Any = 3, principal: Any = '', host: Any = '', operation: Any = 0, permission_type: Any = 0) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type



def _decode_DeleteAclsMatchingAcl_0(buf: Buffer, pos: int) -> tuple[DeleteAclsMatchingAcl, int]:
    o = DeleteAclsMatchingAcl.__new__(DeleteAclsMatchingAcl)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.pattern_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.principal, pos = read_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S3.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DeleteAclsFilterResult_0(buf: Buffer, pos: int) -> tuple[DeleteAclsFilterResult, int]:
    o = DeleteAclsFilterResult.__new__(DeleteAclsFilterResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('MatchingAcls')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsMatchingAcl_0(buf, pos)
            append(x)
        o.matching_acls = items
    return o, pos


def _decode_DeleteAclsResponse_0(buf: Buffer, pos: int) -> tuple[DeleteAclsResponse, int]:
    o = DeleteAclsResponse.__new__(DeleteAclsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('FilterResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsFilterResult_0(buf, pos)
            append(x)
        o.filter_results = items
    return o, pos


def _decode_DeleteAclsMatchingAcl_1(buf: Buffer, pos: int) -> tuple[DeleteAclsMatchingAcl, int]:
    o = DeleteAclsMatchingAcl.__new__(DeleteAclsMatchingAcl)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.pattern_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.principal, pos = read_compact_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteAclsFilterResult_1(buf: Buffer, pos: int) -> tuple[DeleteAclsFilterResult, int]:
    o = DeleteAclsFilterResult.__new__(DeleteAclsFilterResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('MatchingAcls')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsMatchingAcl_1(buf, pos)
            append(x)
        o.matching_acls = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteAclsResponse_1(buf: Buffer, pos: int) -> tuple[DeleteAclsResponse, int]:
    o = DeleteAclsResponse.__new__(DeleteAclsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('FilterResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteAclsFilterResult_1(buf, pos)
            append(x)
        o.filter_results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteAclsMatchingAcl_0(o: DeleteAclsMatchingAcl, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    out.append(_S2.pack(o.pattern_type))
    out.append(enc_string(o.principal))
    out.append(enc_string(o.host))
    out.append(_S3.pack(o.operation, o.permission_type))


def _encode_DeleteAclsFilterResult_0(o: DeleteAclsFilterResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    items = o.matching_acls
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsMatchingAcl_0(x, out)


def _encode_DeleteAclsResponse_0(o: DeleteAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.filter_results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsFilterResult_0(x, out)


def _encode_DeleteAclsMatchingAcl_1(o: DeleteAclsMatchingAcl, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    out.append(_S2.pack(o.pattern_type))
    out.append(enc_compact_string(o.principal))
    out.append(enc_compact_string(o.host))
    out.append(_S3.pack(o.operation, o.permission_type))
    out.append(b'\x00')


def _encode_DeleteAclsFilterResult_1(o: DeleteAclsFilterResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.matching_acls
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsMatchingAcl_1(x, out)
    out.append(b'\x00')


def _encode_DeleteAclsResponse_1(o: DeleteAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.filter_results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteAclsFilterResult_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DeleteAclsResponse_0, 2: _decode_DeleteAclsResponse_1, 3: _decode_DeleteAclsResponse_1}
ENCODERS = {1: _encode_DeleteAclsResponse_0, 2: _encode_DeleteAclsResponse_1, 3: _encode_DeleteAclsResponse_1}
MESSAGE = DeleteAclsResponse
