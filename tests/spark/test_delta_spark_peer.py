"""delta-spark (the JVM peer, run by peers/delta_spark.py in its own pyspark) against the tables
our ``pykafka-delta`` sink writes: it reads them, sees our app transactions (``txn`` actions) in the
log, streams from them with ``readStream.format("delta")``, and a delta-spark writer committing to
the same table while our sink streams into it leaves a table both sides read whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deltalake import DeltaTable

from broker_embedded import EmbeddedBroker
from peers import delta_spark
from tests.spark.source_helpers import create_topic, mixed_records, produce, source_options

pytestmark = [pytest.mark.timeout(400), pytest.mark.slow]


@pytest.fixture(scope="module", autouse=True)
def _delta_peer() -> None:
    reason = delta_spark.available()
    if reason:
        import os

        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def _kafka_to_delta(spark: Any, broker: EmbeddedBroker, topic: str, path: str, checkpoint: Path, per: int) -> Any:
    return (
        spark.readStream.format("pykafka")
        .options(**source_options(broker, subscribe=topic, startingOffsets="earliest", includeHeaders="true"))
        .option("maxOffsetsPerTrigger", str(per))
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start(path)
    )


def test_delta_spark_reads_streams_and_sees_our_txns(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, mixed_records(150, 3, seed=11))
    path = str(tmp_path / "t")
    q = _kafka_to_delta(spark, broker, topic_name, path, tmp_path / "ck", per=70)
    q.awaitTermination(180)
    assert q.exception() is None
    ours = DeltaTable(path)
    seen = delta_spark.run("read-stream", path)
    assert seen["rows"] == len(acked)
    assert seen["duplicate_positions"] == 0
    assert seen["version"] == ours.version()
    assert seen["columns"][:5] == ["key", "value", "topic", "partition", "offset"]
    # our app transactions, as delta-spark's snapshot holds them: one per source partition with
    # the next offset, and the query's (queryId -> last batch id)
    ends = {p: 1 + max(r.offset for r in acked if r.partition == p) for p in range(3)}
    per_partition = {k: v for k, v in seen["txns"].items() if k.endswith(tuple(f":{topic_name}:{p}" for p in ends))}
    assert {int(k.rsplit(":", 1)[1]): v for k, v in per_partition.items()} == ends
    for app_id, version in seen["txns"].items():
        assert ours.transaction_version(app_id) == version
    query_txns = set(seen["txns"]) - set(per_partition)
    assert len(query_txns) == 1 and seen["txns"][query_txns.pop()] >= 2  # 150 / 70: three batches
    # readStream.format("delta") over the whole table
    assert seen["stream_rows"] == len(acked)


def test_delta_spark_writer_and_our_sink_commit_concurrently(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 2)
    first = produce(broker, topic_name, mixed_records(20, 2, seed=12))
    path, checkpoint = str(tmp_path / "t"), tmp_path / "ck"
    q = _kafka_to_delta(spark, broker, topic_name, path, checkpoint, per=100)  # creates the table
    q.awaitTermination(180)
    assert q.exception() is None
    more = produce(broker, topic_name, mixed_records(300, 2, seed=13))
    writer = delta_spark.popen("append", path, "25", "12", "delta-spark")
    try:
        # our stream: 300 records, 20 per batch = 15 commits, racing delta-spark's 12
        q = _kafka_to_delta(spark, broker, topic_name, path, checkpoint, per=20)
        q.awaitTermination(300)
        assert q.exception() is None
        out, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err[-4000:]
    finally:
        if writer.poll() is None:
            writer.kill()
    seen = delta_spark.run("read", path)
    assert seen["by_topic"] == {topic_name: len(first) + len(more), "delta-spark": 300}
    assert seen["duplicate_positions"] == 0
    assert seen["versions"] == list(range(seen["version"] + 1)), "a commit is missing from the log"
    # delta-rs reads the same table whole too, and our offsets are where the records end
    ours = DeltaTable(path)
    assert ours.version() == seen["version"]
    assert ours.to_pyarrow_table().num_rows == len(first) + len(more) + 300
    ends = {}
    for r in first + more:
        ends[r.partition] = max(ends.get(r.partition, 0), r.offset + 1)
    per_partition = {k: v for k, v in seen["txns"].items() if f":{topic_name}:" in k}
    assert {int(k.rsplit(":", 1)[1]): v for k, v in per_partition.items()} == ends
