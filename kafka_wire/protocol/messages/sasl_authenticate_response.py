"""Generated from Kafka's SaslAuthenticateResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SaslAuthenticateResponse'
API_KEY = 36
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>q')


class SaslAuthenticateResponse(Struct):
    """SaslAuthenticateResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 36
    VALID_VERSIONS = (0, 2)

    __slots__ = ('error_code', 'error_message', 'auth_bytes', 'session_lifetime_ms')

    def __init__(self, error_code: Any = 0, error_message: Any = '', auth_bytes: Any = b'', session_lifetime_ms: Any = 0) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.auth_bytes = auth_bytes
        self.session_lifetime_ms = session_lifetime_ms



def _decode_SaslAuthenticateResponse_0(buf: Buffer, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    o = SaslAuthenticateResponse.__new__(SaslAuthenticateResponse)
    o.session_lifetime_ms = 0
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    o.auth_bytes, pos = read_bytes(buf, pos)
    if o.auth_bytes is None:
        null_field('AuthBytes')
    return o, pos


def _decode_SaslAuthenticateResponse_1(buf: Buffer, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    o = SaslAuthenticateResponse.__new__(SaslAuthenticateResponse)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    o.auth_bytes, pos = read_bytes(buf, pos)
    if o.auth_bytes is None:
        null_field('AuthBytes')
    (o.session_lifetime_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    return o, pos


def _decode_SaslAuthenticateResponse_2(buf: Buffer, pos: int) -> tuple[SaslAuthenticateResponse, int]:
    o = SaslAuthenticateResponse.__new__(SaslAuthenticateResponse)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    o.auth_bytes, pos = read_compact_bytes(buf, pos)
    if o.auth_bytes is None:
        null_field('AuthBytes')
    (o.session_lifetime_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_SaslAuthenticateResponse_0(o: SaslAuthenticateResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(enc_bytes(o.auth_bytes))


def _encode_SaslAuthenticateResponse_1(o: SaslAuthenticateResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(enc_bytes(o.auth_bytes))
    out.append(_S1.pack(o.session_lifetime_ms))


def _encode_SaslAuthenticateResponse_2(o: SaslAuthenticateResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_bytes(o.auth_bytes))
    out.append(_S1.pack(o.session_lifetime_ms))
    out.append(b'\x00')


DECODERS = {0: _decode_SaslAuthenticateResponse_0, 1: _decode_SaslAuthenticateResponse_1, 2: _decode_SaslAuthenticateResponse_2}
ENCODERS = {0: _encode_SaslAuthenticateResponse_0, 1: _encode_SaslAuthenticateResponse_1, 2: _encode_SaslAuthenticateResponse_2}
MESSAGE = SaslAuthenticateResponse
