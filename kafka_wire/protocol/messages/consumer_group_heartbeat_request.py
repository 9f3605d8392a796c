"""Generated from Kafka's ConsumerGroupHeartbeatRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ConsumerGroupHeartbeatRequest'
API_KEY = 68
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>16s')


class ConsumerGroupHeartbeatRequest(Struct):
    """ConsumerGroupHeartbeatRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 68
    VALID_VERSIONS = (0, 1)

    __slots__ = ('group_id', 'member_id', 'member_epoch', 'instance_id', 'rack_id', 'rebalance_timeout_ms', 'subscribed_topic_names', 'subscribed_topic_regex', 'server_assignor', 'topic_partitions')

    def __init__(self, group_id: Any = '', member_id: Any = '', member_epoch: Any = 0, instance_id: Any = None, rack_id: Any = None, rebalance_timeout_ms: Any = -1, subscribed_topic_names: Any = None, subscribed_topic_regex: Any = None, server_assignor: Any = None, topic_partitions: Any = None) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.subscribed_topic_names = subscribed_topic_names
        self.subscribed_topic_regex = subscribed_topic_regex
        self.server_assignor = server_assignor
        self.topic_partitions = topic_partitions


class TopicPartitions(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions



def _decode_TopicPartitions_0(buf: Buffer, pos: int) -> tuple[TopicPartitions, int]:
    o = TopicPartitions.__new__(TopicPartitions)
    (o.topic_id,) = _S1.unpack_from(buf, pos)
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


def _decode_ConsumerGroupHeartbeatRequest_0(buf: Buffer, pos: int) -> tuple[ConsumerGroupHeartbeatRequest, int]:
    o = ConsumerGroupHeartbeatRequest.__new__(ConsumerGroupHeartbeatRequest)
    o.subscribed_topic_regex = None
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.instance_id, pos = read_compact_string(buf, pos)
    o.rack_id, pos = read_compact_string(buf, pos)
    (o.rebalance_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SubscribedTopicNames')
            append(x)
        o.subscribed_topic_names = items
    o.server_assignor, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        o.topic_partitions = None
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


def _decode_ConsumerGroupHeartbeatRequest_1(buf: Buffer, pos: int) -> tuple[ConsumerGroupHeartbeatRequest, int]:
    o = ConsumerGroupHeartbeatRequest.__new__(ConsumerGroupHeartbeatRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    (o.member_epoch,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.instance_id, pos = read_compact_string(buf, pos)
    o.rack_id, pos = read_compact_string(buf, pos)
    (o.rebalance_timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        o.subscribed_topic_names = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('SubscribedTopicNames')
            append(x)
        o.subscribed_topic_names = items
    o.subscribed_topic_regex, pos = read_compact_string(buf, pos)
    o.server_assignor, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        o.topic_partitions = None
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


def _encode_TopicPartitions_0(o: TopicPartitions, out: list[Any]) -> None:
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_ConsumerGroupHeartbeatRequest_0(o: ConsumerGroupHeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.member_epoch))
    out.append(enc_compact_string(o.instance_id))
    out.append(enc_compact_string(o.rack_id))
    out.append(_S0.pack(o.rebalance_timeout_ms))
    items = o.subscribed_topic_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(enc_compact_string(o.server_assignor))
    items = o.topic_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_0(x, out)
    out.append(b'\x00')


def _encode_ConsumerGroupHeartbeatRequest_1(o: ConsumerGroupHeartbeatRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S0.pack(o.member_epoch))
    out.append(enc_compact_string(o.instance_id))
    out.append(enc_compact_string(o.rack_id))
    out.append(_S0.pack(o.rebalance_timeout_ms))
    items = o.subscribed_topic_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(enc_compact_string(o.subscribed_topic_regex))
    out.append(enc_compact_string(o.server_assignor))
    items = o.topic_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ConsumerGroupHeartbeatRequest_0, 1: _decode_ConsumerGroupHeartbeatRequest_1}
ENCODERS = {0: _encode_ConsumerGroupHeartbeatRequest_0, 1: _encode_ConsumerGroupHeartbeatRequest_1}
MESSAGE = ConsumerGroupHeartbeatRequest
