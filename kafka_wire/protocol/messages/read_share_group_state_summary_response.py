"""Generated from Kafka's ReadShareGroupStateSummaryResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ReadShareGroupStateSummaryResponse'
API_KEY = 87
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>16s')
_S1 = struct.Struct('>ih')
_S2 = struct.Struct('>iiq')
_S3 = struct.Struct('>iiqi')


class ReadShareGroupStateSummaryResponse(Struct):
    """ReadShareGroupStateSummaryResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 87
    VALID_VERSIONS = (0, 1)

    __slots__ = ('results',)

    def __init__(self, results: Any = None) -> None:
        self.results = [] if results is None else results


class ReadStateSummaryResult(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionResult(Struct):
    __slots__ = ('partition', 'error_code', 'error_message', 'state_epoch', 'leader_epoch', 'start_offset', 'delivery_complete_count')

    def __init__(self, partition: Any = 0, error_code: Any = 0, error_message: Any = None, state_epoch: Any = 0, leader_epoch: Any = 0, start_offset: Any = 0, delivery_complete_count: Any = -1) -> None:
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.start_offset = start_offset
        self.delivery_complete_count = delivery_complete_count



def _decode_PartitionResult_0(buf: Buffer, pos: int) -> tuple[PartitionResult, int]:
    o = PartitionResult.__new__(PartitionResult)
    o.delivery_complete_count = -1
    (o.partition, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.state_epoch, o.leader_epoch, o.start_offset,) = _S2.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReadStateSummaryResult_0(buf: Buffer, pos: int) -> tuple[ReadStateSummaryResult, int]:
    o = ReadStateSummaryResult.__new__(ReadStateSummaryResult)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 24)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionResult_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReadShareGroupStateSummaryResponse_0(buf: Buffer, pos: int) -> tuple[ReadShareGroupStateSummaryResponse, int]:
    o = ReadShareGroupStateSummaryResponse.__new__(ReadShareGroupStateSummaryResponse)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReadStateSummaryResult_0(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionResult_1(buf: Buffer, pos: int) -> tuple[PartitionResult, int]:
    o = PartitionResult.__new__(PartitionResult)
    (o.partition, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count,) = _S3.unpack_from(buf, pos)
    pos += 20
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReadStateSummaryResult_1(buf: Buffer, pos: int) -> tuple[ReadStateSummaryResult, int]:
    o = ReadStateSummaryResult.__new__(ReadStateSummaryResult)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 28)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionResult_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReadShareGroupStateSummaryResponse_1(buf: Buffer, pos: int) -> tuple[ReadShareGroupStateSummaryResponse, int]:
    o = ReadShareGroupStateSummaryResponse.__new__(ReadShareGroupStateSummaryResponse)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReadStateSummaryResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionResult_0(o: PartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.state_epoch, o.leader_epoch, o.start_offset))
    out.append(b'\x00')


def _encode_ReadStateSummaryResult_0(o: ReadStateSummaryResult, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResult_0(x, out)
    out.append(b'\x00')


def _encode_ReadShareGroupStateSummaryResponse_0(o: ReadShareGroupStateSummaryResponse, out: list[Any]) -> None:
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReadStateSummaryResult_0(x, out)
    out.append(b'\x00')


def _encode_PartitionResult_1(o: PartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S3.pack(o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count))
    out.append(b'\x00')


def _encode_ReadStateSummaryResult_1(o: ReadStateSummaryResult, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResult_1(x, out)
    out.append(b'\x00')


def _encode_ReadShareGroupStateSummaryResponse_1(o: ReadShareGroupStateSummaryResponse, out: list[Any]) -> None:
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReadStateSummaryResult_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ReadShareGroupStateSummaryResponse_0, 1: _decode_ReadShareGroupStateSummaryResponse_1}
ENCODERS = {0: _encode_ReadShareGroupStateSummaryResponse_0, 1: _encode_ReadShareGroupStateSummaryResponse_1}
MESSAGE = ReadShareGroupStateSummaryResponse
