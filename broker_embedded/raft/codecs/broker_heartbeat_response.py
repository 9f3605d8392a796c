"""Generated from Kafka's BrokerHeartbeatResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'BrokerHeartbeatResponse'
API_KEY = 63
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih???')


class BrokerHeartbeatResponse(Struct):
    """BrokerHeartbeatResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 63
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'is_caught_up', 'is_fenced', 'should_shut_down')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, is_caught_up: Any = False, is_fenced: Any = True, should_shut_down: Any = False) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.is_caught_up = is_caught_up
        self.is_fenced = is_fenced
        self.should_shut_down = should_shut_down



def _decode_BrokerHeartbeatResponse_0(buf: Buffer, pos: int) -> tuple[BrokerHeartbeatResponse, int]:
    o = BrokerHeartbeatResponse.__new__(BrokerHeartbeatResponse)
    (o.throttle_time_ms, o.error_code, o.is_caught_up, o.is_fenced, o.should_shut_down,) = _S0.unpack_from(buf, pos)
    pos += 9
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_BrokerHeartbeatResponse_0(o: BrokerHeartbeatResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code, o.is_caught_up, o.is_fenced, o.should_shut_down))
    out.append(b'\x00')


DECODERS = {0: _decode_BrokerHeartbeatResponse_0, 1: _decode_BrokerHeartbeatResponse_0, 2: _decode_BrokerHeartbeatResponse_0}
ENCODERS = {0: _encode_BrokerHeartbeatResponse_0, 1: _encode_BrokerHeartbeatResponse_0, 2: _encode_BrokerHeartbeatResponse_0}
MESSAGE = BrokerHeartbeatResponse
