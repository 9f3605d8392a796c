"""The ``pykafka-delta`` sink: exactly-once writes of a (Kafka) DataFrame into a Delta table.

``df.writeStream.format("pykafka-delta").option("checkpointLocation", ...).start(path)`` and
``df.write.format("pykafka-delta").mode("append"|"overwrite").save(path)``.

How a micro-batch becomes one Delta commit (DESIGN.md §4):

* Executors (``write()``, a ``DataSourceStreamArrowWriter``/``DataSourceArrowWriter``) write Parquet
  files with pyarrow straight into the table directory: one file per (topic, partition) present in
  the task's rows when the input has the Kafka source's ``topic``/``partition``/``offset`` columns
  (else one per task), and one per Delta partition (``partitionBy``). Each task returns, per file,
  its add action (path, size, partition values, stats JSON) and the file's min/max source offset.
* The driver (``commit()``) commits all files of the batch in ONE Delta commit with
  ``DeltaTable.create_write_transaction`` (creating the table on the first write). The commit
  carries Delta app transactions: ``pykafka:query:<query id>`` -> batch id, so a batch that Spark
  runs again after a failure is skipped, and ``pykafka:<owner>:<topic>:<partition>`` -> next offset
  (last record offset + 1) for every source partition, read back by ``offsets.delta_store``.
* Fencing: the table is the truth. For every source partition, rows below the offset ``c`` the
  table already holds are not committed again (whole files are dropped; a file straddling ``c`` is
  rewritten filtered on the driver). The commit is made against exactly the snapshot ``c`` was read
  from (``max_commit_retries=0``: delta-rs never rebases it silently); if any other writer committed
  meanwhile, the driver reloads the table and redoes the filtering. So two writers racing on the
  same partition's offsets cannot both commit them, and a zombie writer never re-adds rows.

Options (case-insensitive):

==================  ======================================================================
path                table directory (``save(path)``/``start(path)``); local or ``file://``
checkpointLocation  (streaming) Spark's; the query id is read from ``<it>/metadata``
offsetsOwner        owner of the per-partition offsets (default: the streaming query id; for a
                    batch ``df.write`` none, i.e. no offsets, unless set); group mode: group id
partitionBy         Delta partition columns: ``"a,b"`` or a JSON list ``'["a","b"]'``.
                    pyspark's ``DataFrameWriter.partitionBy`` cannot be used with Python data
                    sources (Spark refuses it for batch writes and drops it for streams)
mergeSchema         ``false`` (default): the input must match the table; ``true``: new input
                    columns are added to the table as nullable columns
kafkaOffsets        ``auto`` (default): per-partition offsets when the input has ``topic``
                    (string), ``partition`` (int) and ``offset`` (bigint) columns; ``true``:
                    require them; ``false``: ignore them
compression         Parquet codec: ``snappy`` (default), ``zstd``, ``gzip``, ``lz4``, ``none``
kafka.bootstrap.servers  optional: also mirror committed offsets to the broker's offsets of the
                    group ``offsetsOwner`` (for Kafka tooling; never read back)
==================  ======================================================================

Output modes: append (``mode("append")``, streaming append/update) and complete / ``mode("overwrite")``
(replace the table in the same commit). Overwrites do not record per-partition offsets (the table's
content no longer follows the log) but still carry the query's batch id.

Schema: the input's columns must exist in the table with the same types (nullability is not
compared: tables are created with every column nullable, as Spark's Delta writer does); columns of
the table missing from the input are written as null. A mismatch raises ``DeltaSchemaMismatchError``
naming both schemas, before any task runs.

Table storage: the sink writes files with pyarrow and commits with delta-rs on a local (or mounted)
file system. Files of a batch that fails, or that fencing drops, are deleted; a driver killed
between writing and committing leaves unreferenced files, which no Delta reader sees
(``DeltaTable.vacuum`` removes them).
"""

from __future__ import annotations

import itertools
import json
import logging
import math
import os
import random
import re
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceStreamArrowWriter,
    DataSourceStreamWriter,
    DataSourceWriter,
    WriterCommitMessage,
)
from pyspark.sql.types import (
    ArrayType,
    BinaryType,
    BooleanType,
    ByteType,
    DataType,
    DateType,
    DecimalType,
    DoubleType,
    FloatType,
    IntegerType,
    LongType,
    MapType,
    ShortType,
    StringType,
    StructType,
    TimestampNTZType,
    TimestampType,
)

from offsets.delta_store import app_id, query_app_id, query_id_from_checkpoint

if TYPE_CHECKING:
    import pyarrow as pa

log = logging.getLogger(__name__)

FORMAT_NAME = "pykafka-delta"
TOPIC_COLUMN = "topic"
PARTITION_COLUMN = "partition"
OFFSET_COLUMN = "offset"
COMMIT_TOKEN_KEY = "pykafka.commitToken"
# Test hook: the driver sleeps a random time up to this many seconds before and after the Delta
# commit, so a crash test's SIGKILL can land inside commit(). Never set in production.
COMMIT_DELAY_ENV = "PYKAFKA_DELTA_TEST_COMMIT_DELAY_S"
# Test hook: a file the driver appends "begin <batch>" / "end <batch> <version>" lines to, so a crash
# test can tell whether a kill landed before, inside or after a commit.
COMMIT_TRACE_ENV = "PYKAFKA_DELTA_TEST_COMMIT_TRACE"

_COMPRESSIONS = {"snappy": "snappy", "zstd": "zstd", "gzip": "gzip", "lz4": "lz4", "none": "none"}
_KAFKA_OFFSETS_MODES = ("auto", "true", "false")
_MAX_COMMIT_ATTEMPTS = 100
_STRING_STATS_PREFIX = 32  # Delta's default dataSkippingStringPrefixLength
_SAFE_DIR_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")
_NULL_PARTITION_DIR = "__HIVE_DEFAULT_PARTITION__"
_ROW_GROUP_ROWS = 1 << 20
_ROW_GROUP_BYTES = 64 << 20  # uncompressed Arrow bytes buffered per open file before a row group is written


class DeltaSinkOptionError(ValueError):
    """A sink option is missing, malformed or not allowed (raised on the driver, before writing)."""


class DeltaSchemaMismatchError(ValueError):
    """The input's schema does not fit the existing table (raised on the driver, before writing)."""


class DeltaSinkWriteError(RuntimeError):
    """Rows cannot be written (e.g. a null Kafka offset); the task fails."""


class DeltaCommitError(RuntimeError):
    """The driver could not commit a batch (other writers kept winning, or the table changed shape)."""


# --------------------------------------------------------------------------------------------
# Options
# --------------------------------------------------------------------------------------------


def _bool_option(opts: Mapping[str, str], key: str, name: str, default: bool) -> bool:
    if key not in opts:
        return default
    value = opts[key].strip().lower()
    if value in ("true", "false"):
        return value == "true"
    raise DeltaSinkOptionError(f"option '{name}' must be 'true' or 'false', got {opts[key]!r}")


def _local_table_path(location: str) -> str:
    parsed = urlparse(location)
    if parsed.scheme == "file":
        path = unquote(parsed.path)
    elif parsed.scheme == "" or len(parsed.scheme) == 1:  # plain path (or a Windows drive letter)
        path = location
    else:
        raise DeltaSinkOptionError(
            f"option 'path' = {location!r}: the pykafka-delta sink writes to local (or mounted) file "
            "systems only; accepted: a path or a file:// URI"
        )
    return os.path.abspath(path)


def parse_partition_by(value: str) -> tuple[str, ...]:
    text = value.strip()
    if not text:
        return ()
    if text.startswith("["):
        try:
            names = json.loads(text)
        except ValueError:
            names = None
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise DeltaSinkOptionError(
                f"option 'partitionBy' = {value!r} is not a JSON list of column names; accepted: "
                "'col1,col2' or '[\"col1\", \"col2\"]'"
            )
        out = tuple(n.strip() for n in names)
    else:
        out = tuple(n.strip() for n in text.split(","))
        if not all(out):
            raise DeltaSinkOptionError(
                f"option 'partitionBy' = {value!r} has an empty column name; accepted: 'col1,col2' or "
                '\'["col1", "col2"]\''
            )
    if len(set(out)) != len(out):
        raise DeltaSinkOptionError(f"option 'partitionBy' = {value!r} names a column more than once")
    return out


@dataclass(frozen=True)
class DeltaSinkOptions:
    table_path: str
    partition_by: tuple[str, ...] | None  # None: not given (use the table's, or none for a new table)
    merge_schema: bool
    owner: str | None
    query_id: str | None
    kafka_offsets: str
    compression: str
    mirror_config: tuple[tuple[str, str], ...]  # kafka.* options without the prefix; empty = no mirror


def parse_delta_options(options: Mapping[str, str], streaming: bool) -> DeltaSinkOptions:
    """Validate the sink's options (Spark lower-cases the keys). Raises DeltaSinkOptionError."""
    opts = {str(k).lower(): str(v) for k, v in options.items() if v is not None}
    location = opts.get("path", "").strip()
    if not location:
        how = "writeStream...start(path)" if streaming else "df.write.format('pykafka-delta').save(path)"
        raise DeltaSinkOptionError(
            f"option 'path' (the Delta table directory) must be given: {how} or .option('path', ...)"
        )
    table_path = _local_table_path(location)

    partition_by = parse_partition_by(opts["partitionby"]) if "partitionby" in opts else None
    merge_schema = _bool_option(opts, "mergeschema", "mergeSchema", False)
    kafka_offsets = opts.get("kafkaoffsets", "auto").strip().lower()
    if kafka_offsets not in _KAFKA_OFFSETS_MODES:
        raise DeltaSinkOptionError(
            f"option 'kafkaOffsets' = {opts['kafkaoffsets']!r} is not accepted; accepted: "
            f"{', '.join(_KAFKA_OFFSETS_MODES)}"
        )
    compression = opts.get("compression", "snappy").strip().lower()
    if compression == "uncompressed":
        compression = "none"
    if compression not in _COMPRESSIONS:
        raise DeltaSinkOptionError(
            f"option 'compression' = {opts['compression']!r} is not accepted; accepted: {', '.join(_COMPRESSIONS)}"
        )

    owner: str | None = None
    if "offsetsowner" in opts:
        owner = opts["offsetsowner"].strip()
        if not owner:
            raise DeltaSinkOptionError(
                "option 'offsetsOwner' must be a non-empty name (a query or consumer group id), or left unset"
            )
    query_id: str | None = None
    if streaming:
        checkpoint = opts.get("checkpointlocation", "").strip()
        query_id = query_id_from_checkpoint(checkpoint) if checkpoint else None
        if query_id is None:
            raise DeltaSinkOptionError(
                "the pykafka-delta sink needs the streaming query id, which it reads from "
                "<checkpointLocation>/metadata: set option 'checkpointLocation' on the writeStream to a local "
                f"(or file://) directory (got {checkpoint!r}; the spark.sql.streaming.checkpointLocation "
                "session setting is not visible to Python sinks)"
            )
        owner = owner or query_id

    mirror: dict[str, str] = {}
    for key, value in opts.items():
        if key.startswith("kafka.") and key != "kafka.bootstrap.servers":
            mirror[key[len("kafka.") :]] = value
    bootstrap = opts.get("kafka.bootstrap.servers", "").strip()
    if mirror and not bootstrap:
        raise DeltaSinkOptionError(
            f"option(s) {', '.join('kafka.' + k for k in sorted(mirror))} need 'kafka.bootstrap.servers': the "
            "kafka.* options of the pykafka-delta sink only configure the optional offset mirror to Kafka"
        )
    if bootstrap:
        if owner is None:
            raise DeltaSinkOptionError(
                "option 'kafka.bootstrap.servers' mirrors committed offsets to the consumer group 'offsetsOwner', "
                "which a batch write must set"
            )
        mirror["bootstrap.servers"] = bootstrap
    return DeltaSinkOptions(
        table_path=table_path,
        partition_by=partition_by,
        merge_schema=merge_schema,
        owner=owner,
        query_id=query_id,
        kafka_offsets=kafka_offsets,
        compression=_COMPRESSIONS[compression],
        mirror_config=tuple(sorted(mirror.items())),
    )


# --------------------------------------------------------------------------------------------
# Types: Spark -> Arrow -> Delta
# --------------------------------------------------------------------------------------------

_PARTITION_TYPES = (
    StringType,
    ByteType,
    ShortType,
    IntegerType,
    LongType,
    BooleanType,
    DateType,
    TimestampType,
    TimestampNTZType,
    DecimalType,
)


def spark_to_arrow_type(dt: DataType, column: str) -> pa.DataType:
    """Arrow type of the Parquet column for a Spark type; every field nullable (as Delta tables
    written from Spark DataFrames are). Raises DeltaSchemaMismatchError for types Delta lacks."""
    import pyarrow as pa

    if isinstance(dt, BooleanType):
        return pa.bool_()
    if isinstance(dt, ByteType):
        return pa.int8()
    if isinstance(dt, ShortType):
        return pa.int16()
    if isinstance(dt, IntegerType):
        return pa.int32()
    if isinstance(dt, LongType):
        return pa.int64()
    if isinstance(dt, FloatType):
        return pa.float32()
    if isinstance(dt, DoubleType):
        return pa.float64()
    if isinstance(dt, DecimalType):
        return pa.decimal128(dt.precision, dt.scale)
    if isinstance(dt, StringType):  # CharType/VarcharType reach Python sinks as strings
        return pa.string()
    if isinstance(dt, BinaryType):
        return pa.binary()
    if isinstance(dt, DateType):
        return pa.date32()
    if isinstance(dt, TimestampType):
        return pa.timestamp("us", tz="UTC")
    if isinstance(dt, TimestampNTZType):
        return pa.timestamp("us")
    if isinstance(dt, ArrayType):
        return pa.list_(pa.field("element", spark_to_arrow_type(dt.elementType, column + ".element")))
    if isinstance(dt, MapType):
        return pa.map_(
            pa.field("key", spark_to_arrow_type(dt.keyType, column + ".key"), nullable=False),
            pa.field("value", spark_to_arrow_type(dt.valueType, column + ".value")),
        )
    if isinstance(dt, StructType):
        return pa.struct([pa.field(f.name, spark_to_arrow_type(f.dataType, f"{column}.{f.name}")) for f in dt.fields])
    raise DeltaSchemaMismatchError(
        f"column '{column}' has type {dt.simpleString()}, which the pykafka-delta sink cannot store in Delta; "
        "accepted: boolean, tinyint, smallint, int, bigint, float, double, decimal, string, binary, date, "
        "timestamp, timestamp_ntz and arrays, maps and structs of them (cast the column first)"
    )


def spark_to_arrow_schema(schema: StructType) -> pa.Schema:
    import pyarrow as pa

    names = [f.name for f in schema.fields]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise DeltaSchemaMismatchError(f"the input has duplicate column names {dupes}; Delta columns must be unique")
    return pa.schema([pa.field(f.name, spark_to_arrow_type(f.dataType, f.name)) for f in schema.fields])


def _delta_type_text(field: Any) -> str:
    # deltalake's types print as e.g. PrimitiveType("long"); compare them through their JSON form
    return json.dumps(json.loads(field.to_json())["type"], sort_keys=True)


def _schema_text(schema: Any) -> str:
    try:
        return ", ".join(f"{f.name}: {json.loads(f.to_json())['type']}" for f in schema.fields)
    except Exception:  # noqa: BLE001
        return str(schema)


# --------------------------------------------------------------------------------------------
# Writing Parquet files (executors)
# --------------------------------------------------------------------------------------------


@dataclass
class DeltaFile:
    """One Parquet file written by a task: its add action plus its source offset range."""

    path: str  # relative to the table root, not URL-encoded (only [A-Za-z0-9_.=/-] are used)
    size: int
    partition_values: dict[str, str | None]
    stats: str
    num_records: int
    modification_time: int
    topic: str | None = None
    partition: int | None = None
    min_offset: int | None = None
    max_offset: int | None = None


@dataclass
class DeltaCommitMessage(WriterCommitMessage):
    files: list[DeltaFile] = field(default_factory=list)


@dataclass(frozen=True)
class WritePlan:
    """What executors need to write files (plain data; pickled into every task)."""

    table_path: str
    arrow_schema: pa.Schema  # input columns, table types
    partition_columns: tuple[str, ...]
    kafka_offsets: bool  # split files per (topic, partition) and track offset ranges
    compression: str


def _partition_value(value: Any) -> str | None:
    """Delta's string form of a partition value (protocol: "Partition Value Serialization")."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        if value.tzinfo is not None:
            return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return value if value else None  # Spark stores empty partition strings as null
    return str(value)


def _partition_dir(name: str, value: str | None) -> str:
    # Readers take partition values from the log, never from directory names: the directory only
    # needs to be a safe, readable name, so anything outside [A-Za-z0-9_.-] becomes '_'.
    if value is None:
        return f"{_SAFE_DIR_CHARS.sub('_', name)}={_NULL_PARTITION_DIR}"
    return f"{_SAFE_DIR_CHARS.sub('_', name)}={_SAFE_DIR_CHARS.sub('_', value)[:100]}"


def _is_stats_type(t: pa.DataType) -> str | None:
    import pyarrow.types as pt

    if pt.is_integer(t):
        return "int"
    if pt.is_floating(t):
        return "float"
    if pt.is_date32(t):
        return "date"
    if pt.is_timestamp(t) and t.tz is not None:
        return "timestamp"
    if pt.is_string(t) or pt.is_large_string(t):
        return "string"
    return None


def _stat_json(kind: str, value: Any, is_max: bool) -> Any:
    if kind == "date":
        return value.isoformat()
    if kind == "timestamp":
        # Delta stores timestamp stats at millisecond precision: round the bounds outwards
        micros = value.microsecond % 1000
        if micros:
            value = value - timedelta(microseconds=micros)
            if is_max:
                value = value + timedelta(milliseconds=1)
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    return value


class _FileStats:
    """numRecords, minValues, maxValues, nullCount of one file, accumulated chunk by chunk."""

    def __init__(self, schema: pa.Schema) -> None:
        import pyarrow.types as pt

        self.rows = 0
        self.nulls: dict[str, int] = {}
        self.mins: dict[str, Any] = {}
        self.maxs: dict[str, Any] = {}
        self.kinds: dict[str, str] = {}
        self.no_bounds: set[str] = set()
        for f in schema:
            if not pt.is_struct(f.type):  # nested stats would need nested JSON objects; skip them
                self.nulls[f.name] = 0
            kind = _is_stats_type(f.type)
            if kind is not None:
                self.kinds[f.name] = kind

    def add(self, batch: pa.RecordBatch | pa.Table) -> None:
        import pyarrow.compute as pc

        self.rows += batch.num_rows
        for name in self.nulls:
            self.nulls[name] += batch.column(name).null_count
        for name, kind in self.kinds.items():
            if name in self.no_bounds:
                continue
            arr = batch.column(name)
            if arr.null_count == len(arr):
                continue
            if kind == "float" and pc.any(pc.is_nan(arr)).as_py():
                self.no_bounds.add(name)  # NaN has no place in min/max bounds
                continue
            mm = pc.min_max(arr).as_py()
            lo, hi = mm["min"], mm["max"]
            if kind == "float" and (math.isinf(lo) or math.isinf(hi)):
                self.no_bounds.add(name)  # JSON has no infinity
                continue
            if name not in self.mins or lo < self.mins[name]:
                self.mins[name] = lo
            if name not in self.maxs or hi > self.maxs[name]:
                self.maxs[name] = hi

    def to_json(self) -> str:
        mins: dict[str, Any] = {}
        maxs: dict[str, Any] = {}
        for name, kind in self.kinds.items():
            if name in self.no_bounds or name not in self.mins:
                continue
            lo, hi = self.mins[name], self.maxs[name]
            if kind == "string":
                # a prefix is still a lower bound; a truncated max is not an upper bound, so omit it
                mins[name] = lo[:_STRING_STATS_PREFIX]
                if len(hi) <= _STRING_STATS_PREFIX:
                    maxs[name] = hi
                continue
            mins[name] = _stat_json(kind, lo, False)
            maxs[name] = _stat_json(kind, hi, True)
        return json.dumps({"numRecords": self.rows, "minValues": mins, "maxValues": maxs, "nullCount": self.nulls})


class _OpenFile:
    def __init__(
        self, plan: WritePlan, data_schema: pa.Schema, partition_values: dict[str, str | None], track_offsets: bool
    ) -> None:
        import pyarrow.parquet as pq

        self.track_offsets = track_offsets

        dirs = [_partition_dir(c, partition_values[c]) for c in plan.partition_columns]
        codec = "" if plan.compression == "none" else f".{plan.compression}"
        name = f"part-{uuid.uuid4().hex}{codec}.parquet"
        self.rel_path = "/".join([*dirs, name])
        self.abs_path = os.path.join(plan.table_path, *dirs, name)
        os.makedirs(os.path.dirname(self.abs_path), exist_ok=True)
        self.partition_values = partition_values
        self.stats = _FileStats(data_schema)
        self.min_offset: int | None = None
        self.max_offset: int | None = None
        self.writer = pq.ParquetWriter(self.abs_path, data_schema, compression=plan.compression)
        # Spark hands over ~10k-row Arrow batches, split further per Kafka partition: buffer them so
        # row groups are large (one write per small batch would make one tiny row group each)
        self.pending: list[pa.RecordBatch] = []
        self.pending_rows = 0
        self.pending_bytes = 0

    def _flush(self) -> None:
        import pyarrow as pa

        if not self.pending:
            return
        table = pa.Table.from_batches(self.pending)
        # stats and offset bounds once per row group, not per (small) batch
        if self.track_offsets:
            import pyarrow.compute as pc

            mm = pc.min_max(table.column(OFFSET_COLUMN)).as_py()
            lo, hi = mm["min"], mm["max"]
            if lo < 0:
                raise DeltaSinkWriteError(f"pykafka-delta sink: negative value {lo} in the 'offset' column")
            self.min_offset = lo if self.min_offset is None else min(self.min_offset, lo)
            self.max_offset = hi if self.max_offset is None else max(self.max_offset, hi)
        self.stats.add(table)
        self.writer.write_table(table, row_group_size=max(1, self.pending_rows))
        self.pending, self.pending_rows, self.pending_bytes = [], 0, 0

    def write(self, batch: pa.RecordBatch) -> None:
        self.pending.append(batch)
        self.pending_rows += batch.num_rows
        self.pending_bytes += batch.nbytes
        if self.pending_rows >= _ROW_GROUP_ROWS or self.pending_bytes >= _ROW_GROUP_BYTES:
            self._flush()

    def close(self, topic: str | None, partition: int | None) -> DeltaFile:
        self._flush()
        self.writer.close()
        return DeltaFile(
            path=self.rel_path,
            size=os.path.getsize(self.abs_path),
            partition_values=self.partition_values,
            stats=self.stats.to_json(),
            num_records=self.stats.rows,
            modification_time=int(time.time() * 1000),
            topic=topic,
            partition=partition,
            min_offset=self.min_offset,
            max_offset=self.max_offset,
        )


def _conform(batch: pa.RecordBatch, schema: pa.Schema) -> pa.RecordBatch:
    """Spark's Arrow batch -> the table's Arrow types (timestamps to UTC, large types, field names)."""
    import pyarrow as pa

    if batch.schema.equals(schema):
        return batch
    columns = []
    for i, target in enumerate(schema):
        col = batch.column(i)
        columns.append(col if col.type.equals(target.type) else col.cast(target.type))
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def _key_is_constant(col: pa.Array) -> bool:
    import pyarrow.compute as pc

    n = len(col)
    if col.null_count:
        return col.null_count == n
    mm = pc.min_max(col)  # a compare scan: cheaper than hashing for distinct counts
    return mm["min"] == mm["max"]


def _split(batch: pa.RecordBatch, keys: list[str]) -> Iterator[tuple[tuple[Any, ...], pa.RecordBatch]]:
    """(key values, rows) groups of a batch; a batch with constant keys is one group, no copy."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not keys:
        yield (), batch
        return
    cols = [batch.column(k) for k in keys]
    if all(_key_is_constant(c) for c in cols):
        yield tuple(c[0].as_py() for c in cols), batch
        return
    # one stable sort by the keys (rows keep their offset order), then zero-copy slices per run
    key_batch = pa.RecordBatch.from_arrays(cols, names=keys)
    order = pc.sort_indices(key_batch, sort_keys=[(k, "ascending") for k in keys])  # nulls go last
    ordered = batch.take(order)
    n = ordered.num_rows
    change = None
    for k in keys:
        col = ordered.column(k)
        after, before = col.slice(1), col.slice(0, n - 1)
        after_null, before_null = pc.is_null(after), pc.is_null(before)
        # null next to null is the same key; null next to a value is a new one
        differs = pc.if_else(
            pc.or_(after_null, before_null), pc.not_equal(after_null, before_null), pc.not_equal(after, before)
        )
        change = differs if change is None else pc.or_(change, differs)
    assert change is not None
    starts = [0, *(i + 1 for i in pc.indices_nonzero(change).to_pylist()), n]
    key_cols = [ordered.column(k) for k in keys]
    for start, end in itertools.pairwise(starts):
        yield tuple(c[start].as_py() for c in key_cols), ordered.slice(start, end - start)


def write_files(plan: WritePlan, batches: Iterable[pa.RecordBatch]) -> list[DeltaFile]:
    """Write the task's rows as Parquet files in the table directory (nothing is committed)."""
    import pyarrow as pa

    schema = plan.arrow_schema
    part_cols = list(plan.partition_columns)
    data_names = [n for n in schema.names if n not in plan.partition_columns]
    data_schema = pa.schema([schema.field(n) for n in data_names])
    kafka_keys = [TOPIC_COLUMN, PARTITION_COLUMN] if plan.kafka_offsets else []
    keys = kafka_keys + [c for c in part_cols if c not in kafka_keys]
    open_files: dict[tuple[Any, ...], _OpenFile] = {}
    try:
        for raw in batches:
            if raw.num_rows == 0:
                continue
            batch = _conform(raw, schema)
            for key, rows in _split(batch, keys):
                key_map = dict(zip(keys, key, strict=True))
                if plan.kafka_offsets:
                    offsets = rows.column(OFFSET_COLUMN)
                    if offsets.null_count or key_map[TOPIC_COLUMN] is None or key_map[PARTITION_COLUMN] is None:
                        raise DeltaSinkWriteError(
                            "pykafka-delta sink: null topic, partition or offset in the input; the sink records "
                            "per-partition offsets from these columns (option kafkaOffsets=auto/true). Drop the "
                            "nulls or set .option('kafkaOffsets', 'false')"
                        )
                f = open_files.get(key)
                if f is None:
                    pv = {c: _partition_value(key_map[c]) for c in part_cols}
                    f = open_files[key] = _OpenFile(plan, data_schema, pv, plan.kafka_offsets)
                f.write(rows.select(data_names))
        out = []
        for key, f in open_files.items():
            key_map = dict(zip(keys, key, strict=True))
            out.append(
                f.close(key_map.get(TOPIC_COLUMN), key_map.get(PARTITION_COLUMN)) if kafka_keys else f.close(None, None)
            )
        return out
    except BaseException:
        for f in open_files.values():
            try:
                f.writer.close()
            except Exception:  # noqa: BLE001 - the file is removed anyway
                pass
            _remove(plan.table_path, f.rel_path)
        raise


def _remove(table_path: str, rel_path: str) -> None:
    try:
        os.remove(os.path.join(table_path, rel_path))
    except FileNotFoundError:
        pass


# --------------------------------------------------------------------------------------------
# Committing (driver)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CommitPlan:
    """What the driver needs to commit (plain data; part of the pickled writer)."""

    table_path: str
    arrow_schema: pa.Schema  # table schema to create the table with (input columns, all nullable)
    partition_columns: tuple[str, ...]
    owner: str | None
    query_id: str | None
    kafka_offsets: bool
    compression: str
    mirror_config: tuple[tuple[str, str], ...] = ()


@dataclass
class CommitResult:
    version: int | None  # the table version committed, None when the batch was skipped
    files: int = 0
    records: int = 0
    dropped_files: int = 0
    rewritten_files: int = 0
    skipped: bool = False
    offsets: dict[tuple[str, int], int] = field(default_factory=dict)  # next offset per partition committed
    attempts: int = 1


def _load_table(path: str) -> Any | None:
    from deltalake import DeltaTable
    from deltalake.exceptions import TableNotFoundError

    try:
        return DeltaTable(path)
    except TableNotFoundError:
        return None


def _add_action(f: DeltaFile) -> Any:
    from deltalake.transaction import AddAction

    return AddAction(f.path, f.size, f.partition_values, f.modification_time, True, f.stats)


def _rewrite_from(plan: CommitPlan, f: DeltaFile, first_offset: int) -> DeltaFile | None:
    """A file straddling the committed offset: keep its rows with offset >= first_offset in a new file."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(os.path.join(plan.table_path, f.path))
    kept = table.filter(pc.greater_equal(table.column(OFFSET_COLUMN), first_offset))
    if kept.num_rows == 0:
        return None
    wplan = WritePlan(plan.table_path, kept.schema, plan.partition_columns, True, plan.compression)
    out = _OpenFile(wplan, kept.schema, dict(f.partition_values), True)
    for batch in kept.to_batches():
        out.write(batch)
    return out.close(f.topic, f.partition)


def _fence(
    plan: CommitPlan, table: Any, files: list[DeltaFile]
) -> tuple[list[DeltaFile], list[DeltaFile], dict[tuple[str, int], int]]:
    """Split `files` by the offsets the table already holds: (to commit, to drop, next offsets).

    A straddling file is rewritten (the new file is in the first list, the old one in the second).
    """
    committed: dict[tuple[str, int], int | None] = {}
    keep: list[DeltaFile] = []
    drop: list[DeltaFile] = []
    next_offsets: dict[tuple[str, int], int] = {}
    for f in files:
        if f.topic is None or f.partition is None or f.min_offset is None or f.max_offset is None:
            keep.append(f)
            continue
        tp = (f.topic, f.partition)
        if tp not in committed:
            assert plan.owner is not None
            committed[tp] = table.transaction_version(app_id(plan.owner, f.topic, f.partition))
        c = committed[tp]
        if c is not None and f.max_offset < c:
            drop.append(f)  # every row is already in the table
            continue
        if c is not None and f.min_offset < c:
            rewritten = _rewrite_from(plan, f, c)
            drop.append(f)
            if rewritten is None:
                continue
            f = rewritten
        keep.append(f)
        next_offsets[tp] = max(next_offsets.get(tp, 0), f.max_offset + 1, c or 0)  # type: ignore[operator]
    return keep, drop, next_offsets


def _token_committed(path: str, since_version: int, token: str) -> bool:
    table = _load_table(path)
    if table is None:
        return False
    newer = table.version() - since_version
    if newer <= 0:
        return False
    return any(h.get(COMMIT_TOKEN_KEY) == token for h in table.history(newer))


def _sleep_hook() -> None:
    delay = os.environ.get(COMMIT_DELAY_ENV)
    if delay:
        time.sleep(random.uniform(0, float(delay)))


def _trace(line: str) -> None:
    path = os.environ.get(COMMIT_TRACE_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def commit_files(
    plan: CommitPlan, files: list[DeltaFile], batch_id: int | None = None, overwrite: bool = False
) -> CommitResult:
    """Commit `files` in one Delta commit with the app transactions of DESIGN.md §4 (see module doc).

    Runs on the driver. Files that are not committed (fenced out, or a skipped batch) are deleted.
    """
    from deltalake import CommitProperties, Transaction
    from deltalake.transaction import create_table_with_add_actions

    token = uuid.uuid4().hex
    files = list(files)
    use_offsets = plan.kafka_offsets and plan.owner is not None and not overwrite
    to_delete: list[DeltaFile] = []
    metadata = {COMMIT_TOKEN_KEY: token}
    if batch_id is not None:
        metadata["pykafka.batchId"] = str(batch_id)
    if plan.query_id is not None:
        metadata["pykafka.queryId"] = plan.query_id
    _trace(f"begin {batch_id}")
    _sleep_hook()
    attempt = 0
    while True:
        attempt += 1
        if attempt > _MAX_COMMIT_ATTEMPTS:
            raise DeltaCommitError(
                f"pykafka-delta sink: gave up committing to {plan.table_path} after {_MAX_COMMIT_ATTEMPTS} attempts; "
                "other writers committed first every time"
            )
        table = _load_table(plan.table_path)
        if table is None:
            next_offsets = {}
            if use_offsets:
                for f in files:
                    if f.topic is not None and f.partition is not None and f.max_offset is not None:
                        tp = (f.topic, f.partition)
                        next_offsets[tp] = max(next_offsets.get(tp, 0), f.max_offset + 1)
            txns = _transactions(plan, batch_id, next_offsets)
            from deltalake import Schema

            try:
                create_table_with_add_actions(
                    plan.table_path,
                    Schema.from_arrow(plan.arrow_schema),
                    [_add_action(f) for f in files],
                    mode="error",
                    partition_by=list(plan.partition_columns) or None,
                    commit_properties=CommitProperties(
                        custom_metadata=metadata, app_transactions=[Transaction(a, v) for a, v in txns] or None
                    ),
                )
            except Exception:
                if _load_table(plan.table_path) is None:
                    raise
                if _token_committed(plan.table_path, -1, token):
                    committed_version = 0
                    break
                continue  # another writer created the table first: commit against it
            committed_version = 0
            break

        version = table.version()
        if plan.query_id is not None and batch_id is not None:
            done = table.transaction_version(query_app_id(plan.query_id))
            if done is not None and done >= batch_id:
                # Spark runs a batch again after a failure; the table already has it.
                for f in files:
                    _remove(plan.table_path, f.path)
                log.info(
                    "pykafka-delta: batch %d of query %s is already in the table; skipped", batch_id, plan.query_id
                )
                _trace(f"skip {batch_id}")
                return CommitResult(version=None, skipped=True, dropped_files=len(files), attempts=attempt)
        _check_partitioning(table, plan)
        if use_offsets:
            keep, drop, next_offsets = _fence(plan, table, files)
            to_delete.extend(drop)
            files = keep
        else:
            next_offsets = {}
        txns = _transactions(plan, batch_id, next_offsets)
        if not files and not txns and not overwrite:
            committed_version = None  # nothing new for the table
            break
        try:
            table.create_write_transaction(
                [_add_action(f) for f in files],
                "overwrite" if overwrite else "append",
                table.schema(),
                partition_by=list(plan.partition_columns) or None,
                commit_properties=CommitProperties(
                    custom_metadata=metadata,
                    # exactly the snapshot the fencing read: any concurrent commit fails this one
                    max_commit_retries=0,
                    app_transactions=[Transaction(a, v) for a, v in txns] or None,
                ),
            )
        except Exception as exc:
            if _token_committed(plan.table_path, version, token):
                committed_version = version + 1
                break  # it landed after all (the error came later, e.g. from a post-commit hook)
            latest = _load_table(plan.table_path)
            if latest is None or latest.version() <= version:
                raise DeltaCommitError(f"pykafka-delta sink: commit to {plan.table_path} failed: {exc}") from exc
            log.info(
                "pykafka-delta: table moved from version %d to %d while committing; refencing",
                version,
                latest.version(),
            )
            time.sleep(random.uniform(0, min(0.2, 0.005 * attempt)))
            continue
        committed_version = version + 1  # max_commit_retries=0: exactly the version after the snapshot
        break
    for f in to_delete:
        _remove(plan.table_path, f.path)
    result = CommitResult(
        version=committed_version,
        files=len(files) if committed_version is not None else 0,
        records=sum(f.num_records for f in files) if committed_version is not None else 0,
        dropped_files=len(to_delete),
        offsets=next_offsets,
        attempts=attempt,
    )
    _trace(f"end {batch_id} {committed_version}")
    _sleep_hook()
    if plan.mirror_config and next_offsets:
        mirror_offsets(plan, next_offsets)
    return result


def _transactions(
    plan: CommitPlan, batch_id: int | None, next_offsets: Mapping[tuple[str, int], int]
) -> list[tuple[str, int]]:
    txns: list[tuple[str, int]] = []
    if plan.query_id is not None and batch_id is not None:
        txns.append((query_app_id(plan.query_id), batch_id))
    if plan.owner is not None:
        txns.extend((app_id(plan.owner, t, p), v) for (t, p), v in sorted(next_offsets.items()))
    return txns


def _check_partitioning(table: Any, plan: CommitPlan) -> None:
    existing = tuple(table.metadata().partition_columns)
    if existing != plan.partition_columns:
        raise DeltaCommitError(
            f"pykafka-delta sink: the table at {plan.table_path} is partitioned by {list(existing)} but this write "
            f"was planned with {list(plan.partition_columns)} (the table changed since the batch started)"
        )


def mirror_offsets(plan: CommitPlan, next_offsets: Mapping[tuple[str, int], int]) -> bool:
    """Copy committed offsets to the broker's offsets of group `owner` (OffsetCommit, generation -1),
    for Kafka tooling only. Skipped quietly when the group has members (group mode commits its
    own) or the broker cannot be reached. Returns whether the broker took them."""
    try:
        from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition
        from confluent_kafka.admin import AdminClient
    except ImportError:  # pragma: no cover - confluent-kafka is part of the spark extra
        return False
    conf = dict(plan.mirror_config)
    conf.setdefault("socket.timeout.ms", "5000")
    try:
        admin = AdminClient(conf)
        request = ConsumerGroupTopicPartitions(
            plan.owner, [TopicPartition(t, p, o) for (t, p), o in sorted(next_offsets.items())]
        )
        future = admin.alter_consumer_group_offsets([request], request_timeout=5.0)[plan.owner]
        result = future.result(timeout=10.0)
        failed = [tp for tp in result.topic_partitions if tp.error is not None]
        if failed:
            log.info("pykafka-delta: offset mirror to group %s refused: %s", plan.owner, failed[0].error)
            return False
        return True
    except Exception as exc:  # noqa: BLE001 - a mirror, never the source of truth
        log.info("pykafka-delta: offset mirror to group %s skipped: %s", plan.owner, exc)
        return False


# --------------------------------------------------------------------------------------------
# Spark writers
# --------------------------------------------------------------------------------------------


def _messages_files(messages: Iterable[WriterCommitMessage | None]) -> list[DeltaFile]:
    return [f for m in messages if isinstance(m, DeltaCommitMessage) for f in m.files]


class _DeltaWriterBase:
    def __init__(self, write_plan: WritePlan, commit_plan: CommitPlan, overwrite: bool) -> None:
        self.write_plan = write_plan
        self.commit_plan = commit_plan
        self.overwrite = overwrite

    def write(self, iterator: Iterator[pa.RecordBatch]) -> DeltaCommitMessage:
        return DeltaCommitMessage(write_files(self.write_plan, iterator))

    def _abort(self, messages: list[WriterCommitMessage | None]) -> None:
        # Nothing was committed: remove the files the successful tasks wrote.
        files = _messages_files(messages)
        for f in files:
            _remove(self.commit_plan.table_path, f.path)
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

    table = _load_table(opts.table_path)
    if table is None:
        partition_by = opts.partition_by or ()
    else:
        partition_by = tuple(table.metadata().partition_columns)
        if opts.partition_by is not None and opts.partition_by != partition_by:
            raise DeltaSchemaMismatchError(
                f"option partitionBy={list(opts.partition_by)} does not match the partitioning of the existing table "
                f"at {opts.table_path}: {list(partition_by)}"
            )
        _check_schema(table, arrow_schema, opts)

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
        if not isinstance(by_name[name].dataType, _PARTITION_TYPES):
            raise DeltaSchemaMismatchError(
                f"partition column '{name}' has type {by_name[name].dataType.simpleString()}; accepted partition "
                "column types: string, tinyint, smallint, int, bigint, boolean, date, timestamp, timestamp_ntz, decimal"
            )
    if len(partition_by) == len(schema.fields) and schema.fields:
        raise DeltaSchemaMismatchError("cannot partition by every column: a Delta table needs at least one data column")
    write_plan = WritePlan(opts.table_path, arrow_schema, partition_by, kafka_offsets, opts.compression)
    commit_plan = CommitPlan(
        table_path=opts.table_path,
        arrow_schema=pa.schema(list(arrow_schema)),
        partition_columns=partition_by,
        owner=opts.owner,
        query_id=opts.query_id,
        kafka_offsets=kafka_offsets,
        compression=opts.compression,
        mirror_config=opts.mirror_config,
    )
    return write_plan, commit_plan


def _check_schema(table: Any, arrow_schema: pa.Schema, opts: DeltaSinkOptions) -> None:
    """Compare the input with the table's schema; with mergeSchema add the input's new columns."""
    from deltalake import Field, Schema

    incoming = Schema.from_arrow(arrow_schema)
    existing = table.schema()
    have = {f.name: f for f in existing.fields}
    new_fields = [f for f in incoming.fields if f.name not in have]
    wrong = [
        (f.name, f, have[f.name])
        for f in incoming.fields
        if f.name in have and _delta_type_text(f) != _delta_type_text(have[f.name])
    ]
    case_clash = [f.name for f in new_fields if f.name.lower() in {n.lower() for n in have}]
    if wrong or case_clash or (new_fields and not opts.merge_schema):
        details = []
        if wrong:
            details.append(
                "different types: "
                + ", ".join(
                    f"{n} (table {json.loads(t.to_json())['type']}, input {json.loads(i.to_json())['type']})"
                    for n, i, t in wrong
                )
            )
        if case_clash:
            details.append(f"columns differing from the table's only in case: {case_clash}")
        if new_fields and not opts.merge_schema:
            details.append(
                f"columns not in the table: {[f.name for f in new_fields]} "
                "(set .option('mergeSchema', 'true') to add them)"
            )
        raise DeltaSchemaMismatchError(
            f"the input does not match the schema of the Delta table at {opts.table_path}: {'; '.join(details)}.\n"
            f"table schema: {_schema_text(existing)}\ninput schema: {_schema_text(incoming)}"
        )
    if new_fields:
        table.alter.add_columns([Field(f.name, f.type, nullable=True) for f in new_fields])
        log.info("pykafka-delta: added columns %s to %s (mergeSchema)", [f.name for f in new_fields], opts.table_path)


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
    "COMMIT_DELAY_ENV",
    "COMMIT_TRACE_ENV",
    "FORMAT_NAME",
    "CommitPlan",
    "CommitResult",
    "DeltaBatchWriter",
    "DeltaCommitError",
    "DeltaCommitMessage",
    "DeltaFile",
    "DeltaSchemaMismatchError",
    "DeltaSinkOptionError",
    "DeltaSinkWriteError",
    "DeltaStreamWriter",
    "PyKafkaDeltaDataSource",
    "WritePlan",
    "commit_files",
    "mirror_offsets",
    "parse_delta_options",
    "write_files",
]
