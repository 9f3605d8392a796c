"""Generated from Kafka's DeleteGroupsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteGroupsResponse'
API_KEY = 42
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')


class DeleteGroupsResponse(Struct):
    """DeleteGroupsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 42
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'results')

    def __init__(self, throttle_time_ms: Any = 0, results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results


class DeletableGroupResult(Struct):
    __slots__ = ('group_id', 'error_code')

    def __init__(self, group_id: Any = '', error_code: Any = 0) -> None:
        self.group_id = group_id
        self.error_code = error_code



def _decode_DeletableGroupResult_0(buf: Buffer, pos: int) -> tuple[DeletableGroupResult, int]:
    o = DeletableGroupResult.__new__(DeletableGroupResult)
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DeleteGroupsResponse_0(buf: Buffer, pos: int) -> tuple[DeleteGroupsResponse, int]:
    o = DeleteGroupsResponse.__new__(DeleteGroupsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableGroupResult_0(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_DeletableGroupResult_1(buf: Buffer, pos: int) -> tuple[DeletableGroupResult, int]:
    o = DeletableGroupResult.__new__(DeletableGroupResult)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteGroupsResponse_1(buf: Buffer, pos: int) -> tuple[DeleteGroupsResponse, int]:
    o = DeleteGroupsResponse.__new__(DeleteGroupsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableGroupResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeletableGroupResult_0(o: DeletableGroupResult, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S1.pack(o.error_code))


def _encode_DeleteGroupsResponse_0(o: DeleteGroupsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeletableGroupResult_0(x, out)


def _encode_DeletableGroupResult_1(o: DeletableGroupResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_DeleteGroupsResponse_1(o: DeleteGroupsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeletableGroupResult_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DeleteGroupsResponse_0, 1: _decode_DeleteGroupsResponse_0, 2: _decode_DeleteGroupsResponse_1}
ENCODERS = {0: _encode_DeleteGroupsResponse_0, 1: _encode_DeleteGroupsResponse_0, 2: _encode_DeleteGroupsResponse_1}
MESSAGE = DeleteGroupsResponse
