"""connector.delta.files: the Parquet column encodings the Delta sink picks per file (dictionary
only where the first row group's sample repeats values) and that the files still hold exactly the
input rows and the add-action stats, whatever encoding was chosen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("pyspark")

from connector.delta.files import (  # noqa: E402
    _DICTIONARY_MIN_SAMPLE,
    WritePlan,
    _dictionary_columns,
    _leaf_paths,
    _OpenFile,
    write_files,
)

HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
KAFKA_SCHEMA = pa.schema(
    [
        ("topic", pa.string()),
        ("partition", pa.int32()),
        ("offset", pa.int64()),
        ("key", pa.binary()),
        ("value", pa.binary()),
        ("timestamp", pa.timestamp("us", tz="UTC")),
        ("timestampType", pa.int32()),
        ("headers", HEADERS),
    ]
)


def _kafka_batch(start: int, n: int, partition: int = 0, keys: int = 16) -> Any:
    return pa.RecordBatch.from_pydict(
        {
            "topic": ["events"] * n,
            "partition": [partition] * n,
            "offset": list(range(start, start + n)),
            "key": [f"user-{i % keys}".encode() for i in range(start, start + n)],  # repeating keys
            "value": [f'{{"n": {i}, "pad": "{"x" * 40}"}}'.encode() for i in range(start, start + n)],
            "timestamp": [1_700_000_000_000_000 + i * 1000 for i in range(start, start + n)],
            "timestampType": [0] * n,
            "headers": [[{"key": "h", "value": b"v"}] if i % 3 else None for i in range(start, start + n)],
        },
        schema=KAFKA_SCHEMA,
    )


def _encodings(path: Path) -> dict[str, set[str]]:
    meta = pq.read_metadata(path)
    out: dict[str, set[str]] = {}
    for rg in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            col = meta.row_group(rg).column(c)
            out.setdefault(col.path_in_schema, set()).update(col.encodings)
    return out


def test_leaf_paths_are_the_parquet_column_paths() -> None:
    schema = pa.schema(
        [
            ("a", pa.int32()),
            ("headers", HEADERS),
            ("m", pa.map_(pa.string(), pa.list_(pa.int64()))),
            ("l", pa.large_list(pa.int8())),
            ("f", pa.list_(pa.int16(), 2)),
            ("s", pa.struct([("x", pa.struct([("y", pa.int8())])), ("z", pa.string())])),
            ("dotted.name", pa.binary()),
        ]
    )
    buf = pa.BufferOutputStream()
    pq.write_table(schema.empty_table(), buf)
    parquet_schema = pq.read_metadata(pa.BufferReader(buf.getvalue())).schema
    expected = [parquet_schema.column(i).path for i in range(len(parquet_schema))]
    assert [p for f in schema for p in _leaf_paths(f.name, f.type)] == expected


def test_dictionary_only_for_repeating_columns() -> None:
    table = pa.Table.from_batches([_kafka_batch(0, 5000)])
    chosen = _dictionary_columns(table)
    assert isinstance(chosen, list)
    # offsets, payloads and timestamps are all distinct: PLAIN; nested headers keep the default
    assert set(chosen) == {
        "topic",
        "partition",
        "key",
        "timestampType",
        "headers.list.element.key",
        "headers.list.element.value",
    }
    # a sample too small to judge: pyarrow's default (dictionary for every column)
    assert _dictionary_columns(table.slice(0, _DICTIONARY_MIN_SAMPLE - 1)) is True
    # every column repeating: nothing to turn off
    repeating = pa.table({"a": [1, 2] * 2000, "b": ["x"] * 4000})
    assert _dictionary_columns(repeating) is True


def test_written_files_round_trip_with_stats_and_encodings(tmp_path: Path) -> None:
    plan = WritePlan(str(tmp_path), KAFKA_SCHEMA, (), True, "snappy")
    # two partitions interleaved in every batch (the sink sorts and splits them), small and large
    batches = [_kafka_batch(0, 3000, 0), _kafka_batch(0, 2500, 1), _kafka_batch(3000, 10, 0), _kafka_batch(2500, 7, 1)]
    files = write_files(plan, batches)
    assert sorted((f.partition, f.min_offset, f.max_offset, f.num_records) for f in files) == [
        (0, 0, 3009, 3010),
        (1, 0, 2506, 2507),
    ]
    for f in files:
        path = tmp_path / f.path
        got = pq.read_table(path)
        expected = pa.Table.from_batches([b for b in batches if b.column(1)[0].as_py() == f.partition])
        assert got.cast(KAFKA_SCHEMA).equals(expected)
        assert f.size == path.stat().st_size
        stats = json.loads(f.stats)
        assert stats["numRecords"] == f.num_records
        assert stats["minValues"]["offset"] == 0 and stats["maxValues"]["offset"] == f.max_offset
        assert stats["minValues"]["topic"] == stats["maxValues"]["topic"] == "events"
        assert stats["nullCount"]["headers"] == sum(1 for i in range(f.num_records) if i % 3 == 0)
        enc = _encodings(path)
        assert "PLAIN_DICTIONARY" in enc["topic"] or "RLE_DICTIONARY" in enc["topic"]
        assert not enc["value"] & {"PLAIN_DICTIONARY", "RLE_DICTIONARY"}
        assert not enc["offset"] & {"PLAIN_DICTIONARY", "RLE_DICTIONARY"}
        # Parquet statistics stay on for every column (readers prune row groups with them)
        meta = pq.read_metadata(path)
        assert all(meta.row_group(0).column(c).is_stats_set for c in range(meta.num_columns))


def test_a_file_closed_without_rows_is_valid_parquet(tmp_path: Path) -> None:
    plan = WritePlan(str(tmp_path), KAFKA_SCHEMA, (), True, "snappy")
    f = _OpenFile(plan, KAFKA_SCHEMA, {}, True).close("events", 0)
    assert f.num_records == 0
    assert pq.read_table(tmp_path / f.path).num_rows == 0
