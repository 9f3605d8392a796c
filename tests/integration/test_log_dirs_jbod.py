"""Several log dirs per broker (JBOD, issue 30) with Kafka 4.3.1's own tools, on ours and Apache Kafka.

`kafka-log-dirs --describe` lists both dirs with sizes; `kafka-reassign-partitions --execute` with a
JSON naming "log_dirs" sends AlterReplicaLogDirs and the replica moves to the other dir of the same
broker with its records intact. One 2-dir Apache broker is started for the whole module. A failed
dir (ours) takes only its own partitions offline.
"""

from __future__ import annotations

import json
import os
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
from broker_embedded.log.log_dirs import LogDirs
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_log_dirs_request as dldq
from kafka_wire.records import build_batch
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until

LOG_DIRS = "org.apache.kafka.tools.LogDirsCommand"
REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"


@pytest.fixture(scope="module", params=["ours", "apache"])
def jbod_broker(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any, list[str]]]:
    """(kind, broker, [dir a, dir b]) of a broker with log.dirs=a,b."""
    tmp = Path(tempfile.mkdtemp(prefix="jbod-"))
    dirs = [str(tmp / "a"), str(tmp / "b")]
    try:
        if request.param == "ours":
            b = EmbeddedBroker(**{"log.dirs": ",".join(dirs)}).start()
            try:
                yield "ours", b, dirs
            finally:
                b.stop()
        else:
            from peers import jvm
            from tests.peers.fixtures import require_kafka_peers

            require_kafka_peers()
            with jvm.ApacheKafka(1, overrides={"log.dirs": ",".join(dirs)}) as kafka:
                yield "apache", kafka, dirs
    finally:
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
    jbod_broker: tuple[str, Any, list[str]], java_client: Any, tmp_path: Path
) -> None:
    _, broker, dirs = jbod_broker
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

    # kafka-log-dirs --describe: both dirs, no error, one new partition in each (fewest first)
    out = java_client.run(LOG_DIRS, "--describe", "--bootstrap-server", bootstrap, "--topic-list", topic)
    (line,) = [x for x in out.stdout.splitlines() if x.startswith("{")]
    (b,) = json.loads(line)["brokers"]
    assert sorted(d["logDir"] for d in b["logDirs"]) == dirs
    assert [d["error"] for d in b["logDirs"]] == [None, None]
    where = {q["partition"]: d["logDir"] for d in b["logDirs"] for q in d["partitions"]}
    assert sorted(where) == [f"{topic}-0", f"{topic}-1"] and len(set(where.values())) == 2
    assert all(
        q["size"] > 0 and q["offsetLag"] == 0 and not q["isFuture"] for d in b["logDirs"] for q in d["partitions"]
    )

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


def test_a_failed_dir_takes_only_its_partitions_offline(jbod_broker: tuple[str, Any, list[str]]) -> None:
    kind, broker, dirs = jbod_broker
    if kind != "ours":
        pytest.skip("fails a dir inside our broker (Apache would need a second JVM)")
    bootstrap = broker.bootstrap_servers
    topic = f"fail-{uuid.uuid4().hex[:8]}"
    conn = w.connect(bootstrap)
    try:
        w.create_topic(conn, topic, 4)
        log_dirs = broker.broker.log_manager
        assert isinstance(log_dirs, LogDirs)
        by_dir = {d: [q for q in range(4) if str(log_dirs.get_log(topic, q).dir.parent) == d] for d in dirs}
        failed = next(d for d in dirs if by_dir[d])
        # an I/O error in that dir, which then cannot come back (its path is no longer a directory)
        mgr = log_dirs.managers[failed]
        mgr.dir_state.fail("a test write", OSError(5, "Input/output error"))
        os.rename(failed, failed + ".gone")
        Path(failed).write_text("not a dir")
        for q in range(4):
            r = w.produce(conn, topic, q, build_batch(w.records(1)))
            want = ErrorCode.KAFKA_STORAGE_ERROR if q in by_dir[failed] else ErrorCode.NONE
            assert r.error_code == want, (q, r)
        r = conn.request(35, dldq.DescribeLogDirsRequest(topics=None), 4)
        errors = {d.log_dir: d.error_code for d in r.results}
        assert errors == {failed: ErrorCode.KAFKA_STORAGE_ERROR, next(d for d in dirs if d != failed): 0}
        # new partitions go to the dir still online
        w.create_topic(conn, topic + "-new", 2)
        assert {str(log_dirs.get_log(topic + "-new", q).dir.parent) for q in (0, 1)} == {d for d in dirs if d != failed}
    finally:
        conn.close()
