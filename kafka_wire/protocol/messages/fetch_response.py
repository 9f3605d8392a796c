"""Generated from Kafka's FetchResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'FetchResponse'
API_KEY = 1
VALID_VERSIONS = (4, 18)
FLEXIBLE_VERSIONS = (12, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>ihqq')
_S2 = struct.Struct('>qq')
_S3 = struct.Struct('>ihqqq')
_S4 = struct.Struct('>ihi')
_S5 = struct.Struct('>iq')
_S6 = struct.Struct('>ii')
_S7 = struct.Struct('>qi')
_S8 = struct.Struct('>16s')


class FetchResponse(Struct):
    """FetchResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 1
    VALID_VERSIONS = (4, 18)

    __slots__ = ('throttle_time_ms', 'error_code', 'session_id', 'responses', 'node_endpoints')

    def __init__(self, throttle_time_ms: Any = 0, error_code: Any = 0, session_id: Any = 0, responses: Any = None, node_endpoints: Any = None) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.error_code = error_code
        self.session_id = session_id
        self.responses = [] if responses is None else responses
        self.node_endpoints = [] if node_endpoints is None else node_endpoints


class FetchableTopicResponse(Struct):
    __slots__ = ('topic', 'topic_id', 'partitions')

    def __init__(self, topic: Any = '', topic_id: Any = ZERO_UUID, partitions: Any = None) -> None:
        self.topic = topic
        self.topic_id = topic_id
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'error_code', 'high_watermark', 'last_stable_offset', 'log_start_offset', 'diverging_epoch', 'current_leader', 'snapshot_id', 'aborted_transactions', 'preferred_read_replica', 'records')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, high_watermark: Any = 0, last_stable_offset: Any = -1, log_start_offset: Any = -1, diverging_epoch: Any = None, current_leader: Any = None, snapshot_id: Any = None, aborted_transactions: Any = UNSET, preferred_read_replica: Any = -1, records: Any = None) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.high_watermark = high_watermark
        self.last_stable_offset = last_stable_offset
        self.log_start_offset = log_start_offset
        self.diverging_epoch = EpochEndOffset() if diverging_epoch is None else diverging_epoch
        self.current_leader = LeaderIdAndEpoch() if current_leader is None else current_leader
        self.snapshot_id = SnapshotId() if snapshot_id is None else snapshot_id
        self.aborted_transactions = [] if aborted_transactions is UNSET else aborted_transactions
        self.preferred_read_replica = preferred_read_replica
        self.records = records


class EpochEndOffset(Struct):
    __slots__ = ('epoch', 'end_offset')

    def __init__(self, epoch: Any = -1, end_offset: Any = -1) -> None:
        self.epoch = epoch
        self.end_offset = end_offset


class LeaderIdAndEpoch(Struct):
    __slots__ = ('leader_id', 'leader_epoch')

    def __init__(self, leader_id: Any = -1, leader_epoch: Any = -1) -> None:
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch


class SnapshotId(Struct):
    __slots__ = ('end_offset', 'epoch')

    def __init__(self, end_offset: Any = -1, epoch: Any = -1) -> None:
        self.end_offset = end_offset
        self.epoch = epoch


class AbortedTransaction(Struct):
    __slots__ = ('producer_id', 'first_offset')

    def __init__(self, producer_id: Any = 0, first_offset: Any = 0) -> None:
        self.producer_id = producer_id
        self.first_offset = first_offset


class NodeEndpoint(Struct):
    __slots__ = ('node_id', 'host', 'port', 'rack')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0, rack: Any = None) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack



def _decode_AbortedTransaction_0(buf: Buffer, pos: int) -> tuple[AbortedTransaction, int]:
    o = AbortedTransaction.__new__(AbortedTransaction)
    (o.producer_id, o.first_offset,) = _S2.unpack_from(buf, pos)
    pos += 16
    return o, pos


def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.log_start_offset = -1
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    o.preferred_read_replica = -1
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset,) = _S1.unpack_from(buf, pos)
    pos += 22
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AbortedTransaction_0(buf, pos)
            append(x)
        o.aborted_transactions = items
    o.records, pos = read_records(buf, pos)
    return o, pos


def _decode_FetchableTopicResponse_0(buf: Buffer, pos: int) -> tuple[FetchableTopicResponse, int]:
    o = FetchableTopicResponse.__new__(FetchableTopicResponse)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 30)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchResponse_0(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.error_code = 0
    o.session_id = 0
    o.node_endpoints = []
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_0(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_PartitionData_1(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    o.preferred_read_replica = -1
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _S3.unpack_from(buf, pos)
    pos += 30
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AbortedTransaction_0(buf, pos)
            append(x)
        o.aborted_transactions = items
    o.records, pos = read_records(buf, pos)
    return o, pos


def _decode_FetchableTopicResponse_1(buf: Buffer, pos: int) -> tuple[FetchableTopicResponse, int]:
    o = FetchableTopicResponse.__new__(FetchableTopicResponse)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 38)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchResponse_1(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.error_code = 0
    o.session_id = 0
    o.node_endpoints = []
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_1(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_FetchResponse_2(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code, o.session_id,) = _S4.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_1(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_PartitionData_2(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _S3.unpack_from(buf, pos)
    pos += 30
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        o.aborted_transactions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AbortedTransaction_0(buf, pos)
            append(x)
        o.aborted_transactions = items
    (o.preferred_read_replica,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.records, pos = read_records(buf, pos)
    return o, pos


def _decode_FetchableTopicResponse_2(buf: Buffer, pos: int) -> tuple[FetchableTopicResponse, int]:
    o = FetchableTopicResponse.__new__(FetchableTopicResponse)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_array_len(buf, pos, 42)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_2(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_FetchResponse_3(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code, o.session_id,) = _S4.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_2(buf, pos)
            append(x)
        o.responses = items
    return o, pos


def _decode_AbortedTransaction_1(buf: Buffer, pos: int) -> tuple[AbortedTransaction, int]:
    o = AbortedTransaction.__new__(AbortedTransaction)
    (o.producer_id, o.first_offset,) = _S2.unpack_from(buf, pos)
    pos += 16
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_EpochEndOffset_0(buf: Buffer, pos: int) -> tuple[EpochEndOffset, int]:
    o = EpochEndOffset.__new__(EpochEndOffset)
    (o.epoch, o.end_offset,) = _S5.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_LeaderIdAndEpoch_0(buf: Buffer, pos: int) -> tuple[LeaderIdAndEpoch, int]:
    o = LeaderIdAndEpoch.__new__(LeaderIdAndEpoch)
    (o.leader_id, o.leader_epoch,) = _S6.unpack_from(buf, pos)
    pos += 8
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_SnapshotId_0(buf: Buffer, pos: int) -> tuple[SnapshotId, int]:
    o = SnapshotId.__new__(SnapshotId)
    (o.end_offset, o.epoch,) = _S7.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_3(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.diverging_epoch = EpochEndOffset()
    o.current_leader = LeaderIdAndEpoch()
    o.snapshot_id = SnapshotId()
    (o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset,) = _S3.unpack_from(buf, pos)
    pos += 30
    n, pos = read_compact_array_len(buf, pos, 17)
    if n < 0:
        o.aborted_transactions = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AbortedTransaction_1(buf, pos)
            append(x)
        o.aborted_transactions = items
    (o.preferred_read_replica,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.records, pos = read_compact_records(buf, pos)
    count, pos = read_uvarint(buf, pos)
    for _ in range(count):
        tag, pos = read_uvarint(buf, pos)
        size, pos = read_uvarint(buf, pos)
        end = pos + size
        if tag == 0:
            o.diverging_epoch, pos = _decode_EpochEndOffset_0(buf, pos)
        elif tag == 1:
            o.current_leader, pos = _decode_LeaderIdAndEpoch_0(buf, pos)
        elif tag == 2:
            o.snapshot_id, pos = _decode_SnapshotId_0(buf, pos)
        pos = end
    return o, pos


def _decode_FetchableTopicResponse_3(buf: Buffer, pos: int) -> tuple[FetchableTopicResponse, int]:
    o = FetchableTopicResponse.__new__(FetchableTopicResponse)
    o.topic_id = ZERO_UUID
    o.topic, pos = read_compact_string(buf, pos)
    if o.topic is None:
        null_field('Topic')
    n, pos = read_compact_array_len(buf, pos, 37)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_3(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchResponse_4(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code, o.session_id,) = _S4.unpack_from(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_3(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchableTopicResponse_4(buf: Buffer, pos: int) -> tuple[FetchableTopicResponse, int]:
    o = FetchableTopicResponse.__new__(FetchableTopicResponse)
    o.topic = ''
    (o.topic_id,) = _S8.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 37)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_3(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchResponse_5(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code, o.session_id,) = _S4.unpack_from(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_4(buf, pos)
            append(x)
        o.responses = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_NodeEndpoint_0(buf: Buffer, pos: int) -> tuple[NodeEndpoint, int]:
    o = NodeEndpoint.__new__(NodeEndpoint)
    (o.node_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.rack, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_FetchResponse_6(buf: Buffer, pos: int) -> tuple[FetchResponse, int]:
    o = FetchResponse.__new__(FetchResponse)
    o.node_endpoints = []
    (o.throttle_time_ms, o.error_code, o.session_id,) = _S4.unpack_from(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Responses')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_FetchableTopicResponse_4(buf, pos)
            append(x)
        o.responses = items
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


def _encode_AbortedTransaction_0(o: AbortedTransaction, out: list[Any]) -> None:
    out.append(_S2.pack(o.producer_id, o.first_offset))


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset))
    items = o.aborted_transactions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AbortedTransaction_0(x, out)
    enc_records(out, o.records)


def _encode_FetchableTopicResponse_0(o: FetchableTopicResponse, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)


def _encode_FetchResponse_0(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_0(x, out)


def _encode_PartitionData_1(o: PartitionData, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    items = o.aborted_transactions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AbortedTransaction_0(x, out)
    enc_records(out, o.records)


def _encode_FetchableTopicResponse_1(o: FetchableTopicResponse, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_1(x, out)


def _encode_FetchResponse_1(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_1(x, out)


def _encode_FetchResponse_2(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_1(x, out)


def _encode_PartitionData_2(o: PartitionData, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    items = o.aborted_transactions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AbortedTransaction_0(x, out)
    out.append(_S0.pack(o.preferred_read_replica))
    enc_records(out, o.records)


def _encode_FetchableTopicResponse_2(o: FetchableTopicResponse, out: list[Any]) -> None:
    out.append(enc_string(o.topic))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_2(x, out)


def _encode_FetchResponse_3(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    items = o.responses
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_2(x, out)


def _encode_AbortedTransaction_1(o: AbortedTransaction, out: list[Any]) -> None:
    out.append(_S2.pack(o.producer_id, o.first_offset))
    out.append(b'\x00')


def _encode_EpochEndOffset_0(o: EpochEndOffset, out: list[Any]) -> None:
    out.append(_S5.pack(o.epoch, o.end_offset))
    out.append(b'\x00')


def _encode_LeaderIdAndEpoch_0(o: LeaderIdAndEpoch, out: list[Any]) -> None:
    out.append(_S6.pack(o.leader_id, o.leader_epoch))
    out.append(b'\x00')


def _encode_SnapshotId_0(o: SnapshotId, out: list[Any]) -> None:
    out.append(_S7.pack(o.end_offset, o.epoch))
    out.append(b'\x00')


def _encode_PartitionData_3(o: PartitionData, out: list[Any]) -> None:
    out.append(_S3.pack(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset))
    items = o.aborted_transactions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AbortedTransaction_1(x, out)
    out.append(_S0.pack(o.preferred_read_replica))
    enc_compact_records(out, o.records)
    tagged = []
    if o.diverging_epoch != EpochEndOffset():
        outer, out = out, []
        _encode_EpochEndOffset_0(o.diverging_epoch, out)
        tagged.append((0, out))
        out = outer
    if o.current_leader != LeaderIdAndEpoch():
        outer, out = out, []
        _encode_LeaderIdAndEpoch_0(o.current_leader, out)
        tagged.append((1, out))
        out = outer
    if o.snapshot_id != SnapshotId():
        outer, out = out, []
        _encode_SnapshotId_0(o.snapshot_id, out)
        tagged.append((2, out))
        out = outer
    out.extend(enc_tagged_fields(tagged))


def _encode_FetchableTopicResponse_3(o: FetchableTopicResponse, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_3(x, out)
    out.append(b'\x00')


def _encode_FetchResponse_4(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_3(x, out)
    out.append(b'\x00')


def _encode_FetchableTopicResponse_4(o: FetchableTopicResponse, out: list[Any]) -> None:
    out.append(_S8.pack(o.topic_id))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_3(x, out)
    out.append(b'\x00')


def _encode_FetchResponse_5(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_4(x, out)
    out.append(b'\x00')


def _encode_NodeEndpoint_0(o: NodeEndpoint, out: list[Any]) -> None:
    out.append(_S0.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S0.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_FetchResponse_6(o: FetchResponse, out: list[Any]) -> None:
    out.append(_S4.pack(o.throttle_time_ms, o.error_code, o.session_id))
    items = o.responses
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_FetchableTopicResponse_4(x, out)
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


DECODERS = {4: _decode_FetchResponse_0, 5: _decode_FetchResponse_1, 6: _decode_FetchResponse_1, 7: _decode_FetchResponse_2, 8: _decode_FetchResponse_2, 9: _decode_FetchResponse_2, 10: _decode_FetchResponse_2, 11: _decode_FetchResponse_3, 12: _decode_FetchResponse_4, 13: _decode_FetchResponse_5, 14: _decode_FetchResponse_5, 15: _decode_FetchResponse_5, 16: _decode_FetchResponse_6, 17: _decode_FetchResponse_6, 18: _decode_FetchResponse_6}
ENCODERS = {4: _encode_FetchResponse_0, 5: _encode_FetchResponse_1, 6: _encode_FetchResponse_1, 7: _encode_FetchResponse_2, 8: _encode_FetchResponse_2, 9: _encode_FetchResponse_2, 10: _encode_FetchResponse_2, 11: _encode_FetchResponse_3, 12: _encode_FetchResponse_4, 13: _encode_FetchResponse_5, 14: _encode_FetchResponse_5, 15: _encode_FetchResponse_5, 16: _encode_FetchResponse_6, 17: _encode_FetchResponse_6, 18: _encode_FetchResponse_6}
MESSAGE = FetchResponse
