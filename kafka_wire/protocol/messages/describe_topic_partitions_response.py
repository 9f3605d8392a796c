"""Generated from Kafka's DescribeTopicPartitionsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeTopicPartitionsResponse'
API_KEY = 75
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>16s?')
_S3 = struct.Struct('>hiii')
_S4 = struct.Struct('>b')


class DescribeTopicPartitionsResponse(Struct):
    """DescribeTopicPartitionsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 75
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'topics', 'next_cursor')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None, next_cursor: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics
        self.next_cursor = next_cursor


class DescribeTopicPartitionsResponseTopic(Struct):
    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations')

    def __init__(self, error_code: Any = 0, name: Any = '', topic_id: Any = ZERO_UUID, is_internal: Any = False, partitions: Any = None, topic_authorized_operations: Any = -2147483648) -> None:
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is None else partitions
        self.topic_authorized_operations = topic_authorized_operations


class DescribeTopicPartitionsResponsePartition(Struct):
    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'eligible_leader_replicas', 'last_known_elr', 'offline_replicas')

    def __init__(self, error_code: Any = 0, partition_index: Any = 0, leader_id: Any = 0, leader_epoch: Any = -1, replica_nodes: Any = None, isr_nodes: Any = None, eligible_leader_replicas: Any = None, last_known_elr: Any = None, offline_replicas: Any = None) -> None:
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is None else replica_nodes
        self.isr_nodes = [] if isr_nodes is None else isr_nodes
        self.eligible_leader_replicas = eligible_leader_replicas
        self.last_known_elr = last_known_elr
        self.offline_replicas = [] if offline_replicas is None else offline_replicas


class Cursor(Struct):
    __slots__ = ('topic_name', 'partition_index')

    def __init__(self, topic_name: Any = '', partition_index: Any = 0) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index



def _decode_DescribeTopicPartitionsResponsePartition_0(buf: Buffer, pos: int) -> tuple[DescribeTopicPartitionsResponsePartition, int]:
    o = DescribeTopicPartitionsResponsePartition.__new__(DescribeTopicPartitionsResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 14
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('ReplicaNodes')
    else:
        o.replica_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('IsrNodes')
    else:
        o.isr_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        o.eligible_leader_replicas = None
    else:
        o.eligible_leader_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        o.last_known_elr = None
    else:
        o.last_known_elr = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('OfflineReplicas')
    else:
        o.offline_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeTopicPartitionsResponseTopic_0(buf: Buffer, pos: int) -> tuple[DescribeTopicPartitionsResponseTopic, int]:
    o = DescribeTopicPartitionsResponseTopic.__new__(DescribeTopicPartitionsResponseTopic)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_compact_string(buf, pos)
    (o.topic_id, o.is_internal,) = _S2.unpack_from(buf, pos)
    pos += 17
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeTopicPartitionsResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    (o.topic_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Cursor_0(buf: Buffer, pos: int) -> tuple[Cursor, int]:
    o = Cursor.__new__(Cursor)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeTopicPartitionsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeTopicPartitionsResponse, int]:
    o = DescribeTopicPartitionsResponse.__new__(DescribeTopicPartitionsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeTopicPartitionsResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    if _S4.unpack_from(buf, pos)[0] < 0:
        o.next_cursor = None
        pos += 1
    else:
        o.next_cursor, pos = _decode_Cursor_0(buf, pos + 1)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeTopicPartitionsResponsePartition_0(o: DescribeTopicPartitionsResponsePartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    items = o.replica_nodes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.isr_nodes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.eligible_leader_replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.last_known_elr
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.offline_replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_DescribeTopicPartitionsResponseTopic_0(o: DescribeTopicPartitionsResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.name))
    out.append(_S2.pack(o.topic_id, o.is_internal))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeTopicPartitionsResponsePartition_0(x, out)
    out.append(_S0.pack(o.topic_authorized_operations))
    out.append(b'\x00')


def _encode_Cursor_0(o: Cursor, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S0.pack(o.partition_index))
    out.append(b'\x00')


def _encode_DescribeTopicPartitionsResponse_0(o: DescribeTopicPartitionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeTopicPartitionsResponseTopic_0(x, out)
    if o.next_cursor is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Cursor_0(o.next_cursor, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeTopicPartitionsResponse_0}
ENCODERS = {0: _encode_DescribeTopicPartitionsResponse_0}
MESSAGE = DescribeTopicPartitionsResponse
