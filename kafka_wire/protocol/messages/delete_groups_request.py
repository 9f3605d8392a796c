"""Generated from Kafka's DeleteGroupsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteGroupsRequest'
API_KEY = 42
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)



class DeleteGroupsRequest(Struct):
    """DeleteGroupsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 42
    VALID_VERSIONS = (0, 2)

    __slots__ = ('groups_names',)

    def __init__(self, groups_names: Any = None) -> None:
        self.groups_names = [] if groups_names is None else groups_names



def _decode_DeleteGroupsRequest_0(buf: Buffer, pos: int) -> tuple[DeleteGroupsRequest, int]:
    o = DeleteGroupsRequest.__new__(DeleteGroupsRequest)
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('GroupsNames')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('GroupsNames')
            append(x)
        o.groups_names = items
    return o, pos


def _decode_DeleteGroupsRequest_1(buf: Buffer, pos: int) -> tuple[DeleteGroupsRequest, int]:
    o = DeleteGroupsRequest.__new__(DeleteGroupsRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('GroupsNames')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('GroupsNames')
            append(x)
        o.groups_names = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteGroupsRequest_0(o: DeleteGroupsRequest, out: list[Any]) -> None:
    items = o.groups_names
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))


def _encode_DeleteGroupsRequest_1(o: DeleteGroupsRequest, out: list[Any]) -> None:
    items = o.groups_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


DECODERS = {0: _decode_DeleteGroupsRequest_0, 1: _decode_DeleteGroupsRequest_0, 2: _decode_DeleteGroupsRequest_1}
ENCODERS = {0: _encode_DeleteGroupsRequest_0, 1: _encode_DeleteGroupsRequest_0, 2: _encode_DeleteGroupsRequest_1}
MESSAGE = DeleteGroupsRequest
