"""Generated from Kafka's OffsetFetchRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'OffsetFetchRequest'
API_KEY = 9
VALID_VERSIONS = (1, 10)
FLEXIBLE_VERSIONS = (6, 32767)

_S0 = struct.Struct('>?')
_S1 = struct.Struct('>i')
_S2 = struct.Struct('>16s')


class OffsetFetchRequest(Struct):
    """OffsetFetchRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 9
    VALID_VERSIONS = (1, 10)

    __slots__ = ('group_id', 'topics', 'groups', 'require_stable')

    def __init__(self, group_id: Any = '', topics: Any = UNSET, groups: Any = None, require_stable: Any = False) -> None:
        self.group_id = group_id
        self.topics = [] if topics is UNSET else topics
        self.groups = [] if groups is None else groups
        self.require_stable = require_stable


class OffsetFetchRequestTopic(Struct):
    __slots__ = ('name', 'partition_indexes')

    def __init__(self, name: Any = '', partition_indexes: Any = None) -> None:
        self.name = name
        self.partition_indexes = [] if partition_indexes is None else partition_indexes


class OffsetFetchRequestGroup(Struct):
    __slots__ = ('group_id', 'member_id', 'member_epoch', 'topics')

    def __init__(self, group_id: Any = '', member_id: Any = None, member_epoch: Any = -1, topics: Any = UNSET) -> None:
        self.group_id = group_id
        self.member_id = member_id
        self.member_epoch = member_epoch
        self.topics = [] if topics is UNSET else topics


class OffsetFetchRequestTopics(Struct):
    __slots__ = ('name', 'topic_id', 'partition_indexes')

    def __init__(self, name: Any = '', topic_id: Any = ZERO_UUID, partition_indexes: Any = None) -> None:
        self.name = name
        self.topic_id = topic_id
        self.partition_indexes = [] if partition_indexes is None else partition_indexes



def _decode_OffsetFetchRequestTopic_0(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestTopic, int]:
    o = OffsetFetchRequestTopic.__new__(OffsetFetchRequestTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_OffsetFetchRequest_0(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.groups = []
    o.require_stable = False
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetFetchRequest_1(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.groups = []
    o.require_stable = False
    o.group_id, pos = read_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_OffsetFetchRequestTopic_1(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestTopic, int]:
    o = OffsetFetchRequestTopic.__new__(OffsetFetchRequestTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequest_2(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.groups = []
    o.require_stable = False
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequest_3(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.groups = []
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopic_1(buf, pos)
            append(x)
        o.topics = items
    (o.require_stable,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequestTopics_0(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestTopics, int]:
    o = OffsetFetchRequestTopics.__new__(OffsetFetchRequestTopics)
    o.topic_id = ZERO_UUID
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequestGroup_0(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    o = OffsetFetchRequestGroup.__new__(OffsetFetchRequestGroup)
    o.member_id = None
    o.member_epoch = -1
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopics_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequest_4(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestGroup_0(buf, pos)
            append(x)
        o.groups = items
    (o.require_stable,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequestGroup_1(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    o = OffsetFetchRequestGroup.__new__(OffsetFetchRequestGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    (o.member_epoch,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopics_0(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequest_5(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestGroup_1(buf, pos)
            append(x)
        o.groups = items
    (o.require_stable,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequestTopics_1(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestTopics, int]:
    o = OffsetFetchRequestTopics.__new__(OffsetFetchRequestTopics)
    o.name = ''
    (o.topic_id,) = _S2.unpack_from(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('PartitionIndexes')
    else:
        o.partition_indexes = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequestGroup_2(buf: Buffer, pos: int) -> tuple[OffsetFetchRequestGroup, int]:
    o = OffsetFetchRequestGroup.__new__(OffsetFetchRequestGroup)
    o.group_id, pos = read_compact_string(buf, pos)
    if o.group_id is None:
        null_field('GroupId')
    o.member_id, pos = read_compact_string(buf, pos)
    (o.member_epoch,) = _S1.unpack_from(buf, pos)
    pos += 4
    n, pos = read_compact_array_len(buf, pos, 18)
    if n < 0:
        o.topics = None
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestTopics_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_OffsetFetchRequest_6(buf: Buffer, pos: int) -> tuple[OffsetFetchRequest, int]:
    o = OffsetFetchRequest.__new__(OffsetFetchRequest)
    o.group_id = ''
    o.topics = []
    n, pos = read_compact_array_len(buf, pos, 8)
    if n < 0:
        null_field('Groups')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_OffsetFetchRequestGroup_2(buf, pos)
            append(x)
        o.groups = items
    (o.require_stable,) = _S0.unpack_from(buf, pos)
    pos += 1
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_OffsetFetchRequestTopic_0(o: OffsetFetchRequestTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partition_indexes
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_OffsetFetchRequest_0(o: OffsetFetchRequest, out: list[Any]) -> None:
    out.append(enc_string(o.group_id))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopic_0(x, out)


def _encode_OffsetFetchRequestTopic_1(o: OffsetFetchRequestTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_indexes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_OffsetFetchRequest_1(o: OffsetFetchRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopic_1(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchRequest_2(o: OffsetFetchRequest, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopic_1(x, out)
    out.append(_S0.pack(o.require_stable))
    out.append(b'\x00')


def _encode_OffsetFetchRequestTopics_0(o: OffsetFetchRequestTopics, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partition_indexes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_OffsetFetchRequestGroup_0(o: OffsetFetchRequestGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopics_0(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchRequest_3(o: OffsetFetchRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestGroup_0(x, out)
    out.append(_S0.pack(o.require_stable))
    out.append(b'\x00')


def _encode_OffsetFetchRequestGroup_1(o: OffsetFetchRequestGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S1.pack(o.member_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopics_0(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchRequest_4(o: OffsetFetchRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestGroup_1(x, out)
    out.append(_S0.pack(o.require_stable))
    out.append(b'\x00')


def _encode_OffsetFetchRequestTopics_1(o: OffsetFetchRequestTopics, out: list[Any]) -> None:
    out.append(_S2.pack(o.topic_id))
    items = o.partition_indexes
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_OffsetFetchRequestGroup_2(o: OffsetFetchRequestGroup, out: list[Any]) -> None:
    out.append(enc_compact_string(o.group_id))
    out.append(enc_compact_string(o.member_id))
    out.append(_S1.pack(o.member_epoch))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestTopics_1(x, out)
    out.append(b'\x00')


def _encode_OffsetFetchRequest_5(o: OffsetFetchRequest, out: list[Any]) -> None:
    items = o.groups
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_OffsetFetchRequestGroup_2(x, out)
    out.append(_S0.pack(o.require_stable))
    out.append(b'\x00')


DECODERS = {1: _decode_OffsetFetchRequest_0, 2: _decode_OffsetFetchRequest_1, 3: _decode_OffsetFetchRequest_1, 4: _decode_OffsetFetchRequest_1, 5: _decode_OffsetFetchRequest_1, 6: _decode_OffsetFetchRequest_2, 7: _decode_OffsetFetchRequest_3, 8: _decode_OffsetFetchRequest_4, 9: _decode_OffsetFetchRequest_5, 10: _decode_OffsetFetchRequest_6}
ENCODERS = {1: _encode_OffsetFetchRequest_0, 2: _encode_OffsetFetchRequest_0, 3: _encode_OffsetFetchRequest_0, 4: _encode_OffsetFetchRequest_0, 5: _encode_OffsetFetchRequest_0, 6: _encode_OffsetFetchRequest_1, 7: _encode_OffsetFetchRequest_2, 8: _encode_OffsetFetchRequest_3, 9: _encode_OffsetFetchRequest_4, 10: _encode_OffsetFetchRequest_5}
MESSAGE = OffsetFetchRequest
