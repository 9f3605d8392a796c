"""Generated from Kafka's DescribeUserScramCredentialsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeUserScramCredentialsResponse'
API_KEY = 50
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>bi')


class DescribeUserScramCredentialsResponse(Struct):
    """DescribeUserScramCredentialsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 50
    VALID_VERSIONS = (0, 0)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'results')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = '', results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.results = [] if results is None else results


class DescribeUserScramCredentialsResult(Struct):
    __slots__ = ('user', 'error_code', 'error_message', 'credential_infos')

    def __init__(self, user: Any = '', error_code: Any = 0, error_message: Any = '', credential_infos: Any = None) -> None:
        self.user = user
        self.error_code = error_code
        self.error_message = error_message
        self.credential_infos = [] if credential_infos is None else credential_infos


class CredentialInfo(Struct):
    __slots__ = ('mechanism', 'iterations')

    def __init__(self, mechanism: Any = 0, iterations: Any = 0) -> None:
        self.mechanism = mechanism
        self.iterations = iterations



def _decode_CredentialInfo_0(buf: Buffer, pos: int) -> tuple[CredentialInfo, int]:
    o = CredentialInfo.__new__(CredentialInfo)
    (o.mechanism, o.iterations,) = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeUserScramCredentialsResult_0(buf: Buffer, pos: int) -> tuple[DescribeUserScramCredentialsResult, int]:
    o = DescribeUserScramCredentialsResult.__new__(DescribeUserScramCredentialsResult)
    o.user, pos = read_compact_string(buf, pos)
    if o.user is None:
        null_field('User')
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('CredentialInfos')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CredentialInfo_0(buf, pos)
            append(x)
        o.credential_infos = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeUserScramCredentialsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeUserScramCredentialsResponse, int]:
    o = DescribeUserScramCredentialsResponse.__new__(DescribeUserScramCredentialsResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeUserScramCredentialsResult_0(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_CredentialInfo_0(o: CredentialInfo, out: list[Any]) -> None:
    out.append(_S2.pack(o.mechanism, o.iterations))
    out.append(b'\x00')


def _encode_DescribeUserScramCredentialsResult_0(o: DescribeUserScramCredentialsResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.user))
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.credential_infos
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CredentialInfo_0(x, out)
    out.append(b'\x00')


def _encode_DescribeUserScramCredentialsResponse_0(o: DescribeUserScramCredentialsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeUserScramCredentialsResult_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeUserScramCredentialsResponse_0}
ENCODERS = {0: _encode_DescribeUserScramCredentialsResponse_0}
MESSAGE = DescribeUserScramCredentialsResponse
