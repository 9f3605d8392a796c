"""Generated from Kafka's DescribeConfigsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeConfigsRequest'
API_KEY = 32
VALID_VERSIONS = (1, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>?')
_S2 = struct.Struct('>??')


class DescribeConfigsRequest(Struct):
    """DescribeConfigsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 32
    VALID_VERSIONS = (1, 4)

    __slots__ = ('resources', 'include_synonyms', 'include_documentation')

    def __init__(self, resources: Any = None, include_synonyms: Any = False, include_documentation: Any = False) -> None:
        self.resources = [] if resources is None else resources
        self.include_synonyms = include_synonyms
        self.include_documentation = include_documentation


class DescribeConfigsResource(Struct):
    __slots__ = ('resource_type', 'resource_name', 'configuration_keys')

    def __init__(self, resource_type: Any = 0, resource_name: Any = '', configuration_keys: Any = UNSET) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configuration_keys = [] if configuration_keys is UNSET else configuration_keys



def _decode_DescribeConfigsResource_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsResource, int]:
    o = DescribeConfigsResource.__new__(DescribeConfigsResource)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        o.configuration_keys = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('ConfigurationKeys')
            append(x)
        o.configuration_keys = items
    return o, pos


def _decode_DescribeConfigsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsRequest, int]:
    o = DescribeConfigsRequest.__new__(DescribeConfigsRequest)
    o.include_documentation = False
    n, pos = read_array_len(buf, pos, 7)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResource_0(buf, pos)
            append(x)
        o.resources = items
    (o.include_synonyms,) = _S1.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_DescribeConfigsRequest_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsRequest, int]:
    o = DescribeConfigsRequest.__new__(DescribeConfigsRequest)
    n, pos = read_array_len(buf, pos, 7)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResource_0(buf, pos)
            append(x)
        o.resources = items
    (o.include_synonyms, o.include_documentation,) = _S2.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DescribeConfigsResource_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsResource, int]:
    o = DescribeConfigsResource.__new__(DescribeConfigsResource)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        o.configuration_keys = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('ConfigurationKeys')
            append(x)
        o.configuration_keys = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeConfigsRequest_2(buf: Buffer, pos: int) -> tuple[DescribeConfigsRequest, int]:
    o = DescribeConfigsRequest.__new__(DescribeConfigsRequest)
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResource_1(buf, pos)
            append(x)
        o.resources = items
    (o.include_synonyms, o.include_documentation,) = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeConfigsResource_0(o: DescribeConfigsResource, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    items = o.configuration_keys
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))


def _encode_DescribeConfigsRequest_0(o: DescribeConfigsRequest, out: list[Any]) -> None:
    items = o.resources
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResource_0(x, out)
    out.append(_S1.pack(o.include_synonyms))


def _encode_DescribeConfigsRequest_1(o: DescribeConfigsRequest, out: list[Any]) -> None:
    items = o.resources
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResource_0(x, out)
    out.append(_S2.pack(o.include_synonyms, o.include_documentation))


def _encode_DescribeConfigsResource_1(o: DescribeConfigsResource, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    items = o.configuration_keys
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


def _encode_DescribeConfigsRequest_2(o: DescribeConfigsRequest, out: list[Any]) -> None:
    items = o.resources
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResource_1(x, out)
    out.append(_S2.pack(o.include_synonyms, o.include_documentation))
    out.append(b'\x00')


DECODERS = {1: _decode_DescribeConfigsRequest_0, 2: _decode_DescribeConfigsRequest_0, 3: _decode_DescribeConfigsRequest_1, 4: _decode_DescribeConfigsRequest_2}
ENCODERS = {1: _encode_DescribeConfigsRequest_0, 2: _encode_DescribeConfigsRequest_0, 3: _encode_DescribeConfigsRequest_1, 4: _encode_DescribeConfigsRequest_2}
MESSAGE = DescribeConfigsRequest
