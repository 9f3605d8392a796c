"""Generated from Kafka's ReadShareGroupStateSummaryRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ReadShareGroupStateSummaryRequest'
API_KEY = 87
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>16s')
_S1 = struct.Struct('>ii')


class ReadShareGroupStateSummaryRequest(Struct):
    """ReadShareGroupStateSummaryRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 87
    VALID_VERSIONS = (0, 1)

    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics


class ReadStateSummaryData(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition', 'leader_epoch')

    def __init__(self, partition: Any = 0, leader_epoch: Any = 0) -> None:
        self.partition = partition
        self.leader_epoch = leader_epoch



def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition, o.leader_epoch,) = _S1.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReadStateSummaryData_0(buf: Buffer, pos: int) -> tuple[ReadStateSummaryData, int]:
    o = ReadStateSummaryData.__new__(ReadStateSummaryData)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 9)
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


def _decode_ReadShareGroupStateSummaryRequest_0(buf: Buffer, pos: int) -> tuple[ReadShareGroupStateSummaryRequest, int]:
    o = ReadShareGroupStateSummaryRequest.__new__(ReadShareGroupStateSummaryRequest)
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
            x, pos = _decode_ReadStateSummaryData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition, o.leader_epoch))
    out.append(b'\x00')


def _encode_ReadStateSummaryData_0(o: ReadStateSummaryData, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_ReadShareGroupStateSummaryRequest_0(o: ReadShareGroupStateSummaryRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReadStateSummaryData_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ReadShareGroupStateSummaryRequest_0, 1: _decode_ReadShareGroupStateSummaryRequest_0}
ENCODERS = {0: _encode_ReadShareGroupStateSummaryRequest_0, 1: _encode_ReadShareGroupStateSummaryRequest_0}
MESSAGE = ReadShareGroupStateSummaryRequest
