"""Generated from Kafka's HeartbeatRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'HeartbeatRequest'
API_KEY = 12
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')


class HeartbeatRequest(Struct):
    """HeartbeatRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 12
    VALID_VERSIONS = (0, 4)

    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id')

    def __init__(self, group_id: Any = '', generation_id: Any = 0, member_id: Any = '', group_instance_id: Any = None) -> None:
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id



def _decode_HeartbeatRequest_0(buf: Buffer, pos: int) -> tuple[HeartbeatRequest, int]:
    o = HeartbeatRequest.__new__(HeartbeatRequest)
    o.group_instance_id = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    return o, pos


def _decode_HeartbeatRequest_1(buf: Buffer, pos: int) -> tuple[HeartbeatRequest, int]:
    o = HeartbeatRequest.__new__(HeartbeatRequest)
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    return o, pos


def _decode_HeartbeatRequest_2(buf: Buffer, pos: int) -> tuple[HeartbeatRequest, int]:
    o = HeartbeatRequest.__new__(HeartbeatRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_HeartbeatRequest_0(o: HeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_string(o.member_id))


def _encode_HeartbeatRequest_1(o: HeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))


def _encode_HeartbeatRequest_2(o: HeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(b'\x00')


DECODERS = {0: _decode_HeartbeatRequest_0, 1: _decode_HeartbeatRequest_0, 2: _decode_HeartbeatRequest_0, 3: _decode_HeartbeatRequest_1, 4: _decode_HeartbeatRequest_2}
ENCODERS = {0: _encode_HeartbeatRequest_0, 1: _encode_HeartbeatRequest_0, 2: _encode_HeartbeatRequest_0, 3: _encode_HeartbeatRequest_1, 4: _encode_HeartbeatRequest_2}
MESSAGE = HeartbeatRequest
