"""Generated from Kafka's DeleteTopicsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteTopicsRequest'
API_KEY = 20
VALID_VERSIONS = (1, 6)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>16s')


class DeleteTopicsRequest(Struct):
    """DeleteTopicsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 20
    VALID_VERSIONS = (1, 6)

    __slots__ = ('topics', 'topic_names', 'timeout_ms')

    def __init__(self, topics: Any = None, topic_names: Any = None, timeout_ms: Any = 0) -> None:
        self.topics = [] if topics is None else topics
        self.topic_names = [] if topic_names is None else topic_names
        self.timeout_ms = timeout_ms


class DeleteTopicState(Struct):
    __slots__ = ('name', 'topic_id')

    def __init__(self, name: Any = None, topic_id: Any = ZERO_UUID) -> None:
        self.name = name
        self.topic_id = topic_id



def _decode_DeleteTopicsRequest_0(buf: Buffer, pos: int) -> tuple[DeleteTopicsRequest, int]:
    o = DeleteTopicsRequest.__new__(DeleteTopicsRequest)
    o.topics = []
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('TopicNames')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_string(buf, pos)
            if x is None:
                null_field('TopicNames')
            append(x)
        o.topic_names = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_DeleteTopicsRequest_1(buf: Buffer, pos: int) -> tuple[DeleteTopicsRequest, int]:
    o = DeleteTopicsRequest.__new__(DeleteTopicsRequest)
    o.topics = []
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('TopicNames')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = read_compact_string(buf, pos)
            if x is None:
                null_field('TopicNames')
            append(x)
        o.topic_names = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteTopicState_0(buf: Buffer, pos: int) -> tuple[DeleteTopicState, int]:
    o = DeleteTopicState.__new__(DeleteTopicState)
    o.name, pos = read_compact_string(buf, pos)
    (o.topic_id,) = _S1.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteTopicsRequest_2(buf: Buffer, pos: int) -> tuple[DeleteTopicsRequest, int]:
    o = DeleteTopicsRequest.__new__(DeleteTopicsRequest)
    o.topic_names = []
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteTopicState_0(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteTopicsRequest_0(o: DeleteTopicsRequest, out: list[Any]) -> None:
    items = o.topic_names
    out.append(enc_array_len(items))
    if items:
        for x in items:
            out.append(enc_string(x))
    out.append(_S0.pack(o.timeout_ms))


def _encode_DeleteTopicsRequest_1(o: DeleteTopicsRequest, out: list[Any]) -> None:
    items = o.topic_names
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            out.append(enc_compact_string(x))
    out.append(_S0.pack(o.timeout_ms))
    out.append(b'\x00')


def _encode_DeleteTopicState_0(o: DeleteTopicState, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S1.pack(o.topic_id))
    out.append(b'\x00')


def _encode_DeleteTopicsRequest_2(o: DeleteTopicsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteTopicState_0(x, out)
    out.append(_S0.pack(o.timeout_ms))
    out.append(b'\x00')


DECODERS = {1: _decode_DeleteTopicsRequest_0, 2: _decode_DeleteTopicsRequest_0, 3: _decode_DeleteTopicsRequest_0, 4: _decode_DeleteTopicsRequest_1, 5: _decode_DeleteTopicsRequest_1, 6: _decode_DeleteTopicsRequest_2}
ENCODERS = {1: _encode_DeleteTopicsRequest_0, 2: _encode_DeleteTopicsRequest_0, 3: _encode_DeleteTopicsRequest_0, 4: _encode_DeleteTopicsRequest_1, 5: _encode_DeleteTopicsRequest_1, 6: _encode_DeleteTopicsRequest_2}
MESSAGE = DeleteTopicsRequest
