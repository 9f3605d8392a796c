"""The pykafka source's ``kafka.isolation.level=read_committed`` against real transactional producers
(confluent-kafka's, i.e. librdkafka's) and a real transaction coordinator (Apache Kafka).

One topic, 3 partitions, written by: a producer whose transactions commit (across partitions), one
whose transactions abort (across partitions, and interleaved batch by batch with a committed one
in the same partition), a plain producer, and one transaction left open on partition 0, which holds
that partition's last stable offset (LSO) while later committed records pile up behind it.

Spark's batch and streaming reads must show exactly what a read_committed librdkafka consumer
shows (same positions, same keys): no aborted record, nothing at or beyond an open transaction's
first offset, and, once the open transaction aborts, the records behind it and never its own. The
stream's end offsets reach each partition's log end, control batches (markers) and aborted ranges
included, so a stream never stalls on them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from tests.spark.eos_helpers import create_topics, read_to_end

pytestmark = pytest.mark.timeout(300)

PARTITIONS = 3
COMMITTED = "read_committed"


@pytest.fixture(scope="module", params=["apache", "ours"])
def txn_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A broker with a transaction coordinator: Apache Kafka (the session's peer), then ours."""
    if request.param == "apache":
        yield request.getfixturevalue("apache_kafka")
        return
    from broker_embedded import EmbeddedBroker

    with EmbeddedBroker(num_partitions=4) as broker:
        yield broker


def _txn_producer(bootstrap: str, name: str) -> Producer:
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"{name}-{uuid.uuid4().hex[:8]}", "linger.ms": 0})
    p.init_transactions(60)
    return p


def _send(p: Producer, topic: str, partition: int, keys: list[str]) -> None:
    for k in keys:
        p.produce(topic, key=k.encode(), value=b"x", partition=partition)
    assert p.flush(30) == 0  # each call its own batch(es): transactions interleave batch by batch


def _write_scenario(bootstrap: str, topic: str) -> Producer:
    """Returns the producer whose transaction on partition 0 is still open."""
    plain = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    committer = _txn_producer(bootstrap, "committer")
    aborter = _txn_producer(bootstrap, "aborter")
    opener = _txn_producer(bootstrap, "opener")

    committer.begin_transaction()
    for p in range(PARTITIONS):
        _send(committer, topic, p, [f"c1-{p}-{i}" for i in range(5)])
    committer.commit_transaction(30)

    aborter.begin_transaction()
    for p in range(PARTITIONS):
        _send(aborter, topic, p, [f"a1-{p}-{i}" for i in range(5)])
    aborter.abort_transaction(30)

    for p in range(PARTITIONS):
        _send(plain, topic, p, [f"n-{p}-{i}" for i in range(3)])

    # Two transactions at once in partition 1, batches alternating: one commits, one aborts.
    committer.begin_transaction()
    aborter.begin_transaction()
    for i in range(4):
        _send(committer, topic, 1, [f"c2-1-{i}"])
        _send(aborter, topic, 1, [f"a2-1-{i}", f"a2-1-{i}b"])
    _send(aborter, topic, 2, ["a2-2-0"])
    aborter.abort_transaction(30)
    committer.commit_transaction(30)

    # An open transaction on partition 0, then committed records behind it on 0 and 2.
    opener.begin_transaction()
    _send(opener, topic, 0, [f"o-0-{i}" for i in range(4)])
    committer.begin_transaction()
    _send(committer, topic, 0, [f"c3-0-{i}" for i in range(3)])
    _send(committer, topic, 2, [f"c3-2-{i}" for i in range(3)])
    committer.commit_transaction(30)
    return opener


def _spark_rows(df: Any) -> list[tuple[int, int, bytes]]:
    return sorted(
        (r["partition"], r["offset"], bytes(r["key"])) for r in df.select("partition", "offset", "key").collect()
    )


def _librdkafka_rows(bootstrap: str, topic: str, isolation: str = COMMITTED) -> list[tuple[int, int, bytes]]:
    return sorted((p, o, k) for p, o, k, _ in read_to_end(bootstrap, topic, isolation=isolation) if k is not None)


def _log_ends(bootstrap: str, topic: str) -> dict[str, int]:
    # read_uncommitted: librdkafka's default (read_committed) would answer the LSO, not the log end
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "ends", "isolation.level": "read_uncommitted"})
    try:
        return {str(p): c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(PARTITIONS)}
    finally:
        c.close()


class Collect:
    """foreachBatch target (runs in the test process): rows per batch id, replays overwrite."""

    def __init__(self) -> None:
        self.batches: dict[int, list[tuple[int, int, bytes]]] = {}

    def __call__(self, df: Any, batch_id: int) -> None:
        self.batches[batch_id] = _spark_rows(df)

    def rows(self) -> list[tuple[int, int, bytes]]:
        return sorted(r for rows in self.batches.values() for r in rows)


def _stream(spark: Any, bootstrap: str, topic: str, sink: Collect, checkpoint: Path) -> Any:
    q = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("kafka.isolation.level", COMMITTED)
        .option("maxOffsetsPerTrigger", "20")  # several batches, so batch edges fall inside transactions
        .load()
        .writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    q.awaitTermination(180)
    assert q.exception() is None, q.exception()
    return q


def test_read_committed_batch_and_stream_match_librdkafka(spark: Any, txn_broker: Any, tmp_path: Path) -> None:
    bootstrap = txn_broker.bootstrap_servers
    topic = f"txn-mixed-{uuid.uuid4().hex[:8]}"
    create_topics(bootstrap, [topic], PARTITIONS)
    opener = _write_scenario(bootstrap, topic)

    expected = _librdkafka_rows(bootstrap, topic)
    keys = {k.decode() for _, _, k in expected}
    assert not any(k.startswith(("a1-", "a2-", "o-")) for k in keys)
    assert {f"c3-2-{i}" for i in range(3)} <= keys and not any(k.startswith("c3-0-") for k in keys)  # LSO
    # read_uncommitted sees the aborted and the open records: they are in the log
    everything = {k.decode() for _, _, k in _librdkafka_rows(bootstrap, topic, "read_uncommitted")}
    assert {"a1-0-0", "a2-1-3b", "a2-2-0", "o-0-3", "c3-0-2"} <= everything

    batch = spark.read.format("pykafka").options(
        **{"kafka.bootstrap.servers": bootstrap, "subscribe": topic, "kafka.isolation.level": COMMITTED}
    )
    assert _spark_rows(batch.load()) == expected
    uncommitted = spark.read.format("pykafka").options(**{"kafka.bootstrap.servers": bootstrap, "subscribe": topic})
    assert {k.decode() for _, _, k in _spark_rows(uncommitted.load())} == everything

    sink = Collect()
    checkpoint = tmp_path / "checkpoint"
    q = _stream(spark, bootstrap, topic, sink, checkpoint)
    assert sink.rows() == expected
    ends = json.loads(q.lastProgress["sources"][0]["endOffset"])[topic]
    log_ends = _log_ends(bootstrap, topic)
    assert ends["0"] < log_ends["0"]  # held at the open transaction's first offset (the LSO)
    assert {p: ends[p] for p in ("1", "2")} == {p: log_ends[p] for p in ("1", "2")}  # markers included

    # The open transaction aborts: the LSO moves to the log end; what was behind it appears, its own never.
    opener.abort_transaction(30)
    after = _librdkafka_rows(bootstrap, topic)
    assert {f"c3-0-{i}" for i in range(3)} <= {k.decode() for _, _, k in after}
    q = _stream(spark, bootstrap, topic, sink, checkpoint)
    assert sink.rows() == after
    assert len(sink.rows()) == len(set(sink.rows()))  # nothing read twice across the restart
    assert json.loads(q.lastProgress["sources"][0]["endOffset"])[topic] == _log_ends(bootstrap, topic)
    assert _spark_rows(batch.load()) == after
