"""Generated from Kafka's ListConfigResourcesResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListConfigResourcesResponse'
API_KEY = 74
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>b')


class ListConfigResourcesResponse(Struct):
    """ListConfigResourcesResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 74
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'error_code', 'config_resources')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, config_resources: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.config_resources = [] if config_resources is None else config_resources


class ConfigResource(Struct):
    __slots__ = ('resource_name', 'resource_type')

    def __init__(self, resource_name: Any = '', resource_type: Any = 16) -> None:
        self.resource_name = resource_name
        self.resource_type = resource_type



def _decode_ConfigResource_0(buf: Buffer, pos: int) -> tuple[ConfigResource, int]:
    o = ConfigResource.__new__(ConfigResource)
    o.resource_type = 16
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListConfigResourcesResponse_0(buf: Buffer, pos: int) -> tuple[ListConfigResourcesResponse, int]:
    o = ListConfigResourcesResponse.__new__(ListConfigResourcesResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('ConfigResources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ConfigResource_0(buf, pos)
            append(x)
        o.config_resources = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ConfigResource_1(buf: Buffer, pos: int) -> tuple[ConfigResource, int]:
    o = ConfigResource.__new__(ConfigResource)
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    (o.resource_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListConfigResourcesResponse_1(buf: Buffer, pos: int) -> tuple[ListConfigResourcesResponse, int]:
    o = ListConfigResourcesResponse.__new__(ListConfigResourcesResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ConfigResources')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ConfigResource_1(buf, pos)
            append(x)
        o.config_resources = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ConfigResource_0(o: ConfigResource, out: list[Any]) -> None:
    out.append(enc_compact_string(o.resource_name))
    out.append(b'\x00')


def _encode_ListConfigResourcesResponse_0(o: ListConfigResourcesResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    items = o.config_resources
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ConfigResource_0(x, out)
    out.append(b'\x00')


def _encode_ConfigResource_1(o: ConfigResource, out: list[Any]) -> None:
    out.append(enc_compact_string(o.resource_name))
    out.append(_S1.pack(o.resource_type))
    out.append(b'\x00')


def _encode_ListConfigResourcesResponse_1(o: ListConfigResourcesResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    items = o.config_resources
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ConfigResource_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ListConfigResourcesResponse_0, 1: _decode_ListConfigResourcesResponse_1}
ENCODERS = {0: _encode_ListConfigResourcesResponse_0, 1: _encode_ListConfigResourcesResponse_1}
MESSAGE = ListConfigResourcesResponse
