"""Generated from Kafka's TxnOffsetCommitRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'TxnOffsetCommitRequest'
API_KEY = 28
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>qh')
_S1 = struct.Struct('>iq')
_S2 = struct.Struct('>iqi')
_S3 = struct.Struct('>qhi')


class TxnOffsetCommitRequest(Struct):
    """TxnOffsetCommitRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 28
    VALID_VERSIONS = (0, 5)

    __slots__ = ('transactional_id', 'group_id', 'producer_id', 'producer_epoch', 'generation_id', 'member_id', 'group_instance_id', 'topics')

    def __init__(self, transactional_id: Any = '', group_id: Any = '', producer_id: Any = 0, producer_epoch: Any = 0, generation_id: Any = -1, member_id: Any = '', group_instance_id: Any = None, topics: Any = None) -> None:
        self.transactional_id = transactional_id
        self.group_id = group_id
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.generation_id = generation_id
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.topics = [] if topics is None else topics


class TxnOffsetCommitRequestTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class TxnOffsetCommitRequestPartition(Struct):
    __slots__ = ('partition_index', 'committed_offset', 'committed_leader_epoch', 'committed_metadata')

    def __init__(self, partition_index: Any = 0, committed_offset: Any = 0, committed_leader_epoch: Any = -1, committed_metadata: Any = '') -> None:
        self.partition_index = partition_index
        self.committed_offset = committed_offset
        self.committed_leader_epoch = committed_leader_epoch
        self.committed_metadata = committed_metadata



def _decode_TxnOffsetCommitRequestPartition_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    o = TxnOffsetCommitRequestPartition.__new__(TxnOffsetCommitRequestPartition)
    o.committed_leader_epoch = -1
    (o.partition_index, o.committed_offset,) = _S1.unpack_from(buf, pos)
    pos += 12
    o.committed_metadata, pos = read_string(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitRequestTopic_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    o = TxnOffsetCommitRequestTopic.__new__(TxnOffsetCommitRequestTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_TxnOffsetCommitRequest_0(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    o = TxnOffsetCommitRequest.__new__(TxnOffsetCommitRequest)
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    o.transactional_id, pos = read_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.producer_id, o.producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_TxnOffsetCommitRequestPartition_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    o = TxnOffsetCommitRequestPartition.__new__(TxnOffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S2.unpack_from(buf, pos)
    pos += 16
    o.committed_metadata, pos = read_string(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitRequestTopic_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    o = TxnOffsetCommitRequestTopic.__new__(TxnOffsetCommitRequestTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestPartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_TxnOffsetCommitRequest_1(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    o = TxnOffsetCommitRequest.__new__(TxnOffsetCommitRequest)
    o.generation_id = -1
    o.member_id = ''
    o.group_instance_id = None
    o.transactional_id, pos = read_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.producer_id, o.producer_epoch,) = _S0.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_TxnOffsetCommitRequestPartition_2(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestPartition, int]:
    o = TxnOffsetCommitRequestPartition.__new__(TxnOffsetCommitRequestPartition)
    (o.partition_index, o.committed_offset, o.committed_leader_epoch,) = _S2.unpack_from(buf, pos)
    pos += 16
    o.committed_metadata, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitRequestTopic_2(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequestTopic, int]:
    o = TxnOffsetCommitRequestTopic.__new__(TxnOffsetCommitRequestTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestPartition_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TxnOffsetCommitRequest_2(buf: Buffer, pos: int) -> tuple[TxnOffsetCommitRequest, int]:
    o = TxnOffsetCommitRequest.__new__(TxnOffsetCommitRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    (o.producer_id, o.producer_epoch, o.generation_id,) = _S3.unpack_from(buf, pos)
    pos += 14
    o.member_id, pos = read_compact_string(buf, pos)
    if o.member_id is None:
        null_field('MemberId')
    o.group_instance_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TxnOffsetCommitRequestTopic_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_TxnOffsetCommitRequestPartition_0(o: TxnOffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.committed_offset))
    out.append(enc_string(o.committed_metadata))


def _encode_TxnOffsetCommitRequestTopic_0(o: TxnOffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestPartition_0(x, out)


def _encode_TxnOffsetCommitRequest_0(o: TxnOffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestTopic_0(x, out)


def _encode_TxnOffsetCommitRequestPartition_1(o: TxnOffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_string(o.committed_metadata))


def _encode_TxnOffsetCommitRequestTopic_1(o: TxnOffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestPartition_1(x, out)


def _encode_TxnOffsetCommitRequest_1(o: TxnOffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(enc_string(o.group_id))
    out.append(_S0.pack(o.producer_id, o.producer_epoch))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestTopic_1(x, out)


def _encode_TxnOffsetCommitRequestPartition_2(o: TxnOffsetCommitRequestPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.committed_offset, o.committed_leader_epoch))
    out.append(enc_compact_string(o.committed_metadata))
    out.append(b'\x00')


def _encode_TxnOffsetCommitRequestTopic_2(o: TxnOffsetCommitRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestPartition_2(x, out)
    out.append(b'\x00')


def _encode_TxnOffsetCommitRequest_2(o: TxnOffsetCommitRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(enc_compact_string(o.group_id))
    out.append(_S3.pack(o.producer_id, o.producer_epoch, o.generation_id))
    out.append(enc_compact_string(o.member_id))
    out.append(enc_compact_string(o.group_instance_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TxnOffsetCommitRequestTopic_2(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_TxnOffsetCommitRequest_0, 1: _decode_TxnOffsetCommitRequest_0, 2: _decode_TxnOffsetCommitRequest_1, 3: _decode_TxnOffsetCommitRequest_2, 4: _decode_TxnOffsetCommitRequest_2, 5: _decode_TxnOffsetCommitRequest_2}
ENCODERS = {0: _encode_TxnOffsetCommitRequest_0, 1: _encode_TxnOffsetCommitRequest_0, 2: _encode_TxnOffsetCommitRequest_1, 3: _encode_TxnOffsetCommitRequest_2, 4: _encode_TxnOffsetCommitRequest_2, 5: _encode_TxnOffsetCommitRequest_2}
MESSAGE = TxnOffsetCommitRequest
