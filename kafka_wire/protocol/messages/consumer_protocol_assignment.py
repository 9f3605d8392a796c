"""Generated from Kafka's ConsumerProtocolAssignment.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ConsumerProtocolAssignment'
API_KEY = None
VALID_VERSIONS = (0, 3)
FLEXIBLE_VERSIONS = None



class ConsumerProtocolAssignment(Struct):
    """ConsumerProtocolAssignment (generated from Kafka's JSON message spec)."""

    VALID_VERSIONS = (0, 3)

    __slots__ = ('assigned_partitions', 'user_data')

    def __init__(self, assigned_partitions: Any = None, user_data: Any = None) -> None:
        self.assigned_partitions = [] if assigned_partitions is None else assigned_partitions
        self.user_data = user_data


class TopicPartition(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_TopicPartition_0(buf: Buffer, pos: int) -> tuple[TopicPartition, int]:
    o = TopicPartition.__new__(TopicPartition)
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


def _decode_ConsumerProtocolAssignment_0(buf: Buffer, pos: int) -> tuple[ConsumerProtocolAssignment, int]:
    o = ConsumerProtocolAssignment.__new__(ConsumerProtocolAssignment)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('AssignedPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.assigned_partitions = items
    o.user_data, pos = read_bytes(buf, pos)
    return o, pos


def _encode_TopicPartition_0(o: TopicPartition, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_ConsumerProtocolAssignment_0(o: ConsumerProtocolAssignment, out: list[Any]) -> None:
    items = o.assigned_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)
    out.append(enc_bytes(o.user_data))


DECODERS = {0: _decode_ConsumerProtocolAssignment_0, 1: _decode_ConsumerProtocolAssignment_0, 2: _decode_ConsumerProtocolAssignment_0, 3: _decode_ConsumerProtocolAssignment_0}
ENCODERS = {0: _encode_ConsumerProtocolAssignment_0, 1: _encode_ConsumerProtocolAssignment_0, 2: _encode_ConsumerProtocolAssignment_0, 3: _encode_ConsumerProtocolAssignment_0}
MESSAGE = ConsumerProtocolAssignment
