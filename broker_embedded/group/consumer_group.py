"""The consumer group of the new protocol (KIP-848): state, replay, reconciliation. Sans-IO.

Kafka's shape (group-coordinator's ``ConsumerGroup`` and ``CurrentAssignmentBuilder``): the state
changes only in :meth:`ConsumerGroup.replay`, one ``__consumer_offsets`` record at a time; the
operations in ``consumer_heartbeat`` read the state and return the records to write and the
response. Replaying the log therefore rebuilds the same group on load and on a coordinator move.

Three epochs: the **group epoch** grows whenever membership or subscriptions change; the **target
assignment epoch** is the group epoch the target assignment was computed at; each **member epoch**
is the target epoch the member has reconciled to. A member moves to a new target by revoking
first (UNREVOKED_PARTITIONS, its epoch unchanged) and only then receives partitions, each once its
previous owner has released it (UNRELEASED_PARTITIONS): no partition is owned by two members.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from broker_embedded.group.consumer_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    PARTITION_METADATA,
    TARGET_ASSIGNMENT_MEMBER,
    TARGET_ASSIGNMENT_METADATA,
    Assignment,
    AssignmentEpochs,
    ClassicMemberMetadata,
    ConsumerGroupRecord,
    CurrentMemberAssignmentValue,
    GroupMetadataValue,
    MemberMetadataValue,
    TargetAssignmentMemberValue,
    TargetAssignmentMetadataValue,
    TopicMetadata,
)

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2


class MemberState(enum.IntEnum):
    """Kafka's MemberState bytes (as written in CurrentMemberAssignmentValue.State)."""

    STABLE = 0
    UNREVOKED_PARTITIONS = 1
    UNRELEASED_PARTITIONS = 2
    UNKNOWN = 3


class ConsumerGroupState(enum.Enum):
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"
    DEAD = "Dead"


@dataclass
class ConsumerGroupMember:
    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: list[str] = field(default_factory=list)
    subscribed_topic_regex: str | None = None
    rebalance_timeout_ms: int = -1
    server_assignor: str | None = None
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Assignment = field(default_factory=dict)
    pending_revocation: Assignment = field(default_factory=dict)
    # the member epoch each partition above was assigned at (KIP-1251); a partition missing here (a member
    # built before, or from an older record) counts as assigned at the current member epoch
    assignment_epochs: AssignmentEpochs = field(default_factory=dict)
    # set while the member speaks the classic protocol (JoinGroup/SyncGroup/Heartbeat translated)
    classic: ClassicMemberMetadata | None = None

    def metadata_value(self) -> MemberMetadataValue:
        return MemberMetadataValue(
            self.instance_id,
            self.rack_id,
            self.client_id,
            self.client_host,
            list(self.subscribed_topic_names),
            self.subscribed_topic_regex,
            self.rebalance_timeout_ms,
            self.server_assignor,
            self.classic,
        )

    def assignment_value(self) -> CurrentMemberAssignmentValue:
        return CurrentMemberAssignmentValue(
            self.member_epoch,
            self.previous_member_epoch,
            int(self.state),
            self.assigned,
            self.pending_revocation,
            self.current_assignment_epochs(),
        )

    def current_assignment_epochs(self) -> AssignmentEpochs:
        """The assignment epoch of every partition the member holds (assigned or pending revocation)."""
        return {
            (t, p): self.assignment_epochs.get((t, p), self.member_epoch)
            for held in (self.assigned, self.pending_revocation)
            for t, ps in held.items()
            for p in ps
        }

    def partition_assignment_epoch(self, topic_id: bytes, partition: int) -> int | None:
        """Kafka's ConsumerGroupMember.assignmentEpoch / pendingRevocationEpoch: None if not held."""
        if partition in self.assigned.get(topic_id, ()) or partition in self.pending_revocation.get(topic_id, ()):
            return self.assignment_epochs.get((topic_id, partition), self.member_epoch)
        return None


@dataclass
class ConsumerGroup:
    group_id: str
    group_epoch: int = 0
    assignment_epoch: int = 0
    members: dict[str, ConsumerGroupMember] = field(default_factory=dict)
    target: dict[str, Assignment] = field(default_factory=dict)
    # the subscribed topics' metadata the group epoch was computed with: topic id -> metadata
    subscribed_metadata: dict[bytes, TopicMetadata] = field(default_factory=dict)
    deleted: bool = False

    # --- derived views ------------------------------------------------------------------------
    @property
    def state(self) -> ConsumerGroupState:
        if self.deleted:
            return ConsumerGroupState.DEAD
        if not self.members:
            return ConsumerGroupState.EMPTY
        if self.group_epoch > self.assignment_epoch:
            return ConsumerGroupState.ASSIGNING
        for m in self.members.values():
            if m.state != MemberState.STABLE or m.member_epoch != self.assignment_epoch:
                if m.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                    return ConsumerGroupState.RECONCILING
        return ConsumerGroupState.STABLE

    def static_member(self, instance_id: str) -> ConsumerGroupMember | None:
        return next((m for m in self.members.values() if m.instance_id == instance_id), None)

    def owners(self, exclude: str | None = None) -> dict[tuple[bytes, int], str]:
        """Who holds each partition now (assigned, or still to be revoked)."""
        out: dict[tuple[bytes, int], str] = {}
        for m in self.members.values():
            if m.member_id == exclude:
                continue
            for a in (m.assigned, m.pending_revocation):
                for t, ps in a.items():
                    for p in ps:
                        out[(t, p)] = m.member_id
        return out

    # --- replay: the only place the state changes ---------------------------------------------
    def replay(self, record: ConsumerGroupRecord) -> None:
        key, value = record
        t = key.record_type
        if t == GROUP_METADATA:
            if value is None:
                self.deleted = True
            else:
                assert isinstance(value, GroupMetadataValue)
                self.group_epoch = value.epoch
                self.deleted = False
        elif t == PARTITION_METADATA:
            self.subscribed_metadata = (
                # a PARTITION_METADATA record's value is a PartitionMetadataValue
                {} if value is None else {tm.topic_id: tm for tm in value.topics}  # type: ignore[union-attr]
            )
        elif t == TARGET_ASSIGNMENT_METADATA:
            assert value is None or isinstance(value, TargetAssignmentMetadataValue)
            self.assignment_epoch = value.assignment_epoch if value is not None else 0
        elif t == TARGET_ASSIGNMENT_MEMBER:
            member_id = key.member_id or ""
            if value is None:
                self.target.pop(member_id, None)
            else:
                assert isinstance(value, TargetAssignmentMemberValue)
                self.target[member_id] = value.partitions
        elif t == MEMBER_METADATA:
            member_id = key.member_id or ""
            if value is None:
                self.members.pop(member_id, None)
                return
            assert isinstance(value, MemberMetadataValue)
            m = self.members.get(member_id) or ConsumerGroupMember(member_id)
            m.instance_id = value.instance_id
            m.rack_id = value.rack_id
            m.client_id = value.client_id
            m.client_host = value.client_host
            m.subscribed_topic_names = list(value.subscribed_topic_names)
            m.subscribed_topic_regex = value.subscribed_topic_regex
            m.rebalance_timeout_ms = value.rebalance_timeout_ms
            m.server_assignor = value.server_assignor
            m.classic = value.classic
            self.members[member_id] = m
        elif t == CURRENT_MEMBER_ASSIGNMENT:
            member_id = key.member_id or ""
            current = self.members.get(member_id)
            if value is None:
                if current is not None:
                    current.member_epoch, current.previous_member_epoch, current.state = 0, 0, MemberState.STABLE
                    current.assigned, current.pending_revocation = {}, {}
                    current.assignment_epochs = {}
                return
            assert isinstance(value, CurrentMemberAssignmentValue)
            if current is None:
                current = self.members[member_id] = ConsumerGroupMember(member_id)
            m = current
            m.member_epoch = value.member_epoch
            m.previous_member_epoch = value.previous_member_epoch
            m.state = MemberState(value.state) if value.state in MemberState._value2member_map_ else MemberState.UNKNOWN
            m.assigned = dict(value.assigned_partitions)
            m.pending_revocation = dict(value.partitions_pending_revocation)
            m.assignment_epochs = dict(value.assignment_epochs)


# --- reconciliation: Kafka's CurrentAssignmentBuilder, a pure function --------------------------
def _topics(*assignments: Assignment) -> set[bytes]:
    out: set[bytes] = set()
    for a in assignments:
        out.update(a)
    return out


def _overlaps(a: Assignment, b: Assignment) -> bool:
    return any(a.get(t, frozenset()) & ps for t, ps in b.items())


def _compute_next(
    member: ConsumerGroupMember,
    target_epoch: int,
    target: Assignment,
    owners: dict[tuple[bytes, int], str],
) -> ConsumerGroupMember:
    kept: dict[bytes, frozenset[int]] = {}
    revoke: dict[bytes, frozenset[int]] = {}
    assignable: dict[bytes, frozenset[int]] = {}
    unreleased = False
    for t in _topics(member.assigned, target):
        have = member.assigned.get(t, frozenset())
        want = target.get(t, frozenset())
        if have & want:
            kept[t] = have & want
        if have - want:
            revoke[t] = have - want
        new = want - have
        free = frozenset(p for p in new if (t, p) not in owners)
        if free:
            assignable[t] = free
        if new - free:
            unreleased = True
    # a partition kept (or being revoked) keeps the epoch it was assigned at; a new one gets the target's
    held_epochs = member.current_assignment_epochs()
    if revoke:
        # revoke first: the member keeps its epoch until it acknowledges the revocation
        return replace(
            member,
            state=MemberState.UNREVOKED_PARTITIONS,
            assigned=kept,
            pending_revocation=revoke,
            assignment_epochs=held_epochs,
        )
    assigned = dict(kept)
    for t, ps in assignable.items():
        assigned[t] = assigned.get(t, frozenset()) | ps
    epochs = {(t, p): held_epochs[(t, p)] for t, ps in kept.items() for p in ps}
    epochs.update(((t, p), target_epoch) for t, ps in assignable.items() for p in ps)
    return replace(
        member,
        state=MemberState.UNRELEASED_PARTITIONS if unreleased else MemberState.STABLE,
        member_epoch=target_epoch,
        previous_member_epoch=member.member_epoch
        if target_epoch != member.member_epoch
        else member.previous_member_epoch,
        assigned=assigned,
        pending_revocation={},
        assignment_epochs=epochs,
    )


def reconcile(
    member: ConsumerGroupMember,
    target_epoch: int,
    target: Assignment,
    owned: Assignment | None,
    owners: dict[tuple[bytes, int], str],
) -> ConsumerGroupMember:
    """The member's next current assignment. `owned`: the partitions the member reported owning in
    this heartbeat (None: unchanged since its last one); `owners`: who else holds each partition."""
    if member.state == MemberState.STABLE:
        if member.member_epoch != target_epoch:
            return _compute_next(member, target_epoch, target, owners)
        return member
    if member.state == MemberState.UNREVOKED_PARTITIONS:
        if owned is not None and not _overlaps(owned, member.pending_revocation):
            # revocation acknowledged: move on to the target (its epoch may have grown meanwhile)
            return _compute_next(replace(member, pending_revocation={}), target_epoch, target, owners)
        return member
    # UNRELEASED_PARTITIONS (or UNKNOWN): take partitions as their previous owners release them
    return _compute_next(member, target_epoch, target, owners)
