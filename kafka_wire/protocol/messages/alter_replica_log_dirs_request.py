"""Generated from Kafka's AlterReplicaLogDirsRequest.json by kafka_wire.protocol.generator: do not edit."""

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

NAME = 'AlterReplicaLogDirsRequest'
API_KEY = 34
VALID_VERSIONS = (1, 2)
FLEXIBLE_VERSIONS = (2, 32767)



class AlterReplicaLogDirsRequest(Struct):
    """AlterReplicaLogDirsRequest (generated from Kafka's JSON message spec)."""

    API_KEY = 34
    VALID_VERSIONS = (1, 2)

    __slots__ = ('dirs',)

    def __init__(self, dirs: Any = None) -> None:
        self.dirs = [] if dirs is None else dirs


class AlterReplicaLogDir(Struct):
    __slots__ = ('path', 'topics')

    def __init__(self, path: Any = '', topics: Any = None) -> None:
        self.path = path
        self.topics = [] if topics is None else topics


class AlterReplicaLogDirTopic(Struct):
    __slots__ = ('name', 'partitions')

    def __init__(self, name: Any = '', partitions: Any = None) -> None:
        self.name = name
        self.partitions = [] if partitions is None else partitions



def _decode_AlterReplicaLogDirTopic_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirTopic, int]:
    o = AlterReplicaLogDirTopic.__new__(AlterReplicaLogDirTopic)
    o.name, pos = read_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    return o, pos


def _decode_AlterReplicaLogDir_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDir, int]:
    o = AlterReplicaLogDir.__new__(AlterReplicaLogDir)
    o.path, pos = read_string(buf, pos)
    if o.path is None:
        null_field('Path')
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirTopic_0(buf, pos)
            append(x)
        o.topics = items
    return o, pos


def _decode_AlterReplicaLogDirsRequest_0(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirsRequest, int]:
    o = AlterReplicaLogDirsRequest.__new__(AlterReplicaLogDirsRequest)
    n, pos = read_array_len(buf, pos, 6)
    if n < 0:
        null_field('Dirs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDir_0(buf, pos)
            append(x)
        o.dirs = items
    return o, pos


def _decode_AlterReplicaLogDirTopic_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirTopic, int]:
    o = AlterReplicaLogDirTopic.__new__(AlterReplicaLogDirTopic)
    o.name, pos = read_compact_string(buf, pos)
    if o.name is None:
        null_field('Name')
    n, pos = read_compact_array_len(buf, pos, 4)
    if n < 0:
        null_field('Partitions')
    else:
        o.partitions = list(struct.unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterReplicaLogDir_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDir, int]:
    o = AlterReplicaLogDir.__new__(AlterReplicaLogDir)
    o.path, pos = read_compact_string(buf, pos)
    if o.path is None:
        null_field('Path')
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Topics')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDirTopic_1(buf, pos)
            append(x)
        o.topics = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _decode_AlterReplicaLogDirsRequest_1(buf: Buffer, pos: int) -> tuple[AlterReplicaLogDirsRequest, int]:
    o = AlterReplicaLogDirsRequest.__new__(AlterReplicaLogDirsRequest)
    n, pos = read_compact_array_len(buf, pos, 3)
    if n < 0:
        null_field('Dirs')
    else:
        items = []
        append = items.append
        for _ in range(n):
            x, pos = _decode_AlterReplicaLogDir_1(buf, pos)
            append(x)
        o.dirs = items
    if buf[pos] == 0:
        pos += 1
    else:
        pos = skip_tagged_fields(buf, pos)
    return o, pos


def _encode_AlterReplicaLogDirTopic_0(o: AlterReplicaLogDirTopic, out: list[Any]) -> None:
    out.append(enc_string(o.name))
    items = o.partitions
    out.append(enc_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))


def _encode_AlterReplicaLogDir_0(o: AlterReplicaLogDir, out: list[Any]) -> None:
    out.append(enc_string(o.path))
    items = o.topics
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirTopic_0(x, out)


def _encode_AlterReplicaLogDirsRequest_0(o: AlterReplicaLogDirsRequest, out: list[Any]) -> None:
    items = o.dirs
    out.append(enc_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDir_0(x, out)


def _encode_AlterReplicaLogDirTopic_1(o: AlterReplicaLogDirTopic, out: list[Any]) -> None:
    out.append(enc_compact_string(o.name))
    items = o.partitions
    out.append(enc_compact_array_len(items))
    if items:
        out.append(struct.pack('>%di' % len(items), *items))
    out.append(b'\x00')


def _encode_AlterReplicaLogDir_1(o: AlterReplicaLogDir, out: list[Any]) -> None:
    out.append(enc_compact_string(o.path))
    items = o.topics
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDirTopic_1(x, out)
    out.append(b'\x00')


def _encode_AlterReplicaLogDirsRequest_1(o: AlterReplicaLogDirsRequest, out: list[Any]) -> None:
    items = o.dirs
    out.append(enc_compact_array_len(items))
    if items:
        for x in items:
            _encode_AlterReplicaLogDir_1(x, out)
    out.append(b'\x00')


DECODERS = {1: _decode_AlterReplicaLogDirsRequest_0, 2: _decode_AlterReplicaLogDirsRequest_1}
ENCODERS = {1: _encode_AlterReplicaLogDirsRequest_0, 2: _encode_AlterReplicaLogDirsRequest_1}
MESSAGE = AlterReplicaLogDirsRequest
