"""The client side of Kafka's classic group protocol: `GroupMember`.

Why this file is over 800 lines: it is the one driver of two threads and the callers' commit and
fetch paths, all sharing one lock; the decisions already live in `classic_member.py` and
`commits.py`, what is left is the I/O sequencing whose lock discipline must be read in one place.

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

This file is the driver: connections, threads, the lock and user callbacks. Every membership
decision -- the state, generation, member id, what a response or error code means, the leader's
assignment, what a rebalance revokes -- lives in the sans-IO `ClassicMemberMachine`
(`consumer_group.classic_member`), which this driver calls under its lock. The consumer protocol
(KIP-848) has its own machine and driver (`consumer_member.py`, `consumer_driver.py`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from consumer_group._connection import BrokerUnavailableError, Connection, parse_bootstrap
from consumer_group.assignors import Assignor, get_assignor
from consumer_group.classic_member import (
    COORDINATOR_ERRORS,
    ClassicMemberMachine,
    HeartbeatOutcome,
    MemberState,
    RebalanceProtocol,
    RetryJoin,
)
from consumer_group.classic_member import CoordinatorLost as _CoordinatorLost
from consumer_group.classic_member import error_code as _code
from consumer_group.commits import (
    CommitVerdict,
    commit_request,
    commit_verdict,
    fetch_request,
    fetch_result,
    offsets_by_topic,
)
from consumer_group.protocol import HIGHEST_SUBSCRIPTION_VERSION
from consumer_group.structs import (
    NO_GENERATION,
    CommitFailedError,
    CoordinatorNotAvailableError,
    FencedInstanceIdError,
    Generation,
    GroupError,
    GroupMemberClosedError,
    OffsetAndMetadata,
    RebalanceInProgressError,
    TopicPartition,
)
from kafka_wire.client.coordinator import find_coordinator_body, find_coordinator_result
from kafka_wire.client.kafka_client import Backoff
from kafka_wire.client.security import PLAINTEXT, SecurityConfig
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import metadata_request

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

GROUP_PROTOCOLS = frozenset({"classic", "consumer"})


def _backoff_s(backoff: Backoff) -> float:
    return backoff.next_ms() / 1000.0


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
        # the membership state and its decisions (sans-IO); a consumer-protocol member publishes
        # its own machine's state through these fields too (consumer_driver.py)
        self._m = ClassicMemberMachine(
            group_id,
            topics,
            self.assignors,
            group_instance_id=group_instance_id,
            rack_id=rack_id,
            subscription_version=subscription_version,
            session_timeout_ms=session_timeout_ms,
            rebalance_timeout_ms=rebalance_timeout_ms,
            metadata_max_age_ms=metadata_max_age_ms,
        )
        self.rebalance_protocol = self._m.rebalance_protocol
        self._coordinator: tuple[int, str, int] | None = None
        self._closing = False
        self._leave_on_close = group_instance_id is None
        self._failure: BaseException | None = None
        self._join_conn: Connection | None = None  # owned by the group thread
        self._join_members: list[Any] | None = None  # the last JoinGroup's members, when we lead
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
            return self._m.state

    @property
    def is_leader(self) -> bool:
        with self._cond:
            return self._m.is_leader

    @property
    def rebalance_count(self) -> int:
        """Completed join/sync rounds of this member (for observability and tests)."""
        with self._cond:
            return self._m.rebalances

    @property
    def last_heartbeat_time(self) -> float:
        """`time.monotonic()` of the last successful heartbeat (or of the last completed sync)."""
        with self._cond:
            return self._m.last_heartbeat_ok

    def subscription(self) -> tuple[str, ...]:
        with self._cond:
            return self._m.topics

    def assignment(self) -> frozenset[TopicPartition]:
        """The partitions this member owns right now (empty while an eager rebalance runs)."""
        with self._cond:
            return self._m.assignment

    def generation(self) -> Generation:
        """The generation the member is in (NO_GENERATION-like when it is not in one)."""
        with self._cond:
            return self._m.generation

    def is_stable(self) -> bool:
        """Stable, no rejoin pending, and the callbacks of the last assignment have run."""
        with self._cond:
            return self._m.ready

    def wait_for_assignment(self, timeout: float | None = None) -> frozenset[TopicPartition]:
        """Block until the member is Stable with its callbacks done; return its assignment."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._m.ready:
                self._raise_if_unusable()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(
                        f"group {self.group_id!r}: no stable assignment within {timeout} s "
                        f"(state {self._m.state.value}, rejoin reason {self._m.rejoin_reason!r})"
                    )
                self._cond.wait(1.0 if remaining is None else min(remaining, 1.0))
            return self._m.assignment

    def subscribe(self, topics: Iterable[str]) -> None:
        """Change the subscription; the member rejoins so the leader can reassign."""
        with self._cond:
            if self._m.subscribe(topics):
                self._cond.notify_all()

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
                rebalancing = self._m.rebalancing
            if rebalancing:
                raise RebalanceInProgressError(f"group {self.group_id!r} is rebalancing; commit after it completes")
            raise CommitFailedError(
                f"group {self.group_id!r}: the member is not in an active generation", ErrorCode.UNKNOWN_MEMBER_ID
            )
        if not offsets:
            return
        by_topic = offsets_by_topic(offsets)
        # consumer protocol without a captured generation: a commit refused as STALE_MEMBER_EPOCH
        # (the epoch moved on, the partitions still ours) is retried with the latest epoch, as Kafka's
        # client does; a captured generation stays fenced to that epoch
        follow_epoch = generation is None and self.group_protocol == "consumer"
        sent = [gen]

        def build(version: int) -> Any:
            g = sent[0] = self.generation() if follow_epoch else gen
            return commit_request(self.group_id, g, by_topic)

        def handle(resp: Any) -> bool:
            verdict, code, tp = commit_verdict(resp)
            if verdict is CommitVerdict.OK:
                return True
            if verdict is CommitVerdict.FENCED:
                self._member_fenced(code, gen, "OffsetCommit")
                raise CommitFailedError(
                    f"group {self.group_id!r} refused the commit of generation {gen.generation_id} "
                    f"(member {gen.member_id}): {code.name}; the partitions may have moved to another member",
                    code,
                )
            if verdict is CommitVerdict.STALE_EPOCH:
                if follow_epoch and sent[0].is_valid:
                    return False
                raise CommitFailedError(
                    f"group {self.group_id!r} refused the commit of member epoch {sent[0].generation_id}: "
                    "STALE_MEMBER_EPOCH",
                    code,
                )
            if verdict is CommitVerdict.REBALANCING:
                with self._cond:
                    if self._m.generation == gen and self._m.state == MemberState.STABLE:
                        self._request_rejoin_locked("OffsetCommit: rebalance in progress")
                raise RebalanceInProgressError(f"group {self.group_id!r} is rebalancing; commit refused")
            if verdict is CommitVerdict.COORDINATOR:
                raise _CoordinatorLost(code.name)
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
        result: dict[TopicPartition, OffsetAndMetadata] = {}

        def handle(resp: Any) -> bool:
            got = fetch_result(resp)
            if got is None:
                return False  # a transactional commit is pending: retry (KIP-447)
            result.clear()
            result.update(got)
            return True

        self._client_call(
            API_OFFSET_FETCH,
            MAX_OFFSET_FETCH_VERSION,
            lambda version: fetch_request(self.group_id, by_topic, version),
            handle,
            timeout,
        )
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
            join_conn = self._join_conn if self._m.rebalancing else None
            if self._group_thread is None:
                self._m.state = MemberState.CLOSED
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
            if self._m.state == MemberState.CLOSED:
                raise GroupMemberClosedError("the member is closed")

    def _request_rejoin_locked(self, reason: str) -> None:
        self._m.request_rejoin(reason)
        self._cond.notify_all()

    def _member_fenced(self, code: ErrorCode, gen: Generation, source: str) -> None:
        """The coordinator no longer knows `gen`: have the group thread drop partitions, rejoin."""
        with self._cond:
            if self._m.member_fenced(code, gen, source, self._closing):
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
        backoff = Backoff(self.retry_backoff_ms, self.retry_backoff_max_ms)
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
                time.sleep(min(_backoff_s(backoff), max(0.0, deadline - time.monotonic())))

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
        backoff = Backoff(self.retry_backoff_ms, self.retry_backoff_max_ms)
        try:
            while True:
                with self._cond:
                    if self._closing:
                        break
                    lost = self._m.lost
                try:
                    if lost is not None:
                        self._handle_lost()
                        continue
                    self._ensure_coordinator()
                    with self._cond:
                        needs_join = self._m.needs_join
                    if needs_join:
                        self._join_and_sync()
                        backoff.attempts = 0
                        continue
                    self._maybe_check_metadata()
                    self._idle_wait()
                except (_CoordinatorLost, BrokerUnavailableError) as e:
                    self._after_failed_round()
                    with self._cond:
                        node = self._coordinator
                    self._mark_coordinator_unknown(node, str(e))
                    self._close_join_conn()
                    self._sleep(_backoff_s(backoff))
                except RetryJoin as e:
                    if e.lost:  # a reset generation dropped them
                        self._invoke(self.on_partitions_lost, "partitions lost", e.lost)
                    self._after_failed_round()
                    with self._cond:
                        self._request_rejoin_locked(str(e))
                    self._sleep(_backoff_s(backoff))
                except (FencedInstanceIdError, GroupError, KafkaError) as e:
                    log.error("group %s: fatal error: %s", self.group_id, e)
                    self._fail(e)
                    return
                except Exception as e:  # a bug or an unexpected reply: retry rather than die
                    log.exception("group %s: unexpected error in the group thread", self.group_id)
                    self._after_failed_round()
                    with self._cond:
                        self._request_rejoin_locked(f"unexpected error: {e!r}")
                    self._sleep(_backoff_s(backoff))
        finally:
            self._shutdown()

    def _after_failed_round(self) -> None:
        with self._cond:
            self._m.after_failed_round()
            self._cond.notify_all()

    def _fail(self, error: BaseException) -> None:
        with self._cond:
            self._failure = error
            lost = self._m.fail()
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
            timeout = self._m.idle_timeout(time.monotonic())
            m = self._m
            if not (self._closing or m.rejoin_reason is not None or m.lost is not None or self._coordinator is None):
                self._cond.wait(timeout)

    def _handle_lost(self) -> None:
        with self._cond:
            taken = self._m.take_lost()
        if taken is None:
            return
        code, lost = taken
        if lost:
            self._invoke(self.on_partitions_lost, "partitions lost", lost)
        if code == ErrorCode.FENCED_INSTANCE_ID:
            raise FencedInstanceIdError(
                f"group {self.group_id!r}: group.instance.id {self.group_instance_id!r} was fenced by another member"
            )
        with self._cond:
            self._request_rejoin_locked(f"member lost its generation: {code.name}")

    # --- join / sync -------------------------------------------------------------------------

    def _join_and_sync(self) -> None:
        conn = self._join_conn
        if conn is None:
            raise _CoordinatorLost("no coordinator connection")
        with self._cond:
            revoke = self._m.revocations_before_join()
        if revoke:
            self._invoke(self.on_partitions_revoked, "partitions revoked", revoke)
            with self._cond:
                self._m.revoked(revoke)
        with self._cond:
            if self._closing:
                return
            reason = self._m.begin_join()
            self._cond.notify_all()

        gen = self._send_join_group(conn, reason)
        members = self._join_members
        assignments: list[Any] = []
        if members is not None:
            subs, version = self._m.leader_subscriptions(members)
            topics = set().union(*(s.topics for s in subs)) if subs else set()
            counts = self._partition_counts(conn, topics)
            assignments = self._m.leader_assignments(gen, subs, version, counts)
            with self._cond:
                self._m.leader_assigned(subs, counts, time.monotonic())
        self._apply_assignment(self._send_sync_group(conn, gen, assignments), gen)

    def _send_join_group(self, conn: Connection, reason: str) -> Generation:
        # MEMBER_ID_REQUIRED (v4+) costs one extra round trip; a second one would be a broker bug
        for _ in range(3):
            with self._cond:
                body = self._m.join_request(reason)
            version = conn.version(API_JOIN_GROUP)
            # the coordinator parks JoinGroup until every member rejoined: up to the rebalance timeout
            resp = conn.request(API_JOIN_GROUP, body, version, self.rebalance_timeout_ms / 1000.0 + 5.0)
            with self._cond:
                gen = self._m.on_join_response(resp)
                self._cond.notify_all()
            if gen is not None:
                leader = resp.leader == resp.member_id and not getattr(resp, "skip_assignment", False)
                self._join_members = (resp.members or []) if leader else None
                return gen
        raise RetryJoin("JoinGroup kept answering MEMBER_ID_REQUIRED")

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

    def _send_sync_group(self, conn: Connection, gen: Generation, assignments: list[Any]) -> Any:
        with self._cond:
            body = self._m.sync_request(gen, assignments)
        version = conn.version(API_SYNC_GROUP)
        # followers wait here until the leader's SyncGroup arrives
        resp = conn.request(API_SYNC_GROUP, body, version, self.rebalance_timeout_ms / 1000.0 + 5.0)
        with self._cond:
            return self._m.on_sync_response(resp)

    def _apply_assignment(self, assignment: Any, gen: Generation) -> None:
        with self._cond:
            new, revoked, added = self._m.assignment_delta(assignment)
        if revoked:  # cooperative only: eager revoked everything before rejoining
            self._invoke(self.on_partitions_revoked, "partitions revoked", revoked)
        with self._cond:
            installed = self._m.install_assignment(new, gen, time.monotonic())
            self._cond.notify_all()
        if not installed:
            return  # fenced while the callback ran; the group thread will handle it
        self._invoke(self.on_partitions_assigned, "partitions assigned", added)
        with self._cond:
            self._m.assignment_done(gen, revoked)
            self._cond.notify_all()

    # --- metadata --------------------------------------------------------------------------

    def _maybe_check_metadata(self) -> None:
        """The leader rejoins when a subscribed topic appears, disappears or gains partitions."""
        with self._cond:
            due = self._m.metadata_check_due(time.monotonic())
        conn = self._join_conn
        if due is None or conn is None:
            return
        snapshot, topics = due
        counts = self._partition_counts(conn, topics)
        with self._cond:
            self._m.on_metadata(snapshot, counts)
            self._cond.notify_all()

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
                    while not self._closing and not self._m.heartbeat_wanted(self._coordinator is not None):
                        self._cond.wait(1.0)
                    if self._closing:
                        return
                    delay = last_sent + interval - time.monotonic()
                    if delay > 0:
                        self._cond.wait(delay)
                        continue
                    gen = self._m.generation
                    node = self._coordinator
                    body = self._m.heartbeat_request(gen)
                assert node is not None
                last_sent = time.monotonic()
                try:
                    if conn is None or conn.closed or (conn.host, conn.port) != (node[1], node[2]):
                        if conn is not None:
                            conn.close()
                        conn = self._connect(node[1], node[2])
                    version = conn.version(API_HEARTBEAT)
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
            outcome = self._m.on_heartbeat_response(code, gen, time.monotonic(), self._closing)
            if outcome in (HeartbeatOutcome.REJOIN, HeartbeatOutcome.FENCED):
                self._cond.notify_all()
        if outcome is HeartbeatOutcome.COORDINATOR_LOST:
            self._mark_coordinator_unknown(node, f"heartbeat: {code.name}")

    # -----------------------------------------------------------------------------------------
    # shutdown
    # -----------------------------------------------------------------------------------------

    def _shutdown(self) -> None:
        with self._cond:
            self._closing = True  # stops the heartbeat thread too
            failed = self._failure is not None
            owned = self._m.assignment
            gen = self._m.generation
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
                self._m.assignment = frozenset()
                self._m.ready = False
                if not failed:
                    self._m.state = MemberState.CLOSED
                    self._m.generation = NO_GENERATION
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
                resp = conn.request(API_LEAVE_GROUP, self._m.leave_request(gen, version), version, timeout)
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


__all__ = ["GroupMember", "MemberState", "PartitionsCallback", "RebalanceProtocol"]
