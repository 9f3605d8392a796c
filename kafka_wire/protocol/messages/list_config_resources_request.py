"""Generated from Kafka's ListConfigResourcesRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListConfigResourcesRequest'
API_KEY = 74
VALID_VERSIONS = (0, 1)
FLEXIBLE_VERSIONS = (0, 32767)



class ListConfigResourcesRequest(Struct):
    """ListConfigResourcesRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 74
    VALID_VERSIONS = (0, 1)

    __slots__ = ('resource_types',)

    def __init__(self, resource_types: Any = None) -> None:
        self.resource_types = [] if resource_types is None else resource_types



def _decode_ListConfigResourcesRequest_0(buf: Buffer, pos: int) -> tuple[ListConfigResourcesRequest, int]:
    o = ListConfigResourcesRequest.__new__(ListConfigResourcesRequest)
    o.resource_types = []
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListConfigResourcesRequest_1(buf: Buffer, pos: int) -> tuple[ListConfigResourcesRequest, int]:
    o = ListConfigResourcesRequest.__new__(ListConfigResourcesRequest)
    n, pos = read_compact_array_len(buf, pos)
    if n < 0:
        null_field('ResourceTypes')
    else:
        o.resource_types = list(struct.unpack_from('>%db' % n, buf, pos))
        pos += n * 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListConfigResourcesRequest_0(o: ListConfigResourcesRequest, out: list[Any]) -> None:
    out.append(b'\x00')


def _encode_ListConfigResourcesRequest_1(o: ListConfigResourcesRequest, out: list[Any]) -> None:
    items = o.resource_types
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%db' % len(items), *items))
    out.append(b'\x00')


DECODERS = {0: _decode_ListConfigResourcesRequest_0, 1: _decode_ListConfigResourcesRequest_1}
ENCODERS = {0: _encode_ListConfigResourcesRequest_0, 1: _encode_ListConfigResourcesRequest_1}
MESSAGE = ListConfigResourcesRequest
