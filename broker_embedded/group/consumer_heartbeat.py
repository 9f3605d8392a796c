"""ConsumerGroupHeartbeat as an operation: (group, request, topics) -> (records, response).

Sans-IO and without side effects: the group is only read. The coordinator writes the records to
``__consumer_offsets`` and replays them into the group (``ConsumerGroup.replay``); what the
response says is exactly what the records make true. Follows Kafka's
``GroupMetadataManager.consumerGroupHeartbeat``: validate, leave or join/update the member, bump
the group epoch on a membership/subscription/metadata change, recompute the target assignment
when the group epoch is ahead of it, then reconcile the member toward its target.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from broker_embedded.group.assignors import ASSIGNORS, MemberSubscription
from broker_embedded.group.consumer_group import (
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ConsumerGroup,
    ConsumerGroupMember,
    MemberState,
    reconcile,
)
from broker_embedded.group.consumer_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    PARTITION_METADATA,
    TARGET_ASSIGNMENT_MEMBER,
    TARGET_ASSIGNMENT_METADATA,
    Assignment,
    ClassicMemberMetadata,
    ConsumerGroupKey,
    ConsumerGroupRecord,
    GroupMetadataValue,
    PartitionMetadataValue,
    TargetAssignmentMemberValue,
    TargetAssignmentMetadataValue,
    TopicMetadata,
)
from kafka_wire.errors import ErrorCode, KafkaError


@dataclass
class HeartbeatInput:
    """The fields of a ConsumerGroupHeartbeat request (topic ids resolved to bytes)."""

    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    subscribed_topic_names: list[str] | None = None
    subscribed_topic_regex: str | None = None
    server_assignor: str | None = None
    topic_partitions: Assignment | None = None
    client_id: str = ""
    client_host: str = ""
    # a classic member's JoinGroup translated (consumer_migration.py): its session timeout and protocols
    classic: ClassicMemberMetadata | None = None


@dataclass
class HeartbeatOutput:
    member_id: str
    member_epoch: int
    assignment: Assignment | None = None  # None: unchanged, not sent
    records: list[ConsumerGroupRecord] = field(default_factory=list)
    # the member left or was replaced (its timers end)
    removed_members: list[str] = field(default_factory=list)


def compile_regex(regex: str) -> re.Pattern[str]:
    """Kafka's regexes are RE2/J, matched against the whole topic name; Python's `re` covers the
    common subset. Constructs RE2 refuses (backreferences, lookaround) are refused here too."""
    if re.search(r"\\[1-9]|\(\?[=!<]", regex):
        raise KafkaError(f"Invalid regular expression {regex}", ErrorCode.INVALID_REGULAR_EXPRESSION)
    try:
        return re.compile(regex)
    except re.error as e:
        raise KafkaError(f"Invalid regular expression {regex}: {e}", ErrorCode.INVALID_REGULAR_EXPRESSION) from None


# (member id, topic) -> may the member see the topic (DESCRIBE); None: no authorizer
TopicFilter = Callable[[str, str], bool]


def subscribed_topics(
    member: ConsumerGroupMember, topics: dict[str, TopicMetadata], allowed: TopicFilter | None = None
) -> set[str]:
    """The existing topics a member subscribes to: its names, and what its regex matches now
    (internal topics excluded, and those the member may not describe, as Kafka does)."""
    names = {n for n in member.subscribed_topic_names if n in topics}
    if member.subscribed_topic_regex:
        pattern = compile_regex(member.subscribed_topic_regex)
        names |= {
            n
            for n in topics
            if not n.startswith("__") and pattern.fullmatch(n) and (allowed is None or allowed(member.member_id, n))
        }
    return names


def _key(record_type: int, group_id: str, member_id: str | None = None) -> ConsumerGroupKey:
    return ConsumerGroupKey(record_type, group_id, member_id)


def _bad(message: str) -> KafkaError:
    return KafkaError(message, ErrorCode.INVALID_REQUEST)


def validate(req: HeartbeatInput, version: int, assignors: list[str]) -> None:
    if not req.group_id:
        raise _bad("GroupId can't be empty.")
    if req.rack_id is not None and not req.rack_id:
        raise _bad("RackId can't be empty.")
    if req.instance_id is not None and not req.instance_id:
        raise _bad("InstanceId can't be empty.")
    if version >= 1 and not req.member_id:
        raise _bad("MemberId can't be empty.")
    if req.member_epoch == 0:
        if req.rebalance_timeout_ms == -1:
            raise _bad("RebalanceTimeoutMs must be provided in first request.")
        if req.topic_partitions is None or any(req.topic_partitions.values()):
            raise _bad("TopicPartitions must be empty when (re-)joining.")
        if req.subscribed_topic_names is None and req.subscribed_topic_regex is None:
            raise _bad("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.")
    elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        if req.instance_id is None:
            raise _bad("InstanceId can't be null.")
    elif req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        raise _bad(f"MemberEpoch is {req.member_epoch}, but must be greater than or equal to -2.")
    if req.server_assignor is not None and req.server_assignor not in assignors:
        raise KafkaError(f"ServerAssignor {req.server_assignor} is not supported.", ErrorCode.UNSUPPORTED_ASSIGNOR)
    if req.subscribed_topic_regex:
        compile_regex(req.subscribed_topic_regex)


def _member_removal(group: ConsumerGroup, member_id: str) -> list[ConsumerGroupRecord]:
    gid = group.group_id
    return [
        (_key(CURRENT_MEMBER_ASSIGNMENT, gid, member_id), None),
        (_key(TARGET_ASSIGNMENT_MEMBER, gid, member_id), None),
        (_key(MEMBER_METADATA, gid, member_id), None),
    ]


def remove_member(group: ConsumerGroup, member_id: str) -> list[ConsumerGroupRecord]:
    """A member leaves or is fenced: its records go and the group epoch grows."""
    return [
        *_member_removal(group, member_id),
        (_key(GROUP_METADATA, group.group_id), GroupMetadataValue(group.group_epoch + 1)),
    ]


def _subscription_metadata(
    members: dict[str, ConsumerGroupMember], topics: dict[str, TopicMetadata], allowed: TopicFilter | None
) -> dict[bytes, TopicMetadata]:
    names: set[str] = set()
    for m in members.values():
        names |= subscribed_topics(m, topics, allowed)
    return {topics[n].topic_id: topics[n] for n in sorted(names)}


def compute_target(
    group: ConsumerGroup,
    members: dict[str, ConsumerGroupMember],
    topics: dict[str, TopicMetadata],
    assignor: str,
    allowed: TopicFilter | None = None,
) -> dict[str, Assignment]:
    subs = {
        m.member_id: MemberSubscription(
            frozenset(topics[n].topic_id for n in subscribed_topics(m, topics, allowed)), m.rack_id
        )
        for m in members.values()
    }
    counts = {t.topic_id: t.num_partitions for t in topics.values()}
    return ASSIGNORS[assignor](subs, counts, group.target)


def heartbeat(
    group: ConsumerGroup,
    req: HeartbeatInput,
    topic_view: dict[str, TopicMetadata] | Callable[[], dict[str, TopicMetadata]],
    assignors: list[str],
    version: int,
    refresh_metadata: bool = True,
    allowed: TopicFilter | None = None,
) -> HeartbeatOutput:
    """Validate and run one heartbeat; raises KafkaError with Kafka's code for an error answer.
    `topic_view`: the cluster's topics by name (or a function building them, called only when
    needed); `assignors`: group.consumer.assignors (first: default); `refresh_metadata`: look at
    the topics again even if no subscription changed (topics created, deleted or grown since);
    `allowed`: which topics a member's regex may resolve to (ACLs)."""
    validate(req, version, assignors)
    cache: list[dict[str, TopicMetadata]] = []

    def topics_now() -> dict[str, TopicMetadata]:
        if not cache:
            cache.append(topic_view() if callable(topic_view) else topic_view)
        return cache[0]

    gid = group.group_id
    records: list[ConsumerGroupRecord] = []
    removed: list[str] = []
    if req.member_epoch != 0 and group.group_epoch == 0 and not group.members:
        raise KafkaError(f"Consumer group {gid} not found.", ErrorCode.GROUP_ID_NOT_FOUND)

    # --- leaving ---------------------------------------------------------------------------------
    if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
        member = group.members.get(req.member_id)
        if req.instance_id is not None:
            static = group.static_member(req.instance_id)
            if static is None:
                raise KafkaError(f"Instance id {req.instance_id} is unknown.", ErrorCode.UNKNOWN_MEMBER_ID)
            if static.member_id != req.member_id:
                raise KafkaError(
                    f"Instance id {req.instance_id} belongs to another member.", ErrorCode.FENCED_INSTANCE_ID
                )
            member = static
        if member is None:
            raise KafkaError(f"Member {req.member_id} is not a member of group {gid}.", ErrorCode.UNKNOWN_MEMBER_ID)
        if req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            # a static member leaving for a while keeps its assignment until its session expires
            left = replace(
                member, member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH, previous_member_epoch=member.member_epoch
            )
            records.append((_key(CURRENT_MEMBER_ASSIGNMENT, gid, member.member_id), left.assignment_value()))
        else:
            records += remove_member(group, member.member_id)
            removed.append(member.member_id)
        return HeartbeatOutput(member.member_id, req.member_epoch, None, records, removed)

    # --- joining, or a known member ---------------------------------------------------------------
    member = group.members.get(req.member_id)
    bump = False
    if req.member_epoch == 0:
        if req.instance_id is not None:
            static = group.static_member(req.instance_id)
            if static is not None and static.member_id != req.member_id:
                if static.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                    raise KafkaError(
                        f"Static member {static.member_id} with instance id {req.instance_id} is not released yet.",
                        ErrorCode.UNRELEASED_INSTANCE_ID,
                    )
                # the restarted static member takes over the old member's assignment and epoch
                records += _member_removal(group, static.member_id)
                removed.append(static.member_id)
                member = replace(static, member_id=req.member_id)
                member.member_epoch = static.previous_member_epoch if static.member_epoch < 0 else static.member_epoch
                member.member_epoch = max(member.member_epoch, 0)
                # the replacement keeps the old one's place in the target assignment
                records.append(
                    (
                        _key(TARGET_ASSIGNMENT_MEMBER, gid, req.member_id),
                        TargetAssignmentMemberValue(group.target.get(static.member_id, {})),
                    )
                )
        if member is None:
            member = ConsumerGroupMember(req.member_id)
            bump = True
    else:
        if member is None:
            raise KafkaError(f"Member {req.member_id} is not a member of group {gid}.", ErrorCode.UNKNOWN_MEMBER_ID)
        if member.instance_id is not None and req.instance_id is not None and member.instance_id != req.instance_id:
            raise KafkaError(f"Member {req.member_id} has another instance id.", ErrorCode.FENCED_INSTANCE_ID)
        if req.member_epoch > member.member_epoch:
            raise KafkaError(
                f"The consumer group member has a greater member epoch ({req.member_epoch}) than the one known by "
                f"the group coordinator ({member.member_epoch}).",
                ErrorCode.FENCED_MEMBER_EPOCH,
            )
        if req.member_epoch < member.member_epoch:
            # the member may have missed our last response: fine if it owns nothing it should not
            owned = req.topic_partitions
            if (
                req.member_epoch != member.previous_member_epoch
                or owned is None
                or not all(ps <= member.assigned.get(t, frozenset()) for t, ps in owned.items())
            ):
                raise KafkaError(
                    f"The consumer group member has a smaller member epoch ({req.member_epoch}) than the one "
                    f"known by the group coordinator ({member.member_epoch}).",
                    ErrorCode.FENCED_MEMBER_EPOCH,
                )

    # the member's new metadata (null fields: unchanged since the last heartbeat)
    updated = replace(
        member,
        instance_id=req.instance_id if req.instance_id is not None else member.instance_id,
        rack_id=req.rack_id if req.rack_id is not None else member.rack_id,
        client_id=req.client_id,
        client_host=req.client_host,
        rebalance_timeout_ms=req.rebalance_timeout_ms
        if req.rebalance_timeout_ms != -1
        else member.rebalance_timeout_ms,
        server_assignor=req.server_assignor if req.server_assignor is not None else member.server_assignor,
        classic=req.classic if req.classic is not None else member.classic,
    )
    # the two may come together (librdkafka sends an empty regex with its names): an empty regex
    # is no regex; a member subscribes to its names and to what its regex matches
    if req.subscribed_topic_names is not None:
        updated.subscribed_topic_names = sorted(req.subscribed_topic_names)
    if req.subscribed_topic_regex is not None:
        updated.subscribed_topic_regex = req.subscribed_topic_regex or None
    if (
        updated.subscribed_topic_names != member.subscribed_topic_names
        or updated.subscribed_topic_regex != member.subscribed_topic_regex
        or updated.server_assignor != member.server_assignor
    ):
        bump = True
    if updated.metadata_value() != member.metadata_value() or req.member_id not in group.members:
        records.append((_key(MEMBER_METADATA, gid, req.member_id), updated.metadata_value()))

    members = {mid: m for mid, m in group.members.items() if mid not in removed}
    members[req.member_id] = updated
    group_epoch = group.group_epoch
    metadata = group.subscribed_metadata
    if bump or refresh_metadata or removed:
        metadata = _subscription_metadata(members, topics_now(), allowed)
    if metadata != group.subscribed_metadata:
        records.append((_key(PARTITION_METADATA, gid), PartitionMetadataValue(list(metadata.values()))))
        bump = True
    if bump:
        # a new group's first epoch is 2, not 1: what Kafka 4.3.1 writes (seen in its log)
        group_epoch += 2 if group_epoch == 0 else 1
        records.append((_key(GROUP_METADATA, gid), GroupMetadataValue(group_epoch)))

    # --- target assignment ------------------------------------------------------------------------
    target_epoch = group.assignment_epoch
    target = dict(group.target)
    for mid in removed:
        target[req.member_id] = target.pop(mid, target.get(req.member_id, {}))
    if group_epoch > target_epoch:
        assignor = updated.server_assignor or next(
            (m.server_assignor for m in members.values() if m.server_assignor), assignors[0]
        )
        new_target = compute_target(replace(group, target=target), members, topics_now(), assignor, allowed)
        for mid in sorted(members):
            if new_target.get(mid, {}) != group.target.get(mid) or mid == req.member_id:
                records.append(
                    (_key(TARGET_ASSIGNMENT_MEMBER, gid, mid), TargetAssignmentMemberValue(new_target.get(mid, {})))
                )
        records.append((_key(TARGET_ASSIGNMENT_METADATA, gid), TargetAssignmentMetadataValue(group_epoch)))
        target, target_epoch = new_target, group_epoch

    # --- reconciliation ---------------------------------------------------------------------------
    owners = replace(group, members=members).owners(exclude=req.member_id)
    next_member = reconcile(updated, target_epoch, target.get(req.member_id, {}), req.topic_partitions, owners)
    if next_member.assignment_value() != member.assignment_value() or req.member_id not in group.members:
        records.append((_key(CURRENT_MEMBER_ASSIGNMENT, gid, req.member_id), next_member.assignment_value()))
    full = (
        req.rebalance_timeout_ms != -1
        and (req.subscribed_topic_names is not None or req.subscribed_topic_regex is not None)
        and req.topic_partitions is not None
    )
    send = (
        req.member_epoch == 0 or full or next_member.assigned != member.assigned or req.member_id not in group.members
    )
    return HeartbeatOutput(
        req.member_id,
        next_member.member_epoch,
        dict(next_member.assigned) if send else None,
        records,
        removed,
    )


def is_revoking(member: ConsumerGroupMember) -> bool:
    return member.state == MemberState.UNREVOKED_PARTITIONS
