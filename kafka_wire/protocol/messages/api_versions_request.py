"""Generated from Kafka's ApiVersionsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ApiVersionsRequest'
API_KEY = 18
VALID_VERSIONS = (0, 4)
FLEXIBLE_VERSIONS = (3, 32767)



class ApiVersionsRequest(Struct):
    """ApiVersionsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 18
    VALID_VERSIONS = (0, 4)

    __slots__ = ('client_software_name', 'client_software_version')

    def __init__(self, client_software_name: Any = '', client_software_version: Any = '') -> None:
        self.client_software_name = client_software_name
        self.client_software_version = client_software_version



def _decode_ApiVersionsRequest_0(buf: Buffer, pos: int) -> tuple[ApiVersionsRequest, int]:
    o = ApiVersionsRequest.__new__(ApiVersionsRequest)
    o.client_software_name = ''
    o.client_software_version = ''
    return o, pos


def _decode_ApiVersionsRequest_1(buf: Buffer, pos: int) -> tuple[ApiVersionsRequest, int]:
    o = ApiVersionsRequest.__new__(ApiVersionsRequest)
    o.client_software_name, pos = read_compact_string(buf, pos)
    if o.client_software_name is None:
        null_field('ClientSoftwareName')
    o.client_software_version, pos = read_compact_string(buf, pos)
    if o.client_software_version is None:
        null_field('ClientSoftwareVersion')
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ApiVersionsRequest_0(o: ApiVersionsRequest, out: list[Any]) -> None:
    pass


def _encode_ApiVersionsRequest_1(o: ApiVersionsRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.client_software_name))
    out.append(enc_compact_string(o.client_software_version))
    out.append(b'\x00')


DECODERS = {0: _decode_ApiVersionsRequest_0, 1: _decode_ApiVersionsRequest_0, 2: _decode_ApiVersionsRequest_0, 3: _decode_ApiVersionsRequest_1, 4: _decode_ApiVersionsRequest_1}
ENCODERS = {0: _encode_ApiVersionsRequest_0, 1: _encode_ApiVersionsRequest_0, 2: _encode_ApiVersionsRequest_0, 3: _encode_ApiVersionsRequest_1, 4: _encode_ApiVersionsRequest_1}
MESSAGE = ApiVersionsRequest
