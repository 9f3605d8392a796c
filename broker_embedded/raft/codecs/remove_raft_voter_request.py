"""Generated from Kafka's RemoveRaftVoterRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'RemoveRaftVoterRequest'
API_KEY = 81
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i16s')


class RemoveRaftVoterRequest(Struct):
    """RemoveRaftVoterRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 81
    VALID_VERSIONS = (0, 0)

    __slots__ = ('cluster_id', 'voter_id', 'voter_directory_id')

    def __init__(self, cluster_id: Any = '', voter_id: Any = 0, voter_directory_id: Any = ZERO_UUID) -> None:
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id



def _decode_RemoveRaftVoterRequest_0(buf: Buffer, pos: int) -> tuple[RemoveRaftVoterRequest, int]:
    o = RemoveRaftVoterRequest.__new__(RemoveRaftVoterRequest)
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.voter_id, o.voter_directory_id,) = _S0.unpack_from(buf, pos)
    pos += 20
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_RemoveRaftVoterRequest_0(o: RemoveRaftVoterRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.voter_id, o.voter_directory_id))
    out.append(b'\x00')


DECODERS = {0: _decode_RemoveRaftVoterRequest_0}
ENCODERS = {0: _encode_RemoveRaftVoterRequest_0}
MESSAGE = RemoveRaftVoterRequest
