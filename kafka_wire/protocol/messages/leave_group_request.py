"""Generated from Kafka's LeaveGroupRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'LeaveGroupRequest'
API_KEY = 13
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (4, 32767)



class LeaveGroupRequest(Struct):
    """LeaveGroupRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 13
    VALID_VERSIONS = (0, 5)

    __slots__ = ('group_id', 'member_id', 'members')

    def __init__(self, group_id: Any = '', member_id: Any = '', members: Any = None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.members = [] if members is None else members


class MemberIdentity(Struct):
    __slots__ = ('member_id', 'group_instance_id', 'reason')

    def __init__(self, member_id: Any = '', group_instance_id: Any = None, reason: Any = None) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.reason = reason



def _decode_LeaveGroupRequest_0(buf: Buffer, pos: int) -> tuple[LeaveGroupRequest, int]:
    o = LeaveGroupRequest.__new__(LeaveGroupRequest)
    o.members = []
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    return o, pos


def _decode_MemberIdentity_0(buf: Buffer, pos: int) -> tuple[MemberIdentity, int]:
    o = MemberIdentity.__new__(MemberIdentity)
    o.reason = None
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    return o, pos


def _decode_LeaveGroupRequest_1(buf: Buffer, pos: int) -> tuple[LeaveGroupRequest, int]:
    o = LeaveGroupRequest.__new__(LeaveGroupRequest)
    o.member_id = ''
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MemberIdentity_0(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_MemberIdentity_1(buf: Buffer, pos: int) -> tuple[MemberIdentity, int]:
    o = MemberIdentity.__new__(MemberIdentity)
    o.reason = None
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaveGroupRequest_2(buf: Buffer, pos: int) -> tuple[LeaveGroupRequest, int]:
    o = LeaveGroupRequest.__new__(LeaveGroupRequest)
    o.member_id = ''
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MemberIdentity_1(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MemberIdentity_2(buf: Buffer, pos: int) -> tuple[MemberIdentity, int]:
    o = MemberIdentity.__new__(MemberIdentity)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.reason, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaveGroupRequest_3(buf: Buffer, pos: int) -> tuple[LeaveGroupRequest, int]:
    o = LeaveGroupRequest.__new__(LeaveGroupRequest)
    o.member_id = ''
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MemberIdentity_2(buf, pos)
            append(x)
        o.members = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_LeaveGroupRequest_0(o: LeaveGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(enc_string(o.member_id))


def _encode_MemberIdentity_0(o: MemberIdentity, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))


def _encode_LeaveGroupRequest_1(o: LeaveGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MemberIdentity_0(x, out)


def _encode_MemberIdentity_1(o: MemberIdentity, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(b'\x00')


def _encode_LeaveGroupRequest_2(o: LeaveGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MemberIdentity_1(x, out)
    out.append(b'\x00')


def _encode_MemberIdentity_2(o: MemberIdentity, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_string(o.reason))
    out.append(b'\x00')


def _encode_LeaveGroupRequest_3(o: LeaveGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MemberIdentity_2(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_LeaveGroupRequest_0, 1: _decode_LeaveGroupRequest_0, 2: _decode_LeaveGroupRequest_0, 3: _decode_LeaveGroupRequest_1, 4: _decode_LeaveGroupRequest_2, 5: _decode_LeaveGroupRequest_3}
ENCODERS = {0: _encode_LeaveGroupRequest_0, 1: _encode_LeaveGroupRequest_0, 2: _encode_LeaveGroupRequest_0, 3: _encode_LeaveGroupRequest_1, 4: _encode_LeaveGroupRequest_2, 5: _encode_LeaveGroupRequest_3}
MESSAGE = LeaveGroupRequest
