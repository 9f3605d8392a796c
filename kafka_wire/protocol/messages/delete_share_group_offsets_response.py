"""Generated from Kafka's DeleteShareGroupOffsetsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteShareGroupOffsetsResponse'
API_KEY = 92
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>16sh')


class DeleteShareGroupOffsetsResponse(Struct):
    """DeleteShareGroupOffsetsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 92
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'responses')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, responses: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.responses = [] if responses is None else responses


class DeleteShareGroupOffsetsResponseTopic(Struct):
    __slots__ = ('topic_name', 'topic_id', 'error_code', 'error_message')

    def __init__(self, topic_name: Any = '', topic_id: Any = ZERO_UUID, error_code: Any = 0, error_message: Any = None) -> None:
        self.topic_name = topic_name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message



def _decode_DeleteShareGroupOffsetsResponseTopic_0(buf: Buffer, pos: int) -> tuple[DeleteShareGroupOffsetsResponseTopic, int]:
    o = DeleteShareGroupOffsetsResponseTopic.__new__(DeleteShareGroupOffsetsResponseTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    (o.topic_id, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 18
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteShareGroupOffsetsResponse_0(buf: Buffer, pos: int) -> tuple[DeleteShareGroupOffsetsResponse, int]:
    o = DeleteShareGroupOffsetsResponse.__new__(DeleteShareGroupOffsetsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 21)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteShareGroupOffsetsResponseTopic_0(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteShareGroupOffsetsResponseTopic_0(o: DeleteShareGroupOffsetsResponseTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(_S1.pack(o.topic_id, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_DeleteShareGroupOffsetsResponse_0(o: DeleteShareGroupOffsetsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteShareGroupOffsetsResponseTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DeleteShareGroupOffsetsResponse_0}
ENCODERS = {0: _encode_DeleteShareGroupOffsetsResponse_0}
MESSAGE = DeleteShareGroupOffsetsResponse
