"""Generated from Kafka's StreamsGroupDescribeRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'StreamsGroupDescribeRequest'
API_KEY = 89
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>?')


class StreamsGroupDescribeRequest(Struct):
    """StreamsGroupDescribeRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 89
    VALID_VERSIONS = (0, 0)

    __slots__ = ('group_ids', 'include_authorized_operations')

    def __init__(self, group_ids: Any = None, include_authorized_operations: Any = False) -> None:
        self.group_ids = [] if group_ids is None else group_ids
        self.include_authorized_operations = include_authorized_operations



def _decode_StreamsGroupDescribeRequest_0(buf: Buffer, pos: int) -> tuple[StreamsGroupDescribeRequest, int]:
    o = StreamsGroupDescribeRequest.__new__(StreamsGroupDescribeRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('GroupIds')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('GroupIds')
            append(x)
        o.group_ids = items
    (o.include_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_StreamsGroupDescribeRequest_0(o: StreamsGroupDescribeRequest, out: list[Any]) -> None:
    items = o.group_ids
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(_S0.pack(o.include_authorized_operations))
    out.append(b'\x00')


DECODERS = {0: _decode_StreamsGroupDescribeRequest_0}
ENCODERS = {0: _encode_StreamsGroupDescribeRequest_0}
MESSAGE = StreamsGroupDescribeRequest
