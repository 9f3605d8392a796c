"""Generated from Kafka's SyncGroupRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SyncGroupRequest'
API_KEY = 14
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')


class SyncGroupRequest(Struct):
    """SyncGroupRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 14
    VALID_VERSIONS = (0, 5)

    __slots__ = ('group_id', 'generation_id', 'member_id', 'group_instance_id', 'protocol_type', 'protocol_name', 'assignments')

    def __init__(self, group_id: Any = '', generation_id: Any = 0, member_id: Any = '', group_instance_id: Any = None, protocol_type: Any = None, protocol_name: Any = None, assignments: Any = None) -> None:
        self.group_id = group_id
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignments = [] if assignments is None else assignments


class SyncGroupRequestAssignment(Struct):
    __slots__ = ('member_id', 'assignment')

    def __init__(self, member_id: Any = '', assignment: Any = b'') -> None:
        self.member_id = member_id
        self.assignment = assignment



def _decode_SyncGroupRequestAssignment_0(buf: Buffer, pos: int) -> tuple[SyncGroupRequestAssignment, int]:
    o = SyncGroupRequestAssignment.__new__(SyncGroupRequestAssignment)
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.assignment, pos = read_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    return o, pos


def _decode_SyncGroupRequest_0(buf: Buffer, pos: int) -> tuple[SyncGroupRequest, int]:
    o = SyncGroupRequest.__new__(SyncGroupRequest)
    o.group_instance_id = None
    o.protocol_type = None
    o.protocol_name = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_SyncGroupRequestAssignment_0(buf, pos)
            append(x)
        o.assignments = items
    return o, pos


def _decode_SyncGroupRequest_1(buf: Buffer, pos: int) -> tuple[SyncGroupRequest, int]:
    o = SyncGroupRequest.__new__(SyncGroupRequest)
    o.protocol_type = None
    o.protocol_name = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_SyncGroupRequestAssignment_0(buf, pos)
            append(x)
        o.assignments = items
    return o, pos


def _decode_SyncGroupRequestAssignment_1(buf: Buffer, pos: int) -> tuple[SyncGroupRequestAssignment, int]:
    o = SyncGroupRequestAssignment.__new__(SyncGroupRequestAssignment)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.assignment, pos = read_compact_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_SyncGroupRequest_2(buf: Buffer, pos: int) -> tuple[SyncGroupRequest, int]:
    o = SyncGroupRequest.__new__(SyncGroupRequest)
    o.protocol_type = None
    o.protocol_name = None
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_SyncGroupRequestAssignment_1(buf, pos)
            append(x)
        o.assignments = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_SyncGroupRequest_3(buf: Buffer, pos: int) -> tuple[SyncGroupRequest, int]:
    o = SyncGroupRequest.__new__(SyncGroupRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.protocol_type, pos = read_compact_string(buf, pos)
    o.protocol_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_SyncGroupRequestAssignment_1(buf, pos)
            append(x)
        o.assignments = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_SyncGroupRequestAssignment_0(o: SyncGroupRequestAssignment, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_bytes(o.assignment))


def _encode_SyncGroupRequest_0(o: SyncGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_string(o.member_id))
    items = o.assignments
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_SyncGroupRequestAssignment_0(x, out)


def _encode_SyncGroupRequest_1(o: SyncGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    items = o.assignments
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_SyncGroupRequestAssignment_0(x, out)


def _encode_SyncGroupRequestAssignment_1(o: SyncGroupRequestAssignment, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_bytes(o.assignment))
    out.append(b'\x00')


def _encode_SyncGroupRequest_2(o: SyncGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    items = o.assignments
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_SyncGroupRequestAssignment_1(x, out)
    out.append(b'\x00')


def _encode_SyncGroupRequest_3(o: SyncGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S0.pack(o.generation_id))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_name))
    items = o.assignments
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_SyncGroupRequestAssignment_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_SyncGroupRequest_0, 1: _decode_SyncGroupRequest_0, 2: _decode_SyncGroupRequest_0, 3: _decode_SyncGroupRequest_1, 4: _decode_SyncGroupRequest_2, 5: _decode_SyncGroupRequest_3}
ENCODERS = {0: _encode_SyncGroupRequest_0, 1: _encode_SyncGroupRequest_0, 2: _encode_SyncGroupRequest_0, 3: _encode_SyncGroupRequest_1, 4: _encode_SyncGroupRequest_2, 5: _encode_SyncGroupRequest_3}
MESSAGE = SyncGroupRequest
