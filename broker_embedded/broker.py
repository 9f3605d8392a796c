"""The broker: wires the broker's parts together (replica manager, topic administration, group
coordinator, controller client, tiered storage), owns their lifecycle, and dispatches requests.

The parts receive the narrow collaborators they use, not the broker; handlers receive the broker
and reach the part they work on (``broker.replica_manager``, ``broker.topic_admin``, ...).

Everything here runs on the broker's asyncio loop thread; disk maintenance (retention, flushes,
checkpoints) runs in a worker thread so it never delays another client's request.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded import apis
from broker_embedded.config import BrokerConfig
from broker_embedded.dynamic_config import DynamicBrokerConfig
from broker_embedded.features import FeatureLevels
from broker_embedded.group.coordinator import GroupCoordinator
from broker_embedded.group.group_configs import GroupConfigStore
from broker_embedded.group.share_coordinator import (
    DEFAULT_MAX_SHARE_SESSIONS,
    DEFAULT_MAX_SIZE,
    ShareCoordinator,
    other_protocol_group,
)
from broker_embedded.group.share_state_host import persist_remotely, remote_persister_wanted
from broker_embedded.log.log import Log
from broker_embedded.log.log_dirs import LogDirs, parse_log_dirs
from broker_embedded.log.manager import LogManager, PeriodicSchedule
from broker_embedded.network.server import RequestContext, RequestRejected
from broker_embedded.partition import Partition
from broker_embedded.producer_ids import ProducerIdManager
from broker_embedded.purgatory import ExpirationReaper, SystemTimer
from broker_embedded.quotas.enforce import ClientQuotas, throttle_request
from broker_embedded.quotas.store import ClientQuotaStore
from broker_embedded.replication.replica_manager import ReplicaManager
from broker_embedded.topic_admin import TopicAdmin, TopicConfigs
from broker_embedded.topic_registry import TopicMetadata, TopicRegistry
from broker_embedded.txn.coordinator import TransactionCoordinator
from broker_embedded.versions import advertised_versions
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol import decode_request_body, encode_response
from kafka_wire.protocol.messages import api_versions_response

# the controller client (cluster mode) and tiered storage are imported when configured: a single
# broker without them starts faster (issue 17: start -> ready)
if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ClusterImage, ControllerClient
    from broker_embedded.tiered import RemoteLogManager

log = logging.getLogger(__name__)

API_VERSIONS_KEY = 18


class Broker:
    def __init__(self, config: BrokerConfig, log_dir: Path) -> None:
        self.config = config
        self.node_id: int = config["broker.id"]
        self.log_dir = log_dir
        self.host: str = config["host.name"]
        self.port: int = config["port"]
        log_dir.mkdir(parents=True, exist_ok=True)
        self.cluster_id = self._load_meta_properties()
        self.topics = TopicRegistry(log_dir, max_partitions=config["max.broker.partitions"])
        self.log_manager: LogManager | LogDirs = self._log_dirs(config, log_dir)
        self.log_manager.startup()
        # log.cleaner.threads and .io.max.bytes.per.second: one pool and throttle for every log dir, as
        # Kafka's cleaner threads (resized and re-rated live)
        from broker_embedded.log.cleaner_pool import CleanerPool

        self.cleaner_pool = CleanerPool(
            config["log.cleaner.threads"], io_max_bytes_per_second=config["log.cleaner.io.max.bytes.per.second"]
        )
        for manager in (
            self.log_manager.managers.values() if isinstance(self.log_manager, LogDirs) else [self.log_manager]
        ):
            manager.cleaner_pool = self.cleaner_pool
        # one timer for every purgatory (produce, fetch, rebalance, heartbeat), driven by the reaper
        self.timer = SystemTimer(name="broker-timer")
        self.topic_configs = TopicConfigs(config)
        # the partitions hosted here, produce/fetch, leader/follower roles, ISR (broker_embedded.replication)
        self.replica_manager = ReplicaManager(config, self.topics, self.log_manager, self.topic_configs, self.timer)
        # tiered storage (KIP-405): None unless remote.log.storage.system.enable=true
        self.remote_log_manager: RemoteLogManager | None = None
        if config["remote.log.storage.system.enable"]:
            from broker_embedded.tiered import remote_log_manager_from_config

            self.remote_log_manager = remote_log_manager_from_config(
                config, log_dir, self.node_id, lambda: list(self.replica_manager.partitions.values())
            )
        self.replica_manager.remote_log_manager = self.remote_log_manager
        self.producer_ids = ProducerIdManager(log_dir)
        self.advertised = advertised_versions(set(apis.HANDLERS), config["group.coordinator.rebalance.protocols"])
        self.reaper: ExpirationReaper | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._maintenance_task: asyncio.Task[None] | None = None
        self.topic_admin = TopicAdmin(config, self.topics, self.log_manager, self.replica_manager, self.topic_configs)
        self.topic_admin.open_stored_topics()
        # cluster mode: the controller decides topics, leaders and ISRs (see broker_embedded.controller)
        controller = config["controller.quorum.bootstrap.servers"]
        self.group_coordinator = GroupCoordinator(
            config,
            self.topics,
            self.replica_manager,
            self.timer,
            self.topic_admin.create_topic,
            self._cluster_image if controller else None,
        )
        # share groups (KIP-932): groups, share sessions and the share-partitions this broker leads
        self.share_coordinator = ShareCoordinator(
            self.topics,
            self.partition,
            self.timer,
            self.replica_manager.fetch_purgatory,
            self.node_id,
            max_size=int(config.get("group.share.max.size", DEFAULT_MAX_SIZE)),
            max_share_sessions=int(config.get("group.share.max.share.sessions", DEFAULT_MAX_SHARE_SESSIONS)),
            other_group_exists=other_protocol_group(self.group_coordinator),
        )
        # share group membership is replayed with the other groups (Kafka's records in __consumer_offsets)
        self.share_coordinator.store_groups_in(self.group_coordinator)
        self.group_coordinator.load()
        self.share_coordinator.heartbeat_seen()  # members read back time out like live ones
        if not controller:  # share-partition state in __share_group_state (a cluster needs RPCs 83-86)
            self.share_coordinator.persist_to(self.topic_admin.create_topic, config.get)
        # transactions (broker_embedded.txn): loaded below, once the controller client exists
        self.txn_coordinator = TransactionCoordinator(self)
        self.replica_manager.txn_verifier = self.txn_coordinator.verify_partition
        self.controller_client: ControllerClient | None = None
        if controller:
            from broker_embedded.controller.controller_client import ControllerClient

            self.controller_client = ControllerClient(
                controller,
                config,
                self,
                self.topics,
                self.replica_manager,
                self.topic_admin.apply_topic_configs,
                [self.group_coordinator.on_cluster_image, self.txn_coordinator.on_cluster_image],
            )
        if controller and remote_persister_wanted(config):
            # share-partition state through the share coordinators (RPCs 83-86), Kafka's default;
            # group.share.persister.class.name="" keeps it in the leader's memory (Kafka's NoOp)
            persist_remotely(
                self.share_coordinator,
                lambda: (self.host, self.port),
                self._call_soon_threadsafe,
                lambda: self.replica_manager.inter_broker_security,  # TLS/SASL as the fetchers use
                config.get,
            )
        # client quotas (broker_embedded.quotas): stored here alone, the controller's in a cluster
        self.client_quotas = ClientQuotas(
            ClientQuotaStore(None if controller else log_dir / ClientQuotaStore.FILE_NAME),
            config["quota.window.num"],
            config["quota.window.size.seconds"],
        )
        self.client_quotas.store.load()
        # dynamic broker configs (AlterConfigs on BROKER resources): stored here alone, the controller's
        # in a cluster; a change resolves every topic's configs again
        self.dynamic_config = DynamicBrokerConfig(
            config, self.node_id, None if controller else log_dir / DynamicBrokerConfig.FILE_NAME
        )
        self.dynamic_config.listeners.append(self._dynamic_configs_changed)
        self.dynamic_config.load()
        if self.controller_client is not None:
            self.topic_admin.controller_client = self.controller_client
            self.controller_client.image_sections["client_quotas"] = self.client_quotas.store.load_json
            self.controller_client.image_sections["broker_configs"] = self.dynamic_config.load_json
            self.producer_ids = self.controller_client.producer_ids  # type: ignore[assignment]  # cluster-wide ids
        # per-group configs (group/group_configs.py): stored here alone, the controller's in a cluster
        self.group_configs = GroupConfigStore(config, None if controller else log_dir / GroupConfigStore.FILE_NAME)
        self.group_configs.load()
        self.group_coordinator.consumer_groups.group_configs = self.group_configs
        self.group_coordinator.streams_groups.group_configs = self.group_configs
        self.group_coordinator.consumer_groups.classic_coordinator = self.group_coordinator  # KIP-848 downgrade
        self.share_coordinator.group_configs = self.group_configs
        if self.controller_client is not None:
            self.controller_client.image_sections["group_configs"] = self.group_configs.load_json
        # finalized feature levels set by UpdateFeatures (broker_embedded/features.py): stored here alone,
        # the controller's in a cluster
        self.feature_levels = FeatureLevels(None if controller else log_dir / FeatureLevels.FILE_NAME)
        self.feature_levels.load()
        if self.controller_client is not None:
            self.controller_client.image_sections["features"] = self.feature_levels.load_json
        self.txn_coordinator.load()
        # several log dirs in a cluster (KIP-858): a failed dir's replicas go offline and the controller
        # moves their leadership to other brokers
        self._dir_failure_reports: set[asyncio.Task[None]] = set()
        if self.controller_client is not None and isinstance(self.log_manager, LogDirs):
            self.log_manager.on_dir_failure(self._log_dir_failed)

    def _log_dir_failed(self, path: str) -> None:
        """Any thread: a log dir failed (Kafka's LogDirFailureChannel -> ReplicaManager.handleLogDirFailure)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._take_log_dir_offline, path)

    def _take_log_dir_offline(self, path: str) -> None:
        """On the loop: stop serving the dir's partitions here, then report them to the controller."""
        assert isinstance(self.log_manager, LogDirs)
        partitions = self.log_manager.partitions_in(path)
        self.replica_manager.take_offline(partitions)
        assert self.loop is not None
        task = self.loop.create_task(self._report_offline_log_dir(path, partitions))
        self._dir_failure_reports.add(task)
        task.add_done_callback(self._dir_failure_reports.discard)

    async def _report_offline_log_dir(self, path: str, partitions: Sequence[tuple[str, int]]) -> None:
        """Tell the controller until it answers (Kafka: the heartbeat carries OfflineLogDirs until acknowledged;
        after log.dir.failure.timeout.ms without an answer Kafka's broker halts, ours keeps trying and says so)."""
        client = self.controller_client
        assert client is not None
        timeout_ms = int(self.config.get("log.dir.failure.timeout.ms", 30000))
        started = time.monotonic()
        while True:
            try:
                await client.request("log_dirs_offline", log_dir=path, partitions=[list(tp) for tp in partitions])
                log.warning(
                    "log dir %s failed: %d partitions reported offline to the controller", path, len(partitions)
                )
                return
            except KafkaError as e:
                if e.code == ErrorCode.INVALID_REQUEST:  # a controller without KIP-858 handling
                    log.error("the controller refused the failed log dir %s: %s", path, e)
                    return
                if (time.monotonic() - started) * 1000 > timeout_ms:
                    log.error("log dir %s failed and the controller has not acknowledged it: %s", path, e)
                    started = time.monotonic()
            await asyncio.sleep(0.5)

    def _dynamic_configs_changed(self) -> None:
        self.cleaner_pool.resize(self.config["log.cleaner.threads"])
        self.cleaner_pool.update_io_max_bytes_per_second(self.config["log.cleaner.io.max.bytes.per.second"])
        for topic in list(self.topics):
            self.topic_admin.apply_topic_configs(topic.name)

    def _call_soon_threadsafe(self, callback: Callable[..., Any], *args: Any) -> None:
        if self.loop is not None:
            self.loop.call_soon_threadsafe(callback, *args)

    def _cluster_image(self) -> ClusterImage | None:
        return self.controller_client.image if self.controller_client is not None else None

    @property
    def partitions(self) -> dict[tuple[str, int], Partition]:
        """The partitions hosted here (the replica manager's)."""
        return self.replica_manager.partitions

    # --- lifecycle -----------------------------------------------------------------------
    def _load_meta_properties(self) -> str:
        """cluster.id and node.id live in meta.properties, as in a KRaft log dir."""
        path = self.log_dir / "meta.properties"
        props: dict[str, str] = {}
        if path.exists():
            for line in path.read_text().splitlines():
                if "=" in line and not line.startswith("#"):
                    k, v = line.split("=", 1)
                    props[k.strip()] = v.strip()
        # a log dir that already belonged to a cluster (cluster mode refuses another controller's)
        self._meta_cluster_id_was_stored = "cluster.id" in props
        cluster_id = self.config["cluster.id"] or props.get("cluster.id")
        if not cluster_id:
            cluster_id = uuid.uuid4().hex[:22]
        if props.get("cluster.id") != cluster_id:
            self._write_meta_properties(cluster_id)
        return cluster_id

    def _write_meta_properties(self, cluster_id: str) -> None:
        """Replace meta.properties atomically (a crash leaves the old file or the new one)."""
        path = self.log_dir / "meta.properties"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(f"version=1\ncluster.id={cluster_id}\nnode.id={self.node_id}\n")
        os.replace(tmp, path)

    def _log_dirs(self, config: BrokerConfig, log_dir: Path) -> LogManager | LogDirs:
        """One LogManager in `log_dir`, or LogDirs when `log.dirs` names several dirs (JBOD)."""
        expiration_ms = config["producer.id.expiration.ms"]
        dirs = parse_log_dirs(config["log.dirs"])
        if len(dirs) < 2:
            return LogManager(log_dir, producer_id_expiration_ms=expiration_ms)
        io_rate = int(config.get("replica.alter.log.dirs.io.max.bytes.per.second", -1))
        log_dirs = LogDirs(dirs, producer_id_expiration_ms=expiration_ms, io_max_bytes_per_second=io_rate)

        def swapped(topic: str, partition: int, new_log: Log) -> None:
            p = self.replica_manager.partitions.get((topic, partition))
            if p is not None:
                p.log = new_log

        log_dirs.on_swap = swapped
        return log_dirs

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        if isinstance(self.log_manager, LogDirs):  # a replica move swaps its log on the loop

            def run_on_loop(fn: Callable[[], None]) -> None:
                loop.call_soon_threadsafe(fn)

            self.log_manager.run_swap = run_on_loop
        self.reaper = ExpirationReaper(self.timer)
        self.reaper.start()
        self._maintenance_task = loop.create_task(self._maintenance())
        if self.remote_log_manager is not None:
            self.remote_log_manager.start()
        self.replica_manager.start(loop)
        self.txn_coordinator.start(loop)

    async def _maintenance(self) -> None:
        # flushes, compaction, file deletions and checkpoints: every second (or faster with a
        # shorter retention interval); retention itself on Kafka's schedule, first
        # log.initial.task.delay.ms after start, then every log.retention.check.interval.ms (a
        # client producing old timestamps keeps its records for that long, as on Kafka)
        retention_interval_ms = self.config["log.retention.check.interval.ms"]
        retention = PeriodicSchedule(self.config["log.initial.task.delay.ms"], retention_interval_ms, self.timer.clock)
        # offsets expiry and the deletion of Empty groups: on Kafka's schedule too (the group
        # coordinator's first check one interval after it loaded, then every interval)
        group_interval_ms = self.config["offsets.retention.check.interval.ms"]
        group_cleanup = PeriodicSchedule(group_interval_ms, group_interval_ms, self.timer.clock)
        tick_ms = min(retention_interval_ms, 1000)
        assert self.loop is not None
        while True:
            await asyncio.sleep(min(tick_ms, retention.ms_until_due(), group_cleanup.ms_until_due()) / 1000)
            try:
                await self.loop.run_in_executor(None, self.run_maintenance, retention.due())
                if group_cleanup.due():
                    self.group_coordinator.expire_offsets()
            except KafkaError as e:
                # e.g. the log dir is offline: its state logged that once; no traceback per tick
                log.debug("log maintenance skipped: %s", e)
            except Exception:
                log.exception("log maintenance failed")

    def run_maintenance(self, retention: bool = True) -> None:
        """Retention (when due), segment rolls by time, flushes and checkpoints (called from a worker
        thread)."""
        now_ms = int(time.time() * 1000)
        self.log_manager.run_maintenance(now_ms, retention=retention)

    def shutdown(self) -> None:
        if self._maintenance_task is not None:
            self._maintenance_task.cancel()
        self.cleaner_pool.shutdown()
        if self.reaper is not None:
            self.reaper.stop()
        self.replica_manager.shutdown()
        self.group_coordinator.shutdown()
        self.txn_coordinator.shutdown()
        self.timer.shutdown()
        if self.remote_log_manager is not None:
            self.remote_log_manager.shutdown()
        self.log_manager.shutdown()

    # --- topics (broker_embedded.topic_admin) -----------------------------------------------
    def create_topic(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata:
        return self.topic_admin.create_topic(name, num_partitions, replication_factor, configs, validate_only)

    async def create_topic_async(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata:
        return await self.topic_admin.create_topic_async(
            name, num_partitions, replication_factor, configs, validate_only
        )

    def delete_topic(self, name: str) -> TopicMetadata:
        topic = self.topic_admin.delete_topic(name)
        self.group_coordinator.on_topics_deleted([name])  # Kafka's onPartitionsDeleted
        return topic

    async def create_partitions(self, name: str, count: int, validate_only: bool = False) -> None:
        await self.topic_admin.create_partitions(name, count, validate_only)

    def set_topic_configs(self, name: str, overrides: dict[str, Any], validate_only: bool = False) -> None:
        self.topic_admin.set_topic_configs(name, overrides, validate_only)

    def apply_topic_configs(self, name: str) -> None:
        self.topic_admin.apply_topic_configs(name)

    def partition(self, topic: str, index: int) -> Partition | None:
        return self.replica_manager.partitions.get((topic, index))

    def adopt_cluster_id(self, cluster_id: str) -> bool:
        """Cluster mode: take the controller's cluster id, unless this log dir already holds topics
        of another cluster (then False). Persisted in meta.properties like a KRaft log dir."""
        if len(self.topics) and self._meta_cluster_id_was_stored:
            return False
        self._write_meta_properties(cluster_id)
        self.cluster_id = cluster_id
        self._meta_cluster_id_was_stored = True
        return True

    @property
    def cluster_mode(self) -> bool:
        return self.controller_client is not None

    # --- dispatch ----------------------------------------------------------------------------
    def dispatch(self, ctx: RequestContext, frame: bytearray, body_pos: int) -> Any:
        key, version = ctx.header.api_key, ctx.header.api_version
        cid = ctx.header.correlation_id
        supported = self.advertised.get(key)
        if supported is None or not supported[0] <= version <= supported[1]:
            if key == API_VERSIONS_KEY:
                # KIP-511: answer an unknown ApiVersions version with a v0 body and header so
                # the client can read the error and retry with a version we support.
                body = api_versions_response.ApiVersionsResponse(
                    error_code=ErrorCode.UNSUPPORTED_VERSION,
                    api_keys=[
                        api_versions_response.ApiVersion(
                            api_key=API_VERSIONS_KEY, min_version=supported[0], max_version=supported[1]
                        )
                    ]
                    if supported
                    else [],
                )
                return encode_response(API_VERSIONS_KEY, 0, cid, body)
            raise RequestRejected(f"unsupported API key {key} version {version}")
        request = decode_request_body(ctx.header, frame, body_pos)
        started = time.perf_counter_ns()
        result = apis.HANDLERS[key].handle(self, ctx, request)
        if self.client_quotas.request.quotas_enabled:
            result = throttle_request(self.client_quotas, ctx, request, result, time.perf_counter_ns() - started)
        if result is None:
            return None
        if isinstance(result, asyncio.Future):
            out: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

            def encode_when_done(f: asyncio.Future[Any]) -> None:
                if out.done():
                    return
                if f.cancelled():
                    out.cancel()
                elif (error := f.exception()) is not None:
                    out.set_exception(error)
                elif (response := f.result()) is None:
                    out.set_result(None)  # acks=0 produce checked off the loop: no response
                else:
                    out.set_result(encode_response(key, version, cid, response))

            result.add_done_callback(encode_when_done)
            return out
        return encode_response(key, version, cid, result)
