"""The `pykafka-delta` sink on S3-compatible object storage (versitygw on 127.0.0.1, the `s3_server`
fixture): a streaming query from `format("pykafka")` into ``s3://`` with ``storage.*`` options, read
back with delta-rs and DuckDB; restarted, it continues where the table ends. Below Spark: two writers of the
same partition's offsets racing for one version (threads held at the commit by a barrier, and
processes in a loop) write every offset exactly once, the loser's files removed from the bucket.
Secrets stay out of the plans' reprs and the errors."""

from __future__ import annotations

import json
import multiprocessing
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from deltalake import DeltaTable
from pyspark.sql.types import LongType, StructField, StructType

from broker_embedded import EmbeddedBroker
from connector.delta import CommitPlan, CommitResult, WritePlan, commit_files, write_files
from connector.delta.datasource import create_delta_batch_writer
from connector.delta.options import parse_delta_options
from offsets.delta_storage import sink_storage_options
from offsets.delta_store import DeltaOffsetStore, query_id_from_checkpoint
from peers.s3 import S3Server
from tests.s3_fixtures import duckdb_s3_query
from tests.spark.delta_helpers import positions
from tests.spark.source_helpers import create_topic, mixed_records, produce, source_options

pytestmark = pytest.mark.timeout(240)

SCHEMA = pa.schema([("topic", pa.string()), ("partition", pa.int32()), ("offset", pa.int64()), ("value", pa.binary())])


def _keys(server: S3Server, uri: str) -> list[str]:
    """Object keys under a table URI, relative to it."""
    prefix = uri.split("/", 3)[3] + "/"
    client = server.client()
    try:
        pages = client.get_paginator("list_objects_v2").paginate(Bucket=server.bucket, Prefix=prefix)
        return sorted(o["Key"][len(prefix) :] for page in pages for o in page.get("Contents", []))
    finally:
        client.close()


def _stream(spark: Any, broker: EmbeddedBroker, topic: str, uri: str, checkpoint: Path, server: S3Server) -> Any:
    # lower-case keys on purpose: Spark lower-cases option names anyway
    storage = {k.lower(): v for k, v in sink_storage_options(server.storage_options()).items()}
    return (
        spark.readStream.format("pykafka")
        .options(**source_options(broker, subscribe=topic, startingOffsets="earliest"))
        .option("maxOffsetsPerTrigger", "70")
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", str(checkpoint))
        .option("partitionBy", "partition")
        .options(**storage)
        .trigger(availableNow=True)
        .start(uri)
    )


def test_stream_to_s3_table_each_record_once(
    spark: Any,
    broker: EmbeddedBroker,
    topic_name: str,
    tmp_path: Path,
    s3_server: S3Server,
    s3_prefix: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    opts = s3_server.storage_options()
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, mixed_records(150, 3, seed=14))
    checkpoint = tmp_path / "ck"
    q = _stream(spark, broker, topic_name, s3_prefix, checkpoint, s3_server)
    q.awaitTermination(120)
    assert q.exception() is None
    # the secret is in the query's options, but neither in its progress reports nor in its plan
    capsys.readouterr()
    q.explain(extended=True)
    plan = capsys.readouterr().out
    assert "pykafka" in plan.lower() and s3_server.secret_key not in plan
    assert q.recentProgress and s3_server.secret_key not in json.dumps([p.json for p in q.recentProgress])
    table = DeltaTable(s3_prefix, storage_options=opts)
    assert positions(table.to_pyarrow_table()) == [(r.topic, r.partition, r.offset) for r in acked]
    query_id = query_id_from_checkpoint(str(checkpoint))
    ends = {(topic_name, p): 1 + max(r.offset for r in acked if r.partition == p) for p in range(3)}
    store = DeltaOffsetStore(s3_prefix, query_id or "", opts)
    assert store.committed(ends) == ends
    assert (store.batch_id(query_id or "") or 0) >= 2  # several micro-batches, one commit each
    # the data files and the log are objects in the bucket, partitioned as asked
    keys = _keys(s3_server, s3_prefix)
    data = [k for k in keys if k.endswith(".parquet")]
    assert data and all(k.startswith("partition=") for k in data)
    assert {k.split("/", 1)[1] for k in data} >= {u.rsplit("/", 1)[-1] for u in table.file_uris()}
    assert sum(k.startswith("_delta_log/") and k.endswith(".json") for k in keys) == table.version() + 1
    # restarted from the same checkpoint: only the new records are added
    more = produce(broker, topic_name, mixed_records(40, 3, seed=15))
    q = _stream(spark, broker, topic_name, s3_prefix, checkpoint, s3_server)
    q.awaitTermination(120)
    assert q.exception() is None
    got = positions(
        DeltaTable(s3_prefix, storage_options=opts).to_pyarrow_table(columns=["topic", "partition", "offset"])
    )
    assert got == sorted((r.topic, r.partition, r.offset) for r in acked + more)
    # an independent reader of the same objects: DuckDB's delta extension over httpfs
    assert positions(duckdb_s3_query(s3_server, s3_prefix, 'select topic, partition, "offset" from t')) == got


def test_sink_options_for_object_storage(s3_server: S3Server, s3_prefix: str) -> None:
    secret = s3_server.secret_key
    opts = parse_delta_options({"path": s3_prefix, **sink_storage_options(s3_server.storage_options())}, False)
    assert opts.table_path == s3_prefix and dict(opts.storage_options)["AWS_SECRET_ACCESS_KEY"] == secret
    assert secret not in repr(opts)
    lower = {k.lower(): v for k, v in sink_storage_options(s3_server.storage_options()).items()}
    writer = create_delta_batch_writer({"path": s3_prefix, **lower}, StructType([StructField("n", LongType())]), False)
    assert secret not in repr(writer.write_plan) and secret not in repr(writer.commit_plan)
    bad = [
        ({"path": "/tmp/local-table", "storage.aws_region": "x"}, "apply to object storage"),
        ({"path": s3_prefix, "storage.aws_s3_allow_unsafe_rename": "true"}, "storage.*.*AWS_S3_ALLOW_UNSAFE_RENAME"),
        ({"path": "s3://bucket-only"}, "option 'path'.*bucket root"),
        ({"path": "gs://b/t"}, "option 'path'.*accepted: a local path"),
    ]
    for options, match in bad:
        with pytest.raises(ValueError, match=match):
            parse_delta_options(options, False)


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


def _plans(uri: str, storage: dict[str, str], owner: str = "g") -> tuple[WritePlan, CommitPlan]:
    so = tuple(sorted(storage.items()))
    write = WritePlan(uri, SCHEMA, (), True, "snappy", so)
    commit = CommitPlan(uri, SCHEMA, (), owner, None, True, "snappy", (), so)
    return write, commit


def _offsets(uri: str, storage: dict[str, str]) -> list[tuple[int, int]]:
    t = DeltaTable(uri, storage_options=storage).to_pyarrow_table(columns=["partition", "offset"])
    return sorted(zip(t.column("partition").to_pylist(), t.column("offset").to_pylist(), strict=True))


def test_two_writers_racing_for_one_version_on_s3(
    s3_server: S3Server, s3_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both writers fence against the same snapshot (a barrier holds them at delta-rs's commit) and
    both try to commit offsets [0, 100) of t/0 as version 1: S3's conditional PUT lets one create
    `_delta_log/...01.json`; the other fails, reloads, finds the offsets taken and drops its file."""
    storage = s3_server.storage_options()
    write, commit = _plans(s3_prefix, storage)
    commit_files(commit, write_files(write, [_rows("t", 1, 0, 1)]))  # version 0; t/0 is free
    barrier = threading.Barrier(2, timeout=30)
    real = DeltaTable.create_write_transaction
    first_attempt: dict[int, bool] = {}

    def racing(self: DeltaTable, *args: Any, **kwargs: Any) -> Any:
        me = threading.get_ident()
        if first_attempt.setdefault(me, True):
            first_attempt[me] = False
            barrier.wait()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DeltaTable, "create_write_transaction", racing)
    files = {name: write_files(write, [_rows("t", 0, 0, 100)]) for name in ("A", "B")}
    results: dict[str, CommitResult] = {}

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
    assert len(winners) == 1 and len(losers) == 1, results
    loser = results[losers[0]]
    assert (loser.attempts, loser.dropped_files, loser.version) == (2, 1, None)
    assert results[winners[0]].version == 1
    assert DeltaTable(s3_prefix, storage_options=storage).version() == 1
    assert _offsets(s3_prefix, storage) == [(0, o) for o in range(100)] + [(1, 0)]
    assert DeltaOffsetStore(s3_prefix, "g", storage).committed([("t", 0)]) == {("t", 0): 100}
    committed = {u.rsplit("/", 1)[-1] for u in DeltaTable(s3_prefix, storage_options=storage).file_uris()}
    in_bucket = {k.rsplit("/", 1)[-1] for k in _keys(s3_server, s3_prefix) if k.endswith(".parquet")}
    assert in_bucket == committed  # the loser's object was deleted


def _consumer(uri: str, storage: dict[str, str], seed: int, rounds: int, conflicts: multiprocessing.Queue) -> None:
    """A writer process resuming from the table: read the committed offset, write the next records
    from there, commit; several race on the same partition."""
    import random

    rng = random.Random(seed)
    write, commit = _plans(uri, storage)
    store = DeltaOffsetStore(uri, "g", storage)
    lost = 0
    for _ in range(rounds):
        start = store.committed([("t", 0)]).get(("t", 0), 0)
        end = start + rng.randint(1, 20)
        result = commit_files(commit, write_files(write, [_rows("t", 0, start, end)]))
        lost += result.attempts > 1
    conflicts.put(lost)


def test_racing_processes_write_every_offset_exactly_once_on_s3(s3_server: S3Server, s3_prefix: str) -> None:
    storage = s3_server.storage_options()
    ctx = multiprocessing.get_context("spawn")
    conflicts = ctx.Queue()
    procs = [ctx.Process(target=_consumer, args=(s3_prefix, storage, seed, 8, conflicts)) for seed in range(3)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(150)
        assert p.exitcode == 0
    end = DeltaOffsetStore(s3_prefix, "g", storage).committed([("t", 0)])[("t", 0)]
    assert _offsets(s3_prefix, storage) == [(0, o) for o in range(end)]  # no duplicate, no gap
    print("commits that lost a race and refenced:", sum(conflicts.get(timeout=5) for _ in procs))


def test_a_wrong_secret_fails_without_showing_it(s3_server: S3Server, s3_prefix: str) -> None:
    wrong = "wrong-secret-" + "9" * 12
    storage = {**s3_server.storage_options(), "AWS_SECRET_ACCESS_KEY": wrong}
    write, commit = _plans(s3_prefix, storage)
    with pytest.raises(Exception) as e:
        commit_files(commit, write_files(write, [_rows("t", 0, 0, 3)]))
    assert wrong not in str(e.value) and wrong not in repr(e.value)
