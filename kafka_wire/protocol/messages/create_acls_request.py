"""Generated from Kafka's CreateAclsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'CreateAclsRequest'
API_KEY = 30
VALID_VERSIONS = (1, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>bb')


class CreateAclsRequest(Struct):
    """CreateAclsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 30
    VALID_VERSIONS = (1, 3)

    __slots__ = ('creations',)

    def __init__(self, creations: Any = None) -> None:
        self.creations = [] if creations is None else creations


class AclCreation(Struct):
    __slots__ = ('resource_type', 'resource_name', 'resource_pattern_type', 'principal', 'host', 'operation', 'permission_type')

    def __init__(self, resource_type: Any = 0, resource_name: Any = '', resource_pattern_type: Any = 3, principal: Any = '', host: Any = '', operation: Any = 0, permission_type: Any = 0) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.resource_pattern_type = resource_pattern_type
        self.principal = principal
        self.host = host
        self.operation = operation
        self.permission_type = permission_type



def _decode_AclCreation_0(buf: Buffer, pos: int) -> tuple[AclCreation, int]:
    o = AclCreation.__new__(AclCreation)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.resource_pattern_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.principal, pos = read_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_CreateAclsRequest_0(buf: Buffer, pos: int) -> tuple[CreateAclsRequest, int]:
    o = CreateAclsRequest.__new__(CreateAclsRequest)
    n, pos = read_array_len(buf, pos, 10)
    if n < 0:
        null_field('Creations')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclCreation_0(buf, pos)
            append(x)
        o.creations = items
    return o, pos


def _decode_AclCreation_1(buf: Buffer, pos: int) -> tuple[AclCreation, int]:
    o = AclCreation.__new__(AclCreation)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.resource_pattern_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.principal, pos = read_compact_string(buf, pos)
    if o.principal is None:
        null_field('Principal')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.operation, o.permission_type,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreateAclsRequest_1(buf: Buffer, pos: int) -> tuple[CreateAclsRequest, int]:
    o = CreateAclsRequest.__new__(CreateAclsRequest)
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Creations')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclCreation_1(buf, pos)
            append(x)
        o.creations = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AclCreation_0(o: AclCreation, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    out.append(_S0.pack(o.resource_pattern_type))
    out.append(enc_string(o.principal))
    out.append(enc_string(o.host))
    out.append(_S1.pack(o.operation, o.permission_type))


def _encode_CreateAclsRequest_0(o: CreateAclsRequest, out: list[Any]) -> None:
    items = o.creations
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AclCreation_0(x, out)


def _encode_AclCreation_1(o: AclCreation, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    out.append(_S0.pack(o.resource_pattern_type))
    out.append(enc_compact_string(o.principal))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.operation, o.permission_type))
    out.append(b'\x00')


def _encode_CreateAclsRequest_1(o: CreateAclsRequest, out: list[Any]) -> None:
    items = o.creations
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AclCreation_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_CreateAclsRequest_0, 2: _decode_CreateAclsRequest_1, 3: _decode_CreateAclsRequest_1}
ENCODERS = {1: _encode_CreateAclsRequest_0, 2: _encode_CreateAclsRequest_1, 3: _encode_CreateAclsRequest_1}
MESSAGE = CreateAclsRequest
