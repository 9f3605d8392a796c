"""Generated from Kafka's DescribeGroupsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeGroupsResponse'
API_KEY = 15
VALID_VERSIONS = (0, 6)
FLEXIBLE_VERSIONS = (5, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>i')


class DescribeGroupsResponse(Struct):
    """DescribeGroupsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 15
    VALID_VERSIONS = (0, 6)

    __slots__ = ('throttle_time_ms', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups


class DescribedGroup(Struct):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'protocol_type', 'protocol_data', 'members', 'authorized_operations')

    def __init__(self, error_code: Any = 0, error_message: Any = None, group_id: Any = '', group_state: Any = '', protocol_type: Any = '', protocol_data: Any = '', members: Any = None, authorized_operations: Any = -2147483648) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.protocol_type = protocol_type
        self.protocol_data = protocol_data
        self.members = [] if members is None else members
        self.authorized_operations = authorized_operations


class DescribedGroupMember(Struct):
    __slots__ = ('member_id', 'group_instance_id', 'client_id', 'client_host', 'member_metadata', 'member_assignment')

    def __init__(self, member_id: Any = '', group_instance_id: Any = None, client_id: Any = '', client_host: Any = '', member_metadata: Any = b'', member_assignment: Any = b'') -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.member_metadata = member_metadata
        self.member_assignment = member_assignment



def _decode_DescribedGroupMember_0(buf: Buffer, pos: int) -> tuple[DescribedGroupMember, int]:
    o = DescribedGroupMember.__new__(DescribedGroupMember)
    o.group_instance_id = None
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.client_id, pos = read_string(buf, pos)
    if o.client_id is None:
        null_field('ClientId')
    o.client_host, pos = read_string(buf, pos)
    if o.client_host is None:
        null_field('ClientHost')
    o.member_metadata, pos = read_bytes(buf, pos)
    if o.member_metadata is None:
        null_field('MemberMetadata')
    o.member_assignment, pos = read_bytes(buf, pos)
    if o.member_assignment is None:
        null_field('MemberAssignment')
    return o, pos


def _decode_DescribedGroup_0(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    o.error_message = None
    o.authorized_operations = -2147483648
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.protocol_data, pos = read_string(buf, pos)
    if o.protocol_data is None:
        null_field('ProtocolData')
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroupMember_0(buf, pos)
            append(x)
        o.members = items
    return o, pos


def _decode_DescribeGroupsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    o.throttle_time_ms = 0
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_0(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_DescribeGroupsResponse_1(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_0(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_DescribedGroup_1(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    o.error_message = None
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.protocol_data, pos = read_string(buf, pos)
    if o.protocol_data is None:
        null_field('ProtocolData')
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroupMember_0(buf, pos)
            append(x)
        o.members = items
    (o.authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_DescribeGroupsResponse_2(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_1(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_DescribedGroupMember_1(buf: Buffer, pos: int) -> tuple[DescribedGroupMember, int]:
    o = DescribedGroupMember.__new__(DescribedGroupMember)
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    o.client_id, pos = read_string(buf, pos)
    if o.client_id is None:
        null_field('ClientId')
    o.client_host, pos = read_string(buf, pos)
    if o.client_host is None:
        null_field('ClientHost')
    o.member_metadata, pos = read_bytes(buf, pos)
    if o.member_metadata is None:
        null_field('MemberMetadata')
    o.member_assignment, pos = read_bytes(buf, pos)
    if o.member_assignment is None:
        null_field('MemberAssignment')
    return o, pos


def _decode_DescribedGroup_2(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    o.error_message = None
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.protocol_data, pos = read_string(buf, pos)
    if o.protocol_data is None:
        null_field('ProtocolData')
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroupMember_1(buf, pos)
            append(x)
        o.members = items
    (o.authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_DescribeGroupsResponse_3(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_2(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_DescribedGroupMember_2(buf: Buffer, pos: int) -> tuple[DescribedGroupMember, int]:
    o = DescribedGroupMember.__new__(DescribedGroupMember)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.client_id, pos = read_compact_string(buf, pos)
    if o.client_id is None:
        null_field('ClientId')
    o.client_host, pos = read_compact_string(buf, pos)
    if o.client_host is None:
        null_field('ClientHost')
    o.member_metadata, pos = read_compact_bytes(buf, pos)
    if o.member_metadata is None:
        null_field('MemberMetadata')
    o.member_assignment, pos = read_compact_bytes(buf, pos)
    if o.member_assignment is None:
        null_field('MemberAssignment')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribedGroup_3(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    o.error_message = None
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_compact_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.protocol_data, pos = read_compact_string(buf, pos)
    if o.protocol_data is None:
        null_field('ProtocolData')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroupMember_2(buf, pos)
            append(x)
        o.members = items
    (o.authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeGroupsResponse_4(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 12)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_3(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribedGroup_4(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_compact_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.protocol_data, pos = read_compact_string(buf, pos)
    if o.protocol_data is None:
        null_field('ProtocolData')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroupMember_2(buf, pos)
            append(x)
        o.members = items
    (o.authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeGroupsResponse_5(buf: Buffer, pos: int) -> tuple[DescribeGroupsResponse, int]:
    o = DescribeGroupsResponse.__new__(DescribeGroupsResponse)
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_4(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribedGroupMember_0(o: DescribedGroupMember, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.client_id))
    out.append(enc_string(o.client_host))
    out.append(enc_bytes(o.member_metadata))
    out.append(enc_bytes(o.member_assignment))


def _encode_DescribedGroup_0(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_string(o.group_id))
    out.append(enc_string(o.group_state))
    out.append(enc_string(o.protocol_type))
    out.append(enc_string(o.protocol_data))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroupMember_0(x, out)


def _encode_DescribeGroupsResponse_0(o: DescribeGroupsResponse, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_0(x, out)


def _encode_DescribeGroupsResponse_1(o: DescribeGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_0(x, out)


def _encode_DescribedGroup_1(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_string(o.group_id))
    out.append(enc_string(o.group_state))
    out.append(enc_string(o.protocol_type))
    out.append(enc_string(o.protocol_data))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroupMember_0(x, out)
    out.append(_S1.pack(o.authorized_operations))


def _encode_DescribeGroupsResponse_2(o: DescribeGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_1(x, out)


def _encode_DescribedGroupMember_1(o: DescribedGroupMember, out: list[Any]) -> None:
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    out.append(enc_string(o.client_id))
    out.append(enc_string(o.client_host))
    out.append(enc_bytes(o.member_metadata))
    out.append(enc_bytes(o.member_assignment))


def _encode_DescribedGroup_2(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_string(o.group_id))
    out.append(enc_string(o.group_state))
    out.append(enc_string(o.protocol_type))
    out.append(enc_string(o.protocol_data))
    items = o.members
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroupMember_1(x, out)
    out.append(_S1.pack(o.authorized_operations))


def _encode_DescribeGroupsResponse_3(o: DescribeGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_2(x, out)


def _encode_DescribedGroupMember_2(o: DescribedGroupMember, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_string(o.client_id))
    out.append(enc_compact_string(o.client_host))
    out.append(enc_compact_bytes(o.member_metadata))
    out.append(enc_compact_bytes(o.member_assignment))
    out.append(b'\x00')


def _encode_DescribedGroup_3(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.group_state))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_data))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroupMember_2(x, out)
    out.append(_S1.pack(o.authorized_operations))
    out.append(b'\x00')


def _encode_DescribeGroupsResponse_4(o: DescribeGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_3(x, out)
    out.append(b'\x00')


def _encode_DescribedGroup_4(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.group_state))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_data))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroupMember_2(x, out)
    out.append(_S1.pack(o.authorized_operations))
    out.append(b'\x00')


def _encode_DescribeGroupsResponse_5(o: DescribeGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_4(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeGroupsResponse_0, 1: _decode_DescribeGroupsResponse_1, 2: _decode_DescribeGroupsResponse_1, 3: _decode_DescribeGroupsResponse_2, 4: _decode_DescribeGroupsResponse_3, 5: _decode_DescribeGroupsResponse_4, 6: _decode_DescribeGroupsResponse_5}
ENCODERS = {0: _encode_DescribeGroupsResponse_0, 1: _encode_DescribeGroupsResponse_1, 2: _encode_DescribeGroupsResponse_1, 3: _encode_DescribeGroupsResponse_2, 4: _encode_DescribeGroupsResponse_3, 5: _encode_DescribeGroupsResponse_4, 6: _encode_DescribeGroupsResponse_5}
MESSAGE = DescribeGroupsResponse
