"""Broker configs of tiered storage (KIP-405), with Kafka's names and defaults; the plugins' own
settings are the broker configs under their prefixes (`rsm.config.`, `rlmm.config.`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

DEFAULT_RSM_DIR = "remote-log-storage"
DEFAULT_RLMM_DIR = "remote-log-metadata"
DEFAULT_RSM_CLASS = "broker_embedded.tiered.local.LocalTieredStorage"
DEFAULT_RLMM_CLASS = "broker_embedded.tiered.local.FileBasedRemoteLogMetadataManager"


@dataclass(slots=True)
class RemoteLogManagerConfig:
    """Broker configs of tiered storage, with Kafka's names and defaults."""

    task_interval_ms: int = 30000
    retry_backoff_ms: int = 500
    retry_backoff_max_ms: int = 30000
    retry_jitter: float = 0.2
    thread_pool_size: int = 10
    reader_threads: int = 10
    reader_max_pending_tasks: int = 100
    fetch_max_wait_ms: int = 500
    copy_timeout_ms: int = 300000
    copy_max_bytes_per_second: int = 2**63 - 1
    index_cache_total_size_bytes: int = 1 << 30
    rsm_class_name: str = DEFAULT_RSM_CLASS
    rlmm_class_name: str = DEFAULT_RLMM_CLASS
    rsm_configs: dict[str, Any] = field(default_factory=dict)
    rlmm_configs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_configs(cls, get: Callable[[str], Any], all_items: Mapping[str, Any]) -> RemoteLogManagerConfig:
        """`get(name)` reads a defined broker config; `all_items` holds every config given
        (unknown names included), from which the plugins' prefixed settings are taken."""
        rsm_prefix = get("remote.log.storage.manager.impl.prefix") or "rsm.config."
        rlmm_prefix = get("remote.log.metadata.manager.impl.prefix") or "rlmm.config."
        return cls(
            task_interval_ms=int(get("remote.log.manager.task.interval.ms")),
            retry_backoff_ms=int(get("remote.log.manager.task.retry.backoff.ms")),
            retry_backoff_max_ms=int(get("remote.log.manager.task.retry.backoff.max.ms")),
            retry_jitter=float(get("remote.log.manager.task.retry.jitter")),
            thread_pool_size=int(get("remote.log.manager.thread.pool.size")),
            reader_threads=int(get("remote.log.reader.threads")),
            reader_max_pending_tasks=int(get("remote.log.reader.max.pending.tasks")),
            fetch_max_wait_ms=int(get("remote.fetch.max.wait.ms")),
            copy_timeout_ms=int(get("remote.log.manager.copy.timeout.ms")),
            copy_max_bytes_per_second=int(get("remote.log.manager.copy.max.bytes.per.second")),
            index_cache_total_size_bytes=int(get("remote.log.index.file.cache.total.size.bytes")),
            rsm_class_name=get("remote.log.storage.manager.class.name") or DEFAULT_RSM_CLASS,
            rlmm_class_name=get("remote.log.metadata.manager.class.name") or DEFAULT_RLMM_CLASS,
            rsm_configs={k[len(rsm_prefix) :]: v for k, v in all_items.items() if k.startswith(rsm_prefix)},
            rlmm_configs={k[len(rlmm_prefix) :]: v for k, v in all_items.items() if k.startswith(rlmm_prefix)},
        )


__all__ = [
    "DEFAULT_RLMM_CLASS",
    "DEFAULT_RLMM_DIR",
    "DEFAULT_RSM_CLASS",
    "DEFAULT_RSM_DIR",
    "RemoteLogManagerConfig",
]
