"""Online migration between the classic and the consumer group protocol (KIP-848), Kafka 4.3's
``group.consumer.migration.policy`` (bidirectional, upgrade, downgrade, disabled).

* **Upgrade**: the first ConsumerGroupHeartbeat to a non-empty classic group of protocol type
  ``consumer`` converts it (Kafka's ``ConsumerGroup.fromClassicGroup``): every classic member becomes
  a consumer-group member that keeps its last assignment, at the classic generation as its epoch,
  with its subscription read from its JoinGroup metadata; the target assignment is the current one.
  The joining member then bumps the group epoch as any join does.
* **Classic members of a consumer group** keep speaking JoinGroup / SyncGroup / Heartbeat /
  LeaveGroup; the coordinator translates them (Kafka's ``classicGroup*ToConsumerGroup``): a JoinGroup
  is a heartbeat that reconciles the member toward its target (the partitions it reports owning
  acknowledge revocations), answered at once with the member's epoch as generation and no leader; the
  SyncGroup answers the member's current assignment; a Heartbeat answers REBALANCE_IN_PROGRESS while
  the member has to rejoin (group epoch ahead, partitions to revoke, or released partitions to take).
  Revoke-before-assign holds for them as for everyone: no partition is owned twice.

Not done here (see the notes of issue 29): the downgrade (a consumer group whose last consumer-protocol
member leaves stays a consumer group of classic members, which keeps working through the translation),
static classic members replacing each other, and the sync timeout.
"""

from __future__ import annotations

import base64
import os
import time
from typing import TYPE_CHECKING, Any

from broker_embedded.group.consumer_group import ConsumerGroup, ConsumerGroupMember, MemberState, reconcile
from broker_embedded.group.consumer_heartbeat import HeartbeatInput, remove_member
from broker_embedded.group.consumer_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    TARGET_ASSIGNMENT_MEMBER,
    TARGET_ASSIGNMENT_METADATA,
    Assignment,
    ClassicMemberMetadata,
    ConsumerGroupKey,
    ConsumerGroupRecord,
    GroupMetadataValue,
    TargetAssignmentMemberValue,
    TargetAssignmentMetadataValue,
    TopicMetadata,
)
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import consumer_protocol_assignment as cpa
from kafka_wire.protocol.messages import consumer_protocol_subscription as cps
from kafka_wire.protocol.messages import join_group_response as jrs
from kafka_wire.protocol.messages import sync_group_response as srs

if TYPE_CHECKING:
    from broker_embedded.group.consumer_coordinator import ConsumerGroupCoordinator
    from broker_embedded.group.state import GroupMetadata

CONSUMER_PROTOCOL_TYPE = "consumer"
UNKNOWN_MEMBER_ID = ""
POLICIES = ("bidirectional", "upgrade", "downgrade", "disabled")


def upgrade_enabled(policy: str) -> bool:
    return policy in ("bidirectional", "upgrade")


def new_member_id() -> str:
    """Kafka's Uuid.randomUuid().toString(): 16 random bytes, url-safe base64 without padding."""
    return base64.urlsafe_b64encode(os.urandom(16)).rstrip(b"=").decode()


# --- the embedded consumer protocol ------------------------------------------------------------------
def decode_subscription(raw: bytes) -> Any:
    if len(raw) < 2:
        raise KafkaError("malformed consumer protocol subscription", ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
    version = int.from_bytes(raw[:2], "big", signed=True)
    try:
        sub, _ = cps.DECODERS[min(max(version, 0), max(cps.DECODERS))](raw, 2)
    except Exception:
        raise KafkaError("malformed consumer protocol subscription", ErrorCode.INCONSISTENT_GROUP_PROTOCOL) from None
    return sub


def decode_assignment(raw: bytes, topics: dict[str, TopicMetadata]) -> Assignment:
    """A classic member's last assignment, by topic id (topics gone since are dropped)."""
    if len(raw) < 2:
        return {}
    version = int.from_bytes(raw[:2], "big", signed=True)
    msg, _ = cpa.DECODERS[min(max(version, 0), max(cpa.DECODERS))](raw, 2)
    return _by_id(((tp.topic, tp.partitions) for tp in msg.assigned_partitions or []), topics)


def _by_id(pairs: Any, topics: dict[str, TopicMetadata]) -> Assignment:
    out: dict[bytes, frozenset[int]] = {}
    for name, partitions in pairs:
        t = topics.get(name)
        if t is not None and partitions:
            out[t.topic_id] = out.get(t.topic_id, frozenset()) | frozenset(partitions)
    return out


def encode_assignment(assignment: Assignment, topics: dict[str, TopicMetadata], version: int) -> bytes:
    names = {t.topic_id: t.topic_name for t in topics.values()}
    msg = cpa.ConsumerProtocolAssignment(
        assigned_partitions=[
            cpa.TopicPartition(names[tid], sorted(ps)) for tid, ps in sorted(assignment.items()) if tid in names
        ],
        user_data=None,
    )
    version = min(max(version, 0), max(cpa.ENCODERS))
    out: list[bytes] = [version.to_bytes(2, "big", signed=True)]
    cpa.ENCODERS[version](msg, out)
    return b"".join(out)


# --- upgrade: a classic group becomes a consumer group -------------------------------------------------
def upgrade_records(
    classic: GroupMetadata, existing: ConsumerGroup | None, topics: dict[str, TopicMetadata]
) -> list[ConsumerGroupRecord]:
    """The records that create the consumer group of a live classic group (Kafka's
    createConsumerGroupRecords), after tombstones for what an earlier, empty consumer group of the same
    id left behind. Raises KafkaError GROUP_ID_NOT_FOUND when the embedded protocol is malformed."""
    gid = classic.group_id
    generation = classic.generation_id
    records: list[ConsumerGroupRecord] = []
    for member_id in existing.members if existing is not None else {}:
        records += [
            (ConsumerGroupKey(CURRENT_MEMBER_ASSIGNMENT, gid, member_id), None),
            (ConsumerGroupKey(TARGET_ASSIGNMENT_MEMBER, gid, member_id), None),
            (ConsumerGroupKey(MEMBER_METADATA, gid, member_id), None),
        ]
    members: list[ConsumerGroupMember] = []
    try:
        for m in classic.members.values():
            sub = decode_subscription(m.metadata_for(classic.protocol_name or ""))
            members.append(
                ConsumerGroupMember(
                    m.member_id,
                    instance_id=m.group_instance_id,
                    rack_id=sub.rack_id or None,
                    client_id=m.client_id,
                    client_host=m.client_host,
                    subscribed_topic_names=sorted(sub.topics or []),
                    rebalance_timeout_ms=m.rebalance_timeout_ms,
                    member_epoch=generation,
                    previous_member_epoch=generation,
                    state=MemberState.STABLE,
                    assigned=decode_assignment(m.assignment, topics),
                    classic=ClassicMemberMetadata(m.session_timeout_ms, list(m.protocols)),
                )
            )
    except Exception:
        raise KafkaError(
            f"Cannot upgrade the classic group {gid} to consumer group because the embedded consumer protocol "
            "is malformed.",
            ErrorCode.GROUP_ID_NOT_FOUND,
        ) from None
    for member in members:
        records.append((ConsumerGroupKey(MEMBER_METADATA, gid, member.member_id), member.metadata_value()))
    records.append((ConsumerGroupKey(GROUP_METADATA, gid), GroupMetadataValue(generation)))
    for member in members:
        records.append(
            (
                ConsumerGroupKey(TARGET_ASSIGNMENT_MEMBER, gid, member.member_id),
                TargetAssignmentMemberValue(member.assigned),
            )
        )
    records.append((ConsumerGroupKey(TARGET_ASSIGNMENT_METADATA, gid), TargetAssignmentMetadataValue(generation)))
    for member in members:
        records.append((ConsumerGroupKey(CURRENT_MEMBER_ASSIGNMENT, gid, member.member_id), member.assignment_value()))
    return records


# --- classic requests to a consumer group ----------------------------------------------------------------
def _classic_member(group: ConsumerGroup, member_id: str, instance_id: str | None) -> ConsumerGroupMember:
    if instance_id is not None:
        member = group.static_member(instance_id)
        if member is None:
            raise KafkaError(
                f"Member with instance id {instance_id} is not a member of group {group.group_id}.",
                ErrorCode.UNKNOWN_MEMBER_ID,
            )
        if member.member_id != member_id:
            raise KafkaError(
                f"Static member {member_id} with instance id {instance_id} is fenced.", ErrorCode.FENCED_INSTANCE_ID
            )
    else:
        found = group.members.get(member_id)
        if found is None:
            raise KafkaError(
                f"Member {member_id} is not a member of group {group.group_id}.", ErrorCode.UNKNOWN_MEMBER_ID
            )
        member = found
    if member.classic is None:
        raise KafkaError(f"Member {member.member_id} does not use the classic protocol.", ErrorCode.UNKNOWN_MEMBER_ID)
    return member


def _check_generation(member: ConsumerGroupMember, generation_id: int) -> None:
    if member.member_epoch != generation_id:
        raise KafkaError(
            f"The request generation id {generation_id} is not equal to the member epoch {member.member_epoch} "
            f"of member {member.member_id}.",
            ErrorCode.ILLEGAL_GENERATION,
        )


def _supports(group: ConsumerGroup, protocol_type: str, names: set[str]) -> bool:
    if protocol_type != CONSUMER_PROTOCOL_TYPE or not names:
        return False
    for m in group.members.values():
        if m.classic is not None and not names & {n for n, _ in m.classic.protocols}:
            return False
    return True


def classic_join(
    cc: ConsumerGroupCoordinator, req: Any, version: int, client_id: str, client_host: str
) -> jrs.JoinGroupResponse:
    """A JoinGroup to a non-empty consumer group (Kafka's classicGroupJoinToConsumerGroup)."""
    group = cc.groups[req.group_id]
    member_id = req.member_id
    unknown = member_id == UNKNOWN_MEMBER_ID
    if unknown:
        member_id = new_member_id()
    protocols = [(p.name, bytes(p.metadata)) for p in req.protocols]

    def error(code: ErrorCode, mid: str = req.member_id) -> jrs.JoinGroupResponse:
        return jrs.JoinGroupResponse(error_code=code, generation_id=-1, member_id=mid, members=[])

    low, high = cc._cfg("group.min.session.timeout.ms", 6000), cc._cfg("group.max.session.timeout.ms", 1800000)
    if not int(low) <= req.session_timeout_ms <= int(high):
        return error(ErrorCode.INVALID_SESSION_TIMEOUT)
    if not _supports(group, req.protocol_type, {n for n, _ in protocols}):
        return error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id)
    instance_id = req.group_instance_id if version >= 5 else None
    if unknown and version >= 4 and instance_id is None:
        # a dynamic member first gets its id, then joins with it (KIP-394)
        return error(ErrorCode.MEMBER_ID_REQUIRED, member_id)
    try:
        sub = decode_subscription(protocols[0][1])
    except KafkaError as e:
        return error(e.code, member_id)
    topics = cc.topic_view()
    existing = group.members.get(member_id)
    if instance_id is not None:
        static = group.static_member(instance_id)
        if static is not None and static.member_id != member_id:
            # replacing a static member is not translated here (see the module doc)
            return error(ErrorCode.UNRELEASED_INSTANCE_ID, member_id)
    if existing is not None and existing.classic is None:
        return error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
    owned = _by_id(((tp.topic, tp.partitions) for tp in sub.owned_partitions or []), topics)
    rebalance_timeout = (
        req.rebalance_timeout_ms if version >= 1 and req.rebalance_timeout_ms > 0 else req.session_timeout_ms
    )
    hb = HeartbeatInput(
        group_id=req.group_id,
        member_id=member_id,
        member_epoch=existing.member_epoch if existing is not None else 0,
        instance_id=instance_id,
        rack_id=sub.rack_id or None,
        rebalance_timeout_ms=rebalance_timeout,
        subscribed_topic_names=list(sub.topics or []),
        topic_partitions=owned if existing is not None else {},
        client_id=client_id,
        client_host=client_host,
        classic=ClassicMemberMetadata(req.session_timeout_ms, protocols),
    )
    try:
        out = cc.classic_heartbeat(hb)
    except KafkaError as e:
        return error(e.code, member_id)
    member = cc.groups[req.group_id].members[member_id]
    # SyncGroup must follow within the rebalance timeout (Kafka's sync timeout)
    cc.schedule_classic_rebalance(req.group_id, member_id, rebalance_timeout)
    return jrs.JoinGroupResponse(
        error_code=ErrorCode.NONE,
        generation_id=out.member_epoch,
        protocol_type=CONSUMER_PROTOCOL_TYPE,
        protocol_name=protocols[0][0],
        leader="",
        skip_assignment=False,
        member_id=member.member_id,
        members=[],
    )


def classic_sync(cc: ConsumerGroupCoordinator, req: Any, version: int) -> srs.SyncGroupResponse:
    """A SyncGroup of a classic member of a consumer group: its current assignment."""
    group = cc.groups[req.group_id]
    try:
        member = _classic_member(group, req.member_id, req.group_instance_id if version >= 3 else None)
        _check_generation(member, req.generation_id)
        assert member.classic is not None
        name = member.classic.protocols[0][0]
        ptype = getattr(req, "protocol_type", None)
        pname = getattr(req, "protocol_name", None)
        if (ptype is not None and ptype != CONSUMER_PROTOCOL_TYPE) or (pname is not None and pname != name):
            raise KafkaError("protocol mismatch", ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        if group.group_epoch > member.member_epoch and member.state != MemberState.UNREVOKED_PARTITIONS:
            cc.schedule_classic_rebalance(req.group_id, member.member_id, member.rebalance_timeout_ms, if_absent=True)
            raise KafkaError("rejoin", ErrorCode.REBALANCE_IN_PROGRESS)
    except KafkaError as e:
        return srs.SyncGroupResponse(error_code=e.code, assignment=b"")
    cc.cancel_classic_rebalance(req.group_id, member.member_id)
    cc.schedule_member_session(req.group_id, member.member_id)
    raw = member.classic.protocols[0][1]
    protocol_version = int.from_bytes(raw[:2], "big", signed=True) if len(raw) >= 2 else 0
    assignment = encode_assignment(member.assigned, cc.topic_view(), protocol_version)
    return srs.SyncGroupResponse(
        error_code=ErrorCode.NONE, protocol_type=CONSUMER_PROTOCOL_TYPE, protocol_name=name, assignment=assignment
    )


def must_rejoin(group: ConsumerGroup, member: ConsumerGroupMember) -> bool:
    """Kafka's rule for telling a classic member REBALANCE_IN_PROGRESS."""
    if member.member_epoch < group.group_epoch or member.state == MemberState.UNREVOKED_PARTITIONS:
        return True
    if member.state == MemberState.UNRELEASED_PARTITIONS:
        # rejoin once some partition it waits for has been released
        target = group.target.get(member.member_id, {})
        nxt = reconcile(member, group.assignment_epoch, target, None, group.owners(exclude=member.member_id))
        return nxt.assigned != member.assigned
    return False


def classic_heartbeat(cc: ConsumerGroupCoordinator, req: Any, version: int) -> ErrorCode:
    group = cc.groups[req.group_id]
    try:
        member = _classic_member(group, req.member_id, req.group_instance_id if version >= 3 else None)
        _check_generation(member, req.generation_id)
    except KafkaError as e:
        return e.code
    cc.schedule_member_session(req.group_id, member.member_id)
    if must_rejoin(group, member):
        cc.schedule_classic_rebalance(req.group_id, member.member_id, member.rebalance_timeout_ms, if_absent=True)
        return ErrorCode.REBALANCE_IN_PROGRESS
    return ErrorCode.NONE


def classic_leave(
    cc: ConsumerGroupCoordinator, group_id: str, members: list[tuple[str, str | None]]
) -> list[ErrorCode]:
    codes: list[ErrorCode] = []
    for member_id, instance_id in members:
        group = cc.groups.get(group_id)
        if group is None:
            codes.append(ErrorCode.UNKNOWN_MEMBER_ID)
            continue
        try:
            if instance_id is not None:
                member = group.static_member(instance_id)
                if member is None:
                    raise KafkaError("unknown", ErrorCode.UNKNOWN_MEMBER_ID)
                if member_id != UNKNOWN_MEMBER_ID and member.member_id != member_id:
                    raise KafkaError("fenced", ErrorCode.FENCED_INSTANCE_ID)
                if member.classic is None:
                    raise KafkaError("not classic", ErrorCode.UNKNOWN_MEMBER_ID)
            else:
                member = _classic_member(group, member_id, None)
        except KafkaError as e:
            codes.append(e.code)
            continue
        cc.remove_classic_member(group_id, member.member_id, remove_member(group, member.member_id))
        codes.append(ErrorCode.NONE)
    return codes


def hand_over_classic_group(coordinator: Any, classic: GroupMetadata) -> None:
    """The classic side of an upgrade (`coordinator`: the GroupCoordinator): members parked in
    JoinGroup / SyncGroup are told to rejoin (REBALANCE_IN_PROGRESS, as Kafka completes their futures),
    the members leave the classic group, which stays Empty to keep the group's committed offsets, and
    its record is rewritten so that a reload does not bring the classic members back."""
    from broker_embedded.group.state import GroupState

    for member in list(classic.members.values()):
        join, sync = member.join_future, member.sync_future
        member.join_future = member.sync_future = None
        if join is not None and not join.done():
            join.set_result(
                jrs.JoinGroupResponse(
                    error_code=ErrorCode.REBALANCE_IN_PROGRESS, generation_id=-1, member_id=member.member_id, members=[]
                )
            )
        if sync is not None and not sync.done():
            sync.set_result(srs.SyncGroupResponse(error_code=ErrorCode.REBALANCE_IN_PROGRESS, assignment=b""))
        classic.remove_member(member.member_id)
        coordinator.heartbeat_purgatory.check_and_complete(("heartbeat", classic.group_id, member.member_id))
    classic.pending_members.clear()
    if classic.state != GroupState.EMPTY:
        now = int(time.time() * 1000)
        if classic.state != GroupState.PREPARING_REBALANCE:
            classic.transition_to(GroupState.PREPARING_REBALANCE, now)
        classic.transition_to(GroupState.EMPTY, now)
    classic.protocol_name = None
    classic.leader_id = None
    # the pending join of the rebalance (if any) now completes without effect
    coordinator.join_purgatory.check_and_complete(("join", classic.group_id))
    coordinator.join_purgatory.check_and_complete(("initial-join", classic.group_id))
    coordinator.storage.store_group(classic)


# --- downgrade: a consumer group of classic members only becomes a classic group again ----------------
def downgrade_allowed(group: ConsumerGroup, leaving_member_id: str, policy: str) -> bool:
    """Kafka's validateOnlineDowngradeWithFencedMember: the last consumer-protocol member leaves (or
    is fenced) and classic members remain."""
    others = [m for mid, m in group.members.items() if mid != leaving_member_id]
    return policy in ("bidirectional", "downgrade") and bool(others) and all(m.classic is not None for m in others)


def downgrade(
    cc: ConsumerGroupCoordinator, classic_coordinator: Any, group: ConsumerGroup, leaving_member_id: str
) -> None:
    """Kafka's convertToClassicGroup: tombstones for the consumer group, then a classic group of the
    remaining members (generation = the group epoch, assignments = their target assignments) that
    rebalances at once, so every member rejoins through the classic protocol."""
    from broker_embedded.group.state import GroupMetadata, MemberMetadata

    gid = group.group_id
    topics = cc.topic_view()
    remaining = [m for mid, m in group.members.items() if mid != leaving_member_id]
    members: list[MemberMetadata] = []
    for m in remaining:
        assert m.classic is not None
        raw = m.classic.protocols[0][1] if m.classic.protocols else b""
        version = int.from_bytes(raw[:2], "big", signed=True) if len(raw) >= 2 else 0
        members.append(
            MemberMetadata(
                m.member_id,
                m.instance_id,
                m.client_id,
                m.client_host,
                m.rebalance_timeout_ms,
                m.classic.session_timeout_ms,
                CONSUMER_PROTOCOL_TYPE,
                list(m.classic.protocols),
                assignment=encode_assignment(group.target.get(m.member_id, {}), topics, version),
            )
        )
    epoch = group.group_epoch
    cc.delete_group(gid)  # the consumer group's tombstones (written first: a failed append changes nothing)
    for member_id in group.members:
        cc.cancel_timers(gid, member_id)
    classic = classic_coordinator.groups.get(gid)
    if classic is None:
        classic = classic_coordinator.groups[gid] = GroupMetadata(gid, state_timestamp_ms=int(time.time() * 1000))
    classic.generation_id = epoch
    for member in members:
        classic.add_member(member)
    classic.protocol_type = CONSUMER_PROTOCOL_TYPE
    classic.protocol_name = classic.select_protocol()
    classic_coordinator.storage.store_group(classic)
    for member in members:
        classic_coordinator._schedule_heartbeat_expiry(classic, member)
    classic_coordinator._prepare_rebalance(classic, f"Downgrade group {gid} from consumer to classic.")
