"""Generated from Kafka's OffsetCommitRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetCommitRequest'
API_KEY = 8
VALID_VERSIONS = (2, 10)
FLEXIBLE_VERSIONS = (8, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>q')
_S2 = struct.Struct('>iq')
_S3 = struct.Struct('>iqi')
_S4 = struct.Struct('>16s')


class OffsetCommitRequest(Struct):
    """OffsetCommitRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 8
    VALID_VERSIONS = (2, 10)

    __slots__ = ('group_id', 'generation_id_or_member_epoch', 'member_id', 'group_instance_id', 'retention_time_ms', 'topics')

    def __init__(self, group_id: Any = '', generation_id_or_member_epoch: Any = -1, member_id: Any = '', group_instance_id: Any = None, retention_time_ms: Any = -1, topics: Any = None) -> None:
        self.group_id = group_id
        self.generation_id_or_member_epoch = generation_id_or_member_epoch
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.retention_time_ms = retention_time_ms
        self.topics = [] if topics is None else topics


class OffsetCommitRequestTopic(Struct):
    __slots__ = ('name', 'topic_id', 'partitions')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class OffsetCommitRequestPartition(Struct):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'commit_timestamp', 'committed_metadata')

    def __init__(self, partition_index: Any = 0, committed_offset: Any = 0, committed_leader_epoch: Any = -1, commit_timestamp: Any = -1, committed_metadata: Any = '') -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.commit_timestamp = commit_timestamp
        self.committed_metadata = committed_metadata



def _decode_OffsetCommitRequestPartition_0(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    o = OffsetCommitRequestPartition.__new__(OffsetCommitRequestPartition)
    o.committed_leader_epoch = -1
    o.commit_timestamp = -1
    (o.partition_index, o.committed_offset,) = _S2.unpack_from(buf, pos)
    pos += 12
    o.committed_metadata, pos = read_string(buf, pos)
    return o, pos


def _decode_OffsetCommitRequestTopic_0(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    o = OffsetCommitRequestTopic.__new__(OffsetCommitRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetCommitRequest_0(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.group_instance_id = None
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.retention_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitRequest_1(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.group_instance_id = None
    o.retention_time_ms = -1
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitRequestPartition_1(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    o = OffsetCommitRequestPartition.__new__(OffsetCommitRequestPartition)
    o.commit_timestamp = -1
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.committed_metadata, pos = read_string(buf, pos)
    return o, pos


def _decode_OffsetCommitRequestTopic_1(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    o = OffsetCommitRequestTopic.__new__(OffsetCommitRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestPartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetCommitRequest_2(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.group_instance_id = None
    o.retention_time_ms = -1
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitRequest_3(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.retention_time_ms = -1
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetCommitRequestPartition_2(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestPartition, int]:
    o = OffsetCommitRequestPartition.__new__(OffsetCommitRequestPartition)
    o.commit_timestamp = -1
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.committed_metadata, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitRequestTopic_2(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    o = OffsetCommitRequestTopic.__new__(OffsetCommitRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestPartition_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitRequest_4(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.retention_time_ms = -1
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitRequestTopic_3(buf: Buffer, pos: int) -> tuple[OffsetCommitRequestTopic, int]:
    o = OffsetCommitRequestTopic.__new__(OffsetCommitRequestTopic)
    o.name = ''
    (o.topic_id,) = _S4.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestPartition_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetCommitRequest_5(buf: Buffer, pos: int) -> tuple[OffsetCommitRequest, int]:
    o = OffsetCommitRequest.__new__(OffsetCommitRequest)
    o.retention_time_ms = -1
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.generation_id_or_member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetCommitRequestTopic_3(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OffsetCommitRequestPartition_0(o: OffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.committed_offset))
    out.append(enc_string(o.committed_metadata))


def _encode_OffsetCommitRequestTopic_0(o: OffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestPartition_0(x, out)


def _encode_OffsetCommitRequest_0(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_string(o.member_id))
    out.append(_S1.pack(o.retention_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_0(x, out)


def _encode_OffsetCommitRequest_1(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_string(o.member_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_0(x, out)


def _encode_OffsetCommitRequestPartition_1(o: OffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_string(o.committed_metadata))


def _encode_OffsetCommitRequestTopic_1(o: OffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestPartition_1(x, out)


def _encode_OffsetCommitRequest_2(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_string(o.member_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_1(x, out)


def _encode_OffsetCommitRequest_3(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_string(o.member_id))
    out.append(enc_string(o.group_instance_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_1(x, out)


def _encode_OffsetCommitRequestPartition_2(o: OffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_compact_string(o.committed_metadata))
    out.append(b'\x00')


def _encode_OffsetCommitRequestTopic_2(o: OffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestPartition_2(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitRequest_4(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_2(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitRequestTopic_3(o: OffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(_S4.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestPartition_2(x, out)
    out.append(b'\x00')


def _encode_OffsetCommitRequest_5(o: OffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(_S0.pack(o.generation_id_or_member_epoch))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetCommitRequestTopic_3(x, out)
    out.append(b'\x00')


DECODERS = {2: _decode_OffsetCommitRequest_0, 3: _decode_OffsetCommitRequest_0, 4: _decode_OffsetCommitRequest_0, 5: _decode_OffsetCommitRequest_1, 6: _decode_OffsetCommitRequest_2, 7: _decode_OffsetCommitRequest_3, 8: _decode_OffsetCommitRequest_4, 9: _decode_OffsetCommitRequest_4, 10: _decode_OffsetCommitRequest_5}
ENCODERS = {2: _encode_OffsetCommitRequest_0, 3: _encode_OffsetCommitRequest_0, 4: _encode_OffsetCommitRequest_0, 5: _encode_OffsetCommitRequest_1, 6: _encode_OffsetCommitRequest_2, 7: _encode_OffsetCommitRequest_3, 8: _encode_OffsetCommitRequest_4, 9: _encode_OffsetCommitRequest_4, 10: _encode_OffsetCommitRequest_5}
MESSAGE = OffsetCommitRequest
