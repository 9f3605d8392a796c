"""Generated from Kafka's WriteShareGroupStateResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'WriteShareGroupStateResponse'
API_KEY = 85
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>16s')
_S1 = struct.Struct('>ih')


class WriteShareGroupStateResponse(Struct):
    """WriteShareGroupStateResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 85
    VALID_VERSIONS = (0, 1)

    __slots__ = ('results',)

    def __init__(self, results: Any = None) -> None:
        self.results = [] if results is None else results


class WriteStateResult(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionResult(Struct):
    __slots__ = ('partition', 'error_code', 'error_message')

    def __init__(self, partition: Any = 0, error_code: Any = 0, error_message: Any = None) -> None:
        self.partition = partition
        self.error_code = error_code
        self.error_message = error_message



def _decode_PartitionResult_0(buf: Buffer, pos: int) -> tuple[PartitionResult, int]:
    o = PartitionResult.__new__(PartitionResult)
    (o.partition, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_WriteStateResult_0(buf: Buffer, pos: int) -> tuple[WriteStateResult, int]:
    o = WriteStateResult.__new__(WriteStateResult)
    (o.topic_id,) = _S0.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 8)
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


def _decode_WriteShareGroupStateResponse_0(buf: Buffer, pos: int) -> tuple[WriteShareGroupStateResponse, int]:
    o = WriteShareGroupStateResponse.__new__(WriteShareGroupStateResponse)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_WriteStateResult_0(buf, pos)
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
    out.append(b'\x00')


def _encode_WriteStateResult_0(o: WriteStateResult, out: list[Any]) -> None:
    out.append(_S0.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResult_0(x, out)
    out.append(b'\x00')


def _encode_WriteShareGroupStateResponse_0(o: WriteShareGroupStateResponse, out: list[Any]) -> None:
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_WriteStateResult_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_WriteShareGroupStateResponse_0, 1: _decode_WriteShareGroupStateResponse_0}
ENCODERS = {0: _encode_WriteShareGroupStateResponse_0, 1: _encode_WriteShareGroupStateResponse_0}
MESSAGE = WriteShareGroupStateResponse
