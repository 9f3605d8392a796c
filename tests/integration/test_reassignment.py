"""kafka-reassign-partitions (Apache Kafka 4.3.1's own tool) against EmbeddedCluster(3) and a 3-broker
Apache Kafka cluster (issue 30): generate, execute, verify, --list, cancel and --throttle, asserting
the same outcome on both (replica sets, ISR, every record readable after the move, the removed
replica gone from its broker, the throttle holding a move in progress until it is cancelled).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic

from kafka_wire.protocol.messages import describe_log_dirs_request as dldq
from kafka_wire.protocol.messages import describe_topic_partitions_request as dtpq
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import StreamingProducer, cluster

REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"


@pytest.fixture(scope="module", params=["ours", "apache"])
def any_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        with cluster(3) as c:
            yield c
        return
    yield request.getfixturevalue("apache_kafka_cluster")


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _brokers(admin: AdminClient) -> dict[int, str]:
    """broker id -> host:port"""
    md = admin.list_topics(timeout=10)
    return {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()}


def _state(admin: AdminClient, topic: str) -> dict[int, tuple[list[int], list[int]]]:
    """partition -> (replicas, sorted ISR) from Metadata."""
    parts = admin.list_topics(topic, timeout=10).topics[topic].partitions
    return {i: (list(p.replicas), sorted(p.isrs)) for i, p in parts.items()}


def _reassign(tools: Any, bootstrap: str, *args: str) -> str:
    out = tools.run(REASSIGN, "--bootstrap-server", bootstrap, *args, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
    return str(out.stdout)


def _plan(tmp_path: Path, topic: str, targets: dict[int, list[int]]) -> str:
    path = tmp_path / f"{topic}.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [{"topic": topic, "partition": p, "replicas": r} for p, r in sorted(targets.items())],
            }
        )
    )
    return str(path)


def _hosted_on(bootstrap: str, topic: str) -> set[int]:
    """Partitions of `topic` the broker at `bootstrap` reports in DescribeLogDirs."""
    conn = w.connect(bootstrap)
    try:
        r = conn.request(35, dldq.DescribeLogDirsRequest(topics=[dldq.DescribableLogDirTopic(topic, [0, 1, 2])]), 4)
        return {p.partition_index for d in r.results for t in d.topics if t.name == topic for p in t.partitions}
    finally:
        conn.close()


def _consume_all(bootstrap: str, topic: str, partitions: int) -> list[bytes]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": _name("g"), "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        got: list[bytes] = []

        def more() -> bool:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m.value())
            return len(got) >= 40

        wait_until(more, 30, 0, "every record consumed")
        return got
    finally:
        c.close()


def test_reassign_generate_execute_verify(any_cluster: Any, tools: Any, tmp_path: Path) -> None:
    """Both partitions of an rf=2 topic move from brokers {a, b} to {b, c} under the tool: the new
    replicas catch up and join the ISR, the old one leaves (its broker no longer hosts the
    partition), --verify reports completion, every record is still there."""
    bootstrap = any_cluster.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": bootstrap})
    brokers = _brokers(admin)
    a, b, c = sorted(brokers)
    topic = _name("move")
    admin.create_topics([NewTopic(topic, 2, replica_assignment=[[a, b], [b, a]])])[topic].result(30)
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(40):
        p.produce(topic, value=f"r{i}".encode(), partition=i % 2)
    assert p.flush(30) == 0
    wait_until(lambda: _state(admin, topic) == {0: ([a, b], [a, b]), 1: ([b, a], [a, b])}, 30, 0.1, "full ISR")

    # --generate: the current assignment as the tool reads it, and a proposal over --broker-list
    moves = tmp_path / "topics.json"
    moves.write_text(json.dumps({"version": 1, "topics": [{"topic": topic}]}))
    out = _reassign(
        tools, bootstrap, "--generate", "--topics-to-move-json-file", str(moves), "--broker-list", f"{b},{c}"
    )
    current_json, proposed_json = [line for line in out.splitlines() if line.startswith("{")]
    current = {(x["partition"]): x["replicas"] for x in json.loads(current_json)["partitions"]}
    assert current == {0: [a, b], 1: [b, a]}
    proposed = {x["partition"]: x["replicas"] for x in json.loads(proposed_json)["partitions"]}
    assert all(sorted(r) == [b, c] for r in proposed.values()), proposed

    target = {0: [b, c], 1: [c, b]}
    plan = _plan(tmp_path, topic, target)
    out = _reassign(tools, bootstrap, "--execute", "--reassignment-json-file", plan)
    assert f"Successfully started partition reassignments for {topic}-0,{topic}-1" in out, out
    wait_until(lambda: _state(admin, topic) == {0: ([b, c], [b, c]), 1: ([c, b], [b, c])}, 30, 0.1, "moved")
    out = _reassign(tools, bootstrap, "--verify", "--reassignment-json-file", plan)
    assert f"Reassignment of partition {topic}-0 is completed." in out, out
    assert f"Reassignment of partition {topic}-1 is completed." in out, out
    assert "There is no active reassignment" not in out
    # a leader is one of the new replicas; broker a no longer hosts the partitions
    leaders = {i: pm.leader for i, pm in admin.list_topics(topic, timeout=10).topics[topic].partitions.items()}
    assert all(leaders[i] in target[i] for i in target), leaders
    # DescribeTopicPartitions (API 75) of the cluster shows the moved partitions too
    conn = w.connect(bootstrap)
    try:
        dtp = conn.request(75, dtpq.DescribeTopicPartitionsRequest(topics=[dtpq.TopicRequest(topic)]), 0)
    finally:
        conn.close()
    described = {p.partition_index: (p.replica_nodes, sorted(p.isr_nodes)) for p in dtp.topics[0].partitions}
    assert described == {0: ([b, c], [b, c]), 1: ([c, b], [b, c])}, dtp
    wait_until(lambda: _hosted_on(brokers[a], topic) == set(), 30, 0.2, "old replica removed")
    assert _hosted_on(brokers[c], topic) == {0, 1}
    assert sorted(_consume_all(bootstrap, topic, 2)) == sorted(f"r{i}".encode() for i in range(40))


def _describe(admin: AdminClient, resource: ConfigResource) -> dict[str, str]:
    res = admin.describe_configs([resource])[resource].result(20)
    return {k: v.value for k, v in res.items() if v.value is not None}


def _wait_for_configs(admin: AdminClient, resource: ConfigResource, expected: dict[str, str]) -> None:
    """Until `resource`'s described configs include `expected` (30 s)."""

    def included() -> bool:
        got = _describe(admin, resource)
        return {k: got.get(k) for k in expected} == expected

    wait_until(included, 30, 0.1, what=lambda: f"{expected} in {resource}: {_describe(admin, resource)}")


def test_reassign_throttle_list_cancel(any_cluster: Any, tools: Any, tmp_path: Path) -> None:
    """--throttle 1000 B/s holds a move of ~1.6 MB in progress: --list shows its adding and
    removing replicas, the throttle configs are set on the brokers and the topic, and --cancel
    reverts the replica set and clears the throttles."""
    bootstrap = any_cluster.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": bootstrap})
    a, b, _ = sorted(_brokers(admin))
    topic = _name("throttle")
    admin.create_topics([NewTopic(topic, 1, replica_assignment=[[a]])])[topic].result(30)
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 20, "compression.type": "none"})
    payload = uuid.uuid4().bytes * 64  # 1 KiB
    for _ in range(1600):
        p.produce(topic, value=payload, partition=0)
    assert p.flush(60) == 0

    plan = _plan(tmp_path, topic, {0: [b]})
    out = _reassign(tools, bootstrap, "--execute", "--reassignment-json-file", plan, "--throttle", "1000")
    assert "The inter-broker throttle limit was set to 1000 B/s" in out, out
    assert f"Successfully started partition reassignment for {topic}-0" in out, out
    cancelled = False
    try:
        out = _reassign(tools, bootstrap, "--list")
        assert f"{topic}-0: replicas: {b},{a}. adding: {b}. removing: {a}." in out, out
        # each broker answers Metadata and DescribeConfigs from its own copy of the cluster metadata,
        # which follows the controller's (on Apache Kafka a moment later under load): poll
        wait_until(lambda: _state(admin, topic)[0] == ([b, a], [a]), 30, 0.1, "replicas [b, a], ISR [a]")
        expected = {"leader.replication.throttled.rate": "1000", "follower.replication.throttled.rate": "1000"}
        for broker in (a, b):
            _wait_for_configs(admin, ConfigResource("BROKER", str(broker)), expected)
        throttled = {
            "leader.replication.throttled.replicas": f"0:{a}",
            "follower.replication.throttled.replicas": f"0:{b}",
        }
        _wait_for_configs(admin, ConfigResource("TOPIC", topic), throttled)

        out = _reassign(tools, bootstrap, "--cancel", "--reassignment-json-file", plan)
        cancelled = True
        assert f"Successfully cancelled partition reassignment for: {topic}-0" in out, out
    finally:
        if not cancelled:  # a move left in progress would refuse the next tests' --execute
            tools.run(
                REASSIGN, "--bootstrap-server", bootstrap, "--cancel", "--reassignment-json-file", plan, check=False
            )
    wait_until(lambda: _state(admin, topic) == {0: ([a], [a])}, 30, 0.1, "reverted")
    out = _reassign(tools, bootstrap, "--list")
    assert "No partition reassignments found." in out, out

    def cleared() -> bool:
        brokers_clear = all(
            "leader.replication.throttled.rate" not in _describe(admin, ConfigResource("BROKER", str(x)))
            for x in (a, b)
        )
        t = _describe(admin, ConfigResource("TOPIC", topic))
        return brokers_clear and not t.get("leader.replication.throttled.replicas")

    wait_until(cleared, 30, 0.2, "throttles cleared")


@pytest.fixture(scope="module")
def tools(kafka_tools: Any) -> Any:
    return kafka_tools  # the run's one tool JVM (tests/peers/fixtures.py)


def _sizes(bootstrap: str, topic: str, partitions: int) -> int:
    """Bytes of `topic`'s replicas on the broker at `bootstrap` (DescribeLogDirs)."""
    conn = w.connect(bootstrap)
    try:
        req = dldq.DescribeLogDirsRequest(topics=[dldq.DescribableLogDirTopic(topic, list(range(partitions)))])
        r = conn.request(35, req, 4)
        return sum(p.partition_size for d in r.results for t in d.topics if t.name == topic for p in t.partitions)
    finally:
        conn.close()


def _log_dirs_of(server: Any, node: int) -> list[Path]:
    if hasattr(server, "broker_log_dirs"):  # ours
        return list(server.broker_log_dirs(node))
    return [server.log_dir(node)]  # Apache Kafka: node ids are its node indexes


class _ReadingConsumer:
    """A consumer reading every partition of a topic from offset 0 in a thread, all along."""

    def __init__(self, bootstrap: str, topic: str, partitions: int, start: int = 0) -> None:
        self.got: dict[int, list[bytes]] = {p: [] for p in range(partitions)}
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._consumer = Consumer(
            {"bootstrap.servers": bootstrap, "group.id": _name("g"), "enable.auto.commit": False,
             "topic.metadata.refresh.interval.ms": 1000, "auto.offset.reset": "error"}
        )  # fmt: skip
        self._consumer.assign([TopicPartition(topic, p, start) for p in range(partitions)])
        self._thread = threading.Thread(target=self._run, name="reading-consumer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            for m in self._consumer.consume(500, 0.2):
                if m.error() is None:
                    self.got[m.partition()].append(m.value())
                elif m.error().fatal() or m.error().code() == KafkaError._AUTO_OFFSET_RESET:
                    self.errors.append(str(m.error()))  # leader moves are retried inside librdkafka

    def count(self) -> int:
        return sum(len(v) for v in self.got.values())

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self._consumer.close()


# the throttle of the throttled move (B/s): a 9 MiB move at 2 MB/s takes ~4 s; Kafka answers the
# first fetch of each partition whole (up to replica.fetch.max.bytes, 1 MiB), so the rate is
# observed after the first bytes arrive
THROTTLE = 2_000_000
PRELOAD = 3 * 1024  # 1 KiB records per partition (3 MiB each)


@pytest.mark.parametrize("throttle", [None, THROTTLE], ids=["unthrottled", "throttled"])
def test_reassign_every_partition_under_load(
    any_cluster: Any, tools: Any, tmp_path: Path, throttle: int | None
) -> None:
    """Every partition of a 3-partition rf=2 topic moves from brokers {a, b} to {b, c} (the leader
    of partitions 0 and 2 leaves) while an idempotent acks=all producer writes and a consumer reads:
    every acknowledged record is read exactly once, in the order sent, per partition; the moves
    complete; broker a no longer hosts the partitions (DescribeLogDirs, its log dir). Throttled
    (--throttle): the bytes reaching c, the new replica, arrive at <= 1.5x the throttle once the
    first fetch is in, and the move still completes; --verify clears the throttles."""
    bootstrap = any_cluster.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": bootstrap})
    brokers = _brokers(admin)
    a, b, c = sorted(brokers)
    topic = _name("every")
    admin.create_topics([NewTopic(topic, 3, replica_assignment=[[a, b], [b, a], [a, b]])])[topic].result(30)
    wait_until(lambda: all(len(isr) == 2 for _, isr in _state(admin, topic).values()), 30, 0.1, "full ISR")
    if throttle:  # data to move, so that the move lasts several throttle windows
        p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 20, "compression.type": "none"})
        payload = uuid.uuid4().bytes * 64
        for i in range(3 * PRELOAD):
            p.produce(topic, value=b"pre-%09d" % i + payload, partition=i % 3)
            p.poll(0)
        assert p.flush(60) == 0
    target = {0: [b, c], 1: [c, b], 2: [c, b]}
    plan = _plan(tmp_path, topic, target)
    # the consumer reads what is written during the move (from the end of the preload); the
    # preload is read back after it
    consumer = _ReadingConsumer(bootstrap, topic, 3, PRELOAD if throttle else 0)
    producer = StreamingProducer(bootstrap, topic).start()
    samples: list[tuple[float, int]] = []
    try:
        producer.wait_for_acks(300, 30)
        args = ["--execute", "--reassignment-json-file", plan] + (["--throttle", str(throttle)] if throttle else [])
        out = tools.run(REASSIGN, "--bootstrap-server", bootstrap, *args)
        assert f"Successfully started partition reassignments for {topic}-0,{topic}-1,{topic}-2" in out.stdout

        def moved() -> bool:
            samples.append((time.monotonic(), _sizes(brokers[c], topic, 3)))
            state = _state(admin, topic)
            return all(state[i][0] == target[i] and sorted(state[i][1]) == sorted(target[i]) for i in target)

        wait_until(moved, 90, 0.1, "every partition moved")
        moved_at = producer.count()
        producer.wait_for_acks(moved_at + 300, 30)  # still writing, to the new leaders
    finally:
        producer.stop()
        verify = tools.run(REASSIGN, "--bootstrap-server", bootstrap, "--verify", "--reassignment-json-file", plan)
        if "is still in progress" in verify.stdout:  # failed: leave the shared Apache cluster unthrottled
            tools.run(REASSIGN, "--bootstrap-server", bootstrap, "--cancel", "--reassignment-json-file", plan)
    assert producer.errors == []
    for i in range(3):
        assert f"Reassignment of partition {topic}-{i} is completed." in verify.stdout, verify.stdout
    if throttle:
        assert "Clearing broker-level throttles on brokers" in verify.stdout, verify.stdout
        first = next((k for k, (_, size) in enumerate(samples) if size > 0), len(samples) - 1)
        (t0, s0), (t1, s1) = samples[first], samples[-1]
        assert s1 - s0 >= 2 * 1024 * 1024, samples  # enough bytes in the window to see a rate
        rate = (s1 - s0) / (t1 - t0)
        print(f"move: {(s1 - s0) / 1e6:.1f} MB in {t1 - t0:.1f} s = {rate / throttle:.2f}x the throttle")
        assert rate <= 1.5 * throttle, f"{rate / throttle:.2f}x the throttle: {samples}"
        wait_until(
            lambda: all(
                "follower.replication.throttled.rate" not in _describe(admin, ConfigResource("BROKER", str(x)))
                for x in (a, b, c)
            ),
            30,
            0.2,
            "throttles cleared by --verify",
        )
    acked: dict[int, list[bytes]] = {i: [] for i in range(3)}
    with producer._lock:
        for partition, _, value in sorted(producer.acked, key=lambda x: x[2]):
            acked[partition].append(value)
    try:
        total = sum(len(v) for v in acked.values())
        wait_until(lambda: consumer.count() >= total, 60, 0.1, "every acknowledged record read")
    finally:
        consumer.close()
    assert consumer.errors == []
    for i in range(3):
        assert consumer.got[i] == acked[i], (i, len(consumer.got[i]), len(acked[i]))  # once each, in order
    if throttle:
        after = _ReadingConsumer(bootstrap, topic, 3)
        try:
            wait_until(lambda: after.count() >= 3 * PRELOAD + total, 60, 0.1, "the whole log read after the move")
        finally:
            after.close()
        assert after.errors == []
        for i in range(3):
            preloaded = [int(v[4:13]) for v in after.got[i] if v.startswith(b"pre-")]
            assert preloaded == list(range(i, 3 * PRELOAD, 3))
            assert after.got[i][PRELOAD:] == acked[i]
    # the old replica is gone from broker a: DescribeLogDirs and its log dir (Apache renames a
    # deleted log <topic>-<p>.<id>-delete and removes it file.delete.delay.ms later)
    wait_until(lambda: _hosted_on(brokers[a], topic) == set(), 30, 0.2, "old replicas removed")
    for d in _log_dirs_of(any_cluster, a):
        wait_until(lambda d=d: not any((d / f"{topic}-{i}").exists() for i in range(3)), 30, 0.2, f"{d} emptied")
    assert _hosted_on(brokers[c], topic) == {0, 1, 2}
