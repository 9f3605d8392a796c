"""Batch reads with `spark.read.format("pykafka")` against the embedded broker, compared record by record
with what confluent-kafka produced (and the broker acknowledged)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from connector.source.arrow import spark_schema
from kafka_wire.records import build_batch, build_control_batch
from tests.spark.source_helpers import (
    CODECS,
    collect,
    create_topic,
    mixed_records,
    produce,
    source_options,
    without_headers,
)

pytestmark = pytest.mark.timeout(240)


def read(spark: Any, **options: str) -> Any:
    return spark.read.format("pykafka").options(**options).load()


@pytest.fixture(scope="module")
def codecs_topic(broker: EmbeddedBroker) -> tuple[str, list]:
    """4 partitions written by five producers, one per codec: fetches mix codecs."""
    topic = "codecs"
    create_topic(broker, topic, 4)
    acked = []
    for i, codec in enumerate(CODECS):
        acked += produce(broker, topic, mixed_records(60, 4, seed=i), codec=codec)
    return topic, sorted(acked)


def test_auto_registered_and_schema(spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]) -> None:
    # no spark.dataSource.register call anywhere: pyspark found pyspark_pykafka.DefaultSource
    df = read(spark, **source_options(broker, subscribe=codecs_topic[0]))
    assert df.schema == spark_schema(False)
    assert [f.nullable for f in df.schema.fields] == [True] * 7
    dfh = read(spark, **source_options(broker, subscribe=codecs_topic[0], includeHeaders="true"))
    assert dfh.schema == spark_schema(True)
    assert dfh.schema.simpleString().endswith("headers:array<struct<key:string,value:binary>>>")


def test_all_codecs_with_headers_record_by_record(
    spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]
) -> None:
    topic, acked = codecs_topic
    got = collect(read(spark, **source_options(broker, subscribe=topic, includeHeaders="true")), with_headers=True)
    assert len(got) == 300
    assert got == acked


def test_without_headers_and_small_fetches(spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]) -> None:
    topic, acked = codecs_topic
    # kafka.max.partition.fetch.bytes=1: one batch per Fetch (KIP-74), many round trips per task;
    # kafka.check.crcs and kafka.fetch.max.wait.ms pass through to the client
    opts = source_options(
        broker,
        subscribe=topic,
        **{"kafka.max.partition.fetch.bytes": "1", "kafka.check.crcs": "false", "kafka.fetch.max.wait.ms": "10"},
    )
    assert collect(read(spark, **opts)) == without_headers(acked)


def test_log_append_time(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    create_topic(broker, topic_name, 1, {"message.timestamp.type": "LogAppendTime"})
    before = int(time.time() * 1000)
    produce(broker, topic_name, [(0, b"k", b"v%d" % i, None) for i in range(5)], timestamps=[1000] * 5)
    got = collect(read(spark, **source_options(broker, subscribe=topic_name)))
    assert [r.timestamp_type for r in got] == [1] * 5
    assert all(r.timestamp_ms >= before for r in got)  # the broker's clock, not the producer's 1000


def test_starting_and_ending_offsets_json(spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]) -> None:
    topic, acked = codecs_topic
    start = {topic: {"0": 10, "1": -2, "2": 70, "3": -2}}
    end = {topic: {"0": 20, "1": 5, "2": -1, "3": 0}}
    got = collect(
        read(
            spark,
            **source_options(broker, subscribe=topic, startingOffsets=json.dumps(start), endingOffsets=json.dumps(end)),
        )
    )
    latest = {p: max(r.offset for r in acked if r.partition == p) + 1 for p in range(4)}
    lo = {0: 10, 1: 0, 2: 70, 3: 0}
    hi = {0: 20, 1: 5, 2: latest[2], 3: 0}
    assert got == [r for r in without_headers(acked) if lo[r.partition] <= r.offset < hi[r.partition]]
    # explicit earliest/latest keywords are the defaults
    both = read(spark, **source_options(broker, subscribe=topic, startingOffsets="earliest", endingOffsets="latest"))
    assert both.count() == 300


def test_subscribe_pattern_and_assign(spark: Any, broker: EmbeddedBroker) -> None:
    for name, n in (("pat-a", 1), ("pat-b", 2), ("other-c", 1)):
        create_topic(broker, name, n)
        produce(broker, name, [(i % n, None, b"%s-%d" % (name.encode(), i), None) for i in range(6)])
    got = collect(read(spark, **source_options(broker, subscribePattern="pat-.*")))
    assert {r.topic for r in got} == {"pat-a", "pat-b"} and len(got) == 12
    # the pattern must match the whole name, as Java's Pattern.matches does
    assert read(spark, **source_options(broker, subscribePattern="pat")).count() == 0
    got = collect(read(spark, **source_options(broker, assign=json.dumps({"pat-b": [1], "other-c": [0]}))))
    assert {(r.topic, r.partition) for r in got} == {("pat-b", 1), ("other-c", 0)} and len(got) == 9
    got = collect(read(spark, **source_options(broker, subscribe="pat-a, other-c")))
    assert {r.topic for r in got} == {"pat-a", "other-c"}


def test_min_partitions_and_max_records_per_partition(
    spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]
) -> None:
    topic, acked = codecs_topic
    df = read(spark, **source_options(broker, subscribe=topic, minPartitions="12"))
    assert df.rdd.getNumPartitions() >= 12
    assert collect(df) == without_headers(acked)
    df = read(spark, **source_options(broker, subscribe=topic, maxRecordsPerPartition="10"))
    assert df.rdd.getNumPartitions() == sum(-(-sum(1 for r in acked if r.partition == p) // 10) for p in range(4))
    assert collect(df) == without_headers(acked)
    df = read(spark, **source_options(broker, subscribe=topic))
    assert df.rdd.getNumPartitions() == 4  # one task per Kafka partition by default


def _timestamps_topic(broker: EmbeddedBroker, name: str, base: int) -> list:
    create_topic(broker, name, 2)
    # partition p, record i has timestamp base + 1000*i (CreateTime; recent, or retention drops it)
    recs = [(p, b"k", b"%d-%d" % (p, i), None) for i in range(10) for p in range(2)]
    stamps = [base + 1000 * i for i in range(10) for _ in range(2)]
    return produce(broker, name, recs, timestamps=stamps)


def test_timestamp_options(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    base = (int(time.time()) - 3600) * 1000
    acked = _timestamps_topic(broker, topic_name, base)
    t = topic_name

    def offsets(**kw: str) -> list[tuple[int, int]]:
        return [(r.partition, r.offset) for r in collect(read(spark, **source_options(broker, subscribe=t, **kw)))]

    assert len(acked) == 20
    # startingTimestamp: every partition from the first record with timestamp >= base + 4500
    assert offsets(startingTimestamp=str(base + 4500)) == [(p, o) for p in range(2) for o in range(5, 10)]
    # per-partition timestamps, ending by timestamp (exclusive offset of the first record >= ts)
    by_ts = json.dumps({t: {"0": base + 2000, "1": base + 8000}})
    assert offsets(startingOffsetsByTimestamp=by_ts) == [(0, o) for o in range(2, 10)] + [(1, 8), (1, 9)]
    assert offsets(endingTimestamp=str(base + 3000)) == [(p, o) for p in range(2) for o in range(3)]
    end_ts = json.dumps({t: {"0": base + 1000, "1": base + 999_000}})  # no match on 1 -> latest
    assert offsets(endingOffsetsByTimestamp=end_ts) == [(0, 0)] + [(1, o) for o in range(10)]
    # startingTimestamp wins over startingOffsets
    assert offsets(startingTimestamp=str(base + 9000), startingOffsets="earliest") == [(0, 9), (1, 9)]
    # no record at or after the timestamp: strategy error fails, latest reads nothing
    future = str(base + 999_000)
    with pytest.raises(Exception, match="No offset matched from request of topic-partition"):
        offsets(startingTimestamp=future)
    assert offsets(startingTimestamp=future, startingOffsetsByTimestampStrategy="latest") == []


def test_offset_gaps_from_compaction_and_transaction_markers(
    spark: Any, broker: EmbeddedBroker, topic_name: str
) -> None:
    """Batches at offsets 0-2, 10-12 (a compaction gap), a committed transaction 13-14 with its marker at
    15, then 16: the source reads by offset range and skips the marker."""
    create_topic(broker, topic_name, 1)
    ts = int(time.time() * 1000)
    raw = b"".join(
        [
            build_batch([(ts, b"a%d" % i, b"v%d" % i, None) for i in range(3)], base_offset=0),
            build_batch([(ts, b"b%d" % i, b"w%d" % i, None) for i in range(3)], base_offset=10, compression=3),
            build_batch([(ts, b"t", b"txn%d" % i, None) for i in range(2)], base_offset=13, producer_id=77,
                        producer_epoch=0, base_sequence=0, is_transactional=True),
            build_control_batch(77, 0, commit=True, coordinator_epoch=0, timestamp=ts, base_offset=15),
            build_batch([(ts, b"c", b"last", None)], base_offset=16),
        ]
    )  # fmt: skip

    def write(br: Any) -> None:
        log = br.partition(topic_name, 0).log
        log.append_as_follower(raw)
        log.update_high_watermark(log.log_end_offset)

    broker.call(write)
    offsets = [r.offset for r in collect(read(spark, **source_options(broker, subscribe=topic_name)))]
    assert offsets == [0, 1, 2, 10, 11, 12, 13, 14, 16]
    # ranges that start or end inside a gap or on the marker
    rng = {"startingOffsets": json.dumps({topic_name: {"0": 5}}), "endingOffsets": json.dumps({topic_name: {"0": 15}})}
    assert [r.offset for r in collect(read(spark, **source_options(broker, subscribe=topic_name, **rng)))] == [
        10, 11, 12, 13, 14
    ]  # fmt: skip
    # read_committed passes through (the transaction is committed: same records)
    rc = source_options(broker, subscribe=topic_name, **{"kafka.isolation.level": "read_committed"})
    assert [r.offset for r in collect(read(spark, **rc))] == [0, 1, 2, 10, 11, 12, 13, 14, 16]


def test_fail_on_data_loss(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    create_topic(broker, topic_name, 1)
    produce(broker, topic_name, [(0, None, b"%d" % i, None) for i in range(20)])
    broker.call(lambda br: br.partition(topic_name, 0).delete_records_before(8))
    start = json.dumps({topic_name: {"0": 3}})
    with pytest.raises(Exception, match="failOnDataLoss"):
        read(spark, **source_options(broker, subscribe=topic_name, startingOffsets=start)).collect()
    got = collect(
        read(spark, **source_options(broker, subscribe=topic_name, startingOffsets=start, failOnDataLoss="false"))
    )
    assert [r.offset for r in got] == list(range(8, 20))
    # earliest is the log start offset now
    assert [r.offset for r in collect(read(spark, **source_options(broker, subscribe=topic_name)))] == list(
        range(8, 20)
    )


def test_ending_offset_past_the_data_refused_early(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    # issue 33: beyond the latest offset the tasks waited kafkaConsumer.pollTimeoutMs for records that
    # did not exist; now the batch is refused when it is planned
    create_topic(broker, topic_name, 1)
    produce(broker, topic_name, [(0, None, b"x", None)])
    end = json.dumps({topic_name: {"0": 5}})
    opts = source_options(broker, subscribe=topic_name, endingOffsets=end, **{"kafkaConsumer.pollTimeoutMs": "60000"})
    t0 = time.monotonic()
    with pytest.raises(Exception, match=f"{topic_name}-0 ends at 5 but its latest offset is 1"):
        read(spark, **opts).collect()
    assert time.monotonic() - t0 < 60


def test_client_options_pass_through(spark: Any, broker: EmbeddedBroker, codecs_topic: tuple[str, list]) -> None:
    topic, acked = codecs_topic
    opts = source_options(
        broker,
        subscribe=topic,
        groupIdPrefix="my-prefix",
        **{
            "kafka.group.id": "my-group",  # names the group, as in Spark 3+ (group mode needs groupMode)
            "kafka.client.id": "my-client",
            "kafka.request.timeout.ms": "20000",
            "kafka.fetch.min.bytes": "1",
            "fetchOffset.numRetries": "1",
            "fetchOffset.retryIntervalMs": "50",
            "kafkaConsumer.pollTimeoutMs": "30000",
        },
    )
    assert collect(read(spark, **opts)) == without_headers(acked)


def test_empty_topic_and_unknown_topic(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    create_topic(broker, topic_name, 3)
    assert read(spark, **source_options(broker, subscribe=topic_name)).count() == 0
    # a missing topic fails the read, as in Spark's Kafka connector (issue 33: it read 0 rows)
    with pytest.raises(Exception, match="UNKNOWN_TOPIC_OR_PARTITION"):
        read(spark, **source_options(broker, subscribe="no-such-topic-anywhere")).count()
    with pytest.raises(Exception, match="do not exist"):
        read(spark, **source_options(broker, assign=json.dumps({topic_name: [7]}))).count()


def test_bulk_fetches_take_the_vectorized_path(spark: Any, broker: EmbeddedBroker, topic_name: str) -> None:
    """Thousands of records per Fetch response: decoded by Arrow kernels (the small tests above go
    through the record-by-record decoder); same answer, headers, nulls and 1 KB values included."""
    create_topic(broker, topic_name, 2)
    acked = produce(broker, topic_name, mixed_records(3000, 2, seed=7), codec="none", **{"linger.ms": 50})
    acked += produce(broker, topic_name, mixed_records(3000, 2, seed=8), codec="lz4", **{"linger.ms": 50})
    acked.sort()
    with_headers = read(spark, **source_options(broker, subscribe=topic_name, includeHeaders="true"))
    assert collect(with_headers, with_headers=True) == acked
    assert collect(read(spark, **source_options(broker, subscribe=topic_name))) == without_headers(acked)
    # a range that starts and ends inside fetched batches
    start = json.dumps({topic_name: {"0": 1234, "1": 17}})
    end = json.dumps({topic_name: {"0": 2999, "1": 2500}})
    ranged = read(spark, **source_options(broker, subscribe=topic_name, startingOffsets=start, endingOffsets=end))
    lo, hi = {0: 1234, 1: 17}, {0: 2999, 1: 2500}
    assert collect(ranged) == [r for r in without_headers(acked) if lo[r.partition] <= r.offset < hi[r.partition]]
