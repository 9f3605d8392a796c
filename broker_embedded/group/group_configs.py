"""Per-group configs (KIP-848/932/1071: ConfigResource type GROUP = 32), as Kafka 4.3.1's GroupConfig.

The 17 ``consumer.*`` / ``share.*`` / ``streams.*`` configs a group may override. Each falls back to
its broker config (``consumer.session.timeout.ms`` <- ``group.consumer.session.timeout.ms`` ...) and
is bounded by the broker's ``group.<type>.min/max.*`` configs. Kafka's validation order and its
INVALID_CONFIG messages are reproduced, because clients and tools print them verbatim.

Read the effective configs of a group with :meth:`GroupConfigStore.get`::

    cfg = broker.group_configs.get("my-group")
    cfg.consumer_session_timeout_ms, cfg.share_delivery_count_limit, cfg["share.auto.offset.reset"]

Effective values are the override, else the broker default, clamped to the broker's current bounds
(Kafka 4.3 caps an override the bounds no longer allow, e.g. after a broker restart with new bounds).

Storage: a single broker keeps ``<log dir>/group-configs.json``; in a cluster the controller holds the
store (Kafka: ConfigRecords of the metadata log) and pushes it to every broker in its image, like
client quotas. Sans-IO except :meth:`save` / :meth:`load`.
"""

from __future__ import annotations

import builtins
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broker_embedded.config import BROKER_CONFIGS, BrokerConfig, ConfigError, ConfigSource, ConfigType

RESOURCE_TYPE = 32
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3
_INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class GroupConfigDef:
    name: str
    type: ConfigType
    doc: str
    # the broker config supplying the default; None: a fixed default (``default``)
    broker_synonym: str | None
    default: Any = None
    at_least: int | None = None  # ConfigDef's Range.atLeast
    min_bound: str | None = None  # broker configs bounding the value (GroupConfig.validateValues)
    max_bound: str | None = None
    choices: tuple[str, ...] = ()


def _int(name: str, doc: str, kind: str, key: str, at_least: int, bounds: str | None = "both") -> GroupConfigDef:
    """`name` = `<kind>.<key>`, defaulted by `group.<kind>.<key>`, bounded by `group.<kind>.min/max.<key>`."""
    lo = f"group.{kind}.min.{key}" if bounds == "both" else None
    hi = f"group.{kind}.max.{key}" if bounds in ("both", "max") else None
    return GroupConfigDef(name, ConfigType.INT, doc, f"group.{name}", at_least=at_least, min_bound=lo, max_bound=hi)


# Kafka's definition order (ConfigDef.parse reports the first bad value in this order)
GROUP_CONFIGS: dict[str, GroupConfigDef] = {
    d.name: d
    for d in [
        _int(
            "consumer.session.timeout.ms",
            "The timeout to detect client failures when using the consumer group protocol.",
            "consumer",
            "session.timeout.ms",
            1,
        ),
        _int(
            "consumer.heartbeat.interval.ms",
            "The heartbeat interval given to the members of a consumer group.",
            "consumer",
            "heartbeat.interval.ms",
            1,
        ),
        _int(
            "consumer.assignment.interval.ms",
            "The interval between assignment updates for a consumer group.",
            "consumer",
            "assignment.interval.ms",
            0,
        ),
        _int(
            "share.session.timeout.ms",
            "The timeout to detect client failures when using the share group protocol.",
            "share",
            "session.timeout.ms",
            1,
        ),
        _int(
            "share.heartbeat.interval.ms",
            "The heartbeat interval given to the members of a share group.",
            "share",
            "heartbeat.interval.ms",
            1,
        ),
        _int(
            "share.record.lock.duration.ms",
            "The record acquisition lock duration in milliseconds for share groups.",
            "share",
            "record.lock.duration.ms",
            1000,
        ),
        _int(
            "share.delivery.count.limit",
            "The maximum number of delivery attempts for a record delivered to a share group.",
            "share",
            "delivery.count.limit",
            2,
        ),
        _int(
            "share.partition.max.record.locks",
            "Share-group record lock limit per share-partition.",
            "share",
            "partition.max.record.locks",
            100,
        ),
        GroupConfigDef(
            "share.auto.offset.reset",
            ConfigType.STRING,
            "The strategy to initialize the share-partition start offset: earliest, latest or "
            "by_duration:<ISO-8601 duration>.",
            None,
            default="latest",
        ),
        GroupConfigDef(
            "share.isolation.level",
            ConfigType.STRING,
            "Controls how to read records written transactionally (read_committed or read_uncommitted).",
            None,
            default="read_uncommitted",
            choices=("read_committed", "read_uncommitted"),
        ),
        GroupConfigDef(
            "share.renew.acknowledge.enable",
            ConfigType.BOOLEAN,
            "Whether the renew acknowledge type is enabled for the share group.",
            None,
            default=True,
        ),
        _int(
            "share.assignment.interval.ms",
            "The interval between assignment updates for a share group.",
            "share",
            "assignment.interval.ms",
            0,
        ),
        _int(
            "streams.session.timeout.ms",
            "The timeout to detect client failures when using the streams group protocol.",
            "streams",
            "session.timeout.ms",
            1,
        ),
        _int(
            "streams.heartbeat.interval.ms",
            "The heartbeat interval given to the members.",
            "streams",
            "heartbeat.interval.ms",
            1,
        ),
        GroupConfigDef(
            "streams.num.standby.replicas",
            ConfigType.INT,
            "The number of standby replicas for each task.",
            "group.streams.num.standby.replicas",
            at_least=0,
            max_bound="group.streams.max.standby.replicas",
        ),
        _int(
            "streams.initial.rebalance.delay.ms",
            "The amount of time the group coordinator will wait for more streams clients to join a new "
            "group before performing the first rebalance.",
            "streams",
            "initial.rebalance.delay.ms",
            0,
            bounds=None,
        ),
        _int(
            "streams.assignment.interval.ms",
            "The interval between assignment updates for a streams group.",
            "streams",
            "assignment.interval.ms",
            0,
        ),
    ]
}

# GroupConfig.validateValues: the bound checks run in this order, then session > heartbeat
_BOUND_ORDER = [
    "consumer.heartbeat.interval.ms",
    "consumer.session.timeout.ms",
    "consumer.assignment.interval.ms",
    "share.heartbeat.interval.ms",
    "share.session.timeout.ms",
    "share.record.lock.duration.ms",
    "share.delivery.count.limit",
    "share.partition.max.record.locks",
    "share.assignment.interval.ms",
    "streams.heartbeat.interval.ms",
    "streams.session.timeout.ms",
    "streams.num.standby.replicas",
    "streams.assignment.interval.ms",
]
_SESSION_OVER_HEARTBEAT = ["consumer", "share", "streams"]

# java.time.Duration.parse (case-insensitive, no negative durations: Kafka refuses them)
_ISO_DURATION = re.compile(
    r"P(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:[.,](\d{0,9}))?S)?)?", re.IGNORECASE
)


def _check_auto_offset_reset(raw: str) -> None:
    if raw in ("earliest", "latest"):
        return
    if raw.startswith("by_duration:"):
        text = raw[len("by_duration:") :]
        if text.upper() not in ("P", "") and _ISO_DURATION.fullmatch(text):
            return
    raise ConfigError(
        f"Invalid value {raw} for configuration share.auto.offset.reset: Invalid value `{raw}` for configuration "
        "share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format "
        "'by_duration:<PnDTnHnMn.nS>'."
    )


def parse_group_value(d: GroupConfigDef, raw: str) -> Any:
    """Kafka's ConfigDef.parseType plus the definition's validator, with Kafka's messages."""
    text = raw.strip()
    if d.type == ConfigType.INT:
        try:
            value: Any = int(text)
        except ValueError:
            value = None
        if value is None or not -_INT_MAX - 1 <= value <= _INT_MAX:
            raise ConfigError(f"Invalid value {text} for configuration {d.name}: Not a number of type INT")
        if d.at_least is not None and value < d.at_least:
            raise ConfigError(f"Invalid value {value} for configuration {d.name}: Value must be at least {d.at_least}")
        return value
    if d.type == ConfigType.BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise ConfigError(
                f"Invalid value {text} for configuration {d.name}: Expected value to be either true or false"
            )
        return text.lower() == "true"
    if d.name == "share.auto.offset.reset":
        _check_auto_offset_reset(text)
    if d.choices and text not in d.choices:
        raise ConfigError(
            f"Invalid value {text} for configuration {d.name}: String must be one of: {', '.join(d.choices)}"
        )
    return text


def format_group_value(d: GroupConfigDef, value: Any) -> str:
    if d.type == ConfigType.BOOLEAN:
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class ResolvedGroupConfig:
    name: str
    value: Any
    source: ConfigSource
    definition: GroupConfigDef
    # (name, value, source) most specific first, as DescribeConfigs' synonyms
    synonyms: list[tuple[str, str, ConfigSource]]


class GroupConfig:
    """The effective configs of one group (overrides over broker defaults, clamped to the bounds)."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.values = values

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def consumer_session_timeout_ms(self) -> int:
        return int(self.values["consumer.session.timeout.ms"])

    @property
    def consumer_heartbeat_interval_ms(self) -> int:
        return int(self.values["consumer.heartbeat.interval.ms"])

    @property
    def share_session_timeout_ms(self) -> int:
        return int(self.values["share.session.timeout.ms"])

    @property
    def share_heartbeat_interval_ms(self) -> int:
        return int(self.values["share.heartbeat.interval.ms"])

    @property
    def share_record_lock_duration_ms(self) -> int:
        return int(self.values["share.record.lock.duration.ms"])

    @property
    def share_delivery_count_limit(self) -> int:
        return int(self.values["share.delivery.count.limit"])

    @property
    def share_partition_max_record_locks(self) -> int:
        return int(self.values["share.partition.max.record.locks"])

    @property
    def share_auto_offset_reset(self) -> str:
        return str(self.values["share.auto.offset.reset"])

    @property
    def share_isolation_level(self) -> str:
        return str(self.values["share.isolation.level"])

    @property
    def share_renew_acknowledge_enable(self) -> bool:
        return bool(self.values["share.renew.acknowledge.enable"])


class GroupConfigStore:
    """Overrides per group id, validated against the broker's bounds; see the module doc."""

    FILE_NAME = "group-configs.json"

    def __init__(self, broker_config: BrokerConfig, path: Path | None = None) -> None:
        self.broker_config = broker_config
        self.path = path
        # group id -> {config name: parsed value}
        self.overrides: dict[str, dict[str, Any]] = {}
        # called with the group ids whose effective configs changed (coordinators re-read them)
        self.listeners: list[Callable[[set[str]], None]] = []

    # --- reading -------------------------------------------------------------------------------
    def _broker_value(self, d: GroupConfigDef) -> Any:
        return self.broker_config[d.broker_synonym] if d.broker_synonym else d.default

    def resolve(self, group_id: str, name: str) -> ResolvedGroupConfig:
        d = GROUP_CONFIGS[name]
        synonyms: list[tuple[str, str, ConfigSource]] = []
        overrides = self.overrides.get(group_id, {})
        if name in overrides:
            synonyms.append((name, format_group_value(d, overrides[name]), ConfigSource.DYNAMIC_GROUP_CONFIG))
        if d.broker_synonym is None:
            # Kafka lists the fixed default under the config's own name
            synonyms.append((name, format_group_value(d, d.default), ConfigSource.DEFAULT_CONFIG))
        else:
            if d.broker_synonym in self.broker_config.explicit:
                value = self.broker_config.explicit[d.broker_synonym]
                synonyms.append((d.broker_synonym, format_group_value(d, value), ConfigSource.STATIC_BROKER_CONFIG))
            default = BROKER_CONFIGS[d.broker_synonym].default
            synonyms.append((d.broker_synonym, format_group_value(d, default), ConfigSource.DEFAULT_CONFIG))
        value = overrides[name] if name in overrides else self._broker_value(d)
        return ResolvedGroupConfig(name, value, synonyms[0][2], d, synonyms)

    def get(self, group_id: str) -> GroupConfig:
        """The effective configs of `group_id` (any id: a group without overrides gets the defaults)."""
        overrides = self.overrides.get(group_id, {})
        values: dict[str, Any] = {}
        for name, d in GROUP_CONFIGS.items():
            value = overrides[name] if name in overrides else self._broker_value(d)
            if name in overrides and d.type == ConfigType.INT:
                # Kafka 4.3 caps an override outside the broker's current bounds
                if d.min_bound is not None:
                    value = max(value, int(self.broker_config[d.min_bound]))
                if d.max_bound is not None:
                    value = min(value, int(self.broker_config[d.max_bound]))
            values[name] = value
        return GroupConfig(values)

    def describe(self, group_id: str, keys: Iterable[str] | None = None) -> list[ResolvedGroupConfig]:
        wanted = None if keys is None else set(keys)
        return [self.resolve(group_id, n) for n in sorted(GROUP_CONFIGS) if wanted is None or n in wanted]

    # --- validation ------------------------------------------------------------------------------
    def validate(self, raw: dict[str, str]) -> dict[str, Any]:
        """GroupConfig.validate: names, then parse in definition order, then the broker bounds.
        `raw` is the group's whole override set; returns it parsed. Raises ConfigError."""
        for name in raw:
            if name not in GROUP_CONFIGS:
                raise ConfigError(f"Unknown group config name: {name}")
        parsed = {name: parse_group_value(d, raw[name]) for name, d in GROUP_CONFIGS.items() if name in raw}
        effective = {n: parsed[n] if n in parsed else self._broker_value(d) for n, d in GROUP_CONFIGS.items()}
        for name in _BOUND_ORDER:
            d = GROUP_CONFIGS[name]
            value = int(effective[name])
            if d.min_bound is not None and value < int(self.broker_config[d.min_bound]):
                raise ConfigError(f"{name} must be greater than or equal to {d.min_bound}")
            if d.max_bound is not None and value > int(self.broker_config[d.max_bound]):
                raise ConfigError(f"{name} must be less than or equal to {d.max_bound}")
        for kind in _SESSION_OVER_HEARTBEAT:
            if int(effective[f"{kind}.session.timeout.ms"]) <= int(effective[f"{kind}.heartbeat.interval.ms"]):
                raise ConfigError(f"{kind}.session.timeout.ms must be greater than {kind}.heartbeat.interval.ms")
        return parsed

    def incremental(self, group_id: str, ops: Iterable[tuple[str, int, str | None]]) -> dict[str, str]:
        """IncrementalAlterConfigs' ops (name, SET/DELETE/APPEND/SUBTRACT, value) applied to the group's
        overrides; returns the new raw override set (validate it with :meth:`validate`)."""
        raw = {n: format_group_value(GROUP_CONFIGS[n], v) for n, v in self.overrides.get(group_id, {}).items()}
        for name, op, value in ops:
            if op == SET:
                raw[name] = "" if value is None else value
            elif op == DELETE:
                raw.pop(name, None)
            elif op in (APPEND, SUBTRACT):
                # no group config is a LIST
                verb = "APPEND" if op == APPEND else "SUBTRACT"
                raise ConfigError(f"Can't {verb} to key {name} because its type is not LIST.")
        return raw

    # --- changing ----------------------------------------------------------------------------------
    def set(self, group_id: str, raw: dict[str, str], validate_only: bool = False) -> None:
        """Replace the group's overrides (validated); saved unless validate_only."""
        parsed = self.validate(raw)
        if validate_only:
            return
        if parsed:
            self.overrides[group_id] = parsed
        else:
            self.overrides.pop(group_id, None)
        self.save()
        self._changed({group_id})

    def _changed(self, group_ids: builtins.set[str]) -> None:  # `set` here is the method above
        for listener in self.listeners:
            listener(group_ids)

    # --- persistence and the cluster image ---------------------------------------------------------
    def to_json(self) -> dict[str, dict[str, str]]:
        return {
            g: {n: format_group_value(GROUP_CONFIGS[n], v) for n, v in sorted(c.items())}
            for g, c in sorted(self.overrides.items())
        }

    def load_json(self, data: dict[str, dict[str, str]] | None) -> None:
        """Stored or pushed overrides; entries no longer valid keep their parseable values (Kafka caps
        them on read rather than dropping them)."""
        before = self.to_json()
        overrides: dict[str, dict[str, Any]] = {}
        for group_id, configs in (data or {}).items():
            parsed: dict[str, Any] = {}
            for name, raw in (configs or {}).items():
                d = GROUP_CONFIGS.get(name)
                if d is None:
                    continue
                try:
                    parsed[name] = parse_group_value(d, str(raw))
                except ConfigError:
                    continue
            if parsed:
                overrides[str(group_id)] = parsed
        self.overrides = overrides
        after = self.to_json()
        changed = {g for g in set(before) | set(after) if before.get(g) != after.get(g)}
        if changed:
            self._changed(changed)

    def load(self) -> None:
        if self.path is not None and self.path.exists():
            self.load_json(json.loads(self.path.read_text()).get("groups", {}))

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump({"version": 1, "groups": self.to_json()}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
