"""Per-log (topic-level) configuration, with Kafka's names and defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from kafka_wire.types import LONG_MAX

CREATE_TIME = "CreateTime"
LOG_APPEND_TIME = "LogAppendTime"

# topic-level name -> (dataclass field, broker-level name that supplies the default)
_TOPIC_KEYS: dict[str, tuple[str, str | None]] = {
    "segment.bytes": ("segment_bytes", "log.segment.bytes"),
    "segment.ms": ("segment_ms", "log.roll.ms"),
    "segment.jitter.ms": ("segment_jitter_ms", "log.roll.jitter.ms"),
    "segment.index.bytes": ("segment_index_bytes", "log.index.size.max.bytes"),
    "index.interval.bytes": ("index_interval_bytes", "log.index.interval.bytes"),
    "retention.ms": ("retention_ms", "log.retention.ms"),
    "retention.bytes": ("retention_bytes", "log.retention.bytes"),
    "message.timestamp.type": ("message_timestamp_type", "log.message.timestamp.type"),
    "cleanup.policy": ("cleanup_policy", "log.cleanup.policy"),
    "file.delete.delay.ms": ("file_delete_delay_ms", "log.segment.delete.delay.ms"),
    "delete.retention.ms": ("delete_retention_ms", "log.cleaner.delete.retention.ms"),
    "min.compaction.lag.ms": ("min_compaction_lag_ms", "log.cleaner.min.compaction.lag.ms"),
    "max.compaction.lag.ms": ("max_compaction_lag_ms", "log.cleaner.max.compaction.lag.ms"),
    "min.cleanable.dirty.ratio": ("min_cleanable_dirty_ratio", "log.cleaner.min.cleanable.ratio"),
    "flush.messages": ("flush_messages", "log.flush.interval.messages"),
    "flush.ms": ("flush_ms", "log.flush.interval.ms"),
    "max.message.bytes": ("max_message_bytes", "message.max.bytes"),
    # tiered storage (KIP-405)
    "remote.storage.enable": ("remote_storage_enable", None),
    "local.retention.ms": ("local_retention_ms", "log.local.retention.ms"),
    "local.retention.bytes": ("local_retention_bytes", "log.local.retention.bytes"),
    "remote.log.copy.disable": ("remote_log_copy_disable", None),
    "remote.log.delete.on.disable": ("remote_log_delete_on_disable", None),
}
# Broker-level keys in coarser units, used only when the *.ms key is absent (as Kafka does).
_COARSE_KEYS: dict[str, tuple[str, int]] = {
    "log.roll.hours": ("segment_ms", 3_600_000),
    "log.retention.minutes": ("retention_ms", 60_000),
    "log.retention.hours": ("retention_ms", 3_600_000),
}


@dataclass(slots=True)
class LogConfig:
    """Topic-level log settings. Build one with `LogConfig.from_dict` from Kafka-named keys."""

    segment_bytes: int = 1073741824
    segment_ms: int = 604800000
    segment_jitter_ms: int = 0
    segment_index_bytes: int = 10485760
    index_interval_bytes: int = 4096
    retention_ms: int = 604800000  # -1: unlimited
    retention_bytes: int = -1  # -1: unlimited
    message_timestamp_type: str = CREATE_TIME
    cleanup_policy: str = "delete"  # "delete", "compact" or "compact,delete"
    file_delete_delay_ms: int = 60000
    delete_retention_ms: int = 86400000
    min_compaction_lag_ms: int = 0
    max_compaction_lag_ms: int = LONG_MAX
    min_cleanable_dirty_ratio: float = 0.5
    flush_messages: int = LONG_MAX
    flush_ms: int = LONG_MAX
    max_message_bytes: int = 1048588
    # Tiered storage (KIP-405): retention.* covers the whole log, local.retention.* (-2: the
    # same as retention.*) the part kept on local disk once copied to the remote tier.
    remote_storage_enable: bool = False
    local_retention_ms: int = -2
    local_retention_bytes: int = -2
    remote_log_copy_disable: bool = False
    remote_log_delete_on_disable: bool = False

    @property
    def delete_enabled(self) -> bool:
        return "delete" in self._policies()

    @property
    def compact_enabled(self) -> bool:
        return "compact" in self._policies()

    @property
    def log_append_time(self) -> bool:
        return self.message_timestamp_type == LOG_APPEND_TIME

    @property
    def effective_local_retention_ms(self) -> int:
        return self.retention_ms if self.local_retention_ms == -2 else self.local_retention_ms

    @property
    def effective_local_retention_bytes(self) -> int:
        return self.retention_bytes if self.local_retention_bytes == -2 else self.local_retention_bytes

    def _policies(self) -> set[str]:
        return {p.strip() for p in self.cleanup_policy.split(",") if p.strip()}

    @classmethod
    def from_dict(cls, props: Mapping[str, str | int | float], base: LogConfig | None = None) -> LogConfig:
        """Build from topic-level keys (`segment.bytes`) and/or broker-level ones (`log.segment.bytes`).

        Topic-level keys win over broker-level ones; unknown keys are ignored so the broker can pass
        its whole config dict. `base` supplies the values of absent keys (defaults otherwise).
        """
        cfg = replace(base) if base is not None else cls()
        types = {f.name: f.type for f in fields(cls)}
        for coarse, (name, unit) in _COARSE_KEYS.items():
            if coarse in props:
                setattr(cfg, name, int(props[coarse]) * unit)
        for topic_key, (name, broker_key) in _TOPIC_KEYS.items():
            if topic_key in props:
                raw = props[topic_key]
            elif broker_key is not None and broker_key in props:
                raw = props[broker_key]
            else:
                continue
            setattr(cfg, name, _convert(raw, types[name]))
        cfg.validate()
        return cfg

    def to_dict(self) -> dict[str, str]:
        """Topic-level names -> string values (what DescribeConfigs shows)."""
        out: dict[str, str] = {}
        for topic_key, (name, _) in _TOPIC_KEYS.items():
            out[topic_key] = str(getattr(self, name))
        return out

    def validate(self) -> None:
        if self.segment_bytes < 14:  # Kafka's lower bound: LegacyRecord.RECORD_OVERHEAD_V0
            raise ValueError(f"segment.bytes must be at least 14, got {self.segment_bytes}")
        if self.segment_ms < 1:
            raise ValueError(f"segment.ms must be positive, got {self.segment_ms}")
        if self.segment_index_bytes < 8:
            raise ValueError(f"segment.index.bytes must be at least 8, got {self.segment_index_bytes}")
        if self.index_interval_bytes < 0:
            raise ValueError("index.interval.bytes must not be negative")
        if self.message_timestamp_type not in (CREATE_TIME, LOG_APPEND_TIME):
            raise ValueError(
                f"message.timestamp.type must be CreateTime or LogAppendTime, got {self.message_timestamp_type!r}"
            )
        if not self._policies() <= {"delete", "compact"} or not self._policies():
            raise ValueError(f"cleanup.policy must be delete and/or compact, got {self.cleanup_policy!r}")
        if self.remote_storage_enable:
            self._validate_tiered()

    def _validate_tiered(self) -> None:
        """Kafka's checks of a topic with remote.storage.enable=true (LogConfig.validateValues)."""
        if self.compact_enabled:
            raise ValueError(
                "Remote log storage is unsupported for the compacted topics: "
                f"remote.storage.enable=true cannot be combined with cleanup.policy={self.cleanup_policy}"
            )
        for name, local, total, total_name in (
            ("local.retention.ms", self.local_retention_ms, self.retention_ms, "retention.ms"),
            ("local.retention.bytes", self.local_retention_bytes, self.retention_bytes, "retention.bytes"),
        ):
            if local < -2:
                raise ValueError(f"Invalid value {local} for configuration {name}: Value must be at least -2")
            if local == -2 or total == -1:
                continue
            if local == -1:
                raise ValueError(
                    f"Invalid value -1 for configuration {name}: Value must not be -1 as {total_name} value is set"
                )
            if local > total:
                raise ValueError(
                    f"Invalid value {local} for configuration {name}: "
                    f"Value must not be more than {total_name} property value: {total}"
                )


def _convert(raw: str | int | float, typ: object) -> int | float | str | bool:
    if typ in ("bool", bool):
        return raw if isinstance(raw, bool) else str(raw).strip().lower() == "true"
    if typ in ("int", int):
        return int(raw)
    if typ in ("float", float):
        return float(raw)
    if isinstance(raw, (list, tuple)):
        return ",".join(str(x) for x in raw)
    return str(raw)
