"""The broker's side of the controller protocol (see `broker_embedded.controller` for the messages).

Runs on the broker's event loop: registers with the controller, heartbeats, applies the images the
controller pushes (the cluster metadata cache used by Metadata/FindCoordinator/DescribeCluster, and
the partition states handed to the ReplicaManager), and forwards AlterPartition and topic admin.
When the controller is unreachable it keeps the last image and reconnects with a backoff.

Raft mode (controller.quorum.voters set, issue 32): the broker observes `__cluster_metadata` for its images and
registers and heartbeats with BrokerRegistration/BrokerHeartbeat (62/63) to the quorum leader
(`broker_lifecycle.py`, Kafka's BrokerLifecycleManager); the JSON connection then only attaches to the active
controller and carries the other requests. Startup waits until the controller has unfenced the broker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from broker_embedded.config import BrokerConfig, validate_topic_configs
from broker_embedded.controller.protocol import ProtocolError, encode, read_message
from broker_embedded.replication.state import BrokerEndpoint, PartitionState
from broker_embedded.security.client import controller_client_context
from broker_embedded.topic_registry import TopicMetadata
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from pathlib import Path

    from broker_embedded.replication.replica_manager import ReplicaManager
    from broker_embedded.topic_registry import TopicRegistry


class BrokerRegistration(Protocol):
    """What the controller client registers with and checks images against: this broker's id,
    advertised endpoint (known once it listens) and log dir's cluster id (the broker implements it)."""

    @property
    def node_id(self) -> int: ...

    @property
    def host(self) -> str: ...

    @property
    def port(self) -> int: ...

    @property
    def cluster_id(self) -> str: ...

    @property
    def log_dir(self) -> Path: ...

    def adopt_cluster_id(self, cluster_id: str) -> bool: ...


# called on the loop after each image is applied: (previous image, new image)
ImageListener = Callable[["ClusterImage | None", "ClusterImage"], None]

log = logging.getLogger(__name__)

OFFSETS_TOPIC = "__consumer_offsets"


@dataclass(frozen=True, slots=True)
class BrokerInfo:
    node_id: int
    host: str
    port: int
    rack: str | None
    fenced: bool
    # advertised listeners, NAME -> (host, port): clients are told the one they connected on
    listeners: dict[str, tuple[str, int]] = field(default_factory=dict)

    def address(self, listener: str | None) -> tuple[str, int]:
        return self.listeners.get(listener or "", (self.host, self.port))


@dataclass(slots=True)
class TopicImage:
    name: str
    topic_id: bytes
    configs: dict[str, Any]
    partitions: list[PartitionState] = field(default_factory=list)


@dataclass(slots=True)
class ClusterImage:
    """The controller's image as this broker last received it (Kafka's MetadataCache snapshot).

    Replaced as a whole on every push, never mutated: readers on the loop see one consistent image.
    """

    version: int
    cluster_id: str
    brokers: dict[int, BrokerInfo]
    topics: dict[str, TopicImage]
    # topics whose stored state the controller refused on load: offline, not deleted
    refused_topics: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClusterImage:
        brokers = {
            int(b["node_id"]): BrokerInfo(
                int(b["node_id"]),
                b["host"],
                int(b["port"]),
                b.get("rack"),
                bool(b["fenced"]),
                {name: (h, int(p)) for name, (h, p) in (b.get("listeners") or {}).items()},
            )
            for b in d["brokers"]
        }
        topics = {}
        for t in d["topics"]:
            topic_id = uuid.UUID(t["topic_id"]).bytes
            parts = [
                PartitionState(
                    topic=t["name"],
                    partition=int(p["partition"]),
                    topic_id=topic_id,
                    leader=int(p["leader"]),
                    leader_epoch=int(p["leader_epoch"]),
                    isr=tuple(int(r) for r in p["isr"]),
                    replicas=tuple(int(r) for r in p["replicas"]),
                    partition_epoch=int(p["partition_epoch"]),
                    offline_replicas=tuple(int(r) for r in p.get("offline_replicas") or ()),
                )
                for p in t["partitions"]
            ]
            topics[t["name"]] = TopicImage(t["name"], topic_id, dict(t.get("configs") or {}), parts)
        refused = frozenset(str(n) for n in d.get("refused_topics", ()))
        return cls(int(d["version"]), d["cluster_id"], brokers, topics, refused)

    def live_brokers(self) -> list[BrokerInfo]:
        return [b for b in sorted(self.brokers.values(), key=lambda b: b.node_id) if not b.fenced]

    def is_live(self, node_id: int) -> bool:
        b = self.brokers.get(node_id)
        return b is not None and not b.fenced

    def partition(self, topic: str, index: int) -> PartitionState | None:
        t = self.topics.get(topic)
        if t is None or not 0 <= index < len(t.partitions):
            return None
        return t.partitions[index]

    def endpoints(self) -> dict[int, BrokerEndpoint]:
        return {b.node_id: BrokerEndpoint(b.node_id, b.host, b.port, b.rack) for b in self.brokers.values()}


class ProducerIdBlocks:
    """Producer ids from blocks the controller allocates (unique in the cluster); the next block is
    fetched when 90% of the current one is used, as Kafka's RPCProducerIdManager does."""

    def __init__(self, client: ControllerClient) -> None:
        self.client = client
        self.blocks: list[tuple[int, int]] = []  # [start, end)
        self._next = 0
        self._fetching = False
        self.available = asyncio.Event()

    def generate(self) -> int:
        while self.blocks and self._next >= self.blocks[0][1]:
            self.blocks.pop(0)
            if self.blocks:
                self._next = self.blocks[0][0]
        if not self.blocks:
            self.prefetch()
            raise KafkaError(
                "waiting for a producer id block from the controller", ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
            )
        pid = self._next
        self._next += 1
        start, end = self.blocks[0]
        if len(self.blocks) == 1 and self._next - start >= 0.9 * (end - start):
            self.prefetch()
        return pid

    def prefetch(self) -> None:
        if self._fetching:
            return
        self._fetching = True

        async def fetch() -> None:
            try:
                msg = await self.client.request("allocate_producer_ids")
                start, size = int(msg["start"]), int(msg["size"])
                if not self.blocks:
                    self._next = start
                self.blocks.append((start, start + size))
                self.available.set()
            except KafkaError as e:
                log.warning("producer id block allocation failed: %s", e)
            finally:
                self._fetching = False

        asyncio.get_running_loop().create_task(fetch())


class ControllerClient:
    def __init__(
        self,
        address: str,
        config: Any,
        broker: BrokerRegistration,
        topics: TopicRegistry,
        replicas: ReplicaManager,
        apply_topic_configs: Callable[[str], None],
        image_listeners: list[ImageListener],
    ) -> None:
        self.broker = broker
        self.topics = topics
        self.replicas = replicas
        self.apply_topic_configs = apply_topic_configs
        # e.g. the group coordinator loads the groups of the offsets partitions it now leads
        self.image_listeners = image_listeners
        # every controller's HOST:PORT (comma-separated): one is active, the others are standbys
        # that answer NOT_CONTROLLER; the client moves on to the next one when refused or cut off
        self.addresses: list[tuple[str, int]] = []
        for item in address.split(","):
            item = item.strip()
            if item:
                host, port = item.rsplit(":", 1)
                self.addresses.append((host, int(port)))
        if not self.addresses:
            raise ValueError(f"controller.quorum.bootstrap.servers has no HOST:PORT: {address!r}")
        self._address_index = 0
        self.incarnation_id = uuid.uuid4()
        self.incarnation = str(self.incarnation_id)
        self.heartbeat_interval_s = config["broker.heartbeat.interval.ms"] / 1000
        # a Raft-quorum controller (issue 32) answers heartbeats (heartbeat_ack); once one has, a controller
        # silent for a third of the session (paused, cut off) is left for the next address before the new
        # leader would fence this broker. Controllers that never ack (the lock mode) are waited on as before.
        self._acked_heartbeats = False
        self.controller_silence_s = config.get("broker.session.timeout.ms", 9000) / 3000
        self.connect_timeout_s = float(config.get("socket.connection.setup.timeout.ms", 10000)) / 1000
        self.image: ClusterImage | None = None
        self.broker_epoch = -1
        self._writer: asyncio.StreamWriter | None = None
        self._attached = False  # this connection's register (lock mode) / attach (raft mode) was answered
        self._json_controller_id: int | None = None  # raft mode: the Raft id of the controller attached to
        self._registered = asyncio.Event()
        self._ready = asyncio.Event()
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        # controller.listener.names mapped to SSL: mutual TLS to the controller (issue 13)
        # (test fakes pass a plain mapping of configs: no TLS)
        self._tls = controller_client_context(config) if isinstance(config, BrokerConfig) else None
        # SCRAM credentials and ACLs of each image (SecurityManager.apply_cluster_security)
        self.security_listeners: list[Callable[[dict[str, Any] | None], None]] = []
        # other sections of each image, by key (client_quotas: the broker's ClientQuotaStore.load_json)
        self.image_sections: dict[str, Callable[[Any], None]] = {}
        # every advertised listener of this broker, registered with the controller (BrokerRunner)
        self.listeners: dict[str, tuple[str, int]] = {}
        self._creating: set[str] = set()
        self.refused: str | None = None
        self.producer_ids = ProducerIdBlocks(self)
        # issue 32 (quorum="raft" clusters only): controller.quorum.voters set on a broker makes it a Raft
        # observer of __cluster_metadata that applies every committed image from the log too
        self.metadata_observer: Any = None
        self.images_from_log = 0  # images the observer applied before the push brought them
        self._observer_config = config if isinstance(config, BrokerConfig) else None
        self._quorum_voters = config.get("controller.quorum.voters") if self._observer_config else None
        # raft mode: registration and heartbeats are BrokerRegistration/BrokerHeartbeat (62/63) to the quorum
        # leader (broker_lifecycle.py); the JSON connection only attaches and carries the other requests
        self.lifecycle: Any = None

    # --- lifecycle ---------------------------------------------------------------------------
    async def start(self, timeout: float = 60.0) -> None:
        """Connect, register and apply the first image (the broker serves clients only after that)."""
        self.replicas.alter_partition = self.alter_partition
        if self._quorum_voters:
            await self._start_observer(str(self._quorum_voters))
            self._start_lifecycle(str(self._quorum_voters))  # before the JSON connection: it attaches, not registers
        self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.wait_for(self._ready.wait(), timeout)
        if self.refused is not None:
            raise RuntimeError(self.refused)
        # the first producer id block, so the first InitProducerId does not have to be retried
        await asyncio.wait_for(self.producer_ids.available.wait(), timeout)

    async def controlled_shutdown(self, timeout: float = 5.0) -> None:
        """Ask the controller to move leadership away and take this broker out of the ISRs."""
        if self.lifecycle is not None:
            # raft mode: heartbeats with WantShutDown until the controller says ShouldShutDown
            if not await self.lifecycle.controlled_shutdown(timeout):
                log.warning("controlled shutdown: the controller did not grant it in %.1f s", timeout)
        elif self._writer is not None and self._registered.is_set():
            try:
                await self.request("shutdown", timeout=timeout)
                # the image without us as leader/ISR member arrived before the answer: wait briefly
                # for it to be applied, so parked acks=all produces are answered, not dropped
            except KafkaError as e:
                log.warning("controlled shutdown failed: %s", e)
        await self.close()

    async def _start_observer(self, voters_text: str) -> None:
        from broker_embedded.controller.metadata_observer import OBSERVER_ID_BASE, MetadataObserver
        from broker_embedded.controller.quorum_controller import parse_voters, raft_config_from

        config = self._observer_config
        assert config is not None
        self.metadata_observer = MetadataObserver(
            OBSERVER_ID_BASE + self.broker.node_id,
            parse_voters(voters_text),
            self.broker.log_dir / "metadata-observer",  # not a topic-partition name: the log manager skips it
            config,
            self._apply_from_log,
            raft_config_from(config),
        )
        await self.metadata_observer.start()

    def _start_lifecycle(self, voters_text: str) -> None:
        from broker_embedded.controller.broker_lifecycle import BrokerLifecycleManager
        from broker_embedded.controller.quorum_controller import parse_voters

        observer = self.metadata_observer
        session_s = self.controller_silence_s * 3
        self.lifecycle = BrokerLifecycleManager(
            self.broker.node_id,
            self.incarnation_id,
            parse_voters(voters_text),
            # the cluster id as the metadata log says (a broker learns it there; "" before: accepted)
            cluster_id=lambda: "" if self.image is None else self.image.cluster_id,
            listeners=self._registration_listeners,
            metadata_offset=lambda: observer.driver.node.applied_offset - 1,
            leader_hint=lambda: observer.driver.node.leader_id,
            heartbeat_interval_s=self.heartbeat_interval_s,
            # a heartbeat must reach a new leader well inside the session (as the JSON path's silence limit)
            request_timeout_s=self.controller_silence_s,
            registration_timeout_s=min(session_s, self.connect_timeout_s),
            on_change=self._on_lifecycle_change,
            tls=self._tls,
        )
        self.lifecycle.start()

    def _registration_listeners(self) -> list[tuple[str, str, int]]:
        """Every advertised listener, the one this broker registers as (the inter-broker one) first."""
        own = (self.broker.host, self.broker.port)
        named = sorted(self.listeners.items(), key=lambda item: tuple(item[1]) != own)
        if not named or tuple(named[0][1]) != own:
            named.insert(0, ("PLAINTEXT", own))
        return [(name, host, int(port)) for name, (host, port) in named]

    def _on_lifecycle_change(self) -> None:
        lc = self.lifecycle
        self.broker_epoch = lc.lifecycle.broker_epoch
        if lc.lifecycle.caught_up_once and self.image is not None:
            lc.set_ready_to_unfence()  # Kafka: once the metadata up to the registration is published
        active = lc.controller_id
        if active is not None and self._json_controller_id not in (None, active) and self._writer is not None:
            # the JSON connection is to a controller the quorum has left behind (cut off, or deposed): move on
            log.info("controller %s is no longer active (controller %d is): reconnecting", self._json_controller_id,
                     active)  # fmt: skip
            self._writer.close()
        self._maybe_registered()

    def _maybe_registered(self) -> None:
        """Requests may go out once this connection is attached and (raft mode) the registration committed."""
        if not self._attached or (self.lifecycle is not None and not self.lifecycle.lifecycle.registered):
            return
        if not self._registered.is_set():
            self._registered.set()
            if not self.producer_ids.blocks:
                self.producer_ids.prefetch()
        self._check_ready()

    def _check_ready(self) -> None:
        """Clients are served once registered with an image applied (raft mode: and unfenced once, as a KRaft
        broker's startup waits for the controller to unfence it)."""
        if not self._registered.is_set() or self.image is None:
            return
        if self.lifecycle is not None and not self.lifecycle.lifecycle.unfenced_once:
            return
        self._ready.set()

    def _apply_from_log(self, msg: dict[str, Any]) -> None:
        """An image the metadata observer replayed from the log: applied unless the push brought it already."""
        if self.image is None or int(msg["version"]) > self.image.version:
            self.images_from_log += 1
            self._apply(msg)

    async def close(self) -> None:
        self._closing = True
        if self.lifecycle is not None:
            with contextlib.suppress(Exception):
                await self.lifecycle.close()
        if self.metadata_observer is not None:
            with contextlib.suppress(Exception):
                await self.metadata_observer.stop()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._fail_pending("the broker is shutting down")

    @property
    def address(self) -> tuple[str, int]:
        return self.addresses[self._address_index]

    def _fail_pending(self, why: str) -> None:
        for fut in self._pending.values():
            if not fut.done():
                fut.set_exception(KafkaError(f"controller unavailable: {why}", ErrorCode.REQUEST_TIMED_OUT))
        self._pending.clear()

    async def _run(self) -> None:
        backoff = 0.05
        failures = 0  # connections in a row that did not reach a registration
        while not self._closing:
            writer = None
            hb: asyncio.Task[None] | None = None
            try:
                host, port = self.address
                connect = asyncio.open_connection(
                    host, port, ssl=self._tls, server_hostname=host if self._tls is not None else None
                )
                # a controller cut off from the network (issue 32) drops the SYN: the kernel would wait minutes.
                # Kafka's socket.connection.setup.timeout.ms bounds it; once the quorum's heartbeat acks were
                # seen, a third of the session (the new leader must hear from this broker before it expires)
                quick = self._acked_heartbeats or self.lifecycle is not None
                limit = self.controller_silence_s if quick else self.connect_timeout_s
                reader, writer = await asyncio.wait_for(connect, limit)
                self._writer = writer
                self._registered.clear()
                self._attached = False
                self._json_controller_id = None
                if self.lifecycle is not None:
                    # raft mode: registered and heartbeating by 62/63; this connection carries the rest
                    rid = self._send_request("attach", node_id=self.broker.node_id, incarnation=self.incarnation)
                else:
                    rid = self._send_request(
                        "register",
                        node_id=self.broker.node_id,
                        host=self.broker.host,
                        port=self.broker.port,
                        rack=None,
                        listeners={n: list(a) for n, a in self.listeners.items()},
                        incarnation=self.incarnation,
                    )
                    hb = asyncio.get_running_loop().create_task(self._heartbeat())
                while True:
                    msg = await self._read_or_silence(reader)
                    if msg is None:
                        break
                    if msg["op"] == "heartbeat_ack":
                        self._acked_heartbeats = True
                    if msg["op"] == "metadata":
                        await self._prepare(msg)
                        self._apply(msg)
                    elif msg["op"] == "response":
                        if msg["id"] == rid:
                            if msg["error"] == ErrorCode.NOT_CONTROLLER:
                                break  # a standby: try the next controller
                            self._on_registered(msg)
                            if self._registered.is_set():
                                backoff, failures = 0.05, 0
                        fut = self._pending.pop(msg["id"], None)
                        if fut is not None and not fut.done():
                            fut.set_result(msg)
            except asyncio.CancelledError:
                raise
            except (OSError, ProtocolError, ValueError, KeyError) as e:
                log.info("controller connection to %s:%d failed: %s", *self.address, e)
            except Exception:
                log.exception("controller client failed")
            finally:
                if hb is not None:
                    hb.cancel()
                self._writer = None
                self._registered.clear()
                self._attached = False
                if writer is not None:
                    writer.close()
                self._fail_pending("connection lost")
            if self._closing:
                return
            self._address_index = (self._address_index + 1) % len(self.addresses)
            failures += 1
            # a short pause per address; the backoff grows only after a whole round failed
            await asyncio.sleep(backoff if failures % len(self.addresses) == 0 else 0.02)
            if failures % len(self.addresses) == 0:
                backoff = min(backoff * 2, 1.0)

    async def _read_or_silence(self, reader: asyncio.StreamReader) -> dict[str, Any] | None:
        """The next message; None at the end of the stream, or when a heartbeat-acking controller went silent
        (raft mode: when an attach is not answered in that time, e.g. a paused controller's kernel accepted the
        connection; once attached, the lifecycle manager drops a controller the quorum has left behind)."""
        if not self._acked_heartbeats and (self.lifecycle is None or self._attached):
            return await read_message(reader)
        try:
            return await asyncio.wait_for(read_message(reader), self.controller_silence_s)
        except TimeoutError:
            log.warning(
                "controller %s:%d silent for %.1f s: trying the next one", *self.address, self.controller_silence_s
            )
            return None

    def _on_registered(self, msg: dict[str, Any]) -> None:
        if msg["error"]:
            log.error("registration refused: %s", msg.get("message"))
            return
        if "broker_epoch" in msg:
            self.broker_epoch = int(msg["broker_epoch"])
        if msg.get("controller_id") is not None:
            self._json_controller_id = int(msg["controller_id"])
        self._attached = True
        self._maybe_registered()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_interval_s)
            if self._writer is not None and self._registered.is_set():
                self._writer.write(encode({"op": "heartbeat", "broker_epoch": self.broker_epoch}))

    # --- requests ------------------------------------------------------------------------------
    def _send_request(self, op: str, **fields: Any) -> int:
        if self._writer is None:
            raise KafkaError("the controller is not reachable", ErrorCode.REQUEST_TIMED_OUT)
        self._next_id += 1
        rid = self._next_id
        self._writer.write(encode({"op": op, "id": rid, **fields}))
        return rid

    async def request(self, op: str, timeout: float = 10.0, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its answer; raises KafkaError with the controller's code."""
        if not self._registered.is_set():
            try:
                await asyncio.wait_for(self._registered.wait(), min(timeout, 2.0))
            except TimeoutError:
                raise KafkaError("the controller is not reachable", ErrorCode.REQUEST_TIMED_OUT) from None
        rid = self._send_request(op, **fields)
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            msg = await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            self._pending.pop(rid, None)
            raise KafkaError(f"the controller did not answer {op} in {timeout}s", ErrorCode.REQUEST_TIMED_OUT) from None
        if msg["error"]:
            raise KafkaError(msg.get("message") or op, ErrorCode(msg["error"]))
        return msg

    async def alter_partition(
        self, topic: str, partition: int, leader_epoch: int, isr: tuple[int, ...], partition_epoch: int
    ) -> PartitionState:
        msg = await self.request(
            "alter_partition",
            topic=topic,
            partition=partition,
            leader_epoch=leader_epoch,
            isr=list(isr),
            partition_epoch=partition_epoch,
        )
        s = msg["state"]
        return PartitionState(
            topic=s["topic"],
            partition=int(s["partition"]),
            topic_id=uuid.UUID(s["topic_id"]).bytes,
            leader=int(s["leader"]),
            leader_epoch=int(s["leader_epoch"]),
            isr=tuple(int(r) for r in s["isr"]),
            replicas=tuple(int(r) for r in s["replicas"]),
            partition_epoch=int(s["partition_epoch"]),
        )

    def create_topic_in_background(self, name: str, num_partitions: int, replication_factor: int) -> None:
        """Auto-creation (Metadata, FindCoordinator): ask the controller without waiting for it."""
        if name in self._creating:
            return
        self._creating.add(name)

        async def create() -> None:
            try:
                configs = {}
                if name == OFFSETS_TOPIC:
                    configs = {"cleanup.policy": "compact", "segment.bytes": str(100 * 1024 * 1024)}
                await self.request(
                    "create_topics",
                    topics=[
                        {
                            "name": name,
                            "num_partitions": num_partitions,
                            "replication_factor": replication_factor,
                            "configs": configs,
                        }
                    ],
                )
            except KafkaError as e:
                log.info("auto-creation of %s failed: %s", name, e)
            finally:
                self._creating.discard(name)

        asyncio.get_running_loop().create_task(create())

    # --- images --------------------------------------------------------------------------------
    async def _prepare(self, msg: dict[str, Any]) -> None:
        """Before an image is applied on the loop: create the logs of partitions new to this broker
        on a worker thread (directories, files, fsyncs), so that a topic of thousands of partitions
        does not stall every client while the image is applied. Images stay in order: the next one
        is read only after this one is applied."""
        image = ClusterImage.from_json(msg)
        if self.image is not None and image.version < self.image.version:
            return
        if image.cluster_id != self.broker.cluster_id:
            return  # _apply decides about a foreign cluster id before anything is created
        broker = self.broker
        node = broker.node_id
        states = [p for t in image.topics.values() for p in t.partitions]
        if not any(node in st.replicas and (st.topic, st.partition) not in self.replicas.partitions for st in states):
            return
        try:
            configs = {t.name: validate_topic_configs(t.configs) for t in image.topics.values()}
            await asyncio.get_running_loop().run_in_executor(None, self.replicas.precreate_logs, states, configs)
        except (ValueError, KafkaError) as e:
            # only an optimisation: applying the image creates whatever is still missing
            log.warning("could not prepare the logs of a new image: %s", e)

    def _apply(self, msg: dict[str, Any]) -> None:
        image = ClusterImage.from_json(msg)
        if self.image is not None and image.version < self.image.version:
            return
        broker = self.broker
        if image.cluster_id != broker.cluster_id and not broker.adopt_cluster_id(image.cluster_id):
            # a log dir of another cluster (Kafka: INCONSISTENT_CLUSTER_ID): applying this image
            # would delete every topic the controller does not know. Serve nothing instead.
            self.refused = (
                f"the controller's cluster id {image.cluster_id} is not the cluster id {broker.cluster_id} of "
                f"this broker's log dir {broker.log_dir}, which holds topics: refusing its metadata"
            )
            log.error("%s", self.refused)
            self._ready.set()
            return
        previous = self.image
        self.image = image
        registry = self.topics
        # topics gone from the image (or re-created under a new id) are deleted here too
        for local in list(registry):
            t = image.topics.get(local.name)
            if t is None or t.topic_id != local.topic_id:
                # a topic the controller refused to load is not a deletion: its replicas stop
                # serving but keep their logs for when the stored entry is fixed
                keep = t is None and local.name in image.refused_topics
                self.replicas.remove_partitions(local.name, range(local.num_partitions), delete=not keep)
                registry.by_name.pop(local.name, None)
                registry.by_id.pop(local.topic_id, None)
        changed_configs: list[str] = []
        dirty = len(registry) != len(image.topics)
        for t in image.topics.values():
            configs = validate_topic_configs(t.configs)
            old = registry.by_name.get(t.name)
            if old is not None and old.configs != configs:
                changed_configs.append(t.name)
            meta = TopicMetadata(t.name, t.topic_id, len(t.partitions), len(t.partitions[0].replicas), configs)
            if old is None or old.to_json() != meta.to_json():
                dirty = True
                registry.by_name[t.name] = meta
                registry.by_id[t.topic_id] = meta
        if dirty:  # most images only change leaders/ISRs: no fsync on the loop for those
            registry.save()
        for name in changed_configs:
            self.apply_topic_configs(name)
        states = [p for t in image.topics.values() for p in t.partitions]
        self.replicas.apply_partition_states(
            states, image.endpoints(), {t.name: registry.by_name[t.name].configs for t in image.topics.values()}
        )
        for listener in self.image_listeners:
            listener(previous, image)
        for apply_security in self.security_listeners:
            apply_security(msg.get("security"))
        for key, apply_section in self.image_sections.items():
            if key in msg:
                apply_section(msg[key])
        if self.lifecycle is not None and self.lifecycle.lifecycle.caught_up_once:
            self.lifecycle.set_ready_to_unfence()
        self._check_ready()
