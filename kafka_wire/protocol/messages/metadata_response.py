"""Generated from Kafka's MetadataResponse.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'MetadataResponse'
API_KEY = 3
VALID_VERSIONS = (0, 13)
FLEXIBLE_VERSIONS = (9, 32767)

_S0 = struct.Struct('>i')
_S1 = struct.Struct('>h')
_S2 = struct.Struct('>hii')
_S3 = struct.Struct('>?')
_S4 = struct.Struct('>hiii')
_S5 = struct.Struct('>16s?')


class MetadataResponse(Struct):
    """MetadataResponse (generated from Kafka's JSON message spec)."""

    API_KEY = 3
    VALID_VERSIONS = (0, 13)

    __slots__ = ('throttle_time_ms', 'brokers', 'cluster_id', 'controller_id', 'topics', 'cluster_authorized_operations', 'error_code')

    def __init__(self, throttle_time_ms: Any = 0, brokers: Any = None, cluster_id: Any = None, controller_id: Any = -1, topics: Any = None, cluster_authorized_operations: Any = -2147483648, error_code: Any = 0) -> None:
        self.throttle_time_ms = throttle_time_ms
        self.brokers = [] if brokers is None else brokers
        self.cluster_id = cluster_id
        self.controller_id = controller_id
        self.topics = [] if topics is None else topics
        self.cluster_authorized_operations = cluster_authorized_operations
        self.error_code = error_code


class MetadataResponseBroker(Struct):
    __slots__ = ('node_id', 'host', 'port', 'rack')

    def __init__(self, node_id: Any = 0, host: Any = '', port: Any = 0, rack: Any = None) -> None:
        self.node_id = node_id
        self.host = host
        self.port = port
        self.rack = rack


class MetadataResponseTopic(Struct):
    __slots__ = ('error_code', 'name', 'topic_id', 'is_internal', 'partitions', 'topic_authorized_operations')

    def __init__(self, error_code: Any = 0, name: Any = '', topic_id: Any = ZERO_UUID, is_internal: Any = False, partitions: Any = None, topic_authorized_operations: Any = -2147483648) -> None:
        self.error_code = error_code
        self.name = name
        self.topic_id = topic_id
        self.is_internal = is_internal
        self.partitions = [] if partitions is None else partitions
        self.topic_authorized_operations = topic_authorized_operations


class MetadataResponsePartition(Struct):
    __slots__ = ('error_code', 'partition_index', 'leader_id', 'leader_epoch', 'replica_nodes', 'isr_nodes', 'offline_replicas')

    def __init__(self, error_code: Any = 0, partition_index: Any = 0, leader_id: Any = 0, leader_epoch: Any = -1, replica_nodes: Any = None, isr_nodes: Any = None, offline_replicas: Any = None) -> None:
        self.error_code = error_code
        self.partition_index = partition_index
        self.leader_id = leader_id
        self.leader_epoch = leader_epoch
        self.replica_nodes = [] if replica_nodes is None else replica_nodes
        self.isr_nodes = [] if isr_nodes is None else isr_nodes
        self.offline_replicas = [] if offline_replicas is None else offline_replicas



def _decode_MetadataResponseBroker_0(buf: Buffer, pos: int) -> tuple[MetadataResponseBroker, int]:
    o = MetadataResponseBroker.__new__(MetadataResponseBroker)
    o.rack = None
    (o.node_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_MetadataResponsePartition_0(buf: Buffer, pos: int) -> tuple[MetadataResponsePartition, int]:
    o = MetadataResponsePartition.__new__(MetadataResponsePartition)
    o.leader_epoch = -1
    o.offline_replicas = []
    (o.error_code, o.partition_index, o.leader_id,) = _S2.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('ReplicaNodes')
    else:
        o.replica_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('IsrNodes')
    else:
        o.isr_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_MetadataResponseTopic_0(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    o.is_internal = False
    o.topic_authorized_operations = -2147483648
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_MetadataResponse_0(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.throttle_time_ms = 0
    o.cluster_id = None
    o.controller_id = -1
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    n, pos = read_array_len(buf, pos, 10)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_0(buf, pos)
            append(x)
        o.brokers = items
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponseBroker_1(buf: Buffer, pos: int) -> tuple[MetadataResponseBroker, int]:
    o = MetadataResponseBroker.__new__(MetadataResponseBroker)
    (o.node_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.host, pos = read_string(buf, pos)
    if o.host is None:
        null_field('Host')
    (o.port,) = _S0.unpack_from(buf, pos)
    pos += 4
    o.rack, pos = read_string(buf, pos)
    return o, pos


def _decode_MetadataResponseTopic_1(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    o.topic_authorized_operations = -2147483648
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.is_internal,) = _S3.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_0(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_MetadataResponse_1(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.throttle_time_ms = 0
    o.cluster_id = None
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 9)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponse_2(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.throttle_time_ms = 0
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 9)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponse_3(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 9)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_1(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponsePartition_1(buf: Buffer, pos: int) -> tuple[MetadataResponsePartition, int]:
    o = MetadataResponsePartition.__new__(MetadataResponsePartition)
    o.leader_epoch = -1
    (o.error_code, o.partition_index, o.leader_id,) = _S2.unpack_from(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('ReplicaNodes')
    else:
        o.replica_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('IsrNodes')
    else:
        o.isr_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('OfflineReplicas')
    else:
        o.offline_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_MetadataResponseTopic_2(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    o.topic_authorized_operations = -2147483648
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.is_internal,) = _S3.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 22)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_1(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_MetadataResponse_4(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 9)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_2(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponsePartition_2(buf: Buffer, pos: int) -> tuple[MetadataResponsePartition, int]:
    o = MetadataResponsePartition.__new__(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _S4.unpack_from(buf, pos)
    pos += 14
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('ReplicaNodes')
    else:
        o.replica_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('IsrNodes')
    else:
        o.isr_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('OfflineReplicas')
    else:
        o.offline_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_MetadataResponseTopic_3(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    o.topic_authorized_operations = -2147483648
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.is_internal,) = _S3.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 26)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_2(buf, pos)
            append(x)
        o.partitions = items
    return o, pos


def _decode_MetadataResponse_5(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 9)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_3(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_MetadataResponseTopic_4(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.is_internal,) = _S3.unpack_from(buf, pos)
    pos += 1
    n, pos = read_array_len(buf, pos, 26)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_2(buf, pos)
            append(x)
        o.partitions = items
    (o.topic_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_MetadataResponse_6(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 12)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_1(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 13)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_4(buf, pos)
            append(x)
        o.topics = items
    (o.cluster_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    return o, pos


def _decode_MetadataResponseBroker_2(buf: Buffer, pos: int) -> tuple[MetadataResponseBroker, int]:
    o = MetadataResponseBroker.__new__(MetadataResponseBroker)
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


def _decode_MetadataResponsePartition_3(buf: Buffer, pos: int) -> tuple[MetadataResponsePartition, int]:
    o = MetadataResponsePartition.__new__(MetadataResponsePartition)
    (o.error_code, o.partition_index, o.leader_id, o.leader_epoch,) = _S4.unpack_from(buf, pos)
    pos += 14
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('ReplicaNodes')
    else:
        o.replica_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('IsrNodes')
    else:
        o.isr_nodes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('OfflineReplicas')
    else:
        o.offline_replicas = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponseTopic_5(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    o.topic_id = ZERO_UUID
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.is_internal,) = _S3.unpack_from(buf, pos)
    pos += 1
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_3(buf, pos)
            append(x)
        o.partitions = items
    (o.topic_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponse_7(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_2(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 10)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_5(buf, pos)
            append(x)
        o.topics = items
    (o.cluster_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponseTopic_6(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.topic_id, o.is_internal,) = _S5.unpack_from(buf, pos)
    pos += 17
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_3(buf, pos)
            append(x)
        o.partitions = items
    (o.topic_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponse_8(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_2(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_6(buf, pos)
            append(x)
        o.topics = items
    (o.cluster_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponse_9(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_2(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_6(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponseTopic_7(buf: Buffer, pos: int) -> tuple[MetadataResponseTopic, int]:
    o = MetadataResponseTopic.__new__(MetadataResponseTopic)
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    o.name, pos = read_compact_string(buf, pos)
    (o.topic_id, o.is_internal,) = _S5.unpack_from(buf, pos)
    pos += 17
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        null_field('Partitions')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponsePartition_3(buf, pos)
            append(x)
        o.partitions = items
    (o.topic_authorized_operations,) = _S0.unpack_from(buf, pos)
    pos += 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponse_10(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    o.error_code = 0
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_2(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_7(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_MetadataResponse_11(buf: Buffer, pos: int) -> tuple[MetadataResponse, int]:
    o = MetadataResponse.__new__(MetadataResponse)
    o.cluster_authorized_operations = -2147483648
    (o.throttle_time_ms,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 11)
    if n < 0:
        null_field('Brokers')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseBroker_2(buf, pos)
            append(x)
        o.brokers = items
    o.cluster_id, pos = read_compact_string(buf, pos)
    (o.controller_id,) = _S0.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 26)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_MetadataResponseTopic_7(buf, pos)
            append(x)
        o.topics = items
    (o.error_code,) = _S1.unpack_from(buf, pos)
    pos += 2
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_MetadataResponseBroker_0(o: MetadataResponseBroker, out: list[Any]) -> None:
    out.append(_S0.pack(o.node_id))
    out.append(enc_string(o.host))
    out.append(_S0.pack(o.port))


def _encode_MetadataResponsePartition_0(o: MetadataResponsePartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.error_code, o.partition_index, o.leader_id))
    items = o.replica_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.isr_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_MetadataResponseTopic_0(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_0(x, out)


def _encode_MetadataResponse_0(o: MetadataResponse, out: list[Any]) -> None:
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_0(x, out)
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_0(x, out)


def _encode_MetadataResponseBroker_1(o: MetadataResponseBroker, out: list[Any]) -> None:
    out.append(_S0.pack(o.node_id))
    out.append(enc_string(o.host))
    out.append(_S0.pack(o.port))
    out.append(enc_string(o.rack))


def _encode_MetadataResponseTopic_1(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.name))
    out.append(_S3.pack(o.is_internal))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_0(x, out)


def _encode_MetadataResponse_1(o: MetadataResponse, out: list[Any]) -> None:
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_1(x, out)


def _encode_MetadataResponse_2(o: MetadataResponse, out: list[Any]) -> None:
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(enc_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_1(x, out)


def _encode_MetadataResponse_3(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(enc_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_1(x, out)


def _encode_MetadataResponsePartition_1(o: MetadataResponsePartition, out: list[Any]) -> None:
    out.append(_S2.pack(o.error_code, o.partition_index, o.leader_id))
    items = o.replica_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.isr_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.offline_replicas
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_MetadataResponseTopic_2(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.name))
    out.append(_S3.pack(o.is_internal))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_1(x, out)


def _encode_MetadataResponse_4(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(enc_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_2(x, out)


def _encode_MetadataResponsePartition_2(o: MetadataResponsePartition, out: list[Any]) -> None:
    out.append(_S4.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    items = o.replica_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.isr_nodes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.offline_replicas
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_MetadataResponseTopic_3(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.name))
    out.append(_S3.pack(o.is_internal))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_2(x, out)


def _encode_MetadataResponse_5(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(enc_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_3(x, out)


def _encode_MetadataResponseTopic_4(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_string(o.name))
    out.append(_S3.pack(o.is_internal))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_2(x, out)
    out.append(_S0.pack(o.topic_authorized_operations))


def _encode_MetadataResponse_6(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_1(x, out)
    out.append(enc_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_4(x, out)
    out.append(_S0.pack(o.cluster_authorized_operations))


def _encode_MetadataResponseBroker_2(o: MetadataResponseBroker, out: list[Any]) -> None:
    out.append(_S0.pack(o.node_id))
    out.append(enc_compact_string(o.host))
    out.append(_S0.pack(o.port))
    out.append(enc_compact_string(o.rack))
    out.append(b'\x00')


def _encode_MetadataResponsePartition_3(o: MetadataResponsePartition, out: list[Any]) -> None:
    out.append(_S4.pack(o.error_code, o.partition_index, o.leader_id, o.leader_epoch))
    items = o.replica_nodes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.isr_nodes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    items = o.offline_replicas
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_MetadataResponseTopic_5(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.name))
    out.append(_S3.pack(o.is_internal))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_3(x, out)
    out.append(_S0.pack(o.topic_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataResponse_7(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_2(x, out)
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_5(x, out)
    out.append(_S0.pack(o.cluster_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataResponseTopic_6(o: MetadataResponseTopic, out: list[Any]) -> None:
    out.append(_S1.pack(o.error_code))
    out.append(enc_compact_string(o.name))
    out.append(_S5.pack(o.topic_id, o.is_internal))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponsePartition_3(x, out)
    out.append(_S0.pack(o.topic_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataResponse_8(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_2(x, out)
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_6(x, out)
    out.append(_S0.pack(o.cluster_authorized_operations))
    out.append(b'\x00')


def _encode_MetadataResponse_9(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_2(x, out)
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_6(x, out)
    out.append(b'\x00')


def _encode_MetadataResponse_10(o: MetadataResponse, out: list[Any]) -> None:
    out.append(_S0.pack(o.throttle_time_ms))
    items = o.brokers
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseBroker_2(x, out)
    out.append(enc_compact_string(o.cluster_id))
    out.append(_S0.pack(o.controller_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_MetadataResponseTopic_6(x, out)
    out.append(_S1.pack(o.error_code))
    out.append(b'\x00')


DECODERS = {0: _decode_MetadataResponse_0, 1: _decode_MetadataResponse_1, 2: _decode_MetadataResponse_2, 3: _decode_MetadataResponse_3, 4: _decode_MetadataResponse_3, 5: _decode_MetadataResponse_4, 6: _decode_MetadataResponse_4, 7: _decode_MetadataResponse_5, 8: _decode_MetadataResponse_6, 9: _decode_MetadataResponse_7, 10: _decode_MetadataResponse_8, 11: _decode_MetadataResponse_9, 12: _decode_MetadataResponse_10, 13: _decode_MetadataResponse_11}
ENCODERS = {0: _encode_MetadataResponse_0, 1: _encode_MetadataResponse_1, 2: _encode_MetadataResponse_2, 3: _encode_MetadataResponse_3, 4: _encode_MetadataResponse_3, 5: _encode_MetadataResponse_4, 6: _encode_MetadataResponse_4, 7: _encode_MetadataResponse_5, 8: _encode_MetadataResponse_6, 9: _encode_MetadataResponse_7, 10: _encode_MetadataResponse_8, 11: _encode_MetadataResponse_9, 12: _encode_MetadataResponse_9, 13: _encode_MetadataResponse_10}
MESSAGE = MetadataResponse
