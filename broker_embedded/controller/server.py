"""The controller process: serves the controller protocol, tracks broker sessions, pushes images.

Runs on one asyncio loop; every state change is applied by `ControllerState` (persisted before it
is announced) and followed by a push of the whole image to every connected broker, then by the
answer to the request that caused it, so a broker that gets an answer already has the image.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broker_embedded.config import BrokerConfig, ConfigError
from broker_embedded.controller.election import LeaderBalanceSchedule, elect_leaders
from broker_embedded.controller.log_dir_failures import directories_online_again, handle_directories_offline
from broker_embedded.controller.protocol import ProtocolError, encode, read_message
from broker_embedded.controller.reassignment import (
    alter_partition_reassignments,
    list_partition_reassignments,
    maybe_complete,
)
from broker_embedded.controller.state import ControllerState, PartitionRecord, TopicRecord
from broker_embedded.security.client import controller_server_context
from kafka_wire.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)


def _monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.node_id: int | None = None
        self.incarnation: str | None = None
        # raft mode (QuorumControllerServer): what this connection sends while a change awaits its commit
        self.held: list[dict[str, Any] | bytes] | None = None

    def send(self, msg: dict[str, Any] | bytes) -> None:
        if self.held is not None:
            self.held.append(msg)
            return
        if self.writer.is_closing():
            return
        self.writer.write(msg if isinstance(msg, bytes) else encode(msg))


def partition_json(topic: TopicRecord, p: PartitionRecord) -> dict[str, Any]:
    return {"topic": topic.name, "topic_id": str(uuid.UUID(bytes=topic.topic_id)), **p.to_json()}


class ControllerServer:
    """One controller process. Several may share `directory` (standbys on one machine): the one holding
    an exclusive flock on `controller.lock` is active; the others answer NOT_CONTROLLER and poll the
    lock, which the OS releases when the active process dies (even by SIGKILL)."""

    LOCK_FILE = "controller.lock"
    LOCK_POLL_S = 0.075

    def __init__(self, config: BrokerConfig, directory: Path, clock: Callable[[], int] | None = None) -> None:
        self.config = config
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self._state: ControllerState | None = None
        self.session_timeout_s = config["broker.session.timeout.ms"] / 1000
        self.connections: set[_Connection] = set()
        self.last_heartbeat: dict[int, float] = {}
        self._server: asyncio.base_events.Server | None = None
        self._session_task: asyncio.Task[None] | None = None
        self._rebalance_task: asyncio.Task[None] | None = None
        self._leader_balance: LeaderBalanceSchedule | None = None
        self._balance_wakeup = asyncio.Event()
        self.clock = clock or _monotonic_ms
        self._lock_task: asyncio.Task[None] | None = None
        self._lock_fd: int | None = None
        self.port: int | None = None

    @property
    def active(self) -> bool:
        return self._state is not None

    @property
    def state(self) -> ControllerState:
        if self._state is None:
            raise KafkaError("this controller is a standby", ErrorCode.NOT_CONTROLLER)
        return self._state

    def _try_lock(self) -> bool:
        fd = os.open(self.directory / self.LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._lock_fd = fd
        return True

    def _activate(self) -> None:
        # the active one wrote every change atomically: the file on disk is the whole state
        self._state = ControllerState(self.config, self.directory)
        # a new (or restarted) controller gives every registered broker a fresh session: the ones
        # that do not come back to heartbeat are fenced one session timeout later
        now = time.monotonic()
        self.last_heartbeat = {node_id: now for node_id in self._state.brokers}
        loop = asyncio.get_running_loop()
        self._session_task = loop.create_task(self._expire_sessions())
        if self.config["auto.leader.rebalance.enable"]:
            self._rebalance_task = loop.create_task(self._rebalance_leaders())
        log.warning("controller on port %s is now active", self.port)

    async def _wait_for_lock(self) -> None:
        while not self._try_lock():
            await asyncio.sleep(self.LOCK_POLL_S)
        self._activate()

    async def start(self, host: str, port: int) -> int:
        # controller.listener.names mapped to SSL: brokers must present a certificate the CA signed
        tls = controller_server_context(self.config)
        self._server = await asyncio.start_server(self._serve, host, port, reuse_address=True, ssl=tls)
        self.port = int(self._server.sockets[0].getsockname()[1])
        if self._try_lock():
            self._activate()
        else:
            log.info("controller on port %d is a standby: another controller holds the lock", self.port)
            self._lock_task = asyncio.get_running_loop().create_task(self._wait_for_lock())
        return self.port

    async def stop(self) -> None:
        for task in (self._session_task, self._rebalance_task, self._lock_task):
            if task is not None:
                task.cancel()
        if self._server is not None:
            self._server.close()
        for c in list(self.connections):
            c.writer.close()
        if self._server is not None:
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock: a standby takes over
            self._lock_fd = None
        self._state = None

    # --- sessions ------------------------------------------------------------------------------
    async def _expire_sessions(self) -> None:
        interval = min(0.1, self.session_timeout_s / 10)
        last_round = time.monotonic()
        while True:
            await asyncio.sleep(interval)
            now = time.monotonic()
            if now - last_round > self.session_timeout_s / 2:
                # this controller did not run for half a session (SIGSTOP, a stalled host): the heartbeats sent
                # meanwhile still sit unread in its sockets, so silence says nothing about the brokers. Fresh
                # sessions instead of fencing every broker on resuming (issue 32: a paused active controller
                # fenced all three brokers as it woke up, before learning it was no longer the leader)
                self.last_heartbeat = {node_id: now for node_id in self.last_heartbeat}
                last_round = now
                continue
            last_round = now
            changed = False
            for node_id, b in list(self.state.brokers.items()):
                if b.fenced:
                    continue
                if now - self.last_heartbeat.get(node_id, now) > self.session_timeout_s:
                    log.warning("broker %d missed its session timeout: fencing it", node_id)
                    changed |= self.state.fence_broker(node_id)
            if changed:
                self.push()

    async def _rebalance_leaders(self) -> None:
        """auto.leader.rebalance.enable: run the balance when its schedule says (LeaderBalanceSchedule;
        every push schedules one if the image is imbalanced)."""
        schedule = self._leader_balance = LeaderBalanceSchedule(
            int(self.config["leader.imbalance.check.interval.seconds"] * 1000), self.clock
        )
        schedule.maybe_schedule(self.state)
        while True:
            wait_ms = schedule.ms_until_due()
            self._balance_wakeup.clear()
            if wait_ms is None:
                await self._balance_wakeup.wait()  # nothing scheduled: until the next change
                continue
            if wait_ms > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._balance_wakeup.wait(), wait_ms / 1000)
                continue
            if schedule.run_if_due(self.state):
                self.state.save()
                self.push()
            schedule.maybe_schedule(self.state)

    def push(self) -> None:
        msg = encode(self.state.image())
        for c in list(self.connections):
            if c.node_id is not None:
                c.send(msg)
        if self._leader_balance is not None and self._leader_balance.next_due_ms is None:
            # Kafka checks for an imbalance after every metadata change
            if self._leader_balance.maybe_schedule(self.state):
                self._balance_wakeup.set()

    # --- connections ---------------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Connection(reader, writer)
        self.connections.add(conn)
        try:
            while True:
                msg = await read_message(reader)
                if msg is None:
                    break
                self._handle(conn, msg)
                await writer.drain()
        except (ProtocolError, ConnectionError, ValueError) as e:
            log.warning("controller connection closed: %s", e)
        finally:
            self.connections.discard(conn)
            writer.close()

    def _current(self, conn: _Connection) -> bool:
        """Whether this connection speaks for the broker's current registration."""
        if conn.node_id is None:
            return False
        b = self.state.brokers.get(conn.node_id)
        return b is not None and b.incarnation == conn.incarnation

    def _handle(self, conn: _Connection, msg: dict[str, Any]) -> None:
        op = msg["op"]
        rid = msg.get("id")
        if not self.active:
            # a standby serves nobody: the broker tries the next controller address
            if rid is not None:
                conn.send(
                    {
                        "op": "response",
                        "id": rid,
                        "error": int(ErrorCode.NOT_CONTROLLER),
                        "message": "this controller is a standby",
                    }
                )
            conn.writer.close()
            return
        if op == "heartbeat":
            if self._current(conn):
                assert conn.node_id is not None
                self.last_heartbeat[conn.node_id] = time.monotonic()
                if self.state.unfence(conn.node_id):
                    self.push()
            return
        try:
            reply = self._request(conn, op, msg)
        except KafkaError as e:
            reply = {"error": int(e.code), "message": str(e)}
        except (KeyError, TypeError, ValueError) as e:
            reply = {"error": int(ErrorCode.INVALID_REQUEST), "message": f"bad {op} request: {e!r}"}
        if rid is not None:
            conn.send({"op": "response", "id": rid, "error": 0, "message": None, **reply})

    def _request(self, conn: _Connection, op: str, msg: dict[str, Any]) -> dict[str, Any]:
        s = self.state
        if op == "describe":
            return {"image": s.image()}
        if op == "elect_preferred_leaders":  # tools and tests: run the auto leader rebalance now
            moved = s.elect_preferred_leaders()
            if moved:
                self.push()
            return {"moved": moved}
        if op in ("register", "attach"):
            node_id = int(msg["node_id"])
            for other in list(self.connections):
                if other is not conn and other.node_id == node_id:
                    other.node_id = None  # a stale connection of an older incarnation: stop pushing to it
                    other.writer.close()
            conn.node_id = node_id
            conn.incarnation = str(msg["incarnation"])
            if op == "attach":
                # raft mode: the broker registers and heartbeats by BrokerRegistration/BrokerHeartbeat (62/63) on
                # the Raft listener; this connection only carries its other requests (AlterPartition, admin,
                # producer ids), which need that registration (same incarnation) to be committed
                return {"cluster_id": s.cluster_id, "controller_id": getattr(self, "node_id", None)}
            old = s.brokers.get(node_id)
            epoch = s.register_broker(
                node_id, msg["host"], int(msg["port"]), msg.get("rack"), conn.incarnation, msg.get("listeners")
            )
            if old is None or old.incarnation != conn.incarnation:
                directories_online_again(s, node_id)  # a restart: its log dirs are online again (KIP-858)
            self.last_heartbeat[node_id] = time.monotonic()
            self.push()
            return {"broker_epoch": epoch, "cluster_id": s.cluster_id}
        # security metadata: from brokers or the cluster's tools (a secured controller only
        # talks to holders of the cluster's certificates)
        if op == "alter_scram":
            s.alter_scram(msg["deletions"], msg["upserts"])
            self.push()
            return {}
        if op == "alter_group_configs":
            try:
                s.set_group_configs(msg["group"], dict(msg["configs"]), bool(msg.get("validate_only")))
            except ConfigError as e:
                raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None
            if not msg.get("validate_only"):
                self.push()
            return {}
        if op == "alter_client_quotas":
            quota_results = s.alter_client_quotas(msg["entries"], bool(msg.get("validate_only")))
            if not msg.get("validate_only"):
                self.push()
            return {"results": quota_results}
        if op == "create_acls":
            s.create_acls(msg["acls"])
            self.push()
            return {}
        if op == "delete_acls":
            deleted = s.delete_acls(msg["filters"])
            self.push()
            return {"deleted": deleted}
        if not self._current(conn):
            raise KafkaError("register first", ErrorCode.STALE_BROKER_EPOCH)
        assert conn.node_id is not None
        if op == "shutdown":
            # controlled shutdown: leadership moves away and the broker leaves the ISRs now,
            # instead of one session timeout after the process is gone
            if s.fence_broker(conn.node_id):
                self.push()
            return {}
        if op == "log_dirs_offline":
            # a broker's failed log dir (KIP-858): {"partitions": [[topic, index]...]} leave its ISRs and leadership
            if handle_directories_offline(s, conn.node_id, [(str(t), int(i)) for t, i in msg["partitions"]]):
                self.push()
            return {}
        if op == "allocate_producer_ids":
            start, size = s.allocate_producer_ids()
            return {"start": start, "size": size}
        if op == "alter_partition":
            topic, p = s.alter_partition(
                conn.node_id,
                msg["topic"],
                int(msg["partition"]),
                int(msg["leader_epoch"]),
                [int(r) for r in msg["isr"]],
                int(msg["partition_epoch"]),
            )
            if maybe_complete(s, p):  # the ISR change completes an ongoing reassignment
                s.save()
            self.push()
            return {"state": partition_json(topic, p)}
        if op == "create_topics":
            results: list[dict[str, Any]] = []
            changed = False
            for t in msg["topics"]:
                try:
                    rec = s.create_topic(
                        t["name"],
                        int(t.get("num_partitions", -1)),
                        int(t.get("replication_factor", -1)),
                        dict(t.get("configs") or {}),
                        t.get("assignments") or None,
                        validate_only=bool(msg.get("validate_only")),
                    )
                except KafkaError as e:
                    results.append({"name": t["name"], "error": int(e.code), "message": str(e)})
                    continue
                changed |= not msg.get("validate_only")
                results.append(
                    {
                        "name": rec.name,
                        "error": 0,
                        "message": None,
                        "topic_id": str(uuid.UUID(bytes=rec.topic_id)),
                        "num_partitions": len(rec.partitions),
                        "replication_factor": len(rec.partitions[0].replicas),
                        "configs": rec.configs,
                    }
                )
            if changed:
                self.push()
            return {"results": results}
        if op == "delete_topics":
            results = []
            for name in msg["names"]:
                try:
                    rec = s.delete_topic(name)
                except KafkaError as e:
                    results.append({"name": name, "error": int(e.code), "message": str(e)})
                    continue
                results.append({"name": name, "error": 0, "topic_id": str(uuid.UUID(bytes=rec.topic_id))})
            self.push()
            return {"results": results}
        if op == "create_partitions":
            results = []
            for t in msg["topics"]:
                try:
                    s.create_partitions(
                        t["name"], int(t["count"]), t.get("assignments"), validate_only=bool(msg.get("validate_only"))
                    )
                except KafkaError as e:
                    results.append({"name": t["name"], "error": int(e.code), "message": str(e)})
                    continue
                results.append({"name": t["name"], "error": 0, "message": None})
            self.push()
            return {"results": results}
        if op == "elect_leaders":
            # ElectLeaders (API 43): {"election_type", "partitions": {topic: [index...]} | null}
            wanted = msg.get("partitions")
            elected, changed = elect_leaders(
                s,
                int(msg["election_type"]),
                None if wanted is None else {str(t): [int(i) for i in ps] for t, ps in wanted.items()},
            )
            if changed:
                s.save()
                self.push()
            return {"results": {t: [list(r) for r in rs] for t, rs in elected.items()}}
        if op == "alter_partition_reassignments":
            # AlterPartitionReassignments (API 45): {"topics": [[topic, [[index, replicas | null]]]]}
            reassigned, changed = alter_partition_reassignments(
                s,
                [
                    (str(t), [(int(i), None if r is None else [int(b) for b in r]) for i, r in parts])
                    for t, parts in msg["topics"]
                ],
                bool(msg.get("allow_replication_factor_change", True)),
            )
            if changed:
                s.save()
                self.push()
            return {"results": {t: [list(r) for r in rs] for t, rs in reassigned.items()}}
        if op == "list_partition_reassignments":
            wanted = msg.get("topics")
            ongoing = list_partition_reassignments(
                s, None if wanted is None else [(str(t), [int(i) for i in ps]) for t, ps in wanted]
            )
            return {"topics": [[t, [list(p) for p in ps]] for t, ps in ongoing]}
        if op == "update_features":
            # UpdateFeatures (API 57): {"updates": [[feature, level, upgrade type]], "validate_only"}
            from broker_embedded.versions import SUPPORTED_FEATURES, finalized_features

            before = s.features.epoch
            code, message = s.features.update(
                [(str(f), int(level), int(kind)) for f, level, kind in msg["updates"]],
                bool(msg.get("validate_only")),
                finalized_features(self.config["group.coordinator.rebalance.protocols"]),
                SUPPORTED_FEATURES,
                int(self.config["broker.id"]),
            )
            if s.features.epoch != before:
                s.save()
                self.push()
            return {"result_error": code, "result_message": message}
        if op == "alter_broker_configs":
            s.set_broker_configs(str(msg["resource"]), dict(msg["configs"]), bool(msg.get("validate_only")))
            if not msg.get("validate_only"):
                self.push()
            return {}
        if op == "alter_configs":
            s.set_topic_configs(msg["topic"], dict(msg["configs"]), validate_only=bool(msg.get("validate_only")))
            if not msg.get("validate_only"):
                self.push()
            return {}
        raise KafkaError(f"unknown controller op {op!r}", ErrorCode.INVALID_REQUEST)
