"""Dynamic broker configs (Kafka's DynamicBrokerConfig): AlterConfigs / IncrementalAlterConfigs on
BROKER resources, applied without a restart.

Two layers over the static configs: the cluster default (resource name "", source
DYNAMIC_DEFAULT_BROKER_CONFIG) and each broker's own (resource name = its id, source
DYNAMIC_BROKER_CONFIG); a broker's own wins. Only the configs Kafka marks dynamic that this broker
has may be set; the others are refused as Kafka's broker does ("Cannot update these configs
dynamically: [...]", INVALID_REQUEST). Names this broker does not know are kept, as Kafka keeps
them. A single broker stores the layers in `<log dir>/dynamic-broker-configs.json`; in a cluster the
controller stores them and its image brings them to every broker. After a change every topic's
effective configs are resolved again (the topic-level synonyms: message.max.bytes,
log.retention.*, log.segment.bytes, ...), so the logs see the new defaults at once.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from broker_embedded.config import BROKER_CONFIGS, TOPIC_CONFIGS, BrokerConfig, ConfigError, parse_value
from kafka_wire.errors import ErrorCode, KafkaError

# Kafka's dynamic broker configs (DynamicBrokerConfig.AllDynamicConfigs) that this broker has:
# the log configs behind topic configs (DynamicLogConfig), the cleaner's, thread pools, connection
# limits, producer id expiration
_KAFKA_DYNAMIC = {
    "message.max.bytes",
    "log.cleaner.threads",
    "log.cleaner.io.max.bytes.per.second",
    "log.cleaner.dedupe.buffer.size",
    "log.cleaner.io.buffer.size",
    "log.cleaner.io.buffer.load.factor",
    "log.cleaner.backoff.ms",
    "num.io.threads",
    "num.network.threads",
    "num.replica.fetchers",
    "num.recovery.threads.per.data.dir",
    "background.threads",
    "max.connections",
    "max.connections.per.ip",
    "max.connection.creation.rate",
    "producer.id.expiration.ms",
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "log.retention.hours",
    "log.retention.minutes",
    "log.roll.hours",
}
DYNAMIC_BROKER_CONFIGS: frozenset[str] = frozenset(
    name
    for name in _KAFKA_DYNAMIC | {d.broker_synonym for d in TOPIC_CONFIGS.values() if d.broker_synonym}
    if name in BROKER_CONFIGS or name in ("log.retention.hours", "log.retention.minutes", "log.roll.hours")
)
# configs that exist only as dynamic broker configs in Kafka (DynamicConfig.Broker, not KafkaConfig):
# DescribeConfigs lists them only once set
DYNAMIC_ONLY_BROKER_CONFIGS: frozenset[str] = frozenset(
    {"leader.replication.throttled.rate", "follower.replication.throttled.rate"}
)
# the hours / minutes spellings Kafka also accepts, stored under the ms config (ms wins in Kafka)
_ALIASES = {
    "log.retention.minutes": ("log.retention.ms", 60_000),
    "log.retention.hours": ("log.retention.ms", 3_600_000),
    "log.roll.hours": ("log.roll.ms", 3_600_000),
}


# a listener's keystore and truststore (KIP-226: reloaded without a restart; Kafka's per-broker-only
# SSL configs)
LISTENER_KEYSTORE = re.compile(
    r"listener\.name\.([^.]+)\.(ssl\.keystore\.location|ssl\.keystore\.password|ssl\.keystore\.type|ssl\.key\.password"
    r"|ssl\.truststore\.location|ssl\.truststore\.password|ssl\.truststore\.type)"
)
LISTENER_KEYSTORE_SENSITIVE = ("ssl.keystore.password", "ssl.key.password", "ssl.truststore.password")
# Kafka's SslConfigs.RECONFIGURABLE_CONFIGS (DynamicBrokerConfig.DynamicSecurityConfigs): dynamic only
# with a listener prefix; without one Kafka 4.3.1 refuses them (securityConfigsWithoutListenerPrefix)
DYNAMIC_SECURITY_CONFIGS: frozenset[str] = frozenset(
    {
        "ssl.keystore.type",
        "ssl.keystore.location",
        "ssl.keystore.password",
        "ssl.key.password",
        "ssl.truststore.type",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.truststore.certificates",
    }
)


def listener_keystores(raw: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """listener name (lower case) -> its dynamic keystore configs (unprefixed keys)."""
    out: dict[str, dict[str, str]] = {}
    for name, value in raw.items():
        m = LISTENER_KEYSTORE.fullmatch(name)
        if m is not None:
            out.setdefault(m.group(1).lower(), {})[m.group(2)] = value
    return out


def _java_set(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def validate_broker_configs(raw: Mapping[str, str | None]) -> dict[str, Any]:
    """The parsed known values of one resource's whole new set; KafkaError INVALID_REQUEST for a
    config that cannot change at runtime or a bad value (Kafka's ConfigAdminManager)."""
    fixed = [
        n for n in raw if n in BROKER_CONFIGS and n not in DYNAMIC_BROKER_CONFIGS and n not in DYNAMIC_SECURITY_CONFIGS
    ]
    if fixed:
        raise KafkaError(f"Cannot update these configs dynamically: {_java_set(fixed)}", ErrorCode.INVALID_REQUEST)
    unprefixed = [n for n in raw if n in DYNAMIC_SECURITY_CONFIGS]
    if unprefixed:
        raise KafkaError(
            "These security configs can be dynamically updated only per-listener using the listener prefix: "
            + _java_set(unprefixed),
            ErrorCode.INVALID_REQUEST,
        )
    parsed: dict[str, Any] = {}
    for name, value in raw.items():
        try:
            if name in _ALIASES:
                target, factor = _ALIASES[name]
                if target not in raw:  # the ms spelling wins
                    parsed[target] = parse_value(BROKER_CONFIGS[target], int(str(value)) * factor)
            elif name in BROKER_CONFIGS:
                parsed[name] = parse_value(BROKER_CONFIGS[name], value)
        except (ConfigError, ValueError) as e:
            raise KafkaError(
                f"Invalid value {value} for configuration {name}: {e}", ErrorCode.INVALID_REQUEST
            ) from None
    return parsed


class DynamicBrokerConfig:
    FILE_NAME = "dynamic-broker-configs.json"

    def __init__(self, config: BrokerConfig, node_id: int, path: Path | None) -> None:
        self.config = config
        self.node_id = node_id
        self.path = path
        # resource name ("" = cluster default, "<id>" = one broker) -> raw values
        self.layers: dict[str, dict[str, str]] = {}
        self.listeners: list[Callable[[], None]] = []  # after a change: topics resolve again
        # listener keystores (security/manager.py): checks a new one loads and names the same
        # subject; applies this broker's (None: no TLS listener to reload)
        self.keystore_validator: Callable[[dict[str, dict[str, str]]], None] | None = None
        self.keystore_reloader: Callable[[dict[str, dict[str, str]]], None] | None = None

    def current(self, resource_name: str) -> dict[str, str]:
        return dict(self.layers.get(resource_name, {}))

    def set_layer(self, resource_name: str, raw: dict[str, str], validate_only: bool = False) -> None:
        """Replace one resource's dynamic configs (validated first)."""
        self.validate_layer(resource_name, raw)
        if validate_only:
            return
        layers = dict(self.layers)
        if raw:
            layers[resource_name] = dict(raw)
        else:
            layers.pop(resource_name, None)
        self.load_json(layers)
        self.save()
        if resource_name == str(self.node_id) and self.keystore_reloader is not None:
            # Kafka reloads this broker's store files on every update of its resource
            # (DynamicConfigPublisher -> reloadUpdatedFilesWithoutConfigChange): a file rewritten at
            # the same path is picked up; unchanged, unmodified stores are left alone
            self.keystore_reloader(listener_keystores(self.layers.get(resource_name, {})))

    def validate_layer(self, resource_name: str, raw: Mapping[str, str]) -> None:
        """One resource's whole new set: the configs (validate_broker_configs) and its listener
        keystores (per broker only; a new one must load and keep the certificate's subject)."""
        parsed = validate_broker_configs(raw)
        threads = parsed.get("log.cleaner.threads")
        if threads is not None and not (resource_name == "" and "log.cleaner.threads" in self.config.dynamic_broker):
            _validate_cleaner_threads(threads, self.config["log.cleaner.threads"])
        keystores = [n for n in raw if LISTENER_KEYSTORE.fullmatch(n)]
        if resource_name == "" and keystores:
            raise KafkaError(
                "Cannot update these configs at default cluster level, broker id must be specified: "
                + _java_set(keystores),
                ErrorCode.INVALID_REQUEST,
            )
        if resource_name == str(self.node_id) and self.keystore_validator is not None:
            # also with the same configs: a store file changed in place is validated and reloaded,
            # as Kafka's SslFactory does when its file's modification time moved (shouldBeRebuilt)
            self.keystore_validator(listener_keystores(raw))

    def to_json(self) -> dict[str, dict[str, str]]:
        return {name: dict(values) for name, values in sorted(self.layers.items())}

    def load_json(self, layers: Mapping[str, Mapping[str, str]] | None) -> None:
        """Replace every layer (the stored file, or a controller image) and apply this broker's."""
        new = {str(k): {str(n): str(v) for n, v in vals.items()} for k, vals in (layers or {}).items() if vals}
        if new == self.layers:
            return
        mine = str(self.node_id)
        keystores_changed = listener_keystores(new.get(mine, {})) != listener_keystores(self.layers.get(mine, {}))
        self.layers = new
        if keystores_changed and self.keystore_reloader is not None:
            self.keystore_reloader(listener_keystores(new.get(mine, {})))
        self.config.dynamic_default = _parsed(new.get("", {}))
        self.config.dynamic_broker = _parsed(new.get(str(self.node_id), {}))
        for listener in self.listeners:
            listener()

    def load(self) -> None:
        if self.path is not None and self.path.exists():
            self.load_json(json.loads(self.path.read_text()).get("layers", {}))

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump({"version": 1, "layers": self.to_json()}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


def _validate_cleaner_threads(new: int, current: int) -> None:
    """Kafka's LogCleaner.validateReconfiguration: at least 1, at most double and at least half (integer
    division) of the threads running, wrapped as DynamicBrokerConfig wraps a reconfiguration's refusal."""
    why = None
    if new < 1:
        why = "Log cleaner threads should be at least 1"
    elif new < current // 2:
        why = f"Log cleaner threads cannot be reduced to less than half the current value {current}"
    elif new > current * 2:
        why = f"Log cleaner threads cannot be increased to more than double the current value {current}"
    if why is not None:
        raise KafkaError(
            f"Invalid value org.apache.kafka.common.config.ConfigException: {why} for configuration Invalid dynamic"
            " configuration",
            ErrorCode.INVALID_REQUEST,
        )


def _parsed(raw: Mapping[str, str]) -> dict[str, Any]:
    try:
        return validate_broker_configs(raw)
    except KafkaError:
        # a stored value this version refuses: that layer's valid values still apply
        out: dict[str, Any] = {}
        for name, value in raw.items():
            try:
                out.update(validate_broker_configs({name: value}))
            except KafkaError:
                continue
        return out
