"""Share groups (KIP-932) in the group coordinator: membership, epochs and server-side assignment.

Sans-IO: ``ShareGroups.heartbeat`` is Kafka's GroupMetadataManager.shareGroupHeartbeat on a clock
the caller passes. A share group has no revocation step: partitions may be shared by members, so a
member moves to its target assignment at once and its epoch becomes the group epoch. The
assignment is Kafka's "simple" assignor's shape: with fewer members than partitions each partition
has one member; with more members than partitions every member gets one and partitions are shared.

Not kept durably yet (Kafka writes ShareGroupMetadata/Member records to __consumer_offsets): a
restart starts the groups empty and members rejoin with epoch 0 after UNKNOWN_MEMBER_ID.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from kafka_wire.errors import ErrorCode, KafkaError

DEFAULT_SESSION_TIMEOUT_MS = 45_000  # group.share.session.timeout.ms
DEFAULT_HEARTBEAT_INTERVAL_MS = 5_000  # group.share.heartbeat.interval.ms
DEFAULT_MAX_SIZE = 200  # group.share.max.size
ASSIGNOR_NAME = "simple"

# topic id -> partition indexes
Assignment = dict[bytes, frozenset[int]]
# topic name -> (topic id, partition count), None when the topic does not exist
TopicLookup = Callable[[str], "tuple[bytes, int] | None"]


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
                return HeartbeatResult(member_id, -1, self.timeouts(group_id)[1], None)
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
            return HeartbeatResult(member_id, member.member_epoch, self.timeouts(group_id)[1], assignment)

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
            return self.groups.setdefault(group_id, ShareGroup(group_id))

    # ---- timeouts -----------------------------------------------------------------------------

    def expire(self, now_ms: int) -> list[tuple[str, str]]:
        """Remove members whose session timed out; (group, member) of each."""
        removed: list[tuple[str, str]] = []
        with self._lock:
            for group in list(self.groups.values()):
                for mid in [m.member_id for m in group.members.values() if m.session_deadline_ms <= now_ms]:
                    self._remove(group, mid)
                    removed.append((group.group_id, mid))
        return removed

    # ---- views --------------------------------------------------------------------------------

    def get(self, group_id: str) -> ShareGroup | None:
        with self._lock:
            return self.groups.get(group_id)

    def is_member(self, group_id: str, member_id: str) -> bool:
        with self._lock:
            group = self.groups.get(group_id)
            return group is not None and member_id in group.members
