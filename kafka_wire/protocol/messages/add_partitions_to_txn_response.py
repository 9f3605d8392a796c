"""Generated from Kafka's AddPartitionsToTxnResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AddPartitionsToTxnResponse'
API_KEY = 24
VALID_VERSIONS = (0, 5)
FLEXIBLE_VERSIONS = (3, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ih')


class AddPartitionsToTxnResponse(Struct):
    """AddPartitionsToTxnResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 24
    VALID_VERSIONS = (0, 5)

    __slots__ = ('throttle_time_ms', 'error_code', 'results_by_transaction', 'results_by_topic_v3_and_below')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, results_by_transaction: Any = None, results_by_topic_v3_and_below: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.results_by_transaction = [] if results_by_transaction is None else results_by_transaction
        self.results_by_topic_v3_and_below = [] if results_by_topic_v3_and_below is None else results_by_topic_v3_and_below


class AddPartitionsToTxnResult(Struct):
    __slots__ = ('transactional_id', 'topic_results')

    def __init__(self, transactional_id: Any = '', topic_results: Any = None) -> None:
        self.transactional_id = transactional_id
        self.topic_results = [] if topic_results is None else topic_results


class AddPartitionsToTxnTopicResult(Struct):
    __slots__ = ('name', 'results_by_partition')

    def __init__(self, name: Any = '', results_by_partition: Any = None) -> None:
        self.name = name
        self.results_by_partition = [] if results_by_partition is None else results_by_partition


class AddPartitionsToTxnPartitionResult(Struct):
    __slots__ = ('partition_index', 'partition_error_code')

    def __init__(self, partition_index: Any = 0, partition_error_code: Any = 0) -> None:
        self.partition_index = partition_index
        self.partition_error_code = partition_error_code



def _decode_AddPartitionsToTxnPartitionResult_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnPartitionResult, int]:
    o = AddPartitionsToTxnPartitionResult.__new__(AddPartitionsToTxnPartitionResult)
    (o.partition_index, o.partition_error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    return o, pos


def _decode_AddPartitionsToTxnTopicResult_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnTopicResult, int]:
    o = AddPartitionsToTxnTopicResult.__new__(AddPartitionsToTxnTopicResult)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ResultsByPartition')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnPartitionResult_0(buf, pos)
            append(x)
        o.results_by_partition = items
    return o, pos


def _decode_AddPartitionsToTxnResponse_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    o = AddPartitionsToTxnResponse.__new__(AddPartitionsToTxnResponse)
    o.error_code = 0
    o.results_by_transaction = []
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ResultsByTopicV3AndBelow')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopicResult_0(buf, pos)
            append(x)
        o.results_by_topic_v3_and_below = items
    return o, pos


def _decode_AddPartitionsToTxnPartitionResult_1(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnPartitionResult, int]:
    o = AddPartitionsToTxnPartitionResult.__new__(AddPartitionsToTxnPartitionResult)
    (o.partition_index, o.partition_error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnTopicResult_1(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnTopicResult, int]:
    o = AddPartitionsToTxnTopicResult.__new__(AddPartitionsToTxnTopicResult)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 7)
    if n < 0:
        null_field('ResultsByPartition')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnPartitionResult_1(buf, pos)
            append(x)
        o.results_by_partition = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnResponse_1(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    o = AddPartitionsToTxnResponse.__new__(AddPartitionsToTxnResponse)
    o.error_code = 0
    o.results_by_transaction = []
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ResultsByTopicV3AndBelow')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopicResult_1(buf, pos)
            append(x)
        o.results_by_topic_v3_and_below = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnResult_0(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnResult, int]:
    o = AddPartitionsToTxnResult.__new__(AddPartitionsToTxnResult)
    o.transactional_id, pos = read_compact_string(buf, pos)
    if o.transactional_id is None:
        null_field('TransactionalId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('TopicResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnTopicResult_1(buf, pos)
            append(x)
        o.topic_results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AddPartitionsToTxnResponse_2(buf: Buffer, pos: int) -> tuple[AddPartitionsToTxnResponse, int]:
    o = AddPartitionsToTxnResponse.__new__(AddPartitionsToTxnResponse)
    o.results_by_topic_v3_and_below = []
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ResultsByTransaction')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AddPartitionsToTxnResult_0(buf, pos)
            append(x)
        o.results_by_transaction = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AddPartitionsToTxnPartitionResult_0(o: AddPartitionsToTxnPartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.partition_error_code))


def _encode_AddPartitionsToTxnTopicResult_0(o: AddPartitionsToTxnTopicResult, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.results_by_partition
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnPartitionResult_0(x, out)


def _encode_AddPartitionsToTxnResponse_0(o: AddPartitionsToTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results_by_topic_v3_and_below
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopicResult_0(x, out)


def _encode_AddPartitionsToTxnPartitionResult_1(o: AddPartitionsToTxnPartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.partition_error_code))
    out.append(b'\x00')


def _encode_AddPartitionsToTxnTopicResult_1(o: AddPartitionsToTxnTopicResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.results_by_partition
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnPartitionResult_1(x, out)
    out.append(b'\x00')


def _encode_AddPartitionsToTxnResponse_1(o: AddPartitionsToTxnResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.results_by_topic_v3_and_below
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopicResult_1(x, out)
    out.append(b'\x00')


def _encode_AddPartitionsToTxnResult_0(o: AddPartitionsToTxnResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    items = o.topic_results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnTopicResult_1(x, out)
    out.append(b'\x00')


def _encode_AddPartitionsToTxnResponse_2(o: AddPartitionsToTxnResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.results_by_transaction
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AddPartitionsToTxnResult_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_AddPartitionsToTxnResponse_0, 1: _decode_AddPartitionsToTxnResponse_0, 2: _decode_AddPartitionsToTxnResponse_0, 3: _decode_AddPartitionsToTxnResponse_1, 4: _decode_AddPartitionsToTxnResponse_2, 5: _decode_AddPartitionsToTxnResponse_2}
ENCODERS = {0: _encode_AddPartitionsToTxnResponse_0, 1: _encode_AddPartitionsToTxnResponse_0, 2: _encode_AddPartitionsToTxnResponse_0, 3: _encode_AddPartitionsToTxnResponse_1, 4: _encode_AddPartitionsToTxnResponse_2, 5: _encode_AddPartitionsToTxnResponse_2}
MESSAGE = AddPartitionsToTxnResponse
