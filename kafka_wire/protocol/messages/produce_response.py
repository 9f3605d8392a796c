"""Generated from Kafka's ProduceResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'ProduceResponse'
API_KEY = 0
VALID_VERSIONS = (3, 13)
FLEXIBLE_VERSIONS = (9, 32767)

_S0 = struct.Struct('>ihqq')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>ihqqq')
_S3 = struct.Struct('>ii')
_S4 = struct.Struct('>16s')


class ProduceResponse(Struct):
    """ProduceResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 0
    VALID_VERSIONS = (3, 13)

    __slots__ = ('responses', 'throttle_time_ms', 'node_endpoints')

    def __init__(self, responses: Any = None, throttle_time_ms: Any = 0, node_endpoints: Any = None) -> None:
        self.responses = [] if responses is None else responses
        self.throttle_time_ms = throttle_time_ms
        self.node_endpoints = [] if node_endpoints is None else node_endpoints


class TopicProduceResponse(Struct):
    __slots__ = ('name', 'topic_id', 'partition_responses')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partition_responses: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_responses = [] if partition_responses is None else partition_responses


class PartitionProduceResponse(Struct):
    __slots__ = ('index', 'error_code', 'base_offset', 'log_append_time_ms', 'log_start_offset', 'record_errors', 'error_message', 'current_leader')

    def __init__(self, index: Any = 0, error_code: Any = 0, base_offset: Any = 0, log_append_time_ms: Any = -1, log_start_offset: Any = -1, record_errors: Any = None, error_message: Any = None, current_leader: Any = None) -> None:
        self.index = index
        self.error_code = error_code
        self.base_offset = base_offset
        self.log_append_time_ms = log_append_time_ms
        self.log_start_offset = log_start_offset
        self.record_errors = [] if record_errors is None else record_errors
        self.error_message = error_message
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader


class BatchIndexAndErrorMessage(Struct):
    __slots__ = ('batch_index', 'batch_index_error_message')

    def __init__(self, batch_index: Any = 0, batch_index_error_message: Any = None) -> None:
        self.batch_index = batch_index
        self.batch_index_error_message = batch_index_error_message


class LeaderIdAndEpoch(Struct):
    __slots__ = ('leader_id', 'leader_epoch')

    def __init__(self, leader_id: Any = -1, leader_epoch: Any = -1) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch


class NodeEndpoint(Struct):
    __slots__ = ('node_id', 'host', 'port', 'rack')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0, rack: Any = None) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack



def _decode_PartitionProduceResponse_0(buf: Buffer, pos: int) -> tuple[PartitionProduceResponse, int]:
    o = PartitionProduceResponse.__new__(PartitionProduceResponse)
    o.log_start_offset = -1
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 22
    return o, pos


def _decode_TopicProduceResponse_0(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 22)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_0(buf, pos)
            append(x)
        o.partition_responses = items
    return o, pos


def _decode_ProduceResponse_0(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_0(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_PartitionProduceResponse_1(buf: Buffer, pos: int) -> tuple[PartitionProduceResponse, int]:
    o = PartitionProduceResponse.__new__(PartitionProduceResponse)
    o.record_errors = []
    o.error_message = None
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _S2.unpack_from(buf, pos)
    pos += 30
    return o, pos


def _decode_TopicProduceResponse_1(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 30)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_1(buf, pos)
            append(x)
        o.partition_responses = items
    return o, pos


def _decode_ProduceResponse_1(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_1(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_BatchIndexAndErrorMessage_0(buf: Buffer, pos: int) -> tuple[BatchIndexAndErrorMessage, int]:
    o = BatchIndexAndErrorMessage.__new__(BatchIndexAndErrorMessage)
    (o.batch_index,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.batch_index_error_message, pos = read_string(buf, pos)
    return o, pos


def _decode_PartitionProduceResponse_2(buf: Buffer, pos: int) -> tuple[PartitionProduceResponse, int]:
    o = PartitionProduceResponse.__new__(PartitionProduceResponse)
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _S2.unpack_from(buf, pos)
    pos += 30
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('RecordErrors')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_BatchIndexAndErrorMessage_0(buf, pos)
            append(x)
        o.record_errors = items
    o.error_message, pos = read_string(buf, pos)
    return o, pos


def _decode_TopicProduceResponse_2(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.topic_id = ZERO_UUID
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 36)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_2(buf, pos)
            append(x)
        o.partition_responses = items
    return o, pos


def _decode_ProduceResponse_2(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_2(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_BatchIndexAndErrorMessage_1(buf: Buffer, pos: int) -> tuple[BatchIndexAndErrorMessage, int]:
    o = BatchIndexAndErrorMessage.__new__(BatchIndexAndErrorMessage)
    (o.batch_index,) = _S1.unpack_from(buf, pos)
    pos += 4
    o.batch_index_error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionProduceResponse_3(buf: Buffer, pos: int) -> tuple[PartitionProduceResponse, int]:
    o = PartitionProduceResponse.__new__(PartitionProduceResponse)
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _S2.unpack_from(buf, pos)
    pos += 30
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('RecordErrors')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_BatchIndexAndErrorMessage_1(buf, pos)
            append(x)
        o.record_errors = items
    o.error_message, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicProduceResponse_3(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_3(buf, pos)
            append(x)
        o.partition_responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ProduceResponse_3(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_3(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaderIdAndEpoch_0(buf: Buffer, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    o = LeaderIdAndEpoch.__new__(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _S3.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionProduceResponse_4(buf: Buffer, pos: int) -> tuple[PartitionProduceResponse, int]:
    o = PartitionProduceResponse.__new__(PartitionProduceResponse)
    o.current_leader = LeaderIdAndEpoch()
    (o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset,) = _S2.unpack_from(buf, pos)
    pos += 30
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('RecordErrors')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_BatchIndexAndErrorMessage_1(buf, pos)
            append(x)
        o.record_errors = items
    o.error_message, pos = read_compact_string(buf, pos)
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.current_leader, pos = _decode_LeaderIdAndEpoch_0(buf, pos)
        pos = end
    return o, pos


def _decode_TopicProduceResponse_4(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_4(buf, pos)
            append(x)
        o.partition_responses = items
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


def _decode_ProduceResponse_4(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_4(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
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
        pos = end
    return o, pos


def _decode_TopicProduceResponse_5(buf: Buffer, pos: int) -> tuple[TopicProduceResponse, int]:
    o = TopicProduceResponse.__new__(TopicProduceResponse)
    o.name = ''
    (o.topic_id,) = _S4.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 33)
    if n < 0:
        null_field('PartitionResponses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionProduceResponse_4(buf, pos)
            append(x)
        o.partition_responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ProduceResponse_5(buf: Buffer, pos: int) -> tuple[ProduceResponse, int]:
    o = ProduceResponse.__new__(ProduceResponse)
    o.node_endpoints = []
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicProduceResponse_5(buf, pos)
            append(x)
        o.responses = items
    (o.throttle_time_ms,) = _S1.unpack_from(buf, pos)
    pos += 4
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
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
        pos = end
    return o, pos


def _encode_PartitionProduceResponse_0(o: PartitionProduceResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms))


def _encode_TopicProduceResponse_0(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partition_responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_0(x, out)


def _encode_ProduceResponse_0(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_0(x, out)
    out.append(_S1.pack(o.throttle_time_ms))


def _encode_PartitionProduceResponse_1(o: PartitionProduceResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))


def _encode_TopicProduceResponse_1(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partition_responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_1(x, out)


def _encode_ProduceResponse_1(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_1(x, out)
    out.append(_S1.pack(o.throttle_time_ms))


def _encode_BatchIndexAndErrorMessage_0(o: BatchIndexAndErrorMessage, out: list[Any]) -> None:
    out.append(_S1.pack(o.batch_index))
    out.append(enc_string(o.batch_index_error_message))


def _encode_PartitionProduceResponse_2(o: PartitionProduceResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    items = o.record_errors
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_BatchIndexAndErrorMessage_0(x, out)
    out.append(enc_string(o.error_message))


def _encode_TopicProduceResponse_2(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partition_responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_2(x, out)


def _encode_ProduceResponse_2(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_2(x, out)
    out.append(_S1.pack(o.throttle_time_ms))


def _encode_BatchIndexAndErrorMessage_1(o: BatchIndexAndErrorMessage, out: list[Any]) -> None:
    out.append(_S1.pack(o.batch_index))
    out.append(enc_compact_string(o.batch_index_error_message))
    out.append(b'\x00')


def _encode_PartitionProduceResponse_3(o: PartitionProduceResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    items = o.record_errors
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_BatchIndexAndErrorMessage_1(x, out)
    out.append(enc_compact_string(o.error_message))
    out.append(b'\x00')


def _encode_TopicProduceResponse_3(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_3(x, out)
    out.append(b'\x00')


def _encode_ProduceResponse_3(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_3(x, out)
    out.append(_S1.pack(o.throttle_time_ms))
    out.append(b'\x00')


def _encode_LeaderIdAndEpoch_0(o: LeaderIdAndEpoch, out: list[Any]) -> None:
    out.append(_S3.pack(o.leader_id, o.leader_epoch))
    out.append(b'\x00')


def _encode_PartitionProduceResponse_4(o: PartitionProduceResponse, out: list[Any]) -> None:
    out.append(_S2.pack(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset))
    items = o.record_errors
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_BatchIndexAndErrorMessage_1(x, out)
    out.append(enc_compact_string(o.error_message))
    tagged = []
    if o.current_leader != LeaderIdAndEpoch():
        outer, out = out, []
        _encode_LeaderIdAndEpoch_0(o.current_leader, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_TopicProduceResponse_4(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_4(x, out)
    out.append(b'\x00')


def _encode_NodeEndpoint_0(o: NodeEndpoint, out: list[Any]) -> None:
    out.append(_S1.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S1.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_ProduceResponse_4(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_4(x, out)
    out.append(_S1.pack(o.throttle_time_ms))
    tagged = []
    if o.node_endpoints:
        outer, out = out, []
        items = o.node_endpoints
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                _encode_NodeEndpoint_0(x, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_TopicProduceResponse_5(o: TopicProduceResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.topic_id))
    items = o.partition_responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionProduceResponse_4(x, out)
    out.append(b'\x00')


def _encode_ProduceResponse_5(o: ProduceResponse, out: list[Any]) -> None:
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicProduceResponse_5(x, out)
    out.append(_S1.pack(o.throttle_time_ms))
    tagged = []
    if o.node_endpoints:
        outer, out = out, []
        items = o.node_endpoints
        out.append(enc_compact_array_len(items))
        if items:
            for x in items:
                _encode_NodeEndpoint_0(x, out)
        tagged.append((0, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


DECODERS = {3: _decode_ProduceResponse_0, 4: _decode_ProduceResponse_0, 5: _decode_ProduceResponse_1, 6: _decode_ProduceResponse_1, 7: _decode_ProduceResponse_1, 8: _decode_ProduceResponse_2, 9: _decode_ProduceResponse_3, 10: _decode_ProduceResponse_4, 11: _decode_ProduceResponse_4, 12: _decode_ProduceResponse_4, 13: _decode_ProduceResponse_5}
ENCODERS = {3: _encode_ProduceResponse_0, 4: _encode_ProduceResponse_0, 5: _encode_ProduceResponse_1, 6: _encode_ProduceResponse_1, 7: _encode_ProduceResponse_1, 8: _encode_ProduceResponse_2, 9: _encode_ProduceResponse_3, 10: _encode_ProduceResponse_4, 11: _encode_ProduceResponse_4, 12: _encode_ProduceResponse_4, 13: _encode_ProduceResponse_5}
MESSAGE = ProduceResponse
