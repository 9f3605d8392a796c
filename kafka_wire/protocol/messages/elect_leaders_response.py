"""Generated from Kafka's ElectLeadersResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ElectLeadersResponse'
API_KEY = 43
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (2, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ih')


class ElectLeadersResponse(Struct):
    """ElectLeadersResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 43
    VALID_VERSIONS = (0, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'replica_election_results')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, replica_election_results: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.replica_election_results = [] if replica_election_results is None else replica_election_results


class ReplicaElectionResult(Struct):
    __slots__ = ('topic', 'partition_result')

    def __init__(self, topic: Any = '', partition_result: Any = None) -> None:
        self.topic = topic
        self.partition_result = [] if partition_result is None else partition_result


class PartitionResult(Struct):
    __slots__ = ('partition_id', 'error_code', 'error_message')

    def __init__(self, partition_id: Any = 0, error_code: Any = 0, error_message: Any = '') -> None:
        self.partition_id = partition_id
        self.error_code = error_code
        self.error_message = error_message



def _decode_PartitionResult_0(buf: Buffer, pos: int) -> tuple[PartitionResult, int]:
    o = PartitionResult.__new__(PartitionResult)
    (o.partition_id, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_string(buf, pos)
    return o, pos


def _decode_ReplicaElectionResult_0(buf: Buffer, pos: int) -> tuple[ReplicaElectionResult, int]:
    o = ReplicaElectionResult.__new__(ReplicaElectionResult)
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('PartitionResult')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionResult_0(buf, pos)
            append(x)
        o.partition_result = items
    return o, pos


def _decode_ElectLeadersResponse_0(buf: Buffer, pos: int) -> tuple[ElectLeadersResponse, int]:
    o = ElectLeadersResponse.__new__(ElectLeadersResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ReplicaElectionResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaElectionResult_0(buf, pos)
            append(x)
        o.replica_election_results = items
    return o, pos


def _decode_ElectLeadersResponse_1(buf: Buffer, pos: int) -> tuple[ElectLeadersResponse, int]:
    o = ElectLeadersResponse.__new__(ElectLeadersResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('ReplicaElectionResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaElectionResult_0(buf, pos)
            append(x)
        o.replica_election_results = items
    return o, pos


def _decode_PartitionResult_1(buf: Buffer, pos: int) -> tuple[PartitionResult, int]:
    o = PartitionResult.__new__(PartitionResult)
    (o.partition_id, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReplicaElectionResult_1(buf: Buffer, pos: int) -> tuple[ReplicaElectionResult, int]:
    o = ReplicaElectionResult.__new__(ReplicaElectionResult)
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('PartitionResult')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionResult_1(buf, pos)
            append(x)
        o.partition_result = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ElectLeadersResponse_2(buf: Buffer, pos: int) -> tuple[ElectLeadersResponse, int]:
    o = ElectLeadersResponse.__new__(ElectLeadersResponse)
    (o.throttle_time_ms, o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('ReplicaElectionResults')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaElectionResult_1(buf, pos)
            append(x)
        o.replica_election_results = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_PartitionResult_0(o: PartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_id, o.error_code))
    out.append(enc_string(o.error_message))


def _encode_ReplicaElectionResult_0(o: ReplicaElectionResult, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partition_result
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResult_0(x, out)


def _encode_ElectLeadersResponse_0(o: ElectLeadersResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.replica_election_results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaElectionResult_0(x, out)


def _encode_ElectLeadersResponse_1(o: ElectLeadersResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.replica_election_results
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaElectionResult_0(x, out)


def _encode_PartitionResult_1(o: PartitionResult, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_id, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_ReplicaElectionResult_1(o: ReplicaElectionResult, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partition_result
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionResult_1(x, out)
    out.append(b'\x00')


def _encode_ElectLeadersResponse_2(o: ElectLeadersResponse, out: list[Any]) -> None:
    out.append(_S1.pack(o.throttle_time_ms, o.error_code))
    items = o.replica_election_results
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaElectionResult_1(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_ElectLeadersResponse_0, 1: _decode_ElectLeadersResponse_1, 2: _decode_ElectLeadersResponse_2}
ENCODERS = {0: _encode_ElectLeadersResponse_0, 1: _encode_ElectLeadersResponse_1, 2: _encode_ElectLeadersResponse_2}
MESSAGE = ElectLeadersResponse
