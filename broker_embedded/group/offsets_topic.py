"""Records of the internal ``__consumer_offsets`` topic, in Kafka's own key/value schemas.

Key version 0/1: OffsetCommitKey (group, topic, partition); key version 2: GroupMetadataKey
(group). Values: OffsetCommitValue v3 and GroupMetadataValue v3; a null value is a tombstone.
Using Kafka's layout means the topic is readable by Kafka's tooling and compacts by key.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

OFFSETS_TOPIC = "__consumer_offsets"

_h = struct.Struct(">h")
_i = struct.Struct(">i")
_q = struct.Struct(">q")


def partition_for_group(group_id: str, num_partitions: int) -> int:
    """Kafka's placement: abs(String.hashCode(group)) % partitions (Utils.abs masks the sign bit)."""
    h = 0
    for unit in _utf16_units(group_id):
        h = (31 * h + unit) & 0xFFFFFFFF
    return (h & 0x7FFFFFFF) % num_partitions


def _utf16_units(s: str) -> list[int]:
    data = s.encode("utf-16-be")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


class _Writer:
    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def int16(self, v: int) -> None:
        self.parts.append(_h.pack(v))

    def int32(self, v: int) -> None:
        self.parts.append(_i.pack(v))

    def int64(self, v: int) -> None:
        self.parts.append(_q.pack(v))

    def string(self, v: str | None) -> None:
        if v is None:
            self.parts.append(_h.pack(-1))
            return
        data = v.encode()
        self.parts.append(_h.pack(len(data)) + data)

    def bytes_(self, v: bytes | None) -> None:
        if v is None:
            self.parts.append(_i.pack(-1))
            return
        self.parts.append(_i.pack(len(v)) + bytes(v))

    def done(self) -> bytes:
        return b"".join(self.parts)


class _Reader:
    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.pos = 0

    def int16(self) -> int:
        (v,) = _h.unpack_from(self.buf, self.pos)
        self.pos += 2
        return int(v)

    def int32(self) -> int:
        (v,) = _i.unpack_from(self.buf, self.pos)
        self.pos += 4
        return int(v)

    def int64(self) -> int:
        (v,) = _q.unpack_from(self.buf, self.pos)
        self.pos += 8
        return int(v)

    def string(self) -> str | None:
        n = self.int16()
        if n < 0:
            return None
        s = self.buf[self.pos : self.pos + n].decode()
        self.pos += n
        return s

    def bytes_(self) -> bytes | None:
        n = self.int32()
        if n < 0:
            return None
        b = self.buf[self.pos : self.pos + n]
        self.pos += n
        return bytes(b)


@dataclass(frozen=True)
class OffsetKey:
    group: str
    topic: str
    partition: int


@dataclass(frozen=True)
class GroupKey:
    group: str


@dataclass
class OffsetValue:
    offset: int
    leader_epoch: int
    metadata: str
    commit_timestamp: int


@dataclass
class MemberValue:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    subscription: bytes
    assignment: bytes


@dataclass
class GroupValue:
    protocol_type: str
    generation: int
    protocol: str | None
    leader: str | None
    current_state_timestamp: int
    members: list[MemberValue] = field(default_factory=list)


def encode_offset_key(k: OffsetKey) -> bytes:
    w = _Writer()
    w.int16(1)
    w.string(k.group)
    w.string(k.topic)
    w.int32(k.partition)
    return w.done()


def encode_group_key(k: GroupKey) -> bytes:
    w = _Writer()
    w.int16(2)
    w.string(k.group)
    return w.done()


def encode_offset_value(v: OffsetValue) -> bytes:
    w = _Writer()
    w.int16(3)
    w.int64(v.offset)
    w.int32(v.leader_epoch)
    w.string(v.metadata)
    w.int64(v.commit_timestamp)
    return w.done()


def encode_group_value(v: GroupValue) -> bytes:
    w = _Writer()
    w.int16(3)
    w.string(v.protocol_type)
    w.int32(v.generation)
    w.string(v.protocol)
    w.string(v.leader)
    w.int64(v.current_state_timestamp)
    w.int32(len(v.members))
    for m in v.members:
        w.string(m.member_id)
        w.string(m.group_instance_id)
        w.string(m.client_id)
        w.string(m.client_host)
        w.int32(m.rebalance_timeout_ms)
        w.int32(m.session_timeout_ms)
        w.bytes_(m.subscription)
        w.bytes_(m.assignment)
    return w.done()


def decode_key(buf: bytes) -> OffsetKey | GroupKey | None:
    r = _Reader(buf)
    version = r.int16()
    if version in (0, 1):
        return OffsetKey(r.string() or "", r.string() or "", r.int32())
    if version == 2:
        return GroupKey(r.string() or "")
    return None  # a newer record type (e.g. KIP-848): not ours to interpret


def decode_offset_value(buf: bytes) -> OffsetValue:
    r = _Reader(buf)
    version = r.int16()
    offset = r.int64()
    leader_epoch = r.int32() if version >= 3 else -1
    metadata = r.string() or ""
    commit_timestamp = r.int64()
    return OffsetValue(offset, leader_epoch, metadata, commit_timestamp)


def decode_group_value(buf: bytes) -> GroupValue:
    r = _Reader(buf)
    version = r.int16()
    protocol_type = r.string() or ""
    generation = r.int32()
    protocol = r.string()
    leader = r.string()
    ts = r.int64() if version >= 2 else -1
    members = []
    for _ in range(r.int32()):
        member_id = r.string() or ""
        instance = r.string() if version >= 3 else None
        client_id = r.string() or ""
        client_host = r.string() or ""
        rebalance = r.int32() if version >= 1 else 0
        session = r.int32()
        subscription = r.bytes_() or b""
        assignment = r.bytes_() or b""
        members.append(
            MemberValue(member_id, instance, client_id, client_host, rebalance, session, subscription, assignment)
        )
    value = GroupValue(protocol_type, generation, protocol, leader, ts, members)
    if version < 1:
        for m in members:
            m.rebalance_timeout_ms = m.session_timeout_ms
    return value
