"""Generated from Kafka's AlterShareGroupOffsetsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterShareGroupOffsetsRequest'
API_KEY = 91
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>iq')


class AlterShareGroupOffsetsRequest(Struct):
    """AlterShareGroupOffsetsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 91
    VALID_VERSIONS = (0, 0)

    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics


class AlterShareGroupOffsetsRequestTopic(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class AlterShareGroupOffsetsRequestPartition(Struct):
    __slots__ = ('partition_index', 'start_offset')

    def __init__(self, partition_index: Any = 0, start_offset: Any = 0) -> None:
        self.partition_index = partition_index
        self.start_offset = start_offset



def _decode_AlterShareGroupOffsetsRequestPartition_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsRequestPartition, int]:
    o = AlterShareGroupOffsetsRequestPartition.__new__(AlterShareGroupOffsetsRequestPartition)
    (o.partition_index, o.start_offset,) = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterShareGroupOffsetsRequestTopic_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsRequestTopic, int]:
    o = AlterShareGroupOffsetsRequestTopic.__new__(AlterShareGroupOffsetsRequestTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterShareGroupOffsetsRequestPartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterShareGroupOffsetsRequest_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsRequest, int]:
    o = AlterShareGroupOffsetsRequest.__new__(AlterShareGroupOffsetsRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterShareGroupOffsetsRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterShareGroupOffsetsRequestPartition_0(o: AlterShareGroupOffsetsRequestPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.start_offset))
    out.append(b'\x00')


def _encode_AlterShareGroupOffsetsRequestTopic_0(o: AlterShareGroupOffsetsRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterShareGroupOffsetsRequestPartition_0(x, out)
    out.append(b'\x00')


def _encode_AlterShareGroupOffsetsRequest_0(o: AlterShareGroupOffsetsRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterShareGroupOffsetsRequestTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterShareGroupOffsetsRequest_0}
ENCODERS = {0: _encode_AlterShareGroupOffsetsRequest_0}
MESSAGE = AlterShareGroupOffsetsRequest
