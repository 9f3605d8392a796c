"""Generated from Kafka's JoinGroupResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'JoinGroupResponse'
API_KEY = 11
VALID_VERSIONS = (0, 9)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>hi')
_S1 = struct.Struct('>ihi')
_S2 = struct.Struct('>?')


class JoinGroupResponse(Struct):
    """JoinGroupResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 11
    VALID_VERSIONS = (0, 9)

    __slots__ = ('throttle_time_ms', 'error_code', 'generation_id', 'protocol_type', 'protocol_name', 'leader', 'skip_assignment', 'member_id', 'members')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, generation_id: Any = -1, protocol_type: Any = None, protocol_name: Any = '', leader: Any = '', skip_assignment: Any = False, member_id: Any = '', members: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.generation_id = generation_id
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader = leader
        self.skip_assignment = skip_assignment
        self.member_id = member_id
        self.members = [] if members is None else members


class JoinGroupResponseMember(Struct):
    __slots__ = ('member_id', 'group_instance_id', 'metadata')

    def __init__(self, member_id: Any = '', group_instance_id: Any = None, metadata: Any = b'') -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.metadata = metadata



def _decode_JoinGroupResponseMember_0(buf: Buffer, pos: int) -> tuple[JoinGroupResponseMember, int]:
    o = JoinGroupResponseMember.__new__(JoinGroupResponseMember)
    o.group_instance_id = None
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.metadata, pos = read_bytes(buf, pos)
    if o.metadata is None:
        null_field('Metadata')
    return o, pos


def _decode_JoinGroupResponse_0(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    o.throttle_time_ms = 0
    o.protocol_type = None
    o.skip_assignment = False
    (o.error_code, o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.protocol_name, pos = read_string(buf, pos)
    if o.protocol_name is None:
        null_field('ProtocolName')
    o.leader, pos = read_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_0(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_JoinGroupResponse_1(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    o.protocol_type = None
    o.skip_assignment = False
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _S1.unpack_from(buf, pos)
    pos += 10
    o.protocol_name, pos = read_string(buf, pos)
    if o.protocol_name is None:
        null_field('ProtocolName')
    o.leader, pos = read_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_0(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_JoinGroupResponseMember_1(buf: Buffer, pos: int) -> tuple[JoinGroupResponseMember, int]:
    o = JoinGroupResponseMember.__new__(JoinGroupResponseMember)
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    o.metadata, pos = read_bytes(buf, pos)
    if o.metadata is None:
        null_field('Metadata')
    return o, pos


def _decode_JoinGroupResponse_2(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    o.protocol_type = None
    o.skip_assignment = False
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _S1.unpack_from(buf, pos)
    pos += 10
    o.protocol_name, pos = read_string(buf, pos)
    if o.protocol_name is None:
        null_field('ProtocolName')
    o.leader, pos = read_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_1(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_JoinGroupResponseMember_2(buf: Buffer, pos: int) -> tuple[JoinGroupResponseMember, int]:
    o = JoinGroupResponseMember.__new__(JoinGroupResponseMember)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.metadata, pos = read_compact_bytes(buf, pos)
    if o.metadata is None:
        null_field('Metadata')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_JoinGroupResponse_3(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    o.protocol_type = None
    o.skip_assignment = False
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _S1.unpack_from(buf, pos)
    pos += 10
    o.protocol_name, pos = read_compact_string(buf, pos)
    if o.protocol_name is None:
        null_field('ProtocolName')
    o.leader, pos = read_compact_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_2(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_JoinGroupResponse_4(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    o.skip_assignment = False
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _S1.unpack_from(buf, pos)
    pos += 10
    o.protocol_type, pos = read_compact_string(buf, pos)
    o.protocol_name, pos = read_compact_string(buf, pos)
    o.leader, pos = read_compact_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_2(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_JoinGroupResponse_5(buf: Buffer, pos: int) -> tuple[JoinGroupResponse, int]:
    o = JoinGroupResponse.__new__(JoinGroupResponse)
    (o.throttle_time_ms, o.error_code, o.generation_id,) = _S1.unpack_from(buf, pos)
    pos += 10
    o.protocol_type, pos = read_compact_string(buf, pos)
    o.protocol_name, pos = read_compact_string(buf, pos)
    o.leader, pos = read_compact_string(buf, pos)
    if o.leader is None:
        null_field('Leader')
    (o.skip_assignment,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupResponseMember_2(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_JoinGroupResponseMember_0(o: JoinGroupResponseMember, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_bytes(o.metadata))


def _encode_JoinGroupResponse_0(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code, o.generation_id))
    out.append(enc_string(o.protocol_name))
    out.append(enc_string(o.leader))
    out.append(enc_string(o.member_id))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_0(x, out)


def _encode_JoinGroupResponse_1(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    out.append(enc_string(o.protocol_name))
    out.append(enc_string(o.leader))
    out.append(enc_string(o.member_id))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_0(x, out)


def _encode_JoinGroupResponseMember_1(o: JoinGroupResponseMember, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    out.append(enc_bytes(o.metadata))


def _encode_JoinGroupResponse_2(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    out.append(enc_string(o.protocol_name))
    out.append(enc_string(o.leader))
    out.append(enc_string(o.member_id))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_1(x, out)


def _encode_JoinGroupResponseMember_2(o: JoinGroupResponseMember, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_bytes(o.metadata))
    out.append(b'\x00')


def _encode_JoinGroupResponse_3(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    out.append(enc_compact_string(o.protocol_name))
    out.append(enc_compact_string(o.leader))
    out.append(enc_compact_string(o.member_id))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_2(x, out)
    out.append(b'\x00')


def _encode_JoinGroupResponse_4(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_name))
    out.append(enc_compact_string(o.leader))
    out.append(enc_compact_string(o.member_id))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_2(x, out)
    out.append(b'\x00')


def _encode_JoinGroupResponse_5(o: JoinGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.generation_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_name))
    out.append(enc_compact_string(o.leader))
    out.append(_S2.pack(o.skip_assignment))
    out.append(enc_compact_string(o.member_id))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupResponseMember_2(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_JoinGroupResponse_0, 1: _decode_JoinGroupResponse_0, 2: _decode_JoinGroupResponse_1, 3: _decode_JoinGroupResponse_1, 4: _decode_JoinGroupResponse_1, 5: _decode_JoinGroupResponse_2, 6: _decode_JoinGroupResponse_3, 7: _decode_JoinGroupResponse_4, 8: _decode_JoinGroupResponse_4, 9: _decode_JoinGroupResponse_5}
ENCODERS = {0: _encode_JoinGroupResponse_0, 1: _encode_JoinGroupResponse_0, 2: _encode_JoinGroupResponse_1, 3: _encode_JoinGroupResponse_1, 4: _encode_JoinGroupResponse_1, 5: _encode_JoinGroupResponse_2, 6: _encode_JoinGroupResponse_3, 7: _encode_JoinGroupResponse_4, 8: _encode_JoinGroupResponse_4, 9: _encode_JoinGroupResponse_5}
MESSAGE = JoinGroupResponse
