"""Generated from Kafka's ShareFetchResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ShareFetchResponse'
API_KEY = 78
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>16s')
_S3 = struct.Struct('>h')
_S4 = struct.Struct('>ii')
_S5 = struct.Struct('>qqh')


class ShareFetchResponse(Struct):
    """ShareFetchResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 78
    VALID_VERSIONS = (1, 2)

    __slots__ = ('throttle_time_ms', 'error_code', 'error_message', 'acquisition_lock_timeout_ms', 'responses', 'node_endpoints')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, error_message: Any = None, acquisition_lock_timeout_ms: Any = 0, responses: Any = None, node_endpoints: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.error_message = error_message
        self.acquisition_lock_timeout_ms = acquisition_lock_timeout_ms
        self.responses = [] if responses is None else responses
        self.node_endpoints = [] if node_endpoints is None else node_endpoints


class ShareFetchableTopicResponse(Struct):
    __slots__ = ('topic_id', 'partitions')

    def __init__(self, topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'acknowledge_error_code', 'acknowledge_error_message', 'current_leader', 'records', 'acquired_records')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, error_message: Any = None, acknowledge_error_code: Any = 0, acknowledge_error_message: Any = None, current_leader: Any = None, records: Any = None, acquired_records: Any = None) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.acknowledge_error_code = acknowledge_error_code
        self.acknowledge_error_message = acknowledge_error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.records = records
        self.acquired_records = [] if acquired_records is None else acquired_records


class LeaderIdAndEpoch(Struct):
    __slots__ = ('leader_id', 'leader_epoch')

    def __init__(self, leader_id: Any = 0, leader_epoch: Any = 0) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch


class AcquiredRecords(Struct):
    __slots__ = ('first_offset', 'last_offset', 'delivery_count')

    def __init__(self, first_offset: Any = 0, last_offset: Any = 0, delivery_count: Any = 0) -> None:
        self.first_offset = first_offset
        self.last_offset = last_offset
        self.delivery_count = delivery_count


class NodeEndpoint(Struct):
    __slots__ = ('node_id', 'host', 'port', 'rack')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0, rack: Any = None) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack



def _decode_LeaderIdAndEpoch_0(buf: Buffer, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    o = LeaderIdAndEpoch.__new__(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _S4.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AcquiredRecords_0(buf: Buffer, pos: int) -> tuple[AcquiredRecords, int]:
    o = AcquiredRecords.__new__(AcquiredRecords)
    (o.first_offset, o.last_offset, o.delivery_count,) = _S5.unpack_from(buf, pos)
    pos += 18
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition_index, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.acknowledge_error_code,) = _S3.unpack_from(buf, pos)
    pos += 2
    o.acknowledge_error_message, pos = read_compact_string(buf, pos)
    o.current_leader, pos = _decode_LeaderIdAndEpoch_0(buf, pos)
    o.records, pos = read_compact_records(buf, pos)
    if o.records is None:
        null_field('Records')
    n, pos = read_compact_array_len(buf, pos, 19)
    if n < 0:
        null_field('AcquiredRecords')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AcquiredRecords_0(buf, pos)
            append(x)
        o.acquired_records = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ShareFetchableTopicResponse_0(buf: Buffer, pos: int) -> tuple[ShareFetchableTopicResponse, int]:
    o = ShareFetchableTopicResponse.__new__(ShareFetchableTopicResponse)
    (o.topic_id,) = _S2.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 22)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_0(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_NodeEndpoint_0(buf: Buffer, pos: int) -> tuple[NodeEndpoint, int]:
    o = NodeEndpoint.__new__(NodeEndpoint)
    (o.node_id,) = _S1.unpack_from(buf, pos)
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


def _decode_ShareFetchResponse_0(buf: Buffer, pos: int) -> tuple[ShareFetchResponse, int]:
    o = ShareFetchResponse.__new__(ShareFetchResponse)
    (o.throttle_time_ms, o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.acquisition_lock_timeout_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ShareFetchableTopicResponse_0(buf, pos)
            append(x)
        o.responses = items
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('NodeEndpoints')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_NodeEndpoint_0(buf, pos)
            append(x)
        o.node_endpoints = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_LeaderIdAndEpoch_0(o: LeaderIdAndEpoch, out: list[Any]) -> None:
    out.append(_S4.pack(o.leader_id, o.leader_epoch))
    out.append(b'\x00')


def _encode_AcquiredRecords_0(o: AcquiredRecords, out: list[Any]) -> None:
    out.append(_S5.pack(o.first_offset, o.last_offset, o.delivery_count))
    out.append(b'\x00')


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S0.pack(o.partition_index, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S3.pack(o.acknowledge_error_code))
    out.append(enc_compact_string(o.acknowledge_error_message))
    _encode_LeaderIdAndEpoch_0(o.current_leader, out)
    enc_compact_records(out, o.records)
    items = o.acquired_records
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AcquiredRecords_0(x, out)
    out.append(b'\x00')


def _encode_ShareFetchableTopicResponse_0(o: ShareFetchableTopicResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_NodeEndpoint_0(o: NodeEndpoint, out: list[Any]) -> None:
    out.append(_S1.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_ShareFetchResponse_0(o: ShareFetchResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S1.pack(o.acquisition_lock_timeout_ms))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ShareFetchableTopicResponse_0(x, out)
    items = o.node_endpoints
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_NodeEndpoint_0(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_ShareFetchResponse_0, 2: _decode_ShareFetchResponse_0}
ENCODERS = {1: _encode_ShareFetchResponse_0, 2: _encode_ShareFetchResponse_0}
MESSAGE = ShareFetchResponse
