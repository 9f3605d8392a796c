"""Spark's own Kafka connector (``format("kafka")``, the JVM peer from peers/pom.xml) and ours
(``format("pykafka")``) side by side, on the same broker (ours), the same data and the same
options: the same rows at the same offsets, the same option semantics (startingOffsets /
endingOffsets JSON and timestamps, maxOffsetsPerTrigger, failOnDataLoss, headers), and sinks that
write the same records. Every case runs for both formats and compares with what was produced,
so a difference between them fails one of the pair.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import StreamingQueryException

from broker_embedded import EmbeddedBroker
from tests.spark.source_helpers import collect, create_topic, mixed_records, produce, source_options
from tests.spark.test_sink import read_topic

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]

FORMATS = ["kafka", "pykafka"]


@pytest.fixture(scope="module")
def session(spark_with: Any) -> Any:
    s = spark_with(kafka=True)
    from connector.datasource import PyKafkaDataSource

    s.dataSource.register(PyKafkaDataSource)
    return s


@pytest.fixture(params=FORMATS)
def fmt(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="module")
def data(broker: EmbeddedBroker) -> tuple[str, list[Any]]:
    """One topic for the read cases: 3 partitions, keys/values/headers (some null), two codecs."""
    topic = f"parity-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    recs = mixed_records(240, 3, seed=7)
    acked = produce(broker, topic, recs[:120], codec="lz4") + produce(broker, topic, recs[120:], codec="zstd")
    return topic, sorted(acked)


def _read(spark: Any, fmt: str, **options: str) -> Any:
    reader = spark.read.format(fmt)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def test_batch_same_rows_offsets_and_headers(session: Any, broker: EmbeddedBroker, data: Any, fmt: str) -> None:
    topic, acked = data
    df = _read(session, fmt, **source_options(broker, subscribe=topic, includeHeaders="true"))
    assert [f.name for f in df.schema.fields] == [
        "key",
        "value",
        "topic",
        "partition",
        "offset",
        "timestamp",
        "timestampType",
        "headers",
    ]
    assert collect(df, with_headers=True) == acked


def test_batch_offsets_json(session: Any, broker: EmbeddedBroker, data: Any, fmt: str) -> None:
    topic, acked = data
    start = json.dumps({topic: {"0": 5, "1": -2, "2": 30}})
    end = json.dumps({topic: {"0": 50, "1": 10, "2": -1}})
    df = _read(session, fmt, **source_options(broker, subscribe=topic, startingOffsets=start, endingOffsets=end))
    expected = [
        r
        for r in acked
        if (r.partition == 0 and 5 <= r.offset < 50)
        or (r.partition == 1 and r.offset < 10)
        or (r.partition == 2 and r.offset >= 30)
    ]
    assert collect(df) == [_no_headers(r) for r in expected]


def _no_headers(r: Any) -> Any:
    return r.__class__(r.topic, r.partition, r.offset, r.key, r.value, r.timestamp_ms, r.timestamp_type)


def test_batch_timestamps(session: Any, broker: EmbeddedBroker, topic_name: str, fmt: str) -> None:
    create_topic(broker, topic_name, 2)
    t0 = int(time.time() * 1000) - 100_000
    recs = [(i % 2, b"k%d" % i, b"v%d" % i, None) for i in range(40)]
    acked = produce(broker, topic_name, recs, timestamps=[t0 + 1000 * i for i in range(40)], **{"linger.ms": 0})
    # the first record at or after t0+10s .. before the first at or after t0+30s, in every partition
    options = source_options(
        broker,
        subscribe=topic_name,
        startingOffsetsByTimestamp=json.dumps({topic_name: {"0": t0 + 10_000, "1": t0 + 10_000}}),
        endingOffsetsByTimestamp=json.dumps({topic_name: {"0": t0 + 30_000, "1": t0 + 30_000}}),
    )
    got = collect(_read(session, fmt, **options))
    assert got == [_no_headers(r) for r in acked if t0 + 10_000 <= r.timestamp_ms < t0 + 30_000]
    # startingTimestamp: the same for every partition
    got = collect(
        _read(session, fmt, **source_options(broker, subscribe=topic_name, startingTimestamp=str(t0 + 35_000)))
    )
    assert got == [_no_headers(r) for r in acked if r.timestamp_ms >= t0 + 35_000]


def test_stream_max_offsets_per_trigger(
    session: Any, broker: EmbeddedBroker, data: Any, fmt: str, tmp_path: Path
) -> None:
    """availableNow with maxOffsetsPerTrigger=100 over 240 records: the same batches for both."""
    topic, acked = data
    batches: list[tuple[int, int]] = []
    rows: list[Any] = []

    def each(df: Any, batch_id: int) -> None:
        got = collect(df)
        batches.append((batch_id, len(got)))
        rows.extend(got)

    stream = session.readStream.format(fmt)
    for k, v in source_options(broker, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="100").items():
        stream = stream.option(k, v)
    q = (
        stream.load()
        .writeStream.foreachBatch(each)
        .option("checkpointLocation", str(tmp_path / "cp"))
        .trigger(availableNow=True)
        .start()
    )
    try:
        assert q.awaitTermination(180)
        assert q.exception() is None
    finally:
        q.stop()
    assert sorted(rows) == [_no_headers(r) for r in acked]
    sizes = [n for _, n in sorted(batches) if n]
    # The one deliberate difference (README, "Differences"): with 80 records in each of 3 partitions
    # Spark floors each partition's share (3 x 33 = 99 per batch); ours hands out the remainder
    # too (largest remainder), so a batch reads exactly maxOffsetsPerTrigger when that much waits.
    assert sizes == ([99, 99, 42] if fmt == "kafka" else [100, 100, 40]), sizes


def test_fail_on_data_loss(session: Any, broker: EmbeddedBroker, topic_name: str, fmt: str, tmp_path: Path) -> None:
    """Offsets deleted under a checkpoint: true fails the query, false skips to the log start."""
    create_topic(broker, topic_name, 1)
    acked = produce(broker, topic_name, [(0, None, b"v%d" % i, None) for i in range(40)])

    def run(cp: str, extra: dict[str, str]) -> tuple[list[Any], Any]:
        rows: list[Any] = []
        stream = session.readStream.format(fmt)
        for k, v in source_options(broker, subscribe=topic_name, **extra).items():
            stream = stream.option(k, v)
        q = (
            stream.load()
            .writeStream.foreachBatch(lambda df, _id: rows.extend(collect(df)))
            .option("checkpointLocation", cp)
            .trigger(availableNow=True)
            .start()
        )
        try:
            q.awaitTermination(180)
            return rows, q.exception()
        except StreamingQueryException as e:
            return rows, e
        finally:
            q.stop()

    cp = str(tmp_path / "cp")
    rows, exc = run(cp, {"startingOffsets": "earliest", "maxOffsetsPerTrigger": "20"})
    assert exc is None and len(rows) == 40
    produce(broker, topic_name, [(0, None, b"w%d" % i, None) for i in range(20)])
    broker.call(lambda br: br.partition(topic_name, 0).delete_records_before(50))
    rows, exc = run(cp, {"startingOffsets": "earliest"})
    assert exc is not None, "failOnDataLoss=true (the default) must fail the query"
    assert "lost" in str(exc)
    rows, exc = run(cp, {"startingOffsets": "earliest", "failOnDataLoss": "false"})
    assert exc is None
    assert sorted(r.offset for r in rows) == list(range(50, 60))
    assert len(acked) == 40


def test_sink_writes_the_same_records(session: Any, broker: EmbeddedBroker, fmt: str) -> None:
    topic = f"parity-sink-{fmt}-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    df = session.range(0, 600, numPartitions=3).selectExpr(
        "concat('k', id) AS key",
        "cast(concat('value-', id) AS binary) AS value",
        "CAST(id % 3 AS int) AS partition",
        "CASE WHEN id % 2 = 0 THEN NULL ELSE array(named_struct('key', 'h', 'value', cast(id AS string)::binary)) END"
        " AS headers",
    )
    writer = df.write.format(fmt).option("kafka.bootstrap.servers", broker.bootstrap_servers).option("topic", topic)
    if fmt == "pykafka":
        # Spark's Kafka sink accepts the default save mode (ErrorIfExists) as an append; pyspark's
        # Python data sources refuse it before our code runs: say mode("append") (README, "Differences")
        with pytest.raises(Exception, match="UNSUPPORTED_DATA_SOURCE_SAVE_MODE"):
            writer.save()
    writer.mode("append").save()
    recs = read_topic(broker.bootstrap_servers, topic)
    assert len(recs) == 600
    for r in recs:
        i = int(r.key[1:])
        assert r.partition == i % 3 and r.value == b"value-%d" % i
        assert r.headers == (() if i % 2 == 0 else (("h", str(i).encode()),))
    # within a partition, each Spark task's rows keep their order
    for p in range(3):
        ids = [int(r.key[1:]) for r in sorted(recs, key=lambda r: r.offset) if r.partition == p]
        assert sorted(ids) == list(range(p, 600, 3))
