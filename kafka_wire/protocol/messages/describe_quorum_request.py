"""Generated from Kafka's DescribeQuorumRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeQuorumRequest'
API_KEY = 55
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')


class DescribeQuorumRequest(Struct):
    """DescribeQuorumRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 55
    VALID_VERSIONS = (0, 2)

    __slots__ = ('topics',)

    def __init__(self, topics: Any = None) -> None:
        self.topics = [] if topics is None else topics


class TopicData(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index',)

    def __init__(self, partition_index: Any = 0) -> None:
        self.partition_index = partition_index



def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition_index,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_0(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeQuorumRequest_0(buf: Buffer, pos: int) -> tuple[DescribeQuorumRequest, int]:
    o = DescribeQuorumRequest.__new__(DescribeQuorumRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index))
    out.append(b'\x00')


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_DescribeQuorumRequest_0(o: DescribeQuorumRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeQuorumRequest_0, 1: _decode_DescribeQuorumRequest_0, 2: _decode_DescribeQuorumRequest_0}
ENCODERS = {0: _encode_DescribeQuorumRequest_0, 1: _encode_DescribeQuorumRequest_0, 2: _encode_DescribeQuorumRequest_0}
MESSAGE = DescribeQuorumRequest
