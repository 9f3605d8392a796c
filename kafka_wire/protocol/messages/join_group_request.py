"""Generated from Kafka's JoinGroupRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'JoinGroupRequest'
API_KEY = 11
VALID_VERSIONS = (0, 9)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ii')


class JoinGroupRequest(Struct):
    """JoinGroupRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 11
    VALID_VERSIONS = (0, 9)

    __slots__ = ('group_id', 'session_timeout_ms', 'rebalance_timeout_ms', 'member_id', 'group_instance_id', 'protocol_type', 'protocols', 'reason')

    def __init__(self, group_id: Any = '', session_timeout_ms: Any = 0, rebalance_timeout_ms: Any = -1, member_id: Any = '', group_instance_id: Any = None, protocol_type: Any = '', protocols: Any = None, reason: Any = None) -> None:
        self.group_id = group_id
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.protocol_type = protocol_type
        self.protocols = [] if protocols is None else protocols
        self.reason = reason


class JoinGroupRequestProtocol(Struct):
    __slots__ = ('name', 'metadata')

    def __init__(self, name: Any = '', metadata: Any = b'') -> None:
        self.name = name
        self.metadata = metadata



def _decode_JoinGroupRequestProtocol_0(buf: Buffer, pos: int) -> tuple[JoinGroupRequestProtocol, int]:
    o = JoinGroupRequestProtocol.__new__(JoinGroupRequestProtocol)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.metadata, pos = read_bytes(buf, pos)
    if o.metadata is None:
        null_field('Metadata')
    return o, pos


def _decode_JoinGroupRequest_0(buf: Buffer, pos: int) -> tuple[JoinGroupRequest, int]:
    o = JoinGroupRequest.__new__(JoinGroupRequest)
    o.rebalance_timeout_ms = -1
    o.group_instance_id = None
    o.reason = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.session_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Protocols')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupRequestProtocol_0(buf, pos)
            append(x)
        o.protocols = items
    return o, pos


def _decode_JoinGroupRequest_1(buf: Buffer, pos: int) -> tuple[JoinGroupRequest, int]:
    o = JoinGroupRequest.__new__(JoinGroupRequest)
    o.group_instance_id = None
    o.reason = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Protocols')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupRequestProtocol_0(buf, pos)
            append(x)
        o.protocols = items
    return o, pos


def _decode_JoinGroupRequest_2(buf: Buffer, pos: int) -> tuple[JoinGroupRequest, int]:
    o = JoinGroupRequest.__new__(JoinGroupRequest)
    o.reason = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    o.protocol_type, pos = read_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Protocols')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupRequestProtocol_0(buf, pos)
            append(x)
        o.protocols = items
    return o, pos


def _decode_JoinGroupRequestProtocol_1(buf: Buffer, pos: int) -> tuple[JoinGroupRequestProtocol, int]:
    o = JoinGroupRequestProtocol.__new__(JoinGroupRequestProtocol)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.metadata, pos = read_compact_bytes(buf, pos)
    if o.metadata is None:
        null_field('Metadata')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_JoinGroupRequest_3(buf: Buffer, pos: int) -> tuple[JoinGroupRequest, int]:
    o = JoinGroupRequest.__new__(JoinGroupRequest)
    o.reason = None
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Protocols')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupRequestProtocol_1(buf, pos)
            append(x)
        o.protocols = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_JoinGroupRequest_4(buf: Buffer, pos: int) -> tuple[JoinGroupRequest, int]:
    o = JoinGroupRequest.__new__(JoinGroupRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.session_timeout_ms, o.rebalance_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    o.protocol_type, pos = read_compact_string(buf, pos)
    if o.protocol_type is None:
        null_field('ProtocolType')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Protocols')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_JoinGroupRequestProtocol_1(buf, pos)
            append(x)
        o.protocols = items
    o.reason, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_JoinGroupRequestProtocol_0(o: JoinGroupRequestProtocol, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_bytes(o.metadata))


def _encode_JoinGroupRequest_0(o: JoinGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.session_timeout_ms))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.protocol_type))
    items = o.protocols
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupRequestProtocol_0(x, out)


def _encode_JoinGroupRequest_1(o: JoinGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.protocol_type))
    items = o.protocols
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupRequestProtocol_0(x, out)


def _encode_JoinGroupRequest_2(o: JoinGroupRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    out.append(enc_string(o.protocol_type))
    items = o.protocols
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupRequestProtocol_0(x, out)


def _encode_JoinGroupRequestProtocol_1(o: JoinGroupRequestProtocol, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_bytes(o.metadata))
    out.append(b'\x00')


def _encode_JoinGroupRequest_3(o: JoinGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_string(o.protocol_type))
    items = o.protocols
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupRequestProtocol_1(x, out)
    out.append(b'\x00')


def _encode_JoinGroupRequest_4(o: JoinGroupRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S1.pack(o.session_timeout_ms, o.rebalance_timeout_ms))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    out.append(enc_compact_string(o.protocol_type))
    items = o.protocols
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_JoinGroupRequestProtocol_1(x, out)
    out.append(enc_compact_string(o.reason))
    out.append(b'\x00')


DECODERS = {0: _decode_JoinGroupRequest_0, 1: _decode_JoinGroupRequest_1, 2: _decode_JoinGroupRequest_1, 3: _decode_JoinGroupRequest_1, 4: _decode_JoinGroupRequest_1, 5: _decode_JoinGroupRequest_2, 6: _decode_JoinGroupRequest_3, 7: _decode_JoinGroupRequest_3, 8: _decode_JoinGroupRequest_4, 9: _decode_JoinGroupRequest_4}
ENCODERS = {0: _encode_JoinGroupRequest_0, 1: _encode_JoinGroupRequest_1, 2: _encode_JoinGroupRequest_1, 3: _encode_JoinGroupRequest_1, 4: _encode_JoinGroupRequest_1, 5: _encode_JoinGroupRequest_2, 6: _encode_JoinGroupRequest_3, 7: _encode_JoinGroupRequest_3, 8: _encode_JoinGroupRequest_4, 9: _encode_JoinGroupRequest_4}
MESSAGE = JoinGroupRequest
