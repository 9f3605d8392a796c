"""The member side of Kafka's classic group protocol as a sans-IO state machine.

`ClassicMemberMachine` holds a member's whole membership state -- generation, member id, owned
partitions, the rejoin reason, a lost generation, the leader's subscription snapshot, heartbeat
bookkeeping -- and every decision on it: which JoinGroup/SyncGroup/Heartbeat/LeaveGroup to send,
what an answer or error code means (rejoin, drop the partitions, find the coordinator, fail), the
leader's assignment (assignor over decoded subscriptions), which partitions a rebalance revokes
or adds for the eager and cooperative (KIP-429) protocols, and when the leader checks metadata.

It does no I/O, starts no thread and reads no clock (`now` is passed in, `time.monotonic()`
seconds). `consumer_group.membership.GroupMember` is its driver: connections, the group and
heartbeat threads, the lock, user callbacks. Errors come out as exceptions the driver maps to
its retry loop: `CoordinatorLost` (find the coordinator again), `RetryJoin` (rejoin after a
backoff; `lost` names partitions whose lost callback must run first), `FencedInstanceIdError`
and `GroupError` (fatal).
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Iterable, Sequence
from typing import Any

from consumer_group.assignors import Assignor
from consumer_group.protocol import (
    CONSUMER_PROTOCOL_TYPE,
    HIGHEST_ASSIGNMENT_VERSION,
    Assignment,
    Subscription,
    decode_assignment,
    decode_subscription,
    encode_assignment,
    encode_subscription,
)
from consumer_group.structs import (
    FencedInstanceIdError,
    Generation,
    GroupError,
    MemberSubscription,
    TopicPartition,
)
from kafka_wire.errors import ErrorCode, ProtocolDecodeError, PykafkaError
from kafka_wire.protocol.messages import (
    heartbeat_request,
    join_group_request,
    leave_group_request,
    sync_group_request,
)

log = logging.getLogger("consumer_group.membership")

COORDINATOR_ERRORS = frozenset(
    {ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS}
)
FENCING_ERRORS = frozenset({ErrorCode.ILLEGAL_GENERATION, ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.FENCED_INSTANCE_ID})


class MemberState(enum.Enum):
    UNJOINED = "Unjoined"
    PREPARING_REBALANCE = "PreparingRebalance"  # our JoinGroup is in flight
    COMPLETING_REBALANCE = "CompletingRebalance"  # our SyncGroup is in flight
    STABLE = "Stable"
    FAILED = "Failed"
    CLOSED = "Closed"


class RebalanceProtocol(enum.Enum):
    EAGER = "eager"
    COOPERATIVE = "cooperative"


class CoordinatorLost(PykafkaError):
    """Forget the coordinator and find it again (after a backoff)."""


class RetryJoin(PykafkaError):
    """The join/sync round failed in a retriable way; rejoin after a short backoff. The driver runs
    the lost callback for `lost` first (a reset generation drops the partitions)."""

    def __init__(self, message: str, lost: frozenset[TopicPartition] = frozenset()) -> None:
        super().__init__(message)
        self.lost = lost


class HeartbeatOutcome(enum.Enum):
    OK = "ok"
    IGNORED = "ignored"  # stale (another generation, rejoining, closing) or only logged
    REJOIN = "rejoin"  # REBALANCE_IN_PROGRESS: rejoin requested
    FENCED = "fenced"  # the group thread drops the partitions and rejoins
    COORDINATOR_LOST = "coordinator lost"


def error_code(value: int) -> ErrorCode:
    try:
        return ErrorCode(value)
    except ValueError:
        return ErrorCode.UNKNOWN_SERVER_ERROR


class ClassicMemberMachine:
    """A classic-protocol member's state and transitions (see the module docstring).

    The driver serializes every call (one lock); callbacks run outside it, between the halves of a
    transition (`revocations_before_join` / `revoked`, `assignment_delta` / `install_assignment` /
    `assignment_done`).
    """

    def __init__(
        self,
        group_id: str,
        topics: Iterable[str],
        assignors: Sequence[Assignor],
        *,
        group_instance_id: str | None,
        rack_id: str | None,
        subscription_version: int,
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        metadata_max_age_ms: int,
    ) -> None:
        self.group_id = group_id
        self.assignors = list(assignors)
        self.rebalance_protocol = (
            RebalanceProtocol.COOPERATIVE
            if all(a.supports_cooperative for a in self.assignors)
            else RebalanceProtocol.EAGER
        )
        self.group_instance_id = group_instance_id
        self.rack_id = rack_id
        self.subscription_version = subscription_version
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.metadata_max_age_ms = metadata_max_age_ms
        self.topics: tuple[str, ...] = tuple(sorted(set(topics)))
        self.state = MemberState.UNJOINED
        self.generation = Generation(group_instance_id=group_instance_id)
        self.assignment: frozenset[TopicPartition] = frozenset()
        # eager `sticky` reports the previous assignment (and its generation) in its user data
        self.previous_assignment: frozenset[TopicPartition] = frozenset()
        self.previous_generation = -1
        self.ready = False  # Stable, no rejoin pending, callbacks of the last sync done
        self.rejoin_reason: str | None = "initial join"
        self.lost: tuple[ErrorCode, Generation] | None = None
        self.is_leader = False
        self.leader_topics: frozenset[str] = frozenset()  # the group's subscription (leader only)
        self.leader_snapshot: dict[str, int] | None = None  # partition counts the leader assigned
        self.next_metadata_check = 0.0
        self.last_heartbeat_ok = 0.0
        self.rebalances = 0

    # --- rejoin requests ---------------------------------------------------------------------

    def request_rejoin(self, reason: str) -> None:
        if self.rejoin_reason is None:
            log.info("group %s member %s: rejoin needed: %s", self.group_id, self.generation.member_id, reason)
            self.rejoin_reason = reason
        self.ready = False

    def subscribe(self, topics: Iterable[str]) -> bool:
        new = tuple(sorted(set(topics)))
        if new == self.topics:
            return False
        self.topics = new
        self.request_rejoin(f"subscription changed to {list(new)}")
        return True

    @property
    def needs_join(self) -> bool:
        return self.rejoin_reason is not None or self.state != MemberState.STABLE

    @property
    def rebalancing(self) -> bool:
        return self.state in (MemberState.PREPARING_REBALANCE, MemberState.COMPLETING_REBALANCE)

    # --- the join round -----------------------------------------------------------------------

    def revocations_before_join(self) -> frozenset[TopicPartition]:
        """Eager revokes everything before rejoining; cooperative only what left the subscription."""
        self.ready = False
        if self.rebalance_protocol is RebalanceProtocol.EAGER:
            return self.assignment
        return frozenset(tp for tp in self.assignment if tp.topic not in self.topics)

    def revoked(self, partitions: frozenset[TopicPartition]) -> None:
        """The revoke callback for `partitions` (from `revocations_before_join`) returned."""
        if self.rebalance_protocol is RebalanceProtocol.EAGER:
            self.assignment = frozenset()
        else:
            self.assignment = self.assignment - partitions

    def begin_join(self) -> str:
        reason = self.rejoin_reason or "rejoin"
        self.rejoin_reason = None
        self.state = MemberState.PREPARING_REBALANCE
        return reason

    def protocols(self) -> list[join_group_request.JoinGroupRequestProtocol]:
        out = []
        for assignor in self.assignors:
            if self.rebalance_protocol is RebalanceProtocol.COOPERATIVE:
                user_data = assignor.subscription_user_data(self.assignment, self.generation.generation_id)
            else:  # eager: nothing is owned any more; the previous assignment rides in user data
                user_data = assignor.subscription_user_data(self.previous_assignment, self.previous_generation)
            sub = Subscription(
                topics=self.topics,
                user_data=user_data,
                owned_partitions=tuple(sorted(self.assignment)),
                generation_id=self.generation.generation_id,
                rack_id=self.rack_id,
            )
            out.append(
                join_group_request.JoinGroupRequestProtocol(
                    name=assignor.name, metadata=encode_subscription(sub, self.subscription_version)
                )
            )
        return out

    def join_request(self, reason: str) -> join_group_request.JoinGroupRequest:
        return join_group_request.JoinGroupRequest(
            group_id=self.group_id,
            session_timeout_ms=self.session_timeout_ms,
            rebalance_timeout_ms=self.rebalance_timeout_ms,
            member_id=self.generation.member_id,
            group_instance_id=self.group_instance_id,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocols=self.protocols(),
            reason=reason[:256],
        )

    def on_join_response(self, resp: Any) -> Generation | None:
        """The new generation, or None when the coordinator asked for our member id first (v4+)."""
        code = error_code(resp.error_code)
        if code == ErrorCode.MEMBER_ID_REQUIRED:
            self.generation = Generation(member_id=resp.member_id, group_instance_id=self.group_instance_id)
            return None
        if code != ErrorCode.NONE:
            self.join_or_sync_error("JoinGroup", code)
        gen = Generation(resp.generation_id, resp.member_id, resp.protocol_name, self.group_instance_id)
        self.generation = gen
        self.is_leader = resp.leader == resp.member_id
        self.state = MemberState.COMPLETING_REBALANCE
        log.info(
            "group %s: joined generation %s as %s (%s, protocol %s)",
            self.group_id,
            gen.generation_id,
            gen.member_id,
            "leader" if self.is_leader else "follower",
            gen.protocol_name,
        )
        return gen

    def join_or_sync_error(self, what: str, code: ErrorCode) -> None:
        """Raise what a JoinGroup/SyncGroup error means for the round."""
        if code in (ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION):
            lost = self.reset_generation(code)
            raise RetryJoin(f"{what}: {code.name}", lost)
        if code == ErrorCode.REBALANCE_IN_PROGRESS:
            raise RetryJoin(f"{what}: {code.name}")
        if code in COORDINATOR_ERRORS:
            raise CoordinatorLost(f"{what}: {code.name}")
        if code == ErrorCode.FENCED_INSTANCE_ID:
            raise FencedInstanceIdError(
                f"{what}: group.instance.id {self.group_instance_id!r} is used by another member"
            )
        raise GroupError(f"{what} for group {self.group_id!r} failed: {code.name}", code)

    def reset_generation(self, code: ErrorCode) -> frozenset[TopicPartition]:
        """UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION during join or sync: the partitions are lost."""
        lost = self.assignment
        self.assignment = frozenset()
        self.previous_assignment = frozenset()
        self.previous_generation = -1
        member_id = "" if code == ErrorCode.UNKNOWN_MEMBER_ID else self.generation.member_id
        self.generation = Generation(member_id=member_id, group_instance_id=self.group_instance_id)
        self.is_leader = False
        return lost

    def after_failed_round(self) -> None:
        if self.rebalancing:
            self.state = MemberState.UNJOINED

    # --- the leader's assignment ---------------------------------------------------------------

    def leader_subscriptions(self, members: Sequence[Any]) -> tuple[list[MemberSubscription], int]:
        """Decoded JoinGroup metadata of every member, and the assignment version to write."""
        subs: list[MemberSubscription] = []
        version = HIGHEST_ASSIGNMENT_VERSION
        for m in members:
            try:
                sub = decode_subscription(m.metadata)
            except ProtocolDecodeError as e:
                log.warning("group %s: member %s sent undecodable metadata: %s", self.group_id, m.member_id, e)
                sub = Subscription(topics=(), version=0)
            # assignment bytes are the same in every version; write the oldest one in the group
            version = min(version, sub.version)
            subs.append(
                MemberSubscription(
                    member_id=m.member_id,
                    topics=sub.topics,
                    group_instance_id=getattr(m, "group_instance_id", None),
                    owned_partitions=sub.owned_partitions,
                    generation_id=sub.generation_id,
                    user_data=sub.user_data,
                    rack_id=sub.rack_id,
                )
            )
        return subs, version

    def leader_assignments(
        self,
        gen: Generation,
        subs: list[MemberSubscription],
        version: int,
        counts: dict[str, int],
    ) -> list[sync_group_request.SyncGroupRequestAssignment]:
        """Run the chosen assignor over `counts` (partitions per subscribed topic). Reads no member
        state, so the driver runs it outside its lock; `leader_assigned` records the snapshot."""
        assignor = next((a for a in self.assignors if a.name == gen.protocol_name), None)
        if assignor is None:
            raise GroupError(f"the coordinator chose protocol {gen.protocol_name!r}, which we did not offer")
        result = assignor.assign(counts, subs)
        log.info(
            "group %s generation %s: leader assigned with %s: %s",
            self.group_id,
            gen.generation_id,
            assignor.name,
            {mid: len(tps) for mid, tps in result.items()},
        )
        return [
            sync_group_request.SyncGroupRequestAssignment(
                member_id=s.member_id,
                assignment=encode_assignment(Assignment(tuple(result.get(s.member_id, ()))), version),
            )
            for s in subs
        ]

    def leader_assigned(self, subs: list[MemberSubscription], counts: dict[str, int], now: float) -> None:
        """The snapshot the leader's metadata check compares against, and when it runs next."""
        self.leader_topics = frozenset(set().union(*(s.topics for s in subs)) if subs else set())
        self.leader_snapshot = counts
        self.next_metadata_check = now + self.metadata_max_age_ms / 1000.0

    def sync_request(
        self, gen: Generation, assignments: list[sync_group_request.SyncGroupRequestAssignment]
    ) -> sync_group_request.SyncGroupRequest:
        return sync_group_request.SyncGroupRequest(
            group_id=self.group_id,
            generation_id=gen.generation_id,
            member_id=gen.member_id,
            group_instance_id=gen.group_instance_id,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocol_name=gen.protocol_name,
            assignments=assignments,
        )

    def on_sync_response(self, resp: Any) -> Assignment:
        code = error_code(resp.error_code)
        if code != ErrorCode.NONE:
            self.join_or_sync_error("SyncGroup", code)
        try:
            return decode_assignment(bytes(resp.assignment or b""))
        except ProtocolDecodeError as e:
            raise RetryJoin(f"undecodable assignment from the leader: {e}") from e

    # --- installing an assignment (the callbacks run between these steps) ---------------------

    def assignment_delta(
        self, assignment: Assignment
    ) -> tuple[frozenset[TopicPartition], frozenset[TopicPartition], frozenset[TopicPartition]]:
        """(new, revoked, added): cooperative revokes here what moved away; eager revoked before."""
        new = frozenset(assignment.partitions)
        strays = {tp.topic for tp in new} - set(self.topics)
        if strays:
            log.warning("group %s: assigned topics %s we do not subscribe to", self.group_id, sorted(strays))
        return new, self.assignment - new, new - self.assignment

    def install_assignment(self, new: frozenset[TopicPartition], gen: Generation, now: float) -> bool:
        """After the revoke callback: take `new` unless fenced meanwhile (then False)."""
        if self.generation != gen:
            return False  # the group thread will handle the fencing
        self.assignment = new
        self.previous_assignment = new
        self.previous_generation = gen.generation_id
        self.state = MemberState.STABLE  # heartbeats resume
        self.last_heartbeat_ok = now
        self.rebalances += 1
        log.info("group %s generation %s: member %s assigned %s", self.group_id, gen.generation_id, gen.member_id, new)
        return True

    def assignment_done(self, gen: Generation, revoked: frozenset[TopicPartition]) -> None:
        """After the assign callback: ready, or a follow-up rebalance (KIP-429) first."""
        if revoked and self.generation == gen:
            # the partitions we gave up can only move in a follow-up rebalance
            self.request_rejoin(f"revoked {len(revoked)} partitions; follow-up rebalance")
        if self.rejoin_reason is None and self.lost is None and self.generation == gen:
            self.ready = True

    # --- heartbeats ------------------------------------------------------------------------

    def heartbeat_wanted(self, coordinator_known: bool) -> bool:
        """Also while our SyncGroup waits for the leader (as the Java client does): a slow leader
        must not cost the followers their sessions."""
        return (
            self.state in (MemberState.STABLE, MemberState.COMPLETING_REBALANCE)
            and coordinator_known
            and self.generation.is_valid
            and self.lost is None
        )

    def heartbeat_request(self, gen: Generation) -> heartbeat_request.HeartbeatRequest:
        return heartbeat_request.HeartbeatRequest(
            group_id=self.group_id,
            generation_id=gen.generation_id,
            member_id=gen.member_id,
            group_instance_id=gen.group_instance_id,
        )

    def on_heartbeat_response(self, code: ErrorCode, gen: Generation, now: float, closing: bool) -> HeartbeatOutcome:
        # a reply about a generation we already left, or arriving while we rejoin, is stale
        current = self.generation == gen and self.state == MemberState.STABLE and not closing
        if code == ErrorCode.NONE:
            self.last_heartbeat_ok = now
            return HeartbeatOutcome.OK
        if not current:
            return HeartbeatOutcome.IGNORED
        if code == ErrorCode.REBALANCE_IN_PROGRESS:
            self.request_rejoin("heartbeat: the group is rebalancing")
            return HeartbeatOutcome.REJOIN
        if code in FENCING_ERRORS:
            self.member_fenced(code, gen, "Heartbeat", closing)
            return HeartbeatOutcome.FENCED
        if code in COORDINATOR_ERRORS:
            return HeartbeatOutcome.COORDINATOR_LOST
        log.warning("group %s: heartbeat error %s", self.group_id, code.name)
        return HeartbeatOutcome.IGNORED

    def member_fenced(self, code: ErrorCode, gen: Generation, source: str, closing: bool) -> bool:
        """The coordinator no longer knows `gen`: mark it lost for the group thread (True if new)."""
        if self.generation == gen and self.state == MemberState.STABLE and self.lost is None and not closing:
            log.warning("group %s: %s: %s for generation %s", self.group_id, source, code.name, gen.generation_id)
            self.lost = (code, gen)
            self.ready = False
            return True
        return False

    def take_lost(self) -> tuple[ErrorCode, frozenset[TopicPartition]] | None:
        """The group thread handles a lost generation: drop partitions, forget the generation."""
        lost_info, self.lost = self.lost, None
        if lost_info is None:
            return None
        code, gen = lost_info
        if gen != self.generation:
            return None  # we already moved to another generation
        lost = self.assignment
        self.assignment = frozenset()
        self.previous_assignment = frozenset()
        self.previous_generation = -1
        member_id = "" if code == ErrorCode.UNKNOWN_MEMBER_ID else gen.member_id
        self.generation = Generation(member_id=member_id, group_instance_id=self.group_instance_id)
        self.state = MemberState.UNJOINED
        self.ready = False
        return code, lost

    # --- the leader's metadata check -----------------------------------------------------------

    def metadata_check_due(self, now: float) -> tuple[dict[str, int], set[str]] | None:
        """The leader rejoins when a subscribed topic appears, disappears or gains partitions."""
        if not self.is_leader or self.leader_snapshot is None or now < self.next_metadata_check:
            return None
        self.next_metadata_check = now + self.metadata_max_age_ms / 1000.0
        return dict(self.leader_snapshot), set(self.leader_topics)

    def on_metadata(self, snapshot: dict[str, int], counts: dict[str, int]) -> None:
        if counts != snapshot:
            self.request_rejoin(f"subscribed topic metadata changed: {snapshot} -> {counts}")

    def idle_timeout(self, now: float) -> float:
        timeout = 5.0  # nothing to do until a heartbeat, a caller or close() notifies the driver
        if self.is_leader and self.leader_snapshot is not None:
            timeout = min(timeout, max(0.05, self.next_metadata_check - now))
        return timeout

    # --- failure and shutdown ------------------------------------------------------------------

    def fail(self) -> frozenset[TopicPartition]:
        lost = self.assignment
        self.assignment = frozenset()
        self.state = MemberState.FAILED
        self.ready = False
        return lost

    def leave_request(self, gen: Generation, version: int) -> leave_group_request.LeaveGroupRequest:
        rq = leave_group_request
        if version >= 3:  # batched form with member identities (KIP-345)
            return rq.LeaveGroupRequest(
                group_id=self.group_id,
                members=[
                    rq.MemberIdentity(
                        member_id=gen.member_id,
                        group_instance_id=gen.group_instance_id,
                        reason="the consumer is closing",
                    )
                ],
            )
        return rq.LeaveGroupRequest(group_id=self.group_id, member_id=gen.member_id)


__all__ = [
    "COORDINATOR_ERRORS",
    "FENCING_ERRORS",
    "ClassicMemberMachine",
    "CoordinatorLost",
    "HeartbeatOutcome",
    "MemberState",
    "RebalanceProtocol",
    "RetryJoin",
    "error_code",
]
