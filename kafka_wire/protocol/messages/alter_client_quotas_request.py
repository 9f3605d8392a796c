"""Generated from Kafka's AlterClientQuotasRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterClientQuotasRequest'
API_KEY = 49
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>d?')
_S1 = struct.Struct('>?')


class AlterClientQuotasRequest(Struct):
    """AlterClientQuotasRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 49
    VALID_VERSIONS = (0, 1)

    __slots__ = ('entries', 'validate_only')

    def __init__(self, entries: Any = None, validate_only: Any = False) -> None:
        self.entries = [] if entries is None else entries
        self.validate_only = validate_only


class EntryData(Struct):
    __slots__ = ('entity', 'ops')

    def __init__(self, entity: Any = None, ops: Any = None) -> None:
        self.entity = [] if entity is None else entity
        self.ops = [] if ops is None else ops


class EntityData(Struct):
    __slots__ = ('entity_type', 'entity_name')

    def __init__(self, entity_type: Any = '', entity_name: Any = '') -> None:
        self.entity_type = entity_type
        self.entity_name = entity_name


class OpData(Struct):
    __slots__ = ('key', 'value', 'remove')

    def __init__(self, key: Any = '', value: Any = 0.0, remove: Any = False) -> None:
        self.key = key
        self.value = value
        self.remove = remove



def _decode_EntityData_0(buf: Buffer, pos: int) -> tuple[EntityData, int]:
    o = EntityData.__new__(EntityData)
    o.entity_type, pos = read_string(buf, pos)
    if o.entity_type is None:
        null_field('EntityType')
    o.entity_name, pos = read_string(buf, pos)
    return o, pos


def _decode_OpData_0(buf: Buffer, pos: int) -> tuple[OpData, int]:
    o = OpData.__new__(OpData)
    o.key, pos = read_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.value, o.remove,) = _S0.unpack_from(buf, pos)
    pos += 9
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
    n, pos = read_array_len(buf, pos, 11)
    if n < 0:
        null_field('Ops')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OpData_0(buf, pos)
            append(x)
        o.ops = items
    return o, pos


def _decode_AlterClientQuotasRequest_0(buf: Buffer, pos: int) -> tuple[AlterClientQuotasRequest, int]:
    o = AlterClientQuotasRequest.__new__(AlterClientQuotasRequest)
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
    (o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 1
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


def _decode_OpData_1(buf: Buffer, pos: int) -> tuple[OpData, int]:
    o = OpData.__new__(OpData)
    o.key, pos = read_compact_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.value, o.remove,) = _S0.unpack_from(buf, pos)
    pos += 9
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
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Ops')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OpData_1(buf, pos)
            append(x)
        o.ops = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterClientQuotasRequest_1(buf: Buffer, pos: int) -> tuple[AlterClientQuotasRequest, int]:
    o = AlterClientQuotasRequest.__new__(AlterClientQuotasRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Entries')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EntryData_1(buf, pos)
            append(x)
        o.entries = items
    (o.validate_only,) = _S1.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_EntityData_0(o: EntityData, out: list[Any]) -> None:
    out.append(enc_string(o.entity_type))
    out.append(enc_string(o.entity_name))


def _encode_OpData_0(o: OpData, out: list[Any]) -> None:
    out.append(enc_string(o.key))
    out.append(_S0.pack(o.value, o.remove))


def _encode_EntryData_0(o: EntryData, out: list[Any]) -> None:
    items = o.entity
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_0(x, out)
    items = o.ops
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OpData_0(x, out)


def _encode_AlterClientQuotasRequest_0(o: AlterClientQuotasRequest, out: list[Any]) -> None:
    items = o.entries
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_0(x, out)
    out.append(_S1.pack(o.validate_only))


def _encode_EntityData_1(o: EntityData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.entity_type))
    out.append(enc_compact_string(o.entity_name))
    out.append(b'\x00')


def _encode_OpData_1(o: OpData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.key))
    out.append(_S0.pack(o.value, o.remove))
    out.append(b'\x00')


def _encode_EntryData_1(o: EntryData, out: list[Any]) -> None:
    items = o.entity
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntityData_1(x, out)
    items = o.ops
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OpData_1(x, out)
    out.append(b'\x00')


def _encode_AlterClientQuotasRequest_1(o: AlterClientQuotasRequest, out: list[Any]) -> None:
    items = o.entries
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EntryData_1(x, out)
    out.append(_S1.pack(o.validate_only))
    out.append(b'\x00')


DECODERS = {0: _decode_AlterClientQuotasRequest_0, 1: _decode_AlterClientQuotasRequest_1}
ENCODERS = {0: _encode_AlterClientQuotasRequest_0, 1: _encode_AlterClientQuotasRequest_1}
MESSAGE = AlterClientQuotasRequest
