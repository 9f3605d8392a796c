"""Generated from Kafka's DescribeLogDirsResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeLogDirsResponse'
API_KEY = 35
VALID_VERSIONS = (1, 5)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>iqq?')
_S3 = struct.Struct('>ih')
_S4 = struct.Struct('>qq')
_S5 = struct.Struct('>qq?')


class DescribeLogDirsResponse(Struct):
    """DescribeLogDirsResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 35
    VALID_VERSIONS = (1, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'results')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results = [] if results is None else results


class DescribeLogDirsResult(Struct):
    __slots__ = ('error_code', 'log_dir', 'topics', 'total_bytes', 'usable_bytes', 'is_cordoned')

    def __init__(self, error_code: Any = 0, log_dir: Any = '', topics: Any = None, total_bytes: Any = -1, usable_bytes: Any = -1, is_cordoned: Any = False) -> None:
        self.error_code = error_code
        self.log_dir = log_dir
        self.topics = [] if topics is None else topics
        self.total_bytes = total_bytes
        self.usable_bytes = usable_bytes
        self.is_cordoned = is_cordoned


class DescribeLogDirsTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class DescribeLogDirsPartition(Struct):
    __slots__ = ('partition_index', 'partition_size', 'offset_lag', 'is_future_key')

    def __init__(self, partition_index: Any = 0, partition_size: Any = 0, offset_lag: Any = 0, is_future_key: Any = False) -> None:
        self.partition_index = partition_index
        self.partition_size = partition_size
        self.offset_lag = offset_lag
        self.is_future_key = is_future_key



def _decode_DescribeLogDirsPartition_0(buf: Buffer, pos: int) -> tuple[DescribeLogDirsPartition, int]:
    o = DescribeLogDirsPartition.__new__(DescribeLogDirsPartition)
    (o.partition_index, o.partition_size, o.offset_lag, o.is_future_key,) = _S2.unpack_from(buf, pos)
    pos += 21
    return o, pos


def _decode_DescribeLogDirsTopic_0(buf: Buffer, pos: int) -> tuple[DescribeLogDirsTopic, int]:
    o = DescribeLogDirsTopic.__new__(DescribeLogDirsTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 21)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_DescribeLogDirsResult_0(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResult, int]:
    o = DescribeLogDirsResult.__new__(DescribeLogDirsResult)
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.log_dir, pos = read_string(buf, pos)
    if o.log_dir is None:
        null_field('LogDir')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_DescribeLogDirsResponse_0(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    o = DescribeLogDirsResponse.__new__(DescribeLogDirsResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsResult_0(buf, pos)
            append(x)
        o.results = items
    return o, pos


def _decode_DescribeLogDirsPartition_1(buf: Buffer, pos: int) -> tuple[DescribeLogDirsPartition, int]:
    o = DescribeLogDirsPartition.__new__(DescribeLogDirsPartition)
    (o.partition_index, o.partition_size, o.offset_lag, o.is_future_key,) = _S2.unpack_from(buf, pos)
    pos += 21
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsTopic_1(buf: Buffer, pos: int) -> tuple[DescribeLogDirsTopic, int]:
    o = DescribeLogDirsTopic.__new__(DescribeLogDirsTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 22)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsPartition_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResult_1(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResult, int]:
    o = DescribeLogDirsResult.__new__(DescribeLogDirsResult)
    o.total_bytes = -1
    o.usable_bytes = -1
    o.is_cordoned = False
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.log_dir, pos = read_compact_string(buf, pos)
    if o.log_dir is None:
        null_field('LogDir')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResponse_1(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    o = DescribeLogDirsResponse.__new__(DescribeLogDirsResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResponse_2(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    o = DescribeLogDirsResponse.__new__(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _S3.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsResult_1(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResult_2(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResult, int]:
    o = DescribeLogDirsResult.__new__(DescribeLogDirsResult)
    o.is_cordoned = False
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.log_dir, pos = read_compact_string(buf, pos)
    if o.log_dir is None:
        null_field('LogDir')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.total_bytes, o.usable_bytes,) = _S4.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResponse_3(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    o = DescribeLogDirsResponse.__new__(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _S3.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 21)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsResult_2(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResult_3(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResult, int]:
    o = DescribeLogDirsResult.__new__(DescribeLogDirsResult)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.log_dir, pos = read_compact_string(buf, pos)
    if o.log_dir is None:
        null_field('LogDir')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.total_bytes, o.usable_bytes, o.is_cordoned,) = _S5.unpack_from(buf, pos)
    pos += 17
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeLogDirsResponse_4(buf: Buffer, pos: int) -> tuple[DescribeLogDirsResponse, int]:
    o = DescribeLogDirsResponse.__new__(DescribeLogDirsResponse)
    (o.throttle_time_ms, o.error_code,) = _S3.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 22)
    if n < 0:
        null_field('Results')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_DescribeLogDirsResult_3(buf, pos)
            append(x)
        o.results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_DescribeLogDirsPartition_0(o: DescribeLogDirsPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key))


def _encode_DescribeLogDirsTopic_0(o: DescribeLogDirsTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsPartition_0(x, out)


def _encode_DescribeLogDirsResult_0(o: DescribeLogDirsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.log_dir))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsTopic_0(x, out)


def _encode_DescribeLogDirsResponse_0(o: DescribeLogDirsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsResult_0(x, out)


def _encode_DescribeLogDirsPartition_1(o: DescribeLogDirsPartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key))
    out.append(b'\x00')


def _encode_DescribeLogDirsTopic_1(o: DescribeLogDirsTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsPartition_1(x, out)
    out.append(b'\x00')


def _encode_DescribeLogDirsResult_1(o: DescribeLogDirsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.log_dir))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsTopic_1(x, out)
    out.append(b'\x00')


def _encode_DescribeLogDirsResponse_1(o: DescribeLogDirsResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsResult_1(x, out)
    out.append(b'\x00')


def _encode_DescribeLogDirsResponse_2(o: DescribeLogDirsResponse, out: list[Any]) -> None:
    out.append(_S3.pack(o.throttle_time_ms, o.error_code))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsResult_1(x, out)
    out.append(b'\x00')


def _encode_DescribeLogDirsResult_2(o: DescribeLogDirsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.log_dir))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsTopic_1(x, out)
    out.append(_S4.pack(o.total_bytes, o.usable_bytes))
    out.append(b'\x00')


def _encode_DescribeLogDirsResponse_3(o: DescribeLogDirsResponse, out: list[Any]) -> None:
    out.append(_S3.pack(o.throttle_time_ms, o.error_code))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsResult_2(x, out)
    out.append(b'\x00')


def _encode_DescribeLogDirsResult_3(o: DescribeLogDirsResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.log_dir))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsTopic_1(x, out)
    out.append(_S5.pack(o.total_bytes, o.usable_bytes, o.is_cordoned))
    out.append(b'\x00')


def _encode_DescribeLogDirsResponse_4(o: DescribeLogDirsResponse, out: list[Any]) -> None:
    out.append(_S3.pack(o.throttle_time_ms, o.error_code))
    items = o.results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_DescribeLogDirsResult_3(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_DescribeLogDirsResponse_0, 2: _decode_DescribeLogDirsResponse_1, 3: _decode_DescribeLogDirsResponse_2, 4: _decode_DescribeLogDirsResponse_3, 5: _decode_DescribeLogDirsResponse_4}
ENCODERS = {1: _encode_DescribeLogDirsResponse_0, 2: _encode_DescribeLogDirsResponse_1, 3: _encode_DescribeLogDirsResponse_2, 4: _encode_DescribeLogDirsResponse_3, 5: _encode_DescribeLogDirsResponse_4}
MESSAGE = DescribeLogDirsResponse
