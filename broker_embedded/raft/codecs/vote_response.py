"""Generated from Kafka's VoteResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'VoteResponse'
API_KEY = 52
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ihii?')
_S2 = struct.Struct('>i')
_S3 = struct.Struct('>H')


class VoteResponse(Struct):
    """VoteResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 52
    VALID_VERSIONS = (0, 2)

    __slots__ = ('error_code', 'topics', 'node_endpoints')

    def __init__(self, error_code: Any = 0, topics: Any = None, node_endpoints: Any = None) -> None:
        self.error_code = error_code
        self.topics = [] if topics is None else topics
        self.node_endpoints = [] if node_endpoints is None else node_endpoints


class TopicData(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'error_code', 'leader_id', 'leader_epoch', 'vote_granted')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, leader_id: Any = 0, leader_epoch: Any = 0, vote_granted: Any = False) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.vote_granted = vote_granted


class NodeEndpoint(Struct):
    __slots__ = ('node_id', 'host', 'port')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port



def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.vote_granted,) = _S1.unpack_from(buf, pos)
    pos += 15
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_0(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 16)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_VoteResponse_0(buf: Buffer, pos: int) -> tuple[VoteResponse, int]:
    o = VoteResponse.__new__(VoteResponse)
    o.node_endpoints = []
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_NodeEndpoint_0(buf: Buffer, pos: int) -> tuple[NodeEndpoint, int]:
    o = NodeEndpoint.__new__(NodeEndpoint)
    (o.node_id,) = _S2.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_VoteResponse_1(buf: Buffer, pos: int) -> tuple[VoteResponse, int]:
    o = VoteResponse.__new__(VoteResponse)
    o.node_endpoints = []
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            n, pos = read_compact_array_len(buf, pos, 8)
            if n < 0:
                null_field('NodeEndpoints')
            else:
                items = []
                append = items.append
                for _ in range(n):
                    x, pos = _decode_NodeEndpoint_0(buf, pos)
                    append(x)
                o.node_endpoints = items
        pos = end
    return o, pos


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.vote_granted))
    out.append(b'\x00')


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_VoteResponse_0(o: VoteResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    out.append(b'\x00')


def _encode_NodeEndpoint_0(o: NodeEndpoint, out: list[Any]) -> None:
    out.append(_S2.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S3.pack(o.port))
    out.append(b'\x00')


def _encode_VoteResponse_1(o: VoteResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    tagged = []
    if o.node_endpoints:
        outer, out = out, []
        items = o.node_endpoints
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                _encode_NodeEndpoint_0(x, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {0: _decode_VoteResponse_0, 1: _decode_VoteResponse_1, 2: _decode_VoteResponse_1}
ENCODERS = {0: _encode_VoteResponse_0, 1: _encode_VoteResponse_1, 2: _encode_VoteResponse_1}
MESSAGE = VoteResponse
