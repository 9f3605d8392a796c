"""Generated from Kafka's DescribeClientQuotasRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeClientQuotasRequest'
API_KEY = 48
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>b')
_S1 = struct.Struct('>?')


class DescribeClientQuotasRequest(Struct):
    """DescribeClientQuotasRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 48
    VALID_VERSIONS = (0, 1)

    __slots__ = ('components', 'strict')

    def __init__(self, components: Any = None, strict: Any = False) -> None:
        self.components = [] if components is None else components
        self.strict = strict


class ComponentData(Struct):
    __slots__ = ('entity_type', 'match_type', 'match')

    def __init__(self, entity_type: Any = '', match_type: Any = 0, match: Any = '') -> None:
        self.entity_type = entity_type
        self.match_type = match_type
        self.match = match



def _decode_ComponentData_0(buf: Buffer, pos: int) -> tuple[ComponentData, int]:
    o = ComponentData.__new__(ComponentData)
    o.entity_type, pos = read_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    (o.match_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.match, pos = read_string(buf, pos)
    return o, pos


def _decode_DescribeClientQuotasRequest_0(buf: Buffer, pos: int) -> tuple[DescribeClientQuotasRequest, int]:
    o = DescribeClientQuotasRequest.__new__(DescribeClientQuotasRequest)
    n, pos = read_array_len(buf, pos, 5)
    if n < 0:
        null_field('Components')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ComponentData_0(buf, pos)
            append(x)
        o.components = items
    (o.strict,) = _S1.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_ComponentData_1(buf: Buffer, pos: int) -> tuple[ComponentData, int]:
    o = ComponentData.__new__(ComponentData)
    o.entity_type, pos = read_compact_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    (o.match_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    o.match, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClientQuotasRequest_1(buf: Buffer, pos: int) -> tuple[DescribeClientQuotasRequest, int]:
    o = DescribeClientQuotasRequest.__new__(DescribeClientQuotasRequest)
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Components')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ComponentData_1(buf, pos)
            append(x)
        o.components = items
    (o.strict,) = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ComponentData_0(o: ComponentData, out: list[Any]) -> None:
    out.append(enc_string(o.entity_type))
    out.append(_S0.pack(o.match_type))
    out.append(enc_string(o.match))


def _encode_DescribeClientQuotasRequest_0(o: DescribeClientQuotasRequest, out: list[Any]) -> None:
    items = o.components
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ComponentData_0(x, out)
    out.append(_S1.pack(o.strict))


def _encode_ComponentData_1(o: ComponentData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.entity_type))
    out.append(_S0.pack(o.match_type))
    out.append(enc_compact_string(o.match))
    out.append(b'\x00')


def _encode_DescribeClientQuotasRequest_1(o: DescribeClientQuotasRequest, out: list[Any]) -> None:
    items = o.components
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ComponentData_1(x, out)
    out.append(_S1.pack(o.strict))
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeClientQuotasRequest_0, 1: _decode_DescribeClientQuotasRequest_1}
ENCODERS = {0: _encode_DescribeClientQuotasRequest_0, 1: _encode_DescribeClientQuotasRequest_1}
MESSAGE = DescribeClientQuotasRequest
