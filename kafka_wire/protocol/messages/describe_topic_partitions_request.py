"""Generated from Kafka's DescribeTopicPartitionsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeTopicPartitionsRequest'
API_KEY = 75
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>b')


class DescribeTopicPartitionsRequest(Struct):
    """DescribeTopicPartitionsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 75
    VALID_VERSIONS = (0, 0)

    __slots__ = ('topics', 'response_partition_limit', 'cursor')

    def __init__(self, topics: Any = None, response_partition_limit: Any = 2000, cursor: Any = None) -> None:
        self.topics = [] if topics is None else topics
        self.response_partition_limit = response_partition_limit
        self.cursor = cursor


class TopicRequest(Struct):
    __slots__ = ('name',)

    def __init__(self, name: Any = '') -> None:
        self.name = name


class Cursor(Struct):
    __slots__ = ('topic_name', 'partition_index')

    def __init__(self, topic_name: Any = '', partition_index: Any = 0) -> None:
        self.topic_name = topic_name
        self.partition_index = partition_index



def _decode_TopicRequest_0(buf: Buffer, pos: int) -> tuple[TopicRequest, int]:
    o = TopicRequest.__new__(TopicRequest)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Cursor_0(buf: Buffer, pos: int) -> tuple[Cursor, int]:
    o = Cursor.__new__(Cursor)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeTopicPartitionsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeTopicPartitionsRequest, int]:
    o = DescribeTopicPartitionsRequest.__new__(DescribeTopicPartitionsRequest)
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicRequest_0(buf, pos)
            append(x)
        o.topics = items
    (o.response_partition_limit,) = _S0.unpack_from(buf, pos)
    pos += 4
    if _S1.unpack_from(buf, pos)[0] < 0:
        o.cursor = None
        pos += 1
    else:
        o.cursor, pos = _decode_Cursor_0(buf, pos + 1)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TopicRequest_0(o: TopicRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(b'\x00')


def _encode_Cursor_0(o: Cursor, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S0.pack(o.partition_index))
    out.append(b'\x00')


def _encode_DescribeTopicPartitionsRequest_0(o: DescribeTopicPartitionsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicRequest_0(x, out)
    out.append(_S0.pack(o.response_partition_limit))
    if o.cursor is None:
        out.append(b'\xff')
    else:
        out.append(b'\x01')
        _encode_Cursor_0(o.cursor, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeTopicPartitionsRequest_0}
ENCODERS = {0: _encode_DescribeTopicPartitionsRequest_0}
MESSAGE = DescribeTopicPartitionsRequest
