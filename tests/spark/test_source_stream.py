"""Streaming reads with `spark.readStream.format("pykafka")`: micro-batches, admission control
(maxOffsetsPerTrigger, minOffsetsPerTrigger + maxTriggerDelay), real multi-batch Trigger.AvailableNow,
restarts from a checkpoint, new partitions and topics, data loss, and the lag helpers.

The sink is `foreachBatch` into a dict keyed by batch id: a replayed batch replaces its earlier
attempt (an idempotent sink), so any record seen twice was really read twice.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from connector import LagListener, source_lag
from tests.spark.source_helpers import (
    Rec,
    add_partitions,
    create_topic,
    mixed_records,
    produce,
    rows_to_recs,
    source_options,
    wait_until,
)

pytestmark = pytest.mark.timeout(240)

COLUMNS = ["topic", "partition", "offset", "key", "value", "unix_millis(timestamp) AS ts", "timestampType"]


class BatchSink:
    """foreachBatch target: rows per batch id (replays overwrite), in the test process."""

    def __init__(self, with_headers: bool = False) -> None:
        self.batches: dict[int, list[Rec]] = {}
        self.tasks: dict[int, int] = {}  # batch id -> Spark partitions (tasks) of the batch
        self.with_headers = with_headers
        self.lock = threading.Lock()

    def __call__(self, df: Any, batch_id: int) -> None:
        cols = COLUMNS + (["headers"] if self.with_headers else [])
        recs = rows_to_recs(df.selectExpr(*cols).collect(), self.with_headers)
        tasks = df.rdd.getNumPartitions()
        with self.lock:
            self.batches[batch_id] = recs
            self.tasks[batch_id] = tasks

    def records(self) -> list[Rec]:
        with self.lock:
            return sorted(r for b in self.batches.values() for r in b)

    def positions(self) -> list[tuple[str, int, int]]:
        with self.lock:
            return [(r.topic, r.partition, r.offset) for b in self.batches.values() for r in b]

    def sizes(self) -> list[int]:
        with self.lock:
            return [len(self.batches[k]) for k in sorted(self.batches)]


@contextmanager
def streaming(spark: Any, options: dict[str, str], sink: BatchSink, checkpoint: Path, **trigger: Any) -> Iterator[Any]:
    q = (
        spark.readStream.format("pykafka")
        .options(**options)
        .load()
        .writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(checkpoint))
        .trigger(**(trigger or {"processingTime": "100 milliseconds"}))
        .start()
    )
    try:
        yield q
    finally:
        q.stop()


def test_stream_matches_produced_with_headers(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, mixed_records(90, 3, seed=1), codec="gzip")
    sink = BatchSink(with_headers=True)
    opts = source_options(
        broker, subscribe=topic_name, startingOffsets="earliest", includeHeaders="true", minPartitions="6"
    )
    with streaming(spark, opts, sink, tmp_path) as q:
        q.processAllAvailable()
        assert sink.records() == acked
        assert max(sink.tasks.values()) >= 6  # minPartitions splits the 3 Kafka partitions' ranges
        acked += produce(broker, topic_name, mixed_records(60, 3, seed=2), codec="zstd")
        q.processAllAvailable()
        assert sink.records() == sorted(acked)
        assert len(sink.positions()) == 150


def test_available_now_runs_several_batches_and_stops(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 4)
    acked = produce(broker, topic_name, [(i % 4, None, b"%d" % i, None) for i in range(100)])
    stop = threading.Event()

    def keep_producing() -> None:
        # records arriving while the query runs are beyond the offsets fixed at its start
        while not stop.is_set():
            produce(broker, topic_name, [(0, None, b"late", None)])
            time.sleep(0.05)

    sink = BatchSink()
    opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest", maxOffsetsPerTrigger="30")
    producer = threading.Thread(target=keep_producing, daemon=True)
    producer.start()
    try:
        with streaming(spark, opts, sink, tmp_path, availableNow=True) as q:
            assert q.awaitTermination(120), "AvailableNow must stop by itself"
            progress = q.recentProgress
    finally:
        stop.set()
        producer.join()
    sizes = sink.sizes()
    assert len(sizes) >= 4 and all(0 < n <= 30 for n in sizes), sizes
    got = sink.records()
    assert {(r.partition, r.offset) for r in acked} <= {(r.partition, r.offset) for r in got}
    assert len(sink.positions()) == len(set(sink.positions()))
    last = progress[-1].sources[0]
    assert json.loads(last.endOffset) == json.loads(last.latestOffset)  # drained up to the target


def test_restart_from_checkpoint_neither_skips_nor_repeats(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, [(i % 3, b"k", b"a%d" % i, None) for i in range(60)])
    sink = BatchSink()
    checkpoint = tmp_path / "cp"
    opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest", maxOffsetsPerTrigger="10")
    with streaming(spark, opts, sink, checkpoint):
        wait_until(lambda: len(sink.batches) >= 2, what="two micro-batches")
    # stopped mid-way (more records were available); more arrive while it is down
    assert 0 < len(sink.positions()) < 60
    acked += produce(broker, topic_name, [(i % 3, b"k", b"b%d" % i, None) for i in range(45)])
    with streaming(spark, opts, sink, checkpoint, availableNow=True) as q:
        assert q.awaitTermination(120)
    assert all(n <= 10 for n in sink.sizes())
    positions = sink.positions()
    assert len(positions) == len(set(positions)) == 105  # nothing read twice
    assert sink.records() == sorted(acked)  # nothing skipped
    # the checkpointed offsets: {"topic": {"partition": next_offset}}, keys sorted as strings
    last_file = max((checkpoint / "offsets").iterdir(), key=lambda p: int(p.name) if p.name.isdigit() else -1)
    text = last_file.read_text().splitlines()[-1]
    offsets = json.loads(text)
    assert offsets == {topic_name: {str(p): 35 for p in range(3)}}
    assert text == json.dumps(offsets, sort_keys=True)


def test_new_partitions_and_topics_are_picked_up(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    a, b = f"{topic_name}-a", f"{topic_name}-b"
    create_topic(broker, a, 2)
    produce(broker, a, [(i % 2, None, b"before-start", None) for i in range(4)])
    sink = BatchSink()
    # default startingOffsets for a stream is latest: the 4 records above are not read
    opts = source_options(broker, subscribePattern=f"{topic_name}-.*")
    with streaming(spark, opts, sink, tmp_path) as q:
        q.processAllAvailable()
        first = produce(broker, a, [(i % 2, None, b"x%d" % i, None) for i in range(6)])
        q.processAllAvailable()
        assert sink.records() == first
        add_partitions(broker, a, 4)
        create_topic(broker, b, 1)
        later = produce(broker, a, [(2 + i % 2, None, b"y%d" % i, None) for i in range(6)])
        later += produce(broker, b, [(0, None, b"z%d" % i, None) for i in range(3)])
        # new partitions and new matching topics are read from their earliest offset
        wait_until(lambda: (q.processAllAvailable() or True) and len(sink.positions()) == 15, what="new partitions")
        assert sink.records() == sorted(first + later)


def test_starting_timestamp_on_a_stream(spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path) -> None:
    create_topic(broker, topic_name, 2)
    base = (int(time.time()) - 600) * 1000
    acked = produce(
        broker,
        topic_name,
        [(i % 2, None, b"%d" % i, None) for i in range(10)],
        timestamps=[base + 1000 * i for i in range(10)],
    )
    sink = BatchSink()
    opts = source_options(broker, subscribe=topic_name, startingTimestamp=str(base + 4000))
    with streaming(spark, opts, sink, tmp_path, availableNow=True) as q:
        assert q.awaitTermination(120)
    assert sink.records() == [r for r in acked if r.timestamp_ms >= base + 4000]


def test_fail_on_data_loss_when_offsets_age_out(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    from pyspark.errors import StreamingQueryException

    create_topic(broker, topic_name, 1)
    produce(broker, topic_name, [(0, None, b"%d" % i, None) for i in range(20)])
    sink = BatchSink()
    opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest")
    with streaming(spark, opts, sink, tmp_path / "cp", availableNow=True) as q:
        assert q.awaitTermination(120)
    assert len(sink.positions()) == 20
    # while the query is down, 20 more arrive and retention removes offsets below 30
    produce(broker, topic_name, [(0, None, b"%d" % i, None) for i in range(20, 40)])
    broker.call(lambda br: br.partition(topic_name, 0).delete_records_before(30))
    with streaming(spark, opts, sink, tmp_path / "cp", availableNow=True) as q:
        with pytest.raises(StreamingQueryException, match="Cannot fetch offset 20 .*failOnDataLoss"):
            q.awaitTermination(120)
    # the same checkpoint with failOnDataLoss=false skips the lost offsets and goes on
    lenient = dict(opts, failOnDataLoss="false")
    with streaming(spark, lenient, sink, tmp_path / "cp", availableNow=True) as q:
        assert q.awaitTermination(120)
    assert sorted(o for _, _, o in sink.positions()) == list(range(20)) + list(range(30, 40))


@pytest.mark.parametrize("fail", [True, False])
def test_deleted_topic(spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path, fail: bool) -> None:
    from pyspark.errors import StreamingQueryException

    keep, gone = f"{topic_name}-keep", f"{topic_name}-gone"
    create_topic(broker, keep, 1)
    create_topic(broker, gone, 1)
    produce(broker, gone, [(0, None, b"g", None)])
    sink = BatchSink()
    opts = source_options(
        broker, subscribe=f"{keep},{gone}", startingOffsets="earliest", failOnDataLoss=str(fail).lower()
    )
    with streaming(spark, opts, sink, tmp_path) as q:
        q.processAllAvailable()
        broker.call(lambda br: br.delete_topic(gone))
        produce(broker, keep, [(0, None, b"k%d" % i, None) for i in range(3)])
        if fail:
            with pytest.raises(StreamingQueryException, match="are gone"):
                q.awaitTermination(60)
        else:
            wait_until(lambda: len([p for p in sink.positions() if p[0] == keep]) == 3, what="the kept topic")
            assert q.isActive


def test_min_offsets_per_trigger_waits_up_to_max_trigger_delay(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    # The exact timing (never delayed first, at most maxTriggerDelay, the idle re-arm) is
    # tests/unit/test_trigger_delay.py on a fake clock; here Spark really holds batches back and lets
    # them go. The delay restarts at every planning that does not hold back (as in Spark), so a
    # wall-clock window from the produce cannot be asserted: batch sizes show what waited for what.
    create_topic(broker, topic_name, 2)
    produce(broker, topic_name, [(i % 2, None, b"a", None) for i in range(10)])
    sink = BatchSink()
    opts = source_options(
        broker, subscribe=topic_name, startingOffsets="earliest", minOffsetsPerTrigger="50", maxTriggerDelay="120s"
    )
    with streaming(spark, opts, sink, tmp_path / "min"):
        # the first batch is not delayed (as in Spark: nothing triggered yet)
        wait_until(lambda: sink.sizes() == [10], what="first batch")
        produce(broker, topic_name, [(i % 2, None, b"b", None) for i in range(10)])
        time.sleep(2.0)  # ~20 planning rounds at the 100 ms trigger: 10 < minOffsetsPerTrigger holds them back
        assert sink.sizes() == [10]
        # enough new offsets: the waiting 10 and these 60 go in one batch, long before 120 s
        produce(broker, topic_name, [(i % 2, None, b"c", None) for i in range(60)])
        wait_until(lambda: sink.sizes() == [10, 70], timeout=60, what="minOffsetsPerTrigger reached")

    # a short maxTriggerDelay lets fewer than minOffsetsPerTrigger through once it has passed
    delayed = f"{topic_name}-d"
    create_topic(broker, delayed, 2)
    produce(broker, delayed, [(i % 2, None, b"a", None) for i in range(10)])
    sink = BatchSink()
    opts = source_options(
        broker, subscribe=delayed, startingOffsets="earliest", minOffsetsPerTrigger="50", maxTriggerDelay="2s"
    )
    with streaming(spark, opts, sink, tmp_path / "delay"):
        wait_until(lambda: sink.sizes() == [10], what="first batch")
        produce(broker, delayed, [(i % 2, None, b"b", None) for i in range(10)])
        wait_until(lambda: sink.sizes() == [10, 10], timeout=60, what="maxTriggerDelay passed")


def test_lag_listener_and_source_lag(spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path) -> None:
    create_topic(broker, topic_name, 2)
    produce(broker, topic_name, [(i % 2, None, b"%d" % i, None) for i in range(40)])
    listener = LagListener()
    spark.streams.addListener(listener)
    try:
        sink = BatchSink()
        opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest", maxOffsetsPerTrigger="10")
        with streaming(spark, opts, sink, tmp_path, availableNow=True) as q:
            assert q.awaitTermination(120)
            wait_until(lambda: len(listener.history(q.id)) >= 4, timeout=20, what="listener events")
            history = listener.history(q.id)
            lag = source_lag(q)
    finally:
        spark.streams.removeListener(listener)
    # 40 offsets, 10 per batch: 30, 20, 10, then 0 behind latest (split over two partitions)
    totals = [s.total for _, s in history]
    assert totals[:4] == [30, 20, 10, 0], totals
    assert history[0][1].max == 15 and history[0][1].min == 15 and history[0][1].avg == 15.0
    assert lag is not None and lag.total == 0 and lag.per_partition == {f"{topic_name}-0": 0, f"{topic_name}-1": 0}
