"""Generated from Kafka's OffsetForLeaderEpochRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetForLeaderEpochRequest'
API_KEY = 23
VALID_VERSIONS = (2, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>iii')
_S1 = struct.Struct('>i')


class OffsetForLeaderEpochRequest(Struct):
    """OffsetForLeaderEpochRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 23
    VALID_VERSIONS = (2, 4)

    __slots__ = ('replica_id', 'topics')

    def __init__(self, replica_id: Any = -2, topics: Any = None) -> None:
        self.replica_id = replica_id
        self.topics = [] if topics is None else topics


class OffsetForLeaderTopic(Struct):
    __slots__ = ('topic', 'partitions')

    def __init__(self, topic: Any = '', partitions: Any = None) -> None:
        self.topic = topic
        self.partitions = [] if partitions is None else partitions


class OffsetForLeaderPartition(Struct):
    __slots__ = ('partition', 'current_leader_epoch', 'leader_epoch')

    def __init__(self, partition: Any = 0, current_leader_epoch: Any = -1, leader_epoch: Any = 0) -> None:
        self.partition = partition
        self.current_leader_epoch = current_leader_epoch
        self.leader_epoch = leader_epoch



def _decode_OffsetForLeaderPartition_0(buf: Buffer, pos: int) -> tuple[OffsetForLeaderPartition, int]:
    o = OffsetForLeaderPartition.__new__(OffsetForLeaderPartition)
    (o.partition, o.current_leader_epoch, o.leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 12
    return o, pos


def _decode_OffsetForLeaderTopic_0(buf: Buffer, pos: int) -> tuple[OffsetForLeaderTopic, int]:
    o = OffsetForLeaderTopic.__new__(OffsetForLeaderTopic)
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_OffsetForLeaderEpochRequest_0(buf: Buffer, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    o = OffsetForLeaderEpochRequest.__new__(OffsetForLeaderEpochRequest)
    o.replica_id = -2
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetForLeaderEpochRequest_1(buf: Buffer, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    o = OffsetForLeaderEpochRequest.__new__(OffsetForLeaderEpochRequest)
    (o.replica_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetForLeaderPartition_1(buf: Buffer, pos: int) -> tuple[OffsetForLeaderPartition, int]:
    o = OffsetForLeaderPartition.__new__(OffsetForLeaderPartition)
    (o.partition, o.current_leader_epoch, o.leader_epoch,) = _S0.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetForLeaderTopic_1(buf: Buffer, pos: int) -> tuple[OffsetForLeaderTopic, int]:
    o = OffsetForLeaderTopic.__new__(OffsetForLeaderTopic)
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderPartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetForLeaderEpochRequest_2(buf: Buffer, pos: int) -> tuple[OffsetForLeaderEpochRequest, int]:
    o = OffsetForLeaderEpochRequest.__new__(OffsetForLeaderEpochRequest)
    (o.replica_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetForLeaderTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OffsetForLeaderPartition_0(o: OffsetForLeaderPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition, o.current_leader_epoch, o.leader_epoch))


def _encode_OffsetForLeaderTopic_0(o: OffsetForLeaderTopic, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderPartition_0(x, out)


def _encode_OffsetForLeaderEpochRequest_0(o: OffsetForLeaderEpochRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderTopic_0(x, out)


def _encode_OffsetForLeaderEpochRequest_1(o: OffsetForLeaderEpochRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.replica_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderTopic_0(x, out)


def _encode_OffsetForLeaderPartition_1(o: OffsetForLeaderPartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition, o.current_leader_epoch, o.leader_epoch))
    out.append(b'\x00')


def _encode_OffsetForLeaderTopic_1(o: OffsetForLeaderTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderPartition_1(x, out)
    out.append(b'\x00')


def _encode_OffsetForLeaderEpochRequest_2(o: OffsetForLeaderEpochRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.replica_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetForLeaderTopic_1(x, out)
    out.append(b'\x00')


DECODERS = {2: _decode_OffsetForLeaderEpochRequest_0, 3: _decode_OffsetForLeaderEpochRequest_1, 4: _decode_OffsetForLeaderEpochRequest_2}
ENCODERS = {2: _encode_OffsetForLeaderEpochRequest_0, 3: _encode_OffsetForLeaderEpochRequest_1, 4: _encode_OffsetForLeaderEpochRequest_2}
MESSAGE = OffsetForLeaderEpochRequest
