"""Generated from Kafka's AlterShareGroupOffsetsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterShareGroupOffsetsResponse'
API_KEY = 91
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>16s')


class AlterShareGroupOffsetsResponse(Struct):
    """AlterShareGroupOffsetsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 91
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'responses')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, responses: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is None else responses


class AlterShareGroupOffsetsResponseTopic(Struct):
    __slots__ = ('topic_name', 'topic_id', 'partitions')

    def __init__(self, topic_name: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class AlterShareGroupOffsetsResponsePartition(Struct):
    __slots__ = ('partition_index', 'error_code', 'error_message')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, error_message: Any = None) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message



def _decode_AlterShareGroupOffsetsResponsePartition_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsResponsePartition, int]:
    o = AlterShareGroupOffsetsResponsePartition.__new__(AlterShareGroupOffsetsResponsePartition)
    (o.partition_index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterShareGroupOffsetsResponseTopic_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsResponseTopic, int]:
    o = AlterShareGroupOffsetsResponseTopic.__new__(AlterShareGroupOffsetsResponseTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterShareGroupOffsetsResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterShareGroupOffsetsResponse_0(buf: Buffer, pos: int) -> tuple[AlterShareGroupOffsetsResponse, int]:
    o = AlterShareGroupOffsetsResponse.__new__(AlterShareGroupOffsetsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 19)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterShareGroupOffsetsResponseTopic_0(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterShareGroupOffsetsResponsePartition_0(o: AlterShareGroupOffsetsResponsePartition, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_AlterShareGroupOffsetsResponseTopic_0(o: AlterShareGroupOffsetsResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S1.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterShareGroupOffsetsResponsePartition_0(x, out)
    out.append(b'\x00')


def _encode_AlterShareGroupOffsetsResponse_0(o: AlterShareGroupOffsetsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterShareGroupOffsetsResponseTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AlterShareGroupOffsetsResponse_0}
ENCODERS = {0: _encode_AlterShareGroupOffsetsResponse_0}
MESSAGE = AlterShareGroupOffsetsResponse
