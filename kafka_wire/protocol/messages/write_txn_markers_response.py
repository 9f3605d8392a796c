"""Generated from Kafka's WriteTxnMarkersResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'WriteTxnMarkersResponse'
API_KEY = 27
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>q')
_S1 = struct.Struct('>ih')


class WriteTxnMarkersResponse(Struct):
    """WriteTxnMarkersResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 27
    VALID_VERSIONS = (1, 2)

    __slots__ = ('markers',)

    def __init__(self, markers: Any = None) -> None:
        self.markers = [] if markers is None else markers


class WritableTxnMarkerResult(Struct):
    __slots__ = ('producer_id', 'topics')

    def __init__(self, producer_id: Any = 0, topics: Any = None) -> None:
        self.producer_id = producer_id
        self.topics = [] if topics is None else topics


class WritableTxnMarkerTopicResult(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class WritableTxnMarkerPartitionResult(Struct):
    __slots__ = ('partition_index', 'error_code')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.error_code = error_code



def _decode_WritableTxnMarkerPartitionResult_0(buf: Buffer, pos: int) -> tuple[WritableTxnMarkerPartitionResult, int]:
    o = WritableTxnMarkerPartitionResult.__new__(WritableTxnMarkerPartitionResult)
    (o.partition_index, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WritableTxnMarkerTopicResult_0(buf: Buffer, pos: int) -> tuple[WritableTxnMarkerTopicResult, int]:
    o = WritableTxnMarkerTopicResult.__new__(WritableTxnMarkerTopicResult)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarkerPartitionResult_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WritableTxnMarkerResult_0(buf: Buffer, pos: int) -> tuple[WritableTxnMarkerResult, int]:
    o = WritableTxnMarkerResult.__new__(WritableTxnMarkerResult)
    (o.producer_id,) = _S0.unpack_from(buf, pos)
    pos += 8
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarkerTopicResult_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteTxnMarkersResponse_0(buf: Buffer, pos: int) -> tuple[WriteTxnMarkersResponse, int]:
    o = WriteTxnMarkersResponse.__new__(WriteTxnMarkersResponse)
    n, pos = read_compact_array_len(buf, pos, 10)
    if n < 0:
        null_field('Markers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarkerResult_0(buf, pos)
            append(x)
        o.markers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_WritableTxnMarkerPartitionResult_0(o: WritableTxnMarkerPartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code))
    out.append(b'\x00')


def _encode_WritableTxnMarkerTopicResult_0(o: WritableTxnMarkerTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarkerPartitionResult_0(x, out)
    out.append(b'\x00')


def _encode_WritableTxnMarkerResult_0(o: WritableTxnMarkerResult, out: list[Any]) -> None:
    out.append(_S0.pack(o.producer_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarkerTopicResult_0(x, out)
    out.append(b'\x00')


def _encode_WriteTxnMarkersResponse_0(o: WriteTxnMarkersResponse, out: list[Any]) -> None:
    items = o.markers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarkerResult_0(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_WriteTxnMarkersResponse_0, 2: _decode_WriteTxnMarkersResponse_0}
ENCODERS = {1: _encode_WriteTxnMarkersResponse_0, 2: _encode_WriteTxnMarkersResponse_0}
MESSAGE = WriteTxnMarkersResponse
