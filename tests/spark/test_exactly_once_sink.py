"""The pykafka sink's exactly-once mode (connector.sink.transactional) against a real transaction
coordinator (Apache Kafka, the session's JVM peer), read back with read_committed consumers.

* Spark: a stream whose last micro-batch is replayed (its entry in the checkpoint's commit log is
  removed, as after a driver crash between the tasks' commits and Spark's) writes every input
  record once; the at-least-once sink, same scenario, writes the replayed batch twice.
* Tasks directly (no Spark job): a zombie holding an open transaction with the same
  transactional id is fenced and its records are never visible to read_committed readers; a task
  retried after its commit writes nothing; the marker carries the batch id; a missing marker topic
  fails the task with nothing visible.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest
from confluent_kafka import KafkaException, Producer
from pyspark.sql.types import BinaryType, StructField, StructType

from connector.sink.transactional import parse_exactly_once_options, write_task_transaction
from connector.sink.writer import KafkaSinkWriteError, validate_sink_schema
from tests.spark.eos_helpers import committed_marker, create_topics, key_counts, produce_keyed, read_to_end

pytest.importorskip("confluent_kafka")

PARTITIONS = 3


@pytest.fixture(scope="module", params=["apache", "ours"])
def txn_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A broker with a transaction coordinator: Apache Kafka (the session's peer), then ours."""
    if request.param == "apache":
        yield request.getfixturevalue("apache_kafka")
        return
    from broker_embedded import EmbeddedBroker

    with EmbeddedBroker(num_partitions=4) as broker:
        yield broker


def _names(prefix: str) -> tuple[str, str]:
    tag = uuid.uuid4().hex[:8]
    return f"{prefix}-in-{tag}", f"{prefix}-out-{tag}"


def _run_stream(spark: Any, bootstrap: str, source: str, sink: str, checkpoint: Path, exactly_once: bool) -> Any:
    query = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", source)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", "60")
        .load()
        .selectExpr("key", "value")
        .writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("topic", sink)
        .option("exactlyOnce", str(exactly_once).lower())
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination(180)
    assert query.exception() is None, query.exception()
    return query


@pytest.mark.parametrize("exactly_once", [True, False], ids=["exactly-once", "at-least-once"])
def test_replayed_micro_batch_is_not_written_again(
    spark: Any, txn_broker: Any, tmp_path: Path, exactly_once: bool
) -> None:
    bootstrap = txn_broker.bootstrap_servers
    source, sink = _names("eos-replay")
    create_topics(bootstrap, [source, sink], PARTITIONS)
    keys = produce_keyed(bootstrap, source, 0, 120)
    checkpoint = tmp_path / "checkpoint"

    query = _run_stream(spark, bootstrap, source, sink, checkpoint, exactly_once)
    commits = checkpoint / "commits"
    last = max(int(name) for name in os.listdir(commits) if name.isdigit())
    assert last >= 1  # maxOffsetsPerTrigger=60 over 120 records: at least two micro-batches
    # A driver crash after the tasks committed but before Spark logged the batch as done: Spark
    # runs the same batch (same offsets, same task partitions) again at the next start.
    (commits / str(last)).unlink()
    (commits / f".{last}.crc").unlink(missing_ok=True)
    replay = _run_stream(spark, bootstrap, source, sink, checkpoint, exactly_once)
    assert replay.id == query.id
    assert max(int(name) for name in os.listdir(commits) if name.isdigit()) == last

    counts = key_counts(read_to_end(bootstrap, sink))
    if not exactly_once:
        # the same scenario shows what the exactly-once mode prevents: the replayed batch twice
        assert sorted(counts) == sorted(keys) and max(counts.values()) == 2
        return
    assert counts == dict.fromkeys(keys, 1)  # every input record exactly once, none lost
    # every task partition that wrote rows committed its marker with the last batch id
    for partition in range(PARTITIONS):
        offset, metadata = committed_marker(bootstrap, f"pykafka-eos-{query.id}-{partition}", sink)
        assert offset == last + 1, (partition, offset, metadata)
        fields = json.loads(metadata)
        assert (fields["queryId"], fields["batchId"], fields["partition"]) == (query.id, last, partition)


SCHEMA = StructType([StructField("key", BinaryType()), StructField("value", BinaryType())])


def _batch(prefix: str, n: int) -> pa.RecordBatch:
    return pa.RecordBatch.from_pydict(
        {"key": [b"%s-%d" % (prefix.encode(), i) for i in range(n)], "value": [b"v"] * n},
        schema=pa.schema([("key", pa.binary()), ("value", pa.binary())]),
    )


def _task(bootstrap: str, topic: str, **extra: str) -> tuple[Any, Any]:
    config = parse_exactly_once_options(
        {"kafka.bootstrap.servers": bootstrap, "topic": topic, "exactlyonce": "true", **extra}, streaming=True
    )
    return config, validate_sink_schema(SCHEMA, config.sink.topic)


def test_zombie_is_fenced_and_retry_after_commit_writes_nothing(txn_broker: Any) -> None:
    bootstrap = txn_broker.bootstrap_servers
    _, topic = _names("eos-zombie")
    create_topics(bootstrap, [topic], PARTITIONS)
    config, columns = _task(bootstrap, topic)
    query_id = str(uuid.uuid4())

    # The zombie: an earlier attempt of task 0 (or the task of a zombie driver), same transactional
    # id, records produced but not committed yet.
    zombie = Producer({"bootstrap.servers": bootstrap, "transactional.id": config.transactional_id(query_id, 0)})
    zombie.init_transactions(30)
    zombie.begin_transaction()
    for i in range(5):
        zombie.produce(topic, key=b"zombie-%d" % i, value=b"z")
    assert zombie.flush(30) == 0

    msg = write_task_transaction(config, columns, iter([_batch("b0", 10)]), query_id=query_id, batch_id=0, partition=0)
    assert (msg.records, msg.skipped, msg.batch_id) == (10, False, 0)
    with pytest.raises(KafkaException):  # fenced: the newer attempt bumped the epoch
        zombie.commit_transaction(30)

    # The same task retried after its commit (e.g. the executor was lost before Spark heard back).
    again = write_task_transaction(
        config, columns, iter([_batch("b0", 10)]), query_id=query_id, batch_id=0, partition=0
    )
    assert (again.records, again.skipped) == (0, True)
    write_task_transaction(config, columns, iter([_batch("b1", 4)]), query_id=query_id, batch_id=1, partition=0)

    committed = key_counts(read_to_end(bootstrap, topic))
    assert committed == {**{b"b0-%d" % i: 1 for i in range(10)}, **{b"b1-%d" % i: 1 for i in range(4)}}
    # the zombie's records are in the log (read_uncommitted sees them) but were aborted
    assert {b"zombie-%d" % i for i in range(5)} <= set(
        key_counts(read_to_end(bootstrap, topic, isolation="read_uncommitted"))
    )
    offset, metadata = committed_marker(bootstrap, config.transactional_id(query_id, 0), topic)
    assert offset == 2 and json.loads(metadata) == {"queryId": query_id, "batchId": 1, "partition": 0, "records": 4}


def test_missing_marker_topic_fails_the_task_with_nothing_visible(txn_broker: Any) -> None:
    bootstrap = txn_broker.bootstrap_servers
    _, topic = _names("eos-nomarker")
    create_topics(bootstrap, [topic], PARTITIONS)
    config, columns = _task(bootstrap, topic, **{"exactlyonce.markertopic": f"missing-{uuid.uuid4().hex[:8]}"})
    with pytest.raises(KafkaSinkWriteError, match=r"marker topic .* must be an existing topic"):
        write_task_transaction(config, columns, iter([_batch("x", 10)]), query_id="q", batch_id=0, partition=0)
    assert read_to_end(bootstrap, topic) == []


@pytest.fixture(scope="module", params=["apache-cluster", "ours-cluster"])
def txn_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Three brokers: the task's transaction coordinator, its group coordinator and the partition
    leaders are spread over them, so markers travel between brokers after EndTxn returns."""
    if request.param == "apache-cluster":
        yield request.getfixturevalue("apache_kafka_cluster")
        return
    from tests.integration.cluster_util import cluster

    with cluster(3, **{"transaction.state.log.num.partitions": 4}) as c:
        yield c


def test_replay_right_after_the_commit_writes_nothing_on_a_cluster(txn_cluster: Any) -> None:
    """KIP-447's window for the sink: a task retried right after its commit reads the marker its
    first attempt committed (OffsetFetch with require_stable waits for the markers instead of
    answering the previous batch id) and writes nothing, batch after batch."""
    bootstrap = txn_cluster.bootstrap_servers
    _, topic = _names("eos-window")
    create_topics(bootstrap, [topic], PARTITIONS, replication_factor=3)
    config, columns = _task(bootstrap, topic)
    query_id = str(uuid.uuid4())
    for batch_id in range(4):
        rows = _batch(f"b{batch_id}", 5)
        first = write_task_transaction(config, columns, iter([rows]), query_id=query_id, batch_id=batch_id, partition=0)
        assert (first.records, first.skipped) == (5, False)
        again = write_task_transaction(config, columns, iter([rows]), query_id=query_id, batch_id=batch_id, partition=0)
        assert (again.records, again.skipped) == (0, True), f"batch {batch_id} written twice"
    counts = key_counts(read_to_end(bootstrap, topic))
    assert counts == {b"b%d-%d" % (b, i): 1 for b in range(4) for i in range(5)}
