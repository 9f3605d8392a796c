"""The client side of Kafka's classic group protocol: `GroupMember`.

Threading model (KIP-62 style, so slow processing never evicts the member):

- the *group thread* runs the membership state machine: FindCoordinator, JoinGroup (with the
  MEMBER_ID_REQUIRED round trip of v4+), the leader's assignment (Metadata + assignor), SyncGroup,
  the periodic metadata check and LeaveGroup on close. All user callbacks
  (`on_partitions_revoked/assigned/lost`) run on this thread, in Kafka's order.
- the *heartbeat thread* sends Heartbeat every `heartbeat_interval_ms` on its own connection
  while the member is Stable or waiting for its SyncGroup; REBALANCE_IN_PROGRESS makes the group thread rejoin,
  UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION make it drop its partitions (`on_partitions_lost`) and
  rejoin, FENCED_INSTANCE_ID is fatal, coordinator errors trigger rediscovery.
- the caller's threads use `assignment()`, `generation()`, `wait_for_assignment()`, `commit()`
  and `committed()`; commits and offset fetches share a third connection under a lock, so a
  callback may commit while the group thread is waiting for it.

Each connection is owned by exactly one of these users: `BrokerConnection` is blocking and
answers one request at a time.

Rebalance protocol: cooperative (KIP-429) when every configured assignor supports it (only
`cooperative-sticky` does), eager otherwise, the same rule as the Java client. Eager members
revoke everything before they rejoin; cooperative members keep their partitions, revoke only what
the new assignment takes away and then rejoin once more so the partition can move.

Why this file is over 800 lines: it is one class, `GroupMember`, whose group thread, heartbeat
thread and callers share one lock (`_cond`) and one state machine; nearly every method reads or
moves that state under the lock. Split across files, the rule of who may change what while
holding the lock would be spread out of sight; the wire helpers it need not own already live in
`kafka_wire.client` and `consumer_group.protocol`.
"""

from __future__ import annotations

import enum
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from consumer_group._connection import BrokerUnavailableError, Connection, parse_bootstrap
from consumer_group.assignors import Assignor, get_assignor
from consumer_group.protocol import (
    CONSUMER_PROTOCOL_TYPE,
    HIGHEST_ASSIGNMENT_VERSION,
    HIGHEST_SUBSCRIPTION_VERSION,
    Assignment,
    Subscription,
    decode_assignment,
    decode_subscription,
    encode_assignment,
    encode_subscription,
)
from consumer_group.structs import (
    NO_GENERATION,
    CommitFailedError,
    CoordinatorNotAvailableError,
    FencedInstanceIdError,
    Generation,
    GroupError,
    GroupMemberClosedError,
    MemberSubscription,
    OffsetAndMetadata,
    RebalanceInProgressError,
    TopicPartition,
)
from kafka_wire.client.coordinator import find_coordinator_body, find_coordinator_result
from kafka_wire.client.security import PLAINTEXT, SecurityConfig
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.protocol.messages import (
    heartbeat_request,
    join_group_request,
    leave_group_request,
    metadata_request,
    offset_commit_request,
    offset_fetch_request,
    sync_group_request,
)

log = logging.getLogger(__name__)

PartitionsCallback = Callable[[frozenset[TopicPartition]], None]

API_METADATA = 3
API_OFFSET_COMMIT = 8
API_OFFSET_FETCH = 9
API_FIND_COORDINATOR = 10
API_JOIN_GROUP = 11
API_HEARTBEAT = 12
API_LEAVE_GROUP = 13
API_SYNC_GROUP = 14

# OffsetCommit/OffsetFetch v10 address topics by id only; the group protocol works with names
MAX_OFFSET_COMMIT_VERSION = 9
MAX_OFFSET_FETCH_VERSION = 9
MAX_METADATA_VERSION = 12

COORDINATOR_ERRORS = frozenset(
    {ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS}
)
GROUP_PROTOCOLS = frozenset({"classic", "consumer"})
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


class _CoordinatorLost(Exception):
    """Internal: forget the coordinator and find it again (after a backoff)."""


class _RetryJoin(Exception):
    """Internal: the join/sync round failed in a retriable way; rejoin after a short backoff."""


class _Backoff:
    """Exponential backoff with jitter, as Kafka's retry.backoff.ms / retry.backoff.max.ms."""

    def __init__(self, initial_ms: int, max_ms: int) -> None:
        self.initial = initial_ms / 1000.0
        self.max = max(max_ms, initial_ms) / 1000.0
        self.attempts = 0

    def next(self) -> float:
        delay = min(self.max, self.initial * (2**self.attempts))
        self.attempts += 1
        return delay * random.uniform(0.8, 1.2)

    def reset(self) -> None:
        self.attempts = 0


class GroupMember:
    """A member of a Kafka consumer group, kept alive by background threads.

    ::

        with GroupMember("127.0.0.1:9092", "my-group", ["events"]) as member:
            parts = member.wait_for_assignment(timeout=30)
            gen = member.generation()
            ...  # process `parts`
            member.commit({tp: next_offset}, generation=gen)  # refused if the group moved on

    Parameters use Kafka's consumer config names: `session_timeout_ms` (session.timeout.ms),
    `rebalance_timeout_ms` (max.poll.interval.ms: how long the coordinator waits for us to
    rejoin, so also the time budget of the revocation callback), `heartbeat_interval_ms`,
    `group_instance_id` (static membership, KIP-345), `metadata_max_age_ms` (how often the leader
    checks subscribed topics for new partitions), `assignors` (partition.assignment.strategy, in
    preference order). `group_protocol="consumer"` (group.protocol) speaks KIP-848's
    ConsumerGroupHeartbeat instead, the coordinator assigning (`group_remote_assignor`,
    group.remote.assignor): see `consumer_group.consumer_driver`; the default stays classic.
    """

    def __new__(cls, *args: Any, group_protocol: str = "classic", **kwargs: Any) -> GroupMember:
        # group.protocol=consumer: the same API, driven by the KIP-848 machine (consumer_driver.py)
        if cls is GroupMember and group_protocol == "consumer":
            from consumer_group.consumer_driver import ConsumerProtocolMember

            return super().__new__(ConsumerProtocolMember)
        return super().__new__(cls)

    def __init__(
        self,
        bootstrap_servers: str | Sequence[str],
        group_id: str,
        topics: Iterable[str],
        *,
        assignors: Sequence[str | Assignor] = ("range", "cooperative-sticky"),
        session_timeout_ms: int = 45_000,
        rebalance_timeout_ms: int = 300_000,
        heartbeat_interval_ms: int = 3_000,
        group_instance_id: str | None = None,
        client_id: str = "pykafka",
        rack_id: str | None = None,
        metadata_max_age_ms: int = 300_000,
        request_timeout_ms: int = 30_000,
        retry_backoff_ms: int = 100,
        retry_backoff_max_ms: int = 1_000,
        subscription_version: int = HIGHEST_SUBSCRIPTION_VERSION,
        on_partitions_revoked: PartitionsCallback | None = None,
        on_partitions_assigned: PartitionsCallback | None = None,
        on_partitions_lost: PartitionsCallback | None = None,
        security: SecurityConfig = PLAINTEXT,
        group_protocol: str = "classic",
        group_remote_assignor: str | None = None,
    ) -> None:
        if group_protocol not in GROUP_PROTOCOLS:
            raise ValueError(f"group_protocol must be one of {sorted(GROUP_PROTOCOLS)}, not {group_protocol!r}")
        if not group_id:
            raise ValueError("group_id must not be empty")
        if heartbeat_interval_ms >= session_timeout_ms:
            raise ValueError("heartbeat_interval_ms must be smaller than session_timeout_ms")
        self.bootstrap = parse_bootstrap(bootstrap_servers)
        self.group_id = group_id
        self.assignors: list[Assignor] = [get_assignor(a) for a in assignors]
        if not self.assignors:
            raise ValueError("at least one assignor is needed")
        if len({a.name for a in self.assignors}) != len(self.assignors):
            raise ValueError("assignor names must be unique")
        self.rebalance_protocol = (
            RebalanceProtocol.COOPERATIVE
            if all(a.supports_cooperative for a in self.assignors)
            else RebalanceProtocol.EAGER
        )
        self.session_timeout_ms = session_timeout_ms
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.security = security  # security.protocol, SASL and TLS settings (kafka_wire.client.security)
        self.rack_id = rack_id
        self.metadata_max_age_ms = metadata_max_age_ms
        self.request_timeout_ms = request_timeout_ms
        self.retry_backoff_ms = retry_backoff_ms
        self.retry_backoff_max_ms = retry_backoff_max_ms
        self.subscription_version = subscription_version
        self.on_partitions_revoked = on_partitions_revoked
        self.on_partitions_assigned = on_partitions_assigned
        self.on_partitions_lost = on_partitions_lost
        self.group_protocol = group_protocol  # group.protocol: "classic" or "consumer" (KIP-848)
        self.group_remote_assignor = group_remote_assignor  # group.remote.assignor (consumer protocol)

        self._cond = threading.Condition(threading.RLock())
        # --- everything below is guarded by self._cond ---
        self._topics: tuple[str, ...] = tuple(sorted(set(topics)))
        self._state = MemberState.UNJOINED
        self._generation = Generation(group_instance_id=group_instance_id)
        self._assignment: frozenset[TopicPartition] = frozenset()
        # eager `sticky` reports the previous assignment (and its generation) in its user data
        self._previous_assignment: frozenset[TopicPartition] = frozenset()
        self._previous_generation = -1
        self._ready = False  # Stable, no rejoin pending, callbacks of the last sync done
        self._rejoin_reason: str | None = "initial join"
        self._lost: tuple[ErrorCode, Generation] | None = None
        self._coordinator: tuple[int, str, int] | None = None
        self._closing = False
        self._leave_on_close = group_instance_id is None
        self._failure: BaseException | None = None
        self._is_leader = False
        self._leader_topics: frozenset[str] = frozenset()  # the group's subscription (leader only)
        self._leader_snapshot: dict[str, int] | None = None  # partition counts the leader assigned
        self._next_metadata_check = 0.0
        self._last_heartbeat_ok = 0.0
        self._rebalances = 0
        self._join_conn: Connection | None = None  # owned by the group thread
        # --- end of guarded state ---
        self._client_lock = threading.Lock()  # commit()/committed() connection
        self._client_conn: Connection | None = None
        self._group_thread: threading.Thread | None = None
        self._heartbeat_thread: threading.Thread | None = None

    # -----------------------------------------------------------------------------------------
    # public API
    # -----------------------------------------------------------------------------------------

    def start(self) -> GroupMember:
        """Start the group and heartbeat threads (idempotent)."""
        with self._cond:
            if self._closing:
                raise GroupMemberClosedError("the member is closed")
            if self._group_thread is not None:
                return self
            self._group_thread = threading.Thread(
                target=self._run_group_thread, name=f"pykafka-group-{self.group_id}", daemon=True
            )
            self._heartbeat_thread = threading.Thread(
                target=self._run_heartbeat_thread, name=f"pykafka-heartbeat-{self.group_id}", daemon=True
            )
        self._group_thread.start()
        self._heartbeat_thread.start()
        return self

    def __enter__(self) -> GroupMember:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def state(self) -> MemberState:
        with self._cond:
            return self._state

    @property
    def is_leader(self) -> bool:
        with self._cond:
            return self._is_leader

    @property
    def rebalance_count(self) -> int:
        """Completed join/sync rounds of this member (for observability and tests)."""
        with self._cond:
            return self._rebalances

    @property
    def last_heartbeat_time(self) -> float:
        """`time.monotonic()` of the last successful heartbeat (or of the last completed sync)."""
        with self._cond:
            return self._last_heartbeat_ok

    def subscription(self) -> tuple[str, ...]:
        with self._cond:
            return self._topics

    def assignment(self) -> frozenset[TopicPartition]:
        """The partitions this member owns right now (empty while an eager rebalance runs)."""
        with self._cond:
            return self._assignment

    def generation(self) -> Generation:
        """The generation the member is in (NO_GENERATION-like when it is not in one)."""
        with self._cond:
            return self._generation

    def is_stable(self) -> bool:
        """Stable, no rejoin pending, and the callbacks of the last assignment have run."""
        with self._cond:
            return self._ready

    def wait_for_assignment(self, timeout: float | None = None) -> frozenset[TopicPartition]:
        """Block until the member is Stable with its callbacks done; return its assignment."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._ready:
                self._raise_if_unusable()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(
                        f"group {self.group_id!r}: no stable assignment within {timeout} s "
                        f"(state {self._state.value}, rejoin reason {self._rejoin_reason!r})"
                    )
                self._cond.wait(1.0 if remaining is None else min(remaining, 1.0))
            return self._assignment

    def subscribe(self, topics: Iterable[str]) -> None:
        """Change the subscription; the member rejoins so the leader can reassign."""
        new = tuple(sorted(set(topics)))
        with self._cond:
            if new == self._topics:
                return
            self._topics = new
            self._request_rejoin_locked(f"subscription changed to {list(new)}")

    def request_rejoin(self, reason: str = "requested by the application") -> None:
        """Force a rebalance of the whole group (e.g. to unstick a partition, see KAFKA-2978)."""
        with self._cond:
            self._request_rejoin_locked(reason)

    def commit(
        self,
        offsets: Mapping[TopicPartition, int | OffsetAndMetadata],
        *,
        generation: Generation | None = None,
        timeout: float | None = None,
    ) -> None:
        """OffsetCommit fenced by generation: refused unless we are still in that generation.

        `generation` defaults to the current one; pass the one captured when the work started
        (e.g. when a Spark micro-batch was planned) so a commit after a rebalance fails instead of
        overwriting the new owner's progress. Raises `CommitFailedError` (ILLEGAL_GENERATION,
        UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID), `RebalanceInProgressError`, or `GroupError`.
        """
        self._raise_if_unusable()
        gen = generation if generation is not None else self.generation()
        if not gen.is_valid:
            with self._cond:
                rebalancing = self._state in (MemberState.PREPARING_REBALANCE, MemberState.COMPLETING_REBALANCE)
            if rebalancing:
                raise RebalanceInProgressError(f"group {self.group_id!r} is rebalancing; commit after it completes")
            raise CommitFailedError(
                f"group {self.group_id!r}: the member is not in an active generation", ErrorCode.UNKNOWN_MEMBER_ID
            )
        if not offsets:
            return
        by_topic: dict[str, list[tuple[int, OffsetAndMetadata]]] = {}
        for tp, value in sorted(offsets.items()):
            om = value if isinstance(value, OffsetAndMetadata) else OffsetAndMetadata(int(value))
            by_topic.setdefault(tp.topic, []).append((tp.partition, om))

        # consumer protocol without a captured generation: a commit refused as STALE_MEMBER_EPOCH
        # (the epoch moved on, the partitions still ours) is retried with the latest epoch, as Kafka's
        # client does; a captured generation stays fenced to that epoch
        follow_epoch = generation is None and self.group_protocol == "consumer"
        sent = [gen]

        def build(version: int) -> Any:
            rq = offset_commit_request
            g = sent[0] = self.generation() if follow_epoch else gen
            return rq.OffsetCommitRequest(
                group_id=self.group_id,
                generation_id_or_member_epoch=g.generation_id,
                member_id=g.member_id,
                group_instance_id=g.group_instance_id,
                retention_time_ms=-1,
                topics=[
                    rq.OffsetCommitRequestTopic(
                        name=topic,
                        partitions=[
                            rq.OffsetCommitRequestPartition(
                                partition_index=p,
                                committed_offset=om.offset,
                                committed_leader_epoch=om.leader_epoch,
                                committed_metadata=om.metadata,
                            )
                            for p, om in parts
                        ],
                    )
                    for topic, parts in by_topic.items()
                ],
            )

        def handle(resp: Any) -> bool:
            errors: dict[TopicPartition, ErrorCode] = {}
            for t in resp.topics or ():
                for p in t.partitions or ():
                    if p.error_code != ErrorCode.NONE:
                        errors[TopicPartition(t.name, p.partition_index)] = _code(p.error_code)
            if not errors:
                return True
            codes = set(errors.values())
            fencing = codes & FENCING_ERRORS
            if fencing:
                code = min(fencing)
                self._member_fenced(code, gen, "OffsetCommit")
                raise CommitFailedError(
                    f"group {self.group_id!r} refused the commit of generation {gen.generation_id} "
                    f"(member {gen.member_id}): {code.name}; the partitions may have moved to another member",
                    code,
                )
            if ErrorCode.STALE_MEMBER_EPOCH in codes:  # consumer protocol: the epoch moved on
                if follow_epoch and sent[0].is_valid:
                    return False
                raise CommitFailedError(
                    f"group {self.group_id!r} refused the commit of member epoch {sent[0].generation_id}: "
                    "STALE_MEMBER_EPOCH",
                    ErrorCode.STALE_MEMBER_EPOCH,
                )
            if ErrorCode.REBALANCE_IN_PROGRESS in codes:
                with self._cond:
                    if self._generation == gen and self._state == MemberState.STABLE:
                        self._request_rejoin_locked("OffsetCommit: rebalance in progress")
                raise RebalanceInProgressError(f"group {self.group_id!r} is rebalancing; commit refused")
            if codes & COORDINATOR_ERRORS:
                raise _CoordinatorLost(min(codes & COORDINATOR_ERRORS).name)
            tp, code = sorted(errors.items())[0]
            raise GroupError(f"OffsetCommit failed for {tp}: {code.name}", code)

        self._client_call(API_OFFSET_COMMIT, MAX_OFFSET_COMMIT_VERSION, build, handle, timeout)

    def committed(
        self, partitions: Iterable[TopicPartition], *, timeout: float | None = None
    ) -> dict[TopicPartition, OffsetAndMetadata | None]:
        """OffsetFetch (require_stable): the group's committed offsets, None where none is stored."""
        self._raise_if_unusable()
        wanted = sorted(set(partitions))
        if not wanted:
            return {}
        by_topic: dict[str, list[int]] = {}
        for tp in wanted:
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        result: dict[TopicPartition, OffsetAndMetadata | None] = {}

        def build(version: int) -> Any:
            rq = offset_fetch_request
            if version >= 8:
                return rq.OffsetFetchRequest(
                    groups=[
                        rq.OffsetFetchRequestGroup(
                            group_id=self.group_id,
                            topics=[
                                rq.OffsetFetchRequestTopics(name=t, partition_indexes=ps) for t, ps in by_topic.items()
                            ],
                        )
                    ],
                    require_stable=True,
                )
            return rq.OffsetFetchRequest(
                group_id=self.group_id,
                topics=[rq.OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()],
                require_stable=True,
            )

        def handle(resp: Any) -> bool:
            if resp.groups:
                group = resp.groups[0]
                top_error, topics = _code(group.error_code), group.topics
            else:
                top_error, topics = _code(resp.error_code), resp.topics
            if top_error in COORDINATOR_ERRORS:
                raise _CoordinatorLost(top_error.name)
            if top_error == ErrorCode.UNSTABLE_OFFSET_COMMIT:
                return False
            if top_error != ErrorCode.NONE:
                raise GroupError(f"OffsetFetch failed: {top_error.name}", top_error)
            result.clear()
            for t in topics or ():
                for p in t.partitions or ():
                    code = _code(p.error_code)
                    if code == ErrorCode.UNSTABLE_OFFSET_COMMIT:
                        return False  # a transactional commit is pending: retry (KIP-447)
                    if code in COORDINATOR_ERRORS:
                        raise _CoordinatorLost(code.name)
                    if code not in (ErrorCode.NONE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION):
                        raise GroupError(f"OffsetFetch failed for {t.name}-{p.partition_index}: {code.name}", code)
                    tp = TopicPartition(t.name, p.partition_index)
                    if code == ErrorCode.NONE and p.committed_offset >= 0:
                        result[tp] = OffsetAndMetadata(p.committed_offset, p.metadata or "", p.committed_leader_epoch)
            return True

        self._client_call(API_OFFSET_FETCH, MAX_OFFSET_FETCH_VERSION, build, handle, timeout)
        return {tp: result.get(tp) for tp in wanted}

    def close(self, timeout: float = 30.0, *, leave_group: bool | None = None) -> None:
        """Revoke (callback), send LeaveGroup and stop the threads.

        Static members (group.instance.id) do not leave by default: a restart within the
        session timeout then gets its partitions back without a rebalance (KIP-345).
        """
        with self._cond:
            if leave_group is not None:
                self._leave_on_close = leave_group
            self._closing = True
            join_conn = (
                self._join_conn
                if self._state
                in (
                    MemberState.PREPARING_REBALANCE,
                    MemberState.COMPLETING_REBALANCE,
                )
                else None
            )
            if self._group_thread is None:
                self._state = MemberState.CLOSED
            self._cond.notify_all()
        if join_conn is not None:
            join_conn.abort()  # a JoinGroup may block for the whole rebalance timeout
        group_thread, heartbeat_thread = self._group_thread, self._heartbeat_thread
        if group_thread is not None and threading.current_thread() not in (group_thread, heartbeat_thread):
            group_thread.join(timeout)
            if heartbeat_thread is not None:
                heartbeat_thread.join(max(1.0, timeout / 4))
        with self._client_lock:
            if self._client_conn is not None:
                self._client_conn.close()
                self._client_conn = None

    # -----------------------------------------------------------------------------------------
    # shared helpers
    # -----------------------------------------------------------------------------------------

    def _raise_if_unusable(self) -> None:
        with self._cond:
            if self._failure is not None:
                raise GroupMemberClosedError(f"group member failed: {self._failure}") from self._failure
            if self._state == MemberState.CLOSED:
                raise GroupMemberClosedError("the member is closed")

    def _request_rejoin_locked(self, reason: str) -> None:
        if self._rejoin_reason is None:
            log.info("group %s member %s: rejoin needed: %s", self.group_id, self._generation.member_id, reason)
            self._rejoin_reason = reason
        self._ready = False
        self._cond.notify_all()

    def _member_fenced(self, code: ErrorCode, gen: Generation, source: str) -> None:
        """The coordinator no longer knows `gen`: have the group thread drop partitions, rejoin."""
        with self._cond:
            if (
                self._generation == gen
                and self._state == MemberState.STABLE
                and self._lost is None
                and not self._closing
            ):
                log.warning("group %s: %s: %s for generation %s", self.group_id, source, code.name, gen.generation_id)
                self._lost = (code, gen)
                self._ready = False
                self._cond.notify_all()

    def _mark_coordinator_unknown(self, node: tuple[int, str, int] | None, reason: str) -> None:
        with self._cond:
            if node is None or self._coordinator == node:
                if self._coordinator is not None:
                    log.info("group %s: coordinator %s marked unknown: %s", self.group_id, self._coordinator, reason)
                self._coordinator = None
                self._cond.notify_all()

    def _connect(self, host: str, port: int) -> Connection:
        return Connection(host, port, self.client_id, self.request_timeout_ms / 1000.0, self.security)

    def _find_coordinator(self, timeout: float) -> tuple[int, str, int]:
        """FindCoordinator against the bootstrap servers (any broker knows the coordinator)."""
        last: Exception | None = None
        for host, port in self.bootstrap:
            try:
                conn = self._connect(host, port)
            except BrokerUnavailableError as e:
                last = e
                continue
            try:
                v = conn.version(API_FIND_COORDINATOR)
                body = find_coordinator_body(v, self.group_id)
                resp = conn.request(API_FIND_COORDINATOR, body, v, timeout)
            except BrokerUnavailableError as e:
                last = e
                continue
            finally:
                conn.close()
            code, node_id, host, port = find_coordinator_result(v, resp)
            node = (node_id, host, port)
            if code == ErrorCode.NONE:
                return node
            if code in COORDINATOR_ERRORS:
                raise _CoordinatorLost(f"FindCoordinator: {code.name}")
            raise GroupError(f"FindCoordinator for group {self.group_id!r} failed: {code.name}", code)
        raise _CoordinatorLost(f"no bootstrap server reachable: {last}")

    def _client_call(
        self,
        api_key: int,
        max_version: int,
        build: Callable[[int], Any],
        handle: Callable[[Any], bool],
        timeout: float | None,
    ) -> None:
        """Send a coordinator request from a caller's thread, retrying coordinator errors."""
        budget = self.request_timeout_ms / 1000.0 if timeout is None else timeout
        deadline = time.monotonic() + budget
        backoff = _Backoff(self.retry_backoff_ms, self.retry_backoff_max_ms)
        last_error = "no attempt"
        with self._client_lock:
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise CoordinatorNotAvailableError(
                        f"group {self.group_id!r}: coordinator request {api_key} timed out: {last_error}"
                    )
                node: tuple[int, str, int] | None = None
                try:
                    with self._cond:
                        node = self._coordinator
                    if node is None:
                        node = self._find_coordinator(remaining)
                        with self._cond:
                            if self._coordinator is None:
                                self._coordinator = node
                                self._cond.notify_all()
                    conn = self._client_conn
                    if conn is None or conn.closed or (conn.host, conn.port) != (node[1], node[2]):
                        if conn is not None:
                            conn.close()
                        conn = self._client_conn = self._connect(node[1], node[2])
                    version = conn.version(api_key, max_version)
                    resp = conn.request(api_key, build(version), version, max(0.1, remaining))
                    if handle(resp):
                        return
                    last_error = "retriable error"
                except (_CoordinatorLost, BrokerUnavailableError) as e:
                    last_error = str(e)
                    self._mark_coordinator_unknown(node, f"request {api_key}: {e}")
                time.sleep(min(backoff.next(), max(0.0, deadline - time.monotonic())))

    def _invoke(self, callback: PartitionsCallback | None, name: str, partitions: frozenset[TopicPartition]) -> None:
        if callback is None:
            return
        log.info("group %s: %s %s", self.group_id, name, sorted(partitions))
        try:
            callback(partitions)
        except Exception:  # a failing listener must not kill the membership
            log.exception("group %s: %s callback failed", self.group_id, name)

    def _sleep(self, seconds: float) -> None:
        """Sleep on the condition so close() and state changes cut the wait short."""
        deadline = time.monotonic() + seconds
        with self._cond:
            while not self._closing:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return
                self._cond.wait(remaining)

    # -----------------------------------------------------------------------------------------
    # the group thread
    # -----------------------------------------------------------------------------------------

    def _run_group_thread(self) -> None:
        backoff = _Backoff(self.retry_backoff_ms, self.retry_backoff_max_ms)
        try:
            while True:
                with self._cond:
                    if self._closing:
                        break
                    lost = self._lost
                try:
                    if lost is not None:
                        self._handle_lost()
                        continue
                    self._ensure_coordinator()
                    with self._cond:
                        needs_join = self._rejoin_reason is not None or self._state != MemberState.STABLE
                    if needs_join:
                        self._join_and_sync()
                        backoff.reset()
                        continue
                    self._maybe_check_metadata()
                    self._idle_wait()
                except (_CoordinatorLost, BrokerUnavailableError) as e:
                    self._after_failed_round()
                    with self._cond:
                        node = self._coordinator
                    self._mark_coordinator_unknown(node, str(e))
                    self._close_join_conn()
                    self._sleep(backoff.next())
                except _RetryJoin as e:
                    self._after_failed_round()
                    with self._cond:
                        self._request_rejoin_locked(str(e))
                    self._sleep(backoff.next())
                except (FencedInstanceIdError, GroupError, KafkaError) as e:
                    log.error("group %s: fatal error: %s", self.group_id, e)
                    self._fail(e)
                    return
                except Exception as e:  # a bug or an unexpected reply: retry rather than die
                    log.exception("group %s: unexpected error in the group thread", self.group_id)
                    self._after_failed_round()
                    with self._cond:
                        self._request_rejoin_locked(f"unexpected error: {e!r}")
                    self._sleep(backoff.next())
        finally:
            self._shutdown()

    def _after_failed_round(self) -> None:
        with self._cond:
            if self._state in (MemberState.PREPARING_REBALANCE, MemberState.COMPLETING_REBALANCE):
                self._state = MemberState.UNJOINED
                self._cond.notify_all()

    def _fail(self, error: BaseException) -> None:
        with self._cond:
            self._failure = error
            lost = self._assignment
            self._assignment = frozenset()
            self._state = MemberState.FAILED
            self._ready = False
            self._cond.notify_all()
        if lost:
            self._invoke(self.on_partitions_lost, "partitions lost", lost)

    def _ensure_coordinator(self) -> None:
        with self._cond:
            node = self._coordinator
        conn = self._join_conn
        if node is not None and conn is not None and not conn.closed and (conn.host, conn.port) == (node[1], node[2]):
            return
        self._close_join_conn()
        if node is None:
            node = self._find_coordinator(self.request_timeout_ms / 1000.0)
            log.info("group %s: coordinator is node %s at %s:%s", self.group_id, node[0], node[1], node[2])
        conn = self._connect(node[1], node[2])
        with self._cond:
            self._join_conn = conn
            self._coordinator = node
            self._cond.notify_all()

    def _close_join_conn(self) -> None:
        with self._cond:
            conn, self._join_conn = self._join_conn, None
        if conn is not None:
            conn.close()

    def _idle_wait(self) -> None:
        with self._cond:
            timeout = 5.0  # nothing to do until a heartbeat, a caller or close() notifies us
            if self._is_leader and self._leader_snapshot is not None:
                timeout = min(timeout, max(0.05, self._next_metadata_check - time.monotonic()))
            if not (
                self._closing or self._rejoin_reason is not None or self._lost is not None or self._coordinator is None
            ):
                self._cond.wait(timeout)

    def _handle_lost(self) -> None:
        with self._cond:
            lost_info, self._lost = self._lost, None
            if lost_info is None:
                return
            code, gen = lost_info
            if gen != self._generation:
                return  # we already moved to another generation
            lost = self._assignment
            self._assignment = frozenset()
            self._previous_assignment = frozenset()
            self._previous_generation = -1
            member_id = "" if code == ErrorCode.UNKNOWN_MEMBER_ID else gen.member_id
            self._generation = Generation(member_id=member_id, group_instance_id=self.group_instance_id)
            self._state = MemberState.UNJOINED
            self._ready = False
        if lost:
            self._invoke(self.on_partitions_lost, "partitions lost", lost)
        if code == ErrorCode.FENCED_INSTANCE_ID:
            raise FencedInstanceIdError(
                f"group {self.group_id!r}: group.instance.id {self.group_instance_id!r} was fenced by another member"
            )
        with self._cond:
            self._request_rejoin_locked(f"member lost its generation: {code.name}")

    def _reset_generation(self, code: ErrorCode) -> None:
        """UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION during join or sync: partitions are lost."""
        with self._cond:
            lost = self._assignment
            self._assignment = frozenset()
            self._previous_assignment = frozenset()
            self._previous_generation = -1
            member_id = "" if code == ErrorCode.UNKNOWN_MEMBER_ID else self._generation.member_id
            self._generation = Generation(member_id=member_id, group_instance_id=self.group_instance_id)
            self._is_leader = False
        if lost:
            self._invoke(self.on_partitions_lost, "partitions lost", lost)

    # --- join / sync -------------------------------------------------------------------------

    def _join_and_sync(self) -> None:
        conn = self._join_conn
        if conn is None:
            raise _CoordinatorLost("no coordinator connection")
        with self._cond:
            owned = self._assignment
            topics = self._topics
            self._ready = False
        # before rejoining: eager revokes everything; cooperative only what left the subscription
        if self.rebalance_protocol is RebalanceProtocol.EAGER:
            if owned:
                self._invoke(self.on_partitions_revoked, "partitions revoked", owned)
                with self._cond:
                    self._assignment = frozenset()
        else:
            gone = frozenset(tp for tp in owned if tp.topic not in topics)
            if gone:
                self._invoke(self.on_partitions_revoked, "partitions revoked", gone)
                with self._cond:
                    self._assignment = self._assignment - gone
        with self._cond:
            if self._closing:
                return
            reason = self._rejoin_reason or "rejoin"
            self._rejoin_reason = None
            self._state = MemberState.PREPARING_REBALANCE
            self._cond.notify_all()

        join = self._send_join_group(conn, reason)
        with self._cond:
            gen = Generation(join.generation_id, join.member_id, join.protocol_name, self.group_instance_id)
            self._generation = gen
            self._is_leader = join.leader == join.member_id
            self._state = MemberState.COMPLETING_REBALANCE
            self._cond.notify_all()
        log.info(
            "group %s: joined generation %s as %s (%s, protocol %s)",
            self.group_id,
            gen.generation_id,
            gen.member_id,
            "leader" if join.leader == join.member_id else "follower",
            gen.protocol_name,
        )
        assignments: list[sync_group_request.SyncGroupRequestAssignment] = []
        if join.leader == join.member_id and not getattr(join, "skip_assignment", False):
            assignments = self._perform_assignment(conn, gen, join.members or [])
        data = self._send_sync_group(conn, gen, assignments)
        try:
            assignment = decode_assignment(data)
        except ProtocolDecodeError as e:
            raise _RetryJoin(f"undecodable assignment from the leader: {e}") from e
        self._apply_assignment(assignment, gen)

    def _protocols(self) -> list[join_group_request.JoinGroupRequestProtocol]:
        with self._cond:
            topics = self._topics
            owned = self._assignment
            generation_id = self._generation.generation_id
            previous, previous_generation = self._previous_assignment, self._previous_generation
        out = []
        for assignor in self.assignors:
            if self.rebalance_protocol is RebalanceProtocol.COOPERATIVE:
                user_data = assignor.subscription_user_data(owned, generation_id)
            else:  # eager: nothing is owned any more; the previous assignment rides in user data
                user_data = assignor.subscription_user_data(previous, previous_generation)
            sub = Subscription(
                topics=topics,
                user_data=user_data,
                owned_partitions=tuple(sorted(owned)),
                generation_id=generation_id,
                rack_id=self.rack_id,
            )
            out.append(
                join_group_request.JoinGroupRequestProtocol(
                    name=assignor.name, metadata=encode_subscription(sub, self.subscription_version)
                )
            )
        return out

    def _send_join_group(self, conn: Connection, reason: str) -> Any:
        # MEMBER_ID_REQUIRED (v4+) costs one extra round trip; a second one would be a broker bug
        for _ in range(3):
            with self._cond:
                member_id = self._generation.member_id
            body = join_group_request.JoinGroupRequest(
                group_id=self.group_id,
                session_timeout_ms=self.session_timeout_ms,
                rebalance_timeout_ms=self.rebalance_timeout_ms,
                member_id=member_id,
                group_instance_id=self.group_instance_id,
                protocol_type=CONSUMER_PROTOCOL_TYPE,
                protocols=self._protocols(),
                reason=reason[:256],
            )
            version = conn.version(API_JOIN_GROUP)
            # the coordinator parks JoinGroup until every member rejoined: up to the rebalance timeout
            resp = conn.request(API_JOIN_GROUP, body, version, self.rebalance_timeout_ms / 1000.0 + 5.0)
            code = _code(resp.error_code)
            if code == ErrorCode.NONE:
                return resp
            if code == ErrorCode.MEMBER_ID_REQUIRED:
                with self._cond:
                    self._generation = Generation(member_id=resp.member_id, group_instance_id=self.group_instance_id)
                continue
            self._join_or_sync_error("JoinGroup", code)
        raise _RetryJoin("JoinGroup kept answering MEMBER_ID_REQUIRED")

    def _join_or_sync_error(self, what: str, code: ErrorCode) -> None:
        if code in (ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION):
            self._reset_generation(code)
            raise _RetryJoin(f"{what}: {code.name}")
        if code == ErrorCode.REBALANCE_IN_PROGRESS:
            raise _RetryJoin(f"{what}: {code.name}")
        if code in COORDINATOR_ERRORS:
            raise _CoordinatorLost(f"{what}: {code.name}")
        if code == ErrorCode.FENCED_INSTANCE_ID:
            raise FencedInstanceIdError(
                f"{what}: group.instance.id {self.group_instance_id!r} is used by another member"
            )
        raise GroupError(f"{what} for group {self.group_id!r} failed: {code.name}", code)

    def _perform_assignment(
        self, conn: Connection, gen: Generation, members: Sequence[Any]
    ) -> list[sync_group_request.SyncGroupRequestAssignment]:
        assignor = next((a for a in self.assignors if a.name == gen.protocol_name), None)
        if assignor is None:
            raise GroupError(f"the coordinator chose protocol {gen.protocol_name!r}, which we did not offer")
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
        topics = set().union(*(s.topics for s in subs)) if subs else set()
        counts = self._partition_counts(conn, topics)
        result = assignor.assign(counts, subs)
        with self._cond:
            self._leader_topics = frozenset(topics)
            self._leader_snapshot = counts
            self._next_metadata_check = time.monotonic() + self.metadata_max_age_ms / 1000.0
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

    def _partition_counts(self, conn: Connection, topics: Iterable[str]) -> dict[str, int]:
        names = sorted(topics)
        if not names:
            return {}
        rq = metadata_request
        version = conn.version(API_METADATA, MAX_METADATA_VERSION)
        body = rq.MetadataRequest(
            topics=[rq.MetadataRequestTopic(name=t) for t in names], allow_auto_topic_creation=False
        )
        resp = conn.request(API_METADATA, body, version, self.request_timeout_ms / 1000.0)
        counts: dict[str, int] = {}
        for t in resp.topics or ():
            code = _code(t.error_code)
            if code in (ErrorCode.NONE, ErrorCode.LEADER_NOT_AVAILABLE) and t.partitions:
                counts[t.name] = max(p.partition_index for p in t.partitions) + 1
        return counts

    def _send_sync_group(
        self, conn: Connection, gen: Generation, assignments: list[sync_group_request.SyncGroupRequestAssignment]
    ) -> bytes:
        body = sync_group_request.SyncGroupRequest(
            group_id=self.group_id,
            generation_id=gen.generation_id,
            member_id=gen.member_id,
            group_instance_id=gen.group_instance_id,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocol_name=gen.protocol_name,
            assignments=assignments,
        )
        version = conn.version(API_SYNC_GROUP)
        # followers wait here until the leader's SyncGroup arrives
        resp = conn.request(API_SYNC_GROUP, body, version, self.rebalance_timeout_ms / 1000.0 + 5.0)
        code = _code(resp.error_code)
        if code != ErrorCode.NONE:
            self._join_or_sync_error("SyncGroup", code)
        return bytes(resp.assignment or b"")

    def _apply_assignment(self, assignment: Assignment, gen: Generation) -> None:
        new = frozenset(assignment.partitions)
        with self._cond:
            topics = set(self._topics)
        strays = {tp.topic for tp in new} - topics
        if strays:
            log.warning("group %s: assigned topics %s we do not subscribe to", self.group_id, sorted(strays))
        with self._cond:
            old = self._assignment
        revoked = old - new
        added = new - old
        if revoked:  # cooperative only: eager revoked everything before rejoining
            self._invoke(self.on_partitions_revoked, "partitions revoked", revoked)
        with self._cond:
            if self._generation != gen:
                return  # fenced while the callback ran; the group thread will handle it
            self._assignment = new
            self._previous_assignment = new
            self._previous_generation = gen.generation_id
            self._state = MemberState.STABLE  # heartbeats resume
            self._last_heartbeat_ok = time.monotonic()
            self._rebalances += 1
            self._cond.notify_all()
        log.info(
            "group %s generation %s: member %s assigned %s",
            self.group_id,
            gen.generation_id,
            gen.member_id,
            sorted(new),
        )
        self._invoke(self.on_partitions_assigned, "partitions assigned", added)
        with self._cond:
            if revoked and self._generation == gen:
                # KIP-429: the partitions we gave up can only move in a follow-up rebalance
                self._request_rejoin_locked(f"revoked {len(revoked)} partitions; follow-up rebalance")
            if self._rejoin_reason is None and self._lost is None and self._generation == gen:
                self._ready = True
            self._cond.notify_all()

    # --- metadata --------------------------------------------------------------------------

    def _maybe_check_metadata(self) -> None:
        """The leader rejoins when a subscribed topic appears, disappears or gains partitions."""
        with self._cond:
            if not self._is_leader or self._leader_snapshot is None or time.monotonic() < self._next_metadata_check:
                return
            snapshot = dict(self._leader_snapshot)
            topics = set(self._leader_topics)
            self._next_metadata_check = time.monotonic() + self.metadata_max_age_ms / 1000.0
        conn = self._join_conn
        if conn is None:
            return
        counts = self._partition_counts(conn, topics)
        if counts != snapshot:
            with self._cond:
                self._request_rejoin_locked(f"subscribed topic metadata changed: {snapshot} -> {counts}")

    # -----------------------------------------------------------------------------------------
    # the heartbeat thread
    # -----------------------------------------------------------------------------------------

    def _run_heartbeat_thread(self) -> None:
        conn: Connection | None = None
        interval = self.heartbeat_interval_ms / 1000.0
        last_sent = 0.0
        try:
            while True:
                with self._cond:
                    # also while our SyncGroup waits for the leader (as the Java client does):
                    # a slow leader must not cost the followers their sessions
                    while not self._closing and not (
                        self._state in (MemberState.STABLE, MemberState.COMPLETING_REBALANCE)
                        and self._coordinator is not None
                        and self._generation.is_valid
                        and self._lost is None
                    ):
                        self._cond.wait(1.0)
                    if self._closing:
                        return
                    delay = last_sent + interval - time.monotonic()
                    if delay > 0:
                        self._cond.wait(delay)
                        continue
                    gen = self._generation
                    node = self._coordinator
                last_sent = time.monotonic()
                try:
                    if conn is None or conn.closed or (conn.host, conn.port) != (node[1], node[2]):
                        if conn is not None:
                            conn.close()
                        conn = self._connect(node[1], node[2])
                    version = conn.version(API_HEARTBEAT)
                    body = heartbeat_request.HeartbeatRequest(
                        group_id=self.group_id,
                        generation_id=gen.generation_id,
                        member_id=gen.member_id,
                        group_instance_id=gen.group_instance_id,
                    )
                    resp = conn.request(API_HEARTBEAT, body, version, self.request_timeout_ms / 1000.0)
                except BrokerUnavailableError as e:
                    conn = None
                    self._mark_coordinator_unknown(node, f"heartbeat failed: {e}")
                    continue
                except KafkaError as e:
                    log.error("group %s: heartbeat cannot be sent: %s", self.group_id, e)
                    self._fail(e)
                    return
                self._on_heartbeat(_code(resp.error_code), gen, node)
        finally:
            if conn is not None:
                conn.close()

    def _on_heartbeat(self, code: ErrorCode, gen: Generation, node: tuple[int, str, int]) -> None:
        with self._cond:
            # a reply about a generation we already left, or arriving while we rejoin, is stale
            current = self._generation == gen and self._state == MemberState.STABLE and not self._closing
            if code == ErrorCode.NONE:
                self._last_heartbeat_ok = time.monotonic()
                return
            if not current:
                return
            if code == ErrorCode.REBALANCE_IN_PROGRESS:
                self._request_rejoin_locked("heartbeat: the group is rebalancing")
                return
        if code in FENCING_ERRORS:
            self._member_fenced(code, gen, "Heartbeat")
        elif code in COORDINATOR_ERRORS:
            self._mark_coordinator_unknown(node, f"heartbeat: {code.name}")
        else:
            log.warning("group %s: heartbeat error %s", self.group_id, code.name)

    # -----------------------------------------------------------------------------------------
    # shutdown
    # -----------------------------------------------------------------------------------------

    def _shutdown(self) -> None:
        with self._cond:
            self._closing = True  # stops the heartbeat thread too
            failed = self._failure is not None
            owned = self._assignment
            gen = self._generation
            leave = self._leave_on_close
            self._cond.notify_all()
        try:
            if not failed:
                if owned:
                    self._invoke(self.on_partitions_revoked, "partitions revoked", owned)
                if leave and gen.member_id:
                    self._send_leave_group(gen)
        finally:
            self._close_join_conn()
            with self._cond:
                self._assignment = frozenset()
                self._ready = False
                if not failed:
                    self._state = MemberState.CLOSED
                    self._generation = NO_GENERATION
                self._cond.notify_all()

    def _send_leave_group(self, gen: Generation) -> None:
        timeout = self.request_timeout_ms / 1000.0
        for _ in range(2):
            try:
                with self._cond:
                    node = self._coordinator
                if node is None:
                    node = self._find_coordinator(timeout)
                conn = self._join_conn
                if conn is None or conn.closed or (conn.host, conn.port) != (node[1], node[2]):
                    self._close_join_conn()
                    conn = self._connect(node[1], node[2])
                    with self._cond:
                        self._join_conn = conn
                version = conn.version(API_LEAVE_GROUP)
                rq = leave_group_request
                if version >= 3:  # batched form with member identities (KIP-345)
                    body = rq.LeaveGroupRequest(
                        group_id=self.group_id,
                        members=[
                            rq.MemberIdentity(
                                member_id=gen.member_id,
                                group_instance_id=gen.group_instance_id,
                                reason="the consumer is closing",
                            )
                        ],
                    )
                else:
                    body = rq.LeaveGroupRequest(group_id=self.group_id, member_id=gen.member_id)
                resp = conn.request(API_LEAVE_GROUP, body, version, timeout)
                code = _code(resp.error_code)
                if code in COORDINATOR_ERRORS:
                    self._mark_coordinator_unknown(node, f"LeaveGroup: {code.name}")
                    continue
                if code != ErrorCode.NONE:
                    log.info("group %s: LeaveGroup: %s", self.group_id, code.name)
                for m in resp.members or ():
                    if m.error_code != ErrorCode.NONE:
                        log.info(
                            "group %s: LeaveGroup for %s: %s", self.group_id, m.member_id, _code(m.error_code).name
                        )
                log.info("group %s: member %s left the group", self.group_id, gen.member_id)
                return
            except (_CoordinatorLost, BrokerUnavailableError, KafkaError) as e:
                log.info("group %s: LeaveGroup failed (the session will expire instead): %s", self.group_id, e)
                self._close_join_conn()
                with self._cond:
                    self._coordinator = None


def _code(value: int) -> ErrorCode:
    try:
        return ErrorCode(value)
    except ValueError:
        return ErrorCode.UNKNOWN_SERVER_ERROR


__all__ = ["GroupMember", "MemberState", "PartitionsCallback", "RebalanceProtocol"]
