"""Generated from Kafka's CreateTopicsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'CreateTopicsResponse'
API_KEY = 19
VALID_VERSIONS = (2, 7)
FLEXIBLE_VERSIONS = (5, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>ih')
_S3 = struct.Struct('>?b?')
_S4 = struct.Struct('>16sh')


class CreateTopicsResponse(Struct):
    """CreateTopicsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 19
    VALID_VERSIONS = (2, 7)

    __slots__ = ('throttle_time_ms', 'topics')

    def __init__(self, throttle_time_ms: Any = 0, topics: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.topics = [] if topics is None else topics


class CreatableTopicResult(Struct):
    __slots__ = ('name', 'topic_id', 'error_code', 'error_message', 'topic_config_error_code', 'num_partitions', 'replication_factor', 'configs')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, error_code: Any = 0, error_message: Any = '', topic_config_error_code: Any = 0, num_partitions: Any = -1, replication_factor: Any = -1, configs: Any = UNSET) -> None:
        self.name = name
        self.topic_id = topic_id
        self.error_code = error_code
        self.error_message = error_message
        self.topic_config_error_code = topic_config_error_code
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.configs = [] if configs is UNSET else configs


class CreatableTopicConfigs(Struct):
    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_sensitive')

    def __init__(self, name: Any = '', value: Any = '', read_only: Any = False, config_source: Any = -1, is_sensitive: Any = False) -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_sensitive = is_sensitive



def _decode_CreatableTopicResult_0(buf: Buffer, pos: int) -> tuple[CreatableTopicResult, int]:
    o = CreatableTopicResult.__new__(CreatableTopicResult)
    o.topic_id = ZERO_UUID
    o.topic_config_error_code = 0
    o.num_partitions = -1
    o.replication_factor = -1
    o.configs = []
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    return o, pos


def _decode_CreateTopicsResponse_0(buf: Buffer, pos: int) -> tuple[CreateTopicsResponse, int]:
    o = CreateTopicsResponse.__new__(CreateTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicResult_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_CreatableTopicConfigs_0(buf: Buffer, pos: int) -> tuple[CreatableTopicConfigs, int]:
    o = CreatableTopicConfigs.__new__(CreatableTopicConfigs)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_compact_string(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _S3.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatableTopicResult_1(buf: Buffer, pos: int) -> tuple[CreatableTopicResult, int]:
    o = CreatableTopicResult.__new__(CreatableTopicResult)
    o.topic_id = ZERO_UUID
    o.topic_config_error_code = 0
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    (o.num_partitions, o.replication_factor,) = _S2.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        o.configs = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicConfigs_0(buf, pos)
            append(x)
        o.configs = items
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            (o.topic_config_error_code,) = _S1.unpack_from(buf, pos)
            pos += 2
        pos = end
    return o, pos


def _decode_CreateTopicsResponse_1(buf: Buffer, pos: int) -> tuple[CreateTopicsResponse, int]:
    o = CreateTopicsResponse.__new__(CreateTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 12)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicResult_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatableTopicResult_2(buf: Buffer, pos: int) -> tuple[CreatableTopicResult, int]:
    o = CreatableTopicResult.__new__(CreatableTopicResult)
    o.topic_config_error_code = 0
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.topic_id, o.error_code,) = _S4.unpack_from(buf, pos)
    pos += 18
    o.error_message, pos = read_compact_string(buf, pos)
    (o.num_partitions, o.replication_factor,) = _S2.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        o.configs = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicConfigs_0(buf, pos)
            append(x)
        o.configs = items
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            (o.topic_config_error_code,) = _S1.unpack_from(buf, pos)
            pos += 2
        pos = end
    return o, pos


def _decode_CreateTopicsResponse_2(buf: Buffer, pos: int) -> tuple[CreateTopicsResponse, int]:
    o = CreateTopicsResponse.__new__(CreateTopicsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 28)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicResult_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_CreatableTopicResult_0(o: CreatableTopicResult, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))


def _encode_CreateTopicsResponse_0(o: CreateTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicResult_0(x, out)


def _encode_CreatableTopicConfigs_0(o: CreatableTopicConfigs, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.value))
    out.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    out.append(b'\x00')


def _encode_CreatableTopicResult_1(o: CreatableTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.num_partitions, o.replication_factor))
    items = o.configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicConfigs_0(x, out)
    tagged = []
    if o.topic_config_error_code != 0:
        outer, out = out, []
        out.append(_S1.pack(o.topic_config_error_code))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_CreateTopicsResponse_1(o: CreateTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicResult_1(x, out)
    out.append(b'\x00')


def _encode_CreatableTopicResult_2(o: CreatableTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S4.pack(o.topic_id, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.num_partitions, o.replication_factor))
    items = o.configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicConfigs_0(x, out)
    tagged = []
    if o.topic_config_error_code != 0:
        outer, out = out, []
        out.append(_S1.pack(o.topic_config_error_code))
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_CreateTopicsResponse_2(o: CreateTopicsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicResult_2(x, out)
    out.append(b'\x00')


DECODERS = {2: _decode_CreateTopicsResponse_0, 3: _decode_CreateTopicsResponse_0, 4: _decode_CreateTopicsResponse_0, 5: _decode_CreateTopicsResponse_1, 6: _decode_CreateTopicsResponse_1, 7: _decode_CreateTopicsResponse_2}
ENCODERS = {2: _encode_CreateTopicsResponse_0, 3: _encode_CreateTopicsResponse_0, 4: _encode_CreateTopicsResponse_0, 5: _encode_CreateTopicsResponse_1, 6: _encode_CreateTopicsResponse_1, 7: _encode_CreateTopicsResponse_2}
MESSAGE = CreateTopicsResponse
