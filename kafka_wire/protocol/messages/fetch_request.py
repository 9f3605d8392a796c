"""Generated from Kafka's FetchRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FetchRequest'
API_KEY = 1
VALID_VERSIONS = (4, 18)
FLEXIBLE_VERSIONS = (12, 32767)

_S0 = struct.Struct('>iiiib')
_S1 = struct.Struct('>iqi')
_S2 = struct.Struct('>iqqi')
_S3 = struct.Struct('>iiiibii')
_S4 = struct.Struct('>iiqqi')
_S5 = struct.Struct('>iiqiqi')
_S6 = struct.Struct('>16s')
_S7 = struct.Struct('>iiibii')
_S8 = struct.Struct('>iq')
_S9 = struct.Struct('>q')


class FetchRequest(Struct):
    """FetchRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 1
    VALID_VERSIONS = (4, 18)

    __slots__ = ('cluster_id', 'replica_id', 'replica_state', 'max_wait_ms', 'min_bytes', 'max_bytes', 'isolation_level', 'session_id', 'session_epoch', 'topics', 'forgotten_topics_data', 'rack_id')

    def __init__(self, cluster_id: Any = None, replica_id: Any = -1, replica_state: Any = None, max_wait_ms: Any = 0, min_bytes: Any = 0, max_bytes: Any = 2147483647, isolation_level: Any = 0, session_id: Any = 0, session_epoch: Any = -1, topics: Any = None, forgotten_topics_data: Any = None, rack_id: Any = '') -> None:
        self.cluster_id = cluster_id
        self.replica_id = replica_id
        self.replica_state = ReplicaState() if replica_state is None else replica_state
        self.max_wait_ms = max_wait_ms
        self.min_bytes = min_bytes
        self.max_bytes = max_bytes
        self.isolation_level = isolation_level
        self.session_id = session_id
        self.session_epoch = session_epoch
        self.topics = [] if topics is None else topics
        self.forgotten_topics_data = [] if forgotten_topics_data is None else forgotten_topics_data
        self.rack_id = rack_id


class ReplicaState(Struct):
    __slots__ = ('replica_id', 'replica_epoch')

    def __init__(self, replica_id: Any = -1, replica_epoch: Any = -1) -> None:
        self.replica_id = replica_id
        self.replica_epoch = replica_epoch


class FetchTopic(Struct):
    __slots__ = ('topic', 'topic_id', 'partitions')

    def __init__(self, topic: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class FetchPartition(Struct):
    __slots__ = ('partition', 'current_leader_epoch', 'fetch_offset', 'last_fetched_epoch', 'log_start_offset', 'partition_max_bytes', 'replica_directory_id', 'high_watermark')

    def __init__(self, partition: Any = 0, current_leader_epoch: Any = -1, fetch_offset: Any = 0, last_fetched_epoch: Any = -1, log_start_offset: Any = -1, partition_max_bytes: Any = 0, replica_directory_id: Any = ZERO_UUID, high_watermark: Any = 9223372036854775807) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.fetch_offset = fetch_offset
        self.last_fetched_epoch = last_fetched_epoch
        self.log_start_offset = log_start_offset
        self.partition_max_bytes = partition_max_bytes
        self.replica_directory_id = replica_directory_id
        self.high_watermark = high_watermark


class ForgottenTopic(Struct):
    __slots__ = ('topic', 'topic_id', 'partitions')

    def __init__(self, topic: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions



def _decode_FetchPartition_0(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.current_leader_epoch = -1
    o.last_fetched_epoch = -1
    o.log_start_offset = -1
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.fetch_offset, o.partition_max_bytes,) = _S1.unpack_from(buf, pos)
    pos += 16
    return o, pos


def _decode_FetchTopic_0(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchRequest_0(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.session_id = 0
    o.session_epoch = -1
    o.forgotten_topics_data = []
    o.rack_id = ''
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level,) = _S0.unpack_from(buf, pos)
    pos += 17
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_FetchPartition_1(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.current_leader_epoch = -1
    o.last_fetched_epoch = -1
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.fetch_offset, o.log_start_offset, o.partition_max_bytes,) = _S2.unpack_from(buf, pos)
    pos += 24
    return o, pos


def _decode_FetchTopic_1(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 24)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchRequest_1(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.session_id = 0
    o.session_epoch = -1
    o.forgotten_topics_data = []
    o.rack_id = ''
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level,) = _S0.unpack_from(buf, pos)
    pos += 17
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ForgottenTopic_0(buf: Buffer, pos: int) -> tuple[ForgottenTopic, int]:
    o = ForgottenTopic.__new__(ForgottenTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_FetchRequest_2(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.rack_id = ''
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S3.unpack_from(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_1(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_0(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    return o, pos


def _decode_FetchPartition_2(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.last_fetched_epoch = -1
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.log_start_offset, o.partition_max_bytes,) = _S4.unpack_from(buf, pos)
    pos += 28
    return o, pos


def _decode_FetchTopic_2(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 28)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_2(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchRequest_3(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    o.rack_id = ''
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S3.unpack_from(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_2(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_0(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    return o, pos


def _decode_FetchRequest_4(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S3.unpack_from(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_2(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_0(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    return o, pos


def _decode_FetchPartition_3(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _S5.unpack_from(buf, pos)
    pos += 32
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchTopic_3(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_3(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ForgottenTopic_1(buf: Buffer, pos: int) -> tuple[ForgottenTopic, int]:
    o = ForgottenTopic.__new__(ForgottenTopic)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchRequest_5(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S3.unpack_from(buf, pos)
    pos += 25
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_3(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_1(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_compact_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        pos = end
    return o, pos


def _decode_FetchTopic_4(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic = ''
    (o.topic_id,) = _S6.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_3(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ForgottenTopic_2(buf: Buffer, pos: int) -> tuple[ForgottenTopic, int]:
    o = ForgottenTopic.__new__(ForgottenTopic)
    o.topic = ''
    (o.topic_id,) = _S6.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchRequest_6(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_state = ReplicaState()
    (o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S3.unpack_from(buf, pos)
    pos += 25
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_4(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_2(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_compact_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        pos = end
    return o, pos


def _decode_ReplicaState_0(buf: Buffer, pos: int) -> tuple[ReplicaState, int]:
    o = ReplicaState.__new__(ReplicaState)
    (o.replica_id, o.replica_epoch,) = _S8.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchRequest_7(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S7.unpack_from(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_4(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_2(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_compact_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        elif tag == 1:
            o.replica_state, pos = _decode_ReplicaState_0(buf, pos)
        pos = end
    return o, pos


def _decode_FetchPartition_4(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _S5.unpack_from(buf, pos)
    pos += 32
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            (o.replica_directory_id,) = _S6.unpack_from(buf, pos)
            pos += 16
        pos = end
    return o, pos


def _decode_FetchTopic_5(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic = ''
    (o.topic_id,) = _S6.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_4(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchRequest_8(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S7.unpack_from(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_5(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_2(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_compact_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        elif tag == 1:
            o.replica_state, pos = _decode_ReplicaState_0(buf, pos)
        pos = end
    return o, pos


def _decode_FetchPartition_5(buf: Buffer, pos: int) -> tuple[FetchPartition, int]:
    o = FetchPartition.__new__(FetchPartition)
    o.replica_directory_id = ZERO_UUID
    o.high_watermark = 9223372036854775807
    (o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes,) = _S5.unpack_from(buf, pos)
    pos += 32
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            (o.replica_directory_id,) = _S6.unpack_from(buf, pos)
            pos += 16
        elif tag == 1:
            (o.high_watermark,) = _S9.unpack_from(buf, pos)
            pos += 8
        pos = end
    return o, pos


def _decode_FetchTopic_6(buf: Buffer, pos: int) -> tuple[FetchTopic, int]:
    o = FetchTopic.__new__(FetchTopic)
    o.topic = ''
    (o.topic_id,) = _S6.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchPartition_5(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchRequest_9(buf: Buffer, pos: int) -> tuple[FetchRequest, int]:
    o = FetchRequest.__new__(FetchRequest)
    o.cluster_id = None
    o.replica_id = -1
    o.replica_state = ReplicaState()
    (o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch,) = _S7.unpack_from(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchTopic_6(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('ForgottenTopicsData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ForgottenTopic_2(buf, pos)
            append(x)
        o.forgotten_topics_data = items
    o.rack_id, pos = read_compact_string(buf, pos)
    if o.rack_id is None:
        null_field('RackId')
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.cluster_id, pos = read_compact_string(buf, pos)
        elif tag == 1:
            o.replica_state, pos = _decode_ReplicaState_0(buf, pos)
        pos = end
    return o, pos


def _encode_FetchPartition_0(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition, o.fetch_offset, o.partition_max_bytes))


def _encode_FetchTopic_0(o: FetchTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_0(x, out)


def _encode_FetchRequest_0(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_0(x, out)


def _encode_FetchPartition_1(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition, o.fetch_offset, o.log_start_offset, o.partition_max_bytes))


def _encode_FetchTopic_1(o: FetchTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_1(x, out)


def _encode_FetchRequest_1(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_1(x, out)


def _encode_ForgottenTopic_0(o: ForgottenTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_FetchRequest_2(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_1(x, out)
    items = o.forgotten_topics_data
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_0(x, out)


def _encode_FetchPartition_2(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S4.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.log_start_offset, o.partition_max_bytes))


def _encode_FetchTopic_2(o: FetchTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_2(x, out)


def _encode_FetchRequest_3(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_2(x, out)
    items = o.forgotten_topics_data
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_0(x, out)


def _encode_FetchRequest_4(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_2(x, out)
    items = o.forgotten_topics_data
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_0(x, out)
    out.append(enc_string(o.rack_id))


def _encode_FetchPartition_3(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S5.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    out.append(b'\x00')


def _encode_FetchTopic_3(o: FetchTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_3(x, out)
    out.append(b'\x00')


def _encode_ForgottenTopic_1(o: ForgottenTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_FetchRequest_5(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_3(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_1(x, out)
    out.append(enc_compact_string(o.rack_id))
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchTopic_4(o: FetchTopic, out: list[Any]) -> None:
    out.append(_S6.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_3(x, out)
    out.append(b'\x00')


def _encode_ForgottenTopic_2(o: ForgottenTopic, out: list[Any]) -> None:
    out.append(_S6.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_FetchRequest_6(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_4(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_2(x, out)
    out.append(enc_compact_string(o.rack_id))
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_ReplicaState_0(o: ReplicaState, out: list[Any]) -> None:
    out.append(_S8.pack(o.replica_id, o.replica_epoch))
    out.append(b'\x00')


def _encode_FetchRequest_7(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_4(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_2(x, out)
    out.append(enc_compact_string(o.rack_id))
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    if o.replica_state != ReplicaState():
        outer, out = out, []
        _encode_ReplicaState_0(o.replica_state, out)
        tagged.append((1, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchPartition_4(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S5.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    tagged = []
    if o.replica_directory_id != ZERO_UUID:
        outer, out = out, []
        out.append(_S6.pack(o.replica_directory_id))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchTopic_5(o: FetchTopic, out: list[Any]) -> None:
    out.append(_S6.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_4(x, out)
    out.append(b'\x00')


def _encode_FetchRequest_8(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_5(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_2(x, out)
    out.append(enc_compact_string(o.rack_id))
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    if o.replica_state != ReplicaState():
        outer, out = out, []
        _encode_ReplicaState_0(o.replica_state, out)
        tagged.append((1, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchPartition_5(o: FetchPartition, out: list[Any]) -> None:
    out.append(_S5.pack(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes))
    tagged = []
    if o.replica_directory_id != ZERO_UUID:
        outer, out = out, []
        out.append(_S6.pack(o.replica_directory_id))
        tagged.append((0, out))
        out = outer
    if o.high_watermark != 9223372036854775807:
        outer, out = out, []
        out.append(_S9.pack(o.high_watermark))
        tagged.append((1, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchTopic_6(o: FetchTopic, out: list[Any]) -> None:
    out.append(_S6.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchPartition_5(x, out)
    out.append(b'\x00')


def _encode_FetchRequest_9(o: FetchRequest, out: list[Any]) -> None:
    out.append(_S7.pack(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchTopic_6(x, out)
    items = o.forgotten_topics_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ForgottenTopic_2(x, out)
    out.append(enc_compact_string(o.rack_id))
    tagged = []
    if o.cluster_id != None:
        outer, out = out, []
        out.append(enc_compact_string(o.cluster_id))
        tagged.append((0, out))
        out = outer
    if o.replica_state != ReplicaState():
        outer, out = out, []
        _encode_ReplicaState_0(o.replica_state, out)
        tagged.append((1, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {4: _decode_FetchRequest_0, 5: _decode_FetchRequest_1, 6: _decode_FetchRequest_1, 7: _decode_FetchRequest_2, 8: _decode_FetchRequest_2, 9: _decode_FetchRequest_3, 10: _decode_FetchRequest_3, 11: _decode_FetchRequest_4, 12: _decode_FetchRequest_5, 13: _decode_FetchRequest_6, 14: _decode_FetchRequest_6, 15: _decode_FetchRequest_7, 16: _decode_FetchRequest_7, 17: _decode_FetchRequest_8, 18: _decode_FetchRequest_9}
ENCODERS = {4: _encode_FetchRequest_0, 5: _encode_FetchRequest_1, 6: _encode_FetchRequest_1, 7: _encode_FetchRequest_2, 8: _encode_FetchRequest_2, 9: _encode_FetchRequest_3, 10: _encode_FetchRequest_3, 11: _encode_FetchRequest_4, 12: _encode_FetchRequest_5, 13: _encode_FetchRequest_6, 14: _encode_FetchRequest_6, 15: _encode_FetchRequest_7, 16: _encode_FetchRequest_7, 17: _encode_FetchRequest_8, 18: _encode_FetchRequest_9}
MESSAGE = FetchRequest
