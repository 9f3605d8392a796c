"""Several log dirs per broker (JBOD, issue 30) with Kafka 4.3.1's own tools, on ours and Apache Kafka.

DescribeLogDirs lists both dirs with sizes; `kafka-reassign-partitions --execute` with a
JSON naming "log_dirs" sends AlterReplicaLogDirs and the replica moves to the other dir of the same
broker with its records intact. One 2-dir Apache broker is started for the whole module; its second dir
(and ours) is a small tmpfs, filled up by the last test: a failed dir takes only its own partitions offline.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded.embedded import EmbeddedBroker
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_log_dirs_request as dldq
from kafka_wire.records import build_batch
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.disk_util import fill_until_full, mount_tmpfs, unmount

REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"


@pytest.fixture(scope="module", params=["ours", "apache"])
def jbod_broker(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any, list[str], bool]]:
    """(kind, broker, [dir a, dir b], whether b is a tmpfs) of a broker with log.dirs=a,b."""
    tmp = Path(tempfile.mkdtemp(prefix="jbod-"))
    dirs = [str(tmp / "a"), str(tmp / "b")]
    tmpfs = mount_tmpfs(Path(dirs[1]), "4m")
    try:
        if request.param == "ours":
            b = EmbeddedBroker(**{"log.dirs": ",".join(dirs)}).start()
            try:
                yield "ours", b, dirs, tmpfs
            finally:
                b.stop()
        else:
            from peers import jvm
            from tests.peers.fixtures import require_kafka_peers

            require_kafka_peers()
            with jvm.ApacheKafka(1, overrides={"log.dirs": ",".join(dirs)}) as kafka:
                yield "apache", kafka, dirs, tmpfs
    finally:
        if tmpfs:
            unmount(dirs[1])
        shutil.rmtree(tmp, ignore_errors=True)


def _describe(bootstrap: str, topic: str) -> dict[str, dict[int, tuple[int, int, bool]]]:
    """dir -> {partition: (size, offset lag, is future)} of `topic`, from DescribeLogDirs v4."""
    conn = w.connect(bootstrap)
    try:
        r = conn.request(35, dldq.DescribeLogDirsRequest(topics=None), 4)
    finally:
        conn.close()
    assert r.error_code == ErrorCode.NONE
    return {
        d.log_dir: {
            p.partition_index: (p.partition_size, p.offset_lag, p.is_future_key)
            for t in d.topics
            if t.name == topic
            for p in t.partitions
        }
        for d in r.results
    }


def test_log_dirs_describe_and_move_with_kafka_tools(
    jbod_broker: tuple[str, Any, list[str], bool], java_client: Any, tmp_path: Path
) -> None:
    _, broker, dirs, _ = jbod_broker
    bootstrap = broker.bootstrap_servers
    topic = f"jbod-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 2, 1)])[topic].result(30)
    (node,) = admin.list_topics(timeout=10).brokers
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for part in (0, 1):
        for i in range(20):
            p.produce(topic, value=f"v{part}-{i}".encode() * 10, partition=part)
    assert p.flush(30) == 0

    # DescribeLogDirs (what kafka-log-dirs --describe prints; the tool itself runs in test_operator_tools):
    # both dirs, one new partition in each (fewest first), sizes, no lag
    placed = _describe(bootstrap, topic)
    assert sorted(placed) == dirs
    where = {f"{topic}-{q}": d for d, ps in placed.items() for q in ps}
    assert sorted(where) == [f"{topic}-0", f"{topic}-1"] and len(set(where.values())) == 2
    assert all(size > 0 and lag == 0 and not future for ps in placed.values() for size, lag, future in ps.values())

    # kafka-reassign-partitions --execute with "log_dirs": AlterReplicaLogDirs moves t-0 next to t-1
    src, dst = where[f"{topic}-0"], where[f"{topic}-1"]
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [node], "log_dirs": [dst]}]}
        )
    )
    out = java_client.run(
        REASSIGN, "--bootstrap-server", bootstrap, "--execute", "--reassignment-json-file", str(plan), check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr
    want = f"Successfully started moving log directory to {dst} for replica {topic}-0 with broker {node}"
    assert want in out.stdout, out.stdout

    def moved() -> bool:
        d = _describe(bootstrap, topic)
        return 0 not in d[src] and d[dst].get(0, (0, 1, True))[1:] == (0, False)

    wait_until(moved, timeout=30, interval=0.2, what="the replica in its new dir")
    after = _describe(bootstrap, topic)
    assert after[dst][0][0] > 0 and set(after[dst]) == {0, 1}
    # the records read back whole, and the moved partition keeps taking writes
    p.produce(topic, value=b"after", partition=0)
    assert p.flush(30) == 0
    got = w.consume_all(bootstrap, topic, [0], 21)
    assert [v for _, _, _, v in got] == [f"v0-{i}".encode() * 10 for i in range(20)] + [b"after"]


def _partition_shape(p: Any) -> tuple[int, int, list[int], list[int], list[int]]:
    return p.error_code, p.leader_id, list(p.replica_nodes), list(p.isr_nodes), list(p.offline_replicas)


def test_a_failed_dir_takes_only_its_partitions_offline(jbod_broker: tuple[str, Any, list[str], bool]) -> None:
    """A dir filled up (ENOSPC, a real failure) takes only its partitions offline, as Kafka 4.3.1 shows it
    (KIP-858): Metadata answers those partitions with no leader and the replica offline, produce there fails,
    the other dir keeps serving, DescribeLogDirs reports the dir failed, new partitions go to the other dir."""
    kind, broker, dirs, tmpfs = jbod_broker
    if not tmpfs:
        pytest.skip("failing a log dir for real needs a tmpfs mount (root)")
    bootstrap = broker.bootstrap_servers
    topic = f"fail-{uuid.uuid4().hex[:8]}"
    conn = w.connect(bootstrap)
    try:
        w.create_topic(conn, topic, 4)
        placed = wait_until(
            lambda: (d := _describe(bootstrap, topic)) and sum(len(ps) for ps in d.values()) == 4 and d,
            timeout=30, interval=0.1, what="the partitions in their dirs",
        )  # fmt: skip
        on_a, on_b = sorted(placed[dirs[0]]), sorted(placed[dirs[1]])
        assert on_a and on_b, placed  # fewest partitions first spreads them over both dirs
        node = w.metadata(conn, [topic]).brokers[0].node_id
        fill_until_full(Path(dirs[1]))
        r = w.produce(conn, topic, on_b[0], build_batch(w.records(20)))
        assert r.error_code == ErrorCode.KAFKA_STORAGE_ERROR, r

        def offline() -> Any:
            (t,) = w.metadata(conn, [topic]).topics
            parts = {p.partition_index: p for p in t.partitions}
            return all(parts[q].leader_id == -1 for q in on_b) and parts

        parts = wait_until(offline, timeout=30, interval=0.1, what="the failed dir's partitions without a leader")
        for q in on_b:
            assert _partition_shape(parts[q]) == (ErrorCode.LEADER_NOT_AVAILABLE, -1, [node], [], [node]), kind
        for q in on_a:
            assert _partition_shape(parts[q]) == (ErrorCode.NONE, node, [node], [node], []), kind
            assert w.produce(conn, topic, q, build_batch(w.records(1))).error_code == ErrorCode.NONE
        for q in on_b:
            assert w.produce(conn, topic, q, build_batch(w.records(1))).error_code != ErrorCode.NONE
        # DescribeLogDirs: the failed dir with its error only (no partitions, sizes unknown)
        r = conn.request(35, dldq.DescribeLogDirsRequest(topics=None), 4)
        by_dir = {d.log_dir: d for d in r.results}
        failed, online = by_dir[dirs[1]], by_dir[dirs[0]]
        assert (failed.error_code, failed.topics, failed.total_bytes, failed.usable_bytes) == (56, [], -1, -1)
        assert online.error_code == 0 and online.total_bytes >= online.usable_bytes > 0
        # new partitions go to the dir still online
        w.create_topic(conn, topic + "-new", 2)
        wait_until(
            lambda: sorted(_describe(bootstrap, topic + "-new").get(dirs[0], {})) == [0, 1],
            timeout=30, interval=0.1, what="the new partitions in the online dir",
        )  # fmt: skip
    finally:
        conn.close()
