"""Generated from Kafka's RequestHeader.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'RequestHeader'
API_KEY = None
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>hhi')


class RequestHeader(Struct):
    """RequestHeader (generated from Kafka's JSON message spec)."""

    VALID_VERSIONS = (1, 2)

    __slots__ = ('request_api_key', 'request_api_version', 'correlation_id', 'client_id')

    def __init__(self, request_api_key: Any = 0, request_api_version: Any = 0, correlation_id: Any = 0, client_id: Any = '') -> None:
        self.request_api_key = request_api_key
        self.request_api_version = request_api_version
        self.correlation_id = correlation_id
        self.client_id = client_id



def _decode_RequestHeader_0(buf: Buffer, pos: int) -> tuple[RequestHeader, int]:
    o = RequestHeader.__new__(RequestHeader)
    (o.request_api_key, o.request_api_version, o.correlation_id,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.client_id, pos = read_string(buf, pos)
    return o, pos


def _decode_RequestHeader_1(buf: Buffer, pos: int) -> tuple[RequestHeader, int]:
    o = RequestHeader.__new__(RequestHeader)
    (o.request_api_key, o.request_api_version, o.correlation_id,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.client_id, pos = read_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_RequestHeader_0(o: RequestHeader, out: list[Any]) -> None:
    out.append(_S0.pack(o.request_api_key, o.request_api_version, o.correlation_id))
    out.append(enc_string(o.client_id))


def _encode_RequestHeader_1(o: RequestHeader, out: list[Any]) -> None:
    out.append(_S0.pack(o.request_api_key, o.request_api_version, o.correlation_id))
    out.append(enc_string(o.client_id))
    out.append(b'\x00')


DECODERS = {1: _decode_RequestHeader_0, 2: _decode_RequestHeader_1}
ENCODERS = {1: _encode_RequestHeader_0, 2: _encode_RequestHeader_1}
MESSAGE = RequestHeader
