"""offsets.delta_store: the committed next offsets kept as Delta app transactions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

deltalake = pytest.importorskip("deltalake", reason="deltalake is not installed (the `spark` extra)")
pa = pytest.importorskip("pyarrow")

from offsets.delta_store import (  # noqa: E402
    DeltaOffsetStore,
    app_id,
    query_app_id,
    query_id_from_checkpoint,
)


def _commit_txns(path: Path, txns: dict[str, int]) -> None:
    from deltalake import CommitProperties, DeltaTable

    schema = pa.schema([("x", pa.int64())])
    try:
        table = DeltaTable(str(path))
    except deltalake.exceptions.TableNotFoundError:
        table = DeltaTable.create(str(path), schema=schema)
    table.create_write_transaction(
        [],
        "append",
        schema,
        commit_properties=CommitProperties(app_transactions=[deltalake.Transaction(a, v) for a, v in txns.items()]),
    )


def test_app_ids() -> None:
    assert app_id("g1", "events", 3) == "pykafka:g1:events:3"
    assert query_app_id("1234-abcd") == "pykafka:query:1234-abcd"


def test_missing_table_has_no_offsets(tmp_path: Path) -> None:
    store = DeltaOffsetStore(str(tmp_path / "nope"), "g1")
    assert store.committed([("t", 0), ("t", 1)]) == {}
    assert store.lag({("t", 0): 5}) == {("t", 0): 5}
    assert store.batch_id("q") is None


def test_committed_reads_latest_version_per_owner(tmp_path: Path) -> None:
    table = tmp_path / "tbl"
    _commit_txns(table, {app_id("g1", "t", 0): 10, app_id("g1", "t", 1): 4, app_id("g2", "t", 0): 99})
    store = DeltaOffsetStore(str(table), "g1")
    assert store.committed([("t", 0), ("t", 1), ("t", 2)]) == {("t", 0): 10, ("t", 1): 4}
    # a later commit moves one partition; the same store object sees it (no cached snapshot)
    _commit_txns(table, {app_id("g1", "t", 1): 7, query_app_id("q1"): 3})
    assert store.committed([("t", 0), ("t", 1)]) == {("t", 0): 10, ("t", 1): 7}
    assert DeltaOffsetStore(str(table), "g2").committed([("t", 0), ("t", 1)]) == {("t", 0): 99}
    assert store.batch_id("q1") == 3
    assert store.lag({("t", 0): 15, ("t", 1): 7, ("t", 2): 2}) == {("t", 0): 5, ("t", 1): 0, ("t", 2): 2}
    # the broker's latest below the committed offset (e.g. a recreated topic) is no lag, not negative lag
    assert store.lag({("t", 0): 3}) == {("t", 0): 0}


def test_file_uri_table_path(tmp_path: Path) -> None:
    table = tmp_path / "tbl"
    _commit_txns(table, {app_id("o", "t", 0): 1})
    assert DeltaOffsetStore(table.as_uri(), "o").committed([("t", 0)]) == {("t", 0): 1}


def test_owner_must_be_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="owner"):
        DeltaOffsetStore(str(tmp_path), "")


def test_query_id_from_checkpoint(tmp_path: Path) -> None:
    assert query_id_from_checkpoint(str(tmp_path)) is None  # not written yet
    (tmp_path / "metadata").write_text(json.dumps({"id": "abc-123"}) + "\n")
    assert query_id_from_checkpoint(str(tmp_path)) == "abc-123"
    assert query_id_from_checkpoint(tmp_path.as_uri()) == "abc-123"
    assert query_id_from_checkpoint("s3://bucket/checkpoint") is None
    (tmp_path / "metadata").write_text("not json")
    assert query_id_from_checkpoint(str(tmp_path)) is None
