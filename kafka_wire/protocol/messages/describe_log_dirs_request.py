"""Generated from Kafka's DescribeLogDirsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeLogDirsRequest'
API_KEY = 35
VALID_VERSIONS = (1, 5)
FLEXIBLE_VERSIONS = (2, 32767)



class DescribeLogDirsRequest(Struct):
    """DescribeLogDirsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 35
    VALID_VERSIONS = (1, 5)

    __slots__ = ('topics',)

    def __init__(self, topics: Any = UNSET) -> None:
        self.topics = [] if topics is UNSET else topics


class DescribableLogDirTopic(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_DescribableLogDirTopic_0(buf: Buffer, pos: int) -> tuple[DescribableLogDirTopic, int]:
    o = DescribableLogDirTopic.__new__(DescribableLogDirTopic)
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


def _decode_DescribeLogDirsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeLogDirsRequest, int]:
    o = DescribeLogDirsRequest.__new__(DescribeLogDirsRequest)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribableLogDirTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_DescribableLogDirTopic_1(buf: Buffer, pos: int) -> tuple[DescribableLogDirTopic, int]:
    o = DescribableLogDirTopic.__new__(DescribableLogDirTopic)
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
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


def _decode_DescribeLogDirsRequest_1(buf: Buffer, pos: int) -> tuple[DescribeLogDirsRequest, int]:
    o = DescribeLogDirsRequest.__new__(DescribeLogDirsRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribableLogDirTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribableLogDirTopic_0(o: DescribableLogDirTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_DescribeLogDirsRequest_0(o: DescribeLogDirsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribableLogDirTopic_0(x, out)


def _encode_DescribableLogDirTopic_1(o: DescribableLogDirTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_DescribeLogDirsRequest_1(o: DescribeLogDirsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribableLogDirTopic_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DescribeLogDirsRequest_0, 2: _decode_DescribeLogDirsRequest_1, 3: _decode_DescribeLogDirsRequest_1, 4: _decode_DescribeLogDirsRequest_1, 5: _decode_DescribeLogDirsRequest_1}
ENCODERS = {1: _encode_DescribeLogDirsRequest_0, 2: _encode_DescribeLogDirsRequest_1, 3: _encode_DescribeLogDirsRequest_1, 4: _encode_DescribeLogDirsRequest_1, 5: _encode_DescribeLogDirsRequest_1}
MESSAGE = DescribeLogDirsRequest
