"""Generated from Kafka's RemoveRaftVoterResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'RemoveRaftVoterResponse'
API_KEY = 81
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')


class RemoveRaftVoterResponse(Struct):
    """RemoveRaftVoterResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 81
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '') -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message



def _decode_RemoveRaftVoterResponse_0(buf: Buffer, pos: int) -> tuple[RemoveRaftVoterResponse, int]:
    o = RemoveRaftVoterResponse.__new__(RemoveRaftVoterResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_RemoveRaftVoterResponse_0(o: RemoveRaftVoterResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


DECODERS = {0: _decode_RemoveRaftVoterResponse_0}
ENCODERS = {0: _encode_RemoveRaftVoterResponse_0}
MESSAGE = RemoveRaftVoterResponse
