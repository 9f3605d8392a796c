"""A 3-broker cluster (controller + brokers as processes): topic admin through any broker, replica
assignment, the metadata clients see (confluent-kafka and kafka-python), configs, the CLI."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, ConfigResource, NewPartitions, NewTopic

from broker_embedded import EmbeddedCluster
from kafka_wire.errors import ErrorCode
from tests.integration import wire_util as w
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr, wait_metadata_everywhere
from tests.integration.test_offset_commit_topic_ids import deleted_topic_loses_its_offsets

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def c() -> Iterator[EmbeddedCluster]:
    with cluster(3, **{"default.replication.factor": 2, "num.partitions": 2}) as c:
        yield c


def test_create_rf3_leaders_spread_and_full_isr(c: EmbeddedCluster) -> None:
    create_topic(c.bootstrap_servers, "spread", partitions=3, rf=3)
    wait_full_isr(c, "spread", 3)
    # the controller's view first; the broker answering Metadata learns it from the metadata log a moment
    # later (CI-equivalent run, session 18: no partitions yet under load), as a Kafka broker does
    wait_metadata_everywhere(c, "spread", 3)
    md = AdminClient({"bootstrap.servers": c.bootstrap_servers}).list_topics("spread", timeout=10)
    assert len(md.topics["spread"].partitions) == 3
    assert sorted(md.brokers) == [1, 2, 3]
    parts = md.topics["spread"].partitions
    assert sorted(p.leader for p in parts.values()) == [1, 2, 3], "leaders are not spread over the brokers"
    for p in parts.values():
        assert sorted(p.replicas) == [1, 2, 3]
        assert sorted(p.isrs) == [1, 2, 3]
        assert p.leader == c.leader("spread", p.id)


def test_kafka_python_sees_the_same_metadata(c: EmbeddedCluster) -> None:
    from kafka import KafkaAdminClient

    create_topic(c.bootstrap_servers, "kp-meta", partitions=2, rf=3)
    wait_full_isr(c, "kp-meta", 2)
    wait_metadata_everywhere(c, "kp-meta", 2)  # kafka-python asks any broker (run 1, session 19: error 3)
    admin = KafkaAdminClient(bootstrap_servers=c.bootstrap_servers, request_timeout_ms=10000)
    try:
        (desc,) = admin.describe_topics(["kp-meta"])
        assert desc["error_code"] == 0
        by_index = {p["partition_index"]: p for p in desc["partitions"]}
        for i in range(2):
            assert by_index[i]["leader_id"] == c.leader("kp-meta", i)
            assert sorted(by_index[i]["replica_nodes"]) == [1, 2, 3]
            assert sorted(by_index[i]["isr_nodes"]) == [1, 2, 3]
        cluster_desc = admin.describe_cluster()
        assert sorted(b["broker_id"] for b in cluster_desc["brokers"]) == [1, 2, 3], cluster_desc
        assert cluster_desc["controller_id"] in (1, 2, 3)
    finally:
        admin.close()


def test_replication_factor_beyond_brokers_and_defaults(c: EmbeddedCluster) -> None:
    admin = AdminClient({"bootstrap.servers": c.bootstrap_servers})
    fs = admin.create_topics([NewTopic("too-many", 1, 4)])
    with pytest.raises(KafkaException) as e:
        fs["too-many"].result(10)
    assert e.value.args[0].code() == ErrorCode.INVALID_REPLICATION_FACTOR
    assert "only 3 broker(s)" in e.value.args[0].str()
    # default.replication.factor=2 and num.partitions=2 come from the cluster's configs
    fs = admin.create_topics([NewTopic("defaults")])
    fs["defaults"].result(10)
    md = admin.list_topics("defaults", timeout=10)
    assert len(md.topics["defaults"].partitions) == 2
    assert all(len(p.replicas) == 2 for p in md.topics["defaults"].partitions.values())
    fs = admin.create_topics([NewTopic("defaults", 1, 1)])
    with pytest.raises(KafkaException) as e:
        fs["defaults"].result(10)
    assert e.value.args[0].code() == ErrorCode.TOPIC_ALREADY_EXISTS


def test_admin_through_each_broker(c: EmbeddedCluster) -> None:
    """Requests sent to any one broker are forwarded to the controller; every broker sees the result.

    The broker that forwarded the request has the new metadata when it answers (the controller pushes
    its image before it answers); the others learn it from the same push a moment later, as Kafka's
    brokers do, so they are given a bounded time to see it.
    """

    def topic_metadata(broker_id: int, name: str) -> Any:
        with w.connect(c.bootstrap(broker_id)) as conn:
            return w.metadata(conn, [name]).topics[0]

    for creator in c.broker_ids:
        name = f"via-{creator}"
        with w.connect(c.bootstrap(creator)) as conn:
            from kafka_wire.protocol.messages import create_topics_request as ct

            resp = conn.request(
                19,
                ct.CreateTopicsRequest(
                    topics=[ct.CreatableTopic(name=name, num_partitions=1, replication_factor=3)], timeout_ms=10000
                ),
            )
            assert resp.topics[0].error_code == ErrorCode.NONE, resp.topics[0].error_message
            assert resp.topics[0].replication_factor == 3
        md = topic_metadata(creator, name)
        assert md.error_code == ErrorCode.NONE, (creator, md)
        for other in c.broker_ids:
            md = c.wait_for(
                lambda o=other, n=name: (m := topic_metadata(o, n)).error_code == ErrorCode.NONE and m,
                timeout=10,
                what=f"broker {other} to see topic {name}",
            )
            assert sorted(md.partitions[0].replica_nodes) == [1, 2, 3]
    # grow a topic through broker 2, alter its configs through broker 3, delete it through broker 1
    a2 = AdminClient({"bootstrap.servers": c.bootstrap(2)})
    a2.create_partitions([NewPartitions("via-1", 3)])["via-1"].result(10)
    a3 = AdminClient({"bootstrap.servers": c.bootstrap(3)})
    res = ConfigResource(ConfigResource.Type.TOPIC, "via-1", set_config={"retention.ms": "123456"})
    a3.alter_configs([res])[res].result(10)
    bad = ConfigResource(ConfigResource.Type.TOPIC, "via-1", set_config={"retention.ms": "soon"})
    with pytest.raises(KafkaException) as e:
        a3.alter_configs([bad])[bad].result(10)
    assert e.value.args[0].code() == ErrorCode.INVALID_CONFIG
    for b in c.broker_ids:
        ab = AdminClient({"bootstrap.servers": c.bootstrap(b)})
        c.wait_for(
            lambda ab=ab: len(ab.list_topics("via-1", timeout=10).topics["via-1"].partitions) == 3,
            timeout=10,
            what=f"broker {b} to see via-1's 3 partitions",
        )

        def retention_ms(ab: AdminClient = ab) -> str:
            got = ab.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, "via-1")])
            return str(next(iter(got.values())).result(10)["retention.ms"].value)

        c.wait_for(lambda r=retention_ms: r() == "123456", timeout=10, what=f"broker {b} to see the new config")
    a1 = AdminClient({"bootstrap.servers": c.bootstrap(1)})
    a1.delete_topics(["via-1"])["via-1"].result(10)
    assert topic_metadata(1, "via-1").error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    for b in c.broker_ids:
        c.wait_for(
            lambda b=b: topic_metadata(b, "via-1").error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            timeout=10,
            what=f"broker {b} to forget via-1",
        )
    with pytest.raises(KafkaException) as e:
        a1.delete_topics(["via-1"])["via-1"].result(10)
    assert e.value.args[0].code() == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    # the deleted replicas are gone from every broker's log dir
    c.wait_for(
        lambda: not any((c.broker_log_dir(b) / "via-1-0").exists() for b in c.broker_ids),
        timeout=10,
        what="via-1's logs deleted on every broker",
    )


def test_auto_create_and_produce_consume(c: EmbeddedCluster) -> None:
    p = Producer({"bootstrap.servers": c.bootstrap_servers, "acks": "all", "enable.idempotence": True})
    for i in range(20):
        p.produce("auto-created", key=b"k%d" % (i % 2), value=b"v%d" % i)
    assert p.flush(30) == 0
    md = AdminClient({"bootstrap.servers": c.bootstrap_servers}).list_topics("auto-created", timeout=10)
    assert all(len(x.replicas) == 2 for x in md.topics["auto-created"].partitions.values())
    consumer = Consumer(
        {"bootstrap.servers": c.bootstrap_servers, "group.id": "auto-g", "auto.offset.reset": "earliest"}
    )
    try:
        consumer.subscribe(["auto-created"])
        got: list[bytes] = []
        per_partition = {0: 0, 1: 0}
        deadline = time.monotonic() + 30
        while len(got) < 20 and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is not None and not m.error():
                got.append(m.value())
                per_partition[m.partition()] += 1
        assert sorted(got) == sorted(b"v%d" % i for i in range(20))
        consumer.commit(asynchronous=False)
        committed = consumer.committed([TopicPartition("auto-created", i) for i in range(2)], timeout=10)
        for tp in committed:
            assert tp.offset == (per_partition[tp.partition] or -1001), committed
    finally:
        consumer.close()


def test_cli_cluster_subcommand(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = subprocess.run(
        [sys.executable, "-m", "broker_embedded", "cluster", "--help"], capture_output=True, text=True, timeout=30
    )
    assert r.returncode == 0 and "--brokers" in r.stdout and "--log-dir" in r.stdout
    r = subprocess.run([sys.executable, "-m", "broker_embedded", "--help"], capture_output=True, text=True, timeout=30)
    assert "--node-id" in r.stdout and "--controller" in r.stdout and "cluster --brokers" in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "broker_embedded", "cluster", "--brokers", "0"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2 and "--brokers" in r.stderr
    r = subprocess.run(
        [sys.executable, "-m", "broker_embedded", "cluster", "--controllers", "0"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode == 2 and "--controllers must be at least 1" in r.stderr
    proc = subprocess.Popen(
        [sys.executable, "-m", "broker_embedded", "cluster", "--brokers", "2", "--log-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        m = re.fullmatch(r"bootstrap\.servers=127\.0\.0\.1:(\d+),127\.0\.0\.1:(\d+)", line)
        assert m, line
        md = AdminClient({"bootstrap.servers": line.split("=", 1)[1]}).list_topics(timeout=10)
        assert sorted(md.brokers) == [1, 2]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    # the given log dir is kept: controller state and each broker's dir
    assert (tmp_path / "controller" / "controller-state.json").exists()
    assert (tmp_path / "broker-1" / "meta.properties").exists()


def test_producer_ids_unique_across_brokers(c: EmbeddedCluster) -> None:
    """Every broker hands out producer ids from blocks the controller allocates: a second idempotent
    producer must never get the id of an earlier one (its sequence state is in the replicated logs)."""
    ids = []
    for b in c.broker_ids * 3:
        with w.connect(c.bootstrap(b)) as conn:
            pid, epoch = w.init_producer_id(conn)
            ids.append(pid)
            assert epoch == 0
    assert len(set(ids)) == len(ids), ids
    # and two idempotent producers in a row, on a topic led by different brokers, both work
    create_topic(c.bootstrap_servers, "pids", partitions=3, rf=3)
    for _ in range(2):
        p = Producer({"bootstrap.servers": c.bootstrap_servers, "enable.idempotence": True})
        for i in range(30):
            p.produce("pids", key=b"%d" % i, value=b"x")
        assert p.flush(20) == 0


def test_children_exit_when_the_parent_dies(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A test process killed mid-run leaves no broker or controller behind (they watch their stdin)."""
    script = (
        "import os, sys, time\n"
        "from broker_embedded import EmbeddedCluster\n"
        f"c = EmbeddedCluster(brokers=2, log_dir={str(tmp_path)!r}).start()\n"
        "pids = [c.pid(b) for b in c.broker_ids] + [c.controller_pid(i) for i in c.controller_ids]\n"
        "print(' '.join(map(str, pids)), flush=True)\n"
        "time.sleep(120)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=w.REPO_ROOT)
    try:
        assert parent.stdout is not None
        pids = [int(x) for x in parent.stdout.readline().split()]
        assert len(pids) == 4  # 2 brokers, the active controller and its standby
        parent.kill()
        parent.wait(10)
        deadline = time.monotonic() + 15
        alive = pids
        while alive and time.monotonic() < deadline:
            alive = [p for p in pids if _alive(p)]
            time.sleep(0.1)
        assert not alive, f"processes {alive} outlived their parent"
    finally:
        if parent.poll() is None:
            parent.kill()


def _alive(pid: int) -> bool:
    import os

    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by init) counts as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def test_broker_refuses_another_clusters_controller(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A log dir with topics of one cluster is never handed to another controller's image (which would
    delete them): the broker stops with INCONSISTENT_CLUSTER_ID-like error and the data stays."""
    import shutil

    with EmbeddedCluster(brokers=1, log_dir=tmp_path) as c:
        create_topic(c.bootstrap_servers, "precious", rf=1)
    shutil.rmtree(tmp_path / "controller")  # a new controller: a new cluster id
    with pytest.raises(RuntimeError) as e:
        EmbeddedCluster(brokers=1, log_dir=tmp_path, startup_timeout=20).start()
    assert "cluster id" in str(e.value)
    assert (tmp_path / "broker-1" / "precious-0").is_dir()


def test_offsets_of_a_deleted_topic_are_deleted(c: EmbeddedCluster) -> None:
    """On a cluster the group coordinator learns of the deletion from the metadata log (each broker
    deletes the offsets of the groups it coordinates); the scenario is the differential one of
    test_offset_commit_topic_ids.py."""
    deleted_topic_loses_its_offsets(c.bootstrap_servers)
