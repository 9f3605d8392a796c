"""Generated from Kafka's ShareGroupHeartbeatResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareGroupHeartbeatResponse'
API_KEY = 76
VALID_VERSIONS = (1, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>ii')
_S2 = struct.Struct('>16s')
_S3 = struct.Struct('>b')


class ShareGroupHeartbeatResponse(Struct):
    """ShareGroupHeartbeatResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 76
    VALID_VERSIONS = (1, 1)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'member_id', 'member_epoch', 'heartbeat_interval_ms', 'assignment')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, member_id: Any = None, member_epoch: Any = 0, heartbeat_interval_ms: Any = 0, assignment: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.assignment = assignment


class Assignment(Struct):
    __slots__ = ('topic_partitions',)

    def __init__(self, topic_partitions: Any = None) -> None:
        self.topic_partitions = [] if topic_partitions is None else topic_partitions


class TopicPartitions(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions



def _decode_TopicPartitions_0(buf: Buffer, pos: int) -> tuple[TopicPartitions, int]:
    o = TopicPartitions.__new__(TopicPartitions)
    (o.topic_id,) = _S2.unpack_from(buf, pos)
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


def _decode_Assignment_0(buf: Buffer, pos: int) -> tuple[Assignment, int]:
    o = Assignment.__new__(Assignment)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('TopicPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartitions_0(buf, pos)
            append(x)
        o.topic_partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareGroupHeartbeatResponse_0(buf: Buffer, pos: int) -> tuple[ShareGroupHeartbeatResponse, int]:
    o = ShareGroupHeartbeatResponse.__new__(ShareGroupHeartbeatResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    o.member_id, pos = read_compact_string(buf, pos)
    (o.member_epoch, o.heartbeat_interval_ms,) = _S1.unpack_from(buf, pos)
    pos += 8
    if _S3.unpack_from(buf, pos)[0] < 0:
        o.assignment = None
        pos += 1
    else:
        o.assignment, pos = _decode_Assignment_0(buf, pos + 1)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TopicPartitions_0(o: TopicPartitions, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_Assignment_0(o: Assignment, out: list[Any]) -> None:
    items = o.topic_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_0(x, out)
    out.append(b'\x00')


def _encode_ShareGroupHeartbeatResponse_0(o: ShareGroupHeartbeatResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.member_id))
    out.append(_S1.pack(o.member_epoch, o.heartbeat_interval_ms))
    if o.assignment is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Assignment_0(o.assignment, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ShareGroupHeartbeatResponse_0}
ENCODERS = {1: _encode_ShareGroupHeartbeatResponse_0}
MESSAGE = ShareGroupHeartbeatResponse
