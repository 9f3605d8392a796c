"""Generated from Kafka's OffsetForLeaderEpochResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetForLeaderEpochResponse'
API_KEY = 23
VALID_VERSIONS = (2, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>hiiq')


class OffsetForLeaderEpochResponse(Struct):
    """OffsetForLeaderEpochResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 23
    VALID_VERSIONS = (2, 4)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class OffsetForLeaderTopicResult(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions


class EpochEndOffset(Struct):
    __slots__ = ('error_code', 'partition', 'leader_epoch', 'end_offset')

    def __init__(self, error_code: Any = 0, partition: Any = 0, leader_epoch: Any = -1, end_offset: Any = -1) -> None:
        self.error_code = error_code
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.end_offset = end_offset



def _decode_EpochEndOffset_0(buf: Buffer, pos: int) -> tuple[EpochEndOffset, int]:
    o = EpochEndOffset.__new__(EpochEndOffset)
    (o.error_code, o.partition, o.leader_epoch, o.end_offset,) = _S1.unpack_from(buf, pos)
    pos += 18
    return o, pos


def _decode_OffsetForLeaderTopicResult_0(buf: Buffer, pos: int) -> tuple[OffsetForLeaderTopicResult, int]:
    o = OffsetForLeaderTopicResult.__new__(OffsetForLeaderTopicResult)
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EpochEndOffset_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetForLeaderEpochResponse_0(buf: Buffer, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    o = OffsetForLeaderEpochResponse.__new__(OffsetForLeaderEpochResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderTopicResult_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_EpochEndOffset_1(buf: Buffer, pos: int) -> tuple[EpochEndOffset, int]:
    o = EpochEndOffset.__new__(EpochEndOffset)
    (o.error_code, o.partition, o.leader_epoch, o.end_offset,) = _S1.unpack_from(buf, pos)
    pos += 18
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetForLeaderTopicResult_1(buf: Buffer, pos: int) -> tuple[OffsetForLeaderTopicResult, int]:
    o = OffsetForLeaderTopicResult.__new__(OffsetForLeaderTopicResult)
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 19)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_EpochEndOffset_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetForLeaderEpochResponse_1(buf: Buffer, pos: int) -> tuple[OffsetForLeaderEpochResponse, int]:
    o = OffsetForLeaderEpochResponse.__new__(OffsetForLeaderEpochResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderTopicResult_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_EpochEndOffset_0(o: EpochEndOffset, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code, o.partition, o.leader_epoch, o.end_offset))


def _encode_OffsetForLeaderTopicResult_0(o: OffsetForLeaderTopicResult, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_EpochEndOffset_0(x, out)


def _encode_OffsetForLeaderEpochResponse_0(o: OffsetForLeaderEpochResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderTopicResult_0(x, out)


def _encode_EpochEndOffset_1(o: EpochEndOffset, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code, o.partition, o.leader_epoch, o.end_offset))
    out.append(b'\x00')


def _encode_OffsetForLeaderTopicResult_1(o: OffsetForLeaderTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_EpochEndOffset_1(x, out)
    out.append(b'\x00')


def _encode_OffsetForLeaderEpochResponse_1(o: OffsetForLeaderEpochResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderTopicResult_1(x, out)
    out.append(b'\x00')


DECODERS = {2: _decode_OffsetForLeaderEpochResponse_0, 3: _decode_OffsetForLeaderEpochResponse_0, 4: _decode_OffsetForLeaderEpochResponse_1}
ENCODERS = {2: _encode_OffsetForLeaderEpochResponse_0, 3: _encode_OffsetForLeaderEpochResponse_0, 4: _encode_OffsetForLeaderEpochResponse_1}
MESSAGE = OffsetForLeaderEpochResponse
