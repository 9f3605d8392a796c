"""Executor side of the Delta sink: a task's rows become Parquet files in the table directory, each
with its Delta add action (path, size, partition values, stats JSON) and, when the input has the
Kafka source's ``topic``/``partition``/``offset`` columns, its min/max source offset.

One file per (topic, partition) present in the task's rows (else one per task), and one per Delta
partition (``partitionBy``). Nothing is committed here: the files travel to the driver in a
``DeltaCommitMessage`` (see ``connector.delta.commit``). Everything a task needs is in the pickled
``WritePlan``.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import re
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pyspark.sql.datasource import WriterCommitMessage

from connector.delta.errors import DeltaSinkWriteError
from offsets.delta_storage import TableLocation, parse_table_location

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.parquet as pq

# The Kafka source's columns the sink takes per-partition offsets from.
TOPIC_COLUMN = "topic"
PARTITION_COLUMN = "partition"
OFFSET_COLUMN = "offset"

_STRING_STATS_PREFIX = 32  # Delta's default dataSkippingStringPrefixLength
_SAFE_DIR_CHARS = re.compile(r"[^A-Za-z0-9_.\-]")
_NULL_PARTITION_DIR = "__HIVE_DEFAULT_PARTITION__"
_ROW_GROUP_ROWS = 1 << 20
_ROW_GROUP_BYTES = 64 << 20  # uncompressed Arrow bytes buffered per open file before a row group is written
# Dictionary encoding is chosen per column from a sample of the file's first row group: a column whose
# sample is more than half distinct values (offsets, payloads, unique keys, fine timestamps) is written
# PLAIN. pyarrow would hash each of its values until the dictionary page passes 1 MiB and then fall
# back to PLAIN anyway: measured, that is 30-45 % of the Parquet encoding time of the Kafka columns.
_DICTIONARY_SAMPLE_ROWS = 4096
_DICTIONARY_MIN_SAMPLE = 1024  # below this the sample says little: keep pyarrow's default (dictionary on)


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
    # delta-rs storage options of an object-store table (s3://); not in repr: they may hold secrets
    storage_options: tuple[tuple[str, str], ...] = field(default=(), repr=False)


@functools.lru_cache(maxsize=8)
def _table_fs(table_path: str, storage_options: tuple[tuple[str, str], ...]) -> tuple[TableLocation, Any]:
    """The table's location and, for object storage, one pyarrow file system per executor process
    (S3FileSystem keeps a connection pool: tasks of the same table share it)."""
    loc = parse_table_location(table_path, dict(storage_options))
    return loc, (None if loc.is_local else loc.filesystem())


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


def _leaf_paths(name: str, t: pa.DataType) -> list[str]:
    """Dotted paths of the Parquet leaf columns of an Arrow field, as pyarrow names them (compliant
    nested types: ``a.list.element``, ``m.key_value.key``/``.value``); its per-column writer
    options are keyed by these."""
    import pyarrow.types as pt

    if pt.is_struct(t):
        return [p for i in range(t.num_fields) for p in _leaf_paths(f"{name}.{t.field(i).name}", t.field(i).type)]
    if pt.is_map(t):
        return [*_leaf_paths(f"{name}.key_value.key", t.key_type), *_leaf_paths(f"{name}.key_value.value", t.item_type)]
    if pt.is_list(t) or pt.is_large_list(t) or pt.is_fixed_size_list(t):
        return _leaf_paths(f"{name}.list.element", t.value_type)
    return [name]


def _dictionary_columns(table: pa.Table) -> bool | list[str]:
    """``use_dictionary`` for a file, from its first row group: True (every column) or the leaf
    columns to dictionary-encode. Nested columns keep dictionary encoding."""
    import pyarrow.compute as pc
    import pyarrow.types as pt

    sample_rows = min(table.num_rows, _DICTIONARY_SAMPLE_ROWS)
    if sample_rows < _DICTIONARY_MIN_SAMPLE:
        return True
    keep: list[str] = []
    plain = False
    for f in table.schema:
        if not pt.is_nested(f.type) and not pt.is_boolean(f.type):
            sample = table.column(f.name).slice(0, sample_rows)
            if pc.count_distinct(sample).as_py() * 2 > sample_rows:
                plain = True
                continue
        keep.extend(_leaf_paths(f.name, f.type))
    return keep if plain else True


class _OpenFile:
    def __init__(
        self, plan: WritePlan, data_schema: pa.Schema, partition_values: dict[str, str | None], track_offsets: bool
    ) -> None:
        self.track_offsets = track_offsets

        dirs = [_partition_dir(c, partition_values[c]) for c in plan.partition_columns]
        codec = "" if plan.compression == "none" else f".{plan.compression}"
        name = f"part-{uuid.uuid4().hex}{codec}.parquet"
        self.rel_path = "/".join([*dirs, name])
        loc, fs = _table_fs(plan.table_path, plan.storage_options)
        self.abs_path = loc.fs_path(self.rel_path)
        self.partition_values = partition_values
        self.stats = _FileStats(data_schema)
        self.min_offset: int | None = None
        self.max_offset: int | None = None
        self.stream: Any = None
        self.schema = data_schema
        self.compression = plan.compression
        if fs is None:
            os.makedirs(os.path.dirname(self.abs_path), exist_ok=True)
        else:
            # An object store has no directories and no partial objects: the object appears when the
            # stream is closed (PUT / completed multipart upload), or never.
            self.stream = fs.open_output_stream(self.abs_path)
        # opened with the first row group, whose values choose the column encodings
        self.writer: pq.ParquetWriter | None = None
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
        if self.writer is None:
            self._open_writer(table)
        assert self.writer is not None
        self.writer.write_table(table, row_group_size=max(1, self.pending_rows))
        self.pending, self.pending_rows, self.pending_bytes = [], 0, 0

    def _open_writer(self, first: pa.Table | None) -> None:
        import pyarrow.parquet as pq

        where = self.abs_path if self.stream is None else self.stream
        use_dictionary = True if first is None else _dictionary_columns(first)
        self.writer = pq.ParquetWriter(where, self.schema, compression=self.compression, use_dictionary=use_dictionary)

    def abandon(self) -> None:
        """Close what is open after a failure (the caller removes the file)."""
        if self.writer is not None:
            self.writer.close()
        if self.stream is not None:
            self.stream.close()

    def write(self, batch: pa.RecordBatch) -> None:
        self.pending.append(batch)
        self.pending_rows += batch.num_rows
        self.pending_bytes += batch.nbytes
        if self.pending_rows >= _ROW_GROUP_ROWS or self.pending_bytes >= _ROW_GROUP_BYTES:
            self._flush()

    def close(self, topic: str | None, partition: int | None) -> DeltaFile:
        self._flush()
        if self.writer is None:  # no rows: still a valid (empty) Parquet file
            self._open_writer(None)
        assert self.writer is not None
        self.writer.close()
        if self.stream is not None:
            size = self.stream.tell()  # the writer leaves a stream it did not open to its owner
            self.stream.close()
        else:
            size = os.path.getsize(self.abs_path)
        return DeltaFile(
            path=self.rel_path,
            size=size,
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
    # one equality scan against the first value: cheaper than min/max (strings compare byte-wise
    # both ways) or hashing for a distinct count
    return bool(pc.all(pc.equal(col, col[0])).as_py())


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
                f.abandon()
            except Exception:  # noqa: BLE001 - the file is removed anyway
                pass
            remove_file(plan.table_path, f.rel_path, plan.storage_options)
        raise


def remove_file(table_path: str, rel_path: str, storage_options: tuple[tuple[str, str], ...] = ()) -> None:
    loc, fs = _table_fs(table_path, storage_options)
    try:
        if fs is None:
            os.remove(loc.fs_path(rel_path))
        else:
            fs.delete_file(loc.fs_path(rel_path))
    except FileNotFoundError:
        pass


def rewrite_from(
    table_path: str,
    partition_columns: tuple[str, ...],
    compression: str,
    f: DeltaFile,
    first_offset: int,
    storage_options: tuple[tuple[str, str], ...] = (),
) -> DeltaFile | None:
    """A file straddling the committed offset: keep its rows with offset >= first_offset in a new file
    (the driver's fence calls this; the old file is the caller's to delete)."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    loc, fs = _table_fs(table_path, storage_options)
    table = pq.read_table(loc.fs_path(f.path), filesystem=fs)
    kept = table.filter(pc.greater_equal(table.column(OFFSET_COLUMN), first_offset))
    if kept.num_rows == 0:
        return None
    wplan = WritePlan(table_path, kept.schema, partition_columns, True, compression, storage_options)
    out = _OpenFile(wplan, kept.schema, dict(f.partition_values), True)
    for batch in kept.to_batches():
        out.write(batch)
    return out.close(f.topic, f.partition)


__all__ = [
    "OFFSET_COLUMN",
    "PARTITION_COLUMN",
    "TOPIC_COLUMN",
    "DeltaCommitMessage",
    "DeltaFile",
    "WritePlan",
    "remove_file",
    "rewrite_from",
    "write_files",
]
