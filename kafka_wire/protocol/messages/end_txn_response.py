"""Generated from Kafka's EndTxnResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'EndTxnResponse'
API_KEY = 26
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>ihqh')


class EndTxnResponse(Struct):
    """EndTxnResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 26
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'producer_id', 'producer_epoch')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, producer_id: Any = -1, producer_epoch: Any = -1) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch



def _decode_EndTxnResponse_0(buf: Buffer, pos: int) -> tuple[EndTxnResponse, int]:
    o = EndTxnResponse.__new__(EndTxnResponse)
    o.producer_id = -1
    o.producer_epoch = -1
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_EndTxnResponse_1(buf: Buffer, pos: int) -> tuple[EndTxnResponse, int]:
    o = EndTxnResponse.__new__(EndTxnResponse)
    o.producer_id = -1
    o.producer_epoch = -1
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_EndTxnResponse_2(buf: Buffer, pos: int) -> tuple[EndTxnResponse, int]:
    o = EndTxnResponse.__new__(EndTxnResponse)
    (o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch,) = _S1.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_EndTxnResponse_0(o: EndTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))


def _encode_EndTxnResponse_1(o: EndTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(b'\x00')


def _encode_EndTxnResponse_2(o: EndTxnResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch))
    out.append(b'\x00')


DECODERS = {0: _decode_EndTxnResponse_0, 1: _decode_EndTxnResponse_0, 2: _decode_EndTxnResponse_0, 3: _decode_EndTxnResponse_1, 4: _decode_EndTxnResponse_1, 5: _decode_EndTxnResponse_2}
ENCODERS = {0: _encode_EndTxnResponse_0, 1: _encode_EndTxnResponse_0, 2: _encode_EndTxnResponse_0, 3: _encode_EndTxnResponse_1, 4: _encode_EndTxnResponse_1, 5: _encode_EndTxnResponse_2}
MESSAGE = EndTxnResponse
