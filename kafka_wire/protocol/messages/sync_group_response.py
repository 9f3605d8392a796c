"""Generated from Kafka's SyncGroupResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SyncGroupResponse'
API_KEY = 14
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ih')


class SyncGroupResponse(Struct):
    """SyncGroupResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 14
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'protocol_type', 'protocol_name', 'assignment')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, protocol_type: Any = None, protocol_name: Any = None, assignment: Any = b'') -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.assignment = assignment



def _decode_SyncGroupResponse_0(buf: Buffer, pos: int) -> tuple[SyncGroupResponse, int]:
    o = SyncGroupResponse.__new__(SyncGroupResponse)
    o.throttle_time_ms = 0
    o.protocol_type = None
    o.protocol_name = None
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.assignment, pos = read_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    return o, pos


def _decode_SyncGroupResponse_1(buf: Buffer, pos: int) -> tuple[SyncGroupResponse, int]:
    o = SyncGroupResponse.__new__(SyncGroupResponse)
    o.protocol_type = None
    o.protocol_name = None
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.assignment, pos = read_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    return o, pos


def _decode_SyncGroupResponse_2(buf: Buffer, pos: int) -> tuple[SyncGroupResponse, int]:
    o = SyncGroupResponse.__new__(SyncGroupResponse)
    o.protocol_type = None
    o.protocol_name = None
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.assignment, pos = read_compact_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_SyncGroupResponse_3(buf: Buffer, pos: int) -> tuple[SyncGroupResponse, int]:
    o = SyncGroupResponse.__new__(SyncGroupResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.protocol_type, pos = read_compact_string(buf, pos)
    o.protocol_name, pos = read_compact_string(buf, pos)
    o.assignment, pos = read_compact_bytes(buf, pos)
    if o.assignment is None:
        null_field('Assignment')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_SyncGroupResponse_0(o: SyncGroupResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_bytes(o.assignment))


def _encode_SyncGroupResponse_1(o: SyncGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_bytes(o.assignment))


def _encode_SyncGroupResponse_2(o: SyncGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_bytes(o.assignment))
    out.append(b'\x00')


def _encode_SyncGroupResponse_3(o: SyncGroupResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.protocol_type))
    out.append(enc_compact_string(o.protocol_name))
    out.append(enc_compact_bytes(o.assignment))
    out.append(b'\x00')


DECODERS = {0: _decode_SyncGroupResponse_0, 1: _decode_SyncGroupResponse_1, 2: _decode_SyncGroupResponse_1, 3: _decode_SyncGroupResponse_1, 4: _decode_SyncGroupResponse_2, 5: _decode_SyncGroupResponse_3}
ENCODERS = {0: _encode_SyncGroupResponse_0, 1: _encode_SyncGroupResponse_1, 2: _encode_SyncGroupResponse_1, 3: _encode_SyncGroupResponse_1, 4: _encode_SyncGroupResponse_2, 5: _encode_SyncGroupResponse_3}
MESSAGE = SyncGroupResponse
