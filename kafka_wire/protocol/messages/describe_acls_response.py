"""Generated from Kafka's DescribeAclsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeAclsResponse'
API_KEY = 29
VALID_VERSIONS = (1, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>b')
_S2 = struct.Struct('>bb')


class DescribeAclsResponse(Struct):
    """DescribeAclsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 29
    VALID_VERSIONS = (1, 3)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'resources')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', resources: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.resources = [] if resources is None else resources


class DescribeAclsResource(Struct):
    __slots__ = ('resource_type', 'resource_name', 'pattern_type', 'acls')

    def __init__(self, resource_type: Any = 0, resource_name: Any = '', pattern_type: Any = 3, acls: Any = None) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.pattern_type = pattern_type
        self.acls = [] if acls is None else acls


class AclDescription(Struct):
    __slots__ = ('principal', 'host', 'operation', 'permission_type')

    def __init__(self, principal: Any = '', host: Any = '', operation: Any = 0, permission_type: Any = 0) -> None:
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type



def _decode_AclDescription_0(buf: Buffer, pos: int) -> tuple[AclDescription, int]:
    o = AclDescription.__new__(AclDescription)
    o.principal, pos = read_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S2.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DescribeAclsResource_0(buf: Buffer, pos: int) -> tuple[DescribeAclsResource, int]:
    o = DescribeAclsResource.__new__(DescribeAclsResource)
    (o.resource_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.pattern_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Acls')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclDescription_0(buf, pos)
            append(x)
        o.acls = items
    return o, pos


def _decode_DescribeAclsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeAclsResponse, int]:
    o = DescribeAclsResponse.__new__(DescribeAclsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeAclsResource_0(buf, pos)
            append(x)
        o.resources = items
    return o, pos


def _decode_AclDescription_1(buf: Buffer, pos: int) -> tuple[AclDescription, int]:
    o = AclDescription.__new__(AclDescription)
    o.principal, pos = read_compact_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeAclsResource_1(buf: Buffer, pos: int) -> tuple[DescribeAclsResource, int]:
    o = DescribeAclsResource.__new__(DescribeAclsResource)
    (o.resource_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.pattern_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Acls')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclDescription_1(buf, pos)
            append(x)
        o.acls = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeAclsResponse_1(buf: Buffer, pos: int) -> tuple[DescribeAclsResponse, int]:
    o = DescribeAclsResponse.__new__(DescribeAclsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeAclsResource_1(buf, pos)
            append(x)
        o.resources = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AclDescription_0(o: AclDescription, out: list[Any]) -> None:
    out.append(enc_string(o.principal))
    out.append(enc_string(o.host))
    out.append(_S2.pack(o.operation, o.permission_type))


def _encode_DescribeAclsResource_0(o: DescribeAclsResource, out: list[Any]) -> None:
    out.append(_S1.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    out.append(_S1.pack(o.pattern_type))
    items = o.acls
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AclDescription_0(x, out)


def _encode_DescribeAclsResponse_0(o: DescribeAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_string(o.error_message))
    items = o.resources
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeAclsResource_0(x, out)


def _encode_AclDescription_1(o: AclDescription, out: list[Any]) -> None:
    out.append(enc_compact_string(o.principal))
    out.append(enc_compact_string(o.host))
    out.append(_S2.pack(o.operation, o.permission_type))
    out.append(b'\x00')


def _encode_DescribeAclsResource_1(o: DescribeAclsResource, out: list[Any]) -> None:
    out.append(_S1.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    out.append(_S1.pack(o.pattern_type))
    items = o.acls
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AclDescription_1(x, out)
    out.append(b'\x00')


def _encode_DescribeAclsResponse_1(o: DescribeAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.resources
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeAclsResource_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DescribeAclsResponse_0, 2: _decode_DescribeAclsResponse_1, 3: _decode_DescribeAclsResponse_1}
ENCODERS = {1: _encode_DescribeAclsResponse_0, 2: _encode_DescribeAclsResponse_1, 3: _encode_DescribeAclsResponse_1}
MESSAGE = DescribeAclsResponse
