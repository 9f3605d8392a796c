"""Generated from Kafka's FindCoordinatorRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FindCoordinatorRequest'
API_KEY = 10
VALID_VERSIONS = (0, 6)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>b')


class FindCoordinatorRequest(Struct):
    """FindCoordinatorRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 10
    VALID_VERSIONS = (0, 6)

    __slots__ = ('key', 'key_type', 'coordinator_keys')

    def __init__(self, key: Any = '', key_type: Any = 0, coordinator_keys: Any = None) -> None:
        self.key = key
        self.key_type = key_type
        self.coordinator_keys = [] if coordinator_keys is None else coordinator_keys



def _decode_FindCoordinatorRequest_0(buf: Buffer, pos: int) -> tuple[FindCoordinatorRequest, int]:
    o = FindCoordinatorRequest.__new__(FindCoordinatorRequest)
    o.key_type = 0
    o.coordinator_keys = []
    o.key, pos = read_string(buf, pos)
    if o.key is None:
        null_field('Key')
    return o, pos


def _decode_FindCoordinatorRequest_1(buf: Buffer, pos: int) -> tuple[FindCoordinatorRequest, int]:
    o = FindCoordinatorRequest.__new__(FindCoordinatorRequest)
    o.coordinator_keys = []
    o.key, pos = read_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.key_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_FindCoordinatorRequest_2(buf: Buffer, pos: int) -> tuple[FindCoordinatorRequest, int]:
    o = FindCoordinatorRequest.__new__(FindCoordinatorRequest)
    o.coordinator_keys = []
    o.key, pos = read_compact_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.key_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FindCoordinatorRequest_3(buf: Buffer, pos: int) -> tuple[FindCoordinatorRequest, int]:
    o = FindCoordinatorRequest.__new__(FindCoordinatorRequest)
    o.key = ''
    (o.key_type,) = _S0.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('CoordinatorKeys')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('CoordinatorKeys')
            append(x)
        o.coordinator_keys = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_FindCoordinatorRequest_0(o: FindCoordinatorRequest, out: list[Any]) -> None:
    out.append(enc_string(o.key))


def _encode_FindCoordinatorRequest_1(o: FindCoordinatorRequest, out: list[Any]) -> None:
    out.append(enc_string(o.key))
    out.append(_S0.pack(o.key_type))


def _encode_FindCoordinatorRequest_2(o: FindCoordinatorRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.key))
    out.append(_S0.pack(o.key_type))
    out.append(b'\x00')


def _encode_FindCoordinatorRequest_3(o: FindCoordinatorRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.key_type))
    items = o.coordinator_keys
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


DECODERS = {0: _decode_FindCoordinatorRequest_0, 1: _decode_FindCoordinatorRequest_1, 2: _decode_FindCoordinatorRequest_1, 3: _decode_FindCoordinatorRequest_2, 4: _decode_FindCoordinatorRequest_3, 5: _decode_FindCoordinatorRequest_3, 6: _decode_FindCoordinatorRequest_3}
ENCODERS = {0: _encode_FindCoordinatorRequest_0, 1: _encode_FindCoordinatorRequest_1, 2: _encode_FindCoordinatorRequest_1, 3: _encode_FindCoordinatorRequest_2, 4: _encode_FindCoordinatorRequest_3, 5: _encode_FindCoordinatorRequest_3, 6: _encode_FindCoordinatorRequest_3}
MESSAGE = FindCoordinatorRequest
