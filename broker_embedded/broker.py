"""The broker: the state every API handler works on, and request dispatch.

Everything here runs on the broker's asyncio loop thread; disk maintenance (retention, flushes,
checkpoints) runs in a worker thread so it never delays another client's request.
"""

from __future__ import annotations

import asyncio
import logging
import os
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
from broker_embedded.versions import advertised_versions
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol import decode_request_body, encode_response
from kafka_wire.protocol.messages import api_versions_response

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
        self.topics = TopicRegistry(log_dir)
        self.log_manager = LogManager(log_dir, producer_id_expiration_ms=config["producer.id.expiration.ms"])
        self.log_manager.startup()
        self.partitions: dict[tuple[str, int], Partition] = {}
        self.producer_ids = ProducerIdManager(log_dir)
        self.advertised = advertised_versions(set(apis.HANDLERS))
        self.fetch_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Fetch")
        self.reaper: ExpirationReaper | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self._maintenance_task: asyncio.Task[None] | None = None
        for topic in self.topics:
            self._open_partitions(topic, range(topic.num_partitions))
        self.group_coordinator = GroupCoordinator(self)
        self.group_coordinator.load()

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

    async def _maintenance(self) -> None:
        interval_ms = min(self.config["log.retention.check.interval.ms"], 1000)
        assert self.loop is not None
        while True:
            await asyncio.sleep(interval_ms / 1000)
            try:
                await self.loop.run_in_executor(None, self.run_maintenance)
                self.group_coordinator.expire_offsets()
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
        self.group_coordinator.shutdown()
        self.fetch_purgatory.shutdown()
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

    def _open_partitions(self, topic: TopicMetadata, indexes: range) -> None:
        effective, log_config = self._resolve_topic_configs(topic.configs)
        for index in indexes:
            log_ = self.log_manager.get_or_create_log(topic.name, index, log_config)
            p = Partition(topic.name, index, topic.topic_id, log_, self)
            p.update_topic_configs(effective)
            self.partitions[(topic.name, index)] = p

    def create_topic(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata:
        validate_topic_name(name)
        if name in self.topics.by_name:
            raise KafkaError(f"Topic '{name}' already exists.", ErrorCode.TOPIC_ALREADY_EXISTS)
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
        self._resolve_topic_configs(parsed)  # refuse before anything is persisted
        if validate_only:
            return TopicMetadata(name, b"\x00" * 16, num_partitions, replication_factor, parsed)
        topic = self.topics.add(name, num_partitions, replication_factor, parsed)
        self._open_partitions(topic, range(num_partitions))
        log.info("created topic %s with %d partitions", name, num_partitions)
        return topic

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
        self.topics.remove(name)
        log.info("deleted topic %s", name)
        return topic

    def create_partitions(self, name: str, count: int, validate_only: bool = False) -> None:
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
        if validate_only:
            return
        old = topic.num_partitions
        topic.num_partitions = count
        self.topics.save()
        self._open_partitions(topic, range(old, count))

    def set_topic_configs(self, name: str, overrides: dict[str, Any], validate_only: bool = False) -> None:
        """Replace a topic's overrides (already validated) and apply them to its logs."""
        topic = self.topics.get(name)
        if topic is None:
            raise KafkaError(f"Topic {name} does not exist", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        effective, log_config = self._resolve_topic_configs(overrides)
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
