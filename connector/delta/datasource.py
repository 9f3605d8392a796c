"""The ``pykafka-delta`` data source: planning on the driver (options and schema checked against the
table before any task runs) and the Spark writers that tie the executor side
(``connector.delta.files``) to the driver's commit (``connector.delta.commit``).

``df.writeStream.format("pykafka-delta").option("checkpointLocation", ...).start(path)`` and
``df.write.format("pykafka-delta").mode("append"|"overwrite").save(path)``. Output modes: append
(``mode("append")``, streaming append/update) and complete / ``mode("overwrite")`` (replace the
table in the same commit).

Spark pickles the writers (with their plans) to the executors and to the Python worker that runs
``commit()``: every class here must stay importable by its module path.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceStreamArrowWriter,
    DataSourceStreamWriter,
    DataSourceWriter,
    WriterCommitMessage,
)
from pyspark.sql.types import IntegerType, LongType, StringType, StructType

from connector.delta.commit import CommitPlan, commit_files, load_table
from connector.delta.errors import DeltaSchemaMismatchError
from connector.delta.files import (
    OFFSET_COLUMN,
    PARTITION_COLUMN,
    TOPIC_COLUMN,
    DeltaCommitMessage,
    DeltaFile,
    WritePlan,
    remove_file,
    write_files,
)
from connector.delta.options import parse_delta_options
from connector.delta.schema import PARTITION_TYPES, check_schema, spark_to_arrow_schema
from connector.worker_gc import freeze_gc_once

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

FORMAT_NAME = "pykafka-delta"


def _messages_files(messages: Iterable[WriterCommitMessage | None]) -> list[DeltaFile]:
    return [f for m in messages if isinstance(m, DeltaCommitMessage) for f in m.files]


class _DeltaWriterBase:
    def __init__(self, write_plan: WritePlan, commit_plan: CommitPlan, overwrite: bool) -> None:
        self.write_plan = write_plan
        self.commit_plan = commit_plan
        self.overwrite = overwrite

    def write(self, iterator: Iterator[pa.RecordBatch]) -> DeltaCommitMessage:
        freeze_gc_once()
        return DeltaCommitMessage(write_files(self.write_plan, iterator))

    def _abort(self, messages: list[WriterCommitMessage | None]) -> None:
        # Nothing was committed: remove the files the successful tasks wrote.
        files = _messages_files(messages)
        for f in files:
            remove_file(self.commit_plan.table_path, f.path, self.commit_plan.storage_options)
        log.warning("pykafka-delta: write aborted; removed %d uncommitted files", len(files))


class DeltaBatchWriter(_DeltaWriterBase, DataSourceArrowWriter):
    """``df.write.format("pykafka-delta")``."""

    def commit(self, messages: list[WriterCommitMessage | None]) -> None:
        result = commit_files(self.commit_plan, _messages_files(messages), None, self.overwrite)
        log.info(
            "pykafka-delta: committed %d files (%d records) as version %s", result.files, result.records, result.version
        )

    def abort(self, messages: list[WriterCommitMessage | None]) -> None:
        self._abort(messages)


class DeltaStreamWriter(_DeltaWriterBase, DataSourceStreamArrowWriter):
    """``df.writeStream.format("pykafka-delta")``: one Delta commit per micro-batch, exactly once."""

    def commit(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        result = commit_files(self.commit_plan, _messages_files(messages), batchId, self.overwrite)
        log.info(
            "pykafka-delta: micro-batch %d -> version %s (%d files, %d records, %s)",
            batchId,
            result.version,
            result.files,
            result.records,
            "skipped" if result.skipped else "committed",
        )

    def abort(self, messages: list[WriterCommitMessage | None], batchId: int) -> None:  # noqa: N803
        self._abort(messages)


def _plan(
    options: Mapping[str, str], schema: StructType, overwrite: bool, streaming: bool
) -> tuple[WritePlan, CommitPlan]:
    """Validate options and schema against the table (driver, before any task); mergeSchema adds columns."""
    import pyarrow as pa

    opts = parse_delta_options(options, streaming)
    arrow_schema = spark_to_arrow_schema(schema)
    by_name = {f.name: f for f in schema.fields}

    kafka_offsets = False
    kafka_types = {TOPIC_COLUMN: StringType, PARTITION_COLUMN: IntegerType, OFFSET_COLUMN: LongType}
    has_kafka = all(c in by_name and isinstance(by_name[c].dataType, t) for c, t in kafka_types.items())
    if opts.kafka_offsets == "true" and not has_kafka:
        raise DeltaSchemaMismatchError(
            "option kafkaOffsets=true needs the Kafka source's columns topic (string), partition (int) and "
            f"offset (bigint); the input has {schema.simpleString()}"
        )
    if opts.kafka_offsets != "false" and has_kafka:
        kafka_offsets = True

    table = load_table(opts.table_path, dict(opts.storage_options))
    if table is None:
        partition_by = opts.partition_by or ()
    else:
        partition_by = tuple(table.metadata().partition_columns)
        if opts.partition_by is not None and opts.partition_by != partition_by:
            raise DeltaSchemaMismatchError(
                f"option partitionBy={list(opts.partition_by)} does not match the partitioning of the existing table "
                f"at {opts.table_path}: {list(partition_by)}"
            )
        check_schema(table, arrow_schema, opts)

    if kafka_offsets and OFFSET_COLUMN in partition_by:
        raise DeltaSchemaMismatchError(
            "cannot partition by the 'offset' column while the sink records Kafka offsets (one directory per record); "
            "partition by topic/partition, or set .option('kafkaOffsets', 'false')"
        )
    for name in partition_by:
        if name not in by_name:
            raise DeltaSchemaMismatchError(
                f"partition column '{name}' is not a column of the input ({', '.join(by_name) or 'no columns'})"
            )
        if not isinstance(by_name[name].dataType, PARTITION_TYPES):
            raise DeltaSchemaMismatchError(
                f"partition column '{name}' has type {by_name[name].dataType.simpleString()}; accepted partition "
                "column types: string, tinyint, smallint, int, bigint, boolean, date, timestamp, timestamp_ntz, decimal"
            )
    if len(partition_by) == len(schema.fields) and schema.fields:
        raise DeltaSchemaMismatchError("cannot partition by every column: a Delta table needs at least one data column")
    write_plan = WritePlan(
        opts.table_path, arrow_schema, partition_by, kafka_offsets, opts.compression, opts.storage_options
    )
    commit_plan = CommitPlan(
        table_path=opts.table_path,
        arrow_schema=pa.schema(list(arrow_schema)),
        partition_columns=partition_by,
        owner=opts.owner,
        query_id=opts.query_id,
        kafka_offsets=kafka_offsets,
        compression=opts.compression,
        mirror_config=opts.mirror_config,
        storage_options=opts.storage_options,
    )
    return write_plan, commit_plan


def create_delta_batch_writer(options: Mapping[str, str], schema: StructType, overwrite: bool) -> DeltaBatchWriter:
    write_plan, commit_plan = _plan(options, schema, overwrite, streaming=False)
    return DeltaBatchWriter(write_plan, commit_plan, overwrite)


def create_delta_stream_writer(options: Mapping[str, str], schema: StructType, overwrite: bool) -> DeltaStreamWriter:
    write_plan, commit_plan = _plan(options, schema, overwrite, streaming=True)
    return DeltaStreamWriter(write_plan, commit_plan, overwrite)


class PyKafkaDeltaDataSource(DataSource):
    """``df.write/writeStream.format("pykafka-delta")``: exactly-once Delta sink (write only)."""

    @classmethod
    def name(cls) -> str:
        return FORMAT_NAME

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceWriter:
        return create_delta_batch_writer(self.options, schema, overwrite)

    def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:
        return create_delta_stream_writer(self.options, schema, overwrite)


__all__ = [
    "FORMAT_NAME",
    "DeltaBatchWriter",
    "DeltaStreamWriter",
    "PyKafkaDeltaDataSource",
    "create_delta_batch_writer",
    "create_delta_stream_writer",
]
