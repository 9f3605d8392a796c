"""Issue 18: a streaming query's lag in Kafka's own tooling without group mode (`commitOffsetsToGroup`),
the batch helpers (`pin_ending_offsets` + `commit_batch_offsets`) and `LagListener`'s Prometheus
endpoint. The committed offsets are read back with clients nobody here wrote: confluent-kafka's and
kafka-python's admin clients, and Kafka's `kafka-consumer-groups --describe` when the JVM peers are
installed.
"""

from __future__ import annotations

import json
import logging
import threading
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, TopicPartition
from confluent_kafka.admin import AdminClient
from kafka import KafkaAdminClient, KafkaConsumer
from kafka import TopicPartition as KpTopicPartition

from broker_embedded import EmbeddedBroker
from connector.client_config import ClientConfig
from connector.group_lag import GroupLagError, group_lag
from connector.offset_mirror import FinishedBatchCommits, GroupHasMembersError
from connector.options import SourceOptionError, parse_source_options, validate_batch, validate_stream
from connector.source.lag import LagListener, commit_batch_offsets, pin_ending_offsets
from peers import jvm
from tests.spark.source_helpers import create_topic, produce, wait_until

pytestmark = pytest.mark.timeout(300)

BOOT = "127.0.0.1:9092"


def _opts(**kw: str) -> dict[str, str]:
    return {"kafka.bootstrap.servers": BOOT, "subscribe": "t", **kw}


# --- options ------------------------------------------------------------------------------------


def test_commit_offsets_to_group_options() -> None:
    opts = parse_source_options(_opts(commitOffsetsToGroup=" etl-lag "))
    assert opts.commit_group == "etl-lag" and opts.group is None
    validate_stream(opts)
    # with Spark's kafka.group.id (the group of the source's requests) too: a different meaning, both fine
    assert parse_source_options(_opts(commitOffsetsToGroup="x", **{"kafka.group.id": "team"})).commit_group == "x"
    with pytest.raises(SourceOptionError, match="'commitOffsetsToGroup': expected a consumer group id"):
        parse_source_options(_opts(commitOffsetsToGroup="  "))
    with pytest.raises(SourceOptionError) as e:
        parse_source_options(_opts(commitOffsetsToGroup="x", groupMode="true", **{"kafka.group.id": "g"}))
    assert "'commitOffsetsToGroup'" in str(e.value) and "'groupMode'" in str(e.value)
    # a batch read has no hook after its job: refused, pointing at the helpers
    with pytest.raises(SourceOptionError, match="commit_batch_offsets"):
        validate_batch(parse_source_options(_opts(commitOffsetsToGroup="x")))


# --- shared fixtures ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(tmp_path_factory.mktemp("commit-to-group")) as b:
        yield b


def _confluent_committed(bootstrap: str, group: str, topic: str, n: int) -> dict[int, int]:
    # offsets only: confluent-kafka 2.16's binding can read past the end of a metadata string
    admin = AdminClient({"bootstrap.servers": bootstrap})
    req = [ConsumerGroupTopicPartitions(group, [TopicPartition(topic, p) for p in range(n)])]
    res = admin.list_consumer_group_offsets(req)[group].result(30)
    return {tp.partition: tp.offset for tp in res.topic_partitions if tp.offset >= 0}


def _kafka_python_listed(bootstrap: str, group: str, topic: str) -> dict[int, tuple[int, str]]:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30000)
    try:
        got = admin.list_group_offsets(group)[group]  # kafka-python 3's name for listConsumerGroupOffsets
    finally:
        admin.close()
    return {tp.partition: (om.offset, om.metadata) for tp, om in got.items() if tp.topic == topic and om.offset >= 0}


def _kafka_python_committed(bootstrap: str, group: str, topic: str) -> dict[int, int]:
    return {p: off for p, (off, _meta) in _kafka_python_listed(bootstrap, group, topic).items()}


def _end_offsets(bootstrap: str, topic: str, n: int) -> dict[int, int]:
    c = KafkaConsumer(bootstrap_servers=bootstrap, group_id=None, enable_auto_commit=False)
    try:
        ends = c.end_offsets([KpTopicPartition(topic, p) for p in range(n)])
    finally:
        c.close()
    return {tp.partition: off for tp, off in ends.items()}


def _last_batch(q: Any, topic: str) -> tuple[int, dict[int, int], dict[int, int]]:
    """(batch id, end offsets, latest offsets) of the query's last batch that read records (an idle
    progress carries the id of the batch not run yet)."""
    prog = [p for p in q.recentProgress if p["numInputRows"] > 0][-1]
    src = prog["sources"][0]
    end = {int(p): o for p, o in json.loads(src["endOffset"])[topic].items()}
    latest = {int(p): o for p, o in json.loads(src["latestOffset"])[topic].items()}
    return prog["batchId"], end, latest


# --- a group with live members refuses the commit ---------------------------------------------------


def _state(broker: EmbeddedBroker, group: str) -> str:
    try:
        return group_lag(broker.bootstrap_servers, group).state
    except GroupLagError:  # GROUP_ID_NOT_FOUND before the first member joins
        return "Dead"


def test_live_members_refuse_the_commit_loudly_once(broker: EmbeddedBroker, caplog: pytest.LogCaptureFixture) -> None:
    topic, group = f"cg-{uuid.uuid4().hex[:8]}", f"live-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    member = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": group,
                       "session.timeout.ms": 6000, "enable.auto.commit": False})  # fmt: skip
    stop = threading.Event()

    def poll() -> None:
        while not stop.is_set():
            member.poll(0.2)

    member.subscribe([topic])
    t = threading.Thread(target=poll, daemon=True)
    t.start()
    commits = FinishedBatchCommits(group, ClientConfig(broker.bootstrap_servers))
    try:
        wait_until(lambda: _state(broker, group) == "Stable", timeout=30, what="a member")
        with caplog.at_level(logging.ERROR, logger="connector.offset_mirror"):
            assert commits.finished({(topic, 0): 5, (topic, 1): 7}) is False
            assert commits.finished({(topic, 0): 6, (topic, 1): 8}) is False
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1, errors  # loud once, not at every batch
        assert group in errors[0].getMessage() and "live members" in errors[0].getMessage()
        assert isinstance(commits.refused, GroupHasMembersError) and commits.refused.group_id == group
        assert _confluent_committed(broker.bootstrap_servers, group, topic, 2) == {}  # nothing taken
    finally:
        stop.set()
        t.join(5)
        member.close()
    # once the members are gone the query's next batch is taken again
    wait_until(lambda: commits.finished({(topic, 0): 9, (topic, 1): 9}), timeout=30, what="an accepted commit")
    assert commits.refused is None
    assert _confluent_committed(broker.bootstrap_servers, group, topic, 2) == {
        0: 9,
        1: 9,
    }
    commits.close()


# --- a stream into Parquet ----------------------------------------------------------------------


def _start(spark: Any, broker: EmbeddedBroker, topic: str, group: str, work: Path, listener_name: str) -> Any:
    return (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", broker.bootstrap_servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", "50")
        .option("commitOffsetsToGroup", group)
        .option("checkpointLocation", str(work / "ckpt"))  # names the query and batch in the commit metadata
        .load()
        .selectExpr("partition", "offset", "CAST(value AS STRING) AS value")
        .writeStream.format("parquet")
        .queryName(listener_name)
        .option("path", str(work / "out"))
        .option("checkpointLocation", str(work / "ckpt"))
        .start()
    )


def _check_committed_equals_last_batch(q: Any, broker: EmbeddedBroker, topic: str, group: str, n: int) -> dict:
    q.processAllAvailable()
    batch, end, _ = _last_batch(q, topic)
    # committed when Spark plans the next batch, i.e. right after this one is committed to the sink
    wait_until(
        lambda: _confluent_committed(broker.bootstrap_servers, group, topic, n) == end,
        timeout=30,
        what=f"the group's offsets to reach {end}",
    )
    listed = _kafka_python_listed(broker.bootstrap_servers, group, topic)
    assert {p: off for p, (off, _) in listed.items()} == end
    meta = json.loads(listed[0][1])
    assert meta == {"committer": "pykafka", "query": str(q.id), "batch": batch}
    return end


def test_stream_commits_each_finished_batch_and_keeps_committing_after_a_restart(
    spark: Any, broker: EmbeddedBroker, tmp_path: Path
) -> None:
    topic, group = f"cg-{uuid.uuid4().hex[:8]}", f"lag-{uuid.uuid4().hex[:8]}"
    n = 3
    create_topic(broker, topic, n)
    listener = LagListener(prometheus_port=0)
    spark.streams.addListener(listener)
    name = f"lag_{uuid.uuid4().hex[:8]}"
    q = None
    try:
        produce(broker, topic, [(i % n, None, b"a%d" % i, None) for i in range(90)])
        q = _start(spark, broker, topic, group, tmp_path, name)
        first = _check_committed_equals_last_batch(q, broker, topic, group, n)
        assert first == {0: 30, 1: 30, 2: 30}
        assert _last_batch(q, topic)[0] >= 1  # 90 records at most 50 per batch: several batches
        # ... so the first batch left records behind, which the listener saw as lag
        wait_until(lambda: any(s.max > 0 for _, s in listener.history(q.id)), timeout=30, what="lag history")
        produce(broker, topic, [(i % n, None, b"b%d" % i, None) for i in range(30)])
        second = _check_committed_equals_last_batch(q, broker, topic, group, n)
        assert second == {0: 40, 1: 40, 2: 40}

        # the metrics endpoint, scraped over HTTP: the last batch's per-partition lag of this query
        url = listener.metrics_url
        assert url is not None and url.startswith("http://127.0.0.1:")
        _, _, latest = _last_batch(q, topic)
        expected = []
        for p in range(n):
            labels = f'query="{q.id}",name="{name}",topic="{topic}",partition="{p}"'
            expected += [
                f"pykafka_source_lag{{{labels}}} {latest[p] - second[p]}",
                f"pykafka_source_end_offset{{{labels}}} {second[p]}",
                f"pykafka_source_latest_offset{{{labels}}} {latest[p]}",
            ]

        def scrape() -> str:
            with urllib.request.urlopen(url, timeout=5) as resp:
                assert resp.headers["Content-Type"].startswith("text/plain; version=0.0.4")
                return resp.read().decode()

        text = wait_until(lambda: (t := scrape()) and all(line in t.splitlines() for line in expected) and t,
                          timeout=30, what="the query's series at /metrics")  # fmt: skip
        assert "# TYPE pykafka_source_lag gauge" in text
        assert listener.partition_lag(q.id) == {(topic, p): latest[p] - second[p] for p in range(n)}

        q.stop()
        q = None
        # while the query is down: lag = latest - committed, as Kafka's admin clients report it
        produce(broker, topic, [(i % n, None, b"c%d" % i, None) for i in range(60)])
        ends = _end_offsets(broker.bootstrap_servers, topic, n)
        committed = _kafka_python_committed(broker.bootstrap_servers, group, topic)
        lags = {p: ends[p] - committed[p] for p in range(n)}
        assert lags == {0: 20, 1: 20, 2: 20}
        assert {p.partition: p.lag for p in group_lag(broker.bootstrap_servers, group).partitions} == lags
        if jvm.kafka_peers_available():
            _check_kafka_consumer_groups(broker, group, topic, ends, committed)

        # restarted from its checkpoint: it keeps committing, under the same query id
        q = _start(spark, broker, topic, group, tmp_path, name)
        third = _check_committed_equals_last_batch(q, broker, topic, group, n)
        assert third == {0: 60, 1: 60, 2: 60}
        rows = spark.read.parquet(str(tmp_path / "out")).count()
        assert rows == 180  # nothing lost or read twice across the restart
    finally:
        if q is not None:
            q.stop()
        spark.streams.removeListener(listener)
        listener.close()


def _check_kafka_consumer_groups(
    broker: EmbeddedBroker, group: str, topic: str, ends: dict[int, int], committed: dict[int, int]
) -> None:
    """Kafka's own `kafka-consumer-groups --describe` shows the query's group and its lag."""
    from tests.peers.fixtures import JavaClient
    from tests.peers.test_java_clients import _describe_rows

    client = JavaClient()
    try:
        out = client.consumer_groups(broker.bootstrap_servers, "--describe", "--group", group).stdout
    finally:
        client.close()
    rows = _describe_rows(out, group)
    assert set(rows) == set(ends), out
    for p, row in rows.items():
        assert row["TOPIC"] == topic
        assert int(row["CURRENT-OFFSET"]) == committed[p]
        assert int(row["LOG-END-OFFSET"]) == ends[p]
        assert int(row["LAG"]) == ends[p] - committed[p]


# --- a batch read: pin, run, commit ----------------------------------------------------------------


def test_batch_read_commits_its_pinned_end_offsets_after_the_job(
    spark: Any, broker: EmbeddedBroker, tmp_path: Path
) -> None:
    topic, group = f"cg-{uuid.uuid4().hex[:8]}", f"nightly-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    produce(broker, topic, [(i % 2, None, b"v%d" % i, None) for i in range(40)])
    options = {"kafka.bootstrap.servers": broker.bootstrap_servers, "subscribe": topic}
    pinned = pin_ending_offsets(options)
    assert json.loads(pinned["endingOffsets"]) == {topic: {"0": 20, "1": 20}}
    produce(broker, topic, [(i % 2, None, b"w%d" % i, None) for i in range(10)])  # after the pin: not read
    spark.read.format("pykafka").options(**pinned).load().write.parquet(str(tmp_path / "out"))
    assert spark.read.parquet(str(tmp_path / "out")).count() == 40
    assert commit_batch_offsets(pinned, group) == {(topic, 0): 20, (topic, 1): 20}
    assert _kafka_python_committed(broker.bootstrap_servers, group, topic) == {0: 20, 1: 20}
    with pytest.raises(SourceOptionError, match="pin_ending_offsets"):
        commit_batch_offsets(options, group)  # "latest" now is not what a job read


# --- the README's example ---------------------------------------------------------------------------


def test_lag_monitoring_example(spark: Any, broker: EmbeddedBroker, tmp_path: Path) -> None:
    from examples.lag_monitoring import run

    topic, group = f"cg-{uuid.uuid4().hex[:8]}", f"events-lag-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 3)
    out = run(spark, broker.bootstrap_servers, tmp_path, topic=topic, group=group)
    # all 300 records read: lag 0 per partition at /metrics; then 60 more while the query is down
    assert [line.rsplit(" ", 1)[1] for line in out["metrics"].splitlines()] == ["0", "0", "0"], out
    assert all(f'topic="{topic}"' in line for line in out["metrics"].splitlines())
    assert out["group_lag"].splitlines()[:3] == [f"{topic}-{p}: committed=100 latest=120 lag=20" for p in range(3)], out
    assert out["group_lag"].endswith("total_lag=60")
    # the commits name the query (id from its checkpoint) and the batch
    for p, line in enumerate(out["committed"].splitlines()):
        assert line.startswith(f"{topic}-{p} offset=100 metadata=")
        meta = json.loads(line.split("metadata=", 1)[1])
        assert meta["committer"] == "pykafka" and isinstance(meta["batch"], int) and len(meta["query"]) == 36
