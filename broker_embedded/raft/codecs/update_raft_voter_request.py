"""Generated from Kafka's UpdateRaftVoterRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'UpdateRaftVoterRequest'
API_KEY = 82
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ii16s')
_S1 = struct.Struct('>H')
_S2 = struct.Struct('>hh')


class UpdateRaftVoterRequest(Struct):
    """UpdateRaftVoterRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 82
    VALID_VERSIONS = (0, 0)

    __slots__ = ('cluster_id', 'current_leader_epoch', 'voter_id', 'voter_directory_id', 'listeners', 'k_raft_version_feature')

    def __init__(self, cluster_id: Any = '', current_leader_epoch: Any = 0, voter_id: Any = 0, voter_directory_id: Any = ZERO_UUID, listeners: Any = None, k_raft_version_feature: Any = None) -> None:
        self.cluster_id = cluster_id
        self.current_leader_epoch = current_leader_epoch
        self.voter_id = voter_id
        self.voter_directory_id = voter_directory_id
        self.listeners = [] if listeners is None else listeners
        self.k_raft_version_feature = KRaftVersionFeature() if k_raft_version_feature is None else k_raft_version_feature


class Listener(Struct):
    __slots__ = ('name', 'host', 'port')

    def __init__(self, name: Any = '', host: Any = '', port: Any = 0) -> None:
        self.name = name
        self.host = host
        self.port = port


class KRaftVersionFeature(Struct):
    __slots__ = ('min_supported_version', 'max_supported_version')

    def __init__(self, min_supported_version: Any = 0, max_supported_version: Any = 0) -> None:
        self.min_supported_version = min_supported_version
        self.max_supported_version = max_supported_version



def _decode_Listener_0(buf: Buffer, pos: int) -> tuple[Listener, int]:
    o = Listener.__new__(Listener)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_KRaftVersionFeature_0(buf: Buffer, pos: int) -> tuple[KRaftVersionFeature, int]:
    o = KRaftVersionFeature.__new__(KRaftVersionFeature)
    (o.min_supported_version, o.max_supported_version,) = _S2.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateRaftVoterRequest_0(buf: Buffer, pos: int) -> tuple[UpdateRaftVoterRequest, int]:
    o = UpdateRaftVoterRequest.__new__(UpdateRaftVoterRequest)
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.current_leader_epoch, o.voter_id, o.voter_directory_id,) = _S0.unpack_from(buf, pos)
    pos += 24
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    o.k_raft_version_feature, pos = _decode_KRaftVersionFeature_0(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_Listener_0(o: Listener, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(b'\x00')


def _encode_KRaftVersionFeature_0(o: KRaftVersionFeature, out: list[Any]) -> None:
    out.append(_S2.pack(o.min_supported_version, o.max_supported_version))
    out.append(b'\x00')


def _encode_UpdateRaftVoterRequest_0(o: UpdateRaftVoterRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.current_leader_epoch, o.voter_id, o.voter_directory_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    _encode_KRaftVersionFeature_0(o.k_raft_version_feature, out)
    out.append(b'\x00')


DECODERS = {0: _decode_UpdateRaftVoterRequest_0}
ENCODERS = {0: _encode_UpdateRaftVoterRequest_0}
MESSAGE = UpdateRaftVoterRequest
