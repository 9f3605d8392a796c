"""The ``pykafka`` sink: write a DataFrame into Kafka topics, like Spark's built-in Kafka sink.

Input columns (other columns are ignored, as in Spark):

==========  =========================================  ========================================
column      type                                       meaning
==========  =========================================  ========================================
value       string or binary (required)                record value (null = tombstone)
key         string or binary (optional)                record key; drives the default partitioner
headers     array<struct<key:string,value:binary>>     record headers (optional)
topic       string                                     target topic, unless the ``topic`` option
                                                       is set: the option overrides the column
partition   int (optional)                             explicit partition; null = partitioner
==========  =========================================  ========================================

Options: ``kafka.bootstrap.servers`` (required), ``topic``, and any other ``kafka.*`` producer
setting. Java producer names are accepted and translated to librdkafka's where they differ
(``max.request.size``, ``buffer.memory``, ``partitioner.class``, ``sasl.jaas.config``, ...);
``kafka.key.serializer``/``kafka.value.serializer`` are refused as in Spark (keys and values are
always bytes). Defaults follow the Java producer that Spark uses: ``acks=all``,
``enable.idempotence=true`` (unless acks/retries/in-flight settings conflict and idempotence was
not asked for explicitly), a 2-minute delivery timeout, and Kafka's default partitioner (murmur2
of the key, sticky spread of null keys), i.e. librdkafka's ``murmur2_random``.

Delivery is at-least-once, as Spark's: every ``write()`` flushes its producer and raises if any
record was not acknowledged, so the task fails with the Kafka error in its message. A retried
task or micro-batch may write some records twice; nothing acknowledged to Spark is lost.
With ``exactlyOnce=true`` (streaming only) each task writes in a Kafka transaction whose
batch-id marker makes replays no-ops: exactly once for read_committed readers
(``connector.sink.transactional``).

Where pyspark's Python Data Source API differs from Spark's Kafka sink:

* Save modes: only ``mode("append")`` works. Spark's Kafka sink also takes ErrorIfExists (the
  default mode), but Spark refuses ErrorIfExists and Ignore for every Python data source
  (``UNSUPPORTED_DATA_SOURCE_SAVE_MODE``) before the sink is called; Overwrite is refused here.
* Streaming: Spark runs no Python code of a sink at ``start()``. Options and columns are
  checked when the first micro-batch is planned, so a bad query terminates there (before any
  task writes) and the error surfaces from ``awaitTermination()``/``exception()``.

Executors produce with confluent-kafka (librdkafka): batching, compression, retries, idempotence
and partitioning all run in C, and the per-row Python cost is one ``produce()`` call on lists
taken from the Arrow columns (``DataSourceArrowWriter``/``DataSourceStreamArrowWriter`` input, no
``Row`` objects). Producers are cached per configuration in each Python worker, which Spark
reuses across tasks and micro-batches, so a stream does not reconnect every batch.

Why confluent-kafka and not the suite's own client stack (`kafka_wire.client`) for producing: a
correct idempotent producer is a state machine (producer id and epoch, per-partition sequence
numbers, in-flight batches re-sent in order after a leader change, OUT_OF_ORDER_SEQUENCE /
UNKNOWN_PRODUCER_ID recovery, delivery timeouts) plus batching, compression and murmur2
partitioning; librdkafka implements and tests all of it, in C, and rides through broker failures
itself (metadata refresh, `retry.backoff.ms`, `reconnect.backoff.ms`, `message.timeout.ms`).
Everything else the connector says to Kafka (the source, group mode, `group_lag`, the Delta sink's
offset mirror) goes through `kafka_wire.client`. Kafka option names are translated in one place
per target: `kafka_wire.client.config.ClientConfig.from_kafka_params` for our client, and
`kafka_wire.client.librdkafka.to_librdkafka` (Java names, JAAS and JKS/PKCS12 stores -> librdkafka)
for this producer, called by `parse_sink_options`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pyarrow.compute as pc
from pyspark.sql.datasource import (
    DataSourceArrowWriter,
    DataSourceStreamArrowWriter,
    WriterCommitMessage,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    DataType,
    IntegerType,
    NullType,
    StringType,
    StructType,
)

from connector.worker_gc import freeze_gc_once
from kafka_wire.client.librdkafka import JAVA_RENAMES as _JAVA_RENAMES
from kafka_wire.client.librdkafka import LibrdkafkaOptionError, redact, to_librdkafka
from kafka_wire.errors import PykafkaError

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

FORMAT_NAME = "pykafka"
KAFKA_PREFIX = "kafka."
TOPIC_OPTION = "topic"
BOOTSTRAP_OPTION = "kafka.bootstrap.servers"

VALUE_COLUMN = "value"
KEY_COLUMN = "key"
HEADERS_COLUMN = "headers"
TOPIC_COLUMN = "topic"
PARTITION_COLUMN = "partition"

HEADERS_TYPE_TEXT = "array<struct<key:string,value:binary>>"

# Same refusals as Spark's KafkaSourceProvider for sinks: serialization is not configurable.
_FORBIDDEN_PRODUCER_OPTIONS = {
    "key.serializer": "keys are serialized as bytes (binary column, or UTF-8 of a string column)",
    "value.serializer": "values are serialized as bytes (binary column, or UTF-8 of a string column)",
    "interceptor.classes": "Java producer interceptors cannot run in a Python (librdkafka) producer",
    "transactional.id": "the pykafka sink is at-least-once like Spark's Kafka sink unless option "
    "'exactlyOnce' is 'true', which derives one transactional id per task (connector.sink.transactional)",
}

# Java's default is murmur2 for keyed records and sticky spread for null keys; librdkafka's own
# default (consistent_random, CRC32) would place keyed records differently from Java producers.
_DEFAULT_PARTITIONER = "murmur2_random"
_DEFAULT_MAX_BLOCK_MS = 60_000  # Java producer's max.block.ms
_DEFAULT_DELIVERY_TIMEOUT_MS = 120_000  # Java producer's delivery.timeout.ms
_PRODUCER_IDLE_TIMEOUT_S = 600.0  # like spark.kafka.producer.cache.timeout (10m)
_PRODUCER_EVICTOR_INTERVAL_S = 60.0  # like spark.kafka.producer.cache.evictorThreadRunInterval (1m)
_UNASSIGNED_PARTITION = -1  # librdkafka RD_KAFKA_PARTITION_UA: let the partitioner choose


class SinkOptionError(PykafkaError, ValueError):
    """A sink option is missing, malformed or not allowed (raised on the driver, before writing)."""


class SinkSchemaError(PykafkaError, ValueError):
    """An input column has a type the sink cannot write (raised on the driver, before writing)."""


class KafkaSinkWriteError(PykafkaError, RuntimeError):
    """Records were not acknowledged by Kafka; the task fails so Spark retries or reports it."""


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SinkConfig:
    """Everything an executor needs to produce; plain data so it pickles into the writer."""

    producer_config: tuple[tuple[str, str], ...]
    topic: str | None
    max_block_ms: int = _DEFAULT_MAX_BLOCK_MS

    def producer_dict(self) -> dict[str, str]:
        return dict(self.producer_config)

    def __repr__(self) -> str:  # passwords and keys never in logs or plans
        return f"SinkConfig({redact(self.producer_dict())!r}, topic={self.topic!r}, max_block_ms={self.max_block_ms})"


def _is_true(value: str) -> bool:
    return value.strip().lower() in ("true", "1", "yes")


def parse_sink_options(options: Mapping[str, str]) -> SinkConfig:
    """Validate Spark options (lower-cased keys, string values) into a SinkConfig.

    Raises SinkOptionError naming the option and what is accepted.
    """
    opts = {str(k).lower(): str(v) for k, v in options.items() if v is not None}
    bootstrap = opts.get(BOOTSTRAP_OPTION, "").strip()
    if not bootstrap:
        raise SinkOptionError(
            f"option '{BOOTSTRAP_OPTION}' must be specified for configuring the Kafka producer "
            "of the pykafka sink, e.g. .option('kafka.bootstrap.servers', 'host1:9092,host2:9092')"
        )

    topic: str | None = None
    if TOPIC_OPTION in opts:
        topic = opts[TOPIC_OPTION].strip()
        if not topic:
            raise SinkOptionError(
                "option 'topic' must be a non-empty topic name (or leave it unset and give a 'topic' column)"
            )

    conf: dict[str, str] = {}
    rest: dict[str, str] = {}
    max_block_ms = _DEFAULT_MAX_BLOCK_MS
    for key, value in sorted(opts.items()):
        if not key.startswith(KAFKA_PREFIX):
            continue  # like Spark: non-kafka options (checkpointLocation, path, ...) are not ours
        name = key[len(KAFKA_PREFIX) :]
        if name in _FORBIDDEN_PRODUCER_OPTIONS:
            raise SinkOptionError(
                f"Kafka option '{name}' (option '{key}') is not supported by the pykafka sink: "
                f"{_FORBIDDEN_PRODUCER_OPTIONS[name]}"
            )
        if name == "max.block.ms":
            # Java-only; we apply it ourselves to waits for room in the producer queue.
            try:
                max_block_ms = int(value)
                if max_block_ms < 0:
                    raise ValueError
            except ValueError:
                raise SinkOptionError(
                    f"option '{key}' must be a non-negative integer (milliseconds), got {value!r}"
                ) from None
            continue
        rest[name] = value
    # the one Java -> librdkafka translation (renames, partitioner, JAAS, trust/key stores)
    try:
        translated, explicit = to_librdkafka(rest, KAFKA_PREFIX)
    except LibrdkafkaOptionError as e:
        raise SinkOptionError(str(e)) from None
    conf.update(translated)

    conf["bootstrap.servers"] = bootstrap
    conf.setdefault("partitioner", _DEFAULT_PARTITIONER)
    conf.setdefault("acks", "all")
    if "delivery.timeout.ms" not in conf and "message.timeout.ms" not in conf:
        # Java's delivery.timeout.ms (2 min) rather than librdkafka's 5 min: how long a task may
        # wait for an unreachable partition before it fails.
        conf["message.timeout.ms"] = str(_DEFAULT_DELIVERY_TIMEOUT_MS)
    if "enable.idempotence" not in explicit and _idempotence_compatible(conf):
        # Java producer >= 3.0 default, which Spark's sink inherits: no duplicates or reordering
        # from the producer's own retries.
        conf["enable.idempotence"] = "true"
    # Python-level callbacks cannot be given as strings; the sink installs its own.
    for name in _PYTHON_LEVEL_OPTIONS:
        if name in conf:
            raise SinkOptionError(
                f"option 'kafka.{name}' is not supported by the pykafka sink: it is a Python callback "
                "setting of confluent-kafka, which the sink manages itself"
            )
    _validate_with_librdkafka(conf)
    return SinkConfig(producer_config=tuple(sorted(conf.items())), topic=topic, max_block_ms=max_block_ms)


# confluent-kafka settings that take Python objects, not strings.
_PYTHON_LEVEL_OPTIONS = (
    "delivery.report.only.error",
    "on_delivery",
    "error_cb",
    "throttle_cb",
    "stats_cb",
    "logger",
    "oauth_cb",
)

# Successful deliveries need no Python callback: only failures are reported (and raised).
_FIXED_PRODUCER_SETTINGS: dict[str, Any] = {"delivery.report.only.error": True}


def _idempotence_compatible(conf: Mapping[str, str]) -> bool:
    # Java 3.x only turns idempotence on by default when nothing set conflicts with it.
    acks = conf.get("acks", "all").strip().lower()
    if acks not in ("all", "-1"):
        return False
    for name in ("retries", "message.send.max.retries"):
        if name in conf and conf[name].strip() == "0":
            return False
    for name in ("max.in.flight.requests.per.connection", "max.in.flight"):
        if name in conf:
            try:
                if int(conf[name]) > 5:
                    return False
            except ValueError:
                return True  # librdkafka validation reports the bad value
    return True


def _validate_with_librdkafka(conf: Mapping[str, str]) -> None:
    """Let librdkafka reject unknown names and bad values now, on the driver, not in every task."""
    kafka = _confluent_kafka()
    try:
        producer = kafka.Producer({**conf, **_FIXED_PRODUCER_SETTINGS})
    except (kafka.KafkaException, TypeError, ValueError) as exc:
        err = exc.args[0] if exc.args else exc
        text = err.str() if hasattr(err, "str") else str(err)
        raise SinkOptionError(
            f"invalid Kafka producer option for the pykafka sink: {text}. Producer settings are "
            "passed as 'kafka.<name>' options and use librdkafka's names "
            "(https://github.com/confluentinc/librdkafka/blob/master/CONFIGURATION.md); the Java "
            f"names {', '.join(sorted([*_JAVA_RENAMES, 'buffer.memory', 'max.block.ms', 'partitioner.class']))} "
            "are translated"
        ) from None
    # Nothing was queued, so closing does not wait.
    _close_producer(producer)


def _confluent_kafka() -> Any:
    try:
        import confluent_kafka
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError("the pykafka sink needs confluent-kafka: pip install 'pykafka-suite[spark]'") from exc
    return confluent_kafka


# --------------------------------------------------------------------------------------------
# Input columns
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SinkColumns:
    """Which input columns the sink reads (None = absent or overridden)."""

    value: str = VALUE_COLUMN
    key: str | None = None
    headers: str | None = None
    topic: str | None = None
    partition: str | None = None


def _is_headers_type(dt: DataType) -> bool:
    if not isinstance(dt, ArrayType) or not isinstance(dt.elementType, StructType):
        return False
    fields = dt.elementType.fields
    return (
        len(fields) == 2
        and fields[0].name == "key"
        and isinstance(fields[0].dataType, StringType)
        and fields[1].name == "value"
        and isinstance(fields[1].dataType, (BinaryType, StringType))
    )


def validate_sink_schema(schema: StructType, topic_option: str | None) -> SinkColumns:
    """Check the input DataFrame's columns like Spark's KafkaWriter.validateQuery.

    Column names match exactly (as in Spark). Optional columns may also be of NullType (a
    ``lit(None)`` column), which means "absent".
    """
    by_name = {f.name: f.dataType for f in schema.fields}

    def bad(column: str, accepted: str) -> SinkSchemaError:
        return SinkSchemaError(
            f"column '{column}' of the pykafka sink has type {by_name[column].simpleString()}; accepted: {accepted}"
        )

    if VALUE_COLUMN not in by_name:
        raise SinkSchemaError(
            "required column 'value' not found in the input of the pykafka sink (columns: "
            f"{', '.join(by_name) or 'none'}); give a 'value' column of type string or binary"
        )
    if not isinstance(by_name[VALUE_COLUMN], (StringType, BinaryType, NullType)):
        raise bad(VALUE_COLUMN, "string or binary")

    def optional(column: str, types: tuple[type, ...], accepted: str) -> str | None:
        if column not in by_name or isinstance(by_name[column], NullType):
            return None
        if not isinstance(by_name[column], types):
            raise bad(column, accepted)
        return column

    key = optional(KEY_COLUMN, (StringType, BinaryType), "string or binary")
    partition = optional(PARTITION_COLUMN, (IntegerType,), "int")
    headers = None
    if HEADERS_COLUMN in by_name and not isinstance(by_name[HEADERS_COLUMN], NullType):
        if not _is_headers_type(by_name[HEADERS_COLUMN]):
            raise bad(HEADERS_COLUMN, HEADERS_TYPE_TEXT)
        headers = HEADERS_COLUMN

    topic: str | None = None
    if topic_option is None:
        # As in Spark, the topic option overrides the column, so the column only matters without it.
        if TOPIC_COLUMN not in by_name:
            raise SinkSchemaError(
                "the pykafka sink needs a topic: set the 'topic' option, or give a 'topic' column of type string"
            )
        if not isinstance(by_name[TOPIC_COLUMN], StringType):
            raise bad(TOPIC_COLUMN, "string (or set the 'topic' option, which overrides the column)")
        topic = TOPIC_COLUMN
    return SinkColumns(key=key, headers=headers, topic=topic, partition=partition)


# --------------------------------------------------------------------------------------------
# Producing (executors)
# --------------------------------------------------------------------------------------------


class _ProducerHandle:
    """A cached producer and the delivery failures reported since the current task began."""

    def __init__(self, conf: dict[str, str]) -> None:
        self.errors: list[tuple[str, int, Any]] = []
        self.failed = 0
        self.last_used = time.monotonic()
        self.in_use = False  # a task is producing with it: never evicted then, however long the task
        self.auth_error: Any = None
        kafka = _confluent_kafka()
        self.producer = kafka.Producer(
            {**conf, **_FIXED_PRODUCER_SETTINGS, "on_delivery": self._on_delivery, "error_cb": self._on_error}
        )

    def _on_error(self, err: Any) -> None:
        # librdkafka keeps retrying a failed SASL/TLS authentication until message.timeout.ms (2 min);
        # Kafka's Java producer does not retry an AuthenticationException, so the task fails at once
        kafka = _confluent_kafka()
        if err.code() in (kafka.KafkaError._AUTHENTICATION, kafka.KafkaError._SSL):
            self.auth_error = err

    def raise_auth_error(self) -> None:
        if self.auth_error is not None:
            err = self.auth_error
            name = "SASL_AUTHENTICATION_FAILED: " if "SASL" in err.str() else "SSL handshake failed: "
            raise KafkaSinkWriteError(f"pykafka sink: authentication with Kafka failed ({name}{_describe_error(err)})")

    def _on_delivery(self, err: Any, msg: Any) -> None:
        # Only failures arrive here (delivery.report.only.error); keep a few for the message.
        if err is not None:
            self.failed += 1
            if len(self.errors) < 5:
                self.errors.append((msg.topic(), msg.partition(), err))


_PRODUCERS: dict[tuple[tuple[str, str], ...], _ProducerHandle] = {}
_PRODUCERS_LOCK = threading.Lock()


def _close_producer(producer: Any) -> None:
    try:
        producer.purge()
        producer.flush(0)
        if hasattr(producer, "close"):
            producer.close()
    except Exception:  # noqa: BLE001 - best effort cleanup; the producer is dropped anyway
        pass


def evict_idle_producers(now: float, timeout_s: float = _PRODUCER_IDLE_TIMEOUT_S) -> int:
    """Close the cached producers no task has used for `timeout_s` (at time `now`, monotonic); returns
    how many. Their queues are empty: every task flushes before it ends. A producer a task holds is kept."""
    with _PRODUCERS_LOCK:
        idle = [(key, h) for key, h in _PRODUCERS.items() if not h.in_use and now - h.last_used > timeout_s]
        for key, _ in idle:
            del _PRODUCERS[key]
    for _, h in idle:
        _close_producer(h.producer)
    return len(idle)


_evictor_started = False


def _start_evictor() -> None:
    """Once per Python worker: a daemon thread closes idle producers, as Spark's producer cache does, so a
    reused worker does not keep connections (and librdkafka's reconnect attempts) to a cluster its queries
    stopped writing to until some later task happens to acquire a producer."""
    global _evictor_started
    with _PRODUCERS_LOCK:
        if _evictor_started:
            return
        _evictor_started = True

    def run() -> None:
        while True:
            time.sleep(_PRODUCER_EVICTOR_INTERVAL_S)
            evict_idle_producers(time.monotonic())

    threading.Thread(target=run, name="pykafka-producer-evictor", daemon=True).start()


def _acquire_producer(config: SinkConfig) -> _ProducerHandle:
    _start_evictor()
    with _PRODUCERS_LOCK:
        handle = _PRODUCERS.get(config.producer_config)
        if handle is None:
            handle = _ProducerHandle(config.producer_dict())
            _PRODUCERS[config.producer_config] = handle
        handle.in_use = True
    handle.errors.clear()
    handle.failed = 0
    handle.auth_error = None
    handle.last_used = time.monotonic()
    return handle


def _release_producer(handle: _ProducerHandle) -> None:
    with _PRODUCERS_LOCK:
        handle.last_used = time.monotonic()
        handle.in_use = False


def _discard_producer(config: SinkConfig, handle: _ProducerHandle) -> None:
    # After a failure, start the next task with a fresh producer (like Spark's cache invalidation).
    with _PRODUCERS_LOCK:
        if _PRODUCERS.get(config.producer_config) is handle:
            del _PRODUCERS[config.producer_config]
    _close_producer(handle.producer)


def _describe_error(err: Any) -> str:
    try:
        return f"{err.name()} ({err.str()}) [Kafka error code {err.code()}]"
    except Exception:  # noqa: BLE001
        return str(err)


def _raise_delivery_errors(handle: _ProducerHandle, records: int) -> None:
    topic, partition, err = handle.errors[0]
    where = f"topic '{topic}'" + (f" partition {partition}" if partition is not None and partition >= 0 else "")
    raise KafkaSinkWriteError(
        f"pykafka sink: {handle.failed} record(s) were not acknowledged by Kafka "
        f"({records} handed to the producer in this task); first error on {where}: {_describe_error(err)}"
    )


def _column(batch: pa.RecordBatch, name: str | None) -> list[Any] | None:
    if name is None:
        return None
    return batch.column(batch.schema.get_field_index(name)).to_pylist()


def _produce_record_batch(
    handle: _ProducerHandle, config: SinkConfig, columns: SinkColumns, batch: pa.RecordBatch
) -> int:
    n = batch.num_rows
    if n == 0:
        return 0
    produce = handle.producer.produce
    values = _column(batch, columns.value)
    keys = _column(batch, columns.key) or [None] * n
    assert values is not None

    topics: list[Any] | None = None
    if config.topic is None:
        assert columns.topic is not None
        topic_arr = batch.column(batch.schema.get_field_index(columns.topic))
        if topic_arr.null_count:
            raise KafkaSinkWriteError(
                "pykafka sink: null topic present in the data. Set the 'topic' option to give a "
                "default topic, or fill the 'topic' column"
            )
        topics = topic_arr.to_pylist()
    partitions: list[Any] | None = None
    if columns.partition is not None:
        part_arr = batch.column(batch.schema.get_field_index(columns.partition))
        low = pc.min(part_arr).as_py()
        if low is not None and low < 0:
            # librdkafka would read -1 as "unassigned"; Java refuses any negative partition.
            raise KafkaSinkWriteError(
                f"pykafka sink: invalid partition {low} in the 'partition' column: partitions are "
                "0 or more (null lets the partitioner choose)"
            )
        partitions = part_arr.to_pylist()
        if part_arr.null_count:
            partitions = [_UNASSIGNED_PARTITION if p is None else p for p in partitions]
    headers: list[Any] | None = None
    if columns.headers is not None:
        headers_arr = batch.column(batch.schema.get_field_index(columns.headers))
        entries = headers_arr.flatten()
        # Kafka has no null header keys (Java's RecordHeader refuses them); confluent-kafka would
        # silently write something else.
        if entries.null_count or pc.struct_field(entries, "key").null_count:
            raise KafkaSinkWriteError(
                "pykafka sink: null header (or null header key) in the 'headers' column: every header "
                "needs a non-null key; the value may be null"
            )
        headers = [None if h is None else [(e["key"], e["value"]) for e in h] for h in headers_arr.to_pylist()]

    topic_const = config.topic
    # Lists built in C ([x] * n) so the general loop indexes instead of branching per row.
    topic_list = topics if topics is not None else [topic_const] * n
    part_list = partitions if partitions is not None else [_UNASSIGNED_PARTITION] * n
    fast = topics is None and partitions is None and headers is None
    blocked_row, deadline = -1, 0.0
    i = 0
    while i < n:
        start = i
        try:
            # The hot loops: one C call per row. Positional arguments are cheapest; headers can
            # only go by keyword (confluent-kafka's positional slot 5 is the `callback` alias).
            if fast:
                for i in range(start, n):
                    produce(topic_const, values[i], keys[i])
            elif headers is None:
                for i in range(start, n):
                    produce(topic_list[i], values[i], keys[i], part_list[i])
            else:
                for i in range(start, n):
                    produce(topic_list[i], values[i], keys[i], part_list[i], headers=headers[i])
            i = n
        except BufferError:
            # Local queue full: wait for deliveries. Like Java's max.block.ms, the limit is per
            # record: the clock restarts whenever a new row is the one waiting.
            now = time.monotonic()
            if blocked_row != i:
                blocked_row, deadline = i, now + config.max_block_ms / 1000.0
            elif now > deadline:
                raise KafkaSinkWriteError(
                    f"pykafka sink: the producer queue stayed full for more than max.block.ms="
                    f"{config.max_block_ms}; Kafka is not accepting records fast enough"
                ) from None
            handle.producer.poll(0.05)
            if handle.errors:
                _raise_delivery_errors(handle, i)
        except _confluent_kafka().KafkaException as exc:
            err = exc.args[0] if exc.args else exc
            topic, part = topic_list[i], part_list[i]
            where = f"topic '{topic}'" + (f" partition {part}" if part >= 0 else "")
            raise KafkaSinkWriteError(
                f"pykafka sink: Kafka refused a record for {where}: {_describe_error(err)}"
            ) from None
        except (TypeError, ValueError) as exc:
            # confluent-kafka checks argument types per call; name the row instead of a bare TypeError
            raise KafkaSinkWriteError(f"pykafka sink: cannot produce row {i} of this batch: {exc}") from None
    return n


def produce_batches(config: SinkConfig, columns: SinkColumns, batches: Iterable[pa.RecordBatch]) -> int:
    """Produce every row of `batches` and wait until Kafka acknowledged all of them.

    Returns the number of records written; raises KafkaSinkWriteError on any failure.
    """
    handle = _acquire_producer(config)
    records = 0
    try:
        for batch in batches:
            records += _produce_record_batch(handle, config, columns, batch)
            handle.producer.poll(0)  # serve failure reports early: fail fast, not after the flush
            if handle.errors:
                _raise_delivery_errors(handle, records)
        # At-least-once: the task only succeeds once every record is acknowledged (or failed).
        while handle.producer.flush(1.0) > 0:
            handle.raise_auth_error()
        if handle.errors:
            _raise_delivery_errors(handle, records)
    except BaseException:
        _discard_producer(config, handle)
        raise
    _release_producer(handle)
    return records


# --------------------------------------------------------------------------------------------
# Spark writers
# --------------------------------------------------------------------------------------------


@dataclass
class KafkaSinkCommitMessage(WriterCommitMessage):
    """What one task wrote (for the driver's log); the records are already in Kafka."""

    records: int = 0
    partition_id: int | None = None


def _task_partition_id() -> int | None:
    try:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        return ctx.partitionId() if ctx is not None else None
    except Exception:  # noqa: BLE001
        return None


def _total(messages: Iterable[WriterCommitMessage | None]) -> int:
    return sum(m.records for m in messages if isinstance(m, KafkaSinkCommitMessage))


class PykafkaBatchWriter(DataSourceArrowWriter):
    """``df.write.format("pykafka")``: each task produces its partition's rows and flushes."""

    def __init__(self, config: SinkConfig, columns: SinkColumns) -> None:
        self.config = config
        self.columns = columns

    def write(self, iterator: Iterator[pa.RecordBatch]) -> KafkaSinkCommitMessage:
        freeze_gc_once()
        return KafkaSinkCommitMessage(produce_batches(self.config, self.columns, iterator), _task_partition_id())

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        log.info("pykafka sink: batch write committed, %d records", _total(messages))

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        # Records from successful tasks are already in Kafka and cannot be taken back.
        log.warning("pykafka sink: batch write aborted; %d records were already written", _total(messages))


class PykafkaStreamWriter(DataSourceStreamArrowWriter):
    """``df.writeStream.format("pykafka")``: at-least-once per micro-batch."""

    def __init__(self, config: SinkConfig, columns: SinkColumns) -> None:
        self.config = config
        self.columns = columns

    def write(self, iterator: Iterator[pa.RecordBatch]) -> KafkaSinkCommitMessage:
        freeze_gc_once()
        return KafkaSinkCommitMessage(produce_batches(self.config, self.columns, iterator), _task_partition_id())

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        log.info("pykafka sink: micro-batch %d committed, %d records", batchId, _total(messages))

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        log.warning(
            "pykafka sink: micro-batch %d aborted; %d records were already written (a retry "
            "writes them again: at-least-once)",
            batchId,
            _total(messages),
        )


def create_batch_writer(options: Mapping[str, str], schema: StructType, overwrite: bool) -> PykafkaBatchWriter:
    """Called from ``DataSource.writer`` on the driver; raises before any task runs."""
    if overwrite:
        # Spark's Kafka sink: "Save mode Overwrite not allowed for Kafka"; records cannot be truncated.
        raise SinkOptionError(
            "save mode Overwrite is not allowed for the pykafka sink: Kafka topics cannot be "
            "truncated. Allowed: Append, i.e. df.write.format('pykafka').mode('append') (Spark "
            "itself refuses ErrorIfExists and Ignore for Python data sources)"
        )
    from connector.sink.transactional import exactly_once_requested, parse_exactly_once_options

    if exactly_once_requested(options):
        parse_exactly_once_options(options, streaming=False)  # raises: streaming writes only
    config = parse_sink_options(options)
    return PykafkaBatchWriter(config, validate_sink_schema(schema, config.topic))


def create_stream_writer(options: Mapping[str, str], schema: StructType, overwrite: bool) -> PykafkaStreamWriter:
    """Called from ``DataSource.streamWriter`` on the driver at every micro-batch.

    ``overwrite`` is True for output mode complete, which Kafka's sink accepts: each trigger
    appends the full result again.
    """
    from connector.sink.transactional import create_exactly_once_stream_writer, exactly_once_requested

    if exactly_once_requested(options):
        # exactlyOnce=true: one Kafka transaction per task and micro-batch (connector.sink.transactional)
        return create_exactly_once_stream_writer(options, schema)  # type: ignore[return-value]
    config = parse_sink_options(options)
    return PykafkaStreamWriter(config, validate_sink_schema(schema, config.topic))
