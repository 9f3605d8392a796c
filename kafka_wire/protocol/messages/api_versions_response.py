"""Generated from Kafka's ApiVersionsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ApiVersionsResponse'
API_KEY = 18
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>hhh')
_S2 = struct.Struct('>i')
_S3 = struct.Struct('>hh')
_S4 = struct.Struct('>q')
_S5 = struct.Struct('>?')


class ApiVersionsResponse(Struct):
    """ApiVersionsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 18
    VALID_VERSIONS = (0, 4)

    __slots__ = ('error_code', 'api_keys', 'throttle_time_ms', 'supported_features', 'finalized_features_epoch', 'finalized_features', 'zk_migration_ready')

    def __init__(self, error_code: Any = 0, api_keys: Any = None, throttle_time_ms: Any = 0, supported_features: Any = None, finalized_features_epoch: Any = -1, finalized_features: Any = None, zk_migration_ready: Any = False) -> None:
        self.error_code = error_code
        self.api_keys = [] if api_keys is None else api_keys
        self.throttle_time_ms = throttle_time_ms
        self.supported_features = [] if supported_features is None else supported_features
        self.finalized_features_epoch = finalized_features_epoch
        self.finalized_features = [] if finalized_features is None else finalized_features
        self.zk_migration_ready = zk_migration_ready


class ApiVersion(Struct):
    __slots__ = ('api_key', 'min_version', 'max_version')

    def __init__(self, api_key: Any = 0, min_version: Any = 0, max_version: Any = 0) -> None:
        self.api_key = api_key
        self.min_version = min_version
        self.max_version = max_version


class SupportedFeatureKey(Struct):
    __slots__ = ('name', 'min_version', 'max_version')

    def __init__(self, name: Any = '', min_version: Any = 0, max_version: Any = 0) -> None:
        self.name = name
        self.min_version = min_version
        self.max_version = max_version


class FinalizedFeatureKey(Struct):
    __slots__ = ('name', 'max_version_level', 'min_version_level')

    def __init__(self, name: Any = '', max_version_level: Any = 0, min_version_level: Any = 0) -> None:
        self.name = name
        self.max_version_level = max_version_level
        self.min_version_level = min_version_level



def _decode_ApiVersion_0(buf: Buffer, pos: int) -> tuple[ApiVersion, int]:
    o = ApiVersion.__new__(ApiVersion)
    (o.api_key, o.min_version, o.max_version,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_ApiVersionsResponse_0(buf: Buffer, pos: int) -> tuple[ApiVersionsResponse, int]:
    o = ApiVersionsResponse.__new__(ApiVersionsResponse)
    o.throttle_time_ms = 0
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ApiKeys')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ApiVersion_0(buf, pos)
            append(x)
        o.api_keys = items
    return o, pos


def _decode_ApiVersionsResponse_1(buf: Buffer, pos: int) -> tuple[ApiVersionsResponse, int]:
    o = ApiVersionsResponse.__new__(ApiVersionsResponse)
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ApiKeys')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ApiVersion_0(buf, pos)
            append(x)
        o.api_keys = items
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_ApiVersion_1(buf: Buffer, pos: int) -> tuple[ApiVersion, int]:
    o = ApiVersion.__new__(ApiVersion)
    (o.api_key, o.min_version, o.max_version,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_SupportedFeatureKey_0(buf: Buffer, pos: int) -> tuple[SupportedFeatureKey, int]:
    o = SupportedFeatureKey.__new__(SupportedFeatureKey)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.min_version, o.max_version,) = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FinalizedFeatureKey_0(buf: Buffer, pos: int) -> tuple[FinalizedFeatureKey, int]:
    o = FinalizedFeatureKey.__new__(FinalizedFeatureKey)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.max_version_level, o.min_version_level,) = _S3.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ApiVersionsResponse_2(buf: Buffer, pos: int) -> tuple[ApiVersionsResponse, int]:
    o = ApiVersionsResponse.__new__(ApiVersionsResponse)
    o.supported_features = []
    o.finalized_features_epoch = -1
    o.finalized_features = []
    o.zk_migration_ready = False
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('ApiKeys')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ApiVersion_1(buf, pos)
            append(x)
        o.api_keys = items
    (o.throttle_time_ms,) = _S2.unpack_from(buf, pos)
    pos += 4
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            n, pos = read_compact_array_len(buf, pos, 6)
            if n < 0:
                null_field('SupportedFeatures')
            else:
                items = []
                append = items.append
                for _ in range(n):
                    x, pos = _decode_SupportedFeatureKey_0(buf, pos)
                    append(x)
                o.supported_features = items
        elif tag == 1:
            (o.finalized_features_epoch,) = _S4.unpack_from(buf, pos)
            pos += 8
        elif tag == 2:
            n, pos = read_compact_array_len(buf, pos, 6)
            if n < 0:
                null_field('FinalizedFeatures')
            else:
                items = []
                append = items.append
                for _ in range(n):
                    x, pos = _decode_FinalizedFeatureKey_0(buf, pos)
                    append(x)
                o.finalized_features = items
        elif tag == 3:
            (o.zk_migration_ready,) = _S5.unpack_from(buf, pos)
            pos += 1
        pos = end
    return o, pos


def _encode_ApiVersion_0(o: ApiVersion, out: list[Any]) -> None:
    out.append(_S1.pack(o.api_key, o.min_version, o.max_version))


def _encode_ApiVersionsResponse_0(o: ApiVersionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.api_keys
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ApiVersion_0(x, out)


def _encode_ApiVersionsResponse_1(o: ApiVersionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.api_keys
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ApiVersion_0(x, out)
    out.append(_S2.pack(o.throttle_time_ms))


def _encode_ApiVersion_1(o: ApiVersion, out: list[Any]) -> None:
    out.append(_S1.pack(o.api_key, o.min_version, o.max_version))
    out.append(b'\x00')


def _encode_SupportedFeatureKey_0(o: SupportedFeatureKey, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S3.pack(o.min_version, o.max_version))
    out.append(b'\x00')


def _encode_FinalizedFeatureKey_0(o: FinalizedFeatureKey, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S3.pack(o.max_version_level, o.min_version_level))
    out.append(b'\x00')


def _encode_ApiVersionsResponse_2(o: ApiVersionsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.api_keys
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ApiVersion_1(x, out)
    out.append(_S2.pack(o.throttle_time_ms))
    tagged = []
    if o.supported_features:
        outer, out = out, []
        items = o.supported_features
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                _encode_SupportedFeatureKey_0(x, out)
        tagged.append((0, out))
        out = outer
    if o.finalized_features_epoch != -1:
        outer, out = out, []
        out.append(_S4.pack(o.finalized_features_epoch))
        tagged.append((1, out))
        out = outer
    if o.finalized_features:
        outer, out = out, []
        items = o.finalized_features
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                _encode_FinalizedFeatureKey_0(x, out)
        tagged.append((2, out))
        out = outer
    if o.zk_migration_ready != False:
        outer, out = out, []
        out.append(_S5.pack(o.zk_migration_ready))
        tagged.append((3, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {0: _decode_ApiVersionsResponse_0, 1: _decode_ApiVersionsResponse_1, 2: _decode_ApiVersionsResponse_1, 3: _decode_ApiVersionsResponse_2, 4: _decode_ApiVersionsResponse_2}
ENCODERS = {0: _encode_ApiVersionsResponse_0, 1: _encode_ApiVersionsResponse_1, 2: _encode_ApiVersionsResponse_1, 3: _encode_ApiVersionsResponse_2, 4: _encode_ApiVersionsResponse_2}
MESSAGE = ApiVersionsResponse
