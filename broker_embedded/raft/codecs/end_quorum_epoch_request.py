"""Generated from Kafka's EndQuorumEpochRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'EndQuorumEpochRequest'
API_KEY = 54
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>iii')
_S1 = struct.Struct('>i16s')
_S2 = struct.Struct('>H')


class EndQuorumEpochRequest(Struct):
    """EndQuorumEpochRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 54
    VALID_VERSIONS = (0, 1)

    __slots__ = ('cluster_id', 'topics', 'leader_endpoints')

    def __init__(self, cluster_id: Any = None, topics: Any = None, leader_endpoints: Any = None) -> None:
        self.cluster_id = cluster_id
        self.topics = [] if topics is None else topics
        self.leader_endpoints = [] if leader_endpoints is None else leader_endpoints


class TopicData(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'leader_id', 'leader_epoch', 'preferred_successors', 'preferred_candidates')

    def __init__(self, partition_index: Any = 0, leader_id: Any = 0, leader_epoch: Any = 0, preferred_successors: Any = None, preferred_candidates: Any = None) -> None:
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.preferred_successors = [] if preferred_successors is None else preferred_successors
        self.preferred_candidates = [] if preferred_candidates is None else preferred_candidates


class ReplicaInfo(Struct):
    __slots__ = ('candidate_id', 'candidate_directory_id')

    def __init__(self, candidate_id: Any = 0, candidate_directory_id: Any = ZERO_UUID) -> None:
        self.candidate_id = candidate_id
        self.candidate_directory_id = candidate_directory_id


class LeaderEndpoint(Struct):
    __slots__ = ('name', 'host', 'port')

    def __init__(self, name: Any = '', host: Any = '', port: Any = 0) -> None:
        self.name = name
        self.host = host
        self.port = port



def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.preferred_candidates = []
    (o.partition_index, o.leader_id, o.leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 12
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('PreferredSuccessors')
    else:
        o.preferred_successors = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_TopicData_0(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_EndQuorumEpochRequest_0(buf: Buffer, pos: int) -> tuple[EndQuorumEpochRequest, int]:
    o = EndQuorumEpochRequest.__new__(EndQuorumEpochRequest)
    o.leader_endpoints = []
    o.cluster_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ReplicaInfo_0(buf: Buffer, pos: int) -> tuple[ReplicaInfo, int]:
    o = ReplicaInfo.__new__(ReplicaInfo)
    (o.candidate_id, o.candidate_directory_id,) = _S1.unpack_from(buf, pos)
    pos += 20
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_1(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.preferred_successors = []
    (o.partition_index, o.leader_id, o.leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 12
    n, pos = read_compact_array_len(buf, pos, 21)
    if n < 0:
        null_field('PreferredCandidates')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaInfo_0(buf, pos)
            append(x)
        o.preferred_candidates = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_1(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaderEndpoint_0(buf: Buffer, pos: int) -> tuple[LeaderEndpoint, int]:
    o = LeaderEndpoint.__new__(LeaderEndpoint)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S2.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_EndQuorumEpochRequest_1(buf: Buffer, pos: int) -> tuple[EndQuorumEpochRequest, int]:
    o = EndQuorumEpochRequest.__new__(EndQuorumEpochRequest)
    o.cluster_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_1(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('LeaderEndpoints')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_LeaderEndpoint_0(buf, pos)
            append(x)
        o.leader_endpoints = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.leader_id, o.leader_epoch))
    items = o.preferred_successors
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_string(o.topic_name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)


def _encode_EndQuorumEpochRequest_0(o: EndQuorumEpochRequest, out: list[Any]) -> None:
    out.append(enc_string(o.cluster_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)


def _encode_ReplicaInfo_0(o: ReplicaInfo, out: list[Any]) -> None:
    out.append(_S1.pack(o.candidate_id, o.candidate_directory_id))
    out.append(b'\x00')


def _encode_PartitionData_1(o: PartitionData, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.leader_id, o.leader_epoch))
    items = o.preferred_candidates
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaInfo_0(x, out)
    out.append(b'\x00')


def _encode_TopicData_1(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_1(x, out)
    out.append(b'\x00')


def _encode_LeaderEndpoint_0(o: LeaderEndpoint, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.host))
    out.append(_S2.pack(o.port))
    out.append(b'\x00')


def _encode_EndQuorumEpochRequest_1(o: EndQuorumEpochRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_1(x, out)
    items = o.leader_endpoints
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_LeaderEndpoint_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_EndQuorumEpochRequest_0, 1: _decode_EndQuorumEpochRequest_1}
ENCODERS = {0: _encode_EndQuorumEpochRequest_0, 1: _encode_EndQuorumEpochRequest_1}
MESSAGE = EndQuorumEpochRequest
