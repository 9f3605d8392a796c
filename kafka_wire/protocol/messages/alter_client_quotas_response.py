"""Generated from Kafka's AlterClientQuotasResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterClientQuotasResponse'
API_KEY = 49
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')


class AlterClientQuotasResponse(Struct):
    """AlterClientQuotasResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 49
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'entries')

    def __init__(self, throttle_time_ms: Any = 0, entries: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.entries = [] if entries is None else entries


class EntryData(Struct):
    __slots__ = ('error_code', 'error_message', 'entity')

    def __init__(self, error_code: Any = 0, error_message: Any = '', entity: Any = None) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.entity = [] if entity is None else entity


class EntityData(Struct):
    __slots__ = ('entity_type', 'entity_name')

    def __init__(self, entity_type: Any = '', entity_name: Any = '') -> None:
        self.entity_type = entity_type
        self.entity_name = entity_name



def _decode_EntityData_0(buf: Buffer, pos: int) -> tuple[EntityData, int]:
    o = EntityData.__new__(EntityData)
    o.entity_type, pos = read_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    o.entity_name, pos = read_string(buf, pos)
    return o, pos


def _decode_EntryData_0(buf: Buffer, pos: int) -> tuple[EntryData, int]:
    o = EntryData.__new__(EntryData)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
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
    return o, pos


def _decode_AlterClientQuotasResponse_0(buf: Buffer, pos: int) -> tuple[AlterClientQuotasResponse, int]:
    o = AlterClientQuotasResponse.__new__(AlterClientQuotasResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Entries')
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


def _decode_EntryData_1(buf: Buffer, pos: int) -> tuple[EntryData, int]:
    o = EntryData.__new__(EntryData)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
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
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterClientQuotasResponse_1(buf: Buffer, pos: int) -> tuple[AlterClientQuotasResponse, int]:
    o = AlterClientQuotasResponse.__new__(AlterClientQuotasResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Entries')
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


def _encode_EntryData_0(o: EntryData, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    items = o.entity
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_0(x, out)


def _encode_AlterClientQuotasResponse_0(o: AlterClientQuotasResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.entries
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_0(x, out)


def _encode_EntityData_1(o: EntityData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.entity_type))
    out.append(enc_compact_string(o.entity_name))
    out.append(b'\x00')


def _encode_EntryData_1(o: EntryData, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.entity
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_1(x, out)
    out.append(b'\x00')


def _encode_AlterClientQuotasResponse_1(o: AlterClientQuotasResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.entries
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterClientQuotasResponse_0, 1: _decode_AlterClientQuotasResponse_1}
ENCODERS = {0: _encode_AlterClientQuotasResponse_0, 1: _encode_AlterClientQuotasResponse_1}
MESSAGE = AlterClientQuotasResponse
