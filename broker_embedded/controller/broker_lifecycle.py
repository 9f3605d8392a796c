"""A broker's registration and heartbeats with the Raft controller quorum (issue 32, raft mode; Kafka's
BrokerLifecycleManager, KIP-631): BrokerRegistration (62) and BrokerHeartbeat (63) to the quorum leader's
Raft listener, instead of the JSON controller protocol's register/heartbeat.

`BrokerLifecycle` is the sans-IO state machine, as in Kafka:
- STARTING: register (a new incarnation id per process); the answer's broker epoch is the offset of the
  registration record. Then heartbeats every 10 ms carrying the broker's applied metadata offset, until the
  controller says IsCaughtUp (the broker has replayed its own registration): RECOVERY.
- RECOVERY: heartbeats with WantFence until the broker is ready to serve (its metadata applied:
  `set_ready_to_unfence`), then without it; the controller unfences the broker: RUNNING.
- RUNNING: a heartbeat every broker.heartbeat.interval.ms keeps the session; a broker the controller fenced
  (a missed session) is unfenced by the next caught-up heartbeat.
- PENDING_CONTROLLED_SHUTDOWN (`begin_controlled_shutdown`): heartbeats with WantShutDown until the
  controller answers ShouldShutDown (leaderships moved, out of the ISRs).
- A failed or timed-out request is retried with an exponential backoff; NOT_CONTROLLER or a lost connection
  sends the next one to the quorum's leader as this broker's metadata observer knows it (else the next voter).
- pykafka: STALE_BROKER_EPOCH (the registration is not in the new leader's image: it was never committed)
  registers again; Kafka's manager only retries there.

`BrokerLifecycleManager` runs it over the wire on the broker's loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import ssl
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from broker_embedded.raft import wire
from broker_embedded.raft.codecs import broker_heartbeat_request as hbq
from broker_embedded.raft.codecs import broker_registration_request as rgq
from broker_embedded.raft.driver import read_frame
from kafka_wire.errors import ErrorCode

log = logging.getLogger(__name__)

STARTING_HEARTBEAT_S = 0.010  # Kafka: heartbeats every 10 ms until caught up, so an idle startup is quick
SHUTDOWN_HEARTBEAT_S = 0.050
BACKOFF_INITIAL_S = 0.050
# Kafka's security protocol ids (SecurityProtocol.id), for the Listener entries of the registration
SECURITY_PROTOCOL_IDS = {"PLAINTEXT": 0, "SSL": 1, "SASL_PLAINTEXT": 2, "SASL_SSL": 3}


class BrokerState(enum.Enum):
    """Kafka's BrokerState values the lifecycle goes through."""

    STARTING = 1
    RECOVERY = 2
    RUNNING = 3
    PENDING_CONTROLLED_SHUTDOWN = 6
    SHUTTING_DOWN = 7


@dataclass(frozen=True, slots=True)
class HeartbeatFlags:
    want_fence: bool
    want_shut_down: bool


class BrokerLifecycle:
    """What to send next and when (seconds); fed the controller's answers."""

    def __init__(self, heartbeat_interval_s: float, max_backoff_s: float) -> None:
        self.heartbeat_interval_s = heartbeat_interval_s
        self.max_backoff_s = max(max_backoff_s, BACKOFF_INITIAL_S)
        self.state = BrokerState.STARTING
        self.broker_epoch = -1
        self.registered = False
        self.ready_to_unfence = False
        self.fenced = True  # as the controller last said
        self.unfenced_once = False  # Kafka's initialUnfenceFuture
        self.caught_up_once = False  # Kafka's initialCatchUpFuture
        self.failed_attempts = 0
        self.registrations = 0

    def next_request(self) -> str | None:
        if self.state is BrokerState.SHUTTING_DOWN:
            return None
        return "heartbeat" if self.registered else "register"

    def heartbeat_flags(self) -> HeartbeatFlags:
        return HeartbeatFlags(
            want_fence=not self.ready_to_unfence,
            want_shut_down=self.state is BrokerState.PENDING_CONTROLLED_SHUTDOWN,
        )

    def on_failure(self) -> float:
        """A request that got no answer (timeout, lost connection) or an error: retried after a backoff."""
        delay = min(BACKOFF_INITIAL_S * 2**self.failed_attempts, self.max_backoff_s)
        self.failed_attempts += 1
        return delay

    def on_registration(self, error: int, broker_epoch: int) -> float:
        if error != ErrorCode.NONE:
            return self.on_failure()
        self.failed_attempts = 0
        self.broker_epoch = broker_epoch
        self.registered = True
        self.registrations += 1
        return 0.0  # Kafka: the first heartbeat at once

    def on_heartbeat(self, error: int, is_caught_up: bool, is_fenced: bool, should_shut_down: bool) -> float:
        if error == ErrorCode.STALE_BROKER_EPOCH:
            self.registered = False  # our registration is not (or no longer) the controller's: register again
            return self.on_failure()
        if error != ErrorCode.NONE:
            return self.on_failure()
        self.failed_attempts = 0
        self.fenced = is_fenced
        if self.state is BrokerState.STARTING:
            if is_caught_up:
                self.state = BrokerState.RECOVERY
                self.caught_up_once = True
            return STARTING_HEARTBEAT_S
        if self.state is BrokerState.RECOVERY:
            if not is_fenced:
                self.state = BrokerState.RUNNING
                self.unfenced_once = True
            return self.heartbeat_interval_s
        if self.state is BrokerState.PENDING_CONTROLLED_SHUTDOWN:
            if should_shut_down:
                self.state = BrokerState.SHUTTING_DOWN
                return 0.0
            return SHUTDOWN_HEARTBEAT_S
        return self.heartbeat_interval_s

    def set_ready_to_unfence(self) -> float:
        self.ready_to_unfence = True
        return 0.0

    def begin_controlled_shutdown(self) -> float:
        """Kafka: only a RUNNING broker waits for the controller; otherwise it shuts down at once."""
        if self.state is BrokerState.RUNNING:
            self.state = BrokerState.PENDING_CONTROLLED_SHUTDOWN
        elif self.state is not BrokerState.PENDING_CONTROLLED_SHUTDOWN:
            self.state = BrokerState.SHUTTING_DOWN
        return 0.0


class BrokerLifecycleManager:
    """Runs a `BrokerLifecycle` against the quorum: one request at a time, on one connection to the controller
    it believes active."""

    def __init__(
        self,
        node_id: int,
        incarnation: uuid.UUID,
        voters: dict[int, tuple[str, int]],
        *,
        cluster_id: Callable[[], str],
        listeners: Callable[[], list[tuple[str, str, int]]],
        metadata_offset: Callable[[], int],
        leader_hint: Callable[[], int | None],
        heartbeat_interval_s: float,
        request_timeout_s: float,
        registration_timeout_s: float,
        on_change: Callable[[], None] = lambda: None,
        rack: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.node_id = node_id
        self.tls = tls  # the controller listener on SSL: BrokerRegistration/BrokerHeartbeat over TLS
        self.incarnation = incarnation
        self.voters = dict(voters)
        self.cluster_id = cluster_id
        self.listeners = listeners
        self.metadata_offset = metadata_offset
        self.leader_hint = leader_hint
        self.request_timeout_s = request_timeout_s
        self.registration_timeout_s = registration_timeout_s
        self.on_change = on_change
        self.rack = rack
        self.lifecycle = BrokerLifecycle(heartbeat_interval_s, max_backoff_s=heartbeat_interval_s)
        self.controller_id: int | None = None  # the voter that last answered without NOT_CONTROLLER
        self._target = self._initial_target()
        self._tried: set[int] = set()  # voters that failed since the last answer
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._corr = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.shut_down = asyncio.Event()  # the controller granted the controlled shutdown (or none was needed)

    def _initial_target(self) -> int:
        hint = self.leader_hint()
        return hint if hint in self.voters else min(self.voters)

    # --- lifecycle -------------------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def set_ready_to_unfence(self) -> None:
        if not self.lifecycle.ready_to_unfence:
            self.lifecycle.set_ready_to_unfence()
            self._wake.set()

    async def controlled_shutdown(self, timeout: float) -> bool:
        """WantShutDown heartbeats until the controller says ShouldShutDown (True), or `timeout` passes."""
        self.lifecycle.begin_controlled_shutdown()
        self._wake.set()
        if self.lifecycle.state is BrokerState.SHUTTING_DOWN:
            return False
        try:
            await asyncio.wait_for(self.shut_down.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._disconnect()

    # --- the loop ----------------------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            kind = self.lifecycle.next_request()
            if kind is None:
                self.shut_down.set()
                return
            delay = await (self._register() if kind == "register" else self._heartbeat())
            self.on_change()
            if self.lifecycle.state is BrokerState.SHUTTING_DOWN:
                self.shut_down.set()
                return
            if delay > 0:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)

    async def _register(self) -> float:
        listeners = [
            rgq.Listener(name=name, host=host, port=port, security_protocol=SECURITY_PROTOCOL_IDS.get(name, 0))
            for name, host, port in self.listeners()
        ]
        body = rgq.BrokerRegistrationRequest(
            broker_id=self.node_id,
            cluster_id=self.cluster_id(),
            incarnation_id=self.incarnation.bytes,
            listeners=listeners,
            rack=self.rack,
        )
        answer = await self._call(wire.BROKER_REGISTRATION, body, self.registration_timeout_s)
        if answer is None:
            return self.lifecycle.on_failure()
        if answer.error_code != ErrorCode.NONE:
            log.info("broker %d: registration refused by controller %d: %s", self.node_id, self._target,
                     ErrorCode(answer.error_code).name)  # fmt: skip
        else:
            log.info("broker %d registered with controller %d, broker epoch %d", self.node_id, self._target,
                     answer.broker_epoch)  # fmt: skip
        return self.lifecycle.on_registration(answer.error_code, answer.broker_epoch)

    async def _heartbeat(self) -> float:
        flags = self.lifecycle.heartbeat_flags()
        body = hbq.BrokerHeartbeatRequest(
            broker_id=self.node_id,
            broker_epoch=self.lifecycle.broker_epoch,
            current_metadata_offset=self.metadata_offset(),
            want_fence=flags.want_fence,
            want_shut_down=flags.want_shut_down,
        )
        answer = await self._call(wire.BROKER_HEARTBEAT, body, self.request_timeout_s)
        if answer is None:
            return self.lifecycle.on_failure()
        was_fenced = self.lifecycle.fenced
        delay = self.lifecycle.on_heartbeat(
            answer.error_code, answer.is_caught_up, answer.is_fenced, answer.should_shut_down
        )
        if answer.error_code == ErrorCode.NONE and was_fenced != self.lifecycle.fenced:
            log.info("broker %d is %s", self.node_id, "fenced" if self.lifecycle.fenced else "unfenced")
        return delay

    # --- the wire ------------------------------------------------------------------------------------
    async def _call(self, api_key: int, body: Any, timeout: float) -> Any:
        """One request to the controller believed active; None when it could not answer (and the next request
        goes to the quorum's leader as known, or the next voter). NOT_CONTROLLER is also answered None."""
        try:
            answer = await asyncio.wait_for(self._exchange(api_key, body), timeout)
        except (OSError, TimeoutError, EOFError, asyncio.IncompleteReadError, ValueError) as e:
            log.info("broker %d: controller %d did not answer %s: %r", self.node_id, self._target,
                     "BrokerRegistration" if api_key == wire.BROKER_REGISTRATION else "BrokerHeartbeat", e)  # fmt: skip
            self._rediscover()
            return None
        if getattr(answer, "error_code", 0) == ErrorCode.NOT_CONTROLLER:
            self._rediscover()
            return None
        self.controller_id = self._target
        self._tried.clear()
        return answer

    async def _exchange(self, api_key: int, body: Any) -> Any:
        if self._writer is None or self._writer.is_closing():
            host, port = self.voters[self._target]
            tls = self.tls
            self._reader, self._writer = await asyncio.open_connection(
                host, port, ssl=tls, server_hostname=host if tls is not None else None
            )
        assert self._reader is not None and self._writer is not None
        version = wire.served_range(api_key)
        assert version is not None
        self._corr += 1
        self._writer.write(wire.encode_request(api_key, version[1], self._corr, f"broker-{self.node_id}", body))
        while True:
            frame = await read_frame(self._reader)
            if frame is None:
                raise EOFError("the controller closed the connection")
            if int.from_bytes(frame[:4], "big") == self._corr:  # an earlier, timed-out answer is skipped
                return wire.decode_response(api_key, version[1], frame)[1]

    def _rediscover(self) -> None:
        """Kafka's controller channel: on NOT_CONTROLLER or a broken connection, find the active controller
        again. Here: the leader this broker's metadata observer follows, unless it failed already in this
        round; else the next voter in turn not yet tried (a dead leader the observer still follows is
        skipped until the observer learns of the new one)."""
        self._disconnect()
        self._tried.add(self._target)
        if self._tried >= set(self.voters):
            self._tried.clear()
        hint = self.leader_hint()
        if hint is not None and hint in self.voters and hint not in self._tried:
            self._target = hint
        else:
            ids = sorted(self.voters)
            start = ids.index(self._target) if self._target in ids else -1
            order = ids[start + 1 :] + ids[: start + 1]
            self._target = next((i for i in order if i not in self._tried), order[0])
        self.controller_id = None

    def _disconnect(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


__all__ = ["BrokerLifecycle", "BrokerLifecycleManager", "BrokerState", "HeartbeatFlags"]
