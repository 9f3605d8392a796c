"""Generated from Kafka's SaslAuthenticateRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SaslAuthenticateRequest'
API_KEY = 36
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)



class SaslAuthenticateRequest(Struct):
    """SaslAuthenticateRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 36
    VALID_VERSIONS = (0, 2)

    __slots__ = ('auth_bytes',)

    def __init__(self, auth_bytes: Any = b'') -> None:
        self.auth_bytes = auth_bytes



def _decode_SaslAuthenticateRequest_0(buf: Buffer, pos: int) -> tuple[SaslAuthenticateRequest, int]:
    o = SaslAuthenticateRequest.__new__(SaslAuthenticateRequest)
    o.auth_bytes, pos = read_bytes(buf, pos)
    if o.auth_bytes is None:
        null_field('AuthBytes')
    return o, pos


def _decode_SaslAuthenticateRequest_1(buf: Buffer, pos: int) -> tuple[SaslAuthenticateRequest, int]:
    o = SaslAuthenticateRequest.__new__(SaslAuthenticateRequest)
    o.auth_bytes, pos = read_compact_bytes(buf, pos)
    if o.auth_bytes is None:
        null_field('AuthBytes')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_SaslAuthenticateRequest_0(o: SaslAuthenticateRequest, out: list[Any]) -> None:
    out.append(enc_bytes(o.auth_bytes))


def _encode_SaslAuthenticateRequest_1(o: SaslAuthenticateRequest, out: list[Any]) -> None:
    out.append(enc_compact_bytes(o.auth_bytes))
    out.append(b'\x00')


DECODERS = {0: _decode_SaslAuthenticateRequest_0, 1: _decode_SaslAuthenticateRequest_0, 2: _decode_SaslAuthenticateRequest_1}
ENCODERS = {0: _encode_SaslAuthenticateRequest_0, 1: _encode_SaslAuthenticateRequest_0, 2: _encode_SaslAuthenticateRequest_1}
MESSAGE = SaslAuthenticateRequest
