"""Generated from Kafka's SaslHandshakeRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'SaslHandshakeRequest'
API_KEY = 17
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = None



class SaslHandshakeRequest(Struct):
    """SaslHandshakeRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 17
    VALID_VERSIONS = (0, 1)

    __slots__ = ('mechanism',)

    def __init__(self, mechanism: Any = '') -> None:
        self.mechanism = mechanism



def _decode_SaslHandshakeRequest_0(buf: Buffer, pos: int) -> tuple[SaslHandshakeRequest, int]:
    o = SaslHandshakeRequest.__new__(SaslHandshakeRequest)
    o.mechanism, pos = read_string(buf, pos)
    if o.mechanism is None:
        null_field('Mechanism')
    return o, pos


def _encode_SaslHandshakeRequest_0(o: SaslHandshakeRequest, out: list[Any]) -> None:
    out.append(enc_string(o.mechanism))


DECODERS = {0: _decode_SaslHandshakeRequest_0, 1: _decode_SaslHandshakeRequest_0}
ENCODERS = {0: _encode_SaslHandshakeRequest_0, 1: _encode_SaslHandshakeRequest_0}
MESSAGE = SaslHandshakeRequest
