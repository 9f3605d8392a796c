"""The `pykafka-delta` sink in the shared SparkSession: types round-trip Spark -> Delta (read back
with delta-rs and DuckDB), append/overwrite, partitionBy, stats that readers can skip files with,
schema checks and mergeSchema, bad options, and streams from the pykafka source with their offsets
in the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.dataset as pads
import pytest
from deltalake import DeltaTable

from broker_embedded import EmbeddedBroker
from offsets.delta_store import DeltaOffsetStore, query_id_from_checkpoint
from tests.spark.delta_helpers import delta_rs_table, duckdb_query, logged_adds, positions
from tests.spark.source_helpers import create_topic, mixed_records, produce, source_options

pytestmark = pytest.mark.timeout(240)

ALL_TYPES_SQL = """
select id, cast(id as int) i, cast(id as tinyint) b8, cast(id as smallint) s16, cast(id as float) f,
  cast(id / 3 as double) d, cast(id * 1.5 as decimal(20, 3)) dec, repeat(cast(id as string), id % 40) s,
  cast(cast(id as string) as binary) bin, date_add(date'2024-01-01', cast(id as int)) dt,
  timestamp'2024-01-01 00:00:00.123456' + make_interval(0, 0, 0, 0, 0, 0, id) ts,
  timestamp_ntz'2024-01-01 00:00:00' + make_interval(0, 0, 0, 0, id) tsn,
  if(id % 4 = 0, null, array(id, null)) arr, map('k', id, 'z', null) m,
  named_struct('a', id, 'b', 'x', 'c', array(named_struct('d', id))) st, id % 3 = 0 flag,
  array(named_struct('key', 'h', 'value', cast('v' as binary)), named_struct('key', 'n', 'value', null)) headers,
  cast(id % 2 as string) p
from range({n})
"""


def _spark_arrow(df: Any) -> pa.Table:
    return df.toArrow()


def _same_rows(expected: pa.Table, got: pa.Table, key: str = "id") -> None:
    got = got.select(expected.column_names).cast(got.select(expected.column_names).schema)
    exp = expected.cast(got.schema).sort_by(key)
    assert exp.to_pylist() == got.sort_by(key).to_pylist()


def test_batch_write_round_trips_every_type(spark: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "t")
    df = spark.sql(ALL_TYPES_SQL.format(n=50))
    df.write.format("pykafka-delta").mode("append").save(path)
    expected = _spark_arrow(df)
    table = DeltaTable(path)
    assert table.version() == 0
    schema = {f.name: json.loads(f.to_json())["type"] for f in table.schema().fields}
    assert schema["ts"] == "timestamp" and schema["tsn"] == "timestamp_ntz" and schema["dec"] == "decimal(20,3)"
    assert schema["headers"]["elementType"]["fields"][1]["type"] == "binary"
    _same_rows(expected, delta_rs_table(path))
    # the independent reader sees the same values (timestamps as epoch micros to skip time zones)
    cols = "id, i, b8, s16, f, d, dec, s, bin, dt, epoch_us(ts) ts, tsn, arr, st, flag, headers, p"
    got = duckdb_query(path, f"select {cols} from t order by id")
    want = spark.sql(
        f"select {cols.replace('epoch_us(ts)', 'unix_micros(ts)')} from ({ALL_TYPES_SQL.format(n=50)}) order by id"
    )
    assert got.to_pylist() == want.toArrow().cast(got.schema).to_pylist()
    maps = duckdb_query(path, "select id, m from t order by id").column("m").to_pylist()
    assert maps[3] == [("k", 3), ("z", None)] or maps[3] == {"k": 3, "z": None}


def test_append_overwrite_partitioning_and_file_skipping(spark: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "t")
    df = spark.sql(ALL_TYPES_SQL.format(n=40)).repartition(3)
    writer = df.write.format("pykafka-delta").option("partitionBy", '["p", "flag"]')
    writer.mode("append").save(path)
    writer.mode("append").save(path)
    table = DeltaTable(path)
    assert table.metadata().partition_columns == ["p", "flag"]
    assert table.version() == 1 and delta_rs_table(path, ["id"]).num_rows == 80
    actions = pa.table(table.get_add_actions(flatten=True)).to_pydict()
    assert set(actions["partition.p"]) == {"0", "1"}
    assert all(p.startswith("p=") for p in actions["path"])
    stats = [json.loads(a["stats"]) for a in logged_adds(path)]
    assert all(s["numRecords"] > 0 and "id" in s["minValues"] and "ts" in s["maxValues"] for s in stats)
    # predicates on partition and stats columns: the skipping readers agree with a plain filter
    where = "p = '1' and id between 7 and 21 and ts > timestamp'2024-01-01 00:00:10' and s < '3'"
    want = sorted(r["id"] for r in df.where(where).collect()) * 2
    assert sorted(duckdb_query(path, f"select id from t where {where}").column("id").to_pylist()) == sorted(want)
    dt_rows = table.to_pyarrow_dataset().to_table(filter=(pads.field("p") == "1")).num_rows
    assert dt_rows == df.where("p = '1'").count() * 2
    # overwrite replaces everything in one commit
    df.where("id < 5").write.format("pykafka-delta").mode("overwrite").save(path)
    assert sorted(delta_rs_table(path, ["id"]).column("id").to_pylist()) == [0, 1, 2, 3, 4]
    assert DeltaTable(path).version() == 2


def test_schema_mismatch_merge_schema_and_missing_columns(spark: Any, tmp_path: Path) -> None:
    path = str(tmp_path / "t")
    spark.sql("select id, cast(id as string) s from range(3)").write.format("pykafka-delta").mode("append").save(path)
    with pytest.raises(
        Exception, match=r"(?s)different types: id \(table long, input integer\).*table schema: id: long"
    ):
        spark.sql("select cast(id as int) id, 's' s from range(1)").write.format("pykafka-delta").mode("append").save(
            path
        )
    extra = spark.sql("select id, 'x' s, id * 2 extra from range(3, 5)")
    with pytest.raises(Exception, match=r"(?s)columns not in the table: \['extra'\].*mergeSchema.*input schema: "):
        extra.write.format("pykafka-delta").mode("append").save(path)
    extra.write.format("pykafka-delta").mode("append").option("mergeSchema", "true").save(path)
    # a table column the input lacks is null in the new rows
    spark.sql("select 9L id").write.format("pykafka-delta").mode("append").save(path)
    rows = sorted(delta_rs_table(path).to_pylist(), key=lambda r: r["id"])
    assert [r["extra"] for r in rows] == [None, None, None, 6, 8, None]
    assert [r["s"] for r in rows][-1] is None
    got = duckdb_query(path, "select count(*) n, count(extra) e from t").to_pylist()
    assert got == [{"n": 6, "e": 2}]
    with pytest.raises(Exception, match="does not match the partitioning"):
        spark.sql("select 1L id").write.format("pykafka-delta").mode("append").option("partitionBy", "id").save(path)


@pytest.mark.parametrize(
    ("options", "sql", "match"),
    [
        ({"partitionBy": '["a", 1]'}, None, "option 'partitionBy' .* is not a JSON list"),
        ({"partitionBy": "id,,s"}, None, "option 'partitionBy' .* has an empty column name"),
        ({"partitionBy": "id,id"}, None, "names a column more than once"),
        ({"partitionBy": "nope"}, None, "partition column 'nope' is not a column of the input"),
        ({"partitionBy": "d"}, "select id, 1.5d d from range(2)", "partition column 'd' has type double"),
        ({"mergeSchema": "yes"}, None, "option 'mergeSchema' must be 'true' or 'false', got 'yes'"),
        ({"kafkaOffsets": "maybe"}, None, "option 'kafkaOffsets' = 'maybe' is not accepted; accepted: auto, true"),
        ({"kafkaOffsets": "true"}, None, "kafkaOffsets=true needs the Kafka source's columns topic"),
        ({"compression": "brotli"}, None, "option 'compression' = 'brotli' is not accepted; accepted: snappy"),
        ({"offsetsOwner": " "}, None, "option 'offsetsOwner' must be a non-empty name"),
        ({"kafka.client.id": "x"}, None, "need 'kafka.bootstrap.servers'"),
        ({"kafka.bootstrap.servers": "127.0.0.1:1"}, None, "mirrors committed offsets to the consumer group"),
        ({"path": "gs://bucket/t"}, None, "option 'path': .* accepted: a local path, a file:// URI, or s3://"),
        ({"storage.aws_region": "eu-west-1"}, None, "storage.AWS_REGION apply to object storage"),
        ({}, "select id, parse_json('1') v from range(1)", "column 'v' has type variant"),
        ({}, "select id, null n from range(1)", "column 'n' has type void"),
        ({"partitionBy": "id"}, "select id from range(1)", "cannot partition by every column"),
    ],
)
def test_bad_options_fail_before_writing(
    spark: Any, tmp_path: Path, options: dict[str, str], sql: str | None, match: str
) -> None:
    df = spark.sql(sql or "select id, cast(id as string) s from range(2)")
    opts = {"path": str(tmp_path / "t"), **options}
    with pytest.raises(Exception, match=match):
        df.write.format("pykafka-delta").mode("append").options(**opts).save()
    assert not (tmp_path / "t" / "_delta_log").exists()


def test_missing_path_and_error_mode(spark: Any, tmp_path: Path) -> None:
    df = spark.range(1)
    with pytest.raises(Exception, match="option 'path' .* must be given"):
        df.write.format("pykafka-delta").mode("append").save()
    # Spark itself refuses ErrorIfExists/Ignore for Python data sources
    with pytest.raises(Exception, match="UNSUPPORTED_DATA_SOURCE_SAVE_MODE"):
        df.write.format("pykafka-delta").save(str(tmp_path / "t"))


def _kafka_to_delta(
    spark: Any, broker: EmbeddedBroker, topic: str, path: str, checkpoint: Path, **sink_options: str
) -> Any:
    return (
        spark.readStream.format("pykafka")
        .options(**source_options(broker, subscribe=topic, startingOffsets="earliest", includeHeaders="true"))
        .option("maxOffsetsPerTrigger", "70")
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", str(checkpoint))
        .options(**sink_options)
        .trigger(availableNow=True)
        .start(path)
    )


def test_stream_from_kafka_writes_each_record_once_with_offsets(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, mixed_records(150, 3, seed=4))
    path, checkpoint = str(tmp_path / "t"), tmp_path / "ck"
    q = _kafka_to_delta(spark, broker, topic_name, path, checkpoint, partitionBy="partition")
    q.awaitTermination(120)
    assert q.exception() is None
    query_id = query_id_from_checkpoint(str(checkpoint))
    assert query_id == q.id
    table = delta_rs_table(path)
    assert positions(table) == [(r.topic, r.partition, r.offset) for r in acked]
    store = DeltaOffsetStore(path, query_id)
    ends = {(topic_name, p): 1 + max(r.offset for r in acked if r.partition == p) for p in range(3)}
    assert store.committed(ends) == ends
    assert store.lag(ends) == dict.fromkeys(ends, 0)
    batches = store.batch_id(query_id)
    assert batches is not None and batches >= 2  # maxOffsetsPerTrigger split it into several commits
    by_offset = {(r["partition"], r["offset"]): r for r in table.to_pylist()}
    for r in acked:
        row = by_offset[(r.partition, r.offset)]
        assert (row["key"], row["value"]) == (r.key, r.value)
        assert int(row["timestamp"].timestamp() * 1000) == r.timestamp_ms
        assert (tuple((h["key"], h["value"]) for h in row["headers"] or ()) or None) == r.headers
    # the restarted query continues where the table ends: new records only
    more = produce(broker, topic_name, mixed_records(40, 3, seed=5))
    q = _kafka_to_delta(spark, broker, topic_name, path, checkpoint, partitionBy="partition")
    q.awaitTermination(120)
    got = positions(duckdb_query(path, 'select topic, partition, "offset" from t'))
    assert got == sorted((r.topic, r.partition, r.offset) for r in acked + more)


def test_complete_mode_replaces_the_table_each_batch(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 2)
    acked = produce(broker, topic_name, [(i % 2, None, b"v", None) for i in range(60)])
    path = str(tmp_path / "t")
    q = (
        spark.readStream.format("pykafka")
        .options(**source_options(broker, subscribe=topic_name, startingOffsets="earliest"))
        .option("maxOffsetsPerTrigger", "25")
        .load()
        .groupBy("partition")
        .count()
        .writeStream.format("pykafka-delta")
        .outputMode("complete")
        .option("checkpointLocation", str(tmp_path / "ck"))
        .trigger(availableNow=True)
        .start(path)
    )
    q.awaitTermination(120)
    assert q.exception() is None
    rows = {r["partition"]: r["count"] for r in delta_rs_table(path).to_pylist()}
    assert rows == {0: 30, 1: 30} and sum(rows.values()) == len(acked)
    table = DeltaTable(path)
    assert table.version() >= 2  # one overwrite per micro-batch
    assert table.transaction_version(f"pykafka:{q.id}:{topic_name}:0") is None  # overwrites record no offsets


def test_stream_refuses_a_checkpoint_it_cannot_read(spark: Any, tmp_path: Path) -> None:
    # a rate stream, no checkpointLocation option on the writer: the session setting is not visible
    spark.conf.set("spark.sql.streaming.checkpointLocation", str(tmp_path / "cks"))
    try:
        q = (
            spark.readStream.format("rate")
            .load()
            .writeStream.format("pykafka-delta")
            .trigger(availableNow=True)
            .start(str(tmp_path / "t"))
        )
        with pytest.raises(Exception, match="needs the streaming query id"):
            q.awaitTermination(60)
    finally:
        spark.conf.unset("spark.sql.streaming.checkpointLocation")
