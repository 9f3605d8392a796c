"""Generated from Kafka's DescribeClientQuotasResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeClientQuotasResponse'
API_KEY = 48
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>d')


class DescribeClientQuotasResponse(Struct):
    """DescribeClientQuotasResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 48
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'entries')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', entries: Any = UNSET) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.entries = [] if entries is UNSET else entries


class EntryData(Struct):
    __slots__ = ('entity', 'values')

    def __init__(self, entity: Any = None, values: Any = None) -> None:
        self.entity = [] if entity is None else entity
        self.values = [] if values is None else values


class EntityData(Struct):
    __slots__ = ('entity_type', 'entity_name')

    def __init__(self, entity_type: Any = '', entity_name: Any = '') -> None:
        self.entity_type = entity_type
        self.entity_name = entity_name


class ValueData(Struct):
    __slots__ = ('key', 'value')

    def __init__(self, key: Any = '', value: Any = 0.0) -> None:
        self.key = key
        self.value = value



def _decode_EntityData_0(buf: Buffer, pos: int) -> tuple[EntityData, int]:
    o = EntityData.__new__(EntityData)
    o.entity_type, pos = read_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    o.entity_name, pos = read_string(buf, pos)
    return o, pos


def _decode_ValueData_0(buf: Buffer, pos: int) -> tuple[ValueData, int]:
    o = ValueData.__new__(ValueData)
    o.key, pos = read_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.value,) = _S1.unpack_from(buf, pos)
    pos += 8
    return o, pos


def _decode_EntryData_0(buf: Buffer, pos: int) -> tuple[EntryData, int]:
    o = EntryData.__new__(EntryData)
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Entity')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EntityData_0(buf, pos)
            append(x)
        o.entity = items
    n, pos = read_array_len(buf, pos, 10)
    if n < 0:
        null_field('Values')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ValueData_0(buf, pos)
            append(x)
        o.values = items
    return o, pos


def _decode_DescribeClientQuotasResponse_0(buf: Buffer, pos: int) -> tuple[DescribeClientQuotasResponse, int]:
    o = DescribeClientQuotasResponse.__new__(DescribeClientQuotasResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        o.entries = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EntryData_0(buf, pos)
            append(x)
        o.entries = items
    return o, pos


def _decode_EntityData_1(buf: Buffer, pos: int) -> tuple[EntityData, int]:
    o = EntityData.__new__(EntityData)
    o.entity_type, pos = read_compact_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    o.entity_name, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ValueData_1(buf: Buffer, pos: int) -> tuple[ValueData, int]:
    o = ValueData.__new__(ValueData)
    o.key, pos = read_compact_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.value,) = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_EntryData_1(buf: Buffer, pos: int) -> tuple[EntryData, int]:
    o = EntryData.__new__(EntryData)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Entity')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EntityData_1(buf, pos)
            append(x)
        o.entity = items
    n, pos = read_compact_array_len(buf, pos, 10)
    if n < 0:
        null_field('Values')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ValueData_1(buf, pos)
            append(x)
        o.values = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClientQuotasResponse_1(buf: Buffer, pos: int) -> tuple[DescribeClientQuotasResponse, int]:
    o = DescribeClientQuotasResponse.__new__(DescribeClientQuotasResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.entries = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EntryData_1(buf, pos)
            append(x)
        o.entries = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_EntityData_0(o: EntityData, out: list[Any]) -> None:
    out.append(enc_string(o.entity_type))
    out.append(enc_string(o.entity_name))


def _encode_ValueData_0(o: ValueData, out: list[Any]) -> None:
    out.append(enc_string(o.key))
    out.append(_S1.pack(o.value))


def _encode_EntryData_0(o: EntryData, out: list[Any]) -> None:
    items = o.entity
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_0(x, out)
    items = o.values
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ValueData_0(x, out)


def _encode_DescribeClientQuotasResponse_0(o: DescribeClientQuotasResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_string(o.error_message))
    items = o.entries
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_0(x, out)


def _encode_EntityData_1(o: EntityData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.entity_type))
    out.append(enc_compact_string(o.entity_name))
    out.append(b'\x00')


def _encode_ValueData_1(o: ValueData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.key))
    out.append(_S1.pack(o.value))
    out.append(b'\x00')


def _encode_EntryData_1(o: EntryData, out: list[Any]) -> None:
    items = o.entity
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_1(x, out)
    items = o.values
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ValueData_1(x, out)
    out.append(b'\x00')


def _encode_DescribeClientQuotasResponse_1(o: DescribeClientQuotasResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.entries
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeClientQuotasResponse_0, 1: _decode_DescribeClientQuotasResponse_1}
ENCODERS = {0: _encode_DescribeClientQuotasResponse_0, 1: _encode_DescribeClientQuotasResponse_1}
MESSAGE = DescribeClientQuotasResponse
