"""The ``pykafka`` sink's exactly-once mode (``.option("exactlyOnce", "true")``, streaming only).

Design: one Kafka transaction per Spark task per micro-batch, fenced by its transactional id and
recorded by a marker committed in the same transaction, read back before writing.

* ``transactional.id`` = ``<exactlyOnce.transactionalIdPrefix>-<query id>-<task partition>``
  (default prefix ``pykafka-eos``). The query id is kept in the checkpoint and the task's partition
  index is a function of the micro-batch's (logged) offsets, so the id is stable across task
  retries, driver restarts and replays. Every task attempt starts a fresh transactional producer
  and ``init_transactions()`` bumps the id's epoch: an older attempt still alive (a zombie task,
  or the tasks of a zombie driver) is fenced, and its open transaction is aborted by the
  coordinator, before the new attempt looks at anything.
* Marker: the transaction also commits (``send_offsets_to_transaction``, TxnOffsetCommit) the
  offset ``batch id + 1`` with JSON metadata ``{"queryId", "batchId", "partition", "records"}`` for
  partition 0 of the marker topic (the ``topic`` option, or ``exactlyOnce.markerTopic``) in the
  consumer group named like the transactional id. Records and marker become visible atomically.
* Read-back: after ``init_transactions()`` the task reads its group's committed offset with
  read_committed semantics (OffsetFetch with require_stable). If it is past this batch id, this
  task's output for the batch is already committed (the batch is a replay after a driver restart,
  or a task retry after the commit): the task writes nothing. Otherwise it writes its rows and
  the marker in one transaction and commits it.
* The driver's ``commit()`` only checks the tasks' messages: the tasks committed their own
  transactions, which is why the read-back (not the driver) is what prevents duplicates.

Guarantee: a read_committed consumer of the output sees every row of every micro-batch exactly
once, across task retries, executor losses and driver crashes/restarts from the same checkpoint,
provided a replayed micro-batch hands each task partition the same rows (true for Spark's
micro-batch replay of a deterministic query over a replayable source such as ``pykafka``: the
offsets are in the checkpoint's offset log, so partitioning is the same). Not guaranteed: a
micro-batch's output is atomic per task, not across tasks (a batch that fails half-way shows the
committed tasks' records until the replay writes the rest, without duplicates); changing the
query's parallelism or its code between a crash and the restart voids the replay argument;
read_uncommitted consumers see aborted records. Cost: per task and micro-batch, one new producer
and consumer (connections, FindCoordinator), InitProducerId, OffsetFetch, AddPartitionsToTxn,
AddOffsetsToTxn, TxnOffsetCommit and EndTxn (whose markers the coordinator writes before the next
InitProducerId of the id returns): a fixed latency per micro-batch, measured by ``bench.eos_sink``.
Tasks with no rows skip all of it.
"""

from __future__ import annotations

import itertools
import json
import logging
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

from pyspark.sql.datasource import DataSourceStreamArrowWriter, WriterCommitMessage
from pyspark.sql.types import StructType

from connector.sink.writer import (
    KAFKA_PREFIX,
    TOPIC_OPTION,
    KafkaSinkWriteError,
    SinkColumns,
    SinkConfig,
    SinkOptionError,
    _close_producer,
    _confluent_kafka,
    _describe_error,
    _produce_record_batch,
    _ProducerHandle,
    _raise_delivery_errors,
    _validate_with_librdkafka,
    parse_sink_options,
    validate_sink_schema,
)
from connector.worker_gc import freeze_gc_once

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

EXACTLY_ONCE_OPTION = "exactlyOnce"
MARKER_TOPIC_OPTION = "exactlyOnce.markerTopic"
TXN_ID_PREFIX_OPTION = "exactlyOnce.transactionalIdPrefix"
DEFAULT_TXN_ID_PREFIX = "pykafka-eos"
MARKER_PARTITION = 0

# Spark's local properties, set by StreamExecution / MicroBatchExecution on every job of a batch
# and shipped with each task to its Python worker.
QUERY_ID_PROPERTY = "sql.streaming.queryId"
BATCH_ID_PROPERTY = "streaming.sql.batchId"

_DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000  # Java producer's and librdkafka's transaction.timeout.ms

# Settings a consumer shares with the producer (connection and security); the consumer only
# reads the marker, so producer-only settings are not passed (librdkafka would warn on each).
_CONSUMER_SETTING_PREFIXES = (
    "bootstrap.servers",
    "security.protocol",
    "ssl.",
    "ssl_",
    "sasl.",
    "enable.sasl.",  # enable.sasl.oauthbearer.unsecure.jwt: the unsecured OAUTHBEARER token
    "client.id",
    "client.dns.lookup",
    "socket.",
    "broker.address.",
    "reconnect.backoff",
    "connections.max.idle.ms",
    "metadata.",
    "topic.metadata.",
    "api.version.",
    "enable.ssl.certificate.verification",
    "enable.sasl.oauthbearer.unsecure.jwt",
    "https.",
)


def exactly_once_requested(options: Mapping[str, str]) -> bool:
    """Whether ``exactlyOnce`` is on; raises SinkOptionError for a value other than true/false."""
    value = {str(k).lower(): v for k, v in options.items()}.get(EXACTLY_ONCE_OPTION.lower())
    if value is None:
        return False
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise SinkOptionError(
            f"option '{EXACTLY_ONCE_OPTION}' = {value!r} is not accepted: accepted values are 'true' "
            "(transactional, exactly-once per micro-batch) and 'false' (the default: at-least-once)"
        )
    return text == "true"


@dataclass(frozen=True)
class ExactlyOnceConfig:
    """Everything a task needs for its transaction; plain data, pickled into the writer."""

    sink: SinkConfig
    marker_topic: str
    transactional_id_prefix: str
    transaction_timeout_ms: int

    def transactional_id(self, query_id: str, partition: int) -> str:
        return f"{self.transactional_id_prefix}-{query_id}-{partition}"

    def consumer_config(self, group_id: str) -> dict[str, str]:
        conf = {k: v for k, v in self.sink.producer_config if k.startswith(_CONSUMER_SETTING_PREFIXES)}
        conf.update({"group.id": group_id, "enable.auto.commit": "false", "isolation.level": "read_committed"})
        return conf


def _int_option(opts: Mapping[str, str], key: str, default: int) -> int:
    if key not in opts:
        return default
    try:
        value = int(opts[key])
        if value <= 0:
            raise ValueError
    except ValueError:
        raise SinkOptionError(f"option '{key}' must be a positive integer (milliseconds), got {opts[key]!r}") from None
    return value


def parse_exactly_once_options(options: Mapping[str, str], *, streaming: bool) -> ExactlyOnceConfig:
    """Validate the options of an ``exactlyOnce=true`` sink (on the driver, before any task runs).

    Raises SinkOptionError naming the option and the accepted values.
    """
    opts = {str(k).lower(): str(v) for k, v in options.items() if v is not None}
    if not streaming:
        raise SinkOptionError(
            f"option '{EXACTLY_ONCE_OPTION}' = 'true' applies to streaming writes (df.writeStream) only: "
            "a batch write has no micro-batch id to make a retry idempotent. For df.write leave it unset "
            "or set it to 'false' (at-least-once)"
        )
    if "kafka.transactional.id" in opts:
        raise SinkOptionError(
            "option 'kafka.transactional.id' cannot be set with exactlyOnce=true: the sink derives one "
            f"transactional id per task, '<prefix>-<query id>-<task partition>'; choose the prefix with "
            f"option '{TXN_ID_PREFIX_OPTION}' (default '{DEFAULT_TXN_ID_PREFIX}')"
        )
    acks = opts.get("kafka.acks", "all").strip().lower()
    if acks not in ("all", "-1"):
        raise SinkOptionError(
            f"option 'kafka.acks' = {opts['kafka.acks']!r} is not accepted with exactlyOnce=true: "
            "transactions need acks=all; accepted values: 'all', '-1' (or leave it unset)"
        )
    if opts.get("kafka.enable.idempotence", "true").strip().lower() not in ("true", "1", "yes"):
        raise SinkOptionError(
            "option 'kafka.enable.idempotence' = 'false' is not accepted with exactlyOnce=true: "
            "transactions need the idempotent producer; accepted values: 'true' (or leave it unset)"
        )
    for name in ("max.in.flight.requests.per.connection", "max.in.flight"):
        key = KAFKA_PREFIX + name
        if key in opts:
            try:
                bad = not 1 <= int(opts[key]) <= 5
            except ValueError:
                bad = True
            if bad:
                raise SinkOptionError(
                    f"option '{key}' = {opts[key]!r} is not accepted with exactlyOnce=true: the "
                    "idempotent producer keeps order with at most 5 requests in flight; accepted values: 1 to 5"
                )
    for name in ("retries", "message.send.max.retries"):
        key = KAFKA_PREFIX + name
        if key in opts and opts[key].strip() == "0":
            raise SinkOptionError(
                f"option '{key}' = '0' is not accepted with exactlyOnce=true: the idempotent producer must "
                "retry; accepted values: a positive integer (or leave it unset)"
            )

    marker_key = MARKER_TOPIC_OPTION.lower()
    marker_topic = opts.get(marker_key, opts.get(TOPIC_OPTION, "")).strip()
    if not marker_topic:
        raise SinkOptionError(
            f"exactlyOnce=true needs a marker topic for the batch ids it commits with each transaction: "
            f"set option '{TOPIC_OPTION}', or option '{MARKER_TOPIC_OPTION}' to an existing topic when rows "
            "choose their topic with a 'topic' column"
        )
    prefix = opts.get(TXN_ID_PREFIX_OPTION.lower(), DEFAULT_TXN_ID_PREFIX).strip()
    if not prefix:
        raise SinkOptionError(
            f"option '{TXN_ID_PREFIX_OPTION}' must be a non-empty string (default '{DEFAULT_TXN_ID_PREFIX}')"
        )

    txn_timeout = _int_option(opts, "kafka.transaction.timeout.ms", _DEFAULT_TRANSACTION_TIMEOUT_MS)
    sink = parse_sink_options(options)
    conf = dict(sink.producer_config)
    conf["transaction.timeout.ms"] = str(txn_timeout)
    if "kafka.delivery.timeout.ms" not in opts and "kafka.message.timeout.ms" not in opts:
        # librdkafka refuses message.timeout.ms > transaction.timeout.ms; the at-least-once default
        # (2 min, Java's delivery.timeout.ms) is cut to the transaction's.
        conf["message.timeout.ms"] = str(min(int(conf.get("message.timeout.ms", txn_timeout)), txn_timeout))
    # librdkafka checks the transactional settings together (e.g. message.timeout.ms against
    # transaction.timeout.ms) only when a transactional.id is present.
    _validate_with_librdkafka({**conf, "transactional.id": f"{prefix}-validation"})
    return ExactlyOnceConfig(
        sink=replace(sink, producer_config=tuple(sorted(conf.items()))),
        marker_topic=marker_topic,
        transactional_id_prefix=prefix,
        transaction_timeout_ms=txn_timeout,
    )


# --------------------------------------------------------------------------------------------
# Tasks (executors)
# --------------------------------------------------------------------------------------------


class TaskObserver(Protocol):
    """Test hook (no-op by default): told what each task did, in the task's process."""

    def committed(self, batch_id: int, partition: int, records: int) -> None: ...

    def skipped(self, batch_id: int, partition: int) -> None: ...


@dataclass
class ExactlyOnceCommitMessage(WriterCommitMessage):
    """What one task did for its micro-batch; its transaction is already committed (or skipped)."""

    query_id: str
    batch_id: int
    partition: int
    records: int
    skipped: bool = False


@dataclass(frozen=True)
class Marker:
    """The committed marker of one transactional id: the next batch id, and its metadata."""

    next_batch_id: int
    metadata: str

    @property
    def fields(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self.metadata))
        except (ValueError, TypeError):
            return {}


def _kafka_error(exc: BaseException) -> Any:
    return exc.args[0] if exc.args else exc


def _is_fenced(err: Any) -> bool:
    kafka = _confluent_kafka()
    codes = {kafka.KafkaError._FENCED, getattr(kafka.KafkaError, "PRODUCER_FENCED", None)}
    codes.add(getattr(kafka.KafkaError, "INVALID_PRODUCER_EPOCH", None))
    try:
        return err.code() in codes
    except AttributeError:
        return False


def _require_topic(consumer: Any, topic: str, timeout_s: float) -> None:
    # Kafka answers TxnOffsetCommit for an unknown topic with a retriable error, so a missing
    # marker topic would only fail at the transaction timeout: check it first (a consumer's
    # metadata request does not auto-create topics).
    kafka = _confluent_kafka()
    try:
        described = consumer.list_topics(topic, timeout=timeout_s).topics.get(topic)
    except kafka.KafkaException as exc:
        raise KafkaSinkWriteError(
            f"pykafka sink (exactlyOnce): cannot describe the marker topic '{topic}': "
            f"{_describe_error(_kafka_error(exc))}"
        ) from None
    if described is None or described.error is not None or MARKER_PARTITION not in described.partitions:
        why = _describe_error(described.error) if described is not None and described.error else "no partition 0"
        raise KafkaSinkWriteError(
            f"pykafka sink (exactlyOnce): the marker topic '{topic}' (option '{MARKER_TOPIC_OPTION}', or "
            f"'topic') must be an existing topic: {why}"
        )


def read_marker(consumer: Any, topic: str, timeout_s: float) -> Marker | None:
    """The marker committed for this consumer's group, or None when nothing was committed yet.

    Retriable errors (the group's coordinator moving or loading, ``__consumer_offsets`` being
    created on first use, UNSTABLE_OFFSET_COMMIT while a transaction's offsets are pending) are
    retried until `timeout_s`.
    """
    kafka = _confluent_kafka()
    _require_topic(consumer, topic, timeout_s)
    deadline = time.monotonic() + timeout_s
    backoff = 0.05
    while True:
        left = max(0.1, deadline - time.monotonic())
        err: Any = None
        try:
            (tp,) = consumer.committed([kafka.TopicPartition(topic, MARKER_PARTITION)], timeout=left)
            err = tp.error
        except kafka.KafkaException as exc:
            err = _kafka_error(exc)
        if err is None:
            return None if tp.offset < 0 else Marker(tp.offset, tp.metadata or "")
        retriable = getattr(err, "retriable", lambda: False)() or getattr(err, "code", lambda: None)() in (
            kafka.KafkaError.NOT_COORDINATOR,
            kafka.KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
            kafka.KafkaError.COORDINATOR_NOT_AVAILABLE,
            kafka.KafkaError.UNSTABLE_OFFSET_COMMIT,
        )
        if not retriable or time.monotonic() + backoff > deadline:
            raise KafkaSinkWriteError(
                f"pykafka sink (exactlyOnce): cannot read the committed batch marker of topic '{topic}' "
                f"partition {MARKER_PARTITION} (option '{MARKER_TOPIC_OPTION}' or 'topic' must name an "
                f"existing topic): {_describe_error(err)}"
            )
        time.sleep(backoff)
        backoff = min(backoff * 2, 1.0)


def write_task_transaction(
    config: ExactlyOnceConfig,
    columns: SinkColumns,
    batches: Iterator[pa.RecordBatch],
    *,
    query_id: str,
    batch_id: int,
    partition: int,
    observer: TaskObserver | None = None,
) -> ExactlyOnceCommitMessage:
    """Write one task's rows of micro-batch `batch_id` in one transaction, unless already committed.

    Order matters: fence first (``init_transactions``), then read the marker, then write. Any
    attempt that read the marker before us has been fenced, so it cannot commit after our read.
    """
    kafka = _confluent_kafka()
    txn_id = config.transactional_id(query_id, partition)
    timeout_s = config.sink.max_block_ms / 1000.0
    handle = _ProducerHandle({**config.sink.producer_dict(), "transactional.id": txn_id})
    producer = handle.producer
    consumer = kafka.Consumer(config.consumer_config(txn_id))
    in_transaction = False
    try:
        producer.init_transactions(timeout_s)
        marker = read_marker(consumer, config.marker_topic, timeout_s)
        if marker is not None and marker.next_batch_id > batch_id:
            # Committed before (a replayed batch after a driver restart, or a task retried after its
            # commit): the records are in Kafka once already. Drain the input so the Python worker
            # stays in step with the JVM, and write nothing.
            for _ in batches:
                pass
            log.info(
                "pykafka sink (exactlyOnce): %s batch %d already committed (marker %s): skipped",
                txn_id, batch_id, marker.metadata,
            )  # fmt: skip
            if observer is not None:
                observer.skipped(batch_id, partition)
            return ExactlyOnceCommitMessage(query_id, batch_id, partition, 0, skipped=True)

        producer.begin_transaction()
        in_transaction = True
        records = 0
        for batch in batches:
            records += _produce_record_batch(handle, config.sink, columns, batch)
            producer.poll(0)
            if handle.errors:
                _raise_delivery_errors(handle, records)
        while producer.flush(1.0) > 0:
            pass
        if handle.errors:
            _raise_delivery_errors(handle, records)
        metadata = json.dumps(
            {"queryId": query_id, "batchId": batch_id, "partition": partition, "records": records},
            separators=(",", ":"),
        )
        offsets = [kafka.TopicPartition(config.marker_topic, MARKER_PARTITION, batch_id + 1, metadata=metadata)]
        producer.send_offsets_to_transaction(offsets, consumer.consumer_group_metadata(), timeout_s)
        producer.commit_transaction(timeout_s)
        in_transaction = False
        if observer is not None:
            observer.committed(batch_id, partition, records)
        return ExactlyOnceCommitMessage(query_id, batch_id, partition, records)
    except kafka.KafkaException as exc:
        err = _kafka_error(exc)
        why = (
            "fenced by a newer attempt with the same transactional id (a retried or speculative task, or "
            "another run of this query)"
            if _is_fenced(err)
            else "the transaction is aborted; a retry of the task or of the micro-batch writes it again"
        )
        raise KafkaSinkWriteError(
            f"pykafka sink (exactlyOnce): transaction of '{txn_id}' for batch {batch_id} failed: "
            f"{_describe_error(err)}; {why}"
        ) from None
    finally:
        if in_transaction:
            try:
                producer.abort_transaction(min(timeout_s, 10.0))
            except Exception:  # noqa: BLE001 - fenced/fatal producers cannot abort; the coordinator will
                pass
        consumer.close()
        _close_producer(producer)


def _first_rows(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch] | None:
    """`batches` from its first non-empty batch on, or None when there are no rows at all."""
    for batch in batches:
        if batch.num_rows:
            return itertools.chain([batch], batches)
    return None


def _task_context() -> tuple[str, int, int]:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    query_id = ctx.getLocalProperty(QUERY_ID_PROPERTY) if ctx is not None else None
    batch_id = ctx.getLocalProperty(BATCH_ID_PROPERTY) if ctx is not None else None
    if ctx is None or not query_id or batch_id is None:
        raise KafkaSinkWriteError(
            "pykafka sink (exactlyOnce): this task carries no streaming query id / batch id "
            f"(Spark local properties '{QUERY_ID_PROPERTY}', '{BATCH_ID_PROPERTY}'); exactlyOnce works "
            "in micro-batch streaming queries only"
        )
    return query_id, int(batch_id), ctx.partitionId()


class ExactlyOnceStreamWriter(DataSourceStreamArrowWriter):
    """``writeStream.format("pykafka").option("exactlyOnce", "true")``."""

    def __init__(self, config: ExactlyOnceConfig, columns: SinkColumns, observer: TaskObserver | None = None) -> None:
        self.config = config
        self.columns = columns
        self.observer = observer

    def write(self, iterator: Iterator[pa.RecordBatch]) -> ExactlyOnceCommitMessage:
        freeze_gc_once()
        query_id, batch_id, partition = _task_context()
        rows = _first_rows(iterator)
        if rows is None:
            # Nothing to write: re-running it is harmless, so no transaction and no marker.
            return ExactlyOnceCommitMessage(query_id, batch_id, partition, 0)
        return write_task_transaction(
            self.config,
            self.columns,
            rows,
            query_id=query_id,
            batch_id=batch_id,
            partition=partition,
            observer=self.observer,
        )

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        ours = [m for m in messages if isinstance(m, ExactlyOnceCommitMessage)]
        wrong = [m for m in ours if m.batch_id != batchId]
        if wrong:
            # The tasks' batch id comes from Spark's local property; a mismatch would make the
            # markers meaningless, so fail loudly rather than report a commit.
            raise KafkaSinkWriteError(
                f"pykafka sink (exactlyOnce): Spark commits batch {batchId} but tasks wrote batch "
                f"{sorted({m.batch_id for m in wrong})}"
            )
        log.info(
            "pykafka sink (exactlyOnce): micro-batch %d committed: %d records in %d transactions, %d tasks "
            "already committed before (replay)",
            batchId, sum(m.records for m in ours), sum(not m.skipped and m.records > 0 for m in ours),
            sum(m.skipped for m in ours),
        )  # fmt: skip

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        done = [m for m in messages if isinstance(m, ExactlyOnceCommitMessage)]
        log.warning(
            "pykafka sink (exactlyOnce): micro-batch %d aborted; %d task transactions were committed and "
            "are skipped when the batch is replayed",
            batchId,
            len(done),
        )


def create_exactly_once_stream_writer(
    options: Mapping[str, str], schema: StructType, observer: TaskObserver | None = None
) -> ExactlyOnceStreamWriter:
    """Called from the sink's stream writer factory when ``exactlyOnce`` is true (driver side)."""
    config = parse_exactly_once_options(options, streaming=True)
    return ExactlyOnceStreamWriter(config, validate_sink_schema(schema, config.sink.topic), observer)


__all__ = [
    "DEFAULT_TXN_ID_PREFIX",
    "EXACTLY_ONCE_OPTION",
    "MARKER_TOPIC_OPTION",
    "TXN_ID_PREFIX_OPTION",
    "ExactlyOnceCommitMessage",
    "ExactlyOnceConfig",
    "ExactlyOnceStreamWriter",
    "Marker",
    "TaskObserver",
    "create_exactly_once_stream_writer",
    "exactly_once_requested",
    "parse_exactly_once_options",
    "read_marker",
    "write_task_transaction",
]
