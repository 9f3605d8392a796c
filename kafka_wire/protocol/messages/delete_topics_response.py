"""Generated from Kafka's DeleteTopicsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteTopicsResponse'
API_KEY = 20
VALID_VERSIONS = (1, 6)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>16sh')


class DeleteTopicsResponse(Struct):
    """DeleteTopicsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 20
    VALID_VERSIONS = (1, 6)

    __slots__ = ('throttle_time_ms', 'responses')

    def __init__(self, throttle_time_ms: Any = 0, responses: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.responses = [] if responses is None else responses


class DeletableTopicResult(Struct):
    __slots__ = ('name', 'topic_id', 'error_code', 'error_message')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, error_code: Any = 0, error_message: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message



def _decode_DeletableTopicResult_0(buf: Buffer, pos: int) -> tuple[DeletableTopicResult, int]:
    o = DeletableTopicResult.__new__(DeletableTopicResult)
    o.topic_id = ZERO_UUID
    o.error_message = None
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    return o, pos


def _decode_DeleteTopicsResponse_0(buf: Buffer, pos: int) -> tuple[DeleteTopicsResponse, int]:
    o = DeleteTopicsResponse.__new__(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableTopicResult_0(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_DeletableTopicResult_1(buf: Buffer, pos: int) -> tuple[DeletableTopicResult, int]:
    o = DeletableTopicResult.__new__(DeletableTopicResult)
    o.topic_id = ZERO_UUID
    o.error_message = None
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteTopicsResponse_1(buf: Buffer, pos: int) -> tuple[DeleteTopicsResponse, int]:
    o = DeleteTopicsResponse.__new__(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableTopicResult_1(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeletableTopicResult_2(buf: Buffer, pos: int) -> tuple[DeletableTopicResult, int]:
    o = DeletableTopicResult.__new__(DeletableTopicResult)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteTopicsResponse_2(buf: Buffer, pos: int) -> tuple[DeleteTopicsResponse, int]:
    o = DeleteTopicsResponse.__new__(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableTopicResult_2(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeletableTopicResult_3(buf: Buffer, pos: int) -> tuple[DeletableTopicResult, int]:
    o = DeletableTopicResult.__new__(DeletableTopicResult)
    o.name, pos = read_compact_string(buf, pos)
    (o.topic_id, o.error_code,) = _S2.unpack_from(buf, pos)
    pos += 18
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteTopicsResponse_3(buf: Buffer, pos: int) -> tuple[DeleteTopicsResponse, int]:
    o = DeleteTopicsResponse.__new__(DeleteTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 21)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeletableTopicResult_3(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeletableTopicResult_0(o: DeletableTopicResult, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(_S1.pack(o.error_code))


def _encode_DeleteTopicsResponse_0(o: DeleteTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DeletableTopicResult_0(x, out)


def _encode_DeletableTopicResult_1(o: DeletableTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


def _encode_DeleteTopicsResponse_1(o: DeleteTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeletableTopicResult_1(x, out)
    out.append(b'\x00')


def _encode_DeletableTopicResult_2(o: DeletableTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DeleteTopicsResponse_2(o: DeleteTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeletableTopicResult_2(x, out)
    out.append(b'\x00')


def _encode_DeletableTopicResult_3(o: DeletableTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S2.pack(o.topic_id, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DeleteTopicsResponse_3(o: DeleteTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeletableTopicResult_3(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DeleteTopicsResponse_0, 2: _decode_DeleteTopicsResponse_0, 3: _decode_DeleteTopicsResponse_0, 4: _decode_DeleteTopicsResponse_1, 5: _decode_DeleteTopicsResponse_2, 6: _decode_DeleteTopicsResponse_3}
ENCODERS = {1: _encode_DeleteTopicsResponse_0, 2: _encode_DeleteTopicsResponse_0, 3: _encode_DeleteTopicsResponse_0, 4: _encode_DeleteTopicsResponse_1, 5: _encode_DeleteTopicsResponse_2, 6: _encode_DeleteTopicsResponse_3}
MESSAGE = DeleteTopicsResponse
