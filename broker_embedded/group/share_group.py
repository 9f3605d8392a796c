"""Share groups (KIP-932) in the group coordinator: membership, epochs and server-side assignment.

Sans-IO: ``ShareGroups.heartbeat`` is Kafka's GroupMetadataManager.shareGroupHeartbeat on a clock
the caller passes. A share group has no revocation step: partitions may be shared by members, so a
member moves to its target assignment at once and its epoch becomes the group epoch. The
assignment is Kafka's "simple" assignor's shape: with fewer members than partitions each partition
has one member; with more members than partitions every member gets one and partitions are shared.

Kept as Kafka keeps it: with ``append`` set (the group coordinator's ``__consumer_offsets`` append),
every change of a group is written as share group records (share_records.py: member metadata,
group epoch, target assignment, current member assignment; tombstones when a member or the group
goes) before the heartbeat is answered, and ``replay_raw`` + ``after_load`` rebuild the groups when
the coordinator loads the partition (a restart, or a coordinator move in a cluster). What is
written is the difference between the group and what the log already holds for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from broker_embedded.group.offsets_topic import partition_for_group
from broker_embedded.group.share_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    MEMBER_STATE_STABLE,
    TARGET_ASSIGNMENT_MEMBER,
    TARGET_ASSIGNMENT_METADATA,
    ShareCurrentMemberAssignmentValue,
    ShareGroupKey,
    ShareGroupMetadataValue,
    ShareGroupRecord,
    ShareMemberMetadataValue,
    ShareTargetAssignmentMemberValue,
    ShareTargetAssignmentMetadataValue,
    decode_record,
    encode_record,
)
from kafka_wire.errors import ErrorCode, KafkaError

DEFAULT_SESSION_TIMEOUT_MS = 45_000  # group.share.session.timeout.ms
DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000  # group.share.heartbeat.interval.ms
DEFAULT_MAX_SIZE = 200  # group.share.max.size
ASSIGNOR_NAME = "simple"

# topic id -> partition indexes
Assignment = dict[bytes, frozenset[int]]
# topic name -> (topic id, partition count), None when the topic does not exist
TopicLookup = Callable[[str], "tuple[bytes, int] | None"]
# the group coordinator's write to the group's __consumer_offsets partition: (key, value or None)
Append = Callable[[str, list[tuple[bytes, bytes | None]]], None]


@dataclass(slots=True)
class ShareMember:
    member_id: str
    member_epoch: int
    subscribed_topic_names: tuple[str, ...]
    rack_id: str | None
    client_id: str
    client_host: str
    session_deadline_ms: int
    assignment: Assignment = field(default_factory=dict)


@dataclass(slots=True)
class ShareGroup:
    group_id: str
    group_epoch: int = 0
    assignment_epoch: int = 0
    members: dict[str, ShareMember] = field(default_factory=dict)
    # the topics' partition counts at the last assignment (a new partition reassigns)
    topics_seen: dict[str, tuple[bytes, int]] = field(default_factory=dict)

    @property
    def state(self) -> str:
        return "Stable" if self.members else "Empty"


@dataclass(frozen=True, slots=True)
class HeartbeatResult:
    member_id: str
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: Assignment | None  # None: unchanged since the member's last heartbeat
    records_written: bool = False  # the group's records changed (a cluster answers once they are replicated)


@dataclass(frozen=True, slots=True)
class _Written:
    """What the log holds for a group: its epochs and, per member, (metadata, target, member epoch)."""

    group_epoch: int
    assignment_epoch: int
    members: dict[str, tuple[ShareMemberMetadataValue, Assignment, int]]


def _written_view(group: ShareGroup) -> _Written:
    return _Written(
        group.group_epoch,
        group.assignment_epoch,
        {
            m.member_id: (
                ShareMemberMetadataValue(m.rack_id, m.client_id, m.client_host, m.subscribed_topic_names),
                dict(m.assignment),
                m.member_epoch,
            )
            for m in group.members.values()
        },
    )


def records_between(group_id: str, before: _Written | None, after: _Written | None) -> list[ShareGroupRecord]:
    """The records that take the log from `before` to `after` (None: no group), in Kafka's order:
    a leaving member's current assignment, target and metadata tombstones; new member metadata;
    the group epoch; targets and the assignment epoch; members' current assignments; a deleted
    group's assignment metadata and group metadata tombstones last."""
    old = before.members if before is not None else {}
    new = after.members if after is not None else {}
    out: list[ShareGroupRecord] = []
    for mid in old.keys() - new.keys():
        out += [
            (ShareGroupKey(CURRENT_MEMBER_ASSIGNMENT, group_id, mid), None),
            (ShareGroupKey(TARGET_ASSIGNMENT_MEMBER, group_id, mid), None),
            (ShareGroupKey(MEMBER_METADATA, group_id, mid), None),
        ]
    if after is None:
        if before is not None:
            out += [
                (ShareGroupKey(TARGET_ASSIGNMENT_METADATA, group_id), None),
                (ShareGroupKey(GROUP_METADATA, group_id), None),
            ]
        return out
    for mid, (meta, _target, _epoch) in new.items():
        if mid not in old or old[mid][0] != meta:
            out.append((ShareGroupKey(MEMBER_METADATA, group_id, mid), meta))
    if before is None or before.group_epoch != after.group_epoch:
        out.append((ShareGroupKey(GROUP_METADATA, group_id), ShareGroupMetadataValue(after.group_epoch)))
    for mid, (_meta, target, _epoch) in new.items():
        if mid not in old or old[mid][1] != target:
            out.append(
                (ShareGroupKey(TARGET_ASSIGNMENT_MEMBER, group_id, mid), ShareTargetAssignmentMemberValue(target))
            )
    if before is None or before.assignment_epoch != after.assignment_epoch:
        out.append(
            (
                ShareGroupKey(TARGET_ASSIGNMENT_METADATA, group_id),
                ShareTargetAssignmentMetadataValue(after.assignment_epoch),
            )
        )
    for mid, (_meta, target, epoch) in new.items():
        if mid not in old or old[mid][2] != epoch:
            previous = old[mid][2] if mid in old else 0
            value = ShareCurrentMemberAssignmentValue(epoch, previous, MEMBER_STATE_STABLE, target)
            out.append((ShareGroupKey(CURRENT_MEMBER_ASSIGNMENT, group_id, mid), value))
    return out


def compute_assignment(members: dict[str, ShareMember], topics: dict[str, tuple[bytes, int]]) -> dict[str, Assignment]:
    """The simple assignor: each partition to a subscriber; members left without one share one."""
    out: dict[str, dict[bytes, set[int]]] = {m: {} for m in members}
    ids = sorted(members)
    by_topic: dict[str, list[str]] = {}
    for mid in ids:
        for t in members[mid].subscribed_topic_names:
            if t in topics:
                by_topic.setdefault(t, []).append(mid)
    turn = 0
    for topic in sorted(by_topic):
        tid, count = topics[topic]
        subscribers = by_topic[topic]
        for p in range(count):
            mid = subscribers[turn % len(subscribers)]
            turn += 1
            out[mid].setdefault(tid, set()).add(p)
    # more members than partitions: a member without a partition shares one of its topics'
    shared = 0
    for mid in ids:
        if out[mid]:
            continue
        subscribed = [t for t in sorted(members[mid].subscribed_topic_names) if t in topics and topics[t][1] > 0]
        if not subscribed:
            continue
        pairs = [(topics[t][0], p) for t in subscribed for p in range(topics[t][1])]
        tid, p = pairs[shared % len(pairs)]
        shared += 1
        out[mid].setdefault(tid, set()).add(p)
    return {m: {t: frozenset(ps) for t, ps in a.items()} for m, a in out.items()}


class ShareGroups:
    """The share groups of one group coordinator."""

    def __init__(
        self,
        topic_lookup: TopicLookup,
        *,
        timeouts: Callable[[str], tuple[int, int]] = lambda _: (
            DEFAULT_SESSION_TIMEOUT_MS,
            DEFAULT_HEARTBEAT_INTERVAL_MS,
        ),
        max_size: int = DEFAULT_MAX_SIZE,
        on_member_removed: Callable[[str, str], None] | None = None,
        other_group_exists: Callable[[str], bool] | None = None,
    ) -> None:
        self.topic_lookup = topic_lookup
        # group id -> (share.session.timeout.ms, share.heartbeat.interval.ms) of that group
        self.timeouts = timeouts
        self.max_size = max_size
        self.on_member_removed = on_member_removed
        self.other_group_exists = other_group_exists
        self.groups: dict[str, ShareGroup] = {}
        self._lock = threading.RLock()
        # set by the broker: where the groups' records go (None: kept in memory only)
        self.append: Append | None = None
        self._written: dict[str, _Written] = {}

    # ---- heartbeat ----------------------------------------------------------------------------

    def heartbeat(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        rack_id: str | None,
        subscribed_topic_names: list[str] | None,
        now_ms: int,
        client_id: str = "",
        client_host: str = "",
    ) -> HeartbeatResult:
        """One ShareGroupHeartbeat; raises KafkaError with Kafka's code for bad input."""
        if not group_id:
            raise KafkaError("GroupId can't be empty.", ErrorCode.INVALID_REQUEST)
        if not member_id:
            raise KafkaError("MemberId can't be empty.", ErrorCode.INVALID_REQUEST)
        if member_epoch < -1:
            raise KafkaError(
                f"MemberEpoch is {member_epoch}, but must be greater than or equal to -1.", ErrorCode.INVALID_REQUEST
            )
        if member_epoch == 0 and not subscribed_topic_names:
            raise KafkaError("SubscribedTopicNames must be set in first request.", ErrorCode.INVALID_REQUEST)
        if subscribed_topic_names is not None and not subscribed_topic_names and member_epoch != -1:
            raise KafkaError("SubscribedTopicNames can't be empty.", ErrorCode.INVALID_REQUEST)
        with self._lock:
            self.expire(now_ms)
            group = self.groups.get(group_id)
            if group is None:
                if self.other_group_exists is not None and self.other_group_exists(group_id):
                    raise KafkaError(f"Group {group_id} is not a share group.", ErrorCode.GROUP_ID_NOT_FOUND)
                if member_epoch != 0:
                    raise KafkaError(f"Group {group_id} not found.", ErrorCode.GROUP_ID_NOT_FOUND)
                group = ShareGroup(group_id)
            if member_epoch == -1:
                if member_id not in group.members:
                    raise KafkaError(
                        f"Member {member_id} is not a member of group {group_id}.", ErrorCode.UNKNOWN_MEMBER_ID
                    )
                self._remove(group, member_id)
                wrote = self._persist(group_id)
                return HeartbeatResult(member_id, -1, self.timeouts(group_id)[1], None, wrote)
            member = group.members.get(member_id)
            if member is None:
                if member_epoch != 0:
                    raise KafkaError(
                        f"Member {member_id} is not a member of group {group_id}.", ErrorCode.UNKNOWN_MEMBER_ID
                    )
                if len(group.members) >= self.max_size:
                    raise KafkaError(
                        f"The share group has reached its maximum capacity of {self.max_size} members.",
                        ErrorCode.GROUP_MAX_SIZE_REACHED,
                    )
                assert subscribed_topic_names is not None
                member = ShareMember(member_id, 0, tuple(subscribed_topic_names), rack_id, client_id, client_host, 0)
                group.members[member_id] = member
                self.groups[group_id] = group
                group.group_epoch += 1
            elif member_epoch not in (0, member.member_epoch):
                # Kafka: a member whose epoch is not its current one is fenced (it rejoins with 0)
                raise KafkaError(
                    f"The share group member has a different epoch ({member_epoch}) than the one known by"
                    f" the group coordinator ({member.member_epoch}).",
                    ErrorCode.FENCED_MEMBER_EPOCH,
                )
            elif subscribed_topic_names is not None and tuple(subscribed_topic_names) != member.subscribed_topic_names:
                member.subscribed_topic_names = tuple(subscribed_topic_names)
                group.group_epoch += 1
            if rack_id is not None:
                member.rack_id = rack_id
            member.session_deadline_ms = now_ms + self.timeouts(group_id)[0]
            self._maybe_reassign(group)
            changed = member_epoch == 0 or member.member_epoch != group.assignment_epoch
            if changed:
                member.member_epoch = group.assignment_epoch
            assignment = dict(member.assignment) if changed else None
            wrote = self._persist(group_id)
            return HeartbeatResult(member_id, member.member_epoch, self.timeouts(group_id)[1], assignment, wrote)

    def _maybe_reassign(self, group: ShareGroup) -> None:
        subscribed = {t for m in group.members.values() for t in m.subscribed_topic_names}
        topics: dict[str, tuple[bytes, int]] = {}
        for name in subscribed:
            found = self.topic_lookup(name)
            if found is not None:
                topics[name] = found
        if topics != group.topics_seen:
            # a subscribed topic was created, deleted or grew: a new epoch, unless one is pending
            if group.assignment_epoch == group.group_epoch:
                group.group_epoch += 1
            group.topics_seen = topics
        if group.assignment_epoch == group.group_epoch:
            return
        target = compute_assignment(group.members, topics)
        for mid, m in group.members.items():
            m.assignment = target.get(mid, {})
        group.assignment_epoch = group.group_epoch

    def _remove(self, group: ShareGroup, member_id: str) -> None:
        del group.members[member_id]
        group.group_epoch += 1
        self._maybe_reassign(group)
        if self.on_member_removed is not None:
            self.on_member_removed(group.group_id, member_id)

    def create_empty(self, group_id: str) -> ShareGroup:
        """An empty share group (AlterShareGroupOffsets of a group that does not exist yet)."""
        with self._lock:
            group = self.groups.setdefault(group_id, ShareGroup(group_id))
            self._persist(group_id)
            return group

    def delete(self, group_id: str) -> None:
        """The group goes (DeleteGroups of an empty share group): tombstones for all it wrote."""
        with self._lock:
            self.groups.pop(group_id, None)
            self._persist(group_id)

    # ---- the log ------------------------------------------------------------------------------

    def _persist(self, group_id: str) -> bool:
        """Write what changed in the group since its last records (under the lock); True if any."""
        if self.append is None:
            return False
        group = self.groups.get(group_id)
        after = _written_view(group) if group is not None else None
        records = records_between(group_id, self._written.get(group_id), after)
        if records:
            self.append(group_id, [encode_record(r) for r in records])
        if after is None:
            self._written.pop(group_id, None)
        else:
            self._written[group_id] = after
        return bool(records)

    def replay_raw(self, key: bytes, value: bytes | None) -> bool:
        """Replay one record read back from __consumer_offsets; False if it is not a share group's."""
        record = decode_record(key, value)
        if record is None:
            return False
        k, v = record
        gid = k.group_id
        with self._lock:
            group = self.groups.get(gid)
            if group is None:
                if v is None:
                    return True
                group = self.groups[gid] = ShareGroup(gid)
            if isinstance(v, ShareGroupMetadataValue):
                group.group_epoch = v.epoch
            elif k.record_type == GROUP_METADATA:  # the group's tombstone
                del self.groups[gid]
            elif isinstance(v, ShareTargetAssignmentMetadataValue):
                group.assignment_epoch = v.assignment_epoch
            elif k.member_id is not None:
                member = group.members.get(k.member_id)
                if k.record_type == MEMBER_METADATA and v is None:
                    group.members.pop(k.member_id, None)
                elif v is not None:
                    if member is None:
                        member = group.members[k.member_id] = ShareMember(k.member_id, 0, (), None, "", "", 0)
                    if isinstance(v, ShareMemberMetadataValue):
                        member.rack_id, member.client_id, member.client_host = v.rack_id, v.client_id, v.client_host
                        member.subscribed_topic_names = v.subscribed_topic_names
                    elif isinstance(v, ShareTargetAssignmentMemberValue):
                        member.assignment = dict(v.partitions)
                    elif isinstance(v, ShareCurrentMemberAssignmentValue):
                        member.member_epoch = v.member_epoch
        return True

    def after_load(self, now_ms: int) -> None:
        """Groups read back: members must heartbeat again within their session timeout; the
        topics' partition counts are taken as the assignment saw them (the next change reassigns)."""
        with self._lock:
            for group in self.groups.values():
                for m in group.members.values():
                    m.session_deadline_ms = now_ms + self.timeouts(group.group_id)[0]
                subscribed = {t for m in group.members.values() for t in m.subscribed_topic_names}
                group.topics_seen = {t: found for t in subscribed if (found := self.topic_lookup(t)) is not None}
                self._written[group.group_id] = _written_view(group)

    def unload(self, partition: int, num_partitions: int) -> None:
        """Another broker coordinates the groups of this __consumer_offsets partition now."""
        with self._lock:
            for gid in [g for g in self.groups if partition_for_group(g, num_partitions) == partition]:
                del self.groups[gid]
                self._written.pop(gid, None)

    # ---- timeouts -----------------------------------------------------------------------------

    def expire(self, now_ms: int) -> list[tuple[str, str]]:
        """Remove members whose session timed out; (group, member) of each."""
        removed: list[tuple[str, str]] = []
        with self._lock:
            for group in list(self.groups.values()):
                expired = [m.member_id for m in group.members.values() if m.session_deadline_ms <= now_ms]
                for mid in expired:
                    self._remove(group, mid)
                    removed.append((group.group_id, mid))
                if expired:
                    self._persist(group.group_id)
        return removed

    # ---- views --------------------------------------------------------------------------------

    def get(self, group_id: str) -> ShareGroup | None:
        with self._lock:
            return self.groups.get(group_id)

    def is_member(self, group_id: str, member_id: str) -> bool:
        with self._lock:
            group = self.groups.get(group_id)
            return group is not None and member_id in group.members
