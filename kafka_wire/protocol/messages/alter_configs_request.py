"""Generated from Kafka's AlterConfigsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterConfigsRequest'
API_KEY = 33
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>?')


class AlterConfigsRequest(Struct):
    """AlterConfigsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 33
    VALID_VERSIONS = (0, 2)

    __slots__ = ('resources', 'validate_only')

    def __init__(self, resources: Any = None, validate_only: Any = False) -> None:
        self.resources = [] if resources is None else resources
        self.validate_only = validate_only


class AlterConfigsResource(Struct):
    __slots__ = ('resource_type', 'resource_name', 'configs')

    def __init__(self, resource_type: Any = 0, resource_name: Any = '', configs: Any = None) -> None:
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is None else configs


class AlterableConfig(Struct):
    __slots__ = ('name', 'value')

    def __init__(self, name: Any = '', value: Any = '') -> None:
        self.name = name
        self.value = value



def _decode_AlterableConfig_0(buf: Buffer, pos: int) -> tuple[AlterableConfig, int]:
    o = AlterableConfig.__new__(AlterableConfig)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_string(buf, pos)
    return o, pos


def _decode_AlterConfigsResource_0(buf: Buffer, pos: int) -> tuple[AlterConfigsResource, int]:
    o = AlterConfigsResource.__new__(AlterConfigsResource)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterableConfig_0(buf, pos)
            append(x)
        o.configs = items
    return o, pos


def _decode_AlterConfigsRequest_0(buf: Buffer, pos: int) -> tuple[AlterConfigsRequest, int]:
    o = AlterConfigsRequest.__new__(AlterConfigsRequest)
    n, pos = read_array_len(buf, pos, 7)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterConfigsResource_0(buf, pos)
            append(x)
        o.resources = items
    (o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_AlterableConfig_1(buf: Buffer, pos: int) -> tuple[AlterableConfig, int]:
    o = AlterableConfig.__new__(AlterableConfig)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterConfigsResource_1(buf: Buffer, pos: int) -> tuple[AlterConfigsResource, int]:
    o = AlterConfigsResource.__new__(AlterConfigsResource)
    (o.resource_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterableConfig_1(buf, pos)
            append(x)
        o.configs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterConfigsRequest_1(buf: Buffer, pos: int) -> tuple[AlterConfigsRequest, int]:
    o = AlterConfigsRequest.__new__(AlterConfigsRequest)
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Resources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterConfigsResource_1(buf, pos)
            append(x)
        o.resources = items
    (o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterableConfig_0(o: AlterableConfig, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_string(o.value))


def _encode_AlterConfigsResource_0(o: AlterConfigsResource, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    items = o.configs
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterableConfig_0(x, out)


def _encode_AlterConfigsRequest_0(o: AlterConfigsRequest, out: list[Any]) -> None:
    items = o.resources
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterConfigsResource_0(x, out)
    out.append(_S1.pack(o.validate_only))


def _encode_AlterableConfig_1(o: AlterableConfig, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.value))
    out.append(b'\x00')


def _encode_AlterConfigsResource_1(o: AlterConfigsResource, out: list[Any]) -> None:
    out.append(_S0.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    items = o.configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterableConfig_1(x, out)
    out.append(b'\x00')


def _encode_AlterConfigsRequest_1(o: AlterConfigsRequest, out: list[Any]) -> None:
    items = o.resources
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterConfigsResource_1(x, out)
    out.append(_S1.pack(o.validate_only))
    out.append(b'\x00')


DECODERS = {0: _decode_AlterConfigsRequest_0, 1: _decode_AlterConfigsRequest_0, 2: _decode_AlterConfigsRequest_1}
ENCODERS = {0: _encode_AlterConfigsRequest_0, 1: _encode_AlterConfigsRequest_0, 2: _encode_AlterConfigsRequest_1}
MESSAGE = AlterConfigsRequest
