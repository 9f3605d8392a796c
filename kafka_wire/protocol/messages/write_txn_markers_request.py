"""Generated from Kafka's WriteTxnMarkersRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'WriteTxnMarkersRequest'
API_KEY = 27
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (1, 32767)

_S0 = struct.Struct('>qh?')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>ib')


class WriteTxnMarkersRequest(Struct):
    """WriteTxnMarkersRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 27
    VALID_VERSIONS = (1, 2)

    __slots__ = ('markers',)

    def __init__(self, markers: Any = None) -> None:
        self.markers = [] if markers is None else markers


class WritableTxnMarker(Struct):
    __slots__ = ('producer_id', 'producer_epoch', 'transaction_result', 'topics', 'coordinator_epoch', 'transaction_version')

    def __init__(self, producer_id: Any = 0, producer_epoch: Any = 0, transaction_result: Any = False, topics: Any = None, coordinator_epoch: Any = 0, transaction_version: Any = 0) -> None:
        self.producer_id = producer_id
        self.producer_epoch = producer_epoch
        self.transaction_result = transaction_result
        self.topics = [] if topics is None else topics
        self.coordinator_epoch = coordinator_epoch
        self.transaction_version = transaction_version


class WritableTxnMarkerTopic(Struct):
    __slots__ = ('name', 'partition_indexes')

    def __init__(self, name: Any = '', partition_indexes: Any = None) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is None else partition_indexes



def _decode_WritableTxnMarkerTopic_0(buf: Buffer, pos: int) -> tuple[WritableTxnMarkerTopic, int]:
    o = WritableTxnMarkerTopic.__new__(WritableTxnMarkerTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WritableTxnMarker_0(buf: Buffer, pos: int) -> tuple[WritableTxnMarker, int]:
    o = WritableTxnMarker.__new__(WritableTxnMarker)
    o.transaction_version = 0
    (o.producer_id, o.producer_epoch, o.transaction_result,) = _S0.unpack_from(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarkerTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.coordinator_epoch,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteTxnMarkersRequest_0(buf: Buffer, pos: int) -> tuple[WriteTxnMarkersRequest, int]:
    o = WriteTxnMarkersRequest.__new__(WriteTxnMarkersRequest)
    n, pos = read_compact_array_len(buf, pos, 17)
    if n < 0:
        null_field('Markers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarker_0(buf, pos)
            append(x)
        o.markers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WritableTxnMarker_1(buf: Buffer, pos: int) -> tuple[WritableTxnMarker, int]:
    o = WritableTxnMarker.__new__(WritableTxnMarker)
    (o.producer_id, o.producer_epoch, o.transaction_result,) = _S0.unpack_from(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarkerTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.coordinator_epoch, o.transaction_version,) = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteTxnMarkersRequest_1(buf: Buffer, pos: int) -> tuple[WriteTxnMarkersRequest, int]:
    o = WriteTxnMarkersRequest.__new__(WriteTxnMarkersRequest)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Markers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WritableTxnMarker_1(buf, pos)
            append(x)
        o.markers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_WritableTxnMarkerTopic_0(o: WritableTxnMarkerTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_indexes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_WritableTxnMarker_0(o: WritableTxnMarker, out: list[Any]) -> None:
    out.append(_S0.pack(o.producer_id, o.producer_epoch, o.transaction_result))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarkerTopic_0(x, out)
    out.append(_S1.pack(o.coordinator_epoch))
    out.append(b'\x00')


def _encode_WriteTxnMarkersRequest_0(o: WriteTxnMarkersRequest, out: list[Any]) -> None:
    items = o.markers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarker_0(x, out)
    out.append(b'\x00')


def _encode_WritableTxnMarker_1(o: WritableTxnMarker, out: list[Any]) -> None:
    out.append(_S0.pack(o.producer_id, o.producer_epoch, o.transaction_result))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarkerTopic_0(x, out)
    out.append(_S2.pack(o.coordinator_epoch, o.transaction_version))
    out.append(b'\x00')


def _encode_WriteTxnMarkersRequest_1(o: WriteTxnMarkersRequest, out: list[Any]) -> None:
    items = o.markers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WritableTxnMarker_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_WriteTxnMarkersRequest_0, 2: _decode_WriteTxnMarkersRequest_1}
ENCODERS = {1: _encode_WriteTxnMarkersRequest_0, 2: _encode_WriteTxnMarkersRequest_1}
MESSAGE = WriteTxnMarkersRequest
