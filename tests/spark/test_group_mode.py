"""Group mode of the pykafka source (`groupMode` = `true` with `kafka.group.id`): options, the
offsets JSON, the driver-side reader as a consumer group member (split, rebalance, resume, fencing,
lag) and one in-process streaming query. The multi-process proof (separate Spark drivers, kill -9, a confluent-kafka
member) is in `test_group_mode_procs.py`.

The reader-level tests drive `PyKafkaStreamReader` the way Spark's driver-side process does
(initialOffset → latestOffset(start, limit) → partitions(start, end) → read), with several readers
in one process as members of one group on an embedded broker.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadMaxRows

from broker_embedded import EmbeddedBroker
from connector.group_lag import group_lag
from connector.options import (
    ASSIGNMENT_STRATEGIES,
    SourceOptionError,
    parse_source_options,
    validate_batch,
    validate_stream,
)
from connector.source.group_mode import GroupSession
from connector.source.reader import KafkaInputPartition, PyKafkaStreamReader, read_partition
from consumer_group import ASSIGNORS, CommitFailedError, GroupMember, TopicPartition
from offsets.group_offsets import (
    GROUP_KEY,
    GroupMark,
    batch_starts,
    decode_group_offsets,
    encode_group_offsets,
)
from offsets.spec import from_offset_json
from tests.spark.source_helpers import create_topic, produce, wait_until

pytestmark = pytest.mark.timeout(120)

BOOT = "127.0.0.1:9092"
FAST_GROUP = {
    "kafka.session.timeout.ms": "6000",
    "kafka.heartbeat.interval.ms": "500",
    "kafka.max.poll.interval.ms": "10000",
    "kafka.metadata.max.age.ms": "1000",
    "kafka.default.api.timeout.ms": "20000",
}


def _opts(**kw: str) -> dict[str, str]:
    # group mode is an explicit opt-in (issue 20): a group id in these tests means group mode
    opt_in = {"groupMode": "true"} if "kafka.group.id" in kw else {}
    return {"kafka.bootstrap.servers": BOOT, "subscribe": "t", **opt_in, **kw}


# --- options ------------------------------------------------------------------------------------


def test_group_options_defaults_and_kafka_names() -> None:
    opts = parse_source_options(_opts(**{"kafka.group.id": "billing", "offsetsTable": "/tmp/tbl"}))
    g = opts.group
    assert g is not None and g.group_id == "billing" and g.offsets_table == "/tmp/tbl"
    assert g.assignors == ("cooperative-sticky",)
    assert (g.session_timeout_ms, g.heartbeat_interval_ms, g.rebalance_timeout_ms) == (45_000, 3_000, 300_000)
    opts = parse_source_options(
        _opts(
            **{
                "kafka.group.id": "g",
                "kafka.partition.assignment.strategy": "org.apache.kafka.clients.consumer.RangeAssignor, roundrobin",
                "kafka.session.timeout.ms": "6000",
                "kafka.heartbeat.interval.ms": "1000",
                "kafka.group.instance.id": "q1",
            }
        )
    )
    assert opts.group is not None and opts.group.assignors == ("range", "roundrobin")
    assert opts.group.group_instance_id == "q1" and opts.group.session_timeout_ms == 6000
    assert parse_source_options(_opts()).group is None
    # every name we accept maps to an assignor consumer_group has
    assert set(ASSIGNMENT_STRATEGIES.values()) == set(ASSIGNORS)


@pytest.mark.parametrize(
    ("extra", "phrase"),
    [
        ({"kafka.group.id": " "}, "'kafka.group.id'"),
        ({"kafka.group.id": "g", "kafka.partition.assignment.strategy": "fair"}, "cooperative-sticky"),
        ({"kafka.group.id": "g", "kafka.partition.assignment.strategy": " , "}, "at least one"),
        ({"kafka.group.id": "g", "kafka.session.timeout.ms": "soon"}, "'kafka.session.timeout.ms'"),
        ({"kafka.group.id": "g", "kafka.session.timeout.ms": "0"}, "positive"),
        ({"kafka.group.id": "g", "kafka.heartbeat.interval.ms": "-1"}, "'kafka.heartbeat.interval.ms'"),
        (
            {"kafka.group.id": "g", "kafka.session.timeout.ms": "6000", "kafka.heartbeat.interval.ms": "6000"},
            "smaller than 'kafka.session.timeout.ms'",
        ),
        ({"kafka.group.id": "g", "kafka.max.poll.interval.ms": "x"}, "'kafka.max.poll.interval.ms'"),
        ({"kafka.group.id": "g", "kafka.default.api.timeout.ms": "0"}, "'kafka.default.api.timeout.ms'"),
        ({"kafka.group.id": "g", "offsetsTable": "  "}, "'offsetsTable'"),
        ({"kafka.group.id": "g", "groupPlanLog": ""}, "'groupPlanLog'"),
        ({"kafka.group.id": "g", "kafka.group.instance.id": ""}, "'kafka.group.instance.id'"),
        ({"offsetsTable": "/tmp/t"}, "only valid in group mode"),
        ({"groupPlanLog": "/tmp/p"}, "only valid in group mode"),
        ({"kafka.group.id": "g", "kafka.enable.auto.commit": "true"}, "enable.auto.commit"),
    ],
)
def test_bad_group_options(extra: dict[str, str], phrase: str) -> None:
    with pytest.raises(SourceOptionError, match=None) as e:
        parse_source_options(_opts(**extra))
    assert phrase in str(e.value), str(e.value)


def test_group_mode_needs_a_subscription_not_assign() -> None:
    opts = parse_source_options(
        {"kafka.bootstrap.servers": BOOT, "assign": '{"t": [0, 1]}', "kafka.group.id": "g", "groupMode": "true"}
    )
    with pytest.raises(SourceOptionError, match="'subscribe' or 'subscribePattern'"):
        validate_stream(opts)
    # a batch read only names its connections with the group id (as Spark's source)
    validate_batch(
        parse_source_options({"kafka.bootstrap.servers": BOOT, "assign": '{"t": [0, 1]}', "kafka.group.id": "g"})
    )
    opts = parse_source_options(
        _opts(**{"kafka.group.id": "g", "offsetsTable": "/tmp/t", "startingOffsets": "earliest"})
    )
    with pytest.raises(SourceOptionError, match="only valid in streaming"):
        validate_batch(opts)
    validate_stream(
        parse_source_options(
            {"kafka.bootstrap.servers": BOOT, "subscribePattern": "t.*", "kafka.group.id": "g", "groupMode": "true"}
        )
    )


# --- the offsets JSON -------------------------------------------------------------------------------


def test_group_offsets_json_round_trip_and_order() -> None:
    mark = GroupMark(7, "m-1", {("b", 3): 120})
    enc = encode_group_offsets({("b", 3): 150, ("a", 0): 10, ("b", 10): 5}, mark)
    text = json.dumps(enc)
    assert text == json.dumps(enc, sort_keys=True)  # Spark compares offsets as JSON text
    assert list(enc) == sorted(enc)
    offsets, back = decode_group_offsets(json.loads(text))
    assert offsets == {("b", 3): 150, ("a", 0): 10, ("b", 10): 5} and back == mark
    # plain readers (lag from progress) skip the mark: "@" is not a legal topic character
    assert from_offset_json(enc) == offsets and GROUP_KEY.startswith("@")
    assert decode_group_offsets({"a": {"0": 1}}) == ({("a", 0): 1}, None)


def test_batch_starts_continue_or_take_the_recorded_start() -> None:
    prev = encode_group_offsets({("t", 0): 100, ("t", 1): 50}, GroupMark(3, "m", {}))
    end = encode_group_offsets({("t", 0): 130, ("t", 2): 80}, GroupMark(4, "m", {("t", 2): 60}))
    # t-0 continues, t-1 was revoked (not read), t-2 was gained at 60
    assert batch_starts(prev, end) == {("t", 0): 100, ("t", 2): 60}
    assert batch_starts({}, encode_group_offsets({("t", 5): 9}, GroupMark(1, "m", {("t", 5): 0}))) == {("t", 5): 0}
    with pytest.raises(KeyError, match="t-2"):
        batch_starts(prev, encode_group_offsets({("t", 2): 80}, GroupMark(4, "m", {})))


# --- the reader as a group member -------------------------------------------------------------


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(tmp_path_factory.mktemp("group-mode-broker")) as b:
        yield b


def _reader(b: EmbeddedBroker, topic: str, group: str, **kw: str) -> PyKafkaStreamReader:
    options = {
        "kafka.bootstrap.servers": b.bootstrap_servers,
        "subscribe": topic,
        "kafka.group.id": group,
        "groupMode": "true",
        "startingOffsets": "earliest",
        **FAST_GROUP,
        **kw,
    }
    opts = parse_source_options(options)
    validate_stream(opts)
    return PyKafkaStreamReader(opts)


def _ranges(reader: PyKafkaStreamReader, start: dict, end: dict) -> dict[tuple[str, int], tuple[int, int]]:
    parts = reader.partitions(start, end)
    out: dict[tuple[str, int], tuple[int, int]] = {}
    for p in parts:
        assert isinstance(p, KafkaInputPartition)
        lo, hi = out.get((p.topic, p.partition), (p.from_offset, p.until_offset))
        out[(p.topic, p.partition)] = (min(lo, p.from_offset), max(hi, p.until_offset))
    return out


def _read_all(reader: PyKafkaStreamReader, start: dict, end: dict) -> list[tuple[int, int]]:
    rows = []
    for p in reader.partitions(start, end):
        for batch in read_partition(p):  # type: ignore[arg-type]
            d = batch.to_pydict()
            rows += list(zip(d["partition"], d["offset"], strict=True))
    return rows


def _owned(reader: PyKafkaStreamReader) -> frozenset[tuple[str, int]]:
    assert reader._group is not None
    return reader._group.view().owned


def _stable(*readers: PyKafkaStreamReader, total: int) -> bool:
    views = [r._group.view() for r in readers if r._group is not None]
    owned = [v.owned for v in views]
    return (
        len({v.generation for v in views}) == 1
        and sum(len(o) for o in owned) == total
        and len(frozenset().union(*owned)) == total
        and all(r._group is not None and r._group.member.is_stable() for r in readers)
    )


def test_readers_split_the_topic_and_hand_over_with_broker_offsets(broker: EmbeddedBroker) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 6)
    acked = produce(broker, topic, [(i % 6, None, b"v%d" % i, None) for i in range(120)])
    a = _reader(broker, topic, group)
    b = _reader(broker, topic, group)
    try:
        s_a = a.initialOffset()
        assert s_a == {}
        e_a = a.latestOffset(s_a, ReadAllAvailable())  # the first batch waits for the assignment
        assert set(from_offset_json(e_a)) == _owned(a) and len(_owned(a)) == 6
        rows_a = _read_all(a, s_a, e_a)
        assert sorted(rows_a) == sorted((r.partition, r.offset) for r in acked)
        a.commit(e_a)  # Spark's commit of the finished batch: the group's broker offsets
        # a replay of the batch in a new driver process (after a crash) plans the same ranges from the
        # offsets alone, without joining the group
        replay = _reader(broker, topic, group)
        assert _ranges(replay, s_a, e_a) == _ranges(a, s_a, e_a) and replay._group is None
        s_b = b.initialOffset()
        # b joins: cooperative-sticky moves half of a's partitions over two rebalances
        wait_until(
            lambda: (a.latestOffset(e_a, ReadAllAvailable()), _stable(a, b, total=6))[1],
            timeout=30,
            what="a stable split",
        )
        owned_a, owned_b = _owned(a), _owned(b)
        assert len(owned_a) == 3 and len(owned_b) == 3 and not owned_a & owned_b
        # a's next batch names only what it still owns; its first batch's end was committed to the broker
        e_a2 = a.latestOffset(e_a, ReadAllAvailable())
        offsets_a2, mark_a2 = decode_group_offsets(e_a2)
        assert set(offsets_a2) == owned_a and mark_a2 is not None and mark_a2.starts == {}
        assert offsets_a2 == {tp: 20 for tp in owned_a} and a.partitions(e_a, e_a2) == []  # nothing new yet
        # b resumes the moved partitions from the group's broker offsets (no table here): nothing re-read
        e_b = b.latestOffset(s_b, ReadAllAvailable())
        offsets_b, mark_b = decode_group_offsets(e_b)
        assert set(offsets_b) == owned_b and mark_b is not None
        assert mark_b.starts == {tp: 20 for tp in owned_b}  # 120 records over 6 partitions, all read by a
        assert _read_all(b, s_b, e_b) == []
        more = produce(broker, topic, [(i % 6, None, b"w%d" % i, None) for i in range(60)])
        e_b2 = b.latestOffset(e_b, ReadAllAvailable())
        got_b = _read_all(b, e_b, e_b2)
        e_a3 = a.latestOffset(e_a2, ReadAllAvailable())
        got_a = _read_all(a, e_a2, e_a3)
        assert sorted(got_a + got_b) == sorted((r.partition, r.offset) for r in more)
        assert {p for p, _ in got_a} == {p for _, p in owned_a}
        # lag and owners: our offsets/ view and kafka-python's admin agree with the broker
        b.commit(e_b2)
        a.commit(e_a3)
        lag = group_lag(broker.bootstrap_servers, group)
        assert {(p.topic, p.partition) for p in lag.partitions} == {(topic, i) for i in range(6)}
        assert all(p.lag == 0 and p.committed == 30 and p.latest == 30 for p in lag.partitions)
        owners = {(p.topic, p.partition): p.owner for p in lag.partitions}
        assert {tp for tp, o in owners.items() if o == a._group.view().member_id} == owned_a  # type: ignore[union-attr]
        assert {tp for tp, o in owners.items() if o == b._group.view().member_id} == owned_b  # type: ignore[union-attr]
        assert lag.state == "Stable" and lag.protocol == "cooperative-sticky"
        from kafka.admin import KafkaAdminClient

        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap_servers)
        try:
            listed = admin.list_group_offsets(group)[group]
        finally:
            admin.close()
        assert {(tp.topic, tp.partition): om.offset for tp, om in listed.items()} == {(topic, i): 30 for i in range(6)}
        from confluent_kafka import ConsumerGroupTopicPartitions
        from confluent_kafka.admin import AdminClient

        cadmin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        fut = cadmin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group)])[group]
        assert {(tp.topic, tp.partition): tp.offset for tp in fut.result(timeout=20).topic_partitions} == {
            (topic, i): 30 for i in range(6)
        }
    finally:
        a.stop()
        b.stop()


def test_revoked_partitions_are_not_planned_and_stale_commits_are_fenced(broker: EmbeddedBroker) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    produce(broker, topic, [(i % 4, None, b"v", None) for i in range(40)])
    a = _reader(broker, topic, group, **{"kafka.partition.assignment.strategy": "range"})
    other = GroupMember(
        broker.bootstrap_servers,
        group,
        [topic],
        assignors=["range"],
        session_timeout_ms=6000,
        heartbeat_interval_ms=500,
        rebalance_timeout_ms=10000,
    )
    try:
        e1 = a.latestOffset(a.initialOffset(), ReadAllAvailable())
        gen1 = a._group.member.generation()  # type: ignore[union-attr]
        assert len(from_offset_json(e1)) == 4
        other.start()
        wait_until(lambda: len(other.assignment()) == 2 and a._group.member.is_stable(), timeout=30)  # type: ignore[union-attr]
        mine = _owned(a)
        assert len(mine) == 2 and not mine & {(tp.topic, tp.partition) for tp in other.assignment()}
        e2 = a.latestOffset(e1, ReadAllAvailable())
        assert set(from_offset_json(e2)) == mine  # revoked partitions are not planned again
        # a commit in the old generation is refused: a zombie cannot move the group's offsets
        with pytest.raises(CommitFailedError):
            a._group.member.commit({TopicPartition(topic, 0): 1}, generation=gen1)  # type: ignore[union-attr]
    finally:
        other.close()
        a.stop()


def test_group_session_leaves_on_stop_and_resumes_from_starting_offsets(broker: EmbeddedBroker) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    produce(broker, topic, [(i % 2, None, b"v", None) for i in range(10)])
    a = _reader(broker, topic, group, startingOffsets="latest")
    e1 = a.latestOffset(a.initialOffset(), ReadAllAvailable())
    _, mark = decode_group_offsets(e1)
    assert mark is not None and mark.starts == {(topic, 0): 5, (topic, 1): 5}  # latest: nothing committed yet
    session = a._group
    assert isinstance(session, GroupSession)
    a.stop()
    assert session.closed
    lag = group_lag(broker.bootstrap_servers, group, topics=[topic])
    assert lag.state == "Empty" and all(p.owner is None for p in lag.partitions)
    # maxOffsetsPerTrigger splits over the owned partitions (admission control)
    c = _reader(broker, topic, group, startingOffsets="earliest", maxOffsetsPerTrigger="4")
    try:
        e = c.latestOffset(c.initialOffset(), ReadMaxRows(4))
        offsets, mark = decode_group_offsets(e)
        assert mark is not None and mark.starts == {(topic, 0): 0, (topic, 1): 0}
        assert sum(offsets.values()) == 4
    finally:
        c.stop()


def test_resume_from_the_table_then_the_broker_then_starting_offsets(broker: EmbeddedBroker, tmp_path: Path) -> None:
    """A partition a member gains starts at the Delta table's offset (app transaction of owner = group
    id), else the group's broker offset, else startingOffsets."""
    import pyarrow as pa
    from deltalake import CommitProperties, Transaction, write_deltalake

    from offsets.delta_store import app_id

    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    produce(broker, topic, [(i % 3, None, b"v", None) for i in range(30)])
    table = str(tmp_path / "table")
    write_deltalake(
        table,
        pa.table({"partition": pa.array([0], pa.int32()), "offset": pa.array([6], pa.int64())}),
        commit_properties=CommitProperties(
            app_transactions=[Transaction(app_id(group, topic, 0), 7), Transaction(app_id("other", topic, 1), 9)]
        ),
    )
    committer = GroupMember(
        broker.bootstrap_servers, group, [topic], session_timeout_ms=6000, heartbeat_interval_ms=500
    )
    with committer:
        committer.wait_for_assignment(timeout=20)
        committer.commit({TopicPartition(topic, 0): 2, TopicPartition(topic, 1): 3})
    r = _reader(broker, topic, group, offsetsTable=table, startingOffsets="latest")
    try:
        end = r.latestOffset(r.initialOffset(), ReadAllAvailable())
        offsets, mark = decode_group_offsets(end)
        assert mark is not None
        # p0: the table (7, not the broker's 2); p1: the broker (another owner's row in the table does
        # not count); p2: startingOffsets=latest
        assert mark.starts == {(topic, 0): 7, (topic, 1): 3, (topic, 2): 10}
        assert offsets == {(topic, p): 10 for p in range(3)}
    finally:
        r.stop()


def test_plan_log_records_generation_member_and_ranges(broker: EmbeddedBroker, tmp_path: Path) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    produce(broker, topic, [(i % 3, None, b"v", None) for i in range(9)])
    log_path = tmp_path / "plan.jsonl"
    a = _reader(broker, topic, group, groupPlanLog=str(log_path))
    try:
        s = a.initialOffset()
        e = a.latestOffset(s, ReadAllAvailable())
        a.partitions(s, e)
        (line,) = log_path.read_text().splitlines()
        rec: dict[str, Any] = json.loads(line)
        view = a._group.view()  # type: ignore[union-attr]
        assert rec["group"] == group and rec["member"] == view.member_id and rec["generation"] == view.generation
        assert sorted(map(tuple, rec["ranges"])) == [(topic, p, 0, 3) for p in range(3)]
    finally:
        a.stop()


# --- one in-process streaming query ---------------------------------------------------------------


def test_streaming_query_reads_only_its_share(spark: Any, broker: EmbeddedBroker, tmp_path: Path) -> None:
    """A query in group mode next to a plain group member: it reads exactly the partitions the group
    gives it, and commits its progress to the group."""
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 4)
    other = GroupMember(
        broker.bootstrap_servers,
        group,
        [topic],
        assignors=["cooperative-sticky"],
        session_timeout_ms=6000,
        heartbeat_interval_ms=500,
        rebalance_timeout_ms=10000,
    ).start()
    q = None
    try:
        other.wait_for_assignment(timeout=20)
        df = (
            spark.readStream.format("pykafka")
            .option("kafka.bootstrap.servers", broker.bootstrap_servers)
            .option("subscribe", topic)
            .option("kafka.group.id", group)
            .option("groupMode", "true")
            .option("startingOffsets", "earliest")
            .options(**FAST_GROUP)
            .load()
        )
        name = f"gm_{uuid.uuid4().hex[:8]}"
        q = (
            df.selectExpr("partition", "offset")
            .writeStream.format("memory")
            .queryName(name)
            .option("checkpointLocation", str(tmp_path / "ckpt"))
            .trigger(processingTime="500 milliseconds")
            .start()
        )
        wait_until(lambda: len(other.assignment()) == 2 and other.is_stable(), timeout=60, what="a 2/2 split")
        theirs = {tp.partition for tp in other.assignment()}
        acked = produce(broker, topic, [(i % 4, None, b"v%d" % i, None) for i in range(80)])
        ours = {(r.partition, r.offset) for r in acked if r.partition not in theirs}

        def rows() -> set[tuple[int, int]]:
            return {(r["partition"], r["offset"]) for r in spark.sql(f"SELECT * FROM {name}").collect()}

        wait_until(lambda: ours <= rows(), timeout=60, what="the query's share")
        time.sleep(1.5)
        got = rows()
        assert {p for p, _ in got} <= {p for p in range(4) if p not in theirs}
        assert len(got) == len(ours)  # nothing twice, nothing of the other member's partitions
        # the query's finished batches reach the group's offsets on the broker (Kafka tooling sees them)
        wait_until(
            lambda: all(
                p.committed == 20
                for p in group_lag(broker.bootstrap_servers, group).partitions
                if p.partition not in theirs
            ),
            timeout=30,
            what="broker commits of the query",
        )
    finally:
        if q is not None:
            q.stop()
        other.close()


def test_available_now_drains_its_share_and_leaves_the_group(
    spark: Any, broker: EmbeddedBroker, tmp_path: Path
) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    acked = produce(broker, topic, [(i % 3, None, b"v%d" % i, None) for i in range(90)])
    name = f"gm_{uuid.uuid4().hex[:8]}"
    q = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", broker.bootstrap_servers)
        .option("subscribe", topic)
        .option("kafka.group.id", group)
        .option("groupMode", "true")
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", "40")
        .options(**FAST_GROUP)
        .option("kafka.session.timeout.ms", "20000")  # an eviction could not pass for a leave
        .load()
        .selectExpr("partition", "offset")
        .writeStream.format("memory")
        .queryName(name)
        .option("checkpointLocation", str(tmp_path / "ckpt"))
        .trigger(availableNow=True)
        .start()
    )
    assert q.awaitTermination(90)
    got = [(r["partition"], r["offset"]) for r in spark.sql(f"SELECT * FROM {name}").collect()]
    assert sorted(got) == sorted((r.partition, r.offset) for r in acked)
    assert len(q.recentProgress) >= 3  # 90 records at most 40 per batch
    # the reader process got SIGTERM when the run ended and left the group (no session timeout wait)
    # (well under the 20 s session timeout: an eviction cannot pass for the leave)
    wait_until(lambda: group_lag(broker.bootstrap_servers, group).state == "Empty", timeout=12, what="an empty group")


LEAVE_SCRIPT = """
import sys, time
from connector.options import parse_source_options
from connector.source.reader import PyKafkaStreamReader
from pyspark.sql.streaming.datasource import ReadAllAvailable
opts = parse_source_options({
    "kafka.bootstrap.servers": sys.argv[1], "subscribe": sys.argv[2], "kafka.group.id": sys.argv[3],
    "groupMode": "true", "kafka.session.timeout.ms": "30000", "kafka.heartbeat.interval.ms": "500",
})
r = PyKafkaStreamReader(opts)
r.latestOffset(r.initialOffset(), ReadAllAvailable())
print("ready", flush=True)
time.sleep(60)
"""


def test_reader_process_leaves_the_group_on_sigterm(broker: EmbeddedBroker) -> None:
    """Spark stops a query's reader process with SIGTERM and never calls stop(): the reader leaves
    the group then, so its partitions move at once rather than after the session timeout (30 s here)."""
    import signal
    import subprocess
    import sys

    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    proc = subprocess.Popen(
        [sys.executable, "-c", LEAVE_SCRIPT, broker.bootstrap_servers, topic, group],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", proc.stderr.read()  # type: ignore[union-attr]
        lag = group_lag(broker.bootstrap_servers, group)
        assert lag.state == "Stable" and len(lag.members) == 1
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)  # Spark sends two (worker, then worker factory)
        assert proc.wait(15) == -signal.SIGTERM  # the default action still ends the process
        assert group_lag(broker.bootstrap_servers, group).state == "Empty"
    finally:
        proc.kill()
        proc.wait(10)


def test_no_common_assignor_fails_the_query_with_the_reason(broker: EmbeddedBroker) -> None:
    topic, group = f"gm-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    other = GroupMember(broker.bootstrap_servers, group, [topic], assignors=["roundrobin"], session_timeout_ms=6000)
    with other:
        other.wait_for_assignment(timeout=20)
        r = _reader(broker, topic, group, **{"kafka.partition.assignment.strategy": "cooperative-sticky"})
        try:
            t0 = time.monotonic()
            with pytest.raises(Exception, match="INCONSISTENT_GROUP_PROTOCOL"):
                r.latestOffset(r.initialOffset(), ReadAllAvailable())
            assert time.monotonic() - t0 < 10  # not after kafka.default.api.timeout.ms (20 s here)
        finally:
            r.stop()
