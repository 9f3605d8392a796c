"""Generated from Kafka's UpdateRaftVoterResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'UpdateRaftVoterResponse'
API_KEY = 82
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>ii')
_S2 = struct.Struct('>i')


class UpdateRaftVoterResponse(Struct):
    """UpdateRaftVoterResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 82
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'current_leader')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, current_leader: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.current_leader = CurrentLeader() if current_leader is None else current_leader


class CurrentLeader(Struct):
    __slots__ = ('leader_id', 'leader_epoch', 'host', 'port')

    def __init__(self, leader_id: Any = -1, leader_epoch: Any = -1, host: Any = '', port: Any = 0) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.host = host
        self.port = port



def _decode_CurrentLeader_0(buf: Buffer, pos: int) -> tuple[CurrentLeader, int]:
    o = CurrentLeader.__new__(CurrentLeader)
    (o.leader_id, o.leader_epoch,) = _S1.unpack_from(buf, pos)
    pos += 8
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateRaftVoterResponse_0(buf: Buffer, pos: int) -> tuple[UpdateRaftVoterResponse, int]:
    o = UpdateRaftVoterResponse.__new__(UpdateRaftVoterResponse)
    o.current_leader = CurrentLeader()
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.current_leader, pos = _decode_CurrentLeader_0(buf, pos)
        pos = end
    return o, pos


def _encode_CurrentLeader_0(o: CurrentLeader, out: list[Any]) -> None:
    out.append(_S1.pack(o.leader_id, o.leader_epoch))
    out.append(enc_compact_string(o.host))
    out.append(_S2.pack(o.port))
    out.append(b'\x00')


def _encode_UpdateRaftVoterResponse_0(o: UpdateRaftVoterResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    tagged = []
    if o.current_leader != CurrentLeader():
        outer, out = out, []
        _encode_CurrentLeader_0(o.current_leader, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {0: _decode_UpdateRaftVoterResponse_0}
ENCODERS = {0: _encode_UpdateRaftVoterResponse_0}
MESSAGE = UpdateRaftVoterResponse
