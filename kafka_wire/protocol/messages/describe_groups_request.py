"""Generated from Kafka's DescribeGroupsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeGroupsRequest'
API_KEY = 15
VALID_VERSIONS = (0, 6)
FLEXIBLE_VERSIONS = (5, 32767)

_S0 = struct.Struct('>?')


class DescribeGroupsRequest(Struct):
    """DescribeGroupsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 15
    VALID_VERSIONS = (0, 6)

    __slots__ = ('groups', 'include_authorized_operations')

    def __init__(self, groups: Any = None, include_authorized_operations: Any = False) -> None:
        self.groups = [] if groups is None else groups
        self.include_authorized_operations = include_authorized_operations



def _decode_DescribeGroupsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeGroupsRequest, int]:
    o = DescribeGroupsRequest.__new__(DescribeGroupsRequest)
    o.include_authorized_operations = False
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Groups')
            append(x)
        o.groups = items
    return o, pos


def _decode_DescribeGroupsRequest_1(buf: Buffer, pos: int) -> tuple[DescribeGroupsRequest, int]:
    o = DescribeGroupsRequest.__new__(DescribeGroupsRequest)
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Groups')
            append(x)
        o.groups = items
    (o.include_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_DescribeGroupsRequest_2(buf: Buffer, pos: int) -> tuple[DescribeGroupsRequest, int]:
    o = DescribeGroupsRequest.__new__(DescribeGroupsRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('Groups')
            append(x)
        o.groups = items
    (o.include_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeGroupsRequest_0(o: DescribeGroupsRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))


def _encode_DescribeGroupsRequest_1(o: DescribeGroupsRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(_S0.pack(o.include_authorized_operations))


def _encode_DescribeGroupsRequest_2(o: DescribeGroupsRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(_S0.pack(o.include_authorized_operations))
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeGroupsRequest_0, 1: _decode_DescribeGroupsRequest_0, 2: _decode_DescribeGroupsRequest_0, 3: _decode_DescribeGroupsRequest_1, 4: _decode_DescribeGroupsRequest_1, 5: _decode_DescribeGroupsRequest_2, 6: _decode_DescribeGroupsRequest_2}
ENCODERS = {0: _encode_DescribeGroupsRequest_0, 1: _encode_DescribeGroupsRequest_0, 2: _encode_DescribeGroupsRequest_0, 3: _encode_DescribeGroupsRequest_1, 4: _encode_DescribeGroupsRequest_1, 5: _encode_DescribeGroupsRequest_2, 6: _encode_DescribeGroupsRequest_2}
MESSAGE = DescribeGroupsRequest
