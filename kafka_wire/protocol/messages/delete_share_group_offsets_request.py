"""Generated from Kafka's DeleteShareGroupOffsetsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DeleteShareGroupOffsetsRequest'
API_KEY = 92
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)



class DeleteShareGroupOffsetsRequest(Struct):
    """DeleteShareGroupOffsetsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 92
    VALID_VERSIONS = (0, 0)

    __slots__ = ('group_id', 'topics')

    def __init__(self, group_id: Any = '', topics: Any = None) -> None:
        self.group_id = group_id
        self.topics = [] if topics is None else topics


class DeleteShareGroupOffsetsRequestTopic(Struct):
    __slots__ = ('topic_name',)

    def __init__(self, topic_name: Any = '') -> None:
        self.topic_name = topic_name



def _decode_DeleteShareGroupOffsetsRequestTopic_0(buf: Buffer, pos: int) -> tuple[DeleteShareGroupOffsetsRequestTopic, int]:
    o = DeleteShareGroupOffsetsRequestTopic.__new__(DeleteShareGroupOffsetsRequestTopic)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DeleteShareGroupOffsetsRequest_0(buf: Buffer, pos: int) -> tuple[DeleteShareGroupOffsetsRequest, int]:
    o = DeleteShareGroupOffsetsRequest.__new__(DeleteShareGroupOffsetsRequest)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DeleteShareGroupOffsetsRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DeleteShareGroupOffsetsRequestTopic_0(o: DeleteShareGroupOffsetsRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    out.append(b'\x00')


def _encode_DeleteShareGroupOffsetsRequest_0(o: DeleteShareGroupOffsetsRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DeleteShareGroupOffsetsRequestTopic_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DeleteShareGroupOffsetsRequest_0}
ENCODERS = {0: _encode_DeleteShareGroupOffsetsRequest_0}
MESSAGE = DeleteShareGroupOffsetsRequest
