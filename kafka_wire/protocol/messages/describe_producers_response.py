"""Generated from Kafka's DescribeProducersResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeProducersResponse'
API_KEY = 61
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ih')
_S2 = struct.Struct('>qiiqiq')


class DescribeProducersResponse(Struct):
    """DescribeProducersResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 61
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class TopicResponse(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class PartitionResponse(Struct):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'active_producers')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, error_message: Any = None, active_producers: Any = None) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.active_producers = [] if active_producers is None else active_producers


class ProducerState(Struct):
    __slots__ = ('producer_id', 'producer_epoch', 'last_sequence', 'last_timestamp', 'coordinator_epoch', 'current_txn_start_offset')

    def __init__(self, producer_id: Any = 0, producer_epoch: Any = 0, last_sequence: Any = -1, last_timestamp: Any = -1, coordinator_epoch: Any = 0, current_txn_start_offset: Any = -1) -> None:
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.last_sequence = last_sequence
        self.last_timestamp = last_timestamp
        self.coordinator_epoch = coordinator_epoch
        self.current_txn_start_offset = current_txn_start_offset



def _decode_ProducerState_0(buf: Buffer, pos: int) -> tuple[ProducerState, int]:
    o = ProducerState.__new__(ProducerState)
    (o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset,) = _S2.unpack_from(buf, pos)
    pos += 36
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionResponse_0(buf: Buffer, pos: int) -> tuple[PartitionResponse, int]:
    o = PartitionResponse.__new__(PartitionResponse)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 37)
    if n < 0:
        null_field('ActiveProducers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ProducerState_0(buf, pos)
            append(x)
        o.active_producers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicResponse_0(buf: Buffer, pos: int) -> tuple[TopicResponse, int]:
    o = TopicResponse.__new__(TopicResponse)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 9)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionResponse_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeProducersResponse_0(buf: Buffer, pos: int) -> tuple[DescribeProducersResponse, int]:
    o = DescribeProducersResponse.__new__(DescribeProducersResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicResponse_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ProducerState_0(o: ProducerState, out: list[Any]) -> None:
    out.append(_S2.pack(o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset))
    out.append(b'\x00')


def _encode_PartitionResponse_0(o: PartitionResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.active_producers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ProducerState_0(x, out)
    out.append(b'\x00')


def _encode_TopicResponse_0(o: TopicResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResponse_0(x, out)
    out.append(b'\x00')


def _encode_DescribeProducersResponse_0(o: DescribeProducersResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicResponse_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeProducersResponse_0}
ENCODERS = {0: _encode_DescribeProducersResponse_0}
MESSAGE = DescribeProducersResponse
