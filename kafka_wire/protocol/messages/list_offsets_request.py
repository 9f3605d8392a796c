"""Generated from Kafka's ListOffsetsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ListOffsetsRequest'
API_KEY = 2
VALID_VERSIONS = (1, 11)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>iq')
_S2 = struct.Struct('>ib')
_S3 = struct.Struct('>iiq')


class ListOffsetsRequest(Struct):
    """ListOffsetsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 2
    VALID_VERSIONS = (1, 11)

    __slots__ = ('replica_id', 'isolation_level', 'topics', 'timeout_ms')

    def __init__(self, replica_id: Any = 0, isolation_level: Any = 0, topics: Any = None, timeout_ms: Any = 0) -> None:
        self.replica_id = replica_id
        self.isolation_level = isolation_level
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms


class ListOffsetsTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions


class ListOffsetsPartition(Struct):
    __slots__ = ('partition_index', 'current_leader_epoch', 'timestamp', 'max_num_offsets')

    def __init__(self, partition_index: Any = 0, current_leader_epoch: Any = -1, timestamp: Any = 0, max_num_offsets: Any = 1) -> None:
        self.partition_index = partition_index
        self.current_leader_epoch = current_leader_epoch
        self.timestamp = timestamp
        self.max_num_offsets = max_num_offsets



def _decode_ListOffsetsPartition_0(buf: Buffer, pos: int) -> tuple[ListOffsetsPartition, int]:
    o = ListOffsetsPartition.__new__(ListOffsetsPartition)
    o.current_leader_epoch = -1
    o.max_num_offsets = 1
    (o.partition_index, o.timestamp,) = _S1.unpack_from(buf, pos)
    pos += 12
    return o, pos


def _decode_ListOffsetsTopic_0(buf: Buffer, pos: int) -> tuple[ListOffsetsTopic, int]:
    o = ListOffsetsTopic.__new__(ListOffsetsTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_ListOffsetsRequest_0(buf: Buffer, pos: int) -> tuple[ListOffsetsRequest, int]:
    o = ListOffsetsRequest.__new__(ListOffsetsRequest)
    o.isolation_level = 0
    o.timeout_ms = 0
    (o.replica_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsRequest_1(buf: Buffer, pos: int) -> tuple[ListOffsetsRequest, int]:
    o = ListOffsetsRequest.__new__(ListOffsetsRequest)
    o.timeout_ms = 0
    (o.replica_id, o.isolation_level,) = _S2.unpack_from(buf, pos)
    pos += 5
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsPartition_1(buf: Buffer, pos: int) -> tuple[ListOffsetsPartition, int]:
    o = ListOffsetsPartition.__new__(ListOffsetsPartition)
    o.max_num_offsets = 1
    (o.partition_index, o.current_leader_epoch, o.timestamp,) = _S3.unpack_from(buf, pos)
    pos += 16
    return o, pos


def _decode_ListOffsetsTopic_1(buf: Buffer, pos: int) -> tuple[ListOffsetsTopic, int]:
    o = ListOffsetsTopic.__new__(ListOffsetsTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_ListOffsetsRequest_2(buf: Buffer, pos: int) -> tuple[ListOffsetsRequest, int]:
    o = ListOffsetsRequest.__new__(ListOffsetsRequest)
    o.timeout_ms = 0
    (o.replica_id, o.isolation_level,) = _S2.unpack_from(buf, pos)
    pos += 5
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_ListOffsetsPartition_2(buf: Buffer, pos: int) -> tuple[ListOffsetsPartition, int]:
    o = ListOffsetsPartition.__new__(ListOffsetsPartition)
    o.max_num_offsets = 1
    (o.partition_index, o.current_leader_epoch, o.timestamp,) = _S3.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListOffsetsTopic_2(buf: Buffer, pos: int) -> tuple[ListOffsetsTopic, int]:
    o = ListOffsetsTopic.__new__(ListOffsetsTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 17)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsPartition_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListOffsetsRequest_3(buf: Buffer, pos: int) -> tuple[ListOffsetsRequest, int]:
    o = ListOffsetsRequest.__new__(ListOffsetsRequest)
    o.timeout_ms = 0
    (o.replica_id, o.isolation_level,) = _S2.unpack_from(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopic_2(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ListOffsetsRequest_4(buf: Buffer, pos: int) -> tuple[ListOffsetsRequest, int]:
    o = ListOffsetsRequest.__new__(ListOffsetsRequest)
    (o.replica_id, o.isolation_level,) = _S2.unpack_from(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ListOffsetsTopic_2(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ListOffsetsPartition_0(o: ListOffsetsPartition, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.timestamp))


def _encode_ListOffsetsTopic_0(o: ListOffsetsTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartition_0(x, out)


def _encode_ListOffsetsRequest_0(o: ListOffsetsRequest, out: list[Any]) -> None:
    out.append(_S0.pack(o.replica_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopic_0(x, out)


def _encode_ListOffsetsRequest_1(o: ListOffsetsRequest, out: list[Any]) -> None:
    out.append(_S2.pack(o.replica_id, o.isolation_level))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopic_0(x, out)


def _encode_ListOffsetsPartition_1(o: ListOffsetsPartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.current_leader_epoch, o.timestamp))


def _encode_ListOffsetsTopic_1(o: ListOffsetsTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartition_1(x, out)


def _encode_ListOffsetsRequest_2(o: ListOffsetsRequest, out: list[Any]) -> None:
    out.append(_S2.pack(o.replica_id, o.isolation_level))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopic_1(x, out)


def _encode_ListOffsetsPartition_2(o: ListOffsetsPartition, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.current_leader_epoch, o.timestamp))
    out.append(b'\x00')


def _encode_ListOffsetsTopic_2(o: ListOffsetsTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsPartition_2(x, out)
    out.append(b'\x00')


def _encode_ListOffsetsRequest_3(o: ListOffsetsRequest, out: list[Any]) -> None:
    out.append(_S2.pack(o.replica_id, o.isolation_level))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopic_2(x, out)
    out.append(b'\x00')


def _encode_ListOffsetsRequest_4(o: ListOffsetsRequest, out: list[Any]) -> None:
    out.append(_S2.pack(o.replica_id, o.isolation_level))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ListOffsetsTopic_2(x, out)
    out.append(_S0.pack(o.timeout_ms))
    out.append(b'\x00')


DECODERS = {1: _decode_ListOffsetsRequest_0, 2: _decode_ListOffsetsRequest_1, 3: _decode_ListOffsetsRequest_1, 4: _decode_ListOffsetsRequest_2, 5: _decode_ListOffsetsRequest_2, 6: _decode_ListOffsetsRequest_3, 7: _decode_ListOffsetsRequest_3, 8: _decode_ListOffsetsRequest_3, 9: _decode_ListOffsetsRequest_3, 10: _decode_ListOffsetsRequest_4, 11: _decode_ListOffsetsRequest_4}
ENCODERS = {1: _encode_ListOffsetsRequest_0, 2: _encode_ListOffsetsRequest_1, 3: _encode_ListOffsetsRequest_1, 4: _encode_ListOffsetsRequest_2, 5: _encode_ListOffsetsRequest_2, 6: _encode_ListOffsetsRequest_3, 7: _encode_ListOffsetsRequest_3, 8: _encode_ListOffsetsRequest_3, 9: _encode_ListOffsetsRequest_3, 10: _encode_ListOffsetsRequest_4, 11: _encode_ListOffsetsRequest_4}
MESSAGE = ListOffsetsRequest
