"""Generated from Kafka's FetchSnapshotResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FetchSnapshotResponse'
API_KEY = 59
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>qi')
_S2 = struct.Struct('>qq')
_S3 = struct.Struct('>ii')
_S4 = struct.Struct('>i')
_S5 = struct.Struct('>H')


class FetchSnapshotResponse(Struct):
    """FetchSnapshotResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 59
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'error_code', 'topics', 'node_endpoints')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, topics: Any = None, node_endpoints: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.topics = [] if topics is None else topics
        self.node_endpoints = [] if node_endpoints is None else node_endpoints


class TopicSnapshot(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class PartitionSnapshot(Struct):
    __slots__ = ('index', 'error_code', 'snapshot_id', 'current_leader', 'size', 'position', 'unaligned_records')

    def __init__(self, index: Any = 0, error_code: Any = 0, snapshot_id: Any = None, current_leader: Any = None, size: Any = 0, position: Any = 0, unaligned_records: Any = None) -> None:
        self.index = index
        self.error_code = error_code
        self.snapshot_id = SnapshotId() if snapshot_id is None else snapshot_id
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.size = size
        self.position = position
        self.unaligned_records = unaligned_records


class SnapshotId(Struct):
    __slots__ = ('end_offset', 'epoch')

    def __init__(self, end_offset: Any = 0, epoch: Any = 0) -> None:
        self.end_offset = end_offset
        self.epoch = epoch


class LeaderIdAndEpoch(Struct):
    __slots__ = ('leader_id', 'leader_epoch')

    def __init__(self, leader_id: Any = 0, leader_epoch: Any = 0) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch


class NodeEndpoint(Struct):
    __slots__ = ('node_id', 'host', 'port')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port



def _decode_SnapshotId_0(buf: Buffer, pos: int) -> tuple[SnapshotId, int]:
    o = SnapshotId.__new__(SnapshotId)
    (o.end_offset, o.epoch,) = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaderIdAndEpoch_0(buf: Buffer, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    o = LeaderIdAndEpoch.__new__(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionSnapshot_0(buf: Buffer, pos: int) -> tuple[PartitionSnapshot, int]:
    o = PartitionSnapshot.__new__(PartitionSnapshot)
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.snapshot_id, pos = _decode_SnapshotId_0(buf, pos)
    (o.size, o.position,) = _S2.unpack_from(buf, pos)
    pos += 16
    o.unaligned_records, pos = read_compact_records(buf, pos)
    if o.unaligned_records is None:
        null_field('UnalignedRecords')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.current_leader, pos = _decode_LeaderIdAndEpoch_0(buf, pos)
        pos = end
    return o, pos


def _decode_TopicSnapshot_0(buf: Buffer, pos: int) -> tuple[TopicSnapshot, int]:
    o = TopicSnapshot.__new__(TopicSnapshot)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 37)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionSnapshot_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchSnapshotResponse_0(buf: Buffer, pos: int) -> tuple[FetchSnapshotResponse, int]:
    o = FetchSnapshotResponse.__new__(FetchSnapshotResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicSnapshot_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_NodeEndpoint_0(buf: Buffer, pos: int) -> tuple[NodeEndpoint, int]:
    o = NodeEndpoint.__new__(NodeEndpoint)
    (o.node_id,) = _S4.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S5.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchSnapshotResponse_1(buf: Buffer, pos: int) -> tuple[FetchSnapshotResponse, int]:
    o = FetchSnapshotResponse.__new__(FetchSnapshotResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicSnapshot_0(buf, pos)
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


def _encode_SnapshotId_0(o: SnapshotId, out: list[Any]) -> None:
    out.append(_S1.pack(o.end_offset, o.epoch))
    out.append(b'\x00')


def _encode_LeaderIdAndEpoch_0(o: LeaderIdAndEpoch, out: list[Any]) -> None:
    out.append(_S3.pack(o.leader_id, o.leader_epoch))
    out.append(b'\x00')


def _encode_PartitionSnapshot_0(o: PartitionSnapshot, out: list[Any]) -> None:
    out.append(_S0.pack(o.index, o.error_code))
    _encode_SnapshotId_0(o.snapshot_id, out)
    out.append(_S2.pack(o.size, o.position))
    enc_compact_records(out, o.unaligned_records)
    tagged = []
    if o.current_leader != LeaderIdAndEpoch():
        outer, out = out, []
        _encode_LeaderIdAndEpoch_0(o.current_leader, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_TopicSnapshot_0(o: TopicSnapshot, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionSnapshot_0(x, out)
    out.append(b'\x00')


def _encode_FetchSnapshotResponse_0(o: FetchSnapshotResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicSnapshot_0(x, out)
    out.append(b'\x00')


def _encode_NodeEndpoint_0(o: NodeEndpoint, out: list[Any]) -> None:
    out.append(_S4.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S5.pack(o.port))
    out.append(b'\x00')


def _encode_FetchSnapshotResponse_1(o: FetchSnapshotResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicSnapshot_0(x, out)
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


DECODERS = {0: _decode_FetchSnapshotResponse_0, 1: _decode_FetchSnapshotResponse_1}
ENCODERS = {0: _encode_FetchSnapshotResponse_0, 1: _encode_FetchSnapshotResponse_1}
MESSAGE = FetchSnapshotResponse
