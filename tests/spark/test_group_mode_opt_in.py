"""Issue 20: `kafka.group.id` keeps the meaning of Spark's Kafka source; group mode is the explicit
opt-in `groupMode` = `true`.

Without the opt-in, queries sharing a group id each read every partition and nothing is committed;
with it they split the partitions. Group-only options without the opt-in, a group-mode checkpoint
restarted without it, and bad values fail at start naming the options.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from broker_embedded import EmbeddedBroker
from connector.group_lag import GroupLagError, group_lag
from connector.options import SourceOptionError, parse_source_options, validate_batch, validate_stream
from connector.source.reader import PyKafkaStreamReader
from offsets.group_offsets import GroupMark, encode_group_offsets
from tests.spark.source_helpers import create_topic, produce, wait_until

pytestmark = pytest.mark.timeout(240)

BOOT = "127.0.0.1:9092"
FAST_GROUP = {
    "kafka.session.timeout.ms": "6000",
    "kafka.heartbeat.interval.ms": "500",
    "kafka.max.poll.interval.ms": "10000",
    "kafka.metadata.max.age.ms": "1000",
}


def _opts(**kw: str) -> dict[str, str]:
    return {"kafka.bootstrap.servers": BOOT, "subscribe": "t", **kw}


# --- options ------------------------------------------------------------------------------------


def test_group_id_alone_is_not_group_mode_and_names_the_client() -> None:
    opts = parse_source_options(_opts(**{"kafka.group.id": "team-acl"}))
    assert opts.group is None and opts.group_id == "team-acl" and opts.client.client_id == "team-acl"
    validate_stream(opts)
    validate_batch(opts)
    # the group id alone is fine with `assign` too (it was refused in group mode)
    validate_stream(parse_source_options({"kafka.bootstrap.servers": BOOT, "assign": '{"t":[0]}',
                                          "kafka.group.id": "g"}))  # fmt: skip
    # groupIdPrefix keeps Spark's meaning: the prefix of the generated id when there is no group id
    assert parse_source_options(_opts(groupIdPrefix="etl")).client.client_id.startswith("etl-")
    on = parse_source_options(_opts(**{"kafka.group.id": "g", "groupMode": "True"}))
    assert on.group is not None and on.group.group_id == "g"
    assert parse_source_options(_opts(**{"kafka.group.id": "g", "groupMode": "false"})).group is None


@pytest.mark.parametrize(
    ("extra", "phrases"),
    [
        ({"groupMode": "yes", "kafka.group.id": "g"}, ["'groupMode'", "'true' or 'false'"]),
        ({"groupMode": "true"}, ["'groupMode'", "'kafka.group.id'"]),
        # our group-only options: they meant group mode before; now they name the opt-in
        ({"kafka.group.id": "g", "offsetsTable": "/tmp/t"}, ["'offsetsTable'", "'groupMode'", "'kafka.group.id'"]),
        ({"kafka.group.id": "g", "groupPlanLog": "/tmp/p"}, ["'groupPlanLog'", "'groupMode'", "'kafka.group.id'"]),
        ({"offsetsTable": "/tmp/t"}, ["only valid in group mode", "'groupMode'"]),
        ({"groupMode": "false", "kafka.group.id": "g", "offsetsTable": "/tmp/t"}, ["'groupMode'"]),
        # Kafka's membership settings with a group id: ambiguous, both options named
        *[
            ({"kafka.group.id": "g", f"kafka.{k}": v}, ["Ambiguous", f"'kafka.{k}'", "'groupMode'", "'kafka.group.id'"])
            for k, v in (
                ("partition.assignment.strategy", "range"),
                ("group.instance.id", "q1"),
                ("session.timeout.ms", "6000"),
                ("heartbeat.interval.ms", "500"),
                ("max.poll.interval.ms", "10000"),
            )
        ],
    ],
)
def test_group_only_options_without_the_opt_in_fail(extra: dict[str, str], phrases: list[str]) -> None:
    with pytest.raises(SourceOptionError) as e:
        parse_source_options(_opts(**extra))
    for phrase in phrases:
        assert phrase in str(e.value), str(e.value)


def test_group_mode_in_a_batch_read_fails() -> None:
    opts = parse_source_options(_opts(**{"kafka.group.id": "g", "groupMode": "true"}))
    with pytest.raises(SourceOptionError, match="'groupMode' is only valid in streaming"):
        validate_batch(opts)


def test_a_group_mode_checkpoint_without_the_opt_in_fails_naming_both_options() -> None:
    # offsets of a query that ran in group mode when `kafka.group.id` switched it on
    start = encode_group_offsets({("t", 0): 10}, GroupMark(3, "m-1", {}))
    reader = PyKafkaStreamReader(parse_source_options(_opts(**{"kafka.group.id": "g"})))
    with pytest.raises(SourceOptionError) as e:
        reader.latestOffset(start, ReadAllAvailable())
    assert "'groupMode'" in str(e.value) and "'kafka.group.id'" in str(e.value)


def test_ambiguous_options_fail_at_load_in_spark(spark: Any) -> None:
    df = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", BOOT)
        .option("subscribe", "t")
        .option("kafka.group.id", "billing")
        .option("offsetsTable", "/tmp/billing")
    )
    with pytest.raises(Exception) as e:  # noqa: PT011 - Spark wraps the Python error
        df.load()
    assert "'groupMode'" in str(e.value) and "'kafka.group.id'" in str(e.value)


# --- queries ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with EmbeddedBroker(tmp_path_factory.mktemp("group-opt-in")) as b:
        yield b


def _query(spark: Any, broker: EmbeddedBroker, topic: str, group: str, ckpt: Path, **extra: str) -> tuple[Any, str]:
    name = f"gi_{uuid.uuid4().hex[:8]}"
    q = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", broker.bootstrap_servers)
        .option("subscribe", topic)
        .option("kafka.group.id", group)
        .option("startingOffsets", "earliest")
        .options(**extra)
        .load()
        .selectExpr("partition", "offset")
        .writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", str(ckpt))
        .trigger(processingTime="500 milliseconds")
        .start()
    )
    return q, name


def _rows(spark: Any, name: str) -> list[tuple[int, int]]:
    return [(r["partition"], r["offset"]) for r in spark.sql(f"SELECT * FROM {name}").collect()]


def test_two_queries_sharing_a_group_id_each_read_every_partition(
    spark: Any, broker: EmbeddedBroker, tmp_path: Path
) -> None:
    topic, group = f"gi-{uuid.uuid4().hex[:8]}", f"team-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    acked = produce(broker, topic, [(i % 4, None, b"v%d" % i, None) for i in range(120)])
    total = sorted((r.partition, r.offset) for r in acked)
    # two pipelines of one team, running at the same time (started one after the other: a Python
    # worker that starts slowly on a loaded machine fails the query, Spark waits only 10 s for it)
    queries: list[tuple[Any, str]] = []
    try:
        for i in range(2):
            queries.append(_query(spark, broker, topic, group, tmp_path / f"ck{i}"))
            name = queries[-1][1]
            wait_until(lambda name=name: len(_rows(spark, name)) >= len(total), timeout=120, what=f"{name} reads all")
        # both running: new records reach both of them too
        acked += produce(broker, topic, [(i % 4, None, b"w%d" % i, None) for i in range(40)])
        total = sorted((r.partition, r.offset) for r in acked)
        for _q, name in queries:
            wait_until(lambda name=name: len(_rows(spark, name)) >= len(total), timeout=120, what=f"{name} reads more")
        time.sleep(1.0)  # a second look: nothing read twice either
        for q, name in queries:
            assert q.exception() is None
            assert sorted(_rows(spark, name)) == total  # every partition, every record, once
    finally:
        for q, _ in queries:
            q.stop()
    # nothing was committed to the group and nobody joined it (the coordinator does not know it)
    with pytest.raises(GroupLagError, match="GROUP_ID_NOT_FOUND"):
        group_lag(broker.bootstrap_servers, group, topics=[topic])


def _members(broker: EmbeddedBroker, group: str, topic: str) -> list[tuple[tuple[str, int], ...]]:
    try:
        return list(group_lag(broker.bootstrap_servers, group, topics=[topic]).members.values())
    except GroupLagError:  # GROUP_ID_NOT_FOUND until the first member joins
        return []


def test_with_the_opt_in_two_queries_split_the_partitions(spark: Any, broker: EmbeddedBroker, tmp_path: Path) -> None:
    topic, group = f"gi-{uuid.uuid4().hex[:8]}", f"billing-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    extra = {"groupMode": "true", **FAST_GROUP}
    queries: list[tuple[Any, str]] = []
    try:
        for i in range(2):  # one after the other (see above); the second joins a running member
            queries.append(_query(spark, broker, topic, group, tmp_path / f"ck{i}", **extra))
            wait_until(lambda i=i: len(_members(broker, group, topic)) == i + 1, timeout=120, what=f"member {i + 1}")
        # both members hold two partitions before any data exists: no handover can replay a range
        wait_until(
            lambda: sorted(len(tps) for tps in _members(broker, group, topic)) == [2, 2],
            timeout=120,
            what="a 2/2 split",
        )
        acked = produce(broker, topic, [(i % 4, None, b"v%d" % i, None) for i in range(120)])
        total = sorted((r.partition, r.offset) for r in acked)
        wait_until(
            lambda: sum(len(_rows(spark, n)) for _, n in queries) >= len(total), timeout=120, what="the whole topic"
        )
        time.sleep(1.0)
        a, b = (_rows(spark, n) for _, n in queries)
        assert sorted(a + b) == total  # every record once, across the two queries
        assert {p for p, _ in a}.isdisjoint({p for p, _ in b}) and a and b
    finally:
        for q, _ in queries:
            q.stop()
