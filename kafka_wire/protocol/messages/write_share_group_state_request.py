"""Generated from Kafka's WriteShareGroupStateRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'WriteShareGroupStateRequest'
API_KEY = 85
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>16s')
_S1 = struct.Struct('>iiiq')
_S2 = struct.Struct('>qqbh')
_S3 = struct.Struct('>iiiqi')


class WriteShareGroupStateRequest(Struct):
    """WriteShareGroupStateRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 85
    VALID_VERSIONS = (0, 1)

    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics


class WriteStateData(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count', 'state_batches')

    def __init__(self, partition: Any = 0, state_epoch: Any = 0, leader_epoch: Any = 0, start_offset: Any = 0, delivery_complete_count: Any = -1, state_batches: Any = None) -> None:
        self.partition = partition
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count
        self.state_batches = [] if state_batches is None else state_batches


class StateBatch(Struct):
    __slots__ = ('first_offset', 'last_offset', 'delivery_state', 'delivery_count')

    def __init__(self, first_offset: Any = 0, last_offset: Any = 0, delivery_state: Any = 0, delivery_count: Any = 0) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_state = delivery_state
        self.delivery_count = delivery_count



def _decode_StateBatch_0(buf: Buffer, pos: int) -> tuple[StateBatch, int]:
    o = StateBatch.__new__(StateBatch)
    (o.first_offset, o.last_offset, o.delivery_state, o.delivery_count,) = _S2.unpack_from(buf, pos)
    pos += 19
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.delivery_complete_count = -1
    (o.partition, o.state_epoch, o.leader_epoch, o.start_offset,) = _S1.unpack_from(buf, pos)
    pos += 20
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('StateBatches')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_StateBatch_0(buf, pos)
            append(x)
        o.state_batches = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteStateData_0(buf: Buffer, pos: int) -> tuple[WriteStateData, int]:
    o = WriteStateData.__new__(WriteStateData)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 22)
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


def _decode_WriteShareGroupStateRequest_0(buf: Buffer, pos: int) -> tuple[WriteShareGroupStateRequest, int]:
    o = WriteShareGroupStateRequest.__new__(WriteShareGroupStateRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WriteStateData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_1(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count,) = _S3.unpack_from(buf, pos)
    pos += 24
    n, pos = read_compact_array_len(buf, pos, 20)
    if n < 0:
        null_field('StateBatches')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_StateBatch_0(buf, pos)
            append(x)
        o.state_batches = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteStateData_1(buf: Buffer, pos: int) -> tuple[WriteStateData, int]:
    o = WriteStateData.__new__(WriteStateData)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteShareGroupStateRequest_1(buf: Buffer, pos: int) -> tuple[WriteShareGroupStateRequest, int]:
    o = WriteShareGroupStateRequest.__new__(WriteShareGroupStateRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WriteStateData_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_StateBatch_0(o: StateBatch, out: list[Any]) -> None:
    out.append(_S2.pack(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count))
    out.append(b'\x00')


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition, o.state_epoch, o.leader_epoch, o.start_offset))
    items = o.state_batches
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_StateBatch_0(x, out)
    out.append(b'\x00')


def _encode_WriteStateData_0(o: WriteStateData, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_WriteShareGroupStateRequest_0(o: WriteShareGroupStateRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WriteStateData_0(x, out)
    out.append(b'\x00')


def _encode_PartitionData_1(o: PartitionData, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count))
    items = o.state_batches
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_StateBatch_0(x, out)
    out.append(b'\x00')


def _encode_WriteStateData_1(o: WriteStateData, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_1(x, out)
    out.append(b'\x00')


def _encode_WriteShareGroupStateRequest_1(o: WriteShareGroupStateRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WriteStateData_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_WriteShareGroupStateRequest_0, 1: _decode_WriteShareGroupStateRequest_1}
ENCODERS = {0: _encode_WriteShareGroupStateRequest_0, 1: _encode_WriteShareGroupStateRequest_1}
MESSAGE = WriteShareGroupStateRequest
