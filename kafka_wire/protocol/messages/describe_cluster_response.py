"""Generated from Kafka's DescribeClusterResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeClusterResponse'
API_KEY = 60
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>b')
_S3 = struct.Struct('>?')


class DescribeClusterResponse(Struct):
    """DescribeClusterResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 60
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'endpoint_type', 'cluster_id', 'controller_id', 'brokers', 'cluster_authorized_operations')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, endpoint_type: Any = 1, cluster_id: Any = '', controller_id: Any = -1, brokers: Any = None, cluster_authorized_operations: Any = -2147483648) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.endpoint_type = endpoint_type
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.brokers = [] if brokers is None else brokers
        self.cluster_authorized_operations = cluster_authorized_operations


class DescribeClusterBroker(Struct):
    __slots__ = ('broker_id', 'host', 'port', 'rack', 'is_fenced')

    def __init__(self, broker_id: Any = 0, host: Any = '', port: Any = 0, rack: Any = None, is_fenced: Any = False) -> None:
        self.broker_id = broker_id
        self.host = host
        self.port = port
        self.rack = rack
        self.is_fenced = is_fenced



def _decode_DescribeClusterBroker_0(buf: Buffer, pos: int) -> tuple[DescribeClusterBroker, int]:
    o = DescribeClusterBroker.__new__(DescribeClusterBroker)
    o.is_fenced = False
    (o.broker_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.rack, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterResponse_0(buf: Buffer, pos: int) -> tuple[DescribeClusterResponse, int]:
    o = DescribeClusterResponse.__new__(DescribeClusterResponse)
    o.endpoint_type = 1
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.controller_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeClusterBroker_0(buf, pos)
            append(x)
        o.brokers = items
    (o.cluster_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterResponse_1(buf: Buffer, pos: int) -> tuple[DescribeClusterResponse, int]:
    o = DescribeClusterResponse.__new__(DescribeClusterResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.endpoint_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.controller_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeClusterBroker_0(buf, pos)
            append(x)
        o.brokers = items
    (o.cluster_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterBroker_1(buf: Buffer, pos: int) -> tuple[DescribeClusterBroker, int]:
    o = DescribeClusterBroker.__new__(DescribeClusterBroker)
    (o.broker_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.rack, pos = read_compact_string(buf, pos)
    (o.is_fenced,) = _S3.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeClusterResponse_2(buf: Buffer, pos: int) -> tuple[DescribeClusterResponse, int]:
    o = DescribeClusterResponse.__new__(DescribeClusterResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.endpoint_type,) = _S2.unpack_from(buf, pos)
    pos += 1
    o.cluster_id, pos = read_compact_string(buf, pos)
    if o.cluster_id is None:
        null_field('ClusterId')
    (o.controller_id,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeClusterBroker_1(buf, pos)
            append(x)
        o.brokers = items
    (o.cluster_authorized_operations,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeClusterBroker_0(o: DescribeClusterBroker, out: list[Any]) -> None:
    out.append(_S1.pack(o.broker_id))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_DescribeClusterResponse_0(o: DescribeClusterResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.controller_id))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeClusterBroker_0(x, out)
    out.append(_S1.pack(o.cluster_authorized_operations))
    out.append(b'\x00')


def _encode_DescribeClusterResponse_1(o: DescribeClusterResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.endpoint_type))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.controller_id))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeClusterBroker_0(x, out)
    out.append(_S1.pack(o.cluster_authorized_operations))
    out.append(b'\x00')


def _encode_DescribeClusterBroker_1(o: DescribeClusterBroker, out: list[Any]) -> None:
    out.append(_S1.pack(o.broker_id))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(_S3.pack(o.is_fenced))
    out.append(b'\x00')


def _encode_DescribeClusterResponse_2(o: DescribeClusterResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S2.pack(o.endpoint_type))
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S1.pack(o.controller_id))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeClusterBroker_1(x, out)
    out.append(_S1.pack(o.cluster_authorized_operations))
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeClusterResponse_0, 1: _decode_DescribeClusterResponse_1, 2: _decode_DescribeClusterResponse_2}
ENCODERS = {0: _encode_DescribeClusterResponse_0, 1: _encode_DescribeClusterResponse_1, 2: _encode_DescribeClusterResponse_2}
MESSAGE = DescribeClusterResponse
