"""Generated from Kafka's FetchSnapshotRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FetchSnapshotRequest'
API_KEY = 59
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ii')
_S1 = struct.Struct('>qi')
_S2 = struct.Struct('>q')
_S3 = struct.Struct('>16s')


class FetchSnapshotRequest(Struct):
    """FetchSnapshotRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 59
    VALID_VERSIONS = (0, 1)

    __slots__ = ('cluster_id', 'replica_id', 'max_bytes', 'topics')

    def __init__(self, cluster_id: Any = None, replica_id: Any = -1, max_bytes: Any = 2147483647, topics: Any = None) -> None:
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.max_bytes = max_bytes
        self.topics = [] if topics is None else topics


class TopicSnapshot(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class PartitionSnapshot(Struct):
    __slots__ = ('partition', 'current_leader_epoch', 'snapshot_id', 'position', 'replica_directory_id')

    def __init__(self, partition: Any = 0, current_leader_epoch: Any = 0, snapshot_id: Any = None, position: Any = 0, replica_directory_id: Any = ZERO_UUID) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.snapshot_id = SnapshotId() if snapshot_id is None else snapshot_id
        self.position = position
        self.replica_directory_id = replica_directory_id


class SnapshotId(Struct):
    __slots__ = ('end_offset', 'epoch')

    def __init__(self, end_offset: Any = 0, epoch: Any = 0) -> None:
        self.end_offset = end_offset
        self.epoch = epoch



def _decode_SnapshotId_0(buf: Buffer, pos: int) -> tuple[SnapshotId, int]:
    o = SnapshotId.__new__(SnapshotId)
    (o.end_offset, o.epoch,) = _S1.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionSnapshot_0(buf: Buffer, pos: int) -> tuple[PartitionSnapshot, int]:
    o = PartitionSnapshot.__new__(PartitionSnapshot)
    o.replica_directory_id = ZERO_UUID
    (o.partition, o.current_leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.snapshot_id, pos = _decode_SnapshotId_0(buf, pos)
    (o.position,) = _S2.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicSnapshot_0(buf: Buffer, pos: int) -> tuple[TopicSnapshot, int]:
    o = TopicSnapshot.__new__(TopicSnapshot)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 30)
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


def _decode_FetchSnapshotRequest_0(buf: Buffer, pos: int) -> tuple[FetchSnapshotRequest, int]:
    o = FetchSnapshotRequest.__new__(FetchSnapshotRequest)
    o.cluster_id = None
    (o.replica_id, o.max_bytes,) = _S0.unpack_from(buf, pos)
    pos += 8
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
            o.cluster_id, pos = read_compact_string(buf, pos)
        pos = end
    return o, pos


def _decode_PartitionSnapshot_1(buf: Buffer, pos: int) -> tuple[PartitionSnapshot, int]:
    o = PartitionSnapshot.__new__(PartitionSnapshot)
    o.replica_directory_id = ZERO_UUID
    (o.partition, o.current_leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.snapshot_id, pos = _decode_SnapshotId_0(buf, pos)
    (o.position,) = _S2.unpack_from(buf, pos)
    pos += 8
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            (o.replica_directory_id,) = _S3.unpack_from(buf, pos)
            pos += 16
        pos = end
    return o, pos


def _decode_TopicSnapshot_1(buf: Buffer, pos: int) -> tuple[TopicSnapshot, int]:
    o = TopicSnapshot.__new__(TopicSnapshot)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 30)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionSnapshot_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchSnapshotRequest_1(buf: Buffer, pos: int) -> tuple[FetchSnapshotRequest, int]:
    o = FetchSnapshotRequest.__new__(FetchSnapshotRequest)
    o.cluster_id = None
    (o.replica_id, o.max_bytes,) = _S0.unpack_from(buf, pos)
    pos += 8
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicSnapshot_1(buf, pos)
            append(x)
        o.topics = items
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        pos = end
    return o, pos


def _encode_SnapshotId_0(o: SnapshotId, out: list[Any]) -> None:
    out.append(_S1.pack(o.end_offset, o.epoch))
    out.append(b'\x00')


def _encode_PartitionSnapshot_0(o: PartitionSnapshot, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition, o.current_leader_epoch))
    _encode_SnapshotId_0(o.snapshot_id, out)
    out.append(_S2.pack(o.position))
    out.append(b'\x00')


def _encode_TopicSnapshot_0(o: TopicSnapshot, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionSnapshot_0(x, out)
    out.append(b'\x00')


def _encode_FetchSnapshotRequest_0(o: FetchSnapshotRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.replica_id, o.max_bytes))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicSnapshot_0(x, out)
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_PartitionSnapshot_1(o: PartitionSnapshot, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition, o.current_leader_epoch))
    _encode_SnapshotId_0(o.snapshot_id, out)
    out.append(_S2.pack(o.position))
    tagged = []
    if o.replica_directory_id != ZERO_UUID:
        outer, out = out, []
        out.append(_S3.pack(o.replica_directory_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_TopicSnapshot_1(o: TopicSnapshot, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionSnapshot_1(x, out)
    out.append(b'\x00')


def _encode_FetchSnapshotRequest_1(o: FetchSnapshotRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.replica_id, o.max_bytes))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicSnapshot_1(x, out)
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {0: _decode_FetchSnapshotRequest_0, 1: _decode_FetchSnapshotRequest_1}
ENCODERS = {0: _encode_FetchSnapshotRequest_0, 1: _encode_FetchSnapshotRequest_1}
MESSAGE = FetchSnapshotRequest
