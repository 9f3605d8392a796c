"""Generated from Kafka's UpdateFeaturesRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'UpdateFeaturesRequest'
API_KEY = 57
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h?')
_S2 = struct.Struct('>hb')
_S3 = struct.Struct('>?')


class UpdateFeaturesRequest(Struct):
    """UpdateFeaturesRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 57
    VALID_VERSIONS = (0, 2)

    __slots__ = ('timeout_ms', 'feature_updates', 'validate_only')

    def __init__(self, timeout_ms: Any = 60000, feature_updates: Any = None, validate_only: Any = False) -> None:
        self.timeout_ms = timeout_ms
        self.feature_updates = [] if feature_updates is None else feature_updates
        self.validate_only = validate_only


class FeatureUpdateKey(Struct):
    __slots__ = ('feature', 'max_version_level', 'allow_downgrade', 'upgrade_type')

    def __init__(self, feature: Any = '', max_version_level: Any = 0, allow_downgrade: Any = False, upgrade_type: Any = 1) -> None:
        self.feature = feature
        self.max_version_level = max_version_level
        self.allow_downgrade = allow_downgrade
        self.upgrade_type = upgrade_type



def _decode_FeatureUpdateKey_0(buf: Buffer, pos: int) -> tuple[FeatureUpdateKey, int]:
    o = FeatureUpdateKey.__new__(FeatureUpdateKey)
    o.upgrade_type = 1
    o.feature, pos = read_compact_string(buf, pos)
    if o.feature is None:
        null_field('Feature')
    (o.max_version_level, o.allow_downgrade,) = _S1.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateFeaturesRequest_0(buf: Buffer, pos: int) -> tuple[UpdateFeaturesRequest, int]:
    o = UpdateFeaturesRequest.__new__(UpdateFeaturesRequest)
    o.validate_only = False
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('FeatureUpdates')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FeatureUpdateKey_0(buf, pos)
            append(x)
        o.feature_updates = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FeatureUpdateKey_1(buf: Buffer, pos: int) -> tuple[FeatureUpdateKey, int]:
    o = FeatureUpdateKey.__new__(FeatureUpdateKey)
    o.allow_downgrade = False
    o.feature, pos = read_compact_string(buf, pos)
    if o.feature is None:
        null_field('Feature')
    (o.max_version_level, o.upgrade_type,) = _S2.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateFeaturesRequest_1(buf: Buffer, pos: int) -> tuple[UpdateFeaturesRequest, int]:
    o = UpdateFeaturesRequest.__new__(UpdateFeaturesRequest)
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('FeatureUpdates')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FeatureUpdateKey_1(buf, pos)
            append(x)
        o.feature_updates = items
    (o.validate_only,) = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_FeatureUpdateKey_0(o: FeatureUpdateKey, out: list[Any]) -> None:
    out.append(enc_compact_string(o.feature))
    out.append(_S1.pack(o.max_version_level, o.allow_downgrade))
    out.append(b'\x00')


def _encode_UpdateFeaturesRequest_0(o: UpdateFeaturesRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.timeout_ms))
    items = o.feature_updates
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FeatureUpdateKey_0(x, out)
    out.append(b'\x00')


def _encode_FeatureUpdateKey_1(o: FeatureUpdateKey, out: list[Any]) -> None:
    out.append(enc_compact_string(o.feature))
    out.append(_S2.pack(o.max_version_level, o.upgrade_type))
    out.append(b'\x00')


def _encode_UpdateFeaturesRequest_1(o: UpdateFeaturesRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.timeout_ms))
    items = o.feature_updates
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FeatureUpdateKey_1(x, out)
    out.append(_S3.pack(o.validate_only))
    out.append(b'\x00')


DECODERS = {0: _decode_UpdateFeaturesRequest_0, 1: _decode_UpdateFeaturesRequest_1, 2: _decode_UpdateFeaturesRequest_1}
ENCODERS = {0: _encode_UpdateFeaturesRequest_0, 1: _encode_UpdateFeaturesRequest_1, 2: _encode_UpdateFeaturesRequest_1}
MESSAGE = UpdateFeaturesRequest
