"""Generated from Kafka's StreamsGroupDescribeResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'StreamsGroupDescribeResponse'
API_KEY = 89
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>ii')
_S3 = struct.Struct('>ih')
_S4 = struct.Struct('>b')
_S5 = struct.Struct('>H')
_S6 = struct.Struct('>iq')
_S7 = struct.Struct('>?')


class StreamsGroupDescribeResponse(Struct):
    """StreamsGroupDescribeResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 89
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups


class DescribedGroup(Struct):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'topology', 'members', 'authorized_operations')

    def __init__(self, error_code: Any = 0, error_message: Any = None, group_id: Any = '', group_state: Any = '', group_epoch: Any = 0, assignment_epoch: Any = 0, topology: Any = None, members: Any = None, authorized_operations: Any = -2147483648) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.topology = topology
        self.members = [] if members is None else members
        self.authorized_operations = authorized_operations


class Topology(Struct):
    __slots__ = ('epoch', 'subtopologies')

    def __init__(self, epoch: Any = 0, subtopologies: Any = None) -> None:
        self.epoch = epoch
        self.subtopologies = subtopologies


class Subtopology(Struct):
    __slots__ = ('subtopology_id', 'source_topics', 'repartition_sink_topics', 'state_changelog_topics', 'repartition_source_topics')

    def __init__(self, subtopology_id: Any = '', source_topics: Any = None, repartition_sink_topics: Any = None, state_changelog_topics: Any = None, repartition_source_topics: Any = None) -> None:
        self.subtopology_id = subtopology_id
        self.source_topics = [] if source_topics is None else source_topics
        self.repartition_sink_topics = [] if repartition_sink_topics is None else repartition_sink_topics
        self.state_changelog_topics = [] if state_changelog_topics is None else state_changelog_topics
        self.repartition_source_topics = [] if repartition_source_topics is None else repartition_source_topics


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


class Member(Struct):
    __slots__ = ('member_id', 'member_epoch', 'instance_id', 'rack_id', 'client_id', 'client_host', 'topology_epoch', 'process_id', 'user_endpoint', 'client_tags', 'task_offsets', 'task_end_offsets', 'assignment', 'target_assignment', 'is_classic')

    def __init__(self, member_id: Any = '', member_epoch: Any = 0, instance_id: Any = None, rack_id: Any = None, client_id: Any = '', client_host: Any = '', topology_epoch: Any = 0, process_id: Any = '', user_endpoint: Any = None, client_tags: Any = None, task_offsets: Any = None, task_end_offsets: Any = None, assignment: Any = None, target_assignment: Any = None, is_classic: Any = False) -> None:
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.client_id = client_id
        self.client_host = client_host
        self.topology_epoch = topology_epoch
        self.process_id = process_id
        self.user_endpoint = user_endpoint
        self.client_tags = [] if client_tags is None else client_tags
        self.task_offsets = [] if task_offsets is None else task_offsets
        self.task_end_offsets = [] if task_end_offsets is None else task_end_offsets
        self.assignment = Assignment() if assignment is None else assignment
        self.target_assignment = Assignment() if target_assignment is None else target_assignment
        self.is_classic = is_classic


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


class Assignment(Struct):
    __slots__ = ('active_tasks', 'standby_tasks', 'warmup_tasks')

    def __init__(self, active_tasks: Any = None, standby_tasks: Any = None, warmup_tasks: Any = None) -> None:
        self.active_tasks = [] if active_tasks is None else active_tasks
        self.standby_tasks = [] if standby_tasks is None else standby_tasks
        self.warmup_tasks = [] if warmup_tasks is None else warmup_tasks


class TaskIds(Struct):
    __slots__ = ('subtopology_id', 'partitions')

    def __init__(self, subtopology_id: Any = '', partitions: Any = None) -> None:
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is None else partitions



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
    (o.partitions, o.replication_factor,) = _S3.unpack_from(buf, pos)
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
        null_field('StateChangelogTopics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicInfo_0(buf, pos)
            append(x)
        o.state_changelog_topics = items
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
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Topology_0(buf: Buffer, pos: int) -> tuple[Topology, int]:
    o = Topology.__new__(Topology)
    (o.epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        o.subtopologies = None
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


def _decode_Endpoint_0(buf: Buffer, pos: int) -> tuple[Endpoint, int]:
    o = Endpoint.__new__(Endpoint)
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


def _decode_TaskOffset_0(buf: Buffer, pos: int) -> tuple[TaskOffset, int]:
    o = TaskOffset.__new__(TaskOffset)
    o.subtopology_id, pos = read_compact_string(buf, pos)
    if o.subtopology_id is None:
        null_field('SubtopologyId')
    (o.partition, o.offset,) = _S6.unpack_from(buf, pos)
    pos += 12
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


def _decode_Assignment_0(buf: Buffer, pos: int) -> tuple[Assignment, int]:
    o = Assignment.__new__(Assignment)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ActiveTasks')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.active_tasks = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('StandbyTasks')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.standby_tasks = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('WarmupTasks')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskIds_0(buf, pos)
            append(x)
        o.warmup_tasks = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Member_0(buf: Buffer, pos: int) -> tuple[Member, int]:
    o = Member.__new__(Member)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.instance_id, pos = read_compact_string(buf, pos)
    o.rack_id, pos = read_compact_string(buf, pos)
    o.client_id, pos = read_compact_string(buf, pos)
    if o.client_id is None:
        null_field('ClientId')
    o.client_host, pos = read_compact_string(buf, pos)
    if o.client_host is None:
        null_field('ClientHost')
    (o.topology_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.process_id, pos = read_compact_string(buf, pos)
    if o.process_id is None:
        null_field('ProcessId')
    if _S4.unpack_from(buf, pos)[0] < 0:
        o.user_endpoint = None
        pos += 1
    else:
        o.user_endpoint, pos = _decode_Endpoint_0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ClientTags')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_KeyValue_0(buf, pos)
            append(x)
        o.client_tags = items
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        null_field('TaskOffsets')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskOffset_0(buf, pos)
            append(x)
        o.task_offsets = items
    n, pos = read_compact_array_len(buf, pos, 14)
    if n < 0:
        null_field('TaskEndOffsets')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TaskOffset_0(buf, pos)
            append(x)
        o.task_end_offsets = items
    o.assignment, pos = _decode_Assignment_0(buf, pos)
    o.target_assignment, pos = _decode_Assignment_0(buf, pos)
    (o.is_classic,) = _S7.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribedGroup_0(buf: Buffer, pos: int) -> tuple[DescribedGroup, int]:
    o = DescribedGroup.__new__(DescribedGroup)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.group_state, pos = read_compact_string(buf, pos)
    if o.group_state is None:
        null_field('GroupState')
    (o.group_epoch, o.assignment_epoch,) = _S2.unpack_from(buf, pos)
    pos += 8
    if _S4.unpack_from(buf, pos)[0] < 0:
        o.topology = None
        pos += 1
    else:
        o.topology, pos = _decode_Topology_0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos, 28)
    if n < 0:
        null_field('Members')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Member_0(buf, pos)
            append(x)
        o.members = items
    (o.authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_StreamsGroupDescribeResponse_0(buf: Buffer, pos: int) -> tuple[StreamsGroupDescribeResponse, int]:
    o = StreamsGroupDescribeResponse.__new__(StreamsGroupDescribeResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribedGroup_0(buf, pos)
            append(x)
        o.groups = items
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
    out.append(_S3.pack(o.partitions, o.replication_factor))
    items = o.topic_configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_KeyValue_0(x, out)
    out.append(b'\x00')


def _encode_Subtopology_0(o: Subtopology, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    items = o.source_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.repartition_sink_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    items = o.state_changelog_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicInfo_0(x, out)
    items = o.repartition_source_topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicInfo_0(x, out)
    out.append(b'\x00')


def _encode_Topology_0(o: Topology, out: list[Any]) -> None:
    out.append(_S0.pack(o.epoch))
    items = o.subtopologies
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Subtopology_0(x, out)
    out.append(b'\x00')


def _encode_Endpoint_0(o: Endpoint, out: list[Any]) -> None:
    out.append(enc_compact_string(o.host))
    out.append(_S5.pack(o.port))
    out.append(b'\x00')


def _encode_TaskOffset_0(o: TaskOffset, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    out.append(_S6.pack(o.partition, o.offset))
    out.append(b'\x00')


def _encode_TaskIds_0(o: TaskIds, out: list[Any]) -> None:
    out.append(enc_compact_string(o.subtopology_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_Assignment_0(o: Assignment, out: list[Any]) -> None:
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
    out.append(b'\x00')


def _encode_Member_0(o: Member, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.member_epoch))
    out.append(enc_compact_string(o.instance_id))
    out.append(enc_compact_string(o.rack_id))
    out.append(enc_compact_string(o.client_id))
    out.append(enc_compact_string(o.client_host))
    out.append(_S0.pack(o.topology_epoch))
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
    _encode_Assignment_0(o.assignment, out)
    _encode_Assignment_0(o.target_assignment, out)
    out.append(_S7.pack(o.is_classic))
    out.append(b'\x00')


def _encode_DescribedGroup_0(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.group_state))
    out.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    if o.topology is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Topology_0(o.topology, out)
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Member_0(x, out)
    out.append(_S0.pack(o.authorized_operations))
    out.append(b'\x00')


def _encode_StreamsGroupDescribeResponse_0(o: StreamsGroupDescribeResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_StreamsGroupDescribeResponse_0}
ENCODERS = {0: _encode_StreamsGroupDescribeResponse_0}
MESSAGE = StreamsGroupDescribeResponse
