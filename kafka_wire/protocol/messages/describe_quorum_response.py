"""Generated from Kafka's DescribeQuorumResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'DescribeQuorumResponse'
API_KEY = 55
VALID_VERSIONS = (0, 2)
FLEXIBLE_VERSIONS = (0, 32767)

_S0 = struct.Struct('>h')
_S1 = struct.Struct('>ihiiq')
_S2 = struct.Struct('>iq')
_S3 = struct.Struct('>iqqq')
_S4 = struct.Struct('>ih')
_S5 = struct.Struct('>iiq')
_S6 = struct.Struct('>i16sqqq')
_S7 = struct.Struct('>i')
_S8 = struct.Struct('>H')


class DescribeQuorumResponse(Struct):
    """DescribeQuorumResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 55
    VALID_VERSIONS = (0, 2)

    __slots__ = ('error_code', 'error_message', 'topics', 'nodes')

    def __init__(self, error_code: Any = 0, error_message: Any = '', topics: Any = None, nodes: Any = None) -> None:
        self.error_code = error_code
        self.error_message = error_message
        self.topics = [] if topics is None else topics
        self.nodes = [] if nodes is None else nodes


class TopicData(Struct):
    __slots__ = ('topic_name', 'partitions')

    def __init__(self, topic_name: Any = '', partitions: Any = None) -> None:
        self.topic_name = topic_name
        self.partitions = [] if partitions is None else partitions


class PartitionData(Struct):
    __slots__ = ('partition_index', 'error_code', 'error_message', 'leader_id', 'leader_epoch', 'high_watermark', 'current_voters', 'observers')

    def __init__(self, partition_index: Any = 0, error_code: Any = 0, error_message: Any = '', leader_id: Any = 0, leader_epoch: Any = 0, high_watermark: Any = 0, current_voters: Any = None, observers: Any = None) -> None:
        self.partition_index = partition_index
        self.error_code = error_code
        self.error_message = error_message
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.high_watermark = high_watermark
        self.current_voters = [] if current_voters is None else current_voters
        self.observers = [] if observers is None else observers


class ReplicaState(Struct):
    __slots__ = ('replica_id', 'replica_directory_id', 'log_end_offset', 'last_fetch_timestamp', 'last_caught_up_timestamp')

    def __init__(self, replica_id: Any = 0, replica_directory_id: Any = ZERO_UUID, log_end_offset: Any = 0, last_fetch_timestamp: Any = -1, last_caught_up_timestamp: Any = -1) -> None:
        self.replica_id = replica_id
        self.replica_directory_id = replica_directory_id
        self.log_end_offset = log_end_offset
        self.last_fetch_timestamp = last_fetch_timestamp
        self.last_caught_up_timestamp = last_caught_up_timestamp


class Node(Struct):
    __slots__ = ('node_id', 'listeners')

    def __init__(self, node_id: Any = 0, listeners: Any = None) -> None:
        self.node_id = node_id
        self.listeners = [] if listeners is None else listeners


class Listener(Struct):
    __slots__ = ('name', 'host', 'port')

    def __init__(self, name: Any = '', host: Any = '', port: Any = 0) -> None:
        self.name = name
        self.host = host
        self.port = port



def _decode_ReplicaState_0(buf: Buffer, pos: int) -> tuple[ReplicaState, int]:
    o = ReplicaState.__new__(ReplicaState)
    o.replica_directory_id = ZERO_UUID
    o.last_fetch_timestamp = -1
    o.last_caught_up_timestamp = -1
    (o.replica_id, o.log_end_offset,) = _S2.unpack_from(buf, pos)
    pos += 12
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_0(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.error_message = ''
    (o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark,) = _S1.unpack_from(buf, pos)
    pos += 22
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('CurrentVoters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_0(buf, pos)
            append(x)
        o.current_voters = items
    n, pos = read_compact_array_len(buf, pos, 13)
    if n < 0:
        null_field('Observers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_0(buf, pos)
            append(x)
        o.observers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_0(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 25)
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


def _decode_DescribeQuorumResponse_0(buf: Buffer, pos: int) -> tuple[DescribeQuorumResponse, int]:
    o = DescribeQuorumResponse.__new__(DescribeQuorumResponse)
    o.error_message = ''
    o.nodes = []
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReplicaState_1(buf: Buffer, pos: int) -> tuple[ReplicaState, int]:
    o = ReplicaState.__new__(ReplicaState)
    o.replica_directory_id = ZERO_UUID
    (o.replica_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp,) = _S3.unpack_from(buf, pos)
    pos += 28
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_1(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    o.error_message = ''
    (o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark,) = _S1.unpack_from(buf, pos)
    pos += 22
    n, pos = read_compact_array_len(buf, pos, 29)
    if n < 0:
        null_field('CurrentVoters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_1(buf, pos)
            append(x)
        o.current_voters = items
    n, pos = read_compact_array_len(buf, pos, 29)
    if n < 0:
        null_field('Observers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_1(buf, pos)
            append(x)
        o.observers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_1(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 25)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_1(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeQuorumResponse_1(buf: Buffer, pos: int) -> tuple[DescribeQuorumResponse, int]:
    o = DescribeQuorumResponse.__new__(DescribeQuorumResponse)
    o.error_message = ''
    o.nodes = []
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_ReplicaState_2(buf: Buffer, pos: int) -> tuple[ReplicaState, int]:
    o = ReplicaState.__new__(ReplicaState)
    (o.replica_id, o.replica_directory_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp,) = _S6.unpack_from(buf, pos)
    pos += 44
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_PartitionData_2(buf: Buffer, pos: int) -> tuple[PartitionData, int]:
    o = PartitionData.__new__(PartitionData)
    (o.partition_index, o.error_code,) = _S4.unpack_from(buf, pos)
    pos += 6
    o.error_message, pos = read_compact_string(buf, pos)
    (o.leader_id, o.leader_epoch, o.high_watermark,) = _S5.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 45)
    if n < 0:
        null_field('CurrentVoters')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_2(buf, pos)
            append(x)
        o.current_voters = items
    n, pos = read_compact_array_len(buf, pos, 45)
    if n < 0:
        null_field('Observers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_ReplicaState_2(buf, pos)
            append(x)
        o.observers = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_TopicData_2(buf: Buffer, pos: int) -> tuple[TopicData, int]:
    o = TopicData.__new__(TopicData)
    o.topic_name, pos = read_compact_string(buf, pos)
    if o.topic_name is None:
        null_field('TopicName')
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_PartitionData_2(buf, pos)
            append(x)
        o.partitions = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Listener_0(buf: Buffer, pos: int) -> tuple[Listener, int]:
    o = Listener.__new__(Listener)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.host, pos = read_compact_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S8.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_Node_0(buf: Buffer, pos: int) -> tuple[Node, int]:
    o = Node.__new__(Node)
    (o.node_id,) = _S7.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 5)
    if n < 0:
        null_field('Listeners')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Listener_0(buf, pos)
            append(x)
        o.listeners = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_DescribeQuorumResponse_2(buf: Buffer, pos: int) -> tuple[DescribeQuorumResponse, int]:
    o = DescribeQuorumResponse.__new__(DescribeQuorumResponse)
    (o.error_code,) = _S0.unpack_from(buf, pos)
    pos += 2
    o.error_message, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_TopicData_2(buf, pos)
            append(x)
        o.topics = items
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Nodes')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_Node_0(buf, pos)
            append(x)
        o.nodes = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_ReplicaState_0(o: ReplicaState, out: list[Any]) -> None:
    out.append(_S2.pack(o.replica_id, o.log_end_offset))
    out.append(b'\x00')


def _encode_PartitionData_0(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark))
    items = o.current_voters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_0(x, out)
    items = o.observers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_0(x, out)
    out.append(b'\x00')


def _encode_TopicData_0(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_0(x, out)
    out.append(b'\x00')


def _encode_DescribeQuorumResponse_0(o: DescribeQuorumResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_0(x, out)
    out.append(b'\x00')


def _encode_ReplicaState_1(o: ReplicaState, out: list[Any]) -> None:
    out.append(_S3.pack(o.replica_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp))
    out.append(b'\x00')


def _encode_PartitionData_1(o: PartitionData, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index, o.error_code, o.leader_id, o.leader_epoch, o.high_watermark))
    items = o.current_voters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_1(x, out)
    items = o.observers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_1(x, out)
    out.append(b'\x00')


def _encode_TopicData_1(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_1(x, out)
    out.append(b'\x00')


def _encode_DescribeQuorumResponse_1(o: DescribeQuorumResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_1(x, out)
    out.append(b'\x00')


def _encode_ReplicaState_2(o: ReplicaState, out: list[Any]) -> None:
    out.append(_S6.pack(o.replica_id, o.replica_directory_id, o.log_end_offset, o.last_fetch_timestamp, o.last_caught_up_timestamp))
    out.append(b'\x00')


def _encode_PartitionData_2(o: PartitionData, out: list[Any]) -> None:
    out.append(_S4.pack(o.partition_index, o.error_code))
    out.append(enc_compact_string(o.error_message))
    out.append(_S5.pack(o.leader_id, o.leader_epoch, o.high_watermark))
    items = o.current_voters
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_2(x, out)
    items = o.observers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_ReplicaState_2(x, out)
    out.append(b'\x00')


def _encode_TopicData_2(o: TopicData, out: list[Any]) -> None:
    out.append(enc_compact_string(o.topic_name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_PartitionData_2(x, out)
    out.append(b'\x00')


def _encode_Listener_0(o: Listener, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.host))
    out.append(_S8.pack(o.port))
    out.append(b'\x00')


def _encode_Node_0(o: Node, out: list[Any]) -> None:
    out.append(_S7.pack(o.node_id))
    items = o.listeners
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Listener_0(x, out)
    out.append(b'\x00')


def _encode_DescribeQuorumResponse_2(o: DescribeQuorumResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.error_code))
    out.append(enc_compact_string(o.error_message))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_TopicData_2(x, out)
    items = o.nodes
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_Node_0(x, out)
    out.append(b'\x00')


DECODERS = {0: _decode_DescribeQuorumResponse_0, 1: _decode_DescribeQuorumResponse_1, 2: _decode_DescribeQuorumResponse_2}
ENCODERS = {0: _encode_DescribeQuorumResponse_0, 1: _encode_DescribeQuorumResponse_1, 2: _encode_DescribeQuorumResponse_2}
MESSAGE = DescribeQuorumResponse
