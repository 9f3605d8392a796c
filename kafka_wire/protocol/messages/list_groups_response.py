"""Generated from Kafka's ListGroupsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListGroupsResponse'
API_KEY = 16
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ih')


class ListGroupsResponse(Struct):
    """ListGroupsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 16
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.groups = [] if groups is None else groups


class ListedGroup(Struct):
    __slots__ = ('group_id', 'protocol_type', 'group_state', 'group_type')

    def __init__(self, group_id: Any = '', protocol_type: Any = '', group_state: Any = '', group_type: Any = '') -> None:
        self.group_id = group_id
        self.protocol_type = protocol_type
        self.group_state = group_state
        self.group_type = group_type



def _decode_ListedGroup_0(buf: Buffer, pos: int) -> tuple[ListedGroup, int]:
    o = ListedGroup.__new__(ListedGroup)
    o.group_state = ''
    o.group_type = ''
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    return o, pos


def _decode_ListGroupsResponse_0(buf: Buffer, pos: int) -> tuple[ListGroupsResponse, int]:
    o = ListGroupsResponse.__new__(ListGroupsResponse)
    o.throttle_time_ms = 0
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListedGroup_0(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_ListGroupsResponse_1(buf: Buffer, pos: int) -> tuple[ListGroupsResponse, int]:
    o = ListGroupsResponse.__new__(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListedGroup_0(buf, pos)
            append(x)
        o.groups = items
    return o, pos


def _decode_ListedGroup_1(buf: Buffer, pos: int) -> tuple[ListedGroup, int]:
    o = ListedGroup.__new__(ListedGroup)
    o.group_state = ''
    o.group_type = ''
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListGroupsResponse_2(buf: Buffer, pos: int) -> tuple[ListGroupsResponse, int]:
    o = ListGroupsResponse.__new__(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListedGroup_1(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListedGroup_2(buf: Buffer, pos: int) -> tuple[ListedGroup, int]:
    o = ListedGroup.__new__(ListedGroup)
    o.group_type = ''
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.group_state, pos = read_compact_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListGroupsResponse_3(buf: Buffer, pos: int) -> tuple[ListGroupsResponse, int]:
    o = ListGroupsResponse.__new__(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListedGroup_2(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListedGroup_3(buf: Buffer, pos: int) -> tuple[ListedGroup, int]:
    o = ListedGroup.__new__(ListedGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    o.group_state, pos = read_compact_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    o.group_type, pos = read_compact_string(buf, pos)
    if o.group_type is None:
        null_field('GroupType')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListGroupsResponse_4(buf: Buffer, pos: int) -> tuple[ListGroupsResponse, int]:
    o = ListGroupsResponse.__new__(ListGroupsResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListedGroup_3(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListedGroup_0(o: ListedGroup, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(enc_string(o.protocol_type))


def _encode_ListGroupsResponse_0(o: ListGroupsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListedGroup_0(x, out)


def _encode_ListGroupsResponse_1(o: ListGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListedGroup_0(x, out)


def _encode_ListedGroup_1(o: ListedGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(b'\x00')


def _encode_ListGroupsResponse_2(o: ListGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListedGroup_1(x, out)
    out.append(b'\x00')


def _encode_ListedGroup_2(o: ListedGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.group_state))
    out.append(b'\x00')


def _encode_ListGroupsResponse_3(o: ListGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListedGroup_2(x, out)
    out.append(b'\x00')


def _encode_ListedGroup_3(o: ListedGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.group_state))
    out.append(enc_compact_string(o.group_type))
    out.append(b'\x00')


def _encode_ListGroupsResponse_4(o: ListGroupsResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListedGroup_3(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ListGroupsResponse_0, 1: _decode_ListGroupsResponse_1, 2: _decode_ListGroupsResponse_1, 3: _decode_ListGroupsResponse_2, 4: _decode_ListGroupsResponse_3, 5: _decode_ListGroupsResponse_4}
ENCODERS = {0: _encode_ListGroupsResponse_0, 1: _encode_ListGroupsResponse_1, 2: _encode_ListGroupsResponse_1, 3: _encode_ListGroupsResponse_2, 4: _encode_ListGroupsResponse_3, 5: _encode_ListGroupsResponse_4}
MESSAGE = ListGroupsResponse
