"""The Delta sink's commit protocol without Spark: app transactions, retried batches, and the fence
that keeps two writers of the same partition's offsets from both committing them."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pyarrow as pa
import pytest
from deltalake import CommitProperties, DeltaTable, Transaction
from deltalake.exceptions import CommitFailedError

from connector.delta import CommitPlan, CommitResult, WritePlan, commit_files, write_files
from offsets.delta_store import DeltaOffsetStore, app_id, query_app_id

SCHEMA = pa.schema([("topic", pa.string()), ("partition", pa.int32()), ("offset", pa.int64()), ("value", pa.binary())])


def _rows(topic: str, partition: int, start: int, end: int) -> pa.RecordBatch:
    n = end - start
    return pa.RecordBatch.from_arrays(
        [
            pa.array([topic] * n),
            pa.array([partition] * n, pa.int32()),
            pa.array(range(start, end), pa.int64()),
            pa.array([f"{topic}-{partition}-{o}".encode() for o in range(start, end)]),
        ],
        schema=SCHEMA,
    )


def _plans(path: Path, owner: str | None = "g", query_id: str | None = None) -> tuple[WritePlan, CommitPlan]:
    write = WritePlan(str(path), SCHEMA, (), True, "snappy")
    commit = CommitPlan(str(path), SCHEMA, (), owner, query_id, True, "snappy")
    return write, commit


def _offsets(path: Path) -> list[tuple[int, int]]:
    t = DeltaTable(str(path)).to_pyarrow_table(columns=["partition", "offset"])
    return sorted(zip(t.column("partition").to_pylist(), t.column("offset").to_pylist(), strict=True))


def _parquet_files(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*.parquet")}


def test_files_per_partition_with_offset_ranges(tmp_path: Path) -> None:
    write, _ = _plans(tmp_path)
    mixed = pa.concat_batches([_rows("t", 0, 0, 5), _rows("t", 1, 10, 13), _rows("t", 0, 5, 8)])
    files = write_files(write, [mixed, _rows("u", 0, 100, 101)])
    got = sorted((f.topic, f.partition, f.min_offset, f.max_offset, f.num_records) for f in files)
    assert got == [("t", 0, 0, 7, 8), ("t", 1, 10, 12, 3), ("u", 0, 100, 100, 1)]
    for f in files:
        assert f.size == (tmp_path / f.path).stat().st_size


def test_commit_records_offsets_and_skips_a_retried_batch(tmp_path: Path) -> None:
    write, commit = _plans(tmp_path, owner="g", query_id="q1")
    r0 = commit_files(commit, write_files(write, [_rows("t", 0, 0, 10), _rows("t", 1, 0, 4)]), batch_id=0)
    assert (r0.version, r0.records, r0.offsets) == (0, 14, {("t", 0): 10, ("t", 1): 4})
    store = DeltaOffsetStore(str(tmp_path), "g")
    assert store.committed([("t", 0), ("t", 1)]) == {("t", 0): 10, ("t", 1): 4}
    assert store.batch_id("q1") == 0

    # Spark runs batch 1 twice (e.g. the driver died after the Delta commit, before its commit log)
    r1 = commit_files(commit, write_files(write, [_rows("t", 0, 10, 20)]), batch_id=1)
    before = _parquet_files(tmp_path)
    again = commit_files(commit, write_files(write, [_rows("t", 0, 10, 20)]), batch_id=1)
    assert (r1.version, again.skipped, again.version) == (1, True, None)
    assert _parquet_files(tmp_path) == before  # the retry's files were removed, not committed
    assert _offsets(tmp_path) == sorted([(0, o) for o in range(20)] + [(1, o) for o in range(4)])
    assert DeltaTable(str(tmp_path)).version() == 1


def test_stale_writer_drops_and_rewrites_what_the_table_has(tmp_path: Path) -> None:
    """A zombie (another query, or a group member whose partition was revoked) re-reads offsets the
    table already holds: whole files below the committed offset are dropped, a straddling file is
    rewritten from the committed offset on, and the offsets never move backwards."""
    write, commit = _plans(tmp_path, owner="g")
    commit_files(commit, write_files(write, [_rows("t", 0, 0, 100)]))
    zombie = write_files(write, [_rows("t", 0, 0, 50)]) + write_files(write, [_rows("t", 0, 50, 120)])
    result = commit_files(commit, zombie)
    assert (result.dropped_files, result.records, result.offsets) == (2, 20, {("t", 0): 120})
    assert _offsets(tmp_path) == [(0, o) for o in range(120)]
    # entirely stale: nothing to commit, offsets stay
    stale = commit_files(commit, write_files(write, [_rows("t", 0, 30, 60)]))
    assert (stale.version, stale.dropped_files) == (None, 1)
    assert DeltaOffsetStore(str(tmp_path), "g").committed([("t", 0)]) == {("t", 0): 120}
    assert len(_parquet_files(tmp_path)) == 2  # dropped and straddling originals were deleted
    # another owner's offsets are its own: the same rows are new to it
    other = commit_files(_plans(tmp_path, owner="h")[1], write_files(write, [_rows("t", 0, 0, 10)]))
    assert other.records == 10


def test_delta_rs_refuses_two_commits_of_one_app_id_from_one_snapshot(tmp_path: Path) -> None:
    """The mechanism under the fence: delta-rs's conflict checker fails the second commit of an app
    transaction made from a stale snapshot even when it may retry (ConcurrentTransaction)."""
    schema = pa.schema([("x", pa.int64())])
    DeltaTable.create(str(tmp_path), schema=schema)
    a, b = DeltaTable(str(tmp_path)), DeltaTable(str(tmp_path))
    txn = [Transaction(app_id("g", "t", 0), 10)]
    a.create_write_transaction([], "append", schema, commit_properties=CommitProperties(app_transactions=txn))
    with pytest.raises(CommitFailedError, match="Concurrent transaction"):
        b.create_write_transaction([], "append", schema, commit_properties=CommitProperties(app_transactions=txn))
    # ...while an unrelated app id from the same stale snapshot is silently rebased by delta-rs,
    # which is why the sink commits with max_commit_retries=0 and refences itself
    other = [Transaction(app_id("g", "t", 1), 5)]
    b.create_write_transaction([], "append", schema, commit_properties=CommitProperties(app_transactions=other))
    latest = DeltaTable(str(tmp_path))
    assert latest.version() == 2 and latest.transaction_version(app_id("g", "t", 1)) == 5


def test_two_writers_racing_on_one_partition_cannot_both_commit(tmp_path: Path, monkeypatch) -> None:
    """Both writers fence against the same snapshot (a barrier holds them at the commit) and both
    try to commit offsets [0, 100) of t/0: exactly one commit carries the rows; the other fails,
    reloads, finds the offsets taken and drops its files."""
    write, commit = _plans(tmp_path, owner="g")
    commit_files(commit, write_files(write, [_rows("t", 1, 0, 1)]))  # the table exists, t/0 is free
    barrier = threading.Barrier(2, timeout=30)
    real = DeltaTable.create_write_transaction
    first_attempt: dict[int, bool] = {}

    def racing(self, *args, **kwargs):
        me = threading.get_ident()
        if first_attempt.setdefault(me, True):
            first_attempt[me] = False
            barrier.wait()  # both snapshots are read and fenced; now both commit
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DeltaTable, "create_write_transaction", racing)
    results: dict[str, CommitResult] = {}
    files = {name: write_files(write, [_rows("t", 0, 0, 100)]) for name in ("A", "B")}

    def run(name: str) -> None:
        results[name] = commit_files(commit, files[name])

    threads = [threading.Thread(target=run, args=(n,)) for n in ("A", "B")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert set(results) == {"A", "B"}
    winners = [n for n, r in results.items() if r.records == 100]
    losers = [n for n, r in results.items() if r.records == 0]
    assert len(winners) == 1 and len(losers) == 1
    loser = results[losers[0]]
    assert loser.attempts == 2 and loser.dropped_files == 1 and loser.version is None
    assert _offsets(tmp_path) == [(0, o) for o in range(100)] + [(1, 0)]
    assert DeltaOffsetStore(str(tmp_path), "g").committed([("t", 0)]) == {("t", 0): 100}
    committed = {Path(u).name for u in DeltaTable(str(tmp_path)).file_uris()}
    assert {Path(p).name for p in _parquet_files(tmp_path)} == committed  # the loser's file is gone


def _consumer(path: str, seed: int, rounds: int, conflicts: multiprocessing.Queue) -> None:
    """A writer process that does what a reader resuming from the table does: read the committed
    offset, write the next records from there, commit; several of them race on the same partition."""
    import random

    rng = random.Random(seed)
    write, commit = _plans(Path(path), owner="g")
    store = DeltaOffsetStore(path, "g")
    lost = 0
    for _ in range(rounds):
        start = store.committed([("t", 0)]).get(("t", 0), 0)
        end = start + rng.randint(1, 20)
        result = commit_files(commit, write_files(write, [_rows("t", 0, start, end)]))
        lost += result.attempts > 1
    conflicts.put(lost)


def test_racing_processes_write_every_offset_exactly_once(tmp_path: Path) -> None:
    path = str(tmp_path / "tbl")
    ctx = multiprocessing.get_context("spawn")
    conflicts = ctx.Queue()
    procs = [ctx.Process(target=_consumer, args=(path, seed, 15, conflicts)) for seed in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(90)
        assert p.exitcode == 0
    offsets = _offsets(Path(path))
    end = DeltaOffsetStore(path, "g").committed([("t", 0)])[("t", 0)]
    assert offsets == [(0, o) for o in range(end)]  # no duplicate, no gap
    print("commits that lost a race and refenced:", sum(conflicts.get(timeout=5) for _ in procs))


def test_query_transaction_without_kafka_columns(tmp_path: Path) -> None:
    schema = pa.schema([("n", pa.int64())])
    write = WritePlan(str(tmp_path), schema, (), False, "zstd")
    commit = CommitPlan(str(tmp_path), schema, (), "q", "q", False, "zstd")
    batch = pa.RecordBatch.from_arrays([pa.array([1, 2, 3], pa.int64())], schema=schema)
    assert commit_files(commit, write_files(write, [batch]), batch_id=0).records == 3
    assert commit_files(commit, write_files(write, [batch]), batch_id=0).skipped
    assert DeltaTable(str(tmp_path)).transaction_version(query_app_id("q")) == 0
    assert DeltaTable(str(tmp_path)).to_pyarrow_table().num_rows == 3


def test_partition_values_and_stats_read_back_by_both_readers(tmp_path: Path) -> None:
    import datetime as dt
    import decimal
    import json

    from tests.spark.delta_helpers import duckdb_connection, logged_adds

    utc = dt.UTC
    schema = pa.schema(
        [
            ("ts", pa.timestamp("us", "UTC")),
            ("tn", pa.timestamp("us")),
            ("d", pa.date32()),
            ("dec", pa.decimal128(10, 2)),
            ("b", pa.bool_()),
            ("s", pa.string()),
            ("f", pa.float64()),
            ("x", pa.int64()),
        ]
    )
    rows = [
        {
            "ts": dt.datetime(2024, 1, 1, 12, 30, 1, 123456, tzinfo=utc),
            "tn": dt.datetime(2024, 2, 2, 3, 4, 5, 6),
            "d": dt.date(2024, 3, 3),
            "dec": decimal.Decimal("1.25"),
            "b": True,
            "s": "a/b c=d%",
            "f": float("nan"),
            "x": 1,
        },
        {"ts": None, "tn": None, "d": None, "dec": None, "b": None, "s": "", "f": 2.5, "x": 2},
        {
            "ts": dt.datetime(2024, 1, 1, 12, 30, 1, 123999, tzinfo=utc),
            "tn": None,
            "d": dt.date(2024, 3, 3),
            "dec": decimal.Decimal("1.25"),
            "b": True,
            "s": "z" * 40,
            "f": 1.0,
            "x": 3,
        },
    ]
    parts = ("d", "dec", "b", "s", "tn")
    write = WritePlan(str(tmp_path), schema, parts, False, "snappy")
    commit_files(
        CommitPlan(str(tmp_path), schema, parts, None, None, False, "snappy"),
        write_files(write, [pa.RecordBatch.from_pylist(rows, schema=schema)]),
    )
    got = DeltaTable(str(tmp_path)).to_pyarrow_table().sort_by("x").to_pylist()
    assert [r["x"] for r in got] == [1, 2, 3]
    assert [r["ts"] for r in got] == [r["ts"] for r in rows]
    assert [r["s"] for r in got] == ["a/b c=d%", None, "z" * 40]  # Spark stores '' partitions as null
    assert [r["dec"] for r in got] == [r["dec"] for r in rows]
    stats = {json.loads(a["stats"])["minValues"].get("x"): json.loads(a["stats"]) for a in logged_adds(str(tmp_path))}
    assert "f" not in stats[1]["minValues"]  # NaN: no bounds
    # millisecond stats widen outwards: the bounds still contain the microsecond values
    assert stats[3]["minValues"]["ts"] == "2024-01-01T12:30:01.123Z"
    assert stats[3]["maxValues"]["ts"] == "2024-01-01T12:30:01.124Z"
    con = duckdb_connection()
    try:
        table = f"delta_scan('{tmp_path}')"
        assert con.execute(
            f"select x from {table} where ts = timestamptz '2024-01-01 12:30:01.123999+00'"
        ).fetchall() == [(3,)]
        assert con.execute(f"select x from {table} where s = 'a/b c=d%' and b and dec = 1.25").fetchall() == [(1,)]
        assert con.execute(f"select x from {table} where s is null").fetchall() == [(2,)]
        assert con.execute(f"select x from {table} where tn = timestamp '2024-02-02 03:04:05.000006'").fetchall() == [
            (1,)
        ]
    finally:
        con.close()


def test_offsets_mirrored_to_the_group_unless_it_has_members(tmp_path: Path, broker, topic_name: str) -> None:
    from confluent_kafka import Consumer, TopicPartition

    from tests.spark.source_helpers import create_topic, wait_until

    create_topic(broker, topic_name, 2)
    mirror = (("bootstrap.servers", broker.bootstrap_servers),)
    write = WritePlan(str(tmp_path), SCHEMA, (), True, "snappy")
    commit = CommitPlan(str(tmp_path), SCHEMA, (), "mirror-group", None, True, "snappy", mirror)
    commit_files(commit, write_files(write, [_rows(topic_name, 0, 0, 7), _rows(topic_name, 1, 0, 3)]))

    def group_offsets(group: str) -> dict[int, int]:
        c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group})
        try:
            got = c.committed([TopicPartition(topic_name, p) for p in range(2)], timeout=10)
        finally:
            c.close()
        return {tp.partition: tp.offset for tp in got if tp.offset >= 0}

    assert group_offsets("mirror-group") == {0: 7, 1: 3}
    # a group with a live member commits its own offsets: the mirror stays out of its way
    member = Consumer(
        {"bootstrap.servers": broker.bootstrap_servers, "group.id": "busy-group", "session.timeout.ms": 6000}
    )
    try:
        member.subscribe([topic_name])
        wait_until(lambda: member.poll(0.2) is None and member.assignment(), timeout=30, what="assignment")
        busy = CommitPlan(str(tmp_path), SCHEMA, (), "busy-group", None, True, "snappy", mirror)
        result = commit_files(busy, write_files(write, [_rows(topic_name, 0, 0, 5)]))
        assert result.records == 5  # the Delta commit is what counts; the mirror was refused quietly
        assert group_offsets("busy-group") == {}
    finally:
        member.close()
