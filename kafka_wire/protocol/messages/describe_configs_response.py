"""Generated from Kafka's DescribeConfigsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeConfigsResponse'
API_KEY = 32
VALID_VERSIONS = (1, 4)
FLEXIBLE_VERSIONS = (4, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>b')
_S3 = struct.Struct('>?b?')


class DescribeConfigsResponse(Struct):
    """DescribeConfigsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 32
    VALID_VERSIONS = (1, 4)

    __slots__ = ('throttle_time_ms', 'results')

    def __init__(self, throttle_time_ms: Any = 0, results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.results = [] if results is None else results


class DescribeConfigsResult(Struct):
    __slots__ = ('error_code', 'error_message', 'resource_type', 'resource_name', 'configs')

    def __init__(self, error_code: Any = 0, error_message: Any = '', resource_type: Any = 0, resource_name: Any = '', configs: Any = None) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.resource_type = resource_type
        self.resource_name = resource_name
        self.configs = [] if configs is None else configs


class DescribeConfigsResourceResult(Struct):
    __slots__ = ('name', 'value', 'read_only', 'config_source', 'is_default', 'is_sensitive', 'synonyms', 'config_type', 'documentation')

    def __init__(self, name: Any = '', value: Any = '', read_only: Any = False, config_source: Any = -1, is_default: Any = False, is_sensitive: Any = False, synonyms: Any = None, config_type: Any = 0, documentation: Any = '') -> None:
        self.name = name
        self.value = value
        self.read_only = read_only
        self.config_source = config_source
        self.is_default = is_default
        self.is_sensitive = is_sensitive
        self.synonyms = [] if synonyms is None else synonyms
        self.config_type = config_type
        self.documentation = documentation


class DescribeConfigsSynonym(Struct):
    __slots__ = ('name', 'value', 'source')

    def __init__(self, name: Any = '', value: Any = '', source: Any = 0) -> None:
        self.name = name
        self.value = value
        self.source = source



def _decode_DescribeConfigsSynonym_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsSynonym, int]:
    o = DescribeConfigsSynonym.__new__(DescribeConfigsSynonym)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_string(buf, pos)
    (o.source,) = _S2.unpack_from(buf, pos)
    pos += 1
    return o, pos


def _decode_DescribeConfigsResourceResult_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    o = DescribeConfigsResourceResult.__new__(DescribeConfigsResourceResult)
    o.is_default = False
    o.config_type = 0
    o.documentation = ''
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_string(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _S3.unpack_from(buf, pos)
    pos += 3
    n, pos = read_array_len(buf, pos, 5)
    if n < 0:
        null_field('Synonyms')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsSynonym_0(buf, pos)
            append(x)
        o.synonyms = items
    return o, pos


def _decode_DescribeConfigsResult_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsResult, int]:
    o = DescribeConfigsResult.__new__(DescribeConfigsResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_array_len(buf, pos, 11)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResourceResult_0(buf, pos)
            append(x)
        o.configs = items
    return o, pos


def _decode_DescribeConfigsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeConfigsResponse, int]:
    o = DescribeConfigsResponse.__new__(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 11)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResult_0(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_DescribeConfigsResourceResult_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    o = DescribeConfigsResourceResult.__new__(DescribeConfigsResourceResult)
    o.is_default = False
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_string(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _S3.unpack_from(buf, pos)
    pos += 3
    n, pos = read_array_len(buf, pos, 5)
    if n < 0:
        null_field('Synonyms')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsSynonym_0(buf, pos)
            append(x)
        o.synonyms = items
    (o.config_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.documentation, pos = read_string(buf, pos)
    return o, pos


def _decode_DescribeConfigsResult_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsResult, int]:
    o = DescribeConfigsResult.__new__(DescribeConfigsResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_array_len(buf, pos, 14)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResourceResult_1(buf, pos)
            append(x)
        o.configs = items
    return o, pos


def _decode_DescribeConfigsResponse_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsResponse, int]:
    o = DescribeConfigsResponse.__new__(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 11)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResult_1(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_DescribeConfigsSynonym_1(buf: Buffer, pos: int) -> tuple[DescribeConfigsSynonym, int]:
    o = DescribeConfigsSynonym.__new__(DescribeConfigsSynonym)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_compact_string(buf, pos)
    (o.source,) = _S2.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeConfigsResourceResult_2(buf: Buffer, pos: int) -> tuple[DescribeConfigsResourceResult, int]:
    o = DescribeConfigsResourceResult.__new__(DescribeConfigsResourceResult)
    o.is_default = False
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_compact_string(buf, pos)
    (o.read_only, o.config_source, o.is_sensitive,) = _S3.unpack_from(buf, pos)
    pos += 3
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Synonyms')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsSynonym_1(buf, pos)
            append(x)
        o.synonyms = items
    (o.config_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.documentation, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeConfigsResult_2(buf: Buffer, pos: int) -> tuple[DescribeConfigsResult, int]:
    o = DescribeConfigsResult.__new__(DescribeConfigsResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    (o.resource_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.resource_name, pos = read_compact_string(buf, pos)
    if o.resource_name is None:
        null_field('ResourceName')
    n, pos = read_compact_array_len(buf, pos, 9)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResourceResult_2(buf, pos)
            append(x)
        o.configs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeConfigsResponse_2(buf: Buffer, pos: int) -> tuple[DescribeConfigsResponse, int]:
    o = DescribeConfigsResponse.__new__(DescribeConfigsResponse)
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeConfigsResult_2(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeConfigsSynonym_0(o: DescribeConfigsSynonym, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_string(o.value))
    out.append(_S2.pack(o.source))


def _encode_DescribeConfigsResourceResult_0(o: DescribeConfigsResourceResult, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_string(o.value))
    out.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    items = o.synonyms
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsSynonym_0(x, out)


def _encode_DescribeConfigsResult_0(o: DescribeConfigsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    items = o.configs
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResourceResult_0(x, out)


def _encode_DescribeConfigsResponse_0(o: DescribeConfigsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResult_0(x, out)


def _encode_DescribeConfigsResourceResult_1(o: DescribeConfigsResourceResult, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_string(o.value))
    out.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    items = o.synonyms
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsSynonym_0(x, out)
    out.append(_S2.pack(o.config_type))
    out.append(enc_string(o.documentation))


def _encode_DescribeConfigsResult_1(o: DescribeConfigsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_string(o.resource_name))
    items = o.configs
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResourceResult_1(x, out)


def _encode_DescribeConfigsResponse_1(o: DescribeConfigsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResult_1(x, out)


def _encode_DescribeConfigsSynonym_1(o: DescribeConfigsSynonym, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.value))
    out.append(_S2.pack(o.source))
    out.append(b'\x00')


def _encode_DescribeConfigsResourceResult_2(o: DescribeConfigsResourceResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.value))
    out.append(_S3.pack(o.read_only, o.config_source, o.is_sensitive))
    items = o.synonyms
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsSynonym_1(x, out)
    out.append(_S2.pack(o.config_type))
    out.append(enc_compact_string(o.documentation))
    out.append(b'\x00')


def _encode_DescribeConfigsResult_2(o: DescribeConfigsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.resource_type))
    out.append(enc_compact_string(o.resource_name))
    items = o.configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResourceResult_2(x, out)
    out.append(b'\x00')


def _encode_DescribeConfigsResponse_2(o: DescribeConfigsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeConfigsResult_2(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DescribeConfigsResponse_0, 2: _decode_DescribeConfigsResponse_0, 3: _decode_DescribeConfigsResponse_1, 4: _decode_DescribeConfigsResponse_2}
ENCODERS = {1: _encode_DescribeConfigsResponse_0, 2: _encode_DescribeConfigsResponse_0, 3: _encode_DescribeConfigsResponse_1, 4: _encode_DescribeConfigsResponse_2}
MESSAGE = DescribeConfigsResponse
