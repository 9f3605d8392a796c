"""The pykafka sink against the embedded broker, read back with confluent-kafka (librdkafka).

One embedded broker per module (`broker` fixture, 4 partitions per auto-created topic) and the
session's local SparkSession (`spark` fixture).
"""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql.functions import col

from broker_embedded import EmbeddedBroker

pytest.importorskip("confluent_kafka")

# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rec:
    topic: str
    partition: int
    offset: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes | None], ...]


def read_topic(bootstrap: str, topic: str, *, timeout: float = 20.0) -> list[Rec]:
    """Every record of `topic` up to its current high watermarks, in every partition."""
    from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, TopicPartition

    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"sink-test-{uuid.uuid4().hex}",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
        }
    )
    try:
        md = consumer.list_topics(topic, timeout=10).topics[topic]
        if md.error is not None or not md.partitions:
            return []
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in md.partitions}
        todo = {p for p, end in ends.items() if end > 0}
        consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for p in todo])
        out: list[Rec] = []
        deadline = time.monotonic() + timeout
        while todo and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error() is not None:
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    todo.discard(msg.partition())
                    continue
                raise RuntimeError(msg.error())
            if msg.offset() < ends[msg.partition()]:
                headers = tuple(msg.headers() or ())
                out.append(Rec(msg.topic(), msg.partition(), msg.offset(), msg.key(), msg.value(), headers))
            if msg.offset() + 1 >= ends[msg.partition()]:
                todo.discard(msg.partition())
        assert not todo, f"timed out reading {topic}: partitions {sorted(todo)} not read to the end"
        return out
    finally:
        consumer.close()


def topic_names(bootstrap: str) -> set[str]:
    from confluent_kafka.admin import AdminClient

    return set(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10).topics)


def create_topic(bootstrap: str, topic: str, partitions: int, config: dict[str, str] | None = None) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1, config=config or {})])[topic].result(10)


def murmur2(data: bytes) -> int:
    """Kafka's `Utils.murmur2` (the Java default partitioner's hash) as an unsigned 32-bit int."""
    m = 0x5BD1E995
    length = len(data)
    h = (0x9747B28C ^ length) & 0xFFFFFFFF
    for i in range(length // 4):
        k = int.from_bytes(data[4 * i : 4 * i + 4], "little")
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> 24
        k = (k * m) & 0xFFFFFFFF
        h = ((h * m) & 0xFFFFFFFF) ^ k
    tail, rest = length & ~3, length % 4
    if rest == 3:
        h ^= data[tail + 2] << 16
    if rest >= 2:
        h ^= data[tail + 1] << 8
    if rest >= 1:
        h ^= data[tail]
        h = (h * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h


def java_partition(key: bytes, num_partitions: int) -> int:
    # BuiltInPartitioner.partitionForKey: toPositive(murmur2(key)) % numPartitions
    return (murmur2(key) & 0x7FFFFFFF) % num_partitions


def error_text(exc: BaseException) -> str:
    # Py4J/AnalysisException text plus any chained description.
    parts = [str(exc)]
    desc = getattr(exc, "desc", None)
    if desc:
        parts.append(str(desc))
    return "\n".join(parts)


def run_stream(query: Any, timeout: float = 60.0) -> None:
    """Wait for an availableNow query to finish; always stop it."""
    try:
        assert query.awaitTermination(timeout), "streaming query did not finish in time"
        if query.exception() is not None:
            raise query.exception()
    finally:
        query.stop()


# --------------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark_kafka(spark: Any) -> Any:
    from connector.datasource import PyKafkaDataSource

    spark.dataSource.register(PyKafkaDataSource)
    return spark


@pytest.fixture
def bootstrap(broker: EmbeddedBroker) -> str:
    return broker.bootstrap_servers


@pytest.fixture
def writer(spark_kafka: Any, bootstrap: str) -> Callable[..., Any]:
    """`writer(df, **options)` → a DataFrameWriter for pykafka with bootstrap servers set."""

    def make(df: Any, mode: str | None = "append", **options: str) -> Any:
        w = df.write.format("pykafka").option("kafka.bootstrap.servers", bootstrap)
        for k, v in options.items():
            w = w.option(k.replace("_", "."), v)
        return w.mode(mode) if mode else w

    return make


# --------------------------------------------------------------------------------------------
# Batch writes
# --------------------------------------------------------------------------------------------


def test_batch_round_trip_key_value_headers(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    n = 3000
    df = spark_kafka.range(0, n, numPartitions=3).selectExpr(
        "concat('k', id) AS key",
        "cast(concat('value-', id) AS binary) AS value",
        "CASE WHEN id % 3 = 0 THEN NULL ELSE array(named_struct('key', 'h1', 'value', cast(id AS string)::binary),"
        " named_struct('key', 'h2', 'value', CAST(NULL AS binary))) END AS headers",
        "'ignored' AS extra",
    )
    writer(df, topic=topic_name).save()

    recs = read_topic(bootstrap, topic_name)
    assert len(recs) == n
    got = {r.key: r for r in recs}
    assert len(got) == n
    for i in range(n):
        r = got[f"k{i}".encode()]
        assert r.value == f"value-{i}".encode()
        assert r.topic == topic_name
        expected_headers = () if i % 3 == 0 else (("h1", str(i).encode()), ("h2", None))
        assert r.headers == expected_headers
        # No partition column: Kafka's default partitioner (murmur2 of the key).
        assert r.partition == java_partition(r.key, 4)


def test_string_value_and_null_key(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    df = spark_kafka.range(0, 500, numPartitions=2).selectExpr("concat('é-', id) AS value")
    writer(df, topic=topic_name).save()
    recs = read_topic(bootstrap, topic_name)
    assert sorted(r.value for r in recs) == sorted(f"é-{i}".encode() for i in range(500))
    assert all(r.key is None for r in recs)


def test_null_values_are_tombstones(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    df = spark_kafka.range(0, 10, numPartitions=1).selectExpr(
        "cast(id AS string) AS key",
        "CASE WHEN id % 2 = 0 THEN NULL ELSE cast(cast(id AS string) AS binary) END AS value",
    )
    writer(df, topic=topic_name).save()
    recs = read_topic(bootstrap, topic_name)
    assert {r.key: r.value for r in recs if r.value is None} == {str(i).encode(): None for i in range(0, 10, 2)}


def test_topic_column_routes_rows(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    topics = [f"{topic_name}-a", f"{topic_name}-b", f"{topic_name}-c"]
    df = spark_kafka.range(0, 300, numPartitions=2).selectExpr(
        f"element_at(array('{topics[0]}', '{topics[1]}', '{topics[2]}'), cast(id % 3 AS int) + 1) AS topic",
        "cast(id AS string) AS value",
    )
    writer(df).save()
    for j, t in enumerate(topics):
        recs = read_topic(bootstrap, t)
        assert sorted(int(r.value) for r in recs) == list(range(j, 300, 3))
        assert {r.topic for r in recs} == {t}


def test_topic_option_overrides_column(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    column_topic = f"{topic_name}-column"
    df = spark_kafka.range(0, 50, numPartitions=1).selectExpr(
        f"'{column_topic}' AS topic", "cast(id AS string) AS value"
    )
    writer(df, topic=topic_name).save()
    assert sorted(int(r.value) for r in read_topic(bootstrap, topic_name)) == list(range(50))
    assert column_topic not in topic_names(bootstrap)


def test_topic_option_ignores_badly_typed_topic_column(
    spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str
) -> None:
    # Spark: with the option set, the column is not looked at (not even its type).
    df = spark_kafka.range(0, 5, numPartitions=1).selectExpr("id AS topic", "cast(id AS string) AS value")
    writer(df, topic=topic_name).save()
    assert len(read_topic(bootstrap, topic_name)) == 5


def test_partition_column_respected(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, 6)
    df = spark_kafka.range(0, 600, numPartitions=3).selectExpr(
        "concat('key-', id) AS key",
        "cast(id AS string) AS value",
        # null partition: the partitioner (murmur2 of the key) chooses
        "CASE WHEN id % 10 = 9 THEN NULL ELSE cast(id % 5 AS int) END AS partition",
    )
    writer(df, topic=topic_name).save()
    recs = read_topic(bootstrap, topic_name)
    assert len(recs) == 600
    for r in recs:
        i = int(r.value)
        expected = java_partition(r.key, 6) if i % 10 == 9 else i % 5
        assert r.partition == expected, (i, r.partition, expected)


def test_key_partitioning_matches_librdkafka_murmur2_random(
    spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str
) -> None:
    from confluent_kafka import Producer

    spark_topic, direct_topic = f"{topic_name}-spark", f"{topic_name}-direct"
    for t in (spark_topic, direct_topic):
        create_topic(bootstrap, t, 7)
    keys = [f"user-{i}-{'x' * (i % 9)}" for i in range(400)]
    df = spark_kafka.createDataFrame([(k, f"v{i}") for i, k in enumerate(keys)], "key string, value string")
    writer(df.repartition(3), topic=spark_topic).save()

    p = Producer({"bootstrap.servers": bootstrap, "partitioner": "murmur2_random"})
    for i, k in enumerate(keys):
        p.produce(direct_topic, f"v{i}".encode(), k.encode())
    assert p.flush(30) == 0

    spark_placement = {r.key: r.partition for r in read_topic(bootstrap, spark_topic)}
    direct_placement = {r.key: r.partition for r in read_topic(bootstrap, direct_topic)}
    assert len(spark_placement) == len(keys)
    assert spark_placement == direct_placement
    assert spark_placement == {k.encode(): java_partition(k.encode(), 7) for k in keys}
    assert len(set(spark_placement.values())) == 7


def test_binary_key_and_producer_options(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    # Compression, batching, acks and Java-only names (translated) all accepted and effective.
    df = spark_kafka.range(0, 2000, numPartitions=2).selectExpr(
        "cast(cast(id AS string) AS binary) AS key", "cast(repeat('abc', 100) AS binary) AS value"
    )
    writer(
        df,
        topic=topic_name,
        kafka_compression_type="zstd",
        kafka_linger_ms="20",
        kafka_batch_size="65536",
        kafka_acks="1",
        kafka_max_request_size="2000000",
        kafka_buffer_memory="33554432",
        kafka_max_block_ms="30000",
        kafka_client_id="spark-sink-test",
    ).save()
    recs = read_topic(bootstrap, topic_name)
    assert len(recs) == 2000
    assert {r.value for r in recs} == {b"abc" * 100}


def test_save_twice_appends(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    df = spark_kafka.range(0, 20, numPartitions=1).selectExpr("cast(id AS string) AS value")
    writer(df, topic=topic_name).save()
    writer(df, topic=topic_name).save()
    assert Counter(int(r.value) for r in read_topic(bootstrap, topic_name)) == Counter(list(range(20)) * 2)


# --------------------------------------------------------------------------------------------
# Producer errors fail the task with the Kafka error
# --------------------------------------------------------------------------------------------


def test_broker_error_fails_batch_write(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    create_topic(bootstrap, topic_name, 1, {"max.message.bytes": "1000"})
    df = spark_kafka.range(0, 3, numPartitions=1).selectExpr("cast(repeat('x', 5000) AS binary) AS value")
    with pytest.raises(Exception) as info:
        writer(df, topic=topic_name).save()
    text = error_text(info.value)
    assert "MSG_SIZE_TOO_LARGE" in text and "Message size too large" in text, text
    assert "not acknowledged by Kafka" in text


def test_unknown_partition_fails_batch_write(spark_kafka: Any, writer: Any, bootstrap: str, topic_name: str) -> None:
    df = spark_kafka.range(0, 10, numPartitions=1).selectExpr("cast(id AS string) AS value", "99 AS partition")
    with pytest.raises(Exception) as info:
        writer(df, topic=topic_name).save()
    text = error_text(info.value)
    assert "_UNKNOWN_PARTITION" in text and "partition 99" in text, text


def test_negative_partition_fails(spark_kafka: Any, writer: Any, topic_name: str) -> None:
    df = spark_kafka.range(0, 3, numPartitions=1).selectExpr("cast(id AS string) AS value", "-1 AS partition")
    with pytest.raises(Exception, match="invalid partition -1"):
        writer(df, topic=topic_name).save()


def test_null_topic_in_column_fails(spark_kafka: Any, writer: Any, topic_name: str) -> None:
    df = spark_kafka.range(0, 3, numPartitions=1).selectExpr(
        f"CASE WHEN id = 1 THEN NULL ELSE '{topic_name}' END AS topic", "cast(id AS string) AS value"
    )
    with pytest.raises(Exception, match="null topic present in the data"):
        writer(df).save()


def test_value_larger_than_producer_limit_fails(spark_kafka: Any, writer: Any, topic_name: str) -> None:
    # Refused locally by librdkafka (message.max.bytes), before reaching the broker.
    df = spark_kafka.range(0, 1, numPartitions=1).selectExpr("cast(repeat('x', 5000) AS binary) AS value")
    with pytest.raises(Exception) as info:
        writer(df, topic=topic_name, kafka_max_request_size="2000").save()
    assert "MSG_SIZE_TOO_LARGE" in error_text(info.value)


# --------------------------------------------------------------------------------------------
# Bad options, columns and save modes fail at save(), before any task runs
# --------------------------------------------------------------------------------------------

_GOOD = "cast(id AS string) AS value"

BAD_BATCH_CASES = [
    # (id, select expressions, options (None value = leave unset), expected message parts)
    ("no-bootstrap", [_GOOD], {"kafka.bootstrap.servers": None}, ["kafka.bootstrap.servers", "must be specified"]),
    ("key-serializer", [_GOOD], {"kafka.key.serializer": "x"}, ["'key.serializer'", "not supported"]),
    ("value-serializer", [_GOOD], {"kafka.value.serializer": "x"}, ["'value.serializer'", "not supported"]),
    ("unknown-kafka-option", [_GOOD], {"kafka.no.such.setting": "1"}, ["no.such.setting", "invalid Kafka producer"]),
    ("bad-acks", [_GOOD], {"kafka.acks": "banana"}, ["invalid Kafka producer option", "acks"]),
    ("empty-topic", [_GOOD], {"topic": " "}, ["option 'topic'", "non-empty"]),
    ("partitioner-class", [_GOOD], {"kafka.partitioner.class": "com.example.P"}, ["partitioner.class", "murmur2"]),
    ("bad-max-block", [_GOOD], {"kafka.max.block.ms": "soon"}, ["kafka.max.block.ms", "integer"]),
    ("no-value", ["cast(id AS string) AS key"], {}, ["'value'", "string or binary"]),
    ("value-int", ["id AS value"], {}, ["column 'value'", "bigint", "string or binary"]),
    ("key-int", [_GOOD, "id AS key"], {}, ["column 'key'", "bigint", "string or binary"]),
    ("partition-long", [_GOOD, "id AS partition"], {}, ["column 'partition'", "bigint", "accepted: int"]),
    ("partition-string", [_GOOD, "'1' AS partition"], {}, ["column 'partition'", "accepted: int"]),
    ("headers-map", [_GOOD, "map('a', 'b') AS headers"], {}, ["column 'headers'", "array<struct<key:string"]),
    (
        "headers-bad-struct",
        [_GOOD, "array(named_struct('k', 'a', 'v', cast('b' AS binary))) AS headers"],
        {},
        ["column 'headers'", "array<struct<key:string,value:binary>>"],
    ),
    ("no-topic", [_GOOD], {"topic": None}, ["needs a topic", "'topic' option", "'topic' column"]),
    ("topic-column-int", [_GOOD, "id AS topic"], {"topic": None}, ["column 'topic'", "bigint", "string"]),
]


@pytest.mark.parametrize(
    ("select", "options", "expected"), [c[1:] for c in BAD_BATCH_CASES], ids=[c[0] for c in BAD_BATCH_CASES]
)
def test_bad_option_or_column_fails_at_save(
    spark_kafka: Any,
    bootstrap: str,
    topic_name: str,
    select: list[str],
    options: dict[str, str | None],
    expected: list[str],
) -> None:
    from pyspark.errors import AnalysisException

    opts: dict[str, str | None] = {"kafka.bootstrap.servers": bootstrap, "topic": topic_name, **options}
    df = spark_kafka.range(0, 3, numPartitions=1).selectExpr(*select)
    w = df.write.format("pykafka").mode("append")
    for k, v in opts.items():
        if v is not None:
            w = w.option(k, v)
    with pytest.raises(AnalysisException) as info:
        w.save()
    text = error_text(info.value)
    for part in expected:
        assert part in text, f"{part!r} not in {text}"
    assert topic_name not in topic_names(bootstrap)  # nothing was produced


def test_save_mode_overwrite_refused(spark_kafka: Any, writer: Any, topic_name: str) -> None:
    from pyspark.errors import AnalysisException

    df = spark_kafka.range(0, 3).selectExpr(_GOOD)
    with pytest.raises(AnalysisException, match="(?s)Overwrite is not allowed for the pykafka sink.*Append"):
        writer(df, mode="overwrite", topic=topic_name).save()


@pytest.mark.parametrize("mode", [None, "errorifexists", "ignore"])
def test_save_modes_refused_by_spark(spark_kafka: Any, writer: Any, topic_name: str, mode: str | None) -> None:
    # Spark's Kafka sink accepts ErrorIfExists (the default), but Spark itself refuses ErrorIfExists
    # and Ignore for every Python data source before calling it: mode("append") is required.
    from pyspark.errors import AnalysisException

    df = spark_kafka.range(0, 3).selectExpr(_GOOD)
    w = writer(df, mode=None, topic=topic_name)
    if mode is not None:
        w = w.mode(mode)
    with pytest.raises(AnalysisException, match="UNSUPPORTED_DATA_SOURCE_SAVE_MODE"):
        w.save()


# --------------------------------------------------------------------------------------------
# Streaming
# --------------------------------------------------------------------------------------------


def _write_json_rows(directory: Path, name: str, ids: range) -> None:
    lines = [json.dumps({"id": i, "k": f"k{i}"}) for i in ids]
    tmp = directory / f".{name}.tmp"
    tmp.write_text("\n".join(lines) + "\n")
    tmp.rename(directory / f"{name}.json")  # atomic: the file source never sees a partial file


@pytest.fixture
def stream_dirs(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    src = tmp_path / "in"
    src.mkdir()
    yield src, tmp_path / "checkpoint"


def _file_stream(spark: Any, src: Path, **read_options: str) -> Any:
    reader = spark.readStream.schema("id long, k string").option("maxFilesPerTrigger", "1")
    for k, v in read_options.items():
        reader = reader.option(k, v)
    return reader.json(str(src))


def test_streaming_write_with_restart(
    spark_kafka: Any, bootstrap: str, topic_name: str, stream_dirs: tuple[Path, Path]
) -> None:
    src, checkpoint = stream_dirs

    def start(trigger: dict[str, Any]) -> Any:
        df = _file_stream(spark_kafka, src).selectExpr(
            "k AS key",
            "cast(id AS string) AS value",
            "array(named_struct('key', 'id', 'value', cast(cast(id AS string) AS binary))) AS headers",
        )
        return (
            df.writeStream.format("pykafka")
            .option("kafka.bootstrap.servers", bootstrap)
            .option("topic", topic_name)
            .option("checkpointLocation", str(checkpoint))
            .trigger(**trigger)
            .start()
        )

    # Run 1: several micro-batches, then stop while the query is live (possibly mid-batch).
    for f in range(3):
        _write_json_rows(src, f"part-{f}", range(f * 100, f * 100 + 100))
    q = start({"processingTime": "100 milliseconds"})
    try:
        deadline = time.monotonic() + 60
        while len(read_topic(bootstrap, topic_name)) < 100 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert q.exception() is None
    finally:
        q.stop()
    first_run = len(read_topic(bootstrap, topic_name))
    assert first_run >= 100

    # Run 2: more input; restart from the checkpoint and drain everything.
    for f in range(3, 6):
        _write_json_rows(src, f"part-{f}", range(f * 100, f * 100 + 100))
    run_stream(start({"availableNow": True}))

    recs = read_topic(bootstrap, topic_name)
    counts = Counter(int(r.value) for r in recs)
    # At-least-once: every input row is there; a batch cut by stop() may have been written twice.
    assert set(counts) == set(range(600)), sorted(set(range(600)) - set(counts))[:10]
    assert len(recs) < 2 * 600
    for r in recs:
        assert r.key == f"k{int(r.value)}".encode()
        assert r.headers == (("id", r.value),)
        assert r.partition == java_partition(r.key, 4)

    # Run 3: nothing new -> nothing written again (checkpoint offsets were committed).
    run_stream(start({"availableNow": True}))
    assert len(read_topic(bootstrap, topic_name)) == len(recs)


def test_streaming_rate_source_with_topic_column(
    spark_kafka: Any, bootstrap: str, topic_name: str, tmp_path: Path
) -> None:
    df = (
        spark_kafka.readStream.format("rate")
        .option("rowsPerSecond", "500")
        .load()
        .selectExpr(f"'{topic_name}' AS topic", "cast(value AS string) AS value", "cast(value % 4 AS int) AS partition")
    )
    q = (
        df.writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("checkpointLocation", str(tmp_path / "ck"))
        .trigger(processingTime="200 milliseconds")
        .start()
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(q.recentProgress) < 3:
            time.sleep(0.2)
        assert q.exception() is None
    finally:
        q.stop()
    # Progress is reported once a batch is committed; the rate source numbers rows 0, 1, 2, ...
    committed = sum(p.numInputRows for p in q.recentProgress)
    assert committed > 0, "no micro-batch wrote rows"
    recs = read_topic(bootstrap, topic_name)
    values = {int(r.value) for r in recs}
    assert values >= set(range(committed)), sorted(set(range(committed)) - values)[:10]
    assert all(r.partition == int(r.value) % 4 for r in recs)


def test_streaming_complete_mode(
    spark_kafka: Any, bootstrap: str, topic_name: str, stream_dirs: tuple[Path, Path]
) -> None:
    # Output mode complete calls streamWriter(overwrite=True); Kafka's sink appends the full result.
    src, checkpoint = stream_dirs
    _write_json_rows(src, "part-0", range(30))
    counts = _file_stream(spark_kafka, src).groupBy((col("id") % 3).alias("g")).count()
    q = (
        counts.selectExpr("cast(g AS string) AS key", "cast(`count` AS string) AS value")
        .writeStream.format("pykafka")
        .outputMode("complete")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", topic_name)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    run_stream(q)
    assert {(r.key, r.value) for r in read_topic(bootstrap, topic_name)} == {
        (b"0", b"10"),
        (b"1", b"10"),
        (b"2", b"10"),
    }


def test_streaming_producer_error_fails_query(
    spark_kafka: Any, bootstrap: str, topic_name: str, stream_dirs: tuple[Path, Path]
) -> None:
    from pyspark.errors import StreamingQueryException

    src, checkpoint = stream_dirs
    create_topic(bootstrap, topic_name, 1, {"max.message.bytes": "1000"})
    _write_json_rows(src, "part-0", range(3))
    q = (
        _file_stream(spark_kafka, src)
        .selectExpr("repeat(k, 2000) AS value")
        .writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", topic_name)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    with pytest.raises(StreamingQueryException) as info:
        run_stream(q)
    assert "MSG_SIZE_TOO_LARGE" in error_text(info.value)


BAD_STREAM_CASES = [
    ("no-bootstrap", ["k AS value"], {"kafka.bootstrap.servers": None}, ["kafka.bootstrap.servers"]),
    ("value-serializer", ["k AS value"], {"kafka.value.serializer": "x"}, ["'value.serializer'", "not supported"]),
    ("value-long", ["id AS value"], {}, ["column 'value'", "string or binary"]),
    ("no-topic", ["k AS value"], {"topic": None}, ["needs a topic"]),
]


@pytest.mark.parametrize(
    ("select", "options", "expected"), [c[1:] for c in BAD_STREAM_CASES], ids=[c[0] for c in BAD_STREAM_CASES]
)
def test_bad_option_or_column_fails_stream_before_writing(
    spark_kafka: Any,
    bootstrap: str,
    topic_name: str,
    stream_dirs: tuple[Path, Path],
    select: list[str],
    options: dict[str, str | None],
    expected: list[str],
) -> None:
    # Spark runs no Python code of a sink at start(): the writer (and its checks) is created when
    # the first micro-batch is planned, so the query terminates there, before any task runs.
    from pyspark.errors import StreamingQueryException

    src, checkpoint = stream_dirs
    _write_json_rows(src, "part-0", range(3))
    opts: dict[str, str | None] = {"kafka.bootstrap.servers": bootstrap, "topic": topic_name, **options}
    w = _file_stream(spark_kafka, src).selectExpr(*select).writeStream.format("pykafka")
    for k, v in opts.items():
        if v is not None:
            w = w.option(k, v)
    q = w.option("checkpointLocation", str(checkpoint)).trigger(availableNow=True).start()
    with pytest.raises(StreamingQueryException) as info:
        run_stream(q)
    text = error_text(info.value)
    for part in expected:
        assert part in text, f"{part!r} not in {text}"
    assert topic_name not in topic_names(bootstrap)
