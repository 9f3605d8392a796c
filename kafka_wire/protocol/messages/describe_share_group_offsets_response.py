"""Generated from Kafka's DescribeShareGroupOffsetsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeShareGroupOffsetsResponse'
API_KEY = 90
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>16s')
_S2 = struct.Struct('>iqih')
_S3 = struct.Struct('>h')
_S4 = struct.Struct('>iqiqh')


class DescribeShareGroupOffsetsResponse(Struct):
    """DescribeShareGroupOffsetsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 90
    VALID_VERSIONS = (0, 1)

    __slots__ = ('throttle_time_ms', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups


class DescribeShareGroupOffsetsResponseGroup(Struct):
    __slots__ = ('group_id', 'topics', 'error_code', 'error_message')

    def __init__(self, group_id: Any = '', topics: Any = None, error_code: Any = 0, error_message: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics
        self.error_code = error_code
        self.error_message = error_message


class DescribeShareGroupOffsetsResponseTopic(Struct):
    __slots__ = ('topic_name', 'topic_id', 'partitions')

    def __init__(self, topic_name: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class DescribeShareGroupOffsetsResponsePartition(Struct):
    __slots__ = ('partition_index', 'start_offset', 'leader_epoch', 'lag', 'error_code', 'error_message')

    def __init__(self, partition_index: Any = 0, start_offset: Any = 0, leader_epoch: Any = 0, lag: Any = -1, error_code: Any = 0, error_message: Any = None) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset
        self.leader_epoch = leader_epoch
        self.lag = lag
        self.error_code = error_code
        self.error_message = error_message



def _decode_DescribeShareGroupOffsetsResponsePartition_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponsePartition, int]:
    o = DescribeShareGroupOffsetsResponsePartition.__new__(DescribeShareGroupOffsetsResponsePartition)
    o.lag = -1
    (o.partition_index, o.start_offset, o.leader_epoch, o.error_code,) = _S2.unpack_from(buf, pos)
    pos += 18
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponseTopic_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponseTopic, int]:
    o = DescribeShareGroupOffsetsResponseTopic.__new__(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponseGroup_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponseGroup, int]:
    o = DescribeShareGroupOffsetsResponseGroup.__new__(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 19)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S3.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponse, int]:
    o = DescribeShareGroupOffsetsResponse.__new__(DescribeShareGroupOffsetsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponseGroup_0(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponsePartition_1(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponsePartition, int]:
    o = DescribeShareGroupOffsetsResponsePartition.__new__(DescribeShareGroupOffsetsResponsePartition)
    (o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code,) = _S4.unpack_from(buf, pos)
    pos += 26
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponseTopic_1(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponseTopic, int]:
    o = DescribeShareGroupOffsetsResponseTopic.__new__(DescribeShareGroupOffsetsResponseTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 28)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponseGroup_1(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponseGroup, int]:
    o = DescribeShareGroupOffsetsResponseGroup.__new__(DescribeShareGroupOffsetsResponseGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 19)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S3.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsResponse_1(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsResponse, int]:
    o = DescribeShareGroupOffsetsResponse.__new__(DescribeShareGroupOffsetsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsResponseGroup_1(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeShareGroupOffsetsResponsePartition_0(o: DescribeShareGroupOffsetsResponsePartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.start_offset, o.leader_epoch, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponseTopic_0(o: DescribeShareGroupOffsetsResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponsePartition_0(x, out)
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponseGroup_0(o: DescribeShareGroupOffsetsResponseGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponseTopic_0(x, out)
    out.append(_S3.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponse_0(o: DescribeShareGroupOffsetsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponseGroup_0(x, out)
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponsePartition_1(o: DescribeShareGroupOffsetsResponsePartition, out: list[Any]) -> None:
    out.append(_S4.pack(o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponseTopic_1(o: DescribeShareGroupOffsetsResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponsePartition_1(x, out)
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponseGroup_1(o: DescribeShareGroupOffsetsResponseGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponseTopic_1(x, out)
    out.append(_S3.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsResponse_1(o: DescribeShareGroupOffsetsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsResponseGroup_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeShareGroupOffsetsResponse_0, 1: _decode_DescribeShareGroupOffsetsResponse_1}
ENCODERS = {0: _encode_DescribeShareGroupOffsetsResponse_0, 1: _encode_DescribeShareGroupOffsetsResponse_1}
MESSAGE = DescribeShareGroupOffsetsResponse
