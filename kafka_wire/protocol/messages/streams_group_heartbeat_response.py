"""Generated from Kafka's StreamsGroupHeartbeatResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'StreamsGroupHeartbeatResponse'
API_KEY = 88
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>iiii')
_S2 = struct.Struct('>b')
_S3 = struct.Struct('>i')
_S4 = struct.Struct('>H')


class StreamsGroupHeartbeatResponse(Struct):
    """StreamsGroupHeartbeatResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 88
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'acceptable_recovery_lag', 'task_offset_interval_ms', 'status', 'active_tasks', 'standby_tasks', 'warmup_tasks', 'endpoint_information_epoch', 'partitions_by_user_endpoint')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, member_id: Any = '', member_epoch: Any = 0, heartbeat_interval_ms: Any = 0, acceptable_recovery_lag: Any = 0, task_offset_interval_ms: Any = 0, status: Any = UNSET, active_tasks: Any = None, standby_tasks: Any = None, warmup_tasks: Any = None, endpoint_information_epoch: Any = 0, partitions_by_user_endpoint: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.acceptable_recovery_lag = acceptable_recovery_lag
        self.task_offset_interval_ms = task_offset_interval_ms
        self.status = [] if status is UNSET else status
        self.active_tasks = active_tasks
        self.standby_tasks = standby_tasks
        self.warmup_tasks = warmup_tasks
        self.endpoint_information_epoch = endpoint_information_epoch
        self.partitions_by_user_endpoint = partitions_by_user_endpoint


class Status(Struct):
    __slots__ = ('status_code', 'status_detail')

    def __init__(self, status_code: Any = 0, status_detail: Any = '') -> None:
        self.status_code = status_code
        self.status_detail = status_detail


class TaskIds(Struct):
    __slots__ = ('subtopology_id', 'partitions')

    def __init__(self, subtopology_id: Any = '', partitions: Any = None) -> None:
        self.subtopology_id = subtopology_id
        self.partitions = [] if partitions is None else partitions


class EndpointToPartitions(Struct):
    __slots__ = ('user_endpoint', 'active_partitions', 'standby_partitions')

    def __init__(self, user_endpoint: Any = None, active_partitions: Any = None, standby_partitions: Any = None) -> None:
        self.user_endpoint = Endpoint() if user_endpoint is None else user_endpoint
        self.active_partitions = [] if active_partitions is None else active_partitions
        self.standby_partitions = [] if standby_partitions is None else standby_partitions


class Endpoint(Struct):
    __slots__ = ('host', 'port')

    def __init__(self, host: Any = '', port: Any = 0) -> None:
        self.host = host
        self.port = port


class TopicPartition(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_Status_0(buf: Buffer, pos: int) -> tuple[Status, int]:
    o = Status.__new__(Status)
    (o.status_code,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.status_detail, pos = read_compact_string(buf, pos)
    if o.status_detail is None:
        null_field('StatusDetail')
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


def _decode_TopicPartition_0(buf: Buffer, pos: int) -> tuple[TopicPartition, int]:
    o = TopicPartition.__new__(TopicPartition)
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


def _decode_EndpointToPartitions_0(buf: Buffer, pos: int) -> tuple[EndpointToPartitions, int]:
    o = EndpointToPartitions.__new__(EndpointToPartitions)
    o.user_endpoint, pos = _decode_Endpoint_0(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ActivePartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.active_partitions = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('StandbyPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.standby_partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_StreamsGroupHeartbeatResponse_0(buf: Buffer, pos: int) -> tuple[StreamsGroupHeartbeatResponse, int]:
    o = StreamsGroupHeartbeatResponse.__new__(StreamsGroupHeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.status = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Status_0(buf, pos)
            append(x)
        o.status = items
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
    (o.endpoint_information_epoch,) = _S3.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        o.partitions_by_user_endpoint = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EndpointToPartitions_0(buf, pos)
            append(x)
        o.partitions_by_user_endpoint = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_Status_0(o: Status, out: list[Any]) -> None:
    out.append(_S2.pack(o.status_code))
    out.append(enc_compact_string(o.status_detail))
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


def _encode_TopicPartition_0(o: TopicPartition, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_EndpointToPartitions_0(o: EndpointToPartitions, out: list[Any]) -> None:
    _encode_Endpoint_0(o.user_endpoint, out)
    items = o.active_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)
    items = o.standby_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)
    out.append(b'\x00')


def _encode_StreamsGroupHeartbeatResponse_0(o: StreamsGroupHeartbeatResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.member_id))
    out.append(_S1.pack(o.member_epoch, o.heartbeat_interval_ms, o.acceptable_recovery_lag, o.task_offset_interval_ms))
    items = o.status
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Status_0(x, out)
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
    out.append(_S3.pack(o.endpoint_information_epoch))
    items = o.partitions_by_user_endpoint
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EndpointToPartitions_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_StreamsGroupHeartbeatResponse_0}
ENCODERS = {0: _encode_StreamsGroupHeartbeatResponse_0}
MESSAGE = StreamsGroupHeartbeatResponse
