"""Broker and topic configuration, with Kafka's own names, defaults and validation.

Broker configs come from keyword arguments (``num_partitions=3`` or ``**{"num.partitions": 3}``),
a ``server.properties`` file and ``--override key=value``. Topic configs fall back to their broker
synonym (``retention.ms`` ← ``log.retention.ms`` …) exactly as Kafka resolves them, which is what
DescribeConfigs reports as the config source.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from pathlib import Path
from typing import Any

from kafka_wire.errors import PykafkaError
from kafka_wire.types import INT_MAX, LONG_MAX


class ConfigType(IntEnum):
    """DescribeConfigs v3 config types."""

    BOOLEAN = 1
    STRING = 2
    INT = 3
    SHORT = 4
    LONG = 5
    DOUBLE = 6
    LIST = 7
    CLASS = 8
    PASSWORD = 9


class ConfigSource(IntEnum):
    UNKNOWN = 0
    DYNAMIC_TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5
    DYNAMIC_BROKER_LOGGER_CONFIG = 6
    DYNAMIC_CLIENT_METRICS_CONFIG = 7
    DYNAMIC_GROUP_CONFIG = 8


class ConfigError(PykafkaError, ValueError):
    """A config name or value that Kafka would refuse (INVALID_CONFIG on the wire)."""


@dataclass(frozen=True)
class ConfigDef:
    name: str
    type: ConfigType
    default: Any
    doc: str
    validator: Callable[[Any], None] | None = None
    # for topic configs: the broker config that supplies the default
    broker_synonym: str | None = None


def _at_least(n: int) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        if v < n:
            raise ConfigError(f"value {v} must be at least {n}")

    return check


def _jitter(v: Any) -> None:
    if not 0.0 <= v <= 0.5:
        raise ConfigError(f"value {v} must be between 0.0 and 0.5")


def _one_of(*choices: str) -> Callable[[Any], None]:
    def check(v: Any) -> None:
        values = v if isinstance(v, list) else [v]
        if not values:
            raise ConfigError(f"value must not be empty: choose from {', '.join(choices)}")
        for item in values:
            if item not in choices:
                raise ConfigError(f"value {item!r} is not one of {', '.join(choices)}")

    return check


def _throttled_replicas(name: str) -> Callable[[Any], None]:
    """Kafka's ThrottledReplicaListValidator: '*' or partitionId:brokerId pairs."""

    def check(v: Any) -> None:
        items = [x.strip() for x in v]
        if items == ["*"]:
            return
        for item in items:
            left, sep, right = item.partition(":")
            if not (sep and left.strip().isdigit() and right.strip().isdigit()):
                raise ConfigError(
                    f"{name} must be the literal '*' or a list of replicas in the following format: "
                    "[partitionId]:[brokerId],[partitionId]:[brokerId],..."
                )

    return check


def parse_value(d: ConfigDef, raw: Any) -> Any:
    """Convert a raw (string or Python) value to the config's type and validate it."""
    try:
        if d.type == ConfigType.BOOLEAN:
            if isinstance(raw, bool):
                value: Any = raw
            elif str(raw).strip().lower() in ("true", "false"):
                value = str(raw).strip().lower() == "true"
            else:
                raise ConfigError(f"expected true or false, got {raw!r}")
        elif d.type in (ConfigType.INT, ConfigType.SHORT, ConfigType.LONG):
            if isinstance(raw, bool):
                raise ConfigError(f"expected a number, got {raw!r}")
            value = int(str(raw).strip())
            limit = INT_MAX if d.type == ConfigType.INT else LONG_MAX
            if not -limit - 1 <= value <= limit:
                raise ConfigError(f"value {value} is out of range")
        elif d.type == ConfigType.DOUBLE:
            value = float(str(raw).strip())
        elif d.type == ConfigType.LIST:
            if isinstance(raw, list | tuple):
                value = [str(x).strip() for x in raw]
            else:
                value = [x.strip() for x in str(raw).split(",") if x.strip()]
        else:
            value = None if raw is None else str(raw).strip()
    except ValueError as e:
        if isinstance(e, ConfigError):
            raise ConfigError(f"Invalid value {raw!r} for configuration {d.name}: {e}") from None
        raise ConfigError(f"Invalid value {raw!r} for configuration {d.name}: not a {d.type.name}") from None
    if d.validator is not None:
        try:
            d.validator(value)
        except ConfigError as e:
            raise ConfigError(f"Invalid value {raw!r} for configuration {d.name}: {e}") from None
    return value


def format_value(d: ConfigDef, value: Any) -> str | None:
    if value is None:
        return None
    if d.type == ConfigType.BOOLEAN:
        return "true" if value else "false"
    if d.type == ConfigType.LIST:
        return ",".join(value)
    if d.type == ConfigType.DOUBLE:
        return java_double(float(value))
    return str(value)


def java_double(v: float) -> str:
    """Java's Double.toString: the shortest digits, "1.0E7" style outside [1e-3, 1e7)."""
    if v != v or v in (float("inf"), float("-inf")):
        return {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[repr(v)]
    if v == 0 or 1e-3 <= abs(v) < 1e7:
        return repr(v)
    d = Decimal(repr(v)).normalize()
    digits = "".join(map(str, d.as_tuple().digits))
    return f"{'-' if v < 0 else ''}{digits[0]}.{digits[1:] or '0'}E{d.adjusted()}"


_B = ConfigType
# (name after "group.", default, smallest accepted) of GroupCoordinatorConfig / ShareGroupConfig 4.3.1
_GROUP_INT_DEFAULTS = [
    ("consumer.min.session.timeout.ms", 45000, 1),
    ("consumer.max.session.timeout.ms", 60000, 1),
    ("consumer.min.heartbeat.interval.ms", 5000, 1),
    ("consumer.max.heartbeat.interval.ms", 15000, 1),
    ("consumer.assignment.interval.ms", 1000, 0),
    ("consumer.min.assignment.interval.ms", 0, 0),
    ("consumer.max.assignment.interval.ms", 15000, 0),
    ("share.session.timeout.ms", 45000, 1),
    ("share.min.session.timeout.ms", 45000, 1),
    ("share.max.session.timeout.ms", 60000, 1),
    ("share.heartbeat.interval.ms", 5000, 1),
    ("share.min.heartbeat.interval.ms", 5000, 1),
    ("share.max.heartbeat.interval.ms", 15000, 1),
    ("share.record.lock.duration.ms", 30000, 1000),
    ("share.min.record.lock.duration.ms", 15000, 1000),
    ("share.max.record.lock.duration.ms", 60000, 1000),
    ("share.delivery.count.limit", 5, 2),
    ("share.min.delivery.count.limit", 2, 2),
    ("share.max.delivery.count.limit", 10, 2),
    ("share.partition.max.record.locks", 2000, 100),
    ("share.min.partition.max.record.locks", 100, 100),
    ("share.max.partition.max.record.locks", 4000, 100),
    ("share.assignment.interval.ms", 1000, 0),
    ("share.min.assignment.interval.ms", 0, 0),
    ("share.max.assignment.interval.ms", 15000, 0),
    ("streams.session.timeout.ms", 45000, 1),
    ("streams.min.session.timeout.ms", 45000, 1),
    ("streams.max.session.timeout.ms", 60000, 1),
    ("streams.heartbeat.interval.ms", 5000, 1),
    ("streams.min.heartbeat.interval.ms", 5000, 1),
    ("streams.max.heartbeat.interval.ms", 15000, 1),
    ("streams.num.standby.replicas", 0, 0),
    ("streams.max.standby.replicas", 2, 0),
    ("streams.initial.rebalance.delay.ms", 3000, 0),
    ("streams.assignment.interval.ms", 1000, 0),
    ("streams.min.assignment.interval.ms", 0, 0),
    ("streams.max.assignment.interval.ms", 15000, 0),
]
BROKER_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in [
        ConfigDef("broker.id", _B.INT, 0, "The broker id (also node.id)."),
        ConfigDef("host.name", _B.STRING, "127.0.0.1", "Address the broker listens on and advertises."),
        ConfigDef("port", _B.INT, 0, "Port to listen on; 0 picks a free port."),
        ConfigDef("log.dirs", _B.STRING, None, "Directory holding the log data; a temporary one when unset."),
        ConfigDef("cluster.id", _B.STRING, None, "Cluster id; generated and stored in meta.properties."),
        ConfigDef("num.partitions", _B.INT, 1, "Default partitions of new topics.", _at_least(1)),
        ConfigDef("default.replication.factor", _B.INT, 1, "Default replication factor.", _at_least(1)),
        ConfigDef("auto.create.topics.enable", _B.BOOLEAN, True, "Create unknown topics on Metadata."),
        ConfigDef("delete.topic.enable", _B.BOOLEAN, True, "Allow DeleteTopics."),
        ConfigDef("message.max.bytes", _B.INT, 1048588, "Largest record batch accepted.", _at_least(0)),
        ConfigDef("socket.request.max.bytes", _B.INT, 104857600, "Largest request frame accepted.", _at_least(1)),
        ConfigDef("log.segment.bytes", _B.INT, 1073741824, "Segment size before rolling.", _at_least(14)),
        ConfigDef("log.roll.ms", _B.LONG, 604800000, "Segment age before rolling.", _at_least(1)),
        ConfigDef("log.retention.ms", _B.LONG, 604800000, "Time retention (-1: unlimited)."),
        ConfigDef("log.retention.bytes", _B.LONG, -1, "Size retention per partition (-1: unlimited)."),
        ConfigDef("log.retention.check.interval.ms", _B.LONG, 300000, "How often retention runs.", _at_least(1)),
        ConfigDef("log.initial.task.delay.ms", _B.LONG, 30000, "Delay of the first retention check.", _at_least(0)),
        ConfigDef("log.index.interval.bytes", _B.INT, 4096, "Bytes between offset index entries.", _at_least(0)),
        ConfigDef("log.index.size.max.bytes", _B.INT, 10485760, "Maximum index size.", _at_least(4)),
        ConfigDef(
            "log.message.timestamp.type",
            _B.STRING,
            "CreateTime",
            "CreateTime or LogAppendTime.",
            _one_of("CreateTime", "LogAppendTime"),
        ),
        ConfigDef("log.cleanup.policy", _B.LIST, ["delete"], "delete and/or compact.", _one_of("delete", "compact")),
        ConfigDef("log.cleaner.delete.retention.ms", _B.LONG, 86400000, "Tombstone retention."),
        # the cleaner's own (Kafka's CleanerConfig; dynamic: LogCleaner.ReconfigurableConfigs)
        ConfigDef("log.cleaner.threads", _B.INT, 1, "Threads cleaning compacted logs.", _at_least(0)),
        ConfigDef(
            "log.cleaner.io.max.bytes.per.second",
            _B.DOUBLE,
            1.7976931348623157e308,
            "Read plus write I/O of all cleaner threads per second.",
        ),
        ConfigDef("log.cleaner.dedupe.buffer.size", _B.LONG, 134217728, "Memory of the cleaners' offset maps."),
        ConfigDef("log.cleaner.io.buffer.size", _B.INT, 524288, "Cleaner I/O buffer size.", _at_least(0)),
        ConfigDef("log.cleaner.io.buffer.load.factor", _B.DOUBLE, 0.9, "Offset map load factor."),
        ConfigDef("log.cleaner.backoff.ms", _B.LONG, 15000, "Sleep when no log needs cleaning.", _at_least(0)),
        ConfigDef("log.segment.delete.delay.ms", _B.LONG, 60000, "Delay before deleting a segment file."),
        ConfigDef("log.flush.interval.messages", _B.LONG, LONG_MAX, "Messages between fsyncs.", _at_least(1)),
        ConfigDef("log.flush.interval.ms", _B.LONG, LONG_MAX, "Time between fsyncs."),
        ConfigDef("log.flush.offset.checkpoint.interval.ms", _B.INT, 60000, "Recovery point checkpoint interval."),
        ConfigDef("min.insync.replicas", _B.INT, 1, "Minimum ISR for acks=all.", _at_least(1)),
        ConfigDef("unclean.leader.election.enable", _B.BOOLEAN, False, "Allow out-of-sync leaders."),
        # replication (broker_embedded.replication): Kafka's names and defaults
        ConfigDef(
            "replica.lag.time.max.ms",
            _B.LONG,
            30000,
            "A follower not caught up to the leader's log end offset for this long leaves the ISR.",
            _at_least(1),
        ),
        ConfigDef("replica.fetch.wait.max.ms", _B.INT, 500, "Max wait of a follower's Fetch.", _at_least(0)),
        ConfigDef("replica.fetch.min.bytes", _B.INT, 1, "Min bytes of a follower's Fetch.", _at_least(1)),
        ConfigDef("replica.fetch.max.bytes", _B.INT, 1048576, "Per-partition bytes of follower Fetch.", _at_least(0)),
        ConfigDef(
            "replica.fetch.response.max.bytes", _B.INT, 10485760, "Bytes of a follower's Fetch response.", _at_least(0)
        ),
        ConfigDef("replica.fetch.backoff.ms", _B.INT, 1000, "Follower back-off after a fetch error.", _at_least(0)),
        ConfigDef("replica.socket.timeout.ms", _B.INT, 30000, "Socket timeout of a follower's requests.", _at_least(1)),
        ConfigDef(
            "compression.type",
            _B.STRING,
            "producer",
            "Final compression of topic data.",
            _one_of("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
        ),
        ConfigDef("transaction.max.timeout.ms", _B.INT, 900000, "Largest transaction timeout.", _at_least(1)),
        ConfigDef(
            "transaction.state.log.num.partitions", _B.INT, 50, "Partitions of __transaction_state.", _at_least(1)
        ),
        ConfigDef(
            "transaction.state.log.replication.factor", _B.INT, 3, "Replicas of __transaction_state.", _at_least(1)
        ),
        ConfigDef(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms",
            _B.INT,
            10000,
            "How often transactions past their timeout are aborted.",
            _at_least(1),
        ),
        ConfigDef(
            "transactional.id.expiration.ms",
            _B.INT,
            604800000,
            "Idle time after which a transactional id's state is removed.",
            _at_least(1),
        ),
        ConfigDef(
            "transaction.remove.expired.transaction.cleanup.interval.ms",
            _B.INT,
            3600000,
            "How often expired transactional ids are removed.",
            _at_least(1),
        ),
        ConfigDef("producer.id.expiration.ms", _B.INT, 86400000, "Idle producer state expiry.", _at_least(1)),
        ConfigDef("quota.window.num", _B.INT, 11, "Samples kept for client quota rates.", _at_least(1)),
        ConfigDef("quota.window.size.seconds", _B.INT, 1, "Time span of each client quota sample.", _at_least(1)),
        ConfigDef(
            "max.request.partition.size.limit",
            _B.INT,
            2000,
            "Partitions per DescribeTopicPartitions answer.",
            _at_least(1),
        ),
        # replication throttles (kafka-reassign-partitions --throttle; replication/throttle.py)
        ConfigDef(
            "leader.replication.throttled.rate", _B.LONG, LONG_MAX, "Leader-side replication bytes/s cap.", _at_least(0)
        ),
        ConfigDef(
            "follower.replication.throttled.rate",
            _B.LONG,
            LONG_MAX,
            "Follower-side replication bytes/s cap.",
            _at_least(0),
        ),
        ConfigDef(
            "replication.quota.window.num", _B.INT, 11, "Samples kept for replication quota rates.", _at_least(1)
        ),
        ConfigDef(
            "replication.quota.window.size.seconds",
            _B.INT,
            1,
            "Time span of each replication quota sample.",
            _at_least(1),
        ),
        ConfigDef("group.initial.rebalance.delay.ms", _B.INT, 0, "Delay of a new group's first rebalance."),
        ConfigDef("group.min.session.timeout.ms", _B.INT, 6000, "Smallest session timeout."),
        ConfigDef("group.max.session.timeout.ms", _B.INT, 1800000, "Largest session timeout."),
        ConfigDef(
            "group.consumer.session.timeout.ms", _B.INT, 45000, "Consumer-protocol session timeout.", _at_least(1)
        ),
        ConfigDef(
            "group.consumer.heartbeat.interval.ms", _B.INT, 5000, "Consumer-protocol heartbeat interval.", _at_least(1)
        ),
        ConfigDef(
            "group.coordinator.rebalance.protocols",
            _B.STRING,
            "classic,consumer,streams",
            "Group protocols served: classic, consumer (KIP-848), streams (KIP-1071); Kafka 4.3's default, all three.",
        ),
        ConfigDef(
            "group.consumer.assignors", _B.STRING, "uniform,range", "Server-side assignors, the first the default."
        ),
        # the broker defaults and bounds of the per-group configs (group/group_configs.py), Kafka's values
        *(
            ConfigDef(f"group.{name}", _B.INT, default, f"Group config default or bound: {name}.", _at_least(low))
            for name, default, low in _GROUP_INT_DEFAULTS
        ),
        ConfigDef(
            "group.consumer.migration.policy",
            _B.STRING,
            "bidirectional",
            "Online migration between classic and consumer groups.",
            _one_of("bidirectional", "upgrade", "downgrade", "disabled"),
        ),
        ConfigDef("offsets.topic.num.partitions", _B.INT, 50, "Partitions of __consumer_offsets.", _at_least(1)),
        ConfigDef("offsets.retention.minutes", _B.INT, 10080, "Committed offset retention.", _at_least(1)),
        ConfigDef("offsets.retention.check.interval.ms", _B.LONG, 600000, "Offset/group expiry cadence.", _at_least(1)),
        ConfigDef(
            "max.broker.partitions",
            _B.INT,
            20000,
            "pykafka (not Kafka; the name is KIP-578's): most partitions this broker hosts; more are "
            "refused with POLICY_VIOLATION (also bounded by the open-file limit, one per partition).",
            _at_least(1),
        ),
        ConfigDef(
            "queued.max.request.bytes",
            _B.LONG,
            268435456,
            "Broker-wide bytes of requests being received (Kafka's memory pool; Kafka's default -1 is "
            "unlimited, ours 256 MiB): a frame whose size does not fit waits, unread, for memory.",
        ),
        ConfigDef(
            "queued.max.response.bytes",
            _B.LONG,
            268435456,
            "pykafka (not Kafka): broker-wide unsent response bytes; above it connections with unsent "
            "responses are not read until half is sent (-1: unlimited).",
        ),
        ConfigDef(
            "socket.request.read.timeout.ms",
            _B.LONG,
            30000,
            "pykafka (not Kafka): a request must be received within this time of its first bytes "
            "(or of being admitted by queued.max.request.bytes), else the connection is closed "
            "(a slow sender); 0 disables.",
            _at_least(0),
        ),
        ConfigDef("connections.max.idle.ms", _B.LONG, 600000, "Idle connections are closed after this."),
        # tiered storage (KIP-405, broker_embedded.tiered): Kafka's names and defaults
        ConfigDef("remote.log.storage.system.enable", _B.BOOLEAN, False, "Enable tiered storage on this broker."),
        ConfigDef(
            "remote.log.storage.manager.class.name",
            _B.STRING,
            "broker_embedded.tiered.local.LocalTieredStorage",
            "RemoteStorageManager implementation (a Python class path).",
        ),
        ConfigDef(
            "remote.log.storage.manager.impl.prefix",
            _B.STRING,
            "rsm.config.",
            "Configs with this prefix are passed (prefix removed) to the RemoteStorageManager.",
        ),
        ConfigDef(
            "remote.log.metadata.manager.class.name",
            _B.STRING,
            "broker_embedded.tiered.local.FileBasedRemoteLogMetadataManager",
            "RemoteLogMetadataManager implementation (a Python class path).",
        ),
        ConfigDef(
            "remote.log.metadata.manager.impl.prefix",
            _B.STRING,
            "rlmm.config.",
            "Configs with this prefix are passed (prefix removed) to the RemoteLogMetadataManager.",
        ),
        ConfigDef(
            "remote.log.index.file.cache.total.size.bytes",
            _B.LONG,
            1073741824,
            "Bytes of remote segment indexes cached.",
            _at_least(1),
        ),
        ConfigDef("remote.log.manager.thread.pool.size", _B.INT, 10, "Copy/expiry threads.", _at_least(1)),
        ConfigDef(
            "remote.log.manager.task.interval.ms", _B.LONG, 30000, "Interval of each partition's task.", _at_least(1)
        ),
        ConfigDef(
            "remote.log.manager.task.retry.backoff.ms", _B.LONG, 500, "First retry delay of a task.", _at_least(1)
        ),
        ConfigDef("remote.log.manager.task.retry.backoff.max.ms", _B.LONG, 30000, "Largest retry delay.", _at_least(1)),
        ConfigDef("remote.log.manager.task.retry.jitter", _B.DOUBLE, 0.2, "Retry delay jitter (0 to 0.5).", _jitter),
        ConfigDef(
            "remote.log.manager.copy.max.bytes.per.second",
            _B.LONG,
            LONG_MAX,
            "Bytes per second copied to the remote tier.",
            _at_least(1),
        ),
        ConfigDef(
            "remote.log.manager.copy.timeout.ms",
            _B.LONG,
            300000,
            "pykafka (not Kafka): a segment copy taking longer fails and is retried under a new id.",
            _at_least(1),
        ),
        ConfigDef("remote.log.reader.threads", _B.INT, 10, "Threads reading the remote tier.", _at_least(1)),
        ConfigDef(
            "remote.log.reader.max.pending.tasks", _B.INT, 100, "Queued remote reads before erroring.", _at_least(1)
        ),
        ConfigDef(
            "remote.fetch.max.wait.ms",
            _B.INT,
            500,
            "Longest wait for a remote read before the partition answers KAFKA_STORAGE_ERROR.",
            _at_least(1),
        ),
        ConfigDef(
            "log.local.retention.ms", _B.LONG, -2, "Local tier time retention (-2: log.retention.ms).", _at_least(-2)
        ),
        ConfigDef(
            "log.local.retention.bytes",
            _B.LONG,
            -2,
            "Local tier size retention (-2: log.retention.bytes).",
            _at_least(-2),
        ),
        # cluster mode (broker_embedded.controller): unset = a single node that leads everything
        ConfigDef(
            "controller.quorum.bootstrap.servers",
            _B.STRING,
            None,
            "HOST:PORT[,HOST:PORT...] of the controllers (one active, the others standbys); set = cluster mode "
            "(see `python -m broker_embedded cluster`).",
        ),
        ConfigDef(
            "broker.session.timeout.ms",
            _B.INT,
            9000,
            "A broker without a heartbeat for this long is fenced by the controller.",
            _at_least(1),
        ),
        ConfigDef("broker.heartbeat.interval.ms", _B.INT, 2000, "Broker heartbeat interval.", _at_least(1)),
        ConfigDef(
            "auto.leader.rebalance.enable",
            _B.BOOLEAN,
            True,
            "The controller moves leadership back to each partition's preferred (first) replica when it is in the ISR.",
        ),
        ConfigDef(
            "leader.imbalance.check.interval.seconds",
            _B.LONG,
            300,
            "How often the controller runs the preferred leader election.",
            _at_least(1),
        ),
        ConfigDef(
            "offsets.topic.replication.factor",
            _B.SHORT,
            3,
            "Replication factor of __consumer_offsets in cluster mode (capped at the live broker count).",
            _at_least(1),
        ),
        # security (issue 13, broker_embedded/security/): per-listener overrides are
        # `listener.name.<listener>.<config>` and are read by the security room from the unknown names
        ConfigDef("listeners", _B.STRING, "", "NAME://HOST:PORT,... (empty: PLAINTEXT://host.name:port)."),
        ConfigDef("advertised.listeners", _B.STRING, "", "NAME://HOST:PORT,... told to clients (empty: listeners)."),
        ConfigDef(
            "listener.security.protocol.map",
            _B.STRING,
            "PLAINTEXT:PLAINTEXT,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL",
            "Listener name to security protocol.",
        ),
        ConfigDef("inter.broker.listener.name", _B.STRING, None, "Listener brokers use between themselves."),
        ConfigDef("security.inter.broker.protocol", _B.STRING, "PLAINTEXT", "Used when no inter.broker.listener.name."),
        ConfigDef("sasl.enabled.mechanisms", _B.LIST, ["GSSAPI"], "SASL mechanisms a SASL listener accepts."),
        ConfigDef("sasl.mechanism.inter.broker.protocol", _B.STRING, "GSSAPI", "SASL mechanism between brokers."),
        ConfigDef("sasl.jaas.config", _B.PASSWORD, None, "JAAS login module config (PLAIN users: user_<name>)."),
        ConfigDef("connections.max.reauth.ms", _B.LONG, 0, "KIP-368 session lifetime (0: no re-authentication)."),
        ConfigDef("ssl.keystore.location", _B.STRING, None, "The broker's key and certificate chain."),
        ConfigDef("ssl.keystore.password", _B.PASSWORD, None, "Keystore password."),
        ConfigDef("ssl.keystore.type", _B.STRING, "JKS", "JKS, PKCS12 or PEM.", _one_of("JKS", "PKCS12", "PEM")),
        ConfigDef("ssl.key.password", _B.PASSWORD, None, "Password of the key in the keystore."),
        ConfigDef("ssl.truststore.location", _B.STRING, None, "CAs trusted for client certificates."),
        ConfigDef("ssl.truststore.password", _B.PASSWORD, None, "Truststore password."),
        ConfigDef("ssl.truststore.type", _B.STRING, "JKS", "JKS, PKCS12 or PEM.", _one_of("JKS", "PKCS12", "PEM")),
        ConfigDef(
            "ssl.client.auth", _B.STRING, "none", "Client certificates.", _one_of("required", "requested", "none")
        ),
        ConfigDef("ssl.principal.mapping.rules", _B.STRING, "DEFAULT", "Certificate DN to principal name rules."),
        ConfigDef("ssl.endpoint.identification.algorithm", _B.STRING, "https", "Hostname check (inter-broker)."),
        ConfigDef("authorizer.class.name", _B.STRING, "", "StandardAuthorizer's class name enables ACLs."),
        ConfigDef("super.users", _B.STRING, "", "Principals allowed everything, `;`-separated."),
        ConfigDef("allow.everyone.if.no.acl.found", _B.BOOLEAN, False, "Allow a resource no ACL matches."),
    ]
}

TOPIC_CONFIGS: dict[str, ConfigDef] = {
    d.name: d
    for d in [
        ConfigDef(
            "cleanup.policy",
            _B.LIST,
            ["delete"],
            "delete and/or compact.",
            _one_of("delete", "compact"),
            "log.cleanup.policy",
        ),
        ConfigDef(
            "compression.type",
            _B.STRING,
            "producer",
            "Final compression.",
            _one_of("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
            "compression.type",
        ),
        ConfigDef(
            "delete.retention.ms",
            _B.LONG,
            86400000,
            "Tombstone retention.",
            _at_least(0),
            "log.cleaner.delete.retention.ms",
        ),
        ConfigDef(
            "file.delete.delay.ms",
            _B.LONG,
            60000,
            "Delay before deleting a file.",
            _at_least(0),
            "log.segment.delete.delay.ms",
        ),
        ConfigDef(
            "flush.messages",
            _B.LONG,
            LONG_MAX,
            "Messages between fsyncs.",
            _at_least(1),
            "log.flush.interval.messages",
        ),
        ConfigDef("flush.ms", _B.LONG, LONG_MAX, "Time between fsyncs.", _at_least(0), "log.flush.interval.ms"),
        ConfigDef(
            "index.interval.bytes",
            _B.INT,
            4096,
            "Bytes between index entries.",
            _at_least(0),
            "log.index.interval.bytes",
        ),
        ConfigDef("max.message.bytes", _B.INT, 1048588, "Largest record batch.", _at_least(0), "message.max.bytes"),
        ConfigDef(
            "message.timestamp.type",
            _B.STRING,
            "CreateTime",
            "CreateTime or LogAppendTime.",
            _one_of("CreateTime", "LogAppendTime"),
            "log.message.timestamp.type",
        ),
        ConfigDef("min.cleanable.dirty.ratio", _B.DOUBLE, 0.5, "Dirty ratio that triggers compaction."),
        ConfigDef("min.compaction.lag.ms", _B.LONG, 0, "Minimum age before compaction.", _at_least(0)),
        ConfigDef("max.compaction.lag.ms", _B.LONG, LONG_MAX, "Maximum age before compaction.", _at_least(1)),
        ConfigDef("min.insync.replicas", _B.INT, 1, "Minimum ISR for acks=all.", _at_least(1), "min.insync.replicas"),
        ConfigDef("preallocate", _B.BOOLEAN, False, "Preallocate segment files."),
        ConfigDef("retention.bytes", _B.LONG, -1, "Size retention (-1: unlimited).", None, "log.retention.bytes"),
        ConfigDef(
            "retention.ms",
            _B.LONG,
            604800000,
            "Time retention (-1: unlimited).",
            _at_least(-1),
            "log.retention.ms",
        ),
        ConfigDef("segment.bytes", _B.INT, 1073741824, "Segment size.", _at_least(14), "log.segment.bytes"),
        ConfigDef("segment.index.bytes", _B.INT, 10485760, "Index size.", _at_least(4), "log.index.size.max.bytes"),
        ConfigDef("segment.ms", _B.LONG, 604800000, "Segment age before rolling.", _at_least(1), "log.roll.ms"),
        ConfigDef(
            "unclean.leader.election.enable",
            _B.BOOLEAN,
            False,
            "Allow out-of-sync leaders.",
            None,
            "unclean.leader.election.enable",
        ),
        # tiered storage (KIP-405)
        ConfigDef("remote.storage.enable", _B.BOOLEAN, False, "Copy rolled segments to the remote tier."),
        ConfigDef(
            "local.retention.ms",
            _B.LONG,
            -2,
            "Time retention of the local tier (-2: retention.ms).",
            _at_least(-2),
            "log.local.retention.ms",
        ),
        ConfigDef(
            "local.retention.bytes",
            _B.LONG,
            -2,
            "Size retention of the local tier (-2: retention.bytes).",
            _at_least(-2),
            "log.local.retention.bytes",
        ),
        ConfigDef("remote.log.copy.disable", _B.BOOLEAN, False, "Stop copying; remote data stays readable."),
        ConfigDef(
            "remote.log.delete.on.disable", _B.BOOLEAN, False, "Delete the remote data when tiering is disabled."
        ),
        ConfigDef(
            "message.timestamp.before.max.ms",
            _B.LONG,
            LONG_MAX,
            "Oldest accepted timestamp lag.",
            _at_least(0),
        ),
        ConfigDef(
            "message.timestamp.after.max.ms",
            _B.LONG,
            3600000,
            "Newest accepted timestamp lead.",
            _at_least(0),
        ),
        ConfigDef(
            "leader.replication.throttled.replicas",
            _B.LIST,
            [],
            "partition:broker replicas throttled on the leader side, or *.",
            _throttled_replicas("leader.replication.throttled.replicas"),
        ),
        ConfigDef(
            "follower.replication.throttled.replicas",
            _B.LIST,
            [],
            "partition:broker replicas throttled on the follower side, or *.",
            _throttled_replicas("follower.replication.throttled.replicas"),
        ),
    ]
}

# Kafka's aliases for time-based broker configs: the most precise one wins.
_BROKER_ALIASES = {
    "log.retention.minutes": ("log.retention.ms", 60_000),
    "log.retention.hours": ("log.retention.ms", 3_600_000),
    "log.roll.hours": ("log.roll.ms", 3_600_000),
    "node.id": ("broker.id", 1),
    "log.dir": ("log.dirs", 1),
}
# Their ConfigDef default in Kafka is null (168 h comes from log.retention.hours / log.roll.hours), so
# Kafka's DescribeConfigs lists no DEFAULT_CONFIG synonym for them under a topic's retention.ms / segment.ms
BROKER_CONFIGS_WITHOUT_DEFAULT_SYNONYM = frozenset(target for target, _ in _BROKER_ALIASES.values())


def normalize_key(key: str) -> str:
    """Accept Python-friendly keyword names: ``num_partitions`` → ``num.partitions``."""
    return key.replace("_", ".") if "." not in key else key


def read_properties(path: str | Path) -> dict[str, str]:
    """A Java-style .properties file (key=value or key: value, # and ! comments)."""
    props: dict[str, str] = {}
    for raw in Path(path).read_text().splitlines():
        line = raw.strip()
        if not line or line[0] in "#!":
            continue
        sep = min((i for i in (line.find("="), line.find(":")) if i >= 0), default=-1)
        if sep < 0:
            props[line] = ""
            continue
        props[line[:sep].strip()] = line[sep + 1 :].strip()
    return props


class BrokerConfig:
    """Validated broker configs. Unknown names are kept (Kafka logs and ignores them)."""

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self.explicit: dict[str, Any] = {}
        self.unknown: dict[str, Any] = {}
        # dynamic broker configs (AlterConfigs on BROKER resources, broker_embedded/dynamic_config.py):
        # this broker's, then the cluster default, over the static ones
        self.dynamic_broker: dict[str, Any] = {}
        self.dynamic_default: dict[str, Any] = {}
        for raw_key, raw in (values or {}).items():
            self.set(raw_key, raw)

    def set(self, raw_key: str, raw: Any) -> None:
        key = raw_key if raw_key in BROKER_CONFIGS or raw_key in _BROKER_ALIASES else normalize_key(raw_key)
        if key in _BROKER_ALIASES:
            target, factor = _BROKER_ALIASES[key]
            if factor != 1:
                raw = int(str(raw)) * factor
            key = target
        d = BROKER_CONFIGS.get(key)
        if d is None:
            self.unknown[key] = raw
            return
        self.explicit[key] = parse_value(d, raw)

    def __getitem__(self, key: str) -> Any:
        if key in self.dynamic_broker:
            return self.dynamic_broker[key]
        if key in self.dynamic_default:
            return self.dynamic_default[key]
        if key in self.explicit:
            return self.explicit[key]
        return BROKER_CONFIGS[key].default

    def get(self, key: str, default: Any = None) -> Any:
        if key in BROKER_CONFIGS:
            return self[key]
        return self.unknown.get(key, default)


def validate_topic_configs(configs: Mapping[str, Any]) -> dict[str, Any]:
    """Parse topic-level overrides; raises ConfigError naming the bad key and value."""
    parsed: dict[str, Any] = {}
    for key, raw in configs.items():
        d = TOPIC_CONFIGS.get(key)
        if d is None:
            raise ConfigError(f"Unknown topic config name: {key}")
        parsed[key] = parse_value(d, raw)
    return parsed


@dataclass(frozen=True)
class ResolvedConfig:
    name: str
    value: Any
    source: ConfigSource
    definition: ConfigDef


def resolve_topic_config(broker: BrokerConfig, overrides: Mapping[str, Any], key: str) -> ResolvedConfig:
    d = TOPIC_CONFIGS[key]
    if key in overrides:
        return ResolvedConfig(key, overrides[key], ConfigSource.DYNAMIC_TOPIC_CONFIG, d)
    if d.broker_synonym and d.broker_synonym in broker.dynamic_broker:
        return ResolvedConfig(key, broker.dynamic_broker[d.broker_synonym], ConfigSource.DYNAMIC_BROKER_CONFIG, d)
    if d.broker_synonym and d.broker_synonym in broker.dynamic_default:
        value = broker.dynamic_default[d.broker_synonym]
        return ResolvedConfig(key, value, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG, d)
    if d.broker_synonym and d.broker_synonym in broker.explicit:
        return ResolvedConfig(key, broker.explicit[d.broker_synonym], ConfigSource.STATIC_BROKER_CONFIG, d)
    if d.broker_synonym:
        return ResolvedConfig(key, BROKER_CONFIGS[d.broker_synonym].default, ConfigSource.DEFAULT_CONFIG, d)
    return ResolvedConfig(key, d.default, ConfigSource.DEFAULT_CONFIG, d)


def effective_topic_configs(broker: BrokerConfig, overrides: Mapping[str, Any]) -> dict[str, Any]:
    return {k: resolve_topic_config(broker, overrides, k).value for k in TOPIC_CONFIGS}
