"""Generated from Kafka's HeartbeatResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'HeartbeatResponse'
API_KEY = 12
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ih')


class HeartbeatResponse(Struct):
    """HeartbeatResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 12
    VALID_VERSIONS = (0, 4)

    __slots__ = ('throttle_time_ms', 'error_code')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code



def _decode_HeartbeatResponse_0(buf: Buffer, pos: int) -> tuple[HeartbeatResponse, int]:
    o = HeartbeatResponse.__new__(HeartbeatResponse)
    o.throttle_time_ms = 0
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_HeartbeatResponse_1(buf: Buffer, pos: int) -> tuple[HeartbeatResponse, int]:
    o = HeartbeatResponse.__new__(HeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_HeartbeatResponse_2(buf: Buffer, pos: int) -> tuple[HeartbeatResponse, int]:
    o = HeartbeatResponse.__new__(HeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_HeartbeatResponse_0(o: HeartbeatResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))


def _encode_HeartbeatResponse_1(o: HeartbeatResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))


def _encode_HeartbeatResponse_2(o: HeartbeatResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    out.append(b'\x00')


DECODERS = {0: _decode_HeartbeatResponse_0, 1: _decode_HeartbeatResponse_1, 2: _decode_HeartbeatResponse_1, 3: _decode_HeartbeatResponse_1, 4: _decode_HeartbeatResponse_2}
ENCODERS = {0: _encode_HeartbeatResponse_0, 1: _encode_HeartbeatResponse_1, 2: _encode_HeartbeatResponse_1, 3: _encode_HeartbeatResponse_1, 4: _encode_HeartbeatResponse_2}
MESSAGE = HeartbeatResponse
