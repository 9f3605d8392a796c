"""Generated from Kafka's LeaveGroupResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'LeaveGroupResponse'
API_KEY = 13
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ih')


class LeaveGroupResponse(Struct):
    """LeaveGroupResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 13
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'members')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, members: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.members = [] if members is None else members


class MemberResponse(Struct):
    __slots__ = ('member_id', 'group_instance_id', 'error_code')

    def __init__(self, member_id: Any = '', group_instance_id: Any = '', error_code: Any = 0) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.error_code = error_code



def _decode_LeaveGroupResponse_0(buf: Buffer, pos: int) -> tuple[LeaveGroupResponse, int]:
    o = LeaveGroupResponse.__new__(LeaveGroupResponse)
    o.throttle_time_ms = 0
    o.members = []
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_LeaveGroupResponse_1(buf: Buffer, pos: int) -> tuple[LeaveGroupResponse, int]:
    o = LeaveGroupResponse.__new__(LeaveGroupResponse)
    o.members = []
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_MemberResponse_0(buf: Buffer, pos: int) -> tuple[MemberResponse, int]:
    o = MemberResponse.__new__(MemberResponse)
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_LeaveGroupResponse_2(buf: Buffer, pos: int) -> tuple[LeaveGroupResponse, int]:
    o = LeaveGroupResponse.__new__(LeaveGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MemberResponse_0(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_MemberResponse_1(buf: Buffer, pos: int) -> tuple[MemberResponse, int]:
    o = MemberResponse.__new__(MemberResponse)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaveGroupResponse_3(buf: Buffer, pos: int) -> tuple[LeaveGroupResponse, int]:
    o = LeaveGroupResponse.__new__(LeaveGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MemberResponse_1(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_LeaveGroupResponse_0(o: LeaveGroupResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))


def _encode_LeaveGroupResponse_1(o: LeaveGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))


def _encode_MemberResponse_0(o: MemberResponse, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    out.append(_S0.pack(o.error_code))


def _encode_LeaveGroupResponse_2(o: LeaveGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MemberResponse_0(x, out)


def _encode_MemberResponse_1(o: MemberResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(_S0.pack(o.error_code))
    out.append(b'\x00')


def _encode_LeaveGroupResponse_3(o: LeaveGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MemberResponse_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_LeaveGroupResponse_0, 1: _decode_LeaveGroupResponse_1, 2: _decode_LeaveGroupResponse_1, 3: _decode_LeaveGroupResponse_2, 4: _decode_LeaveGroupResponse_3, 5: _decode_LeaveGroupResponse_3}
ENCODERS = {0: _encode_LeaveGroupResponse_0, 1: _encode_LeaveGroupResponse_1, 2: _encode_LeaveGroupResponse_1, 3: _encode_LeaveGroupResponse_2, 4: _encode_LeaveGroupResponse_3, 5: _encode_LeaveGroupResponse_3}
MESSAGE = LeaveGroupResponse
