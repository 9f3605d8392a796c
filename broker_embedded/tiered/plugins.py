"""The two tiered-storage plugins, chosen by class path as in Kafka
(`remote.log.storage.manager.class.name`, `remote.log.metadata.manager.class.name`) and configured
with the broker configs under their prefixes."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from .config import DEFAULT_RLMM_DIR, DEFAULT_RSM_DIR, RemoteLogManagerConfig
from .storage import RemoteLogMetadataManager, RemoteStorageManager


def load_plugin(class_name: str, base: type) -> Any:
    """Instantiate `package.module.ClassName` (no arguments) and check it implements `base`."""
    module_name, _, attr = class_name.rpartition(".")
    if not module_name:
        raise ValueError(f"{class_name!r} is not a class path (package.module.ClassName)")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"cannot load {class_name!r}: {e}") from e
    instance = cls()
    if not isinstance(instance, base):
        raise ValueError(f"{class_name} is not a {base.__name__}")
    return instance


def create_remote_storage_manager(config: RemoteLogManagerConfig, log_dir: Path) -> RemoteStorageManager:
    """The configured RemoteStorageManager; `dir` defaults to `<log dir>/remote-log-storage`."""
    rsm: RemoteStorageManager = load_plugin(config.rsm_class_name, RemoteStorageManager)
    rsm.configure({"dir": str(log_dir / DEFAULT_RSM_DIR), **config.rsm_configs})
    return rsm


def create_remote_log_metadata_manager(
    config: RemoteLogManagerConfig, log_dir: Path, broker_id: int
) -> RemoteLogMetadataManager:
    """The configured RemoteLogMetadataManager; `dir` defaults to `<log dir>/remote-log-metadata`."""
    rlmm: RemoteLogMetadataManager = load_plugin(config.rlmm_class_name, RemoteLogMetadataManager)
    rlmm.configure(
        {
            "dir": str(log_dir / DEFAULT_RLMM_DIR),
            "log.dir": str(log_dir),
            "broker.id": broker_id,
            **config.rlmm_configs,
        }
    )
    return rlmm


__all__ = ["create_remote_log_metadata_manager", "create_remote_storage_manager", "load_plugin"]
