"""Generated from Kafka's ShareGroupDescribeResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareGroupDescribeResponse'
API_KEY = 77
VALID_VERSIONS = (1, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>ii')
_S3 = struct.Struct('>16s')


class ShareGroupDescribeResponse(Struct):
    """ShareGroupDescribeResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 77
    VALID_VERSIONS = (1, 1)

    __slots__ = ('throttle_time_ms', 'groups')

    def __init__(self, throttle_time_ms: Any = 0, groups: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.groups = [] if groups is None else groups


class DescribedGroup(Struct):
    __slots__ = ('error_code', 'error_message', 'group_id', 'group_state', 'group_epoch', 'assignment_epoch', 'assignor_name', 'members', 'authorized_operations')

    def __init__(self, error_code: Any = 0, error_message: Any = None, group_id: Any = '', group_state: Any = '', group_epoch: Any = 0, assignment_epoch: Any = 0, assignor_name: Any = '', members: Any = None, authorized_operations: Any = -2147483648) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.group_id = group_id
        self.group_state = group_state
        self.group_epoch = group_epoch
        self.assignment_epoch = assignment_epoch
        self.assignor_name = assignor_name
        self.members = [] if members is None else members
        self.authorized_operations = authorized_operations


class Member(Struct):
    __slots__ = ('member_id', 'rack_id', 'member_epoch', 'client_id', 'client_host', 'subscribed_topic_names', 'assignment')

    def __init__(self, member_id: Any = '', rack_id: Any = None, member_epoch: Any = 0, client_id: Any = '', client_host: Any = '', subscribed_topic_names: Any = None, assignment: Any = None) -> None:
        self.member_id = member_id
        self.rack_id = rack_id
        self.member_epoch = member_epoch
        self.client_id = client_id
        self.client_host = client_host
        self.subscribed_topic_names = [] if subscribed_topic_names is None else subscribed_topic_names
        self.assignment = Assignment() if assignment is None else assignment


class Assignment(Struct):
    __slots__ = ('topic_partitions',)

    def __init__(self, topic_partitions: Any = None) -> None:
        self.topic_partitions = [] if topic_partitions is None else topic_partitions


class TopicPartitions(Struct):
    __slots__ = ('topic_id', 'topic_name', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions



def _decode_TopicPartitions_0(buf: Buffer, pos: int) -> tuple[TopicPartitions, int]:
    o = TopicPartitions.__new__(TopicPartitions)
    (o.topic_id,) = _S3.unpack_from(buf, pos)
    pos += 16
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
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
    n, pos = read_compact_array_len(buf, pos, 19)
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


def _decode_Member_0(buf: Buffer, pos: int) -> tuple[Member, int]:
    o = Member.__new__(Member)
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.rack_id, pos = read_compact_string(buf, pos)
    (o.member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.client_id, pos = read_compact_string(buf, pos)
    if o.client_id is None:
        null_field('ClientId')
    o.client_host, pos = read_compact_string(buf, pos)
    if o.client_host is None:
        null_field('ClientHost')
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('SubscribedTopicNames')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SubscribedTopicNames')
            append(x)
        o.subscribed_topic_names = items
    o.assignment, pos = _decode_Assignment_0(buf, pos)
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
    o.assignor_name, pos = read_compact_string(buf, pos)
    if o.assignor_name is None:
        null_field('AssignorName')
    n, pos = read_compact_array_len(buf, pos, 12)
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


def _decode_ShareGroupDescribeResponse_0(buf: Buffer, pos: int) -> tuple[ShareGroupDescribeResponse, int]:
    o = ShareGroupDescribeResponse.__new__(ShareGroupDescribeResponse)
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


def _encode_TopicPartitions_0(o: TopicPartitions, out: list[Any]) -> None:
    out.append(_S3.pack(o.topic_id))
    out.append(enc_compact_string(o.topic_name))
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


def _encode_Member_0(o: Member, out: list[Any]) -> None:
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.rack_id))
    out.append(_S0.pack(o.member_epoch))
    out.append(enc_compact_string(o.client_id))
    out.append(enc_compact_string(o.client_host))
    items = o.subscribed_topic_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    _encode_Assignment_0(o.assignment, out)
    out.append(b'\x00')


def _encode_DescribedGroup_0(o: DescribedGroup, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.group_state))
    out.append(_S2.pack(o.group_epoch, o.assignment_epoch))
    out.append(enc_compact_string(o.assignor_name))
    items = o.members
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Member_0(x, out)
    out.append(_S0.pack(o.authorized_operations))
    out.append(b'\x00')


def _encode_ShareGroupDescribeResponse_0(o: ShareGroupDescribeResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribedGroup_0(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ShareGroupDescribeResponse_0}
ENCODERS = {1: _encode_ShareGroupDescribeResponse_0}
MESSAGE = ShareGroupDescribeResponse
