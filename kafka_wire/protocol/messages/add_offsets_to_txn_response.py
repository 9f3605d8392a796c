"""Generated from Kafka's AddOffsetsToTxnResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AddOffsetsToTxnResponse'
API_KEY = 25
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>ih')


class AddOffsetsToTxnResponse(Struct):
    """AddOffsetsToTxnResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 25
    VALID_VERSIONS = (0, 4)

    __slots__ = ('throttle_time_ms', 'error_code')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code



def _decode_AddOffsetsToTxnResponse_0(buf: Buffer, pos: int) -> tuple[AddOffsetsToTxnResponse, int]:
    o = AddOffsetsToTxnResponse.__new__(AddOffsetsToTxnResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_AddOffsetsToTxnResponse_1(buf: Buffer, pos: int) -> tuple[AddOffsetsToTxnResponse, int]:
    o = AddOffsetsToTxnResponse.__new__(AddOffsetsToTxnResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AddOffsetsToTxnResponse_0(o: AddOffsetsToTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))


def _encode_AddOffsetsToTxnResponse_1(o: AddOffsetsToTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(b'\x00')


DECODERS = {0: _decode_AddOffsetsToTxnResponse_0, 1: _decode_AddOffsetsToTxnResponse_0, 2: _decode_AddOffsetsToTxnResponse_0, 3: _decode_AddOffsetsToTxnResponse_1, 4: _decode_AddOffsetsToTxnResponse_1}
ENCODERS = {0: _encode_AddOffsetsToTxnResponse_0, 1: _encode_AddOffsetsToTxnResponse_0, 2: _encode_AddOffsetsToTxnResponse_0, 3: _encode_AddOffsetsToTxnResponse_1, 4: _encode_AddOffsetsToTxnResponse_1}
MESSAGE = AddOffsetsToTxnResponse
