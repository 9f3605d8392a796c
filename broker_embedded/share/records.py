"""The records of ``__share_group_state`` in Kafka 4.3.1's format (kafka-share-coordinator's
ShareSnapshotKey/Value and ShareUpdateKey/Value JSON specs).

Key: int16 record type (0 snapshot, 1 update) + the key at version 0 (not flexible: GroupId as an
int16-length string, TopicId uuid, Partition int32). Value: int16 version 0 + the flexible value
(compact array of StateBatch, tagged field 0 DeliveryCompleteCount when not -1).
"""

from __future__ import annotations

import struct
import uuid

from kafka_wire.errors import CorruptRecordError

from .state import PersisterStateBatch, RecordState, ShareGroupStateKey, ShareSnapshotValue, ShareUpdateValue

SNAPSHOT, UPDATE = 0, 1
_BATCH = struct.Struct(">qqbh")
_SNAPSHOT_HEAD = struct.Struct(">hiiiqqq")
_UPDATE_HEAD = struct.Struct(">hiiq")
_I32 = struct.Struct(">i")


def _uvarint(out: bytearray, v: int) -> None:
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _read_uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    v, shift = 0, 0
    while True:
        if pos >= len(buf) or shift > 28:
            raise CorruptRecordError("bad unsigned varint in a share state record")
        b = buf[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        if b < 0x80:
            return v, pos
        shift += 7


def encode_key(kind: int, key: ShareGroupStateKey) -> bytes:
    group = key.group_id.encode()
    return struct.pack(">hh", kind, len(group)) + group + uuid.UUID(key.topic_id).bytes + _I32.pack(key.partition)


def decode_key(data: bytes) -> tuple[int, ShareGroupStateKey]:
    kind, n = struct.unpack_from(">hh", data, 0)
    if kind not in (SNAPSHOT, UPDATE):
        raise CorruptRecordError(f"unknown share state record type {kind}")
    group = data[4 : 4 + n].decode()
    pos = 4 + n
    topic_id = str(uuid.UUID(bytes=bytes(data[pos : pos + 16])))
    (partition,) = _I32.unpack_from(data, pos + 16)
    return kind, ShareGroupStateKey(group, topic_id, partition)


def _encode_batches(out: bytearray, batches: tuple[PersisterStateBatch, ...]) -> None:
    _uvarint(out, len(batches) + 1)
    for b in batches:
        out += _BATCH.pack(b.first_offset, b.last_offset, int(b.delivery_state), b.delivery_count)
        out.append(0)  # no tagged fields


def _encode_tags(out: bytearray, delivery_complete_count: int) -> None:
    if delivery_complete_count == -1:
        out.append(0)
        return
    out += b"\x01\x00\x04" + _I32.pack(delivery_complete_count)  # one tag: 0, size 4


def encode_value(value: ShareSnapshotValue | ShareUpdateValue) -> bytes:
    out = bytearray()
    if isinstance(value, ShareSnapshotValue):
        out += _SNAPSHOT_HEAD.pack(
            0,
            value.snapshot_epoch,
            value.state_epoch,
            value.leader_epoch,
            value.start_offset,
            value.create_timestamp,
            value.write_timestamp,
        )
    else:
        out += _UPDATE_HEAD.pack(0, value.snapshot_epoch, value.leader_epoch, value.start_offset)
    _encode_batches(out, value.state_batches)
    _encode_tags(out, value.delivery_complete_count)
    return bytes(out)


def _decode_batches(data: bytes, pos: int) -> tuple[tuple[PersisterStateBatch, ...], int]:
    n, pos = _read_uvarint(data, pos)
    out = []
    for _ in range(n - 1):
        first, last, state, count = _BATCH.unpack_from(data, pos)
        pos += _BATCH.size
        tags, pos = _read_uvarint(data, pos)
        for _ in range(tags):
            _tag, pos = _read_uvarint(data, pos)
            size, pos = _read_uvarint(data, pos)
            pos += size
        out.append(PersisterStateBatch(first, last, RecordState(state), count))
    return tuple(out), pos


def _decode_tags(data: bytes, pos: int) -> int:
    complete = -1
    tags, pos = _read_uvarint(data, pos)
    for _ in range(tags):
        tag, pos = _read_uvarint(data, pos)
        size, pos = _read_uvarint(data, pos)
        if tag == 0:
            (complete,) = _I32.unpack_from(data, pos)
        pos += size
    return complete


def decode_value(kind: int, data: bytes) -> ShareSnapshotValue | ShareUpdateValue:
    try:
        if kind == SNAPSHOT:
            _v, snap, state, leader, start, created, written = _SNAPSHOT_HEAD.unpack_from(data, 0)
            batches, pos = _decode_batches(data, _SNAPSHOT_HEAD.size)
            return ShareSnapshotValue(snap, state, leader, start, created, written, batches, _decode_tags(data, pos))
        _v, snap, leader, start = _UPDATE_HEAD.unpack_from(data, 0)
        batches, pos = _decode_batches(data, _UPDATE_HEAD.size)
        return ShareUpdateValue(snap, leader, start, batches, _decode_tags(data, pos))
    except (struct.error, ValueError) as e:
        raise CorruptRecordError(f"bad share state value: {e}") from e
