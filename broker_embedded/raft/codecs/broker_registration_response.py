"""Generated from Kafka's BrokerRegistrationResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'BrokerRegistrationResponse'
API_KEY = 62
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ihq')


class BrokerRegistrationResponse(Struct):
    """BrokerRegistrationResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 62
    VALID_VERSIONS = (0, 4)

    __slots__ = ('throttle_time_ms', 'error_code', 'broker_epoch')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, broker_epoch: Any = -1) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.broker_epoch = broker_epoch



def _decode_BrokerRegistrationResponse_0(buf: Buffer, pos: int) -> tuple[BrokerRegistrationResponse, int]:
    o = BrokerRegistrationResponse.__new__(BrokerRegistrationResponse)
    (o.throttle_time_ms, o.error_code, o.broker_epoch,) = _S0.unpack_from(buf, pos)
    pos += 14
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_BrokerRegistrationResponse_0(o: BrokerRegistrationResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code, o.broker_epoch))
    out.append(b'\x00')


DECODERS = {0: _decode_BrokerRegistrationResponse_0, 1: _decode_BrokerRegistrationResponse_0, 2: _decode_BrokerRegistrationResponse_0, 3: _decode_BrokerRegistrationResponse_0, 4: _decode_BrokerRegistrationResponse_0}
ENCODERS = {0: _encode_BrokerRegistrationResponse_0, 1: _encode_BrokerRegistrationResponse_0, 2: _encode_BrokerRegistrationResponse_0, 3: _encode_BrokerRegistrationResponse_0, 4: _encode_BrokerRegistrationResponse_0}
MESSAGE = BrokerRegistrationResponse
