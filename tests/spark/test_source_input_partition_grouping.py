"""Option `maxPartitions` in Spark: at most N tasks per read, the same records as one task per partition.

Spark's Kafka source (and ours without the option) makes one task per topic-partition; with
`maxPartitions` a task reads several partitions' ranges in turn (connector.source.input_partition).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from tests.spark.source_helpers import collect, create_topic, produce, source_options

pytestmark = pytest.mark.timeout(240)


def test_batch_and_stream_read_the_same_records_in_fewer_tasks(
    spark: Any, broker: EmbeddedBroker, topic_name: str, tmp_path: Path
) -> None:
    create_topic(broker, topic_name, 4)
    acked = sorted(produce(broker, topic_name, [(i % 4, b"k%d" % i, b"v%d" % i, None) for i in range(200)]))

    # without the option one task per topic-partition (4): tests/unit/test_source_input_partition_grouping.py
    grouped = spark.read.format("pykafka").options(**source_options(broker, subscribe=topic_name, maxPartitions="2"))
    grouped = grouped.load()
    assert grouped.rdd.getNumPartitions() == 2
    assert collect(grouped) == acked

    tasks: list[int] = []
    seen: list[Any] = []

    def sink(df: Any, batch_id: int) -> None:
        tasks.append(df.rdd.getNumPartitions())
        seen.extend(collect(df))

    opts = source_options(broker, subscribe=topic_name, startingOffsets="earliest", maxOffsetsPerTrigger="100",
                          maxPartitions="1")  # fmt: skip
    q = (
        spark.readStream.format("pykafka")
        .options(**opts)
        .load()
        .writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(tmp_path / "cp"))
        .trigger(availableNow=True)
        .start()
    )
    try:
        assert q.awaitTermination(120), "AvailableNow must stop by itself"
    finally:
        q.stop()
    assert len(tasks) == 2 and set(tasks) == {1}, tasks  # 2 micro-batches of 100 records, one task each
    assert sorted(seen) == acked
