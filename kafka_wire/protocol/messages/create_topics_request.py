"""Generated from Kafka's CreateTopicsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'CreateTopicsRequest'
API_KEY = 19
VALID_VERSIONS = (2, 7)
FLEXIBLE_VERSIONS = (5, 32767)

_S0 = struct.Struct('>ih')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>i?')


class CreateTopicsRequest(Struct):
    """CreateTopicsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 19
    VALID_VERSIONS = (2, 7)

    __slots__ = ('topics', 'timeout_ms', 'validate_only')

    def __init__(self, topics: Any = None, timeout_ms: Any = 60000, validate_only: Any = False) -> None:
        self.topics = [] if topics is None else topics
        self.timeout_ms = timeout_ms
        self.validate_only = validate_only


class CreatableTopic(Struct):
    __slots__ = ('name', 'num_partitions', 'replication_factor', 'assignments', 'configs')

    def __init__(self, name: Any = '', num_partitions: Any = 0, replication_factor: Any = 0, assignments: Any = None, configs: Any = None) -> None:
        self.name = name
        self.num_partitions = num_partitions
        self.replication_factor = replication_factor
        self.assignments = [] if assignments is None else assignments
        self.configs = [] if configs is None else configs


class CreatableReplicaAssignment(Struct):
    __slots__ = ('partition_index', 'broker_ids')

    def __init__(self, partition_index: Any = 0, broker_ids: Any = None) -> None:
        self.partition_index = partition_index
        self.broker_ids = [] if broker_ids is None else broker_ids


class CreatableTopicConfig(Struct):
    __slots__ = ('name', 'value')

    def __init__(self, name: Any = '', value: Any = '') -> None:
        self.name = name
        self.value = value



def _decode_CreatableReplicaAssignment_0(buf: Buffer, pos: int) -> tuple[CreatableReplicaAssignment, int]:
    o = CreatableReplicaAssignment.__new__(CreatableReplicaAssignment)
    (o.partition_index,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('BrokerIds')
    else:
        o.broker_ids = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_CreatableTopicConfig_0(buf: Buffer, pos: int) -> tuple[CreatableTopicConfig, int]:
    o = CreatableTopicConfig.__new__(CreatableTopicConfig)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_string(buf, pos)
    return o, pos


def _decode_CreatableTopic_0(buf: Buffer, pos: int) -> tuple[CreatableTopic, int]:
    o = CreatableTopic.__new__(CreatableTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.num_partitions, o.replication_factor,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos, 8)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableReplicaAssignment_0(buf, pos)
            append(x)
        o.assignments = items
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicConfig_0(buf, pos)
            append(x)
        o.configs = items
    return o, pos


def _decode_CreateTopicsRequest_0(buf: Buffer, pos: int) -> tuple[CreateTopicsRequest, int]:
    o = CreateTopicsRequest.__new__(CreateTopicsRequest)
    n, pos = read_array_len(buf, pos, 16)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopic_0(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms, o.validate_only,) = _S2.unpack_from(buf, pos)
    pos += 5
    return o, pos


def _decode_CreatableReplicaAssignment_1(buf: Buffer, pos: int) -> tuple[CreatableReplicaAssignment, int]:
    o = CreatableReplicaAssignment.__new__(CreatableReplicaAssignment)
    (o.partition_index,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('BrokerIds')
    else:
        o.broker_ids = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatableTopicConfig_1(buf: Buffer, pos: int) -> tuple[CreatableTopicConfig, int]:
    o = CreatableTopicConfig.__new__(CreatableTopicConfig)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    o.value, pos = read_compact_string(buf, pos)
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreatableTopic_1(buf: Buffer, pos: int) -> tuple[CreatableTopic, int]:
    o = CreatableTopic.__new__(CreatableTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    (o.num_partitions, o.replication_factor,) = _S0.unpack_from(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos, 6)
    if n < 0:
        null_field('Assignments')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableReplicaAssignment_1(buf, pos)
            append(x)
        o.assignments = items
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Configs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopicConfig_1(buf, pos)
            append(x)
        o.configs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_CreateTopicsRequest_1(buf: Buffer, pos: int) -> tuple[CreateTopicsRequest, int]:
    o = CreateTopicsRequest.__new__(CreateTopicsRequest)
    n, pos = read_compact_array_len(buf, pos, 10)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_CreatableTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.timeout_ms, o.validate_only,) = _S2.unpack_from(buf, pos)
    pos += 5
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_CreatableReplicaAssignment_0(o: CreatableReplicaAssignment, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index))
    items = o.broker_ids
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_CreatableTopicConfig_0(o: CreatableTopicConfig, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(enc_string(o.value))


def _encode_CreatableTopic_0(o: CreatableTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    out.append(_S0.pack(o.num_partitions, o.replication_factor))
    items = o.assignments
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatableReplicaAssignment_0(x, out)
    items = o.configs
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicConfig_0(x, out)


def _encode_CreateTopicsRequest_0(o: CreateTopicsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopic_0(x, out)
    out.append(_S2.pack(o.timeout_ms, o.validate_only))


def _encode_CreatableReplicaAssignment_1(o: CreatableReplicaAssignment, out: list[Any]) -> None:
    out.append(_S1.pack(o.partition_index))
    items = o.broker_ids
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_CreatableTopicConfig_1(o: CreatableTopicConfig, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(enc_compact_string(o.value))
    out.append(b'\x00')


def _encode_CreatableTopic_1(o: CreatableTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    out.append(_S0.pack(o.num_partitions, o.replication_factor))
    items = o.assignments
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableReplicaAssignment_1(x, out)
    items = o.configs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopicConfig_1(x, out)
    out.append(b'\x00')


def _encode_CreateTopicsRequest_1(o: CreateTopicsRequest, out: list[Any]) -> None:
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_CreatableTopic_1(x, out)
    out.append(_S2.pack(o.timeout_ms, o.validate_only))
    out.append(b'\x00')


DECODERS = {2: _decode_CreateTopicsRequest_0, 3: _decode_CreateTopicsRequest_0, 4: _decode_CreateTopicsRequest_0, 5: _decode_CreateTopicsRequest_1, 6: _decode_CreateTopicsRequest_1, 7: _decode_CreateTopicsRequest_1}
ENCODERS = {2: _encode_CreateTopicsRequest_0, 3: _encode_CreateTopicsRequest_0, 4: _encode_CreateTopicsRequest_0, 5: _encode_CreateTopicsRequest_1, 6: _encode_CreateTopicsRequest_1, 7: _encode_CreateTopicsRequest_1}
MESSAGE = CreateTopicsRequest
