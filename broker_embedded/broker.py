"""The broker: the state every API handler works on, and request dispatch.

Everything here runs on the broker's asyncio loop thread; disk maintenance (retention, flushes,
checkpoints) runs in a worker thread so it never delays another client's request.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import time
import uuid
from pathlib import Path
from typing import Any

from broker_embedded import apis
from broker_embedded.config import BrokerConfig, effective_topic_configs, validate_topic_configs
from broker_embedded.group.coordinator import GroupCoordinator
from broker_embedded.log.config import LogConfig
from broker_embedded.log.manager import LogManager
from broker_embedded.metadata import TopicMetadata, TopicRegistry, validate_topic_name
from broker_embedded.network.server import RequestContext, RequestRejected
from broker_embedded.partition import Partition
from broker_embedded.producer_ids import ProducerIdManager
from broker_embedded.purgatory import DelayedOperationPurgatory, ExpirationReaper
from broker_embedded.replication.controller_client import ClusterImage, ControllerClient
from broker_embedded.replication.replica_manager import ReplicaManager
from broker_embedded.tiered import RemoteLogManager, remote_log_manager_from_config, validate_topic_tiering
from broker_embedded.versions import advertised_versions
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol import decode_request_body, encode_response
from kafka_wire.protocol.messages import api_versions_response

log = logging.getLogger(__name__)

API_VERSIONS_KEY = 18
# Partitions created per worker-thread task: between chunks the loop registers them and serves
# other clients.
_CREATE_CHUNK = 500
# Descriptors kept free of partitions for connections, checkpoints and segment rolls.
_RESERVED_FILE_DESCRIPTORS = 512


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
        self.log_manager = LogManager(log_dir, producer_id_expiration_ms=config["producer.id.expiration.ms"])
        self.log_manager.startup()
        self.partitions: dict[tuple[str, int], Partition] = {}
        # topics whose partitions are being created off the loop (create_topic_async)
        self._creating_topics: set[str] = set()
        self._creating_partitions = 0
        # tiered storage (KIP-405): None unless remote.log.storage.system.enable=true
        self.remote_log_manager: RemoteLogManager | None = remote_log_manager_from_config(
            config, log_dir, self.node_id, lambda: list(self.partitions.values())
        )
        self.producer_ids = ProducerIdManager(log_dir)
        self.advertised = advertised_versions(set(apis.HANDLERS))
        self.fetch_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Fetch")
        self.reaper: ExpirationReaper | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._maintenance_task: asyncio.Task[None] | None = None
        # leader/follower roles, follower fetchers, ISR, acks=all (broker_embedded.replication)
        self.replica_manager = ReplicaManager(self)
        for topic in self.topics:
            try:
                self.check_partition_limit(topic.num_partitions)
                self._open_partitions(topic, range(topic.num_partitions))
            except (KafkaError, ValueError) as e:
                # a stored topic this broker cannot serve must not keep the others down
                for index in range(topic.num_partitions):
                    if self.partitions.pop((topic.name, index), None) is None:
                        break
                self.topics.refuse(topic.name, str(e))
        self.group_coordinator = GroupCoordinator(self)
        self.group_coordinator.load()
        # cluster mode: the controller decides topics, leaders and ISRs (see broker_embedded.controller)
        controller = config["controller.quorum.bootstrap.servers"]
        self.controller_client: ControllerClient | None = ControllerClient(self, controller) if controller else None
        if self.controller_client is not None:
            self.producer_ids = self.controller_client.producer_ids  # type: ignore[assignment]  # cluster-wide ids

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
            tmp = path.with_suffix(".tmp")
            tmp.write_text(f"version=1\ncluster.id={cluster_id}\nnode.id={self.node_id}\n")
            os.replace(tmp, path)
        return cluster_id

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.reaper = ExpirationReaper(self.fetch_purgatory.timer)
        self.reaper.start()
        self._maintenance_task = loop.create_task(self._maintenance())
        if self.remote_log_manager is not None:
            self.remote_log_manager.start()
        self.replica_manager.start(loop)

    async def _maintenance(self) -> None:
        interval_ms = min(self.config["log.retention.check.interval.ms"], 1000)
        assert self.loop is not None
        while True:
            await asyncio.sleep(interval_ms / 1000)
            try:
                await self.loop.run_in_executor(None, self.run_maintenance)
                self.group_coordinator.expire_offsets()
            except KafkaError as e:
                # e.g. the log dir is offline: its state logged that once; no traceback per tick
                log.debug("log maintenance skipped: %s", e)
            except Exception:
                log.exception("log maintenance failed")

    def run_maintenance(self) -> None:
        """Retention, segment rolls by time, flushes and checkpoints (called from a worker thread)."""
        now_ms = int(time.time() * 1000)
        self.log_manager.run_maintenance(now_ms)

    def shutdown(self) -> None:
        if self._maintenance_task is not None:
            self._maintenance_task.cancel()
        if self.reaper is not None:
            self.reaper.stop()
        self.replica_manager.shutdown()
        self.group_coordinator.shutdown()
        self.fetch_purgatory.shutdown()
        if self.remote_log_manager is not None:
            self.remote_log_manager.shutdown()
        self.log_manager.shutdown()

    # --- topics ----------------------------------------------------------------------------
    def _resolve_topic_configs(self, overrides: dict[str, Any]) -> tuple[dict[str, Any], LogConfig]:
        """A topic's effective configs and the log layer's view of them, resolved once per topic.

        The log layer has cross-field checks of its own: a refusal is INVALID_CONFIG.
        """
        effective = effective_topic_configs(self.config, overrides)
        try:
            return effective, LogConfig.from_dict({k: _to_prop(v) for k, v in effective.items()})
        except ValueError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None

    def _check_tiering(self, effective: dict[str, Any], previous: dict[str, Any] | None) -> None:
        """Tiering needs the broker switch, and is switched off only with its remote data deleted."""
        problem = validate_topic_tiering(self.config["remote.log.storage.system.enable"], effective, previous)
        if problem is not None:
            raise KafkaError(problem, ErrorCode.INVALID_CONFIG)

    def _open_partitions(self, topic: TopicMetadata, indexes: range) -> None:
        effective, log_config = self._resolve_topic_configs(topic.configs)
        # one directory fsync for all new logs (auto-creation and __consumer_offsets run here, on
        # the loop: 50 fsyncs would stall every client)
        for index, log_ in zip(indexes, self.log_manager.create_logs(topic.name, indexes, log_config), strict=True):
            # a log loaded at startup was opened with the default config: apply the topic's
            log_.update_config(log_config)
            p = Partition(topic.name, index, topic.topic_id, log_, self)
            p.update_topic_configs(effective)
            self.partitions[(topic.name, index)] = p

    def check_partition_limit(self, added: int) -> None:
        """Refuse partitions beyond max.broker.partitions (ours; Kafka's KIP-578 proposed the name
        but Kafka has no such limit) or beyond what the open-file limit can hold: each partition
        keeps its active segment open, and running out of descriptors mid-creation would fail
        every other client's request too."""
        total = len(self.partitions) + self._creating_partitions + added
        limit = self.config["max.broker.partitions"]
        if total > limit:
            raise KafkaError(
                f"Creating {added} partitions would bring this broker to {total} partitions, more than "
                f"max.broker.partitions={limit}.",
                ErrorCode.POLICY_VIOLATION,
            )
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and total + _RESERVED_FILE_DESCRIPTORS > soft:
            raise KafkaError(
                f"Creating {added} partitions would bring this broker to {total} partitions, each holding an "
                f"open file, beyond the process's open-file limit ({soft}, ulimit -n) less "
                f"{_RESERVED_FILE_DESCRIPTORS} kept for connections.",
                ErrorCode.POLICY_VIOLATION,
            )

    def _prepare_topic(
        self, name: str, num_partitions: int, replication_factor: int, configs: dict[str, Any] | None
    ) -> tuple[int, int, dict[str, Any]]:
        """Single node: validate a new topic; (partitions, replication factor, parsed overrides)."""
        if num_partitions == -1:
            num_partitions = self.config["num.partitions"]
        if num_partitions <= 0:
            raise KafkaError("Number of partitions must be larger than 0.", ErrorCode.INVALID_PARTITIONS)
        if replication_factor == -1:
            replication_factor = self.config["default.replication.factor"]
        if replication_factor <= 0:
            raise KafkaError("Replication factor must be larger than 0.", ErrorCode.INVALID_REPLICATION_FACTOR)
        if replication_factor > 1:
            raise KafkaError(
                f"Unable to replicate the partition {replication_factor} time(s): "
                "The target replication factor of 1 cannot be reached because only 1 broker(s) are registered.",
                ErrorCode.INVALID_REPLICATION_FACTOR,
            )
        try:
            parsed = validate_topic_configs(configs or {})
        except ValueError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None
        effective, _ = self._resolve_topic_configs(parsed)  # refuse before anything is persisted
        self._check_tiering(effective, None)
        self.check_partition_limit(num_partitions)
        return num_partitions, replication_factor, parsed

    async def create_topic_async(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata:
        """CreateTopics on a single node without stalling other clients: the logs (directories,
        files, one directory fsync) are created on a worker thread, the partitions registered on
        the loop in chunks; the topic becomes visible only when all its partitions exist."""
        validate_topic_name(name)
        if name in self.topics.by_name or name in self._creating_topics:
            raise KafkaError(f"Topic '{name}' already exists.", ErrorCode.TOPIC_ALREADY_EXISTS)
        num_partitions, replication_factor, parsed = self._prepare_topic(
            name, num_partitions, replication_factor, configs
        )
        if validate_only:
            return TopicMetadata(name, b"\x00" * 16, num_partitions, replication_factor, parsed)
        topic_id = uuid.uuid4().bytes
        self._creating_topics.add(name)
        self._creating_partitions += num_partitions
        try:
            await self._open_partitions_async(name, topic_id, parsed, range(num_partitions))
            topic = self.topics.add(name, num_partitions, replication_factor, parsed, topic_id=topic_id)
        finally:
            self._creating_topics.discard(name)
            self._creating_partitions -= num_partitions
        log.info("created topic %s with %d partitions", name, num_partitions)
        return topic

    async def _open_partitions_async(
        self, name: str, topic_id: bytes, overrides: dict[str, Any], indexes: range
    ) -> None:
        effective, log_config = self._resolve_topic_configs(overrides)
        loop = asyncio.get_running_loop()
        for start in range(indexes.start, indexes.stop, _CREATE_CHUNK):
            chunk = range(start, min(start + _CREATE_CHUNK, indexes.stop))
            logs = await loop.run_in_executor(None, self.log_manager.create_logs, name, chunk, log_config)
            for index, log_ in zip(chunk, logs, strict=True):
                log_.update_config(log_config)  # a directory left from before keeps its own
                p = Partition(name, index, topic_id, log_, self)
                p.update_topic_configs(effective)
                self.partitions[(name, index)] = p

    def create_topic(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata:
        """Synchronous creation (auto-creation by Metadata, __consumer_offsets): small topics."""
        validate_topic_name(name)
        if name in self.topics.by_name or name in self._creating_topics:
            raise KafkaError(f"Topic '{name}' already exists.", ErrorCode.TOPIC_ALREADY_EXISTS)
        if self.controller_client is not None:
            return self._create_topic_on_controller(name, num_partitions, configs)
        num_partitions, replication_factor, parsed = self._prepare_topic(
            name, num_partitions, replication_factor, configs
        )
        if validate_only:
            return TopicMetadata(name, b"\x00" * 16, num_partitions, replication_factor, parsed)
        topic = self.topics.add(name, num_partitions, replication_factor, parsed)
        self._open_partitions(topic, range(num_partitions))
        log.info("created topic %s with %d partitions", name, num_partitions)
        return topic

    def _create_topic_on_controller(
        self, name: str, num_partitions: int, configs: dict[str, Any] | None
    ) -> TopicMetadata:
        """Synchronous callers (auto-creation by Metadata, __consumer_offsets by the group
        coordinator) cannot wait for the controller: the creation is sent and the caller is told the
        leader is not available yet, which Kafka clients retry (as with Kafka's own auto-creation)."""
        assert self.controller_client is not None
        if num_partitions == -1:
            num_partitions = self.config["num.partitions"]
        image = self.controller_client.image
        live = len(image.live_brokers()) if image is not None else 1
        if name == "__consumer_offsets":
            rf = max(1, min(self.config["offsets.topic.replication.factor"], live))
        else:
            rf = self.config["default.replication.factor"]
        self.controller_client.create_topic_in_background(name, num_partitions, rf)
        raise KafkaError(f"Topic {name} is being created", ErrorCode.LEADER_NOT_AVAILABLE)

    def adopt_cluster_id(self, cluster_id: str) -> bool:
        """Cluster mode: take the controller's cluster id, unless this log dir already holds topics
        of another cluster (then False). Persisted in meta.properties like a KRaft log dir."""
        if len(self.topics) and self._meta_cluster_id_was_stored:
            return False
        path = self.log_dir / "meta.properties"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(f"version=1\ncluster.id={cluster_id}\nnode.id={self.node_id}\n")
        os.replace(tmp, path)
        self.cluster_id = cluster_id
        self._meta_cluster_id_was_stored = True
        return True

    @property
    def cluster_mode(self) -> bool:
        return self.controller_client is not None

    def apply_topic_configs(self, name: str) -> None:
        """Apply a topic's (already stored) overrides to the logs of its local partitions."""
        topic = self.topics.get(name)
        if topic is None:
            return
        effective, log_config = self._resolve_topic_configs(topic.configs)
        for index in range(topic.num_partitions):
            p = self.partitions.get((name, index))
            if p is not None:
                p.log.update_config(log_config)
                p.update_topic_configs(effective)

    def on_cluster_image(self, previous: ClusterImage | None, image: ClusterImage) -> None:
        """After the replica manager applied a new controller image (cluster mode)."""
        hook = getattr(self.group_coordinator, "on_cluster_image", None)
        if hook is not None:
            hook(previous, image)

    def delete_topic(self, name: str) -> TopicMetadata:
        if not self.config["delete.topic.enable"]:
            raise KafkaError("Topic deletion is disabled.", ErrorCode.TOPIC_DELETION_DISABLED)
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        for index in range(topic.num_partitions):
            p = self.partitions.pop((name, index), None)
            if p is not None:
                p.on_deleted()
            self.log_manager.delete_log(name, index)
        if self.remote_log_manager is not None:
            # remote data is keyed by topic id and removed in the background (also after a restart)
            self.remote_log_manager.on_partitions_deleted(topic.topic_id, name, range(topic.num_partitions))
        self.topics.remove(name)
        log.info("deleted topic %s", name)
        return topic

    async def create_partitions(self, name: str, count: int, validate_only: bool = False) -> None:
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"The topic '{name}' does not exist.", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        if count < topic.num_partitions:
            raise KafkaError(
                f"Topic currently has {topic.num_partitions} partitions, which is higher than the requested {count}.",
                ErrorCode.INVALID_PARTITIONS,
            )
        if count == topic.num_partitions:
            raise KafkaError(f"Topic already has {count} partitions.", ErrorCode.INVALID_PARTITIONS)
        if name in self._creating_topics:
            raise KafkaError(f"Partitions of topic '{name}' are being created.", ErrorCode.REASSIGNMENT_IN_PROGRESS)
        self.check_partition_limit(count - topic.num_partitions)
        if validate_only:
            return
        old = topic.num_partitions
        # like a new topic: logs on a worker thread, the new partitions visible when all exist
        self._creating_topics.add(name)
        self._creating_partitions += count - old
        try:
            await self._open_partitions_async(name, topic.topic_id, topic.configs, range(old, count))
        finally:
            self._creating_topics.discard(name)
            self._creating_partitions -= count - old
        topic.num_partitions = count
        self.topics.save()

    def set_topic_configs(self, name: str, overrides: dict[str, Any], validate_only: bool = False) -> None:
        """Replace a topic's overrides (already validated) and apply them to its logs."""
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        effective, log_config = self._resolve_topic_configs(overrides)
        self._check_tiering(effective, self._resolve_topic_configs(topic.configs)[0])
        if validate_only:
            return
        topic.configs = dict(overrides)
        self.topics.save()
        for index in range(topic.num_partitions):
            p = self.partitions.get((name, index))
            if p is not None:
                p.log.update_config(log_config)
                p.update_topic_configs(effective)

    def partition(self, topic: str, index: int) -> Partition | None:
        return self.partitions.get((topic, index))

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
        result = apis.HANDLERS[key].handle(self, ctx, request)
        if result is None:
            return None
        if isinstance(result, asyncio.Future):
            out: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

            def encode_when_done(f: asyncio.Future[Any]) -> None:
                if out.done():
                    return
                if f.cancelled():
                    out.cancel()
                elif f.exception() is not None:
                    out.set_exception(f.exception())  # type: ignore[arg-type]
                else:
                    out.set_result(encode_response(key, version, cid, f.result()))

            result.add_done_callback(encode_when_done)
            return out
        return encode_response(key, version, cid, result)


def _to_prop(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(v)
    return str(v)
