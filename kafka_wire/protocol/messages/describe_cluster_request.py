"""Generated from Kafka's DescribeClusterRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeClusterRequest'
API_KEY = 60
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>?')
_S1 = struct.Struct('>?b')
_S2 = struct.Struct('>?b?')


class DescribeClusterRequest(Struct):
    """DescribeClusterRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 60
    VALID_VERSIONS = (0, 2)

    __slots__ = ('include_cluster_authorized_operations', 'endpoint_type', 'include_fenced_brokers')

    def __init__(self, include_cluster_authorized_operations: Any = False, endpoint_type: Any = 1, include_fenced_brokers: Any = False) -> None:
        self.include_cluster_authorized_operations = include_cluster_authorized_operations
        self.endpoint_type = endpoint_type
        self.include_fenced_brokers = include_fenced_brokers



def _decode_DescribeClusterRequest_0(buf: Buffer, pos: int) -> tuple[DescribeClusterRequest, int]:
    o = DescribeClusterRequest.__new__(DescribeClusterRequest)
    o.endpoint_type = 1
    o.include_fenced_brokers = False
    (o.include_cluster_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterRequest_1(buf: Buffer, pos: int) -> tuple[DescribeClusterRequest, int]:
    o = DescribeClusterRequest.__new__(DescribeClusterRequest)
    o.include_fenced_brokers = False
    (o.include_cluster_authorized_operations, o.endpoint_type,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterRequest_2(buf: Buffer, pos: int) -> tuple[DescribeClusterRequest, int]:
    o = DescribeClusterRequest.__new__(DescribeClusterRequest)
    (o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers,) = _S2.unpack_from(buf, pos)
    pos += 3
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeClusterRequest_0(o: DescribeClusterRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.include_cluster_authorized_operations))
    out.append(b'\x00')


def _encode_DescribeClusterRequest_1(o: DescribeClusterRequest, out: list[Any]) -> None:
    out.append(_S1.pack(o.include_cluster_authorized_operations, o.endpoint_type))
    out.append(b'\x00')


def _encode_DescribeClusterRequest_2(o: DescribeClusterRequest, out: list[Any]) -> None:
    out.append(_S2.pack(o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers))
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeClusterRequest_0, 1: _decode_DescribeClusterRequest_1, 2: _decode_DescribeClusterRequest_2}
ENCODERS = {0: _encode_DescribeClusterRequest_0, 1: _encode_DescribeClusterRequest_1, 2: _encode_DescribeClusterRequest_2}
MESSAGE = DescribeClusterRequest
