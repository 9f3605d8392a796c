"""Group mode on Kafka 4's consumer group protocol (`kafka.group.protocol` = `consumer`, KIP-848) against
our broker: partitions move one by one, a revocation commits the batch that reads them before releasing
them, and a batch that outlasts its partitions never commits them.

The first test drives `PyKafkaStreamReader` the way Spark's driver-side process does (as
test_group_mode.py does) next to plain `GroupMember`s; the second runs two streaming queries of one
group, joining and leaving, and checks every record lands in their sinks exactly once. The
broker-free logic (option checks, stale-epoch retries, fencing) is in
tests/unit/test_group_mode_consumer_protocol.py.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable

from broker_embedded import EmbeddedBroker
from connector.options import parse_source_options, validate_stream
from connector.source.reader import PyKafkaStreamReader, read_partition
from consumer_group import CommitFailedError, Generation, GroupMember, TopicPartition
from kafka_wire.errors import ErrorCode
from offsets.group_offsets import decode_group_offsets
from tests.spark.source_helpers import create_topic, produce, wait_until

pytestmark = pytest.mark.timeout(120)

# the consumer protocol's session and heartbeat are the broker's (Kafka refuses them client-side)
FAST_CONSUMER_GROUPS = {
    "group.consumer.heartbeat.interval.ms": 500,
    "group.consumer.min.heartbeat.interval.ms": 500,
    "group.consumer.session.timeout.ms": 10_000,
    "group.consumer.min.session.timeout.ms": 6_000,
}


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(tmp_path_factory.mktemp("group-mode-848"), **FAST_CONSUMER_GROUPS) as b:
        yield b


def _options(b: EmbeddedBroker, topic: str, group: str, max_poll_ms: int) -> dict[str, str]:
    return {
        "kafka.bootstrap.servers": b.bootstrap_servers,
        "subscribe": topic,
        "kafka.group.id": group,
        "groupMode": "true",
        "kafka.group.protocol": "consumer",
        "startingOffsets": "earliest",
        # the coordinator's rebalance timeout; a revocation waits at most half of it for a batch
        "kafka.max.poll.interval.ms": str(max_poll_ms),
        "kafka.default.api.timeout.ms": "20000",
        "kafka.metadata.max.age.ms": "1000",
    }


def _member(b: EmbeddedBroker, group: str, topic: str, seen: dict[tuple[str, int], int | None]) -> GroupMember:
    """A plain consumer-protocol member that notes the group's committed offset of each partition it gains."""

    def assigned(parts: frozenset[TopicPartition]) -> None:
        for tp, om in member.committed(parts, timeout=10).items():
            seen[(tp.topic, tp.partition)] = None if om is None else om.offset

    member = GroupMember(
        b.bootstrap_servers,
        group,
        [topic],
        group_protocol="consumer",
        session_timeout_ms=10_000,
        heartbeat_interval_ms=500,
        rebalance_timeout_ms=10_000,
        on_partitions_assigned=assigned,
    )
    return member


def _owned(member: GroupMember) -> set[tuple[str, int]]:
    return {(tp.topic, tp.partition) for tp in member.assignment()}


def _committed(member: GroupMember, tps: set[tuple[str, int]]) -> dict[tuple[str, int], int | None]:
    got = member.committed([TopicPartition(*tp) for tp in tps], timeout=10)
    return {(tp.topic, tp.partition): None if om is None else om.offset for tp, om in got.items()}


def _read(reader: PyKafkaStreamReader, start: dict, end: dict) -> int:
    # partitions() of a stream reader are KafkaInputPartitions (typed as Spark's InputPartition)
    return sum(b.num_rows for p in reader.partitions(start, end) for b in read_partition(p))  # type: ignore[arg-type]


def test_revoked_mid_batch_commit_before_release_and_a_late_batch_commits_only_what_it_owns(
    broker: EmbeddedBroker,
) -> None:
    topic, group = f"gm848-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    produce(broker, topic, [(i % 4, None, b"v", None) for i in range(40)])
    opts = parse_source_options(_options(broker, topic, group, max_poll_ms=4000))
    validate_stream(opts)
    a = PyKafkaStreamReader(opts)
    b_seen: dict[tuple[str, int], int | None] = {}
    c_seen: dict[tuple[str, int], int | None] = {}
    b = _member(broker, group, topic, b_seen)
    c = _member(broker, group, topic, c_seen)
    every = {(topic, p) for p in range(4)}
    try:
        # batch 1: a alone plans all four partitions (the mark records its member epoch)
        s1 = a.initialOffset()
        e1 = a.latestOffset(s1, ReadAllAvailable())
        offsets1, mark1 = decode_group_offsets(e1)
        assert offsets1 == {tp: 10 for tp in every} and mark1 is not None and mark1.generation > 0
        assert _read(a, s1, e1) == 40
        # b joins while batch 1 runs: a gives two partitions up, but keeps them until batch 1 is done
        b.start()
        session = a._group
        assert session is not None
        wait_until(lambda: len(session._revoking) == 2, timeout=30, what="a's revocation")
        moving = set(session._revoking)
        assert not moving & set(session.view().owned)  # out of a's planning at once
        assert not moving & _owned(b)  # not released while batch 1 reads them
        a.commit(e1)  # Spark committed batch 1 to its sink
        wait_until(lambda: _owned(b) == moving and b.is_stable(), timeout=30, what="b owning the moved partitions")
        # committed before the release: b resumes exactly where a's batch ended
        assert b_seen == {tp: 10 for tp in moving}
        assert _committed(b, every) == {tp: 10 for tp in every}

        # b leaves: a gets everything back (its own two never stopped), resumes b's at the group's offsets
        b.close(10)
        wait_until(lambda: set(session.view().owned) == every, timeout=30, what="a owning all partitions")
        produce(broker, topic, [(i % 4, None, b"w", None) for i in range(20)])
        e2 = a.latestOffset(e1, ReadAllAvailable())
        offsets2, mark2 = decode_group_offsets(e2)
        assert offsets2 == {tp: 15 for tp in every} and mark2 is not None
        assert mark2.starts == {tp: 10 for tp in moving}

        # c joins while batch 2 runs, and batch 2 outlasts the revocation budget (2 s): the partitions go
        # at the last finished end, and batch 2's late end is committed for what a still owns only
        c.start()
        wait_until(lambda: len(c_seen) == 2 and c.is_stable(), timeout=30, what="c owning two partitions")
        gone = set(c_seen)
        kept = every - gone
        assert c_seen == {tp: 10 for tp in gone}  # batch 2 was not known to be in the sink: not committed
        c.commit({TopicPartition(*tp): 12 for tp in gone})  # c consumed two records of each
        a.commit(e2)  # batch 2 finishes late
        assert _committed(c, every) == {**{tp: 15 for tp in kept}, **{tp: 12 for tp in gone}}
        assert session.refused_commits == 0
        # a zombie commit at the epoch batch 2 was planned in is refused by the coordinator
        with pytest.raises(CommitFailedError) as refused:
            a_member = session.member
            zombie = Generation(mark2.generation, mark2.member_id, "consumer")
            a_member.commit({TopicPartition(*sorted(gone)[0]): 15}, generation=zombie, timeout=10)
        assert refused.value.code == ErrorCode.STALE_MEMBER_EPOCH
    finally:
        c.close(10)
        b.close(10)
        a.stop()


def test_stream_on_the_consumer_protocol_reads_every_record_once_as_members_join_and_leave(
    spark: Any, broker: EmbeddedBroker, tmp_path: Path
) -> None:
    topic, group = f"gm848-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    names = {q: f"gm848_{q}_{uuid.uuid4().hex[:8]}" for q in ("a", "b")}

    def start(q: str) -> Any:
        return (
            spark.readStream.format("pykafka")
            .options(**_options(broker, topic, group, max_poll_ms=20_000))
            .load()
            .selectExpr("partition", "offset")
            .writeStream.format("memory")
            .queryName(names[q])
            .option("checkpointLocation", str(tmp_path / f"ckpt-{q}"))
            .trigger(processingTime="300 milliseconds")
            .start()
        )

    def rows(q: str) -> list[tuple[int, int]]:
        return [(r["partition"], r["offset"]) for r in spark.sql(f"SELECT * FROM {names[q]}").collect()]

    acked: list[tuple[int, int]] = []

    def send(n: int) -> None:
        acked.extend(
            (r.partition, r.offset) for r in produce(broker, topic, [(i % 4, None, b"v", None) for i in range(n)])
        )

    queries: dict[str, Any] = {}
    try:
        queries["a"] = start("a")
        send(20)
        wait_until(lambda: len(rows("a")) >= 20, timeout=60, what="query a's first records")
        # b joins while records keep coming: two partitions move, a's other two go on
        queries["b"] = start("b")
        deadline = time.monotonic() + 60
        while not rows("b"):  # records keep coming until b owns partitions and reads some
            assert time.monotonic() < deadline, "query b read nothing"
            send(8)
            wait_until(lambda: len(rows("a")) + len(rows("b")) >= len(acked), timeout=60, what="both sinks")
        # b leaves once its last batch is committed (the group's offsets reached the end of the log)
        from confluent_kafka import ConsumerGroupTopicPartitions
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})

        def group_offsets() -> dict[int, int]:
            fut = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group]
            return {tp.partition: tp.offset for tp in fut.result(timeout=20).topic_partitions}

        ends = {p: 1 + max(o for q, o in acked if q == p) for p in range(4)}
        wait_until(lambda: group_offsets() == ends, timeout=60, what="every finished batch committed")
        queries.pop("b").stop()
        send(40)
        wait_until(lambda: len(rows("a")) + len(rows("b")) >= len(acked), timeout=60, what="a taking b's partitions")
        got = rows("a") + rows("b")
        assert sorted(got) == sorted(acked)  # every record exactly once across the two sinks
        assert {p for p, _ in rows("b")} and len({p for p, _ in rows("a")}) == 4
    finally:
        for q in queries.values():
            q.stop()
