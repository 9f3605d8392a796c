"""Generated from Kafka's UpdateFeaturesResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'UpdateFeaturesResponse'
API_KEY = 57
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>h')


class UpdateFeaturesResponse(Struct):
    """UpdateFeaturesResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 57
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'results')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is None else results


class UpdatableFeatureResult(Struct):
    __slots__ = ('feature', 'error_code', 'error_message')

    def __init__(self, feature: Any = '', error_code: Any = 0, error_message: Any = '') -> None:
        self.feature = feature
        self.error_code = error_code
        self.error_message = error_message



def _decode_UpdatableFeatureResult_0(buf: Buffer, pos: int) -> tuple[UpdatableFeatureResult, int]:
    o = UpdatableFeatureResult.__new__(UpdatableFeatureResult)
    o.feature, pos = read_compact_string(buf, pos)
    if o.feature is None:
        null_field('Feature')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateFeaturesResponse_0(buf: Buffer, pos: int) -> tuple[UpdateFeaturesResponse, int]:
    o = UpdateFeaturesResponse.__new__(UpdateFeaturesResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_UpdatableFeatureResult_0(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_UpdateFeaturesResponse_1(buf: Buffer, pos: int) -> tuple[UpdateFeaturesResponse, int]:
    o = UpdateFeaturesResponse.__new__(UpdateFeaturesResponse)
    o.results = []
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_UpdatableFeatureResult_0(o: UpdatableFeatureResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.feature))
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_UpdateFeaturesResponse_0(o: UpdateFeaturesResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_UpdatableFeatureResult_0(x, out)
    out.append(b'\x00')


def _encode_UpdateFeaturesResponse_1(o: UpdateFeaturesResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


DECODERS = {0: _decode_UpdateFeaturesResponse_0, 1: _decode_UpdateFeaturesResponse_0, 2: _decode_UpdateFeaturesResponse_1}
ENCODERS = {0: _encode_UpdateFeaturesResponse_0, 1: _encode_UpdateFeaturesResponse_0, 2: _encode_UpdateFeaturesResponse_1}
MESSAGE = UpdateFeaturesResponse
