"""The share group records of ``__consumer_offsets`` (KIP-932), in Kafka 4.3.1's layouts.

Kafka's group coordinator keeps a share group's membership as records of types 10-14
(``ShareGroupMemberMetadata``, ``ShareGroupMetadata``, ``ShareGroupTargetAssignmentMetadata``,
``ShareGroupTargetAssignmentMember``, ``ShareGroupCurrentMemberAssignment``; JSON specs in
kafka-group-coordinator-4.3.1.jar): a key is an int16 record type and the non-flexible group id
(and member id), a value an int16 version (0) and the flexible encoding. A null value is a
tombstone. Type 15 (``ShareGroupStatePartitionMetadata``: which share-partitions were initialized
at assignment time) is skipped: share-partition state is initialized on the first fetch here.
"""

from __future__ import annotations

from dataclasses import dataclass

# the share records' []TopicPartitions fields are encoded as the consumer group records' assignments
from broker_embedded.group.consumer_records import (
    Assignment,
    _read_assignment,
    _read_target_assignment_metadata,
    _Reader,
    _write_assignment,
    _write_target_assignment_metadata,
    _Writer,
)

MEMBER_METADATA = 10
GROUP_METADATA = 11
TARGET_ASSIGNMENT_METADATA = 12
TARGET_ASSIGNMENT_MEMBER = 13
CURRENT_MEMBER_ASSIGNMENT = 14
STATE_PARTITION_METADATA = 15
SHARE_RECORD_TYPES = frozenset(range(MEMBER_METADATA, STATE_PARTITION_METADATA + 1))
_MEMBER_KEYED = frozenset({MEMBER_METADATA, TARGET_ASSIGNMENT_MEMBER, CURRENT_MEMBER_ASSIGNMENT})
MEMBER_STATE_STABLE = 0  # Kafka's MemberState.STABLE: a share member has nothing to revoke


@dataclass(frozen=True)
class ShareGroupKey:
    record_type: int
    group_id: str
    member_id: str | None = None


@dataclass(frozen=True)
class ShareGroupMetadataValue:
    epoch: int
    metadata_hash: int = 0


@dataclass(frozen=True)
class ShareMemberMetadataValue:
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: tuple[str, ...]


@dataclass(frozen=True)
class ShareTargetAssignmentMetadataValue:
    assignment_epoch: int
    assignment_timestamp: int = 0


@dataclass(frozen=True)
class ShareTargetAssignmentMemberValue:
    partitions: Assignment


@dataclass(frozen=True)
class ShareCurrentMemberAssignmentValue:
    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: Assignment


ShareGroupValue = (
    ShareGroupMetadataValue
    | ShareMemberMetadataValue
    | ShareTargetAssignmentMetadataValue
    | ShareTargetAssignmentMemberValue
    | ShareCurrentMemberAssignmentValue
)
ShareGroupRecord = tuple[ShareGroupKey, ShareGroupValue | None]


def encode_record(record: ShareGroupRecord) -> tuple[bytes, bytes | None]:
    key, value = record
    k = _Writer()
    k.int16(key.record_type)
    k.string(key.group_id)
    if key.record_type in _MEMBER_KEYED:
        k.string(key.member_id or "")
    if value is None:
        return bytes(k.out), None
    w = _Writer()
    w.int16(0)
    if isinstance(value, ShareGroupMetadataValue):
        w.int32(value.epoch)
        w.int64(value.metadata_hash)
        w.no_tags()
    elif isinstance(value, ShareMemberMetadataValue):
        w.compact_string(value.rack_id)
        w.compact_string(value.client_id)
        w.compact_string(value.client_host)
        w.uvarint(len(value.subscribed_topic_names) + 1)
        for name in value.subscribed_topic_names:
            w.compact_string(name)
        w.no_tags()
    elif isinstance(value, ShareTargetAssignmentMetadataValue):
        _write_target_assignment_metadata(w, value.assignment_epoch, value.assignment_timestamp)
    elif isinstance(value, ShareTargetAssignmentMemberValue):
        _write_assignment(w, value.partitions)
        w.no_tags()
    else:
        w.int32(value.member_epoch)
        w.int32(value.previous_member_epoch)
        w.int8(value.state)
        _write_assignment(w, value.assigned_partitions)
        w.no_tags()
    return bytes(k.out), bytes(w.out)


def decode_record(key: bytes, value: bytes | None) -> ShareGroupRecord | None:
    """A share group record (types 10-14), or None for any other record (type 15 included)."""
    r = _Reader(key)
    record_type = r.int16()
    if record_type not in SHARE_RECORD_TYPES or record_type == STATE_PARTITION_METADATA:
        return None
    group_id = r.string()
    member_id = r.string() if record_type in _MEMBER_KEYED else None
    k = ShareGroupKey(record_type, group_id, member_id)
    if value is None:
        return k, None
    v = _Reader(value)
    v.int16()  # version 0 is the only one
    if record_type == GROUP_METADATA:
        return k, ShareGroupMetadataValue(v.int32(), v.int64())
    if record_type == MEMBER_METADATA:
        rack = v.compact_string()
        client_id = v.compact_string() or ""
        client_host = v.compact_string() or ""
        names = tuple(v.compact_string() or "" for _ in range(v.uvarint() - 1))
        return k, ShareMemberMetadataValue(rack, client_id, client_host, names)
    if record_type == TARGET_ASSIGNMENT_METADATA:
        return k, ShareTargetAssignmentMetadataValue(*_read_target_assignment_metadata(v))
    if record_type == TARGET_ASSIGNMENT_MEMBER:
        return k, ShareTargetAssignmentMemberValue(_read_assignment(v))
    epoch, previous, state = v.int32(), v.int32(), v.int8()
    return k, ShareCurrentMemberAssignmentValue(epoch, previous, state, _read_assignment(v))
