"""The member side of Kafka 4's consumer group protocol (KIP-848) as a sans-IO state machine.

`ConsumerMemberMachine` owns every decision of a `group.protocol=consumer` member and does no
I/O and reads no clock: the driver (`consumer_group.consumer_driver`) feeds it events -- the
ConsumerGroupHeartbeat (API 68) answers, transport failures, the topic names behind topic ids,
the end of a user callback, `now_ms` -- and executes the actions `poll(now_ms)` hands out: send a
heartbeat, find the coordinator, resolve topic ids, run a rebalance callback, fail.

Semantics follow Kafka's ConsumerMembershipManager / AbstractMembershipManager and librdkafka:

- join with member epoch 0 and a client-generated member id (KIP-1082); the coordinator answers
  the member's epoch and its target assignment (topic ids), `None` when it did not change;
- reconciliation towards the target: partitions to give up are revoked first (the revoke
  callback runs before they are released, so an application commits there: commit before
  revoke), then the added ones are assigned, then one heartbeat acknowledges the owned set at
  once; a newer target that arrives meanwhile is reconciled after the current step;
- UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH: the owned partitions are lost (the lost callback, no
  commit) and the member rejoins with epoch 0 and the same member id;
- leaving: revoke callback, then a heartbeat with epoch -1 (dynamic) or -2 (static member: the
  coordinator keeps its assignment for the session timeout so a restart gets it back);
- coordinator errors: find it again after a backoff; fatal errors (fenced or unreleased
  instance id, authorization, unsupported assignor or version, invalid request) stop the member.
"""

from __future__ import annotations

import enum
import uuid
from base64 import urlsafe_b64encode
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from consumer_group.structs import Generation, GroupError, TopicPartition
from kafka_wire.client.kafka_client import Backoff
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2
PROTOCOL_NAME = "consumer"  # the protocol name a Generation of this machine carries

COORDINATOR_ERRORS = frozenset({ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE})
FENCED_ERRORS = frozenset({ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.FENCED_MEMBER_EPOCH})
# errors after which the member cannot go on (Kafka's HeartbeatRequestManager treats them as fatal)
FATAL_ERRORS = frozenset(
    {
        ErrorCode.FENCED_INSTANCE_ID,
        ErrorCode.UNRELEASED_INSTANCE_ID,
        ErrorCode.GROUP_AUTHORIZATION_FAILED,
        ErrorCode.TOPIC_AUTHORIZATION_FAILED,
        ErrorCode.INVALID_REQUEST,
        ErrorCode.UNSUPPORTED_ASSIGNOR,
        ErrorCode.UNSUPPORTED_VERSION,
        ErrorCode.GROUP_MAX_SIZE_REACHED,
        ErrorCode.INVALID_REGULAR_EXPRESSION,
    }
)


class ConsumerMemberState(enum.Enum):
    JOINING = "Joining"  # epoch 0 heartbeat due or in flight
    RECONCILING = "Reconciling"  # a target assignment to reach (callbacks to run)
    ACKNOWLEDGING = "Acknowledging"  # reconciled: the next heartbeat tells the coordinator at once
    STABLE = "Stable"
    FENCED = "Fenced"  # partitions to drop (lost) before rejoining with epoch 0
    PREPARE_LEAVING = "PrepareLeaving"  # revoke before the leave heartbeat
    LEAVING = "Leaving"  # the leave heartbeat is due or in flight
    LEFT = "Left"
    FATAL = "Fatal"


class CallbackKind(enum.Enum):
    REVOKED = "revoked"
    ASSIGNED = "assigned"
    LOST = "lost"


@dataclass(frozen=True)
class SendHeartbeat:
    request: cgh.ConsumerGroupHeartbeatRequest


@dataclass(frozen=True)
class FindCoordinator:
    pass


@dataclass(frozen=True)
class ResolveTopicIds:
    topic_ids: frozenset[bytes]
    topic_names: tuple[str, ...]  # the subscription: most ids resolve from these names


@dataclass(frozen=True)
class InvokeCallback:
    kind: CallbackKind
    partitions: frozenset[TopicPartition]


@dataclass(frozen=True)
class Fail:
    error: GroupError
    lost: frozenset[TopicPartition]  # owned when the member failed: the driver reports them lost


Action = SendHeartbeat | FindCoordinator | ResolveTopicIds | InvokeCallback | Fail


def new_member_id() -> str:
    """A random member id as the Java client makes it (Uuid.toString: url-safe base64, 22 chars)."""
    return urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


def _code(value: int) -> ErrorCode:
    try:
        return ErrorCode(value)
    except ValueError:
        return ErrorCode.UNKNOWN_SERVER_ERROR


class ConsumerMemberMachine:
    """One KIP-848 member's state: events in, actions out; see the module docstring.

    At most one heartbeat is in flight, at most one callback and one topic-id lookup outstanding.
    """

    def __init__(
        self,
        group_id: str,
        topics: Iterable[str],
        *,
        member_id: str | None = None,
        instance_id: str | None = None,
        rack_id: str | None = None,
        rebalance_timeout_ms: int = 300_000,
        server_assignor: str | None = None,
        retry_backoff_ms: int = 100,
        retry_backoff_max_ms: int = 1_000,
    ) -> None:
        self.group_id = group_id
        self.member_id = member_id or new_member_id()
        self.instance_id = instance_id
        self.rack_id = rack_id
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.server_assignor = server_assignor
        self.topics: tuple[str, ...] = tuple(sorted(set(topics)))
        self.state = ConsumerMemberState.JOINING
        self.member_epoch = 0
        self.heartbeat_interval_ms = 0
        self.owned: frozenset[TopicPartition] = frozenset()
        self.error: GroupError | None = None
        self.rebalances = 0  # completed reconciliations (observability, tests)
        self._backoff = Backoff(retry_backoff_ms, retry_backoff_max_ms)
        self._next_heartbeat_ms = 0.0
        self._heartbeat_in_flight = False
        self._coordinator_known = False
        self._finding_coordinator = False
        self._coordinator_retry_ms = 0.0
        self._target: dict[bytes, frozenset[int]] | None = None  # latest assignment, by topic id
        self._names: dict[bytes, str] = {}  # topic id -> name
        self._resolving: frozenset[bytes] | None = None  # ids of the lookup in progress
        self._unresolvable: frozenset[bytes] = frozenset()  # looked up for this target, unknown
        self._callback: InvokeCallback | None = None  # outstanding callback
        self._send_leave = True
        self._leave_in_flight = False
        self._leave_epoch = LEAVE_GROUP_MEMBER_EPOCH
        self._fail_reported = False

    # --- what the driver and the application read ------------------------------------------

    @property
    def done(self) -> bool:
        """Left, or failed and the failure handed to the driver: nothing more will happen."""
        return self.state is ConsumerMemberState.LEFT or self._fail_reported

    @property
    def ready(self) -> bool:
        """Reconciled with the latest target and its callbacks run (the classic member's "ready")."""
        return self.state in (ConsumerMemberState.STABLE, ConsumerMemberState.ACKNOWLEDGING) and self._callback is None

    def generation(self) -> Generation:
        """The member epoch as a Generation: commits carry it (OffsetCommit v9 member epoch)."""
        epoch = self.member_epoch if self.member_epoch > 0 else -1
        return Generation(epoch, self.member_id, PROTOCOL_NAME, self.instance_id)

    def next_wakeup_ms(self, now_ms: float) -> float:
        """When `poll` may have something new to do without any event."""
        if not self._coordinator_known:
            return self._coordinator_retry_ms
        return self._next_heartbeat_ms

    # --- events ---------------------------------------------------------------------------

    def subscribe(self, topics: Iterable[str], now_ms: float) -> None:
        new = tuple(sorted(set(topics)))
        if new != self.topics:
            self.topics = new
            self._next_heartbeat_ms = now_ms  # the coordinator computes a new target

    def leave(self, now_ms: float, *, send: bool = True, permanent: bool = False) -> None:
        """Start leaving: revoke what is owned, then (if `send`) the leave heartbeat: epoch -2 for
        a static member unless `permanent`, -1 otherwise."""
        if self.state in (
            ConsumerMemberState.PREPARE_LEAVING,
            ConsumerMemberState.LEAVING,
            ConsumerMemberState.LEFT,
            ConsumerMemberState.FATAL,
        ):
            return
        self._send_leave = send and (self.member_epoch > 0 or self._heartbeat_in_flight)
        self._leave_epoch = (
            LEAVE_GROUP_STATIC_MEMBER_EPOCH
            if self.instance_id is not None and not permanent
            else LEAVE_GROUP_MEMBER_EPOCH
        )
        self.state = ConsumerMemberState.PREPARE_LEAVING
        self._next_heartbeat_ms = now_ms

    def on_coordinator_found(self, now_ms: float) -> None:
        self._finding_coordinator = False
        self._coordinator_known = True

    def on_coordinator_failed(self, now_ms: float) -> None:
        self._finding_coordinator = False
        self._coordinator_known = False
        self._coordinator_retry_ms = now_ms + self._backoff.next_ms()

    def on_heartbeat_failed(self, now_ms: float) -> None:
        """The heartbeat got no answer (connection broke, timeout): find the coordinator again."""
        self._heartbeat_in_flight = False
        if self._leave_in_flight:
            self._leave_in_flight = False
            self.state = ConsumerMemberState.LEFT  # the session expires instead
            return
        self.on_coordinator_failed(now_ms)
        self._next_heartbeat_ms = now_ms

    def on_heartbeat_response(self, error_code: int, now_ms: float, **fields: object) -> None:
        """A ConsumerGroupHeartbeat answer: `member_id`, `member_epoch`, `heartbeat_interval_ms`,
        `assignment` ([(topic_id, [partitions])] or None when unchanged), `error_message`."""
        self._heartbeat_in_flight = False
        code = _code(error_code)
        if self._leave_in_flight:
            self._leave_in_flight = False
            self.state = ConsumerMemberState.LEFT  # whatever the answer: the member is gone
            return
        leaving = self.state in (ConsumerMemberState.PREPARE_LEAVING, ConsumerMemberState.LEAVING)
        if code == ErrorCode.NONE:
            self._backoff.attempts = 0
            member_id = fields.get("member_id")
            if isinstance(member_id, str) and member_id:
                self.member_id = member_id
            # a heartbeat response's fields are ints (JSON-like dict from the wire decoder)
            self.member_epoch = int(fields.get("member_epoch", self.member_epoch))  # type: ignore[call-overload]
            # a heartbeat response's fields are ints (JSON-like dict from the wire decoder)
            interval = int(fields.get("heartbeat_interval_ms", 0) or 0)  # type: ignore[call-overload]
            if interval > 0:
                self.heartbeat_interval_ms = interval
            if leaving:
                self._next_heartbeat_ms = now_ms  # the leave heartbeat waited for this answer only
                return
            if self._next_heartbeat_ms <= now_ms:
                self._next_heartbeat_ms = now_ms + self.heartbeat_interval_ms
            assignment = fields.get("assignment")
            if self.state is ConsumerMemberState.FENCED:
                return
            if assignment is not None:
                # assignment holds (topic id, partitions) pairs from the decoded response
                self._target = {bytes(tid): frozenset(int(p) for p in parts) for tid, parts in assignment}  # type: ignore[attr-defined]
                self._unresolvable = frozenset()
                self.state = ConsumerMemberState.RECONCILING
            elif self.state is ConsumerMemberState.JOINING:
                self._target = self._target or {}
                self.state = ConsumerMemberState.RECONCILING
            return
        if leaving:
            self._next_heartbeat_ms = now_ms
            return  # the leave heartbeat follows and settles it
        message = fields.get("error_message") or ""
        if code in FENCED_ERRORS:
            if self.state is not ConsumerMemberState.PREPARE_LEAVING:
                self.state = ConsumerMemberState.FENCED
            self.member_epoch = 0
            self._next_heartbeat_ms = now_ms
            return
        if code in COORDINATOR_ERRORS:
            self.on_coordinator_failed(now_ms)
            self._next_heartbeat_ms = now_ms  # sent as soon as the coordinator is found again
            return
        if code in FATAL_ERRORS:
            self.error = GroupError(
                f"ConsumerGroupHeartbeat for group {self.group_id!r} failed: {code.name}"
                + (f" ({message})" if message else ""),
                code,
            )
            self.state = ConsumerMemberState.FATAL
            return
        # COORDINATOR_LOAD_IN_PROGRESS and anything unexpected: try again after a backoff
        self._next_heartbeat_ms = now_ms + self._backoff.next_ms()

    def on_topic_names(self, names: Mapping[bytes, str]) -> None:
        """Topic ids resolved by a Metadata lookup (ids the broker no longer knows stay unresolved)."""
        asked, self._resolving = self._resolving or frozenset(), None
        self._names.update(names)
        self._unresolvable |= asked - set(names)

    def callback_done(self, now_ms: float) -> None:
        """The outstanding callback returned (or raised: the driver logs it; the member goes on)."""
        cb, self._callback = self._callback, None
        if cb is None:
            return
        if cb.kind is CallbackKind.REVOKED:
            self.owned = self.owned - cb.partitions
        elif cb.kind is CallbackKind.ASSIGNED:
            self.owned = self.owned | cb.partitions
        else:  # LOST
            self.owned = frozenset()
        if self.state is ConsumerMemberState.FENCED and not self.owned:
            self._rejoin(now_ms)

    # --- actions --------------------------------------------------------------------------

    def poll(self, now_ms: float) -> list[Action]:
        """The next actions; call again after each event.

        While a callback is out (the driver runs it on another thread, as Kafka's application
        thread runs them) a reconciling member still heartbeats, reporting the partitions it still
        owns: a revocation may take up to the rebalance timeout (e.g. to finish and commit work on
        them first) without the session expiring. Nothing else moves until the callback returns.
        """
        if self.done:
            return []
        if self._callback is not None:
            if self.state is not ConsumerMemberState.RECONCILING:
                return []
            return self._keep_alive(now_ms)
        if self.state is ConsumerMemberState.FATAL:
            self._fail_reported = True
            lost, self.owned = self.owned, frozenset()
            assert self.error is not None
            return [Fail(self.error, lost)]
        if self.state is ConsumerMemberState.FENCED:
            if self.owned:
                return [self._invoke(CallbackKind.LOST, self.owned)]
            self._rejoin(now_ms)
        if self.state is ConsumerMemberState.PREPARE_LEAVING:
            if self.owned:
                return [self._invoke(CallbackKind.REVOKED, self.owned)]
            if not self._send_leave:
                self.state = ConsumerMemberState.LEFT
                return []
            self.state = ConsumerMemberState.LEAVING
            self._next_heartbeat_ms = now_ms
        if self.state is ConsumerMemberState.RECONCILING:
            step = self._reconcile(now_ms)
            if step is not None:
                return [step]
        return self._keep_alive(now_ms)

    # --- internals ------------------------------------------------------------------------

    def _keep_alive(self, now_ms: float) -> list[Action]:
        """Find the coordinator, or send the heartbeat when it is due."""
        if not self._coordinator_known:
            if self._finding_coordinator or now_ms < self._coordinator_retry_ms:
                return []
            self._finding_coordinator = True
            return [FindCoordinator()]
        if self._heartbeat_in_flight or now_ms < self._next_heartbeat_ms:
            return []
        return [self._heartbeat(now_ms)]

    def _invoke(self, kind: CallbackKind, partitions: frozenset[TopicPartition]) -> InvokeCallback:
        self._callback = InvokeCallback(kind, partitions)
        return self._callback

    def _rejoin(self, now_ms: float) -> None:
        self.member_epoch = 0
        self._target = None
        self.state = ConsumerMemberState.JOINING
        self._next_heartbeat_ms = now_ms

    def _reconcile(self, now_ms: float) -> Action | None:
        """One step towards the target: resolve names, revoke, assign, then acknowledge."""
        target = self._target or {}
        if self._resolving is not None:
            return None
        unresolved = frozenset(tid for tid in target if tid not in self._names and tid not in self._unresolvable)
        if unresolved:
            self._resolving = unresolved
            return ResolveTopicIds(unresolved, self.topics)
        # a topic id no Metadata knows (deleted meanwhile) is skipped until the next target
        wanted = frozenset(
            TopicPartition(self._names[tid], p) for tid, parts in target.items() if tid in self._names for p in parts
        )
        revoked = self.owned - wanted
        if revoked:  # revoke before assign: nothing is owned by two members at once
            return self._invoke(CallbackKind.REVOKED, revoked)
        added = wanted - self.owned
        if added:
            return self._invoke(CallbackKind.ASSIGNED, added)
        self.state = ConsumerMemberState.ACKNOWLEDGING
        self.rebalances += 1
        self._next_heartbeat_ms = now_ms  # tell the coordinator at once (it waits for revocations)
        return None

    def _heartbeat(self, now_ms: float) -> SendHeartbeat:
        self._heartbeat_in_flight = True
        self._next_heartbeat_ms = now_ms + max(self.heartbeat_interval_ms, 1)
        if self.state is ConsumerMemberState.LEAVING:
            self._leave_in_flight = True
            return SendHeartbeat(
                cgh.ConsumerGroupHeartbeatRequest(
                    group_id=self.group_id,
                    member_id=self.member_id,
                    member_epoch=self._leave_epoch,
                    instance_id=self.instance_id,
                )
            )
        if self.state is ConsumerMemberState.ACKNOWLEDGING:
            self.state = ConsumerMemberState.STABLE
        ids = {name: tid for tid, name in self._names.items()}
        by_topic: dict[bytes, list[int]] = {}
        for tp in self.owned:
            by_topic.setdefault(ids[tp.topic], []).append(tp.partition)
        # the full request every time: valid at any epoch, and it heals a lost earlier one
        return SendHeartbeat(
            cgh.ConsumerGroupHeartbeatRequest(
                group_id=self.group_id,
                member_id=self.member_id,
                member_epoch=self.member_epoch,
                instance_id=self.instance_id,
                rack_id=self.rack_id,
                rebalance_timeout_ms=self.rebalance_timeout_ms,
                subscribed_topic_names=list(self.topics),
                server_assignor=self.server_assignor,
                topic_partitions=[
                    cgh.TopicPartitions(topic_id=tid, partitions=sorted(ps)) for tid, ps in sorted(by_topic.items())
                ],
            )
        )


__all__ = [
    "Action",
    "CallbackKind",
    "ConsumerMemberMachine",
    "ConsumerMemberState",
    "Fail",
    "FindCoordinator",
    "InvokeCallback",
    "ResolveTopicIds",
    "SendHeartbeat",
    "new_member_id",
]
