"""Generated from Kafka's MetadataRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'MetadataRequest'
API_KEY = 3
VALID_VERSIONS = (0, 13)
FLEXIBLE_VERSIONS = (9, 32767)

_S0 = struct.Struct('>?')
_S1 = struct.Struct('>???')
_S2 = struct.Struct('>16s')
_S3 = struct.Struct('>??')


class MetadataRequest(Struct):
    """MetadataRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 3
    VALID_VERSIONS = (0, 13)

    __slots__ = ('topics', 'allow_auto_topic_creation', 'include_cluster_authorized_operations', 'include_topic_authorized_operations')

    def __init__(self, topics: Any = UNSET, allow_auto_topic_creation: Any = True, include_cluster_authorized_operations: Any = False, include_topic_authorized_operations: Any = False) -> None:
        self.topics = [] if topics is UNSET else topics
        self.allow_auto_topic_creation = allow_auto_topic_creation
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.include_topic_authorized_operations = include_topic_authorized_operations


class MetadataRequestTopic(Struct):
    __slots__ = ('topic_id', 'name')

    def __init__(self, topic_id: Any = ZERO_UUID, name: Any = '') -> None:
        self.topic_id = topic_id
        self.name = name



def _decode_MetadataRequestTopic_0(buf: Buffer, pos: int) -> tuple[MetadataRequestTopic, int]:
    o = MetadataRequestTopic.__new__(MetadataRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    return o, pos


def _decode_MetadataRequest_0(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataRequest_1(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    o.allow_auto_topic_creation = True
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataRequest_2(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    o.include_cluster_authorized_operations = False
    o.include_topic_authorized_operations = False
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.allow_auto_topic_creation,) = _S0.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_MetadataRequest_3(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    n, pos = read_array_len(buf, pos, 2)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 3
    return o, pos


def _decode_MetadataRequestTopic_1(buf: Buffer, pos: int) -> tuple[MetadataRequestTopic, int]:
    o = MetadataRequestTopic.__new__(MetadataRequestTopic)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataRequest_4(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataRequestTopic_2(buf: Buffer, pos: int) -> tuple[MetadataRequestTopic, int]:
    o = MetadataRequestTopic.__new__(MetadataRequestTopic)
    (o.topic_id,) = _S2.unpack_from(buf, pos)
    pos += 16
    o.name, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataRequest_5(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_2(buf, pos)
            append(x)
        o.topics = items
    (o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataRequest_6(buf: Buffer, pos: int) -> tuple[MetadataRequest, int]:
    o = MetadataRequest.__new__(MetadataRequest)
    o.include_cluster_authorized_operations = False
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataRequestTopic_2(buf, pos)
            append(x)
        o.topics = items
    (o.allow_auto_topic_creation, o.include_topic_authorized_operations,) = _S3.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_MetadataRequestTopic_0(o: MetadataRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))


def _encode_MetadataRequest_0(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_0(x, out)


def _encode_MetadataRequest_1(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_0(x, out)
    out.append(_S0.pack(o.allow_auto_topic_creation))


def _encode_MetadataRequest_2(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_0(x, out)
    out.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))


def _encode_MetadataRequestTopic_1(o: MetadataRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(b'\x00')


def _encode_MetadataRequest_3(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_1(x, out)
    out.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataRequestTopic_2(o: MetadataRequestTopic, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    out.append(enc_compact_string(o.name))
    out.append(b'\x00')


def _encode_MetadataRequest_4(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_2(x, out)
    out.append(_S1.pack(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataRequest_5(o: MetadataRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataRequestTopic_2(x, out)
    out.append(_S3.pack(o.allow_auto_topic_creation, o.include_topic_authorized_operations))
    out.append(b'\x00')


DECODERS = {0: _decode_MetadataRequest_0, 1: _decode_MetadataRequest_1, 2: _decode_MetadataRequest_1, 3: _decode_MetadataRequest_1, 4: _decode_MetadataRequest_2, 5: _decode_MetadataRequest_2, 6: _decode_MetadataRequest_2, 7: _decode_MetadataRequest_2, 8: _decode_MetadataRequest_3, 9: _decode_MetadataRequest_4, 10: _decode_MetadataRequest_5, 11: _decode_MetadataRequest_6, 12: _decode_MetadataRequest_6, 13: _decode_MetadataRequest_6}
ENCODERS = {0: _encode_MetadataRequest_0, 1: _encode_MetadataRequest_0, 2: _encode_MetadataRequest_0, 3: _encode_MetadataRequest_0, 4: _encode_MetadataRequest_1, 5: _encode_MetadataRequest_1, 6: _encode_MetadataRequest_1, 7: _encode_MetadataRequest_1, 8: _encode_MetadataRequest_2, 9: _encode_MetadataRequest_3, 10: _encode_MetadataRequest_4, 11: _encode_MetadataRequest_5, 12: _encode_MetadataRequest_5, 13: _encode_MetadataRequest_5}
MESSAGE = MetadataRequest
