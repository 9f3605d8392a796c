"""Topic administration on this broker: create and delete topics, add partitions, change topic
configs, and the limits a new partition must fit (Kafka splits this between the controller's
ReplicationControlManager and the broker's ConfigAdminManager; a single node does both here).

In cluster mode the controller decides topics: a synchronous creation is sent to it through the
controller client and answered LEADER_NOT_AVAILABLE, which clients retry. The partitions
themselves are hosted by the replica manager (`ReplicaManager.new_partition`).
"""

from __future__ import annotations

import asyncio
import logging
import resource
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from broker_embedded.config import effective_topic_configs, validate_topic_configs
from broker_embedded.log.config import LogConfig
from broker_embedded.topic_registry import TopicMetadata, TopicRegistry, validate_topic_name
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ControllerClient
    from broker_embedded.log.log_dirs import LogDirs
    from broker_embedded.log.manager import LogManager
    from broker_embedded.replication.replica_manager import ReplicaManager

log = logging.getLogger(__name__)

# Partitions created per worker-thread task: between chunks the loop registers them and serves
# other clients.
_CREATE_CHUNK = 500
# Descriptors kept free of partitions for connections, checkpoints and segment rolls.
_RESERVED_FILE_DESCRIPTORS = 512


class TopicConfigs:
    """A topic's effective configs (its overrides over the broker's defaults) and the log layer's
    view of them; the replica manager resolves through it too."""

    def __init__(self, config: Any) -> None:
        self.config = config

    def resolve(self, overrides: Mapping[str, Any]) -> tuple[dict[str, Any], LogConfig]:
        """Resolved once per topic. The log layer has cross-field checks of its own: a refusal is
        INVALID_CONFIG."""
        effective = effective_topic_configs(self.config, dict(overrides))
        try:
            return effective, LogConfig.from_dict({k: _to_prop(v) for k, v in effective.items()})
        except ValueError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None

    def check_tiering(self, effective: dict[str, Any], previous: dict[str, Any] | None) -> None:
        """Tiering needs the broker switch, and is switched off only with its remote data deleted."""
        from broker_embedded.tiered import validate_topic_tiering  # not at start: tiered is optional

        problem = validate_topic_tiering(self.config["remote.log.storage.system.enable"], effective, previous)
        if problem is not None:
            raise KafkaError(problem, ErrorCode.INVALID_CONFIG)


class TopicAdmin:
    def __init__(
        self,
        config: Any,
        topics: TopicRegistry,
        log_manager: LogManager | LogDirs,
        replicas: ReplicaManager,
        topic_configs: TopicConfigs,
    ) -> None:
        self.config = config
        self.topics = topics
        self.log_manager = log_manager
        self.replicas = replicas
        self.topic_configs = topic_configs
        # cluster mode: set by the broker once its controller client exists
        self.controller_client: ControllerClient | None = None
        # topics whose partitions are being created off the loop (create_topic_async)
        self._creating_topics: set[str] = set()
        self._creating_partitions = 0

    def open_partitions(self, topic: TopicMetadata, indexes: range) -> None:
        effective, log_config = self.topic_configs.resolve(topic.configs)
        # one directory fsync for all new logs (auto-creation and __consumer_offsets run here, on
        # the loop: 50 fsyncs would stall every client)
        for index, log_ in zip(indexes, self.log_manager.create_logs(topic.name, indexes, log_config), strict=True):
            # a log loaded at startup was opened with the default config: apply the topic's
            log_.update_config(log_config)
            self.replicas.new_partition(topic.name, index, topic.topic_id, log_, effective)

    def open_stored_topics(self) -> None:
        """At startup: host the partitions of every stored topic."""
        partitions = self.replicas.partitions
        for topic in self.topics:
            try:
                self.check_partition_limit(topic.num_partitions)
                self.open_partitions(topic, range(topic.num_partitions))
            except (KafkaError, ValueError) as e:
                # a stored topic this broker cannot serve must not keep the others down
                for index in range(topic.num_partitions):
                    if partitions.pop((topic.name, index), None) is None:
                        break
                self.topics.refuse(topic.name, str(e))

    def check_partition_limit(self, added: int) -> None:
        """Refuse partitions beyond max.broker.partitions (ours; Kafka's KIP-578 proposed the name
        but Kafka has no such limit) or beyond what the open-file limit can hold: each partition
        keeps its active segment open, and running out of descriptors mid-creation would fail
        every other client's request too."""
        total = len(self.replicas.partitions) + self._creating_partitions + added
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
                f"The target replication factor of {replication_factor} cannot be reached because only 1 broker(s) "
                "are registered or some brokers have all their log directories cordoned.",  # Kafka 4.3's words
                ErrorCode.INVALID_REPLICATION_FACTOR,
            )
        try:
            parsed = validate_topic_configs(configs or {})
        except ValueError as e:
            raise KafkaError(str(e), ErrorCode.INVALID_CONFIG) from None
        effective, _ = self.topic_configs.resolve(parsed)  # refuse before anything is persisted
        self.topic_configs.check_tiering(effective, None)
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
        effective, log_config = self.topic_configs.resolve(overrides)
        loop = asyncio.get_running_loop()
        for start in range(indexes.start, indexes.stop, _CREATE_CHUNK):
            chunk = range(start, min(start + _CREATE_CHUNK, indexes.stop))
            logs = await loop.run_in_executor(None, self.log_manager.create_logs, name, chunk, log_config)
            for index, log_ in zip(chunk, logs, strict=True):
                log_.update_config(log_config)  # a directory left from before keeps its own
                self.replicas.new_partition(name, index, topic_id, log_, effective)

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
        self.open_partitions(topic, range(num_partitions))
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
        elif name == "__transaction_state":
            rf = max(1, min(int(self.config.get("transaction.state.log.replication.factor", 3)), live))
        else:
            rf = self.config["default.replication.factor"]
        self.controller_client.create_topic_in_background(name, num_partitions, rf)
        raise KafkaError(f"Topic {name} is being created", ErrorCode.LEADER_NOT_AVAILABLE)

    def apply_topic_configs(self, name: str) -> None:
        """Apply a topic's (already stored) overrides to the logs of its local partitions."""
        topic = self.topics.get(name)
        if topic is None:
            return
        effective, log_config = self.topic_configs.resolve(topic.configs)
        self._apply(topic, effective, log_config)

    def _apply(self, topic: TopicMetadata, effective: dict[str, Any], log_config: LogConfig) -> None:
        for index in range(topic.num_partitions):
            p = self.replicas.partitions.get((topic.name, index))
            if p is not None:
                p.log.update_config(log_config)
                p.update_topic_configs(effective)

    def delete_topic(self, name: str) -> TopicMetadata:
        if not self.config["delete.topic.enable"]:
            raise KafkaError("Topic deletion is disabled.", ErrorCode.TOPIC_DELETION_DISABLED)
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        for index in range(topic.num_partitions):
            p = self.replicas.partitions.pop((name, index), None)
            if p is not None:
                p.on_deleted()
            self.log_manager.delete_log(name, index)
        rlm = self.replicas.remote_log_manager
        if rlm is not None:
            # remote data is keyed by topic id and removed in the background (also after a restart)
            rlm.on_partitions_deleted(topic.topic_id, name, range(topic.num_partitions))
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
        effective, log_config = self.topic_configs.resolve(overrides)
        self.topic_configs.check_tiering(effective, self.topic_configs.resolve(topic.configs)[0])
        if validate_only:
            return
        topic.configs = dict(overrides)
        self.topics.save()
        self._apply(topic, effective, log_config)


def _to_prop(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(v)
    return str(v)
