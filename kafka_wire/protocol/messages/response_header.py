"""Generated from Kafka's ResponseHeader.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ResponseHeader'
API_KEY = None
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>i')


class ResponseHeader(Struct):
    """ResponseHeader (generated from Kafka's JSON message spec)."""

    VALID_VERSIONS = (0, 1)

    __slots__ = ('correlation_id',)

    def __init__(self, correlation_id: Any = 0) -> None:
        self.correlation_id = correlation_id



def _decode_ResponseHeader_0(buf: Buffer, pos: int) -> tuple[ResponseHeader, int]:
    o = ResponseHeader.__new__(ResponseHeader)
    (o.correlation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_ResponseHeader_1(buf: Buffer, pos: int) -> tuple[ResponseHeader, int]:
    o = ResponseHeader.__new__(ResponseHeader)
    (o.correlation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ResponseHeader_0(o: ResponseHeader, out: list[Any]) -> None:
    out.append(_S0.pack(o.correlation_id))


def _encode_ResponseHeader_1(o: ResponseHeader, out: list[Any]) -> None:
    out.append(_S0.pack(o.correlation_id))
    out.append(b'\x00')


DECODERS = {0: _decode_ResponseHeader_0, 1: _decode_ResponseHeader_1}
ENCODERS = {0: _encode_ResponseHeader_0, 1: _encode_ResponseHeader_1}
MESSAGE = ResponseHeader
