"""Generated from Kafka's SaslHandshakeResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SaslHandshakeResponse'
API_KEY = 17
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = None

_S0 = struct.Struct('>h')


class SaslHandshakeResponse(Struct):
    """SaslHandshakeResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 17
    VALID_VERSIONS = (0, 1)

    __slots__ = ('error_code', 'mechanisms')

    def __init__(self, error_code: Any = 0, mechanisms: Any = None) -> None:
        self.error_code = error_code
        self.mechanisms = [] if mechanisms is None else mechanisms



def _decode_SaslHandshakeResponse_0(buf: Buffer, pos: int) -> tuple[SaslHandshakeResponse, int]:
    o = SaslHandshakeResponse.__new__(SaslHandshakeResponse)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Mechanisms')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Mechanisms')
            append(x)
        o.mechanisms = items
    return o, pos


def _encode_SaslHandshakeResponse_0(o: SaslHandshakeResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.mechanisms
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))


DECODERS = {0: _decode_SaslHandshakeResponse_0, 1: _decode_SaslHandshakeResponse_0}
ENCODERS = {0: _encode_SaslHandshakeResponse_0, 1: _encode_SaslHandshakeResponse_0}
MESSAGE = SaslHandshakeResponse
