"""Generated from Kafka's ConsumerProtocolSubscription.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ConsumerProtocolSubscription'
API_KEY = None
VALID_VERSIONS = (0, 3)
FLEXIBLE_VERSIONS = None

_S0 = struct.Struct('>i')


class ConsumerProtocolSubscription(Struct):
    """ConsumerProtocolSubscription (generated from Kafka's JSON message spec)."""

    VALID_VERSIONS = (0, 3)

    __slots__ = ('topics', 'user_data', 'owned_partitions', 'generation_id', 'rack_id')

    def __init__(self, topics: Any = None, user_data: Any = None, owned_partitions: Any = None, generation_id: Any = -1, rack_id: Any = None) -> None:
        self.topics = [] if topics is None else topics
        self.user_data = user_data
        self.owned_partitions = [] if owned_partitions is None else owned_partitions
        self.generation_id = generation_id
        self.rack_id = rack_id


class TopicPartition(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_ConsumerProtocolSubscription_0(buf: Buffer, pos: int) -> tuple[ConsumerProtocolSubscription, int]:
    o = ConsumerProtocolSubscription.__new__(ConsumerProtocolSubscription)
    o.owned_partitions = []
    o.generation_id = -1
    o.rack_id = None
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Topics')
            append(x)
        o.topics = items
    o.user_data, pos = read_bytes(buf, pos)
    return o, pos


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


def _decode_ConsumerProtocolSubscription_1(buf: Buffer, pos: int) -> tuple[ConsumerProtocolSubscription, int]:
    o = ConsumerProtocolSubscription.__new__(ConsumerProtocolSubscription)
    o.generation_id = -1
    o.rack_id = None
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Topics')
            append(x)
        o.topics = items
    o.user_data, pos = read_bytes(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('OwnedPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.owned_partitions = items
    return o, pos


def _decode_ConsumerProtocolSubscription_2(buf: Buffer, pos: int) -> tuple[ConsumerProtocolSubscription, int]:
    o = ConsumerProtocolSubscription.__new__(ConsumerProtocolSubscription)
    o.rack_id = None
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Topics')
            append(x)
        o.topics = items
    o.user_data, pos = read_bytes(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('OwnedPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.owned_partitions = items
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_ConsumerProtocolSubscription_3(buf: Buffer, pos: int) -> tuple[ConsumerProtocolSubscription, int]:
    o = ConsumerProtocolSubscription.__new__(ConsumerProtocolSubscription)
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('Topics')
            append(x)
        o.topics = items
    o.user_data, pos = read_bytes(buf, pos)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('OwnedPartitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartition_0(buf, pos)
            append(x)
        o.owned_partitions = items
    (o.generation_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.rack_id, pos = read_string(buf, pos)
    return o, pos


def _encode_ConsumerProtocolSubscription_0(o: ConsumerProtocolSubscription, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(enc_bytes(o.user_data))


def _encode_TopicPartition_0(o: TopicPartition, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_ConsumerProtocolSubscription_1(o: ConsumerProtocolSubscription, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(enc_bytes(o.user_data))
    items = o.owned_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)


def _encode_ConsumerProtocolSubscription_2(o: ConsumerProtocolSubscription, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(enc_bytes(o.user_data))
    items = o.owned_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)
    out.append(_S0.pack(o.generation_id))


def _encode_ConsumerProtocolSubscription_3(o: ConsumerProtocolSubscription, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(enc_bytes(o.user_data))
    items = o.owned_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartition_0(x, out)
    out.append(_S0.pack(o.generation_id))
    out.append(enc_string(o.rack_id))


DECODERS = {0: _decode_ConsumerProtocolSubscription_0, 1: _decode_ConsumerProtocolSubscription_1, 2: _decode_ConsumerProtocolSubscription_2, 3: _decode_ConsumerProtocolSubscription_3}
ENCODERS = {0: _encode_ConsumerProtocolSubscription_0, 1: _encode_ConsumerProtocolSubscription_1, 2: _encode_ConsumerProtocolSubscription_2, 3: _encode_ConsumerProtocolSubscription_3}
MESSAGE = ConsumerProtocolSubscription
