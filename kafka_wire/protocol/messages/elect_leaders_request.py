"""Generated from Kafka's ElectLeadersRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ElectLeadersRequest'
API_KEY = 43
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>b')


class ElectLeadersRequest(Struct):
    """ElectLeadersRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 43
    VALID_VERSIONS = (0, 2)

    __slots__ = ('election_type', 'topic_partitions', 'timeout_ms')

    def __init__(self, election_type: Any = 0, topic_partitions: Any = UNSET, timeout_ms: Any = 60000) -> None:
        self.election_type = election_type
        self.topic_partitions = [] if topic_partitions is UNSET else topic_partitions
        self.timeout_ms = timeout_ms


class TopicPartitions(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions



def _decode_TopicPartitions_0(buf: Buffer, pos: int) -> tuple[TopicPartitions, int]:
    o = TopicPartitions.__new__(TopicPartitions)
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


def _decode_ElectLeadersRequest_0(buf: Buffer, pos: int) -> tuple[ElectLeadersRequest, int]:
    o = ElectLeadersRequest.__new__(ElectLeadersRequest)
    o.election_type = 0
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        o.topic_partitions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartitions_0(buf, pos)
            append(x)
        o.topic_partitions = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_ElectLeadersRequest_1(buf: Buffer, pos: int) -> tuple[ElectLeadersRequest, int]:
    o = ElectLeadersRequest.__new__(ElectLeadersRequest)
    (o.election_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        o.topic_partitions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartitions_0(buf, pos)
            append(x)
        o.topic_partitions = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_TopicPartitions_1(buf: Buffer, pos: int) -> tuple[TopicPartitions, int]:
    o = TopicPartitions.__new__(TopicPartitions)
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


def _decode_ElectLeadersRequest_2(buf: Buffer, pos: int) -> tuple[ElectLeadersRequest, int]:
    o = ElectLeadersRequest.__new__(ElectLeadersRequest)
    (o.election_type,) = _S1.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topic_partitions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicPartitions_1(buf, pos)
            append(x)
        o.topic_partitions = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TopicPartitions_0(o: TopicPartitions, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_ElectLeadersRequest_0(o: ElectLeadersRequest, out: list[Any]) -> None:
    items = o.topic_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_0(x, out)
    out.append(_S0.pack(o.timeout_ms))


def _encode_ElectLeadersRequest_1(o: ElectLeadersRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.election_type))
    items = o.topic_partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_0(x, out)
    out.append(_S0.pack(o.timeout_ms))


def _encode_TopicPartitions_1(o: TopicPartitions, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_ElectLeadersRequest_2(o: ElectLeadersRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.election_type))
    items = o.topic_partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicPartitions_1(x, out)
    out.append(_S0.pack(o.timeout_ms))
    out.append(b'\x00')


DECODERS = {0: _decode_ElectLeadersRequest_0, 1: _decode_ElectLeadersRequest_1, 2: _decode_ElectLeadersRequest_2}
ENCODERS = {0: _encode_ElectLeadersRequest_0, 1: _encode_ElectLeadersRequest_1, 2: _encode_ElectLeadersRequest_2}
MESSAGE = ElectLeadersRequest
