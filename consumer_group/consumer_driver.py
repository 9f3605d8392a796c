"""The I/O driver of a `group.protocol=consumer` member: one thread around `ConsumerMemberMachine`.

`GroupMember(..., group_protocol="consumer")` builds a `ConsumerProtocolMember`. It keeps the
public API of the classic member (assignment, generation, wait_for_assignment, commit, committed,
close, the three callbacks), so callers do not change. Commits carry the member epoch
(OffsetCommit v9's generation_id_or_member_epoch). The single thread loops: take the machine's
actions, execute them (FindCoordinator, ConsumerGroupHeartbeat, Metadata for topic ids, user
callbacks, each on its own short-lived thread so the session stays alive while one runs) and feed
their outcome back; between actions it waits on the condition until the machine's next wake-up or a
caller's notify. Every decision lives in the machine.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from typing import Any

from consumer_group._connection import BrokerUnavailableError, Connection
from consumer_group.classic_member import CoordinatorLost as _CoordinatorLost
from consumer_group.classic_member import MemberState
from consumer_group.consumer_member import (
    CallbackKind,
    ConsumerMemberMachine,
    ConsumerMemberState,
    Fail,
    FindCoordinator,
    InvokeCallback,
    ResolveTopicIds,
    SendHeartbeat,
)
from consumer_group.membership import API_METADATA, MAX_METADATA_VERSION, GroupMember
from consumer_group.structs import NO_GENERATION, Generation, GroupError
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import metadata_request

log = logging.getLogger(__name__)

API_CONSUMER_GROUP_HEARTBEAT = 68

_STATES = {
    ConsumerMemberState.JOINING: MemberState.PREPARING_REBALANCE,
    ConsumerMemberState.FENCED: MemberState.PREPARING_REBALANCE,
    ConsumerMemberState.RECONCILING: MemberState.COMPLETING_REBALANCE,
    ConsumerMemberState.ACKNOWLEDGING: MemberState.STABLE,
    ConsumerMemberState.STABLE: MemberState.STABLE,
    ConsumerMemberState.PREPARE_LEAVING: MemberState.STABLE,
    ConsumerMemberState.LEAVING: MemberState.STABLE,
    ConsumerMemberState.LEFT: MemberState.CLOSED,
    ConsumerMemberState.FATAL: MemberState.FAILED,
}


def _now_ms() -> float:
    return time.monotonic() * 1000.0


class ConsumerProtocolMember(GroupMember):
    """A KIP-848 member behind the classic member's API (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.machine = ConsumerMemberMachine(
            self.group_id,
            self._m.topics,
            instance_id=self.group_instance_id,
            rack_id=self.rack_id,
            rebalance_timeout_ms=self.rebalance_timeout_ms,
            server_assignor=self.group_remote_assignor,
            retry_backoff_ms=self.retry_backoff_ms,
            retry_backoff_max_ms=self.retry_backoff_max_ms,
        )
        self._leave_requested = False
        self._leave_choice: bool | None = None  # close(leave_group=...): None is the default
        self._close_deadline = float("inf")  # monotonic seconds: leaving gives up after close()'s timeout
        self._conn: Connection | None = None  # the driver thread's coordinator connection
        self._driver_done = False

    # --- public API that differs from the classic member --------------------------------------

    def start(self) -> ConsumerProtocolMember:
        with self._cond:
            if self._closing:
                raise GroupError("the member is closed")
            if self._group_thread is not None:
                return self
            self._group_thread = threading.Thread(
                target=self._run_driver, name=f"pykafka-group848-{self.group_id}", daemon=True
            )
        self._group_thread.start()
        return self

    def subscribe(self, topics: Iterable[str]) -> None:
        with self._cond:
            self._m.topics = tuple(sorted(set(topics)))
            self.machine.subscribe(self._m.topics, _now_ms())
            self._cond.notify_all()

    def request_rejoin(self, reason: str = "requested by the application") -> None:
        """The coordinator assigns; a consumer-protocol member has nothing to rejoin for."""
        log.info("group %s: rejoin requested (%s): not needed by the consumer protocol", self.group_id, reason)

    def close(self, timeout: float = 30.0, *, leave_group: bool | None = None) -> None:
        """Revoke (callback), send the leave heartbeat (epoch -1, static members -2), stop."""
        with self._cond:
            self._leave_choice = leave_group
            self._close_deadline = time.monotonic() + timeout
            self._closing = True
            if self._group_thread is None:
                self._m.state = MemberState.CLOSED
            self._cond.notify_all()
        thread = self._group_thread
        if thread is not None and threading.current_thread() is not thread:
            thread.join(timeout)
        with self._client_lock:
            if self._client_conn is not None:
                self._client_conn.close()
                self._client_conn = None

    # --- hooks of the shared commit path --------------------------------------------------

    def _member_fenced(self, code: ErrorCode, gen: Generation, source: str) -> None:
        # the heartbeat answers UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH as well: the machine fences there
        log.info("group %s: %s answered %s for epoch %s", self.group_id, source, code.name, gen.generation_id)

    # --- the driver thread ---------------------------------------------------------------

    def _run_driver(self) -> None:
        m = self.machine
        try:
            while True:
                with self._cond:
                    now = _now_ms()
                    if self._closing and not self._leave_requested:
                        self._leave_requested = True
                        # by default a static member leaves with epoch -2 (its assignment is kept for
                        # the session timeout), leave_group=True leaves for good (-1), False sends nothing
                        m.leave(now, send=self._leave_choice is not False, permanent=self._leave_choice is True)
                    actions = m.poll(now)
                    self._mirror_locked()
                    if not actions and m.done:
                        return
                    if self._closing and time.monotonic() > self._close_deadline:
                        log.info("group %s: leave not completed within close()'s timeout", self.group_id)
                        return  # the session times out instead
                    if not actions:
                        wait = (m.next_wakeup_ms(now) - now) / 1000.0
                        if wait > 0:
                            self._cond.wait(min(wait, 1.0))
                        continue
                for action in actions:
                    self._execute(action)
        except Exception as e:  # a bug: fail visibly rather than hang the caller
            log.exception("group %s: the consumer-protocol driver failed", self.group_id)
            self._fail(e if isinstance(e, GroupError) else GroupError(f"driver failed: {e!r}"))
        finally:
            if self._conn is not None:
                self._conn.close()
            with self._cond:
                self._driver_done = True
                self._m.assignment = frozenset()
                self._m.ready = False
                if self._failure is None:
                    self._m.state = MemberState.CLOSED
                    self._m.generation = NO_GENERATION
                self._cond.notify_all()

    def _mirror_locked(self) -> None:
        """Publish the machine's state where GroupMember's accessors and commit path read it (the
        inherited classic machine's view fields; nothing else of that machine runs here)."""
        m, view = self.machine, self._m
        if self._failure is None:
            view.state = _STATES[m.state]
        view.assignment = m.owned
        view.generation = m.generation()
        view.ready = m.ready
        view.rebalances = m.rebalances
        view.rejoin_reason = None if m.ready else m.state.value
        self._cond.notify_all()

    def _execute(self, action: object) -> None:
        m = self.machine
        if isinstance(action, SendHeartbeat):
            self._send_heartbeat(action)
        elif isinstance(action, FindCoordinator):
            try:
                node = self._find_coordinator(self.request_timeout_ms / 1000.0)
            except (_CoordinatorLost, BrokerUnavailableError) as e:
                log.info("group %s: coordinator not found: %s", self.group_id, e)
                with self._cond:
                    m.on_coordinator_failed(_now_ms())
                return
            with self._cond:
                self._coordinator = node
                m.on_coordinator_found(_now_ms())
        elif isinstance(action, ResolveTopicIds):
            names = self._resolve(action)
            with self._cond:
                m.on_topic_names(names)
        elif isinstance(action, InvokeCallback):
            # on its own thread, as Kafka's application thread runs them: the driver keeps the
            # session alive meanwhile (the machine heartbeats while reconciling), so a callback may
            # take up to the rebalance timeout, e.g. to finish work on revoked partitions and commit
            threading.Thread(
                target=self._run_callback, args=(action,), name=f"pykafka-group848-cb-{self.group_id}", daemon=True
            ).start()
        elif isinstance(action, Fail):
            log.error("group %s: fatal error: %s", self.group_id, action.error)
            with self._cond:
                self._m.assignment = action.lost
            self._fail(action.error)

    def _run_callback(self, action: InvokeCallback) -> None:
        callback = {
            CallbackKind.REVOKED: self.on_partitions_revoked,
            CallbackKind.ASSIGNED: self.on_partitions_assigned,
            CallbackKind.LOST: self.on_partitions_lost,
        }[action.kind]
        try:
            # the callback may commit: it sees the partitions still owned (commit before revoke)
            self._invoke(callback, f"partitions {action.kind.value}", action.partitions)
        finally:
            with self._cond:
                self.machine.callback_done(_now_ms())
                if not self._driver_done:  # a closed member's view stays closed
                    self._mirror_locked()

    def _coordinator_conn(self) -> Connection:
        with self._cond:
            node = self._coordinator
        if node is None:
            raise _CoordinatorLost("no coordinator")
        conn = self._conn
        if conn is None or conn.closed or (conn.host, conn.port) != (node[1], node[2]):
            if conn is not None:
                conn.close()
            conn = self._conn = self._connect(node[1], node[2])
        return conn

    def _send_heartbeat(self, action: SendHeartbeat) -> None:
        m = self.machine
        try:
            conn = self._coordinator_conn()
            try:
                version = conn.version(API_CONSUMER_GROUP_HEARTBEAT)
            except KafkaError as e:
                raise GroupError(
                    f"group {self.group_id!r}: the broker does not support the consumer group protocol "
                    f"(ConsumerGroupHeartbeat): {e}; use group_protocol='classic'",
                    ErrorCode.UNSUPPORTED_VERSION,
                ) from e
            resp = conn.request(API_CONSUMER_GROUP_HEARTBEAT, action.request, version, self.request_timeout_ms / 1000.0)
        except (_CoordinatorLost, BrokerUnavailableError) as e:
            log.info("group %s: heartbeat failed: %s", self.group_id, e)
            with self._cond:
                self._coordinator = None
                m.on_heartbeat_failed(_now_ms())
            return
        except GroupError as e:
            with self._cond:
                m.on_heartbeat_response(int(e.code), _now_ms(), error_message=str(e))
            return
        assignment = None
        if resp.assignment is not None:
            assignment = [(tp.topic_id, tp.partitions) for tp in resp.assignment.topic_partitions or ()]
        with self._cond:
            m.on_heartbeat_response(
                resp.error_code,
                _now_ms(),
                member_id=resp.member_id,
                member_epoch=resp.member_epoch,
                heartbeat_interval_ms=resp.heartbeat_interval_ms,
                assignment=assignment,
                error_message=resp.error_message,
            )
            if resp.error_code in (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE):
                self._coordinator = None

    def _resolve(self, action: ResolveTopicIds) -> dict[bytes, str]:
        """Metadata (v10+ carries topic ids): the subscribed topics first, every topic if needed."""
        names: dict[bytes, str] = {}
        for topics in (list(action.topic_names), None):
            try:
                conn = self._coordinator_conn()
                version = conn.version(API_METADATA, MAX_METADATA_VERSION)
                body = metadata_request.MetadataRequest(
                    topics=None if topics is None else [metadata_request.MetadataRequestTopic(name=t) for t in topics],
                    allow_auto_topic_creation=False,
                )
                resp = conn.request(API_METADATA, body, version, self.request_timeout_ms / 1000.0)
            except (_CoordinatorLost, BrokerUnavailableError, KafkaError) as e:
                log.info("group %s: topic ids not resolved: %s", self.group_id, e)
                return names
            for t in resp.topics or ():
                if t.error_code == ErrorCode.NONE and t.name:
                    names[bytes(t.topic_id)] = t.name
            if action.topic_ids <= names.keys():
                break
        return {tid: names[tid] for tid in action.topic_ids if tid in names}


__all__ = ["ConsumerProtocolMember"]
