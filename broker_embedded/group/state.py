"""Classic consumer group state: members, generations and the state machine.

Empty → PreparingRebalance → CompletingRebalance → Stable, and Dead once removed; the legal
transitions are Kafka's (see `_VALID_PREVIOUS`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class GroupState(Enum):
    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


_VALID_PREVIOUS: dict[GroupState, set[GroupState]] = {
    GroupState.DEAD: {
        GroupState.STABLE,
        GroupState.PREPARING_REBALANCE,
        GroupState.COMPLETING_REBALANCE,
        GroupState.EMPTY,
        GroupState.DEAD,
    },
    GroupState.COMPLETING_REBALANCE: {GroupState.PREPARING_REBALANCE},
    GroupState.STABLE: {GroupState.COMPLETING_REBALANCE},
    GroupState.PREPARING_REBALANCE: {GroupState.STABLE, GroupState.COMPLETING_REBALANCE, GroupState.EMPTY},
    GroupState.EMPTY: {GroupState.PREPARING_REBALANCE},
}

# offset.metadata.max.bytes (Kafka's default): longer commit metadata is OFFSET_METADATA_TOO_LARGE
OFFSET_METADATA_MAX_BYTES = 4096


@dataclass
class OffsetAndMetadata:
    offset: int
    leader_epoch: int
    metadata: str
    commit_timestamp: int


@dataclass
class MemberMetadata:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: list[tuple[str, bytes]]
    assignment: bytes = b""
    # the JoinGroup / SyncGroup response this member is waiting for, if any
    join_future: asyncio.Future[Any] | None = None
    sync_future: asyncio.Future[Any] | None = None
    is_new: bool = False
    session_timer_id: int = 0  # the current arming of the session timer (coordinator._schedule_heartbeat_expiry)

    @property
    def is_awaiting_join(self) -> bool:
        return self.join_future is not None

    @property
    def is_awaiting_sync(self) -> bool:
        return self.sync_future is not None and not self.sync_future.done()

    def metadata_for(self, protocol: str) -> bytes:
        for name, metadata in self.protocols:
            if name == protocol:
                return metadata
        raise KeyError(protocol)

    def matches(self, protocols: list[tuple[str, bytes]]) -> bool:
        return self.protocols == protocols


class IllegalStateTransition(RuntimeError):
    pass


@dataclass
class GroupMetadata:
    group_id: str
    state: GroupState = GroupState.EMPTY
    generation_id: int = 0
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str | None = None
    members: dict[str, MemberMetadata] = field(default_factory=dict)
    # dynamic members told MEMBER_ID_REQUIRED and expected back with that id (KIP-394)
    pending_members: set[str] = field(default_factory=set)
    # members of this generation whose SyncGroup has not come yet (Kafka's pendingSyncMembers): removed
    # when the rebalance timeout passes without it
    pending_sync_members: set[str] = field(default_factory=set)
    static_members: dict[str, str] = field(default_factory=dict)  # instance id -> member id
    offsets: dict[tuple[str, int], OffsetAndMetadata] = field(default_factory=dict)
    state_timestamp_ms: int = -1
    new_member_added: bool = False

    def transition_to(self, state: GroupState, now_ms: int) -> None:
        if self.state not in _VALID_PREVIOUS[state]:
            raise IllegalStateTransition(f"group {self.group_id}: {self.state.value} -> {state.value}")
        self.state = state
        self.state_timestamp_ms = now_ms

    def is_(self, *states: GroupState) -> bool:
        return self.state in states

    @property
    def is_empty(self) -> bool:
        return not self.members

    def add_member(self, member: MemberMetadata) -> None:
        if not self.members:
            self.protocol_type = member.protocol_type
        if self.leader_id is None:
            self.leader_id = member.member_id
        self.members[member.member_id] = member
        if member.group_instance_id is not None:
            self.static_members[member.group_instance_id] = member.member_id
        self.pending_members.discard(member.member_id)

    def remove_member(self, member_id: str) -> MemberMetadata | None:
        member = self.members.pop(member_id, None)
        if member is None:
            return None
        self.pending_sync_members.discard(member_id)
        if member.group_instance_id is not None and self.static_members.get(member.group_instance_id) == member_id:
            del self.static_members[member.group_instance_id]
        if self.leader_id == member_id:
            self.leader_id = next(iter(self.members), None)
        return member

    def is_static_member_fenced(self, member_id: str, instance_id: str | None) -> bool:
        """KIP-345: `instance_id` now belongs to another member id (a newer instance replaced it)."""
        if instance_id is None:
            return False
        current = self.static_members.get(instance_id)
        return current is not None and current != member_id

    def supports_protocols(self, protocol_type: str, protocols: list[tuple[str, bytes]]) -> bool:
        if not self.members:
            return bool(protocol_type) and bool(protocols)
        if protocol_type != self.protocol_type or not protocols:
            return False
        names = {name for name, _ in protocols}
        return all(names & {n for n, _ in m.protocols} for m in self.members.values())

    def candidate_protocols(self) -> list[str]:
        """Protocols every member supports, in the first member's preference order."""
        if not self.members:
            return []
        members = list(self.members.values())
        common = {n for n, _ in members[0].protocols}
        for m in members[1:]:
            common &= {n for n, _ in m.protocols}
        return [n for n, _ in members[0].protocols if n in common]

    def select_protocol(self) -> str:
        """Each member votes for its most preferred common protocol; the most votes win."""
        candidates = self.candidate_protocols()
        if not candidates:
            raise IllegalStateTransition(f"group {self.group_id} has no common protocol")
        votes: dict[str, int] = dict.fromkeys(candidates, 0)
        for m in self.members.values():
            for name, _ in m.protocols:
                if name in votes:
                    votes[name] += 1
                    break
        return max(candidates, key=lambda n: (votes[n], -candidates.index(n)))

    def elect_joined_leader(self) -> bool:
        """Kafka's maybeElectNewJoinedLeader, at the end of a join phase: the leader must be a member that
        rejoined (the first such one takes over). False when members are left but none of them rejoined
        (static members that missed the join phase: nobody can lead the generation)."""
        leader = self.members.get(self.leader_id or "")
        if self.is_empty or (leader is not None and leader.is_awaiting_join):
            return True
        joined = next((m for m in self.members.values() if m.is_awaiting_join), None)
        if joined is None:
            return False
        self.leader_id = joined.member_id
        return True

    def all_members_joined(self) -> bool:
        return not self.pending_members and all(m.is_awaiting_join for m in self.members.values())

    def subscribed_topics(self) -> set[str] | None:
        """Topics the members subscribe to (consumer protocol), or None if unknown."""
        if self.protocol_type != "consumer" or self.protocol_name is None:
            return None
        from kafka_wire.protocol.messages import consumer_protocol_subscription as cps

        topics: set[str] = set()
        for m in self.members.values():
            try:
                raw = m.metadata_for(self.protocol_name)
                version = int.from_bytes(raw[:2], "big", signed=True)
                decoder = cps.DECODERS.get(min(version, max(cps.DECODERS)))
                # DECODERS.get is Optional: a version below every key raises TypeError, caught below (unknown metadata)
                sub, _ = decoder(raw, 2)  # type: ignore[misc]
                topics.update(sub.topics)
            except Exception:
                return None
        return topics
