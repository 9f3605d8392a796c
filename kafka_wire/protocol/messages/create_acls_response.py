"""Generated from Kafka's CreateAclsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'CreateAclsResponse'
API_KEY = 30
VALID_VERSIONS = (1, 3)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')


class CreateAclsResponse(Struct):
    """CreateAclsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 30
    VALID_VERSIONS = (1, 3)

    __slots__ = ('throttle_time_ms', 'results')

    def __init__(self, throttle_time_ms: Any = 0, results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results


class AclCreationResult(Struct):
    __slots__ = ('error_code', 'error_message')

    def __init__(self, error_code: Any = 0, error_message: Any = '') -> None:
        self.error_code = error_code
        self.error_message = error_message



def _decode_AclCreationResult_0(buf: Buffer, pos: int) -> tuple[AclCreationResult, int]:
    o = AclCreationResult.__new__(AclCreationResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    return o, pos


def _decode_CreateAclsResponse_0(buf: Buffer, pos: int) -> tuple[CreateAclsResponse, int]:
    o = CreateAclsResponse.__new__(CreateAclsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclCreationResult_0(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_AclCreationResult_1(buf: Buffer, pos: int) -> tuple[AclCreationResult, int]:
    o = AclCreationResult.__new__(AclCreationResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreateAclsResponse_1(buf: Buffer, pos: int) -> tuple[CreateAclsResponse, int]:
    o = CreateAclsResponse.__new__(CreateAclsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AclCreationResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AclCreationResult_0(o: AclCreationResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))


def _encode_CreateAclsResponse_0(o: CreateAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AclCreationResult_0(x, out)


def _encode_AclCreationResult_1(o: AclCreationResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_CreateAclsResponse_1(o: CreateAclsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AclCreationResult_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_CreateAclsResponse_0, 2: _decode_CreateAclsResponse_1, 3: _decode_CreateAclsResponse_1}
ENCODERS = {1: _encode_CreateAclsResponse_0, 2: _encode_CreateAclsResponse_1, 3: _encode_CreateAclsResponse_1}
MESSAGE = CreateAclsResponse
