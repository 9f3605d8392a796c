"""Source options, with the names, defaults and errors of Spark's built-in Kafka source.

Spark hands a Python data source its options as strings with lower-cased keys, so every lookup
here is by the lower-cased name; error messages use the documented spelling. Validation happens
in three steps, the way Spark's Kafka source does it:

* `parse_source_options(options)`: everything that holds for batch and streaming (subscription,
  `kafka.*` params, numbers, JSON) — called from `DataSource.schema()`, i.e. at `load()`;
* `validate_batch(opts)` — `startingOffsets=latest`, `endingOffsets=earliest`, ... — from
  `DataSource.reader()`;
* `validate_stream(opts)` — ending options are not valid on a stream — from
  `DataSource.streamReader()`, i.e. at `start()`.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass

from connector.client_config import ClientConfig, parse_bootstrap
from connector.option_names import (
    KAFKA_CONSUMER_CONFIGS,
    KAFKA_PRODUCER_ONLY_CONFIGS,
    SourceOptionError,
    check_option_names,
)
from offsets.spec import (
    EARLIEST,
    EARLIEST_SPEC,
    LATEST,
    LATEST_SPEC,
    STRATEGIES,
    EarliestSpec,
    GlobalTimestampSpec,
    LatestSpec,
    OffsetSpec,
    OffsetSpecError,
    SpecificOffsetsSpec,
    SpecificTimestampsSpec,
    parse_assign,
    parse_global_timestamp,
    parse_offset_spec,
    parse_timestamp_spec,
    tp_str,
)

log = logging.getLogger(__name__)


SUBSCRIPTION_KINDS = ("assign", "subscribe", "subscribepattern")
_KIND_NAMES = {"assign": "assign", "subscribe": "subscribe", "subscribepattern": "subscribePattern"}

# Kafka consumer params Spark refuses, lower-cased, with the reason (wording is ours).
FORBIDDEN_KAFKA_PARAMS: dict[str, str] = {
    "auto.offset.reset": (
        "Kafka option 'auto.offset.reset' is not supported: set the source option 'startingOffsets' to "
        "'earliest' or 'latest' instead. The source tracks the offsets it reads itself (in the query's "
        "checkpoint), so partitions added while a query runs are read from their start; 'startingOffsets' "
        "only applies when a new query starts, a restarted query resumes where it stopped."
    ),
    "key.deserializer": (
        "Kafka option 'key.deserializer' is not supported: keys are always read as bytes (the 'key' column "
        "is binary). Deserialize them with DataFrame operations, e.g. CAST(key AS STRING)."
    ),
    "value.deserializer": (
        "Kafka option 'value.deserializer' is not supported: values are always read as bytes (the 'value' "
        "column is binary). Deserialize them with DataFrame operations, e.g. CAST(value AS STRING) or from_json."
    ),
    "enable.auto.commit": (
        "Kafka option 'enable.auto.commit' is not supported: the source keeps its offsets in the query's "
        "checkpoint. To see a query's lag in Kafka's tooling set 'commitOffsetsToGroup' to a group id: each "
        "finished micro-batch's end offsets are committed to it; in group mode ('groupMode' = 'true') the "
        "query commits each finished micro-batch's offsets to its group itself."
    ),
    "interceptor.classes": "Kafka option 'interceptor.classes' is not supported: the source has no interceptors.",
}

_SOURCE_OPTIONS = {
    "assign",
    "subscribe",
    "subscribepattern",
    "startingoffsets",
    "endingoffsets",
    "startingtimestamp",
    "endingtimestamp",
    "startingoffsetsbytimestamp",
    "endingoffsetsbytimestamp",
    "startingoffsetsbytimestampstrategy",
    "failondataloss",
    "maxoffsetspertrigger",
    "minoffsetspertrigger",
    "maxtriggerdelay",
    "minpartitions",
    "maxrecordsperpartition",
    "maxpartitions",
    "includeheaders",
    "kafkaconsumer.polltimeoutms",
    "fetchoffset.numretries",
    "fetchoffset.retryintervalms",
    "groupidprefix",
    "path",
    # group mode (connector.source.group_mode)
    "groupmode",
    "offsetstable",
    "groupplanlog",
    # lag in Kafka's tooling (connector.offset_mirror.FinishedBatchCommits)
    "commitoffsetstogroup",
    "checkpointlocation",
}

# Options that only mean something to a group member. Since issue 20 `kafka.group.id` alone keeps
# the meaning it has in Spark's Kafka source (it names the group of the source's Kafka requests,
# every query reads all partitions): given with it, these would have meant group mode before, so
# without `groupMode` they are refused instead of silently reading every partition.
GROUP_ONLY_OPTIONS: dict[str, str] = {
    "offsetstable": "offsetsTable",
    "groupplanlog": "groupPlanLog",
}
GROUP_ONLY_KAFKA_PARAMS: dict[str, str] = {
    "partition.assignment.strategy": "kafka.partition.assignment.strategy",
    "group.instance.id": "kafka.group.instance.id",
    "session.timeout.ms": "kafka.session.timeout.ms",
    "heartbeat.interval.ms": "kafka.heartbeat.interval.ms",
    "max.poll.interval.ms": "kafka.max.poll.interval.ms",
    "group.protocol": "kafka.group.protocol",
    "group.remote.assignor": "kafka.group.remote.assignor",
}

DEFAULT_POLL_TIMEOUT_MS = 120_000
DEFAULT_MAX_TRIGGER_DELAY_MS = 15 * 60 * 1000
DEFAULT_FETCH_OFFSET_RETRIES = 3
DEFAULT_FETCH_OFFSET_RETRY_INTERVAL_MS = 1000  # Spark's code (the doc says 10 ms)


@dataclass(frozen=True)
class Subscription:
    """Exactly one of Spark's three ways to name partitions."""

    kind: str  # "assign" | "subscribe" | "subscribePattern"
    topics: tuple[str, ...] = ()
    pattern: str = ""
    assignment: tuple[tuple[str, int], ...] = ()

    def describe(self) -> str:
        if self.kind == "subscribe":
            return f"Subscribe[{', '.join(self.topics)}]"
        if self.kind == "subscribePattern":
            return f"SubscribePattern[{self.pattern}]"
        return f"Assign[{', '.join(tp_str(tp) for tp in self.assignment)}]"


# Group mode: `partition.assignment.strategy` values (Kafka's protocol names, and the Java class
# names Kafka users write), kept here rather than imported so option checks stay light
ASSIGNMENT_STRATEGIES: dict[str, str] = {
    "range": "range",
    "roundrobin": "roundrobin",
    "sticky": "sticky",
    "cooperative-sticky": "cooperative-sticky",
    "org.apache.kafka.clients.consumer.rangeassignor": "range",
    "org.apache.kafka.clients.consumer.roundrobinassignor": "roundrobin",
    "org.apache.kafka.clients.consumer.stickyassignor": "sticky",
    "org.apache.kafka.clients.consumer.cooperativestickyassignor": "cooperative-sticky",
}
DEFAULT_ASSIGNMENT_STRATEGY = ("cooperative-sticky",)
DEFAULT_SESSION_TIMEOUT_MS = 45_000  # Kafka's consumer defaults
DEFAULT_HEARTBEAT_INTERVAL_MS = 3_000
DEFAULT_MAX_POLL_INTERVAL_MS = 300_000
DEFAULT_METADATA_MAX_AGE_MS = 300_000
DEFAULT_API_TIMEOUT_MS = 60_000
# group.protocol: Kafka's classic rebalance protocol, or KIP-848's consumer protocol (the coordinator
# assigns; partitions move one by one, the other members' partitions never stop)
GROUP_PROTOCOLS = ("classic", "consumer")
# Kafka's consumer refuses these with group.protocol=consumer: the broker sets them
# (group.consumer.session.timeout.ms / heartbeat.interval.ms, group.consumer.assignors)
CLASSIC_ONLY_KAFKA_PARAMS: dict[str, str] = {
    "partition.assignment.strategy": "the broker assigns: choose its assignor with 'kafka.group.remote.assignor'",
    "session.timeout.ms": "the broker's group.consumer.session.timeout.ms (or the group config "
    "consumer.session.timeout.ms) sets it",
    "heartbeat.interval.ms": "the broker's group.consumer.heartbeat.interval.ms (or the group config "
    "consumer.heartbeat.interval.ms) sets it",
}


@dataclass(frozen=True)
class GroupOptions:
    """Group mode (`groupMode` = `true` with `kafka.group.id`): the driver-side reader is a member of
    this consumer group.

    Kafka consumer config names: `assignors` from `kafka.partition.assignment.strategy`,
    `session_timeout_ms` (`kafka.session.timeout.ms`: a dead driver is evicted after it),
    `heartbeat_interval_ms`, `rebalance_timeout_ms` (`kafka.max.poll.interval.ms`), `group_instance_id`
    (static membership), `metadata_max_age_ms` (how soon the leader sees new partitions),
    `join_timeout_ms` (`kafka.default.api.timeout.ms`: how long the first batch waits for an
    assignment). `offsets_table` is the Delta table whose app transactions (owner = group id) hold
    the resume offsets; `plan_log` a local file that gets one JSON line per planned batch.
    """

    group_id: str
    assignors: tuple[str, ...] = DEFAULT_ASSIGNMENT_STRATEGY
    session_timeout_ms: int = DEFAULT_SESSION_TIMEOUT_MS
    heartbeat_interval_ms: int = DEFAULT_HEARTBEAT_INTERVAL_MS
    rebalance_timeout_ms: int = DEFAULT_MAX_POLL_INTERVAL_MS
    group_instance_id: str | None = None
    metadata_max_age_ms: int = DEFAULT_METADATA_MAX_AGE_MS
    join_timeout_ms: int = DEFAULT_API_TIMEOUT_MS
    offsets_table: str | None = None
    plan_log: str | None = None
    group_protocol: str = "classic"  # `kafka.group.protocol`: "classic" or "consumer" (KIP-848)
    remote_assignor: str | None = None  # `kafka.group.remote.assignor` (consumer protocol only)


@dataclass(frozen=True)
class SourceOptions:
    subscription: Subscription
    client: ClientConfig
    starting: OffsetSpec | None  # None: not given (earliest for batch, latest for streams)
    ending: OffsetSpec | None
    fail_on_data_loss: bool = True
    max_offsets_per_trigger: int | None = None
    min_offsets_per_trigger: int | None = None
    max_trigger_delay_ms: int = DEFAULT_MAX_TRIGGER_DELAY_MS
    min_partitions: int | None = None
    max_records_per_partition: int | None = None
    max_partitions: int | None = None  # `maxPartitions`: at most this many tasks (Kafka partitions grouped)
    include_headers: bool = False
    poll_timeout_ms: int = DEFAULT_POLL_TIMEOUT_MS
    fetch_offset_num_retries: int = DEFAULT_FETCH_OFFSET_RETRIES
    fetch_offset_retry_interval_ms: int = DEFAULT_FETCH_OFFSET_RETRY_INTERVAL_MS
    group_id_prefix: str = "spark-kafka-source"
    group_id: str | None = None
    ending_given: tuple[str, ...] = ()  # which ending options were set (streams refuse them)
    group: GroupOptions | None = None  # group mode (`groupMode`), see connector.source.group_mode
    commit_group: str | None = None  # `commitOffsetsToGroup`: finished batches' offsets go to this group
    checkpoint_location: str | None = None  # only names the query in those commits' metadata


def _err(msg: str) -> SourceOptionError:
    return SourceOptionError(msg)


def _bool(opts: Mapping[str, str], key: str, name: str, default: bool) -> bool:
    raw = opts.get(key)
    if raw is None:
        return default
    v = raw.strip().lower()
    if v not in ("true", "false"):
        raise _err(f"Invalid value {raw!r} for option '{name}': expected 'true' or 'false'")
    return v == "true"


def _int(opts: Mapping[str, str], key: str, name: str, minimum: int, what: str) -> int | None:
    raw = opts.get(key)
    if raw is None:
        return None
    try:
        v = int(raw.strip())
    except ValueError:
        raise _err(f"Invalid value {raw!r} for option '{name}': expected {what}") from None
    if v < minimum:
        raise _err(f"Invalid value {raw!r} for option '{name}': expected {what}")
    return v


def _int_or(opts: Mapping[str, str], key: str, name: str, minimum: int, what: str, default: int) -> int:
    v = _int(opts, key, name, minimum, what)
    return default if v is None else v


_DURATION = re.compile(r"^\s*(\d+)\s*(ms|s|m|min|h|d|milliseconds?|seconds?|minutes?|hours?|days?)?\s*$", re.I)
_UNIT_MS = {
    "ms": 1,
    "millisecond": 1,
    "milliseconds": 1,
    "s": 1000,
    "second": 1000,
    "seconds": 1000,
    "m": 60_000,
    "min": 60_000,
    "minute": 60_000,
    "minutes": 60_000,
    "h": 3_600_000,
    "hour": 3_600_000,
    "hours": 3_600_000,
    "d": 86_400_000,
    "day": 86_400_000,
    "days": 86_400_000,
}


def parse_duration_ms(raw: str, name: str) -> int:
    """Spark time strings (`15m`, `30s`, `500ms`, `1h`); a bare number is milliseconds."""
    m = _DURATION.match(raw)
    if not m:
        raise _err(f"Invalid value {raw!r} for option '{name}': expected a duration like '15m', '30s' or '500ms'")
    unit = (m.group(2) or "ms").lower()
    return int(m.group(1)) * _UNIT_MS[unit]


def _subscription(opts: Mapping[str, str]) -> Subscription:
    given = [k for k in SUBSCRIPTION_KINDS if k in opts]
    names = ", ".join(_KIND_NAMES[k] for k in SUBSCRIPTION_KINDS)
    if not given:
        unknown = sorted(k for k in opts if k.startswith(("subscribe", "assign")) and k not in _SOURCE_OPTIONS)
        hint = f" (unknown option(s): {', '.join(unknown)})" if unknown else ""
        raise _err(f"One of the following options must be specified for the pykafka source: {names}{hint}")
    if len(given) > 1:
        raise _err(
            f"Only one of the following options can be specified for the pykafka source: {names}; "
            f"got {', '.join(_KIND_NAMES[k] for k in given)}"
        )
    kind = given[0]
    raw = opts[kind]
    if kind == "subscribe":
        topics = tuple(dict.fromkeys(t.strip() for t in raw.split(",") if t.strip()))
        if not topics:
            raise _err(f"No topics to subscribe to as specified value for option 'subscribe' is {raw!r}")
        return Subscription("subscribe", topics=topics)
    if kind == "subscribepattern":
        pattern = raw.strip()
        if not pattern:
            raise _err(f"Pattern to subscribe is empty as specified value for option 'subscribePattern' is {raw!r}")
        try:
            re.compile(pattern)
        except re.error as e:
            raise _err(
                f"Invalid value {raw!r} for option 'subscribePattern': not a valid regular expression ({e})"
            ) from None
        return Subscription("subscribePattern", pattern=pattern)
    try:
        assignment = parse_assign(raw)
    except OffsetSpecError as e:
        raise _err(str(e)) from None
    return Subscription("assign", assignment=tuple((t, p) for t in sorted(assignment) for p in assignment[t]))


def _kafka_params(opts: Mapping[str, str]) -> dict[str, str]:
    params = {k[len("kafka.") :]: v for k, v in opts.items() if k.startswith("kafka.")}
    for key, reason in FORBIDDEN_KAFKA_PARAMS.items():
        if key in params:
            raise _err(reason)
    for key in ("key.serializer", "value.serializer"):
        # producer settings: meaningless for a source, refused like Spark does for its sink
        if key in params:
            raise _err(f"Kafka option '{key}' is not supported by the pykafka source: records are read as bytes")
    return params


def _starting(opts: Mapping[str, str], strategy: str) -> OffsetSpec | None:
    # precedence as in Spark: startingTimestamp > startingOffsetsByTimestamp > startingOffsets
    try:
        if "startingtimestamp" in opts:
            return parse_global_timestamp("startingTimestamp", opts["startingtimestamp"], strategy)
        if "startingoffsetsbytimestamp" in opts:
            return parse_timestamp_spec("startingOffsetsByTimestamp", opts["startingoffsetsbytimestamp"], strategy)
        if "startingoffsets" in opts:
            return parse_offset_spec("startingOffsets", opts["startingoffsets"], LATEST_SPEC)
    except OffsetSpecError as e:
        raise _err(str(e)) from None
    return None


def _ending(opts: Mapping[str, str]) -> OffsetSpec | None:
    # no matching offset for an ending timestamp means "latest" (Spark's behaviour): strategy latest
    try:
        if "endingtimestamp" in opts:
            return parse_global_timestamp("endingTimestamp", opts["endingtimestamp"], "latest")
        if "endingoffsetsbytimestamp" in opts:
            return parse_timestamp_spec("endingOffsetsByTimestamp", opts["endingoffsetsbytimestamp"], "latest")
        if "endingoffsets" in opts:
            return parse_offset_spec("endingOffsets", opts["endingoffsets"], LATEST_SPEC)
    except OffsetSpecError as e:
        raise _err(str(e)) from None
    return None


def _task_bounds(opts: Mapping[str, str]) -> tuple[int | None, int | None, int | None]:
    """minPartitions, maxRecordsPerPartition (Spark's Kafka source) and maxPartitions (ours: at most that
    many tasks, each reading one or more Kafka partitions' ranges in turn)."""
    min_partitions = _int(opts, "minpartitions", "minPartitions", 1, "a positive integer")
    max_records = _int(opts, "maxrecordsperpartition", "maxRecordsPerPartition", 1, "a positive integer")
    max_partitions = _int(opts, "maxpartitions", "maxPartitions", 1, "a positive integer")
    if max_partitions is not None and min_partitions is not None and min_partitions > max_partitions:
        raise _err(
            f"The value of option 'minPartitions' ({min_partitions}) must not exceed the value of option "
            f"'maxPartitions' ({max_partitions})"
        )
    if max_partitions is not None and max_records is not None:
        # grouping ranges would make tasks of more than maxRecordsPerPartition offsets
        raise _err(
            "Options 'maxPartitions' and 'maxRecordsPerPartition' cannot be used together: 'maxPartitions' "
            "groups ranges into fewer, larger tasks, 'maxRecordsPerPartition' bounds each task's size"
        )
    return min_partitions, max_records, max_partitions


def parse_source_options(options: Mapping[str, str]) -> SourceOptions:
    """Everything valid for both batch and streaming reads; raises SourceOptionError."""
    opts = {str(k).lower(): str(v) for k, v in options.items()}
    check_option_names(opts, _SOURCE_OPTIONS)
    if not opts.get("kafka.bootstrap.servers", "").strip():
        raise _err("Option 'kafka.bootstrap.servers' must be specified for configuring the Kafka consumer")
    try:
        parse_bootstrap(opts["kafka.bootstrap.servers"])
    except ValueError as e:
        raise _err(str(e)) from None
    subscription = _subscription(opts)
    params = _kafka_params(opts)

    strategy_raw = opts.get("startingoffsetsbytimestampstrategy", "error")
    strategy = strategy_raw.strip().lower()
    if strategy not in STRATEGIES:
        raise _err(
            f"Invalid value {strategy_raw!r} for option 'startingOffsetsByTimestampStrategy': expected one of "
            f"{', '.join(STRATEGIES)}"
        )

    max_per_trigger = _int(opts, "maxoffsetspertrigger", "maxOffsetsPerTrigger", 1, "a positive integer")
    min_per_trigger = _int(opts, "minoffsetspertrigger", "minOffsetsPerTrigger", 1, "a positive integer")
    if max_per_trigger is not None and min_per_trigger is not None and min_per_trigger > max_per_trigger:
        raise _err(
            f"The value of option 'minOffsetsPerTrigger' ({min_per_trigger}) must not exceed the value of "
            f"option 'maxOffsetsPerTrigger' ({max_per_trigger})"
        )
    min_partitions, max_records_per_partition, max_partitions = _task_bounds(opts)
    delay = DEFAULT_MAX_TRIGGER_DELAY_MS
    if "maxtriggerdelay" in opts:
        delay = parse_duration_ms(opts["maxtriggerdelay"], "maxTriggerDelay")

    group_id = params.get("group.id")
    group = _group_options(opts, params)
    commit_group = _commit_group(opts, group)
    prefix = opts.get("groupidprefix", "spark-kafka-source")
    client_id = group_id or f"{prefix}-{uuid.uuid4()}"
    try:
        client = ClientConfig.from_kafka_params(params, client_id=client_id)
    except ValueError as e:
        raise _err(str(e)) from None

    ending_given = tuple(
        name
        for key, name in (
            ("endingoffsets", "endingOffsets"),
            ("endingtimestamp", "endingTimestamp"),
            ("endingoffsetsbytimestamp", "endingOffsetsByTimestamp"),
        )
        if key in opts
    )
    return SourceOptions(
        subscription=subscription,
        client=client,
        starting=_starting(opts, strategy),
        ending=_ending(opts),
        fail_on_data_loss=_bool(opts, "failondataloss", "failOnDataLoss", True),
        max_offsets_per_trigger=max_per_trigger,
        min_offsets_per_trigger=min_per_trigger,
        max_trigger_delay_ms=delay,
        min_partitions=min_partitions,
        max_records_per_partition=max_records_per_partition,
        max_partitions=max_partitions,
        include_headers=_bool(opts, "includeheaders", "includeHeaders", False),
        poll_timeout_ms=_int_or(
            opts, "kafkaconsumer.polltimeoutms", "kafkaConsumer.pollTimeoutMs", 1,
            "a positive number of milliseconds", DEFAULT_POLL_TIMEOUT_MS,
        ),
        fetch_offset_num_retries=_int_or(
            opts, "fetchoffset.numretries", "fetchOffset.numRetries", 0,
            "a non-negative integer", DEFAULT_FETCH_OFFSET_RETRIES,
        ),
        fetch_offset_retry_interval_ms=_int_or(
            opts, "fetchoffset.retryintervalms", "fetchOffset.retryIntervalMs", 0,
            "a non-negative number of milliseconds", DEFAULT_FETCH_OFFSET_RETRY_INTERVAL_MS,
        ),
        group_id_prefix=prefix,
        group_id=group_id,
        ending_given=ending_given,
        group=group,
        commit_group=commit_group,
        checkpoint_location=(opts.get("checkpointlocation") or "").strip() or None,
    )  # fmt: skip


def _assignors(params: Mapping[str, str]) -> tuple[str, ...]:
    raw = params.get("partition.assignment.strategy")
    if raw is None:
        return DEFAULT_ASSIGNMENT_STRATEGY
    names = [n.strip() for n in raw.split(",") if n.strip()]
    out: list[str] = []
    for n in names:
        name = ASSIGNMENT_STRATEGIES.get(n.lower())
        if name is None:
            raise _err(
                f"Invalid value {raw!r} for option 'kafka.partition.assignment.strategy': unknown assignor {n!r}; "
                "expected a comma-separated list of range, roundrobin, sticky, cooperative-sticky (or Kafka's "
                "class names, e.g. org.apache.kafka.clients.consumer.CooperativeStickyAssignor)"
            )
        if name not in out:
            out.append(name)
    if not out:
        raise _err(
            f"Invalid value {raw!r} for option 'kafka.partition.assignment.strategy': expected at least one of "
            "range, roundrobin, sticky, cooperative-sticky"
        )
    return tuple(out)


def _group_options(opts: Mapping[str, str], params: Mapping[str, str]) -> GroupOptions | None:
    """Group mode options when `groupMode` is `true`, else None (then group-only options are errors).

    `kafka.group.id` alone does not switch group mode on (Spark's meaning: it names the group the
    source's requests use, every query reads every partition).
    """
    group_id = params.get("group.id")
    if group_id is not None and not group_id.strip():
        raise _err("Invalid value '' for option 'kafka.group.id': expected a non-empty consumer group id")
    enabled = _bool(opts, "groupmode", "groupMode", False)
    if not enabled:
        for key, name in GROUP_ONLY_OPTIONS.items():
            if key in opts:
                raise _err(
                    f"Option '{name}' is only valid in group mode, which is switched on by option 'groupMode' = "
                    "'true' together with 'kafka.group.id' (the consumer group whose queries share the "
                    "subscription); 'kafka.group.id' alone no longer switches it on (see the README's Changelog)"
                )
        if group_id is not None:
            for key, name in GROUP_ONLY_KAFKA_PARAMS.items():
                if key in params:
                    raise _err(
                        f"Ambiguous options: '{name}' configures consumer group membership, but 'kafka.group.id' "
                        "alone no longer switches group mode on: it keeps the meaning of Spark's Kafka source "
                        "(the group id of the source's requests; the query reads every partition and commits "
                        f"nothing). Add option 'groupMode' = 'true' to share the partitions with the other "
                        f"queries of group {group_id!r}, or remove '{name}' to read every partition"
                    )
        return None
    if group_id is None:
        raise _err(
            "Option 'groupMode' = 'true' needs option 'kafka.group.id': the consumer group whose queries share "
            "the subscription's partitions"
        )

    def ms(key: str, default: int) -> int:
        return _int_or(params, key, f"kafka.{key}", 1, "a positive number of milliseconds", default)

    protocol, remote_assignor = _group_protocol(params)

    session = ms("session.timeout.ms", DEFAULT_SESSION_TIMEOUT_MS)
    heartbeat = ms("heartbeat.interval.ms", DEFAULT_HEARTBEAT_INTERVAL_MS)
    if heartbeat >= session:
        raise _err(
            f"Invalid value {heartbeat} for option 'kafka.heartbeat.interval.ms': it must be smaller than "
            f"'kafka.session.timeout.ms' ({session}); Kafka recommends at most a third of it"
        )
    table = opts.get("offsetstable")
    if table is not None and not table.strip():
        raise _err("Invalid value '' for option 'offsetsTable': expected the path (or URI) of a Delta table")
    plan_log = opts.get("groupplanlog")
    if plan_log is not None and not plan_log.strip():
        raise _err("Invalid value '' for option 'groupPlanLog': expected a local file path")
    instance = params.get("group.instance.id")
    if instance is not None and not instance.strip():
        raise _err("Invalid value '' for option 'kafka.group.instance.id': expected a non-empty id or no option")
    return GroupOptions(
        group_id=group_id,
        assignors=_assignors(params),
        session_timeout_ms=session,
        heartbeat_interval_ms=heartbeat,
        rebalance_timeout_ms=ms("max.poll.interval.ms", DEFAULT_MAX_POLL_INTERVAL_MS),
        group_instance_id=instance,
        metadata_max_age_ms=ms("metadata.max.age.ms", DEFAULT_METADATA_MAX_AGE_MS),
        join_timeout_ms=ms("default.api.timeout.ms", DEFAULT_API_TIMEOUT_MS),
        offsets_table=table.strip() if table is not None else None,
        plan_log=plan_log.strip() if plan_log is not None else None,
        group_protocol=protocol,
        remote_assignor=remote_assignor,
    )


def _group_protocol(params: Mapping[str, str]) -> tuple[str, str | None]:
    """`kafka.group.protocol` (Kafka's values, any case) and `kafka.group.remote.assignor`, refused
    where Kafka's consumer refuses them (ConsumerConfig: "X cannot be set when group.protocol=...")."""
    raw = params.get("group.protocol")
    protocol = "classic" if raw is None else raw.strip().lower()
    if protocol not in GROUP_PROTOCOLS:
        raise _err(f"Invalid value {raw!r} for option 'kafka.group.protocol': expected 'classic' or 'consumer'")
    assignor = params.get("group.remote.assignor")
    if protocol == "classic":
        if assignor is not None:
            raise _err(
                "Option 'kafka.group.remote.assignor' cannot be set when group.protocol=classic: it names the "
                "broker-side assignor of 'kafka.group.protocol' = 'consumer'"
            )
        return protocol, None
    for key, why in CLASSIC_ONLY_KAFKA_PARAMS.items():
        if key in params:
            raise _err(f"Option 'kafka.{key}' cannot be set when group.protocol=consumer: {why}")
    if assignor is not None and not assignor.strip():
        raise _err(
            "Invalid value '' for option 'kafka.group.remote.assignor': expected a broker-side assignor name "
            "(e.g. 'uniform' or 'range') or no option"
        )
    return protocol, assignor.strip() if assignor is not None else None


def _commit_group(opts: Mapping[str, str], group: GroupOptions | None) -> str | None:
    """`commitOffsetsToGroup`: a group id, refused in group mode (the member commits to its group)."""
    raw = opts.get("commitoffsetstogroup")
    if raw is None:
        return None
    if not raw.strip():
        raise _err(f"Invalid value {raw!r} for option 'commitOffsetsToGroup': expected a consumer group id")
    if group is not None:
        raise _err(
            "Options 'commitOffsetsToGroup' and 'groupMode' cannot be combined: in group mode the query commits "
            f"each finished micro-batch's offsets to its own group ({group.group_id!r}, option 'kafka.group.id') "
            "as a member; remove 'commitOffsetsToGroup'"
        )
    return raw.strip()


def validate_batch(opts: SourceOptions) -> None:
    """Batch-only rules (Spark's validateBatchOptions)."""
    start, end = opts.starting, opts.ending
    if isinstance(start, LatestSpec):
        raise _err("Invalid value 'latest' for option 'startingOffsets': starting offset can't be latest for batch "
                   "queries on Kafka; use 'earliest' or a JSON object of offsets")  # fmt: skip
    if isinstance(start, SpecificOffsetsSpec):
        for tp, off in start.offsets.items():
            if off == LATEST:
                raise _err(
                    f"Invalid value for option 'startingOffsets': starting offset for {tp_str(tp)} can't be latest "
                    "(-1) for batch queries on Kafka"
                )
    if isinstance(end, EarliestSpec):
        raise _err("Invalid value 'earliest' for option 'endingOffsets': ending offset can't be earliest for batch "
                   "queries on Kafka; use 'latest' or a JSON object of offsets")  # fmt: skip
    if opts.group is not None:
        # a group member lives as long as its query; a batch read has no next batch to hand over
        raise _err(
            "Option 'groupMode' is only valid in streaming queries (spark.readStream): a batch read reads every "
            "partition it names; 'kafka.group.id' alone (without 'groupMode') is accepted in batch reads"
        )
    if opts.commit_group is not None:
        # a Python data source's batch reader has no hook that runs after the job succeeded: committing
        # when the partitions are planned would commit offsets of a job that may still fail
        raise _err(
            "Option 'commitOffsetsToGroup' is only valid in streaming queries: a batch read cannot know that "
            "its job succeeded. Pin the ending offsets with connector.source.lag.pin_ending_offsets(options), run the "
            "job, then call connector.source.lag.commit_batch_offsets(options, group) (see the README's 'Lag and "
            "monitoring')"
        )
    if isinstance(end, SpecificOffsetsSpec):
        for tp, off in end.offsets.items():
            if off == EARLIEST:
                raise _err(
                    f"Invalid value for option 'endingOffsets': ending offset for {tp_str(tp)} can't be earliest "
                    "(-2) for batch queries on Kafka"
                )
    for name, given in (
        ("maxOffsetsPerTrigger", opts.max_offsets_per_trigger),
        ("minOffsetsPerTrigger", opts.min_offsets_per_trigger),
    ):
        if given is not None:
            log.warning("option '%s' is ignored in batch queries", name)


def validate_stream(opts: SourceOptions) -> None:
    """Streaming-only rules: no ending offsets (Spark: "ending offset not valid in streaming queries")."""
    if opts.group is not None and opts.subscription.kind == "assign":
        raise _err(
            "Option 'groupMode' cannot be combined with 'assign' in a streaming query: in group mode the "
            "group's assignor decides which partitions each query reads, so use 'subscribe' or 'subscribePattern'"
        )
    if opts.group is not None and opts.group.offsets_table is None:
        log.warning(
            "group mode without option 'offsetsTable': partitions handed over between queries of group %r resume "
            "from the group's broker offsets, which lag one micro-batch behind (at-least-once); write with the "
            "pykafka-delta sink and set 'offsetsTable' to its path for exactly-once",
            opts.group.group_id,
        )
    if opts.ending_given:
        raise _err(
            f"Option '{opts.ending_given[0]}' is not valid in streaming queries: ending offset not valid in "
            "streaming queries (remove it, or use a batch read with spark.read)"
        )


def batch_starting(opts: SourceOptions) -> OffsetSpec:
    return opts.starting if opts.starting is not None else EARLIEST_SPEC


def batch_ending(opts: SourceOptions) -> OffsetSpec:
    return opts.ending if opts.ending is not None else LATEST_SPEC


def stream_starting(opts: SourceOptions) -> OffsetSpec:
    return opts.starting if opts.starting is not None else LATEST_SPEC


__all__ = [
    "ASSIGNMENT_STRATEGIES",
    "FORBIDDEN_KAFKA_PARAMS",
    "KAFKA_CONSUMER_CONFIGS",
    "KAFKA_PRODUCER_ONLY_CONFIGS",
    "GROUP_ONLY_KAFKA_PARAMS",
    "GROUP_ONLY_OPTIONS",
    "GroupOptions",
    "GlobalTimestampSpec",
    "SourceOptionError",
    "SourceOptions",
    "SpecificTimestampsSpec",
    "Subscription",
    "batch_ending",
    "batch_starting",
    "parse_duration_ms",
    "parse_source_options",
    "stream_starting",
    "validate_batch",
    "validate_stream",
]
