"""The controller on a Raft quorum (issue 32, opt-in): each controller has its own directory and its own
copy of the metadata, replicated through the `__cluster_metadata` Raft log (`raft/driver.py`) instead of a
shared directory and a file lock (`ControllerServer`, still the default).

- Only the Raft leader is active and serves today's controller protocol (controller/__init__.py); the
  others answer NOT_CONTROLLER, so brokers move on to the next address in controller.quorum.bootstrap.servers.
- Every metadata change the active controller makes (`ControllerState.save()`) is appended to the Raft log
  as a metadata record; the answer to the request that made it is held until the record is committed on a
  majority (a leader that loses its quorum closes the connection unanswered: the broker retries elsewhere).
- Every controller replays committed records onto its metadata image (`MetadataImage.replay`), persisted
  as its `controller-state.json`; a new leader activates only once it has applied every record up to its
  own epoch's LeaderChange, so it starts from exactly the committed state.

What a log entry is here: the per-change records that turn the previous image into the new one, as KRaft
writes them (RegisterBrokerRecord, PartitionChangeRecord, TopicRecord ...: controller/metadata_records.py),
replayed by type; the first entry of a cluster, and any change the records could not express exactly, is the
whole image instead. A snapshot (the latest image) every `snapshot_every_records` records bounds the log; a
lagging or new controller fetches it with FetchSnapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import time
from pathlib import Path
from typing import Any

from broker_embedded.apis import broker_heartbeat, broker_registration
from broker_embedded.config import BrokerConfig
from broker_embedded.controller.metadata_records import diff, replay_all
from broker_embedded.controller.protocol import ProtocolError, read_message
from broker_embedded.controller.server import ControllerServer, _Connection
from broker_embedded.controller.state import ControllerState
from broker_embedded.raft import LogEntry, OffsetAndEpoch, RaftConfig, Role
from broker_embedded.raft.driver import RaftDriver
from broker_embedded.raft.file_log import atomic_write
from broker_embedded.raft.node import NotLeaderError
from broker_embedded.security.client import controller_client_context, controller_server_context

log = logging.getLogger(__name__)

METADATA_IMAGE_RECORD = b"MetadataImage:"
METADATA_DELTA_RECORD = b"MetadataDelta:"  # a JSON list of per-change records (metadata_records.py)


class MetadataImage:
    """What every controller applies: the latest committed image, kept as the state file a controller
    activates from."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / ControllerState.FILE_NAME
        self.image: dict[str, Any] | None = json.loads(self.path.read_bytes()) if self.path.exists() else None
        self._bytes: bytes | None = None
        self.applied_records = 0
        self.delta_records = 0  # entries that were per-change records (the rest: whole images)

    @property
    def last(self) -> bytes | None:
        """The image as the state file holds it."""
        if self.image is None:
            return None
        if self._bytes is None:
            self._bytes = json.dumps(self.image, indent=1).encode()
        return self._bytes

    def replay(self, record: bytes) -> None:
        if record.startswith(METADATA_IMAGE_RECORD):
            image = json.loads(record[len(METADATA_IMAGE_RECORD) :])  # one that does not parse is not applied
        elif record.startswith(METADATA_DELTA_RECORD):
            if self.image is None:
                raise ValueError("a metadata delta record before any image")
            # on a copy: a record that does not apply leaves the image as it was
            image = replay_all(copy.deepcopy(self.image), json.loads(record[len(METADATA_DELTA_RECORD) :]))
            self.delta_records += 1
        else:
            raise ValueError(f"unknown metadata record {record[:32]!r}")
        self.image, self._bytes = image, None
        self.applied_records += 1

    def persist(self) -> None:
        if self.last is not None:
            atomic_write(self.path, self.last)


class _ReplicatedState(ControllerState):
    """ControllerState whose every save() also appends the new image to the Raft log."""

    def __init__(self, config: BrokerConfig, directory: Path, server: QuorumControllerServer) -> None:
        self._server = server
        super().__init__(config, directory)

    def save(self) -> None:
        super().save()
        self._server.replicate(self.path.read_bytes())


class QuorumControllerServer(ControllerServer):
    def __init__(
        self,
        config: BrokerConfig,
        directory: Path,
        node_id: int,
        voters: dict[int, tuple[str, int]],
        raft_config: RaftConfig | None = None,
        commit_timeout_s: float = 5.0,
        snapshot_every_records: int = 64,
    ) -> None:
        super().__init__(config, directory)
        self.node_id = node_id
        self.image = MetadataImage(directory)
        self.commit_timeout_s = commit_timeout_s
        self.snapshot_every = snapshot_every_records
        self._records_at_snapshot = 0
        self.snapshots_loaded = 0  # LoadSnapshot actions: at a restart from its own, or fetched from the leader
        self._leader_change_epoch = -1  # the epoch of the last LeaderChange record applied
        self._appended: int | None = None  # the last record the request being handled appended
        self._last_appended: int | None = None
        self._appended_image: dict[str, Any] | None = None  # the image after this leader's last append
        self._push_wanted_at: int | None = None
        self._push_task: asyncio.Task[None] | None = None
        # pykafka's own switch (issue 32): brokers that observe __cluster_metadata (controller.quorum.voters set
        # on them) can take every image from the log alone; false stops the JSON push of images to them
        self.push_images = str(config.get("controller.metadata.push.enable", "true")).lower() != "false"
        self.driver = RaftDriver(
            node_id,
            voters,
            directory / "__cluster_metadata-0",
            config=raft_config,
            cluster_id=config["cluster.id"],
            on_apply=self._on_apply,
            on_load_snapshot=self._on_load_snapshot,
            on_leader_change=self._on_leader_change,
            # controller.listener.names on SSL: the Raft listener (Vote, Fetch, 62/63, DescribeQuorum...) serves
            # mutual TLS as the JSON one does, and voters reach each other over TLS
            server_tls=controller_server_context(config),
            client_tls=controller_client_context(config),
        )
        self.driver.cluster_id_source = self._cluster_id
        # BrokerRegistration (62) / BrokerHeartbeat (63) on the Raft listener, as KRaft brokers send them to the
        # active controller (the JSON protocol stays served beside them)
        self.driver.app_handlers = {
            broker_registration.RAFT_API_KEY: lambda body: broker_registration.serve(self, body, time.monotonic()),
            broker_heartbeat.RAFT_API_KEY: lambda body: broker_heartbeat.serve(self, body, time.monotonic()),
        }

    def next_metadata_offset(self) -> int:
        """Where the next record goes (KRaft's broker epoch: the offset of the broker's RegisterBrokerRecord)."""
        return self.driver.log.end_offset

    async def commit_appended(self) -> int | None:
        """After a change by a broker RPC: until the last record this leader appended is committed."""
        offset = self._last_appended
        if offset is None:
            return self.driver.node.applied_offset
        try:
            await self.driver.wait_committed(offset, self.commit_timeout_s)
        except (TimeoutError, NotLeaderError):
            return None
        return offset

    def _cluster_id(self) -> str | None:
        if self._state is not None:
            return self._state.cluster_id
        return None if self.image.image is None else str(self.image.image["cluster_id"])

    # --- Raft callbacks
    def _on_load_snapshot(self, _snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        """A snapshot is the image as of its end offset (records are whole images, so it is the last one)."""
        self.snapshots_loaded += 1
        if data:
            self.image.replay(data)
            if not self.active:
                self.image.persist()

    def _maybe_snapshot(self) -> None:
        """Kafka's metadata.log.max.record.bytes.between.snapshots, counted in records here: every
        SNAPSHOT_EVERY_RECORDS applied records the log before the applied offset becomes a snapshot."""
        if self.image.image is None or self.image.applied_records - self._records_at_snapshot < self.snapshot_every:
            return
        offset = self.driver.node.applied_offset  # image.last is the state as of exactly this offset
        if offset > self.driver.log.flushed_offset or offset <= self.driver.log.start_offset:
            return  # not durable yet (or nothing new): next time
        self._records_at_snapshot = self.image.applied_records
        self.driver.create_snapshot(offset, METADATA_IMAGE_RECORD + (self.image.last or b""))

    def _on_apply(self, entries: tuple[LogEntry, ...]) -> None:
        changed = False
        for e in entries:
            if e.control:
                if isinstance(e.value, tuple) and e.value[0] == "LeaderChange":
                    self._leader_change_epoch = e.value[2]
                continue
            self.image.replay(e.value)
            changed = True
        if changed and not self.active:
            self.image.persist()  # the active one wrote it already, in save()
        if changed:
            self._maybe_snapshot()
        self._maybe_activate()

    def _on_leader_change(self, epoch: int, leader_id: int | None) -> None:
        if leader_id != self.node_id and self.active:
            self._deactivate()
        self._maybe_activate()

    def _maybe_activate(self) -> None:
        n = self.driver.node
        if self.active or n.role is not Role.LEADER or self._leader_change_epoch != n.epoch:
            return
        # every record before this epoch's LeaderChange is applied: the image is the committed state
        self.image.persist()
        self._activate()
        if self.image.image is None:
            self.state.save()  # the first leader records the cluster id every later leader must keep

    def _activate(self) -> None:
        super()._activate()
        self._state = _ReplicatedState(self.config, self.directory, self)
        # this leader's records continue from exactly the committed image (every earlier entry is applied)
        self._appended_image = copy.deepcopy(self.image.image)

    def _deactivate(self) -> None:
        log.warning("controller %d is no longer the leader: standing by", self.node_id)
        for task in (self._session_task, self._rebalance_task):
            if task is not None:
                task.cancel()
        self._session_task = self._rebalance_task = None
        self._state = None
        self._push_wanted_at = None
        self._appended_image = None
        self.image.persist()  # drop whatever was saved but not committed
        for c in list(self.connections):
            c.writer.close()

    def _handle(self, conn: _Connection, msg: dict[str, Any]) -> None:
        super()._handle(conn, msg)
        # brokers learn that this controller answers heartbeats, and from then on leave one that goes silent
        # (paused, or cut off from them) before a new leader's session timeout would fence them
        if msg.get("op") == "heartbeat" and self.active and self._current(conn):
            conn.send({"op": "heartbeat_ack"})

    def replicate(self, image: bytes) -> None:
        new = json.loads(image)
        record = METADATA_IMAGE_RECORD + image
        base = self._appended_image
        if base is not None:
            records = json.loads(json.dumps(diff(base, new)))  # as every replica will read them
            if replay_all(copy.deepcopy(base), records) == new:
                record = METADATA_DELTA_RECORD + json.dumps(records, separators=(",", ":")).encode()
            else:  # never expected: the records could not say this change exactly, so the image says it
                log.error("controller %d: metadata records did not reproduce the image; writing it whole", self.node_id)
        self._appended_image = new
        self._appended = self._last_appended = self.driver.append([record])

    # --- brokers get an image only once it is committed (a deposed leader's change never reaches them)
    def push(self) -> None:
        if not self.push_images:
            balance = self._leader_balance  # what the base push does besides sending: the imbalance check
            if balance is not None and balance.next_due_ms is None and balance.maybe_schedule(self.state):
                self._balance_wakeup.set()
            return
        off = self._last_appended
        if off is None or self.driver.node.applied_offset > off or not self.active:
            self._push_wanted_at = None
            super().push()
            return
        self._push_wanted_at = off
        if self._push_task is None or self._push_task.done():
            self._push_task = asyncio.get_running_loop().create_task(self._push_when_committed())

    async def _push_when_committed(self) -> None:
        while self._push_wanted_at is not None:
            try:
                await self.driver.wait_committed(self._push_wanted_at, self.commit_timeout_s)
            except Exception:
                return  # not committed (leadership lost): nothing of it goes out
            self._flush_push()

    def _flush_push(self) -> None:
        t = self._push_wanted_at
        if t is not None and self.active and self.driver.node.applied_offset > t:
            self._push_wanted_at = None
            super().push()

    # --- lifecycle
    def _try_lock(self) -> bool:
        return False  # leadership comes from the quorum, not a file lock

    async def start(self, host: str, port: int) -> int:
        await self.driver.start()
        port = await super().start(host, port)
        if self._lock_task is not None:  # the base class waits for a lock that never comes
            self._lock_task.cancel()
            self._lock_task = None
        return port

    async def stop(self) -> None:
        if self._push_task is not None:
            self._push_task.cancel()
        await super().stop()
        await self.driver.stop(graceful=True)

    # --- a request's answer waits for its records to commit
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = _Connection(reader, writer)
        self.connections.add(conn)
        held: list[dict[str, Any] | bytes] = []
        try:
            while True:
                msg = await read_message(reader)
                if msg is None:
                    break
                self._appended = None
                # this connection's answer (and the image pushed before it) waits for the commit
                if not self.active:
                    self._handle(conn, msg)  # NOT_CONTROLLER, and the connection closes
                    break
                conn.held = held
                try:
                    self._handle(conn, msg)
                finally:
                    conn.held = None
                if self._appended is not None:
                    try:
                        await self.driver.wait_committed(self._appended, self.commit_timeout_s)
                    except (TimeoutError, Exception):
                        log.warning("controller %d: a change did not commit; closing unanswered", self.node_id)
                        break
                    self._flush_push()  # the image before the answer, as in the lock mode
                for out in held:
                    conn.send(out)
                held.clear()
                await writer.drain()
        except (ProtocolError, ConnectionError, ValueError) as e:
            log.warning("controller connection closed: %s", e)
        finally:
            self.connections.discard(conn)
            with contextlib.suppress(Exception):
                writer.close()


def raft_config_from(config: BrokerConfig) -> RaftConfig:
    """Kafka's controller.quorum.* timing settings (read from the config's pass-through names)."""
    d = RaftConfig()

    def ms(name: str, default: int) -> int:
        v = config.get(name)
        return default if v is None else int(v)

    election = ms("controller.quorum.election.timeout.ms", d.election_timeout_ms)
    fetch_timeout = ms("controller.quorum.fetch.timeout.ms", d.fetch_timeout_ms)
    return RaftConfig(
        election_timeout_ms=election,
        election_backoff_max_ms=ms("controller.quorum.election.backoff.max.ms", election),
        fetch_timeout_ms=fetch_timeout,
        # a parked (long-poll) fetch must come back well inside the follower's fetch timeout (Kafka: 500 vs 2000)
        fetch_max_wait_ms=min(d.fetch_max_wait_ms, fetch_timeout // 4),
        request_timeout_ms=ms("controller.quorum.request.timeout.ms", d.request_timeout_ms),
    )


def parse_voters(text: str) -> dict[int, tuple[str, int]]:
    """controller.quorum.voters: `id@host:port,...`; ValueError on anything else."""
    voters: dict[int, tuple[str, int]] = {}
    for item in text.split(","):
        node, _, addr = item.strip().partition("@")
        host, _, port = addr.rpartition(":")
        if not node or not host or not port:
            raise ValueError(f"controller.quorum.voters entry {item!r} is not ID@HOST:PORT")
        if int(node) in voters:
            raise ValueError(f"voter {node} is listed twice")
        voters[int(node)] = (host, int(port))
    return voters
