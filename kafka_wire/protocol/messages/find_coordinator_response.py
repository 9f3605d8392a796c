"""Generated from Kafka's FindCoordinatorResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FindCoordinatorResponse'
API_KEY = 10
VALID_VERSIONS = (0, 6)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>hi')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>ih')


class FindCoordinatorResponse(Struct):
    """FindCoordinatorResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 10
    VALID_VERSIONS = (0, 6)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'node_id', 'host', 'port', 'coordinators')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', node_id: Any = 0, host: Any = '', port: Any = 0, coordinators: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.node_id = node_id
        self.host = host
        self.port = port
        self.coordinators = [] if coordinators is None else coordinators


class Coordinator(Struct):
    __slots__ = ('key', 'node_id', 'host', 'port', 'error_code', 'error_message')

    def __init__(self, key: Any = '', node_id: Any = 0, host: Any = '', port: Any = 0, error_code: Any = 0, error_message: Any = '') -> None:
        self.key = key
        self.node_id = node_id
        self.host = host
        self.port = port
        self.error_code = error_code
        self.error_message = error_message



def _decode_FindCoordinatorResponse_0(buf: Buffer, pos: int) -> tuple[FindCoordinatorResponse, int]:
    o = FindCoordinatorResponse.__new__(FindCoordinatorResponse)
    o.throttle_time_ms = 0
    o.error_message = ''
    o.coordinators = []
    (o.error_code, o.node_id,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_FindCoordinatorResponse_1(buf: Buffer, pos: int) -> tuple[FindCoordinatorResponse, int]:
    o = FindCoordinatorResponse.__new__(FindCoordinatorResponse)
    o.coordinators = []
    (o.throttle_time_ms, o.error_code,) = _S2.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_string(buf, pos)
    (o.node_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_FindCoordinatorResponse_2(buf: Buffer, pos: int) -> tuple[FindCoordinatorResponse, int]:
    o = FindCoordinatorResponse.__new__(FindCoordinatorResponse)
    o.coordinators = []
    (o.throttle_time_ms, o.error_code,) = _S2.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.node_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Coordinator_0(buf: Buffer, pos: int) -> tuple[Coordinator, int]:
    o = Coordinator.__new__(Coordinator)
    o.key, pos = read_compact_string(buf, pos)
    if o.key is None:
        null_field('Key')
    (o.node_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port, o.error_code,) = _S2.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FindCoordinatorResponse_3(buf: Buffer, pos: int) -> tuple[FindCoordinatorResponse, int]:
    o = FindCoordinatorResponse.__new__(FindCoordinatorResponse)
    o.error_code = 0
    o.error_message = ''
    o.node_id = 0
    o.host = ''
    o.port = 0
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        null_field('Coordinators')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Coordinator_0(buf, pos)
            append(x)
        o.coordinators = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_FindCoordinatorResponse_0(o: FindCoordinatorResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code, o.node_id))
    out.append(enc_string(o.host))
    out.append(_S1.pack(o.port))


def _encode_FindCoordinatorResponse_1(o: FindCoordinatorResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_string(o.error_message))
    out.append(_S1.pack(o.node_id))
    out.append(enc_string(o.host))
    out.append(_S1.pack(o.port))


def _encode_FindCoordinatorResponse_2(o: FindCoordinatorResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S1.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(b'\x00')


def _encode_Coordinator_0(o: Coordinator, out: list[Any]) -> None:
    out.append(enc_compact_string(o.key))
    out.append(_S1.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S2.pack(o.port, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_FindCoordinatorResponse_3(o: FindCoordinatorResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms))
    items = o.coordinators
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Coordinator_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_FindCoordinatorResponse_0, 1: _decode_FindCoordinatorResponse_1, 2: _decode_FindCoordinatorResponse_1, 3: _decode_FindCoordinatorResponse_2, 4: _decode_FindCoordinatorResponse_3, 5: _decode_FindCoordinatorResponse_3, 6: _decode_FindCoordinatorResponse_3}
ENCODERS = {0: _encode_FindCoordinatorResponse_0, 1: _encode_FindCoordinatorResponse_1, 2: _encode_FindCoordinatorResponse_1, 3: _encode_FindCoordinatorResponse_2, 4: _encode_FindCoordinatorResponse_3, 5: _encode_FindCoordinatorResponse_3, 6: _encode_FindCoordinatorResponse_3}
MESSAGE = FindCoordinatorResponse
