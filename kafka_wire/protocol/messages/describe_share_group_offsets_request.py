"""Generated from Kafka's DescribeShareGroupOffsetsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeShareGroupOffsetsRequest'
API_KEY = 90
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)



class DescribeShareGroupOffsetsRequest(Struct):
    """DescribeShareGroupOffsetsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 90
    VALID_VERSIONS = (0, 1)

    __slots__ = ('groups',)

    def __init__(self, groups: Any = None) -> None:
        self.groups = [] if groups is None else groups


class DescribeShareGroupOffsetsRequestGroup(Struct):
    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = UNSET) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics


class DescribeShareGroupOffsetsRequestTopic(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions



def _decode_DescribeShareGroupOffsetsRequestTopic_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsRequestTopic, int]:
    o = DescribeShareGroupOffsetsRequestTopic.__new__(DescribeShareGroupOffsetsRequestTopic)
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


def _decode_DescribeShareGroupOffsetsRequestGroup_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsRequestGroup, int]:
    o = DescribeShareGroupOffsetsRequestGroup.__new__(DescribeShareGroupOffsetsRequestGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeShareGroupOffsetsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeShareGroupOffsetsRequest, int]:
    o = DescribeShareGroupOffsetsRequest.__new__(DescribeShareGroupOffsetsRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeShareGroupOffsetsRequestGroup_0(buf, pos)
            append(x)
        o.groups = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeShareGroupOffsetsRequestTopic_0(o: DescribeShareGroupOffsetsRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsRequestGroup_0(o: DescribeShareGroupOffsetsRequestGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsRequestTopic_0(x, out)
    out.append(b'\x00')


def _encode_DescribeShareGroupOffsetsRequest_0(o: DescribeShareGroupOffsetsRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeShareGroupOffsetsRequestGroup_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeShareGroupOffsetsRequest_0, 1: _decode_DescribeShareGroupOffsetsRequest_0}
ENCODERS = {0: _encode_DescribeShareGroupOffsetsRequest_0, 1: _encode_DescribeShareGroupOffsetsRequest_0}
MESSAGE = DescribeShareGroupOffsetsRequest
