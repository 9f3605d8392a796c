"""Streaming queries ride through broker failures (issue 21): `readStream.format("pykafka")` ->
`writeStream.format("pykafka-delta")` with default options while an idempotent acks=all producer
writes, and the brokers die under it.

* a 3-broker `EmbeddedCluster` (min.insync.replicas=2), a 4-partition RF=3 topic: partition
  leaders SIGKILLed in turn (5 kills, each restarted a few seconds later), a rolling controlled
  restart of all three brokers, and a SIGKILL of the active controller;
* a single `EmbeddedBroker` process SIGKILLed and restarted ~2 s later on the same port and log
  dir, twice.

Each time the query never fails and the table ends with every acknowledged record exactly once,
by value and by (partition, offset).
"""

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration import wire_util as w
from tests.integration.cluster_util import StreamingProducer, cluster, create_topic, wait_full_isr
from tests.spark.delta_helpers import delta_rs_table

pytestmark = [pytest.mark.slow, pytest.mark.timeout(420)]


class RateProducer(StreamingProducer):
    """`StreamingProducer` (idempotent, acks=all, records every acknowledged (partition, offset,
    value)) at a bounded rate, so Spark keeps up on a loaded 2-core machine."""

    def __init__(self, bootstrap: str, topic: str, rate: float = 300.0) -> None:
        super().__init__(bootstrap, topic)
        self.rate = rate

    def _run(self) -> None:
        seq = 0
        t0 = time.monotonic()
        while not self._stop.is_set():
            ahead = seq / self.rate - (time.monotonic() - t0)
            if ahead > 0:
                self._stop.wait(min(ahead, 0.05))
                self.producer.poll(0)
                continue
            try:
                self.producer.produce(self.topic, value=b"seq-%09d" % seq, on_delivery=self._on_delivery)
                seq += 1
                self.sent += 1
            except BufferError:
                self.producer.poll(0.05)
                continue
            self.producer.poll(0)
        self.producer.poll(0)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_query(spark: Any, bootstrap: str, topic: str, path: str, checkpoint: Path) -> Any:
    # default options: only what a user must give
    return (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", str(checkpoint))
        .start(path)
    )


def _rows(path: str) -> list[tuple[int, int, bytes]]:
    try:
        t = delta_rs_table(path, ["partition", "offset", "value"])
    except Exception:  # noqa: BLE001 - no table yet
        return []
    return list(zip(t["partition"].to_pylist(), t["offset"].to_pylist(), t["value"].to_pylist(), strict=True))


class Watch:
    """Fails fast if the query dies, and checks progress while the brokers are being killed."""

    def __init__(self, q: Any) -> None:
        self.q = q

    def alive(self) -> None:
        if not self.q.isActive:
            raise AssertionError(f"the query died: {self.q.exception()}")

    def sleep(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.alive()
            time.sleep(0.2)


class Acked:
    """What the producer's delivery reports say, split by whether they carry the record's offset.

    librdkafka reports an idempotent producer's record as delivered WITHOUT an offset
    (``msg.offset()`` is None) when the broker's answer to its batch was lost (a leader killed
    after appending, a request timed out) and a later batch of the same partition then succeeded:
    the sequence numbers prove the earlier batch is in the log, so it is "implicitly acked"
    (rd_kafka_dr_implicit_ack; DUPLICATE_SEQUENCE_NUMBER is treated the same way). Such a record
    is acknowledged and must be in the table exactly once, in its partition; only its position
    is unknown."""

    def __init__(self, prod: StreamingProducer) -> None:
        self.at: dict[tuple[int, int], bytes] = {}  # (partition, offset) -> value
        self.unplaced: set[tuple[int, bytes]] = set()  # (partition, value) acked without an offset
        for p, o, v in prod.acked:
            if o is None:
                self.unplaced.add((p, v))
            else:
                self.at[(p, o)] = v

    def __len__(self) -> int:
        return len(self.at) + len(self.unplaced)

    def missing(self, rows: list[tuple[int, int, bytes]]) -> list[tuple[int, int | None]]:
        """(partition, offset) of acknowledged records not in `rows` ((partition, None) when acked without one)."""
        have = {(p, o) for p, o, _ in rows}
        by_value = {(p, v) for p, _, v in rows}
        gone: list[tuple[int, int | None]] = sorted(self.at.keys() - have)
        return gone + sorted((p, None) for p, v in self.unplaced if (p, v) not in by_value)


def _check_exactly_once(q: Any, path: str, prod: StreamingProducer, timeout: float = 120.0) -> None:
    acked = Acked(prod)
    assert len(acked), "nothing was acknowledged"
    assert not prod.errors, prod.errors[:3]
    deadline = time.monotonic() + timeout
    rows: list[tuple[int, int, bytes]] = []
    while time.monotonic() < deadline:
        Watch(q).alive()
        rows = _rows(path)
        if not acked.missing(rows):
            break
        time.sleep(1.0)
    q.stop()
    assert q.exception() is None
    _assert_exactly_once(acked, rows)


def _assert_exactly_once(acked: Acked, rows: list[tuple[int, int, bytes]]) -> None:
    by_pos = Counter((p, o) for p, o, _ in rows)
    dup_pos = [k for k, n in by_pos.items() if n > 1]
    assert not dup_pos, f"{len(dup_pos)} (partition, offset) written twice, e.g. {dup_pos[:5]}"
    by_value = Counter(v for _, _, v in rows)
    dup_val = [k for k, n in by_value.items() if n > 1]
    assert not dup_val, f"{len(dup_val)} values written twice, e.g. {dup_val[:5]}"
    missing = acked.missing(rows)
    assert not missing, f"{len(missing)} of {len(acked)} acknowledged records missing, e.g. {missing[:5]}"
    table = {(p, o): v for p, o, v in rows}
    wrong = [k for k, v in acked.at.items() if table[k] != v]
    assert not wrong, f"records at the wrong position: {wrong[:5]}"
    print(
        f"{len(acked)} acknowledged records in the table exactly once ({len(acked.unplaced)} acked without an offset)"
    )


@pytest.fixture()
def c() -> Iterator[Any]:
    with cluster(3, **{"min.insync.replicas": 2}) as c:
        yield c


class EmbeddedTarget:
    """The scenario's view of an `EmbeddedCluster` (broker ids 1..3, a standby controller)."""

    def __init__(self, c: Any) -> None:
        self.c = c
        self.bootstrap_servers = c.bootstrap_servers
        self.nodes = list(c.broker_ids)

    def leader(self, topic: str, partition: int) -> int:
        return int(self.c.leader(topic, partition))

    def kill(self, node: int) -> None:
        self.c.kill(node)

    def start(self, node: int) -> None:
        self.c.start(node)

    def stop(self, node: int) -> None:
        self.c.stop(node)

    def wait_full_isr(self, topic: str, partitions: int) -> None:
        self.c.wait_for(
            lambda: all(len(self.c.isr(topic, p)) == 3 for p in range(partitions)), timeout=60, what="ISR of 3"
        )

    def kill_active_controller(self, watch: Watch) -> None:
        killed = self.c.kill_controller()
        assert killed is not None
        self.c.wait_for(lambda: self.c.active_controller() not in (None, killed), timeout=30, what="a standby")
        self.c.start_controller(killed)


class ApacheKafkaTarget:
    """The scenario's view of `peers.jvm.ApacheKafka` (3 KRaft combined nodes, ids 0..2): leaders and
    ISRs from Metadata (confluent AdminClient), the quorum leader from kafka-metadata-quorum."""

    def __init__(self, kafka: Any) -> None:
        from confluent_kafka.admin import AdminClient

        self.kafka = kafka
        self.bootstrap_servers = kafka.bootstrap_servers
        self.nodes = list(range(kafka.nodes))
        self.admin = AdminClient({"bootstrap.servers": kafka.bootstrap_servers})

    def _partitions(self, topic: str) -> dict[int, Any]:
        return dict(self.admin.list_topics(topic, timeout=10).topics[topic].partitions)

    def leader(self, topic: str, partition: int) -> int:
        return int(self._partitions(topic)[partition].leader)

    def kill(self, node: int) -> None:
        self.kafka.kill(node)

    def start(self, node: int) -> None:
        self.kafka.start(node)

    def stop(self, node: int) -> None:
        self.kafka.stop(node)

    def wait_full_isr(self, topic: str, partitions: int) -> None:
        deadline = time.monotonic() + 90
        while True:
            try:
                parts = self._partitions(topic)
                if all(len(parts[p].isrs) == 3 and parts[p].leader >= 0 for p in range(partitions)):
                    return
            except Exception:  # noqa: BLE001 - metadata while a node restarts
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"{topic}: ISR not back to 3 replicas within 90 s")
            time.sleep(0.5)

    def kill_active_controller(self, watch: Watch) -> None:
        from peers import jvm

        out = jvm.java_tool(
            "org.apache.kafka.tools.MetadataQuorumCommand",
            "--bootstrap-server",
            self.bootstrap_servers,
            "describe",
            "--status",
        ).stdout
        leader = next(int(line.split(":", 1)[1]) for line in out.splitlines() if line.strip().startswith("LeaderId"))
        self.kafka.kill(leader)
        watch.sleep(4)
        self.kafka.start(leader)


def _failover_scenario(spark: Any, target: Any, topic: str, tmp_path: Path) -> None:
    create_topic(target.bootstrap_servers, topic, partitions=4, rf=3, min_insync_replicas="2")
    target.wait_full_isr(topic, 4)
    path, checkpoint = str(tmp_path / "t"), tmp_path / "ck"
    prod = RateProducer(target.bootstrap_servers, topic).start()
    q = _start_query(spark, target.bootstrap_servers, topic, path, checkpoint)
    watch = Watch(q)
    try:
        prod.wait_for_acks(300, 30)
        watch.sleep(3)
        for k in range(4):  # each partition's leader SIGKILLed in turn, restarted 4 s later
            leader = target.leader(topic, k)
            target.kill(leader)
            watch.sleep(4)
            target.start(leader)
            target.wait_full_isr(topic, 4)
            watch.alive()
        for node in target.nodes:  # rolling controlled restart
            target.stop(node)
            watch.sleep(1)
            target.start(node)
            target.wait_full_isr(topic, 4)
            watch.alive()
        target.kill_active_controller(watch)
        watch.sleep(3)
    finally:
        prod.stop()
    _check_exactly_once(q, path, prod)


def test_stream_to_delta_rides_through_leader_kills_rolling_restart_and_controller_kill(
    spark: Any, c: Any, tmp_path: Path
) -> None:
    _failover_scenario(spark, EmbeddedTarget(c), "fo", tmp_path)


def test_stream_to_delta_rides_through_failures_of_apache_kafka(
    spark: Any, apache_kafka_cluster: Any, tmp_path: Path
) -> None:
    """The same scenario against a 3-node Apache Kafka (the JVM peers' session cluster; every node
    is running again when the test ends)."""
    _failover_scenario(spark, ApacheKafkaTarget(apache_kafka_cluster), f"fo-{time.monotonic_ns()}", tmp_path)


def test_stream_to_delta_rides_through_single_broker_restart(spark: Any, tmp_path: Path) -> None:
    """A single broker SIGKILLed and restarted ~2 s later on the same port and log dir (twice)."""
    proc = w.BrokerProcess(log_dir=tmp_path / "logs", port=_free_port()).start()
    q = None
    try:
        with w.connect(proc.bootstrap) as conn:
            w.create_topic(conn, "one", 2)
        path, checkpoint = str(tmp_path / "t"), tmp_path / "ck"
        prod = RateProducer(proc.bootstrap, "one", rate=200).start()
        try:
            q = _start_query(spark, proc.bootstrap, "one", path, checkpoint)
            watch = Watch(q)
            prod.wait_for_acks(200, 30)
            watch.sleep(3)
            for _ in range(2):
                proc.kill9()
                time.sleep(2)
                restart = threading.Thread(target=proc.start, daemon=True)
                restart.start()
                restart.join(60)
                watch.sleep(6)
        finally:
            prod.stop()
        _check_exactly_once(q, path, prod)
    finally:
        if q is not None and q.isActive:
            q.stop()
        proc.__exit__(None, None, None)


def _group_query(spark: Any, bootstrap: str, topic: str, group: str, name: str, table: str, ck: Path) -> Any:
    return (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("kafka.group.id", group)
        .option("groupMode", "true")
        .option("kafka.client.id", name)
        .option("offsetsTable", table)
        .option("startingOffsets", "earliest")
        .option("kafka.session.timeout.ms", "6000")
        .option("kafka.heartbeat.interval.ms", "500")
        .option("kafka.max.poll.interval.ms", "15000")
        .option("kafka.partition.assignment.strategy", "cooperative-sticky")
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", str(ck))
        .option("offsetsOwner", group)
        .trigger(processingTime="1 second")
        .start(table)
    )


def test_group_mode_two_queries_ride_through_a_coordinator_kill(spark: Any, c: Any, tmp_path: Path) -> None:
    """Two group-mode queries share a topic; the group coordinator's broker is SIGKILLed (and
    restarted later): the members find the new coordinator, rejoin, and the table holds every
    acknowledged record exactly once."""
    from kafka_wire.client import ClientConfig, KafkaClient

    topic, group = "gfo", "gfo-group"
    create_topic(c.bootstrap_servers, topic, partitions=4, rf=3)
    wait_full_isr(c, topic, partitions=4)
    table = str(tmp_path / "t")
    prod = RateProducer(c.bootstrap_servers, topic, rate=200).start()
    qs: list[Any] = []
    try:
        qs = [
            _group_query(spark, c.bootstrap_servers, topic, group, f"q{i}", table, tmp_path / f"ck{i}")
            for i in range(2)
        ]
        watches = [Watch(q) for q in qs]
        prod.wait_for_acks(200, 30)
        deadline = time.monotonic() + 90
        while len(_rows(table)) < 200 and time.monotonic() < deadline:
            for wt in watches:
                wt.alive()
            time.sleep(1)
        client = KafkaClient(ClientConfig(c.bootstrap_servers, client_id="t-coordinator"))
        try:
            host, port = client.find_coordinator(group)
        finally:
            client.close()
        victim = next(b for b in c.broker_ids if c.ports[b] == port)
        c.kill(victim)
        for _ in range(20):
            for wt in watches:
                wt.alive()
            time.sleep(0.5)
        c.start(victim)
        for _ in range(10):
            for wt in watches:
                wt.alive()
            time.sleep(0.5)
    finally:
        prod.stop()
    acked = Acked(prod)
    assert not prod.errors, prod.errors[:3]
    deadline = time.monotonic() + 120
    rows: list[tuple[int, int, bytes]] = []
    while time.monotonic() < deadline:
        for q in qs:
            Watch(q).alive()
        rows = _rows(table)
        if not acked.missing(rows):
            break
        time.sleep(1)
    for q in qs:
        q.stop()
        assert q.exception() is None
    _assert_exactly_once(acked, rows)


def _read_topic(bootstrap: str, topic: str, partitions: int, timeout: float = 60.0) -> list[bytes]:
    from confluent_kafka import Consumer, TopicPartition

    conf = {"bootstrap.servers": bootstrap, "group.id": f"rd-{time.monotonic_ns()}", "enable.auto.commit": False}
    consumer = Consumer(conf)
    try:
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=20)[1] for p in range(partitions)}
        consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        out: list[bytes] = []
        pos = dict.fromkeys(range(partitions), 0)
        deadline = time.monotonic() + timeout
        while any(pos[p] < ends[p] for p in pos) and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is not None and not m.error():
                out.append(m.value())
                pos[m.partition()] = m.offset() + 1
        return out
    finally:
        consumer.close()


def test_stream_through_the_pykafka_sink_loses_nothing_under_leader_kills(spark: Any, c: Any, tmp_path: Path) -> None:
    """`readStream.format("pykafka")` -> `writeStream.format("pykafka")` (idempotent producer, the
    sink's default) across partition-leader SIGKILLs on both topics: every acknowledged input
    record reaches the output topic (5 leader kills, alternating between the two topics)."""
    src, dst = "sk-in", "sk-out"
    create_topic(c.bootstrap_servers, src, partitions=4, rf=3)
    create_topic(c.bootstrap_servers, dst, partitions=4, rf=3)
    wait_full_isr(c, src, partitions=4)
    wait_full_isr(c, dst, partitions=4)
    prod = RateProducer(c.bootstrap_servers, src, rate=200).start()
    q = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", c.bootstrap_servers)
        .option("subscribe", src)
        .option("startingOffsets", "earliest")
        .load()
        .selectExpr("value")
        .writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", c.bootstrap_servers)
        .option("topic", dst)
        .option("checkpointLocation", str(tmp_path / "ck"))
        .start()
    )
    watch = Watch(q)
    try:
        prod.wait_for_acks(200, 30)
        watch.sleep(3)
        for k in range(5):  # leaders of the input and of the output topic, in turn
            leader = c.leader(src if k % 2 else dst, k % 4)
            c.kill(leader)
            watch.sleep(4)
            c.start(leader)
            c.wait_for(
                lambda: all(len(c.isr(t, p)) == 3 for t in (src, dst) for p in range(4)), timeout=60, what="full ISRs"
            )
            watch.alive()
    finally:
        prod.stop()
    acked = {v for _, _, v in prod.acked}
    assert not prod.errors, prod.errors[:3]
    deadline = time.monotonic() + 120
    got: list[bytes] = []
    while time.monotonic() < deadline:
        watch.alive()
        got = _read_topic(c.bootstrap_servers, dst, 4)
        if set(got) >= acked:
            break
        time.sleep(2)
    q.stop()
    assert q.exception() is None
    missing = acked - set(got)
    assert not missing, f"{len(missing)} of {len(acked)} acknowledged records never reached {dst}"
    sent = {b"seq-%09d" % i for i in range(prod.sent)}
    assert set(got) <= sent, "records in the output that were never produced"
    dups = sum(n - 1 for n in Counter(got).values() if n > 1)
    print(f"pykafka sink under leader kills: {len(got)} records out, {len(acked)} in, {dups} duplicates")
