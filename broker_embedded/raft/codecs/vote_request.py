"""Generated from Kafka's VoteRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'VoteRequest'
API_KEY = 52
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>iiiiq')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>iii16s16siq')
_S3 = struct.Struct('>iii16s16siq?')


class VoteRequest(Struct):
    """VoteRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 52
    VALID_VERSIONS = (0, 2)

    __slots__ = ('cluster_id', 'voter_id', 'topics')

    def __init__(self, cluster_id: Any = None, voter_id: Any = -1, topics: Any = None) -> None:
        self.cluster_id = cluster_id
        self.voter_id = voter_id
        self.topics = [] if topics is None else topics


class TopicData(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'replica_epoch', 'replica_id', 'replica_directory_id', 'voter_directory_id', 'last_offset_epoch', 'last_offset', 'pre_vote')

    def __init__(self, partition_index: Any = 0, replica_epoch: Any = 0, replica_id: Any = 0, replica_directory_id: Any = ZERO_UUID, voter_directory_id: Any = ZERO_UUID, last_offset_epoch: Any = 0, last_offset: Any = 0, pre_vote: Any = False) -> None:
        self.partition_index = partition_index
        self.replica_epoch = replica_epoch
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.voter_directory_id = voter_directory_id
        self.last_offset_epoch = last_offset_epoch
        self.last_offset = last_offset
        self.pre_vote = pre_vote



def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.replica_directory_id = ZERO_UUID
    o.voter_directory_id = ZERO_UUID
    o.pre_vote = False
    (o.partition_index, o.replica_epoch, o.replica_id, o.last_offset_epoch, o.last_offset,) = _S0.unpack_from(buf, pos)
    pos += 24
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
    n, pos = read_compact_array_len(buf, pos, 25)
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


def _decode_VoteRequest_0(buf: Buffer, pos: int) -> tuple[VoteRequest, int]:
    o = VoteRequest.__new__(VoteRequest)
    o.voter_id = -1
    o.cluster_id, pos = read_compact_string(buf, pos)
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


def _decode_PartitionData_1(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.pre_vote = False
    (o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset,) = _S2.unpack_from(buf, pos)
    pos += 56
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
    n, pos = read_compact_array_len(buf, pos, 57)
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


def _decode_VoteRequest_1(buf: Buffer, pos: int) -> tuple[VoteRequest, int]:
    o = VoteRequest.__new__(VoteRequest)
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.voter_id,) = _S1.unpack_from(buf, pos)
    pos += 4
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
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_2(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset, o.pre_vote,) = _S3.unpack_from(buf, pos)
    pos += 57
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_2(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 58)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_VoteRequest_2(buf: Buffer, pos: int) -> tuple[VoteRequest, int]:
    o = VoteRequest.__new__(VoteRequest)
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.voter_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.replica_epoch, o.replica_id, o.last_offset_epoch, o.last_offset))
    out.append(b'\x00')


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_VoteRequest_0(o: VoteRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    out.append(b'\x00')


def _encode_PartitionData_1(o: PartitionData, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset))
    out.append(b'\x00')


def _encode_TopicData_1(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_1(x, out)
    out.append(b'\x00')


def _encode_VoteRequest_1(o: VoteRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.voter_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_1(x, out)
    out.append(b'\x00')


def _encode_PartitionData_2(o: PartitionData, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.replica_epoch, o.replica_id, o.replica_directory_id, o.voter_directory_id, o.last_offset_epoch, o.last_offset, o.pre_vote))
    out.append(b'\x00')


def _encode_TopicData_2(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_2(x, out)
    out.append(b'\x00')


def _encode_VoteRequest_2(o: VoteRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.voter_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_2(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_VoteRequest_0, 1: _decode_VoteRequest_1, 2: _decode_VoteRequest_2}
ENCODERS = {0: _encode_VoteRequest_0, 1: _encode_VoteRequest_1, 2: _encode_VoteRequest_2}
MESSAGE = VoteRequest
