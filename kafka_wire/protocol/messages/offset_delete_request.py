"""Generated from Kafka's OffsetDeleteRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetDeleteRequest'
API_KEY = 47
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = None

_S0 = struct.Struct('>i')


class OffsetDeleteRequest(Struct):
    """OffsetDeleteRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 47
    VALID_VERSIONS = (0, 0)

    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics


class OffsetDeleteRequestTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class OffsetDeleteRequestPartition(Struct):
    __slots__ = ('partition_index',)

    def __init__(self, partition_index: Any = 0) -> None:
        self.partition_index = partition_index



def _decode_OffsetDeleteRequestPartition_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteRequestPartition, int]:
    o = OffsetDeleteRequestPartition.__new__(OffsetDeleteRequestPartition)
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_OffsetDeleteRequestTopic_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteRequestTopic, int]:
    o = OffsetDeleteRequestTopic.__new__(OffsetDeleteRequestTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetDeleteRequestPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetDeleteRequest_0(buf: Buffer, pos: int) -> tuple[OffsetDeleteRequest, int]:
    o = OffsetDeleteRequest.__new__(OffsetDeleteRequest)
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetDeleteRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _encode_OffsetDeleteRequestPartition_0(o: OffsetDeleteRequestPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index))


def _encode_OffsetDeleteRequestTopic_0(o: OffsetDeleteRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetDeleteRequestPartition_0(x, out)


def _encode_OffsetDeleteRequest_0(o: OffsetDeleteRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetDeleteRequestTopic_0(x, out)


DECODERS = {0: _decode_OffsetDeleteRequest_0}
ENCODERS = {0: _encode_OffsetDeleteRequest_0}
MESSAGE = OffsetDeleteRequest
