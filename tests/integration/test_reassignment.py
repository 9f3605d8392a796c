"""kafka-reassign-partitions (Apache Kafka 4.3.1's own tool) against EmbeddedCluster(3) and a 3-broker
Apache Kafka cluster (issue 30): generate, execute, verify, --list, cancel and --throttle, asserting
the same outcome on both (replica sets, ISR, every record readable after the move, the removed
replica gone from its broker, the throttle holding a move in progress until it is cancelled).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
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


def _reassign(java_client: Any, bootstrap: str, *args: str) -> str:
    out = java_client.run(REASSIGN, "--bootstrap-server", bootstrap, *args, check=False)
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
        r = conn.request(35, dldq.DescribeLogDirsRequest(topics=[dldq.DescribableLogDirTopic(topic, [0, 1])]), 4)
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


def test_reassign_generate_execute_verify(any_cluster: Any, java_client: Any, tmp_path: Path) -> None:
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
        java_client, bootstrap, "--generate", "--topics-to-move-json-file", str(moves), "--broker-list", f"{b},{c}"
    )
    current_json, proposed_json = [line for line in out.splitlines() if line.startswith("{")]
    current = {(x["partition"]): x["replicas"] for x in json.loads(current_json)["partitions"]}
    assert current == {0: [a, b], 1: [b, a]}
    proposed = {x["partition"]: x["replicas"] for x in json.loads(proposed_json)["partitions"]}
    assert all(sorted(r) == [b, c] for r in proposed.values()), proposed

    target = {0: [b, c], 1: [c, b]}
    plan = _plan(tmp_path, topic, target)
    out = _reassign(java_client, bootstrap, "--execute", "--reassignment-json-file", plan)
    assert f"Successfully started partition reassignments for {topic}-0,{topic}-1" in out, out
    wait_until(lambda: _state(admin, topic) == {0: ([b, c], [b, c]), 1: ([c, b], [b, c])}, 30, 0.1, "moved")
    out = _reassign(java_client, bootstrap, "--verify", "--reassignment-json-file", plan)
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


def test_reassign_throttle_list_cancel(any_cluster: Any, java_client: Any, tmp_path: Path) -> None:
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
    out = _reassign(java_client, bootstrap, "--execute", "--reassignment-json-file", plan, "--throttle", "1000")
    assert "The inter-broker throttle limit was set to 1000 B/s" in out, out
    assert f"Successfully started partition reassignment for {topic}-0" in out, out

    out = _reassign(java_client, bootstrap, "--list")
    assert f"{topic}-0: replicas: {b},{a}. adding: {b}. removing: {a}." in out, out
    assert _state(admin, topic)[0] == ([b, a], [a])
    for broker in (a, b):
        configs = _describe(admin, ConfigResource("BROKER", str(broker)))
        assert configs.get("leader.replication.throttled.rate") == "1000", configs
        assert configs.get("follower.replication.throttled.rate") == "1000", configs
    topic_configs = _describe(admin, ConfigResource("TOPIC", topic))
    assert topic_configs.get("leader.replication.throttled.replicas") == f"0:{a}", topic_configs
    assert topic_configs.get("follower.replication.throttled.replicas") == f"0:{b}", topic_configs

    out = _reassign(java_client, bootstrap, "--cancel", "--reassignment-json-file", plan)
    assert f"Successfully cancelled partition reassignment for: {topic}-0" in out, out
    wait_until(lambda: _state(admin, topic) == {0: ([a], [a])}, 30, 0.1, "reverted")
    out = _reassign(java_client, bootstrap, "--list")
    assert "No partition reassignments found." in out, out

    def cleared() -> bool:
        brokers_clear = all(
            "leader.replication.throttled.rate" not in _describe(admin, ConfigResource("BROKER", str(x)))
            for x in (a, b)
        )
        t = _describe(admin, ConfigResource("TOPIC", topic))
        return brokers_clear and not t.get("leader.replication.throttled.replicas")

    wait_until(cleared, 30, 0.2, "throttles cleared")


def test_reassign_under_an_idempotent_producer(java_client: Any, tmp_path: Path) -> None:
    """Ours: a one-partition topic moves from {a, b} to {b, c} (its leader a leaves, so leadership
    moves mid-stream) while an idempotent acks=all producer writes: afterwards the log holds every
    acknowledged record exactly once, in the order sent, and nothing else; the old replica's files
    are deleted from broker a's log dir."""
    with cluster(3, controllers=1) as c:  # no standby controller needed: one process less to start
        bootstrap = c.bootstrap_servers
        admin = AdminClient({"bootstrap.servers": bootstrap})
        a, b, third = sorted(_brokers(admin))
        topic = _name("load")
        admin.create_topics([NewTopic(topic, 1, replica_assignment=[[a, b]])])[topic].result(30)
        wait_until(lambda: _state(admin, topic) == {0: ([a, b], [a, b])}, 30, 0.1, "full ISR")
        producer = StreamingProducer(bootstrap, topic).start()
        try:
            producer.wait_for_acks(500, 30)
            plan = _plan(tmp_path, topic, {0: [b, third]})
            _reassign(java_client, bootstrap, "--execute", "--reassignment-json-file", plan)
            wait_until(lambda: _state(admin, topic) == {0: ([b, third], [b, third])}, 30, 0.1, "moved")
            moved_at = producer.count()
            producer.wait_for_acks(moved_at + 500, 30)  # still writing to the new leader
        finally:
            producer.stop()
        assert producer.errors == []
        acked = producer.acked_in_log_order()
        consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": _name("g"), "enable.auto.commit": False})
        try:
            consumer.assign([TopicPartition(topic, 0, 0)])
            got: list[bytes] = []

            def read_all() -> bool:
                for m in consumer.consume(1000, 0.5):
                    if m.error() is None:
                        got.append(m.value())
                return len(got) >= len(acked)

            wait_until(read_all, 60, 0, "the whole log read")
        finally:
            consumer.close()
        assert got == acked, (len(got), len(acked))
        assert leaders_of(admin, topic) in ([b], [third])
        # the old replica's files are gone: DescribeLogDirs of broker a and its log dir on disk
        brokers = _brokers(admin)
        wait_until(lambda: _hosted_on(brokers[a], topic) == set(), 30, 0.2, "old replica removed")
        leftovers = [p for d in c.broker_log_dirs(a) for p in d.glob(f"{topic}-*")]
        wait_until(lambda: not [p for p in leftovers if p.exists()], 30, 0.2, f"{leftovers} deleted")
        assert not [p for d in c.broker_log_dirs(a) for p in d.glob(f"{topic}-*")]
        assert _hosted_on(brokers[third], topic) == {0}
        assert [p.name for d in c.broker_log_dirs(third) for p in d.glob(f"{topic}-*")] == [f"{topic}-0"]


def leaders_of(admin: AdminClient, topic: str) -> list[int]:
    return [p.leader for p in admin.list_topics(topic, timeout=10).topics[topic].partitions.values()]
