"""Generated from Kafka's ListGroupsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListGroupsRequest'
API_KEY = 16
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)



class ListGroupsRequest(Struct):
    """ListGroupsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 16
    VALID_VERSIONS = (0, 5)

    __slots__ = ('states_filter', 'types_filter')

    def __init__(self, states_filter: Any = None, types_filter: Any = None) -> None:
        self.states_filter = [] if states_filter is None else states_filter
        self.types_filter = [] if types_filter is None else types_filter



def _decode_ListGroupsRequest_0(buf: Buffer, pos: int) -> tuple[ListGroupsRequest, int]:
    o = ListGroupsRequest.__new__(ListGroupsRequest)
    o.states_filter = []
    o.types_filter = []
    return o, pos


def _decode_ListGroupsRequest_1(buf: Buffer, pos: int) -> tuple[ListGroupsRequest, int]:
    o = ListGroupsRequest.__new__(ListGroupsRequest)
    o.states_filter = []
    o.types_filter = []
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListGroupsRequest_2(buf: Buffer, pos: int) -> tuple[ListGroupsRequest, int]:
    o = ListGroupsRequest.__new__(ListGroupsRequest)
    o.types_filter = []
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('StatesFilter')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('StatesFilter')
            append(x)
        o.states_filter = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListGroupsRequest_3(buf: Buffer, pos: int) -> tuple[ListGroupsRequest, int]:
    o = ListGroupsRequest.__new__(ListGroupsRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('StatesFilter')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('StatesFilter')
            append(x)
        o.states_filter = items
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('TypesFilter')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('TypesFilter')
            append(x)
        o.types_filter = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListGroupsRequest_0(o: ListGroupsRequest, out: list[Any]) -> None:
    pass


def _encode_ListGroupsRequest_1(o: ListGroupsRequest, out: list[Any]) -> None:
    out.append(b'\x00')


def _encode_ListGroupsRequest_2(o: ListGroupsRequest, out: list[Any]) -> None:
    items = o.states_filter
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


def _encode_ListGroupsRequest_3(o: ListGroupsRequest, out: list[Any]) -> None:
    items = o.states_filter
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.types_filter
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(b'\x00')


DECODERS = {0: _decode_ListGroupsRequest_0, 1: _decode_ListGroupsRequest_0, 2: _decode_ListGroupsRequest_0, 3: _decode_ListGroupsRequest_1, 4: _decode_ListGroupsRequest_2, 5: _decode_ListGroupsRequest_3}
ENCODERS = {0: _encode_ListGroupsRequest_0, 1: _encode_ListGroupsRequest_0, 2: _encode_ListGroupsRequest_0, 3: _encode_ListGroupsRequest_1, 4: _encode_ListGroupsRequest_2, 5: _encode_ListGroupsRequest_3}
MESSAGE = ListGroupsRequest
