"""The KIP-848 consumer group records of ``__consumer_offsets``, in Kafka's own layouts.

Kafka's group coordinator defines them as JSON specs (``ConsumerGroup*Key``/``*Value``, record
types 3-8): a key is an int16 record type followed by the non-flexible key fields; a value is an
int16 version (0) followed by the flexible encoding (compact strings and arrays, tagged fields).
Writing the same bytes means a log written by Kafka replays here and the other way round. A null
value is a tombstone. Kafka 4.x writes the regex records (type 16) too; here the regexes are
resolved against the topic registry when needed, so type 16 is decoded only to be skipped.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

GROUP_METADATA = 3
PARTITION_METADATA = 4
MEMBER_METADATA = 5
TARGET_ASSIGNMENT_METADATA = 6
TARGET_ASSIGNMENT_MEMBER = 7
CURRENT_MEMBER_ASSIGNMENT = 8
REGULAR_EXPRESSION = 16
CONSUMER_RECORD_TYPES = frozenset(
    {
        GROUP_METADATA,
        PARTITION_METADATA,
        MEMBER_METADATA,
        TARGET_ASSIGNMENT_METADATA,
        TARGET_ASSIGNMENT_MEMBER,
        CURRENT_MEMBER_ASSIGNMENT,
        REGULAR_EXPRESSION,
    }
)

_h = struct.Struct(">h")
_i = struct.Struct(">i")
_q = struct.Struct(">q")

# topic id -> partitions (Kafka's assignments are keyed by topic id)
Assignment = dict[bytes, frozenset[int]]
# (topic id, partition) -> the member epoch at which the partition was assigned to the member (KIP-1251,
# Kafka 4.3): a commit of an older member epoch is taken for partitions assigned at or before it
AssignmentEpochs = dict[tuple[bytes, int], int]


class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()

    def int8(self, v: int) -> None:
        self.out += struct.pack(">b", v)

    def int16(self, v: int) -> None:
        self.out += _h.pack(v)

    def int32(self, v: int) -> None:
        self.out += _i.pack(v)

    def int64(self, v: int) -> None:
        self.out += _q.pack(v)

    def uvarint(self, v: int) -> None:
        while v >= 0x80:
            self.out.append((v & 0x7F) | 0x80)
            v >>= 7
        self.out.append(v)

    def string(self, v: str) -> None:  # non-flexible (keys)
        data = v.encode()
        self.out += _h.pack(len(data)) + data

    def compact_string(self, v: str | None) -> None:
        if v is None:
            self.uvarint(0)
            return
        data = v.encode()
        self.uvarint(len(data) + 1)
        self.out += data

    def compact_bytes(self, v: bytes) -> None:
        self.uvarint(len(v) + 1)
        self.out += v

    def no_tags(self) -> None:
        self.uvarint(0)


class _Reader:
    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.pos = 0

    def _unpack(self, s: struct.Struct) -> int:
        (v,) = s.unpack_from(self.buf, self.pos)
        self.pos += s.size
        return int(v)

    def int8(self) -> int:
        v = struct.unpack_from(">b", self.buf, self.pos)[0]
        self.pos += 1
        return int(v)

    def int16(self) -> int:
        return self._unpack(_h)

    def int32(self) -> int:
        return self._unpack(_i)

    def int64(self) -> int:
        return self._unpack(_q)

    def uvarint(self) -> int:
        shift = value = 0
        while True:
            b = self.buf[self.pos]
            self.pos += 1
            value |= (b & 0x7F) << shift
            if not b & 0x80:
                return value
            shift += 7

    def uuid(self) -> bytes:
        v = bytes(self.buf[self.pos : self.pos + 16])
        self.pos += 16
        return v

    def string(self) -> str:
        n = self.int16()
        v = bytes(self.buf[self.pos : self.pos + n]).decode()
        self.pos += n
        return v

    def compact_string(self) -> str | None:
        n = self.uvarint() - 1
        if n < 0:
            return None
        v = bytes(self.buf[self.pos : self.pos + n]).decode()
        self.pos += n
        return v

    def compact_bytes(self) -> bytes:
        n = self.uvarint() - 1
        v = bytes(self.buf[self.pos : self.pos + max(n, 0)])
        self.pos += max(n, 0)
        return v

    def tags(self) -> dict[int, bytes]:
        out: dict[int, bytes] = {}
        for _ in range(self.uvarint()):
            tag = self.uvarint()
            size = self.uvarint()
            out[tag] = bytes(self.buf[self.pos : self.pos + size])
            self.pos += size
        return out


# --- keys --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ConsumerGroupKey:
    """The key of a consumer group record: its type, the group, and the member (types 5, 7, 8) or
    the regular expression (type 16)."""

    record_type: int
    group_id: str
    member_id: str | None = None


def encode_key(key: ConsumerGroupKey) -> bytes:
    w = _Writer()
    w.int16(key.record_type)
    w.string(key.group_id)
    if key.member_id is not None:
        w.string(key.member_id)
    return bytes(w.out)


def decode_key(buf: bytes) -> ConsumerGroupKey | None:
    """The key of a consumer group record, or None for any other record type."""
    r = _Reader(buf)
    record_type = r.int16()
    if record_type not in CONSUMER_RECORD_TYPES:
        return None
    group_id = r.string()
    member_id = (
        r.string()
        if record_type in (MEMBER_METADATA, TARGET_ASSIGNMENT_MEMBER, CURRENT_MEMBER_ASSIGNMENT, REGULAR_EXPRESSION)
        else None
    )
    return ConsumerGroupKey(record_type, group_id, member_id)


# --- values ------------------------------------------------------------------------------------
@dataclass
class GroupMetadataValue:
    """ConsumerGroupMetadataValue: the group epoch (and Kafka 4.1's metadata hash, tag 0)."""

    epoch: int
    metadata_hash: int = 0


@dataclass
class TopicMetadata:
    topic_id: bytes
    topic_name: str
    num_partitions: int


@dataclass
class PartitionMetadataValue:
    """ConsumerGroupPartitionMetadataValue: the subscribed topics' metadata the assignment used."""

    topics: list[TopicMetadata] = field(default_factory=list)


@dataclass
class MemberMetadataValue:
    """ConsumerGroupMemberMetadataValue: a member's subscription and identity."""

    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    rebalance_timeout_ms: int
    server_assignor: str | None
    # tag 0 ClassicMemberMetadata: set while the member speaks the classic protocol (online migration)
    classic: ClassicMemberMetadata | None = None


@dataclass
class ClassicMemberMetadata:
    session_timeout_ms: int
    protocols: list[tuple[str, bytes]]  # (name, metadata) as sent in its JoinGroup


@dataclass
class TargetAssignmentMetadataValue:
    assignment_epoch: int
    assignment_timestamp: int = 0


@dataclass
class TargetAssignmentMemberValue:
    partitions: Assignment


@dataclass
class CurrentMemberAssignmentValue:
    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: Assignment
    partitions_pending_revocation: Assignment
    # of the partitions above (tagged field 0 of each topic: empty when absent from an older record)
    assignment_epochs: AssignmentEpochs = field(default_factory=dict)


ConsumerGroupValue = (
    GroupMetadataValue
    | PartitionMetadataValue
    | MemberMetadataValue
    | TargetAssignmentMetadataValue
    | TargetAssignmentMemberValue
    | CurrentMemberAssignmentValue
)


def _write_assignment(w: _Writer, assignment: Assignment, epochs: AssignmentEpochs | None = None) -> None:
    w.uvarint(len(assignment) + 1)
    for topic_id in sorted(assignment):
        w.out += topic_id
        parts = sorted(assignment[topic_id])
        w.uvarint(len(parts) + 1)
        for p in parts:
            w.int32(p)
        if epochs and parts and all((topic_id, p) in epochs for p in parts):
            # AssignmentEpochs: tagged field 0, a compact int32 array as long as Partitions
            body = _Writer()
            body.uvarint(len(parts) + 1)
            for p in parts:
                body.int32(epochs[(topic_id, p)])
            w.uvarint(1)
            w.uvarint(0)
            w.uvarint(len(body.out))
            w.out += body.out
        else:
            w.no_tags()


def _write_target_assignment_metadata(w: _Writer, epoch: int, timestamp: int) -> None:
    # AssignmentEpoch, then AssignmentTimestamp as tagged field 0 (KIP-1263, Kafka 4.3) when set; the
    # consumer and share groups' target assignment metadata records share this layout
    w.int32(epoch)
    if timestamp:
        w.uvarint(1)
        w.uvarint(0)
        w.uvarint(8)
        w.int64(timestamp)
    else:
        w.no_tags()


def _read_target_assignment_metadata(r: _Reader) -> tuple[int, int]:
    epoch = r.int32()
    tags = r.tags()
    return epoch, _q.unpack(tags[0])[0] if 0 in tags else 0


def _read_assignment(r: _Reader, epochs: AssignmentEpochs | None = None) -> Assignment:
    """The topics' partitions; their AssignmentEpochs (tag 0, Kafka 4.3) go into `epochs` when given."""
    out: Assignment = {}
    for _ in range(r.uvarint() - 1):
        topic_id = r.uuid()
        parts = [r.int32() for _ in range(max(r.uvarint() - 1, 0))]
        out[topic_id] = frozenset(parts)
        tagged = r.tags()
        if epochs is not None and 0 in tagged:
            t = _Reader(tagged[0])
            values = [t.int32() for _ in range(max(t.uvarint() - 1, 0))]
            if len(values) == len(parts):
                epochs.update(((topic_id, p), e) for p, e in zip(parts, values, strict=True))
    return out


def _uvarint_bytes(v: int) -> bytes:
    w = _Writer()
    w.uvarint(v)
    return bytes(w.out)


def encode_value(value: ConsumerGroupValue) -> bytes:
    w = _Writer()
    w.int16(0)
    if isinstance(value, GroupMetadataValue):
        w.int32(value.epoch)
        if value.metadata_hash:
            w.uvarint(1)
            w.uvarint(0)
            w.uvarint(8)
            w.int64(value.metadata_hash)
        else:
            w.no_tags()
    elif isinstance(value, PartitionMetadataValue):
        w.uvarint(len(value.topics) + 1)
        for t in value.topics:
            w.out += t.topic_id
            w.compact_string(t.topic_name)
            w.int32(t.num_partitions)
            w.uvarint(1)  # PartitionMetadata (racks): not tracked, an empty array
            w.no_tags()
        w.no_tags()
    elif isinstance(value, MemberMetadataValue):
        w.compact_string(value.instance_id)
        w.compact_string(value.rack_id)
        w.compact_string(value.client_id)
        w.compact_string(value.client_host)
        w.uvarint(len(value.subscribed_topic_names) + 1)
        for name in value.subscribed_topic_names:
            w.compact_string(name)
        w.compact_string(value.subscribed_topic_regex)
        w.int32(value.rebalance_timeout_ms)
        w.compact_string(value.server_assignor)
        if value.classic is None:
            w.no_tags()
        else:
            # a nullable struct in a tagged field: presence byte 1, then the struct
            c = _Writer()
            c.int8(1)
            c.int32(value.classic.session_timeout_ms)
            c.uvarint(len(value.classic.protocols) + 1)
            for name, metadata in value.classic.protocols:
                c.compact_string(name)
                c.compact_bytes(metadata)
                c.no_tags()
            c.no_tags()
            w.uvarint(1)
            w.uvarint(0)
            w.uvarint(len(c.out))
            w.out += c.out
    elif isinstance(value, TargetAssignmentMetadataValue):
        _write_target_assignment_metadata(w, value.assignment_epoch, value.assignment_timestamp)
    elif isinstance(value, TargetAssignmentMemberValue):
        _write_assignment(w, value.partitions)
        w.no_tags()
    else:
        w.int32(value.member_epoch)
        w.int32(value.previous_member_epoch)
        w.int8(value.state)
        _write_assignment(w, value.assigned_partitions, value.assignment_epochs)
        _write_assignment(w, value.partitions_pending_revocation, value.assignment_epochs)
        w.no_tags()
    return bytes(w.out)


def decode_value(record_type: int, buf: bytes) -> ConsumerGroupValue | None:
    """The value of a record of `record_type` (None for the regex records, which are skipped)."""
    r = _Reader(buf)
    r.int16()  # version 0 is the only one
    if record_type == GROUP_METADATA:
        epoch = r.int32()
        tags = r.tags()
        return GroupMetadataValue(epoch, _q.unpack(tags[0])[0] if 0 in tags else 0)
    if record_type == PARTITION_METADATA:
        topics = []
        for _ in range(r.uvarint() - 1):
            topic_id = r.uuid()
            name = r.compact_string() or ""
            n = r.int32()
            for _ in range(r.uvarint() - 1):  # per-partition racks
                r.int32()
                for _ in range(r.uvarint() - 1):
                    r.compact_string()
                r.tags()
            r.tags()
            topics.append(TopicMetadata(topic_id, name, n))
        return PartitionMetadataValue(topics)
    if record_type == MEMBER_METADATA:
        instance_id = r.compact_string()
        rack_id = r.compact_string()
        client_id = r.compact_string() or ""
        client_host = r.compact_string() or ""
        names = [r.compact_string() or "" for _ in range(r.uvarint() - 1)]
        regex = r.compact_string()
        rebalance_timeout = r.int32()
        assignor = r.compact_string()
        tags = r.tags()
        classic = None
        if 0 in tags and tags[0][:1] not in (b"", b"\xff"):
            c = _Reader(tags[0])
            c.int8()
            timeout = c.int32()
            protocols = []
            for _ in range(c.uvarint() - 1):
                name = c.compact_string() or ""
                protocols.append((name, c.compact_bytes()))
                c.tags()
            classic = ClassicMemberMetadata(timeout, protocols)
        return MemberMetadataValue(
            instance_id, rack_id, client_id, client_host, names, regex, rebalance_timeout, assignor, classic
        )
    if record_type == TARGET_ASSIGNMENT_METADATA:
        return TargetAssignmentMetadataValue(*_read_target_assignment_metadata(r))
    if record_type == TARGET_ASSIGNMENT_MEMBER:
        return TargetAssignmentMemberValue(_read_assignment(r))
    if record_type == CURRENT_MEMBER_ASSIGNMENT:
        epoch = r.int32()
        previous = r.int32()
        state = r.int8()
        epochs: AssignmentEpochs = {}
        assigned = _read_assignment(r, epochs)
        pending = _read_assignment(r, epochs)
        return CurrentMemberAssignmentValue(epoch, previous, state, assigned, pending, epochs)
    return None


# A record as the coordinator produces and replays it: the key and the value (None: a tombstone).
ConsumerGroupRecord = tuple[ConsumerGroupKey, ConsumerGroupValue | None]


def encode_record(record: ConsumerGroupRecord) -> tuple[bytes, bytes | None]:
    key, value = record
    return encode_key(key), (encode_value(value) if value is not None else None)


def decode_record(key: bytes, value: bytes | None) -> ConsumerGroupRecord | None:
    """A consumer group record, or None for a record that is not one (or a regex record)."""
    k = decode_key(key)
    if k is None or k.record_type == REGULAR_EXPRESSION:
        return None
    return k, (decode_value(k.record_type, value) if value is not None else None)
