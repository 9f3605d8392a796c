"""Generated from Kafka's StreamsGroupHeartbeatRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'StreamsGroupHeartbeatRequest'
API_KEY = 88
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ii')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>ih')
_S3 = struct.Struct('>b')
_S4 = struct.Struct('>H')
_S5 = struct.Struct('>iq')
_S6 = struct.Struct('>?')


class StreamsGroupHeartbeatRequest(Struct):
    """StreamsGroupHeartbeatRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 88
    VALID_VERSIONS = (0, 0)

    __slots__ = ('group_id', 'member_id', 'member_epoch', 'endpoint_information_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'topology', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'process_id', 'user_endpoint', 'client_tags', 'task_offsets', 'task_end_offsets', 'shutdown_application')

    def __init__(self, group_id: Any = '', member_id: Any = '', member_epoch: Any = 0, endpoint_information_epoch: Any = 0, instance_id: Any = None, rack_id: Any = None, rebalance_timeout_ms: Any = -1, topology: Any = None, active_tasks: Any = None, standby_tasks: Any = None, warmup_tasks: Any = None, process_id: Any = None, user_endpoint: Any = None, client_tags: Any = None, task_offsets: Any = None, task_end_offsets: Any = None, shutdown_application: Any = False) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.endpoint_information_epoch = endpoint_information_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.topology = topology
        self.active_tasks = active_tasks
        self.standby_tasks = standby_tasks
        self.warmup_tasks = warmup_tasks
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = client_tags
        self.task_offsets = task_offsets
        self.task_end_offsets = task_end_offsets
        self.shutdown_application = shutdown_application


class Topology(Struct):
    __slots__ = ('epoch', 'subtopologies')

    def __init__(self, epoch: Any = 0, subtopologies: Any = None) -> None:
        self.epoch = epoch
        self.subtopologies = [] if subtopologies is None else subtopologies


class Subtopology(Struct):
    __slots__ = ('subtopology_id', 'source_topics', 'source_topic_regex', 'state_changelog_topics', 'repartition_sink_topics', 'repartition_source_topics', 'copartition_groups')

    def __init__(self, subtopology_id: Any = '', source_topics: Any = None, source_topic_regex: Any = None, state_changelog_topics: Any = None, repartition_sink_topics: Any = None, repartition_source_topics: Any = None, copartition_groups: Any = None) -> None:
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is None else source_topics
        self.source_topic_regex = [] if source_topic_regex is None else source_topic_regex
        self.state_changelog_topics = [] if state_changelog_topics is None else state_changelog_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is None else repartition_sink_topics
        self.repartition_source_topics = [] if repartition_source_topics is None else repartition_source_topics
        self.copartition_groups = [] if copartition_groups is None else copartition_groups


class TopicInfo(Struct):
    __slots__ = ('name', 'partitions', 'replication_factor', 'topic_configs')

    def __init__(self, name: Any = '', partitions: Any = 0, replication_factor: Any = 0, topic_configs: Any = None) -> None:
        self.name = name
        self.partitions = partitions
        self.replication_factor = replication_factor
        self.topic_configs = [] if topic_configs is None else topic_configs


class KeyValue(Struct):
    __slots__ = ('key', 'value')

    def __init__(self, key: Any = '', value: Any = '') -> None:
        self.key = key
        self.value = value


class CopartitionGroup(Struct):
    __slots__ = ('source_topics', 'source_topic_regex', 'repartition_source_topics')

    def __init__(self, source_topics: Any = None, source_topic_regex: Any = None, repartition_source_topics: Any = None) -> None:
        self.source_topics = [] if source_topics is None else source_topics
        self.source_topic_regex = [] if source_topic_regex is None else source_topic_regex
        self.repartition_source_topics = [] if repartition_source_topics is None else repartition_source_topics


class TaskIds(Struct):
    __slots__ = ('subtopology_id', 'partitions')

    def __init__(self, subtopology_id: Any = '', partitions: Any = None) -> None:
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is None else partitions


class Endpoint(Struct):
    __slots__ = ('host', 'port')

    def __init__(self, host: Any = '', port: Any = 0) -> None:
        self.host = host
        self.port = port


class TaskOffset(Struct):
    __slots__ = ('subtopology_id', 'partition', 'offset')

    def __init__(self, subtopology_id: Any = '', partition: Any = 0, offset: Any = 0) -> None:
        self.subtopology_id = subtopology_id
        self.partition = partition
        self.offset = offset



def _decode_KeyValue_0(buf: Buffer, pos: int) -> tuple[KeyValue, int]:
    o = KeyValue.__new__(KeyValue)
    o.key, pos = read_compact_string(buf, pos)
    if o.key is None:
        null_field('Key')
    o.value, pos = read_compact_string(buf, pos)
    if o.value is None:
        null_field('Value')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicInfo_0(buf: Buffer, pos: int) -> tuple[TopicInfo, int]:
    o = TopicInfo.__new__(TopicInfo)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.partitions, o.replication_factor,) = _S2.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('TopicConfigs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_KeyValue_0(buf, pos)
            append(x)
        o.topic_configs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CopartitionGroup_0(buf: Buffer, pos: int) -> tuple[CopartitionGroup, int]:
    o = CopartitionGroup.__new__(CopartitionGroup)
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('SourceTopics')
    else:
        o.source_topics = list(struct.unpack_from('>%dh' % n, buf, pos))
        pos += n * 2
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('SourceTopicRegex')
    else:
        o.source_topic_regex = list(struct.unpack_from('>%dh' % n, buf, pos))
        pos += n * 2
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('RepartitionSourceTopics')
    else:
        o.repartition_source_topics = list(struct.unpack_from('>%dh' % n, buf, pos))
        pos += n * 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Subtopology_0(buf: Buffer, pos: int) -> tuple[Subtopology, int]:
    o = Subtopology.__new__(Subtopology)
    o.subtopology_id, pos = read_compact_string(buf, pos)
    if o.subtopology_id is None:
        null_field('SubtopologyId')
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('SourceTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SourceTopics')
            append(x)
        o.source_topics = items
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('SourceTopicRegex')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SourceTopicRegex')
            append(x)
        o.source_topic_regex = items
    n, pos = read_compact_array_len(buf, pos, 9)
    if n < 0:
        null_field('StateChangelogTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicInfo_0(buf, pos)
            append(x)
        o.state_changelog_topics = items
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('RepartitionSinkTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('RepartitionSinkTopics')
            append(x)
        o.repartition_sink_topics = items
    n, pos = read_compact_array_len(buf, pos, 9)
    if n < 0:
        null_field('RepartitionSourceTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicInfo_0(buf, pos)
            append(x)
        o.repartition_source_topics = items
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('CopartitionGroups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CopartitionGroup_0(buf, pos)
            append(x)
        o.copartition_groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Topology_0(buf: Buffer, pos: int) -> tuple[Topology, int]:
    o = Topology.__new__(Topology)
    (o.epoch,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Subtopologies')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Subtopology_0(buf, pos)
            append(x)
        o.subtopologies = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TaskIds_0(buf: Buffer, pos: int) -> tuple[TaskIds, int]:
    o = TaskIds.__new__(TaskIds)
    o.subtopology_id, pos = read_compact_string(buf, pos)
    if o.subtopology_id is None:
        null_field('SubtopologyId')
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


def _decode_Endpoint_0(buf: Buffer, pos: int) -> tuple[Endpoint, int]:
    o = Endpoint.__new__(Endpoint)
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S4.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TaskOffset_0(buf: Buffer, pos: int) -> tuple[TaskOffset, int]:
    o = TaskOffset.__new__(TaskOffset)
    o.subtopology_id, pos = read_compact_string(buf, pos)
    if o.subtopology_id is None:
        null_field('SubtopologyId')
    (o.partition, o.offset,) = _S5.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_StreamsGroupHeartbeatRequest_0(buf: Buffer, pos: int) -> tuple[StreamsGroupHeartbeatRequest, int]:
    o = StreamsGroupHeartbeatRequest.__new__(StreamsGroupHeartbeatRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch, o.endpoint_information_epoch,) = _S0.unpack_from(buf, pos)
    pos += 8
    o.instance_id, pos = read_compact_string(buf, pos)
    o.rack_id, pos = read_compact_string(buf, pos)
    (o.rebalance_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    if _S3.unpack_from(buf, pos)[0] < 0:
        o.topology = None
        pos += 1
    else:
        o.topology, pos = _decode_Topology_0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.active_tasks = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.active_tasks = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.standby_tasks = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.standby_tasks = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.warmup_tasks = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.warmup_tasks = items
    o.process_id, pos = read_compact_string(buf, pos)
    if _S3.unpack_from(buf, pos)[0] < 0:
        o.user_endpoint = None
        pos += 1
    else:
        o.user_endpoint, pos = _decode_Endpoint_0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.client_tags = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_KeyValue_0(buf, pos)
            append(x)
        o.client_tags = items
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        o.task_offsets = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskOffset_0(buf, pos)
            append(x)
        o.task_offsets = items
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        o.task_end_offsets = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskOffset_0(buf, pos)
            append(x)
        o.task_end_offsets = items
    (o.shutdown_application,) = _S6.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_KeyValue_0(o: KeyValue, out: list[Any]) -> None:
    out.append(enc_compact_string(o.key))
    out.append(enc_compact_string(o.value))
    out.append(b'\x00')


def _encode_TopicInfo_0(o: TopicInfo, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S2.pack(o.partitions, o.replication_factor))
    items = o.topic_configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_KeyValue_0(x, out)
    out.append(b'\x00')


def _encode_CopartitionGroup_0(o: CopartitionGroup, out: list[Any]) -> None:
    items = o.source_topics
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dh' % len(items), *items))
    items = o.source_topic_regex
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dh' % len(items), *items))
    items = o.repartition_source_topics
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%dh' % len(items), *items))
    out.append(b'\x00')


def _encode_Subtopology_0(o: Subtopology, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    items = o.source_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.source_topic_regex
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.state_changelog_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicInfo_0(x, out)
    items = o.repartition_sink_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.repartition_source_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicInfo_0(x, out)
    items = o.copartition_groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CopartitionGroup_0(x, out)
    out.append(b'\x00')


def _encode_Topology_0(o: Topology, out: list[Any]) -> None:
    out.append(_S1.pack(o.epoch))
    items = o.subtopologies
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Subtopology_0(x, out)
    out.append(b'\x00')


def _encode_TaskIds_0(o: TaskIds, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_Endpoint_0(o: Endpoint, out: list[Any]) -> None:
    out.append(enc_compact_string(o.host))
    out.append(_S4.pack(o.port))
    out.append(b'\x00')


def _encode_TaskOffset_0(o: TaskOffset, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    out.append(_S5.pack(o.partition, o.offset))
    out.append(b'\x00')


def _encode_StreamsGroupHeartbeatRequest_0(o: StreamsGroupHeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.member_epoch, o.endpoint_information_epoch))
    out.append(enc_compact_string(o.instance_id))
    out.append(enc_compact_string(o.rack_id))
    out.append(_S1.pack(o.rebalance_timeout_ms))
    if o.topology is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Topology_0(o.topology, out)
    items = o.active_tasks
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TaskIds_0(x, out)
    items = o.standby_tasks
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TaskIds_0(x, out)
    items = o.warmup_tasks
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TaskIds_0(x, out)
    out.append(enc_compact_string(o.process_id))
    if o.user_endpoint is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Endpoint_0(o.user_endpoint, out)
    items = o.client_tags
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_KeyValue_0(x, out)
    items = o.task_offsets
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TaskOffset_0(x, out)
    items = o.task_end_offsets
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TaskOffset_0(x, out)
    out.append(_S6.pack(o.shutdown_application))
    out.append(b'\x00')


DECODERS = {0: _decode_StreamsGroupHeartbeatRequest_0}
ENCODERS = {0: _encode_StreamsGroupHeartbeatRequest_0}
MESSAGE = StreamsGroupHeartbeatRequest
