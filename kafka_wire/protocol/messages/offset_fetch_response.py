"""Generated from Kafka's OffsetFetchResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetFetchResponse'
API_KEY = 9
VALID_VERSIONS = (1, 10)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>iq')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>i')
_S3 = struct.Struct('>iqi')
_S4 = struct.Struct('>16s')


class OffsetFetchResponse(Struct):
    """OffsetFetchResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 9
    VALID_VERSIONS = (1, 10)

    __slots__ = ('throttle_time_ms', 'topics', 'error_code', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None, error_code: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.error_code = error_code
        self.groups = [] if groups is None else groups


class OffsetFetchResponseTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class OffsetFetchResponsePartition(Struct):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code')

    def __init__(self, partition_index: Any = 0, committed_offset: Any = 0, committed_leader_epoch: Any = -1, metadata: Any = '', error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code


class OffsetFetchResponseGroup(Struct):
    __slots__ = ('group_id', 'topics', 'error_code')

    def __init__(self, group_id: Any = '', topics: Any = None, error_code: Any = 0) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.error_code = error_code


class OffsetFetchResponseTopics(Struct):
    __slots__ = ('name', 'topic_id', 'partitions')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class OffsetFetchResponsePartitions(Struct):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'metadata', 'error_code')

    def __init__(self, partition_index: Any = 0, committed_offset: Any = 0, committed_leader_epoch: Any = -1, metadata: Any = '', error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.metadata = metadata
        self.error_code = error_code



def _decode_OffsetFetchResponsePartition_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    o = OffsetFetchResponsePartition.__new__(OffsetFetchResponsePartition)
    o.committed_leader_epoch = -1
    (o.partition_index, o.committed_offset,) = _S0.unpack_from(buf, pos)
    pos += 12
    o.metadata, pos = read_string(buf, pos)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_OffsetFetchResponseTopic_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    o = OffsetFetchResponseTopic.__new__(OffsetFetchResponseTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetFetchResponse_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.throttle_time_ms = 0
    o.error_code = 0
    o.groups = []
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetFetchResponse_1(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.throttle_time_ms = 0
    o.groups = []
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_OffsetFetchResponse_2(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.groups = []
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_OffsetFetchResponsePartition_1(buf: Buffer, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    o = OffsetFetchResponsePartition.__new__(OffsetFetchResponsePartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.metadata, pos = read_string(buf, pos)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_OffsetFetchResponseTopic_1(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    o = OffsetFetchResponseTopic.__new__(OffsetFetchResponseTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetFetchResponse_3(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.groups = []
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_OffsetFetchResponsePartition_2(buf: Buffer, pos: int) -> tuple[OffsetFetchResponsePartition, int]:
    o = OffsetFetchResponsePartition.__new__(OffsetFetchResponsePartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.metadata, pos = read_compact_string(buf, pos)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponseTopic_2(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseTopic, int]:
    o = OffsetFetchResponseTopic.__new__(OffsetFetchResponseTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponsePartition_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponse_4(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.groups = []
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopic_2(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponsePartitions_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponsePartitions, int]:
    o = OffsetFetchResponsePartitions.__new__(OffsetFetchResponsePartitions)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.metadata, pos = read_compact_string(buf, pos)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponseTopics_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseTopics, int]:
    o = OffsetFetchResponseTopics.__new__(OffsetFetchResponseTopics)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponsePartitions_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponseGroup_0(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseGroup, int]:
    o = OffsetFetchResponseGroup.__new__(OffsetFetchResponseGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopics_0(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponse_5(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.topics = []
    o.error_code = 0
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseGroup_0(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponseTopics_1(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseTopics, int]:
    o = OffsetFetchResponseTopics.__new__(OffsetFetchResponseTopics)
    o.name = ''
    (o.topic_id,) = _S4.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponsePartitions_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponseGroup_1(buf: Buffer, pos: int) -> tuple[OffsetFetchResponseGroup, int]:
    o = OffsetFetchResponseGroup.__new__(OffsetFetchResponseGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseTopics_1(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchResponse_6(buf: Buffer, pos: int) -> tuple[OffsetFetchResponse, int]:
    o = OffsetFetchResponse.__new__(OffsetFetchResponse)
    o.topics = []
    o.error_code = 0
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchResponseGroup_1(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OffsetFetchResponsePartition_0(o: OffsetFetchResponsePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.committed_offset))
    out.append(enc_string(o.metadata))
    out.append(_S1.pack(o.error_code))


def _encode_OffsetFetchResponseTopic_0(o: OffsetFetchResponseTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponsePartition_0(x, out)


def _encode_OffsetFetchResponse_0(o: OffsetFetchResponse, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopic_0(x, out)


def _encode_OffsetFetchResponse_1(o: OffsetFetchResponse, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopic_0(x, out)
    out.append(_S1.pack(o.error_code))


def _encode_OffsetFetchResponse_2(o: OffsetFetchResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopic_0(x, out)
    out.append(_S1.pack(o.error_code))


def _encode_OffsetFetchResponsePartition_1(o: OffsetFetchResponsePartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_string(o.metadata))
    out.append(_S1.pack(o.error_code))


def _encode_OffsetFetchResponseTopic_1(o: OffsetFetchResponseTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponsePartition_1(x, out)


def _encode_OffsetFetchResponse_3(o: OffsetFetchResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopic_1(x, out)
    out.append(_S1.pack(o.error_code))


def _encode_OffsetFetchResponsePartition_2(o: OffsetFetchResponsePartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_compact_string(o.metadata))
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_OffsetFetchResponseTopic_2(o: OffsetFetchResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponsePartition_2(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchResponse_4(o: OffsetFetchResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopic_2(x, out)
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_OffsetFetchResponsePartitions_0(o: OffsetFetchResponsePartitions, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_compact_string(o.metadata))
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_OffsetFetchResponseTopics_0(o: OffsetFetchResponseTopics, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponsePartitions_0(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchResponseGroup_0(o: OffsetFetchResponseGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopics_0(x, out)
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_OffsetFetchResponse_5(o: OffsetFetchResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseGroup_0(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchResponseTopics_1(o: OffsetFetchResponseTopics, out: list[Any]) -> None:
    out.append(_S4.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponsePartitions_0(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchResponseGroup_1(o: OffsetFetchResponseGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseTopics_1(x, out)
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_OffsetFetchResponse_6(o: OffsetFetchResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchResponseGroup_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_OffsetFetchResponse_0, 2: _decode_OffsetFetchResponse_1, 3: _decode_OffsetFetchResponse_2, 4: _decode_OffsetFetchResponse_2, 5: _decode_OffsetFetchResponse_3, 6: _decode_OffsetFetchResponse_4, 7: _decode_OffsetFetchResponse_4, 8: _decode_OffsetFetchResponse_5, 9: _decode_OffsetFetchResponse_5, 10: _decode_OffsetFetchResponse_6}
ENCODERS = {1: _encode_OffsetFetchResponse_0, 2: _encode_OffsetFetchResponse_1, 3: _encode_OffsetFetchResponse_2, 4: _encode_OffsetFetchResponse_2, 5: _encode_OffsetFetchResponse_3, 6: _encode_OffsetFetchResponse_4, 7: _encode_OffsetFetchResponse_4, 8: _encode_OffsetFetchResponse_5, 9: _encode_OffsetFetchResponse_5, 10: _encode_OffsetFetchResponse_6}
MESSAGE = OffsetFetchResponse
