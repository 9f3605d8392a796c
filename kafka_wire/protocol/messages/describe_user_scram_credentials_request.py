"""Generated from Kafka's DescribeUserScramCredentialsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeUserScramCredentialsRequest'
API_KEY = 50
VALID_VERSIONS = (0, 0)
FLEXIBLE_VERSIONS = (0, 32767)



class DescribeUserScramCredentialsRequest(Struct):
    """DescribeUserScramCredentialsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 50
    VALID_VERSIONS = (0, 0)

    __slots__ = ('users',)

    def __init__(self, users: Any = UNSET) -> None:
        self.users = [] if users is UNSET else users


class UserName(Struct):
    __slots__ = ('name',)

    def __init__(self, name: Any = '') -> None:
        self.name = name



def _decode_UserName_0(buf: Buffer, pos: int) -> tuple[UserName, int]:
    o = UserName.__new__(UserName)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeUserScramCredentialsRequest_0(buf: Buffer, pos: int) -> tuple[DescribeUserScramCredentialsRequest, int]:
    o = DescribeUserScramCredentialsRequest.__new__(DescribeUserScramCredentialsRequest)
    n, pos = read_compact_array_len(buf, pos, 2)
    if n < 0:
        o.users = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_UserName_0(buf, pos)
            append(x)
        o.users = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_UserName_0(o: UserName, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(b'\x00')


def _encode_DescribeUserScramCredentialsRequest_0(o: DescribeUserScramCredentialsRequest, out: list[Any]) -> None:
    items = o.users
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_UserName_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeUserScramCredentialsRequest_0}
ENCODERS = {0: _encode_DescribeUserScramCredentialsRequest_0}
MESSAGE = DescribeUserScramCredentialsRequest
