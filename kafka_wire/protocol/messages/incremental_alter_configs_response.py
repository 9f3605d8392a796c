"""Generated from Kafka's IncrementalAlterConfigsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'IncrementalAlterConfigsResponse'
API_KEY = 44
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>b')


class IncrementalAlterConfigsResponse(Struct):
    """IncrementalAlterConfigsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 44
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'responses')

    def __init__(self, throttle_time_ms: Any = 0, responses: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is None else responses


class AlterConfigsResourceResponse(Struct):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name')

    def __init__(self, error_code: Any = 0, error_message: Any = '', resource_type: Any = 0, resource_name: Any = '') -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name



def _decode_AlterConfigsResourceResponse_0(buf: Buffer, pos: int) -> tuple[AlterConfigsResourceResponse, int]:
    o = AlterConfigsResourceResponse.__new__(AlterConfigsResourceResponse)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    return o, pos


def _decode_IncrementalAlterConfigsResponse_0(buf: Buffer, pos: int) -> tuple[IncrementalAlterConfigsResponse, int]:
    o = IncrementalAlterConfigsResponse.__new__(IncrementalAlterConfigsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 7)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterConfigsResourceResponse_0(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_AlterConfigsResourceResponse_1(buf: Buffer, pos: int) -> tuple[AlterConfigsResourceResponse, int]:
    o = AlterConfigsResourceResponse.__new__(AlterConfigsResourceResponse)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_IncrementalAlterConfigsResponse_1(buf: Buffer, pos: int) -> tuple[IncrementalAlterConfigsResponse, int]:
    o = IncrementalAlterConfigsResponse.__new__(IncrementalAlterConfigsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterConfigsResourceResponse_1(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterConfigsResourceResponse_0(o: AlterConfigsResourceResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_string(o.resource_name))


def _encode_IncrementalAlterConfigsResponse_0(o: IncrementalAlterConfigsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterConfigsResourceResponse_0(x, out)


def _encode_AlterConfigsResourceResponse_1(o: AlterConfigsResourceResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    out.append(b'\x00')


def _encode_IncrementalAlterConfigsResponse_1(o: IncrementalAlterConfigsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterConfigsResourceResponse_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_IncrementalAlterConfigsResponse_0, 1: _decode_IncrementalAlterConfigsResponse_1}
ENCODERS = {0: _encode_IncrementalAlterConfigsResponse_0, 1: _encode_IncrementalAlterConfigsResponse_1}
MESSAGE = IncrementalAlterConfigsResponse
