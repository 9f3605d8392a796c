"""Tiered storage (KIP-405) for the embedded broker.

Enable it on the broker and per topic::

    EmbeddedBroker(**{
        "remote.log.storage.system.enable": True,
        "rsm.config.dir": "/data/remote",             # LocalTieredStorage's directory
        "remote.log.manager.task.interval.ms": 1000,
    })
    admin.create_topics([NewTopic("events", 3, 1, config={
        "remote.storage.enable": "true",
        "local.retention.ms": "3600000",             # one hour on local disk...
        "retention.ms": "2592000000",                # ...30 days in total (remote + local)
    })])

Rolled segments below the last stable offset are copied to the remote tier in the background;
local retention deletes only copied segments; consumers read the whole log as before, the part
below the local log start offset served from the remote tier.

Plugging in another store
-------------------------
Two plugins, chosen by Python class path and configured through a prefix, as in Kafka:

- `remote.log.storage.manager.class.name` (a `RemoteStorageManager`), configured with the
  broker configs starting with `remote.log.storage.manager.impl.prefix` (default `rsm.config.`);
- `remote.log.metadata.manager.class.name` (a `RemoteLogMetadataManager`), configured with those
  under `remote.log.metadata.manager.impl.prefix` (default `rlmm.config.`).

The metadata manager is the source of truth (which segments exist, in which state), so an object
store only needs put / ranged get / delete by key, never a listing. Shipped for S3 and
S3-compatible stores (`pip install 'pykafka-suite[s3]'`, boto3; `s3.py` documents the configs)::

    # server.properties
    remote.log.storage.system.enable=true
    remote.log.storage.manager.class.name=broker_embedded.tiered.s3.S3RemoteStorageManager
    rsm.config.s3.bucket.name=my-bucket
    rsm.config.s3.endpoint.url=http://127.0.0.1:9000     # omit for AWS S3
    rsm.config.s3.path.style.access.enabled=true

The metadata then stays in the file-based manager under the log directory (a broker's remote
segments are found through it, not by listing the bucket).

Errors: raise `RemoteStorageException` for failures (copies are retried with backoff, reads answer
KAFKA_STORAGE_ERROR) and `RemoteResourceNotFoundException` for missing objects. Calls come from
several worker threads at once. The shipped implementations (`local.py`, `s3.py`) are small and
complete references: `LocalTieredStorage` (a directory, `rsm.config.dir`, default `<log dir>/remote-log-storage`)
and `FileBasedRemoteLogMetadataManager` (an fsynced append-only metadata log, `rlmm.config.dir`,
default `<log dir>/remote-log-metadata`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from .config import RemoteLogManagerConfig
from .local import FileBasedRemoteLogMetadataManager, LocalTieredStorage
from .manager import RemoteLogManager
from .partitions import TieredPartition
from .reader import RemoteFetchInfo, RemoteStorageError
from .storage import (
    IndexType,
    LogSegmentData,
    RemoteLogMetadataManager,
    RemoteLogSegmentId,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentMetadataUpdate,
    RemoteLogSegmentState,
    RemotePartitionDeleteMetadata,
    RemotePartitionDeleteState,
    RemoteResourceNotFoundException,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
)

BROKER_DISABLED_MESSAGE = (
    "Tiered Storage functionality is disabled in the broker. Topic cannot be configured with remote log storage: "
    "set remote.log.storage.system.enable=true on the broker first."
)
DISABLE_WITHOUT_DELETE_MESSAGE = (
    "It is invalid to disable remote storage without deleting remote data. If you want to keep the remote data "
    "and turn to read only, please set `remote.storage.enable=true,remote.log.copy.disable=true`. If you want to "
    "disable remote storage and delete all remote data, please set "
    "`remote.storage.enable=false,remote.log.delete.on.disable=true`."
)


def validate_topic_tiering(
    broker_enabled: bool, effective: Mapping[str, Any], previous: Mapping[str, Any] | None = None
) -> str | None:
    """The checks CreateTopics/AlterConfigs make on tiering that need more than the topic's own
    configs: returns the INVALID_CONFIG message, or None. (Compaction and local vs total retention
    are checked by LogConfig.)"""
    enabled = bool(effective.get("remote.storage.enable"))
    was_enabled = bool(previous.get("remote.storage.enable")) if previous is not None else False
    if enabled and not was_enabled and not broker_enabled:
        return BROKER_DISABLED_MESSAGE
    if was_enabled and not enabled and not effective.get("remote.log.delete.on.disable"):
        return DISABLE_WITHOUT_DELETE_MESSAGE
    return None


def remote_log_manager_from_config(
    config: Any, log_dir: Path, broker_id: int, partitions: Callable[[], Iterable[TieredPartition]]
) -> RemoteLogManager:
    """The broker's RemoteLogManager. The broker calls this only with remote.log.storage.system.enable
    =true (and imports this package only then). `config` is a BrokerConfig (its `unknown` map carries
    the plugins' prefixed settings)."""
    all_items: dict[str, Any] = {**getattr(config, "unknown", {}), **getattr(config, "explicit", {})}
    rlm_config = RemoteLogManagerConfig.from_configs(config.__getitem__, all_items)
    return RemoteLogManager(rlm_config, log_dir, broker_id, partitions)


__all__ = [
    "BROKER_DISABLED_MESSAGE",
    "DISABLE_WITHOUT_DELETE_MESSAGE",
    "FileBasedRemoteLogMetadataManager",
    "IndexType",
    "LocalTieredStorage",
    "LogSegmentData",
    "RemoteFetchInfo",
    "RemoteLogManager",
    "RemoteLogManagerConfig",
    "RemoteLogMetadataManager",
    "RemoteLogSegmentId",
    "RemoteLogSegmentMetadata",
    "RemoteLogSegmentMetadataUpdate",
    "RemoteLogSegmentState",
    "RemotePartitionDeleteMetadata",
    "RemotePartitionDeleteState",
    "RemoteResourceNotFoundException",
    "RemoteStorageError",
    "RemoteStorageException",
    "RemoteStorageManager",
    "TieredPartition",
    "TopicIdPartition",
    "remote_log_manager_from_config",
    "validate_topic_tiering",
]
