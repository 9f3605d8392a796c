"""Generated from Kafka's ProduceRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ProduceRequest'
API_KEY = 0
VALID_VERSIONS = (3, 13)
FLEXIBLE_VERSIONS = (9, 32767)

_S0 = struct.Struct('>hi')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>16s')


class ProduceRequest(Struct):
    """ProduceRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 0
    VALID_VERSIONS = (3, 13)

    __slots__ = ('transactional_id', 'acks', 'timeout_ms', 'topic_data')

    def __init__(self, transactional_id: Any = None, acks: Any = 0, timeout_ms: Any = 0, topic_data: Any = None) -> None:
        self.transactional_id = transactional_id
        self.acks = acks
        self.timeout_ms = timeout_ms
        self.topic_data = [] if topic_data is None else topic_data


class TopicProduceData(Struct):
    __slots__ = ('name', 'topic_id', 'partition_data')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partition_data: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_data = [] if partition_data is None else partition_data


class PartitionProduceData(Struct):
    __slots__ = ('index', 'records')

    def __init__(self, index: Any = 0, records: Any = None) -> None:
        self.index = index
        self.records = records



def _decode_PartitionProduceData_0(buf: Buffer, pos: int) -> tuple[PartitionProduceData, int]:
    o = PartitionProduceData.__new__(PartitionProduceData)
    (o.index,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.records, pos = read_records(buf, pos)
    return o, pos


def _decode_TopicProduceData_0(buf: Buffer, pos: int) -> tuple[TopicProduceData, int]:
    o = TopicProduceData.__new__(TopicProduceData)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('PartitionData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceData_0(buf, pos)
            append(x)
        o.partition_data = items
    return o, pos


def _decode_ProduceRequest_0(buf: Buffer, pos: int) -> tuple[ProduceRequest, int]:
    o = ProduceRequest.__new__(ProduceRequest)
    o.transactional_id, pos = read_string(buf, pos)
    (o.acks, o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('TopicData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceData_0(buf, pos)
            append(x)
        o.topic_data = items
    return o, pos


def _decode_PartitionProduceData_1(buf: Buffer, pos: int) -> tuple[PartitionProduceData, int]:
    o = PartitionProduceData.__new__(PartitionProduceData)
    (o.index,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.records, pos = read_compact_records(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicProduceData_1(buf: Buffer, pos: int) -> tuple[TopicProduceData, int]:
    o = TopicProduceData.__new__(TopicProduceData)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('PartitionData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceData_1(buf, pos)
            append(x)
        o.partition_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ProduceRequest_1(buf: Buffer, pos: int) -> tuple[ProduceRequest, int]:
    o = ProduceRequest.__new__(ProduceRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    (o.acks, o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('TopicData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceData_1(buf, pos)
            append(x)
        o.topic_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicProduceData_2(buf: Buffer, pos: int) -> tuple[TopicProduceData, int]:
    o = TopicProduceData.__new__(TopicProduceData)
    o.name = ''
    (o.topic_id,) = _S2.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('PartitionData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceData_1(buf, pos)
            append(x)
        o.partition_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ProduceRequest_2(buf: Buffer, pos: int) -> tuple[ProduceRequest, int]:
    o = ProduceRequest.__new__(ProduceRequest)
    o.transactional_id, pos = read_compact_string(buf, pos)
    (o.acks, o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('TopicData')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceData_2(buf, pos)
            append(x)
        o.topic_data = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionProduceData_0(o: PartitionProduceData, out: list[Any]) -> None:
    out.append(_S1.pack(o.index))
    enc_records(out, o.records)


def _encode_TopicProduceData_0(o: TopicProduceData, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partition_data
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceData_0(x, out)


def _encode_ProduceRequest_0(o: ProduceRequest, out: list[Any]) -> None:
    out.append(enc_string(o.transactional_id))
    out.append(_S0.pack(o.acks, o.timeout_ms))
    items = o.topic_data
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceData_0(x, out)


def _encode_PartitionProduceData_1(o: PartitionProduceData, out: list[Any]) -> None:
    out.append(_S1.pack(o.index))
    enc_compact_records(out, o.records)
    out.append(b'\x00')


def _encode_TopicProduceData_1(o: TopicProduceData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceData_1(x, out)
    out.append(b'\x00')


def _encode_ProduceRequest_1(o: ProduceRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S0.pack(o.acks, o.timeout_ms))
    items = o.topic_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceData_1(x, out)
    out.append(b'\x00')


def _encode_TopicProduceData_2(o: TopicProduceData, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    items = o.partition_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceData_1(x, out)
    out.append(b'\x00')


def _encode_ProduceRequest_2(o: ProduceRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.transactional_id))
    out.append(_S0.pack(o.acks, o.timeout_ms))
    items = o.topic_data
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceData_2(x, out)
    out.append(b'\x00')


DECODERS = {3: _decode_ProduceRequest_0, 4: _decode_ProduceRequest_0, 5: _decode_ProduceRequest_0, 6: _decode_ProduceRequest_0, 7: _decode_ProduceRequest_0, 8: _decode_ProduceRequest_0, 9: _decode_ProduceRequest_1, 10: _decode_ProduceRequest_1, 11: _decode_ProduceRequest_1, 12: _decode_ProduceRequest_1, 13: _decode_ProduceRequest_2}
ENCODERS = {3: _encode_ProduceRequest_0, 4: _encode_ProduceRequest_0, 5: _encode_ProduceRequest_0, 6: _encode_ProduceRequest_0, 7: _encode_ProduceRequest_0, 8: _encode_ProduceRequest_0, 9: _encode_ProduceRequest_1, 10: _encode_ProduceRequest_1, 11: _encode_ProduceRequest_1, 12: _encode_ProduceRequest_1, 13: _encode_ProduceRequest_2}
MESSAGE = ProduceRequest
