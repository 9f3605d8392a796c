"""`kafka_wire.client.KafkaClient` against a real broker process: offsets committed without group
membership, and the retry/backoff behaviour when the broker dies and comes back (same port, same
log dir), or stays down longer than `default.api.timeout.ms` (the error names the partitions, the
brokers tried and the timeout)."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from kafka_wire.client import ClientConfig, KafkaClient, KafkaClientError
from kafka_wire.client.bootstrap import parse_bootstrap
from kafka_wire.errors import ErrorCode
from kafka_wire.types import TopicPartition
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(120)


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _seed(bootstrap: str, topic: str, partitions: int = 2, n: int = 5) -> None:
    from confluent_kafka import Producer

    with w.connect(bootstrap) as conn:
        w.create_topic(conn, topic, partitions)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
    for p in range(partitions):
        for i in range(n):
            producer.produce(topic, value=b"v%d" % i, partition=p)
    assert producer.flush(20) == 0


def test_one_bootstrap_parser() -> None:
    assert parse_bootstrap("a:1, [::1]:2,") == [("a", 1), ("::1", 2)]
    assert parse_bootstrap(["a:1,b:2", "c:3"]) == [("a", 1), ("b", 2), ("c", 3)]
    with pytest.raises(ValueError, match=r"Invalid value 'nohost' for option 'bootstrap.servers': expected host:port"):
        parse_bootstrap("nohost")
    with pytest.raises(ValueError, match=r"Option 'kafka.bootstrap.servers' must be specified"):
        parse_bootstrap(" , ", "option 'kafka.bootstrap.servers'")


def test_commit_and_fetch_offsets_without_membership(broker, topic_name: str) -> None:  # type: ignore[no-untyped-def]
    _seed(broker.bootstrap_servers, topic_name)
    client = KafkaClient(ClientConfig(broker.bootstrap_servers, client_id="t-commit"))
    group = f"g-{topic_name}"
    try:
        assert client.fetch_offsets(group) == {}
        client.commit_offsets(group, {(topic_name, 0): 3, (topic_name, 1): 5}, metadata="query=q1 batch=7")
        got = client.fetch_offsets(group)
        assert got == {TopicPartition(topic_name, 0): (3, "query=q1 batch=7"), (topic_name, 1): (5, "query=q1 batch=7")}
        client.commit_offsets(group, {(topic_name, 0): 4})
        assert client.fetch_offsets(group, [(topic_name, 0)]) == {(topic_name, 0): (4, "")}
        host, port = client.find_coordinator(group)
        assert f"{host}:{port}" == broker.bootstrap_servers
        # a generation that does not exist is refused by the coordinator, with the partitions named
        with pytest.raises(KafkaClientError, match=rf"OffsetCommit for group '{group}' failed for {topic_name}-0: "):
            client.commit_offsets(group, {(topic_name, 0): 5}, generation_id=3, member_id="nobody")
    finally:
        client.close()


def _restart_later(proc: w.BrokerProcess, after: float) -> threading.Thread:
    def run() -> None:
        time.sleep(after)
        proc.start()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_broker_sigkilled_and_restarted_client_rides_through(tmp_path: Path) -> None:
    """Metadata, ListOffsets and Fetch keep retrying (reconnect backoff) while the only broker is
    down for ~2 s, and go on against the restarted broker: same port, same log dir."""
    port = _free_port()
    proc = w.BrokerProcess(log_dir=tmp_path / "logs", port=port).start()
    try:
        _seed(proc.bootstrap, "rt", 2, 5)
        client = KafkaClient(ClientConfig(proc.bootstrap, client_id="t-restart", request_timeout_ms=5000))
        tps = {("rt", 0): -1, ("rt", 1): -1}
        assert {tp: o for tp, (o, _) in client.list_offsets(tps).items()} == {("rt", 0): 5, ("rt", 1): 5}
        assert client.fetch(("rt", 0), 0).error == ErrorCode.NONE

        proc.kill9()
        t0 = time.monotonic()
        restarter = _restart_later(proc, 2.0)
        # one call: it retries within default.api.timeout.ms (60 s) and needs no fetchOffset retry
        got = client.list_offsets(tps, retries=0)
        assert {tp: o for tp, (o, _) in got.items()} == {("rt", 0): 5, ("rt", 1): 5}
        assert 1.5 < time.monotonic() - t0 < 45
        restarter.join(30)

        proc.kill9()
        restarter = _restart_later(proc, 2.0)
        deadline = time.monotonic() + 45
        res = client.fetch(("rt", 1), 2)
        while res.error != ErrorCode.NONE and time.monotonic() < deadline:
            time.sleep(0.1)
            res = client.fetch(("rt", 1), 2)
        assert res.error == ErrorCode.NONE and res.high_watermark == 5
        restarter.join(30)
        client.close()
    finally:
        proc.__exit__(None, None, None)


def test_broker_down_longer_than_default_api_timeout_names_partitions_brokers_timeout(tmp_path: Path) -> None:
    port = _free_port()
    proc = w.BrokerProcess(log_dir=tmp_path / "logs", port=port).start()
    dead = _free_port()  # a second bootstrap server nobody listens on
    try:
        _seed(proc.bootstrap, "down", 2, 1)
        cfg = ClientConfig(f"{proc.bootstrap},127.0.0.1:{dead}", client_id="t-down", default_api_timeout_ms=1500)
        client = KafkaClient(cfg)
        client.list_offsets({("down", 0): -1})
        proc.kill9()
        t0 = time.monotonic()
        with pytest.raises(KafkaClientError) as info:
            client.list_offsets({("down", 0): -1, ("down", 1): -2}, retries=1, retry_interval_ms=100)
        took = time.monotonic() - t0
        msg = str(info.value)
        head = "cannot fetch offsets for down-0, down-1 after 2 attempt(s) (fetchOffset.numRetries=1"
        assert msg.startswith(head), msg
        assert "each retrying for up to kafka.default.api.timeout.ms=1500" in msg, msg
        assert re.search(r"; brokers tried: (127\.0\.0\.1:\d+, )*127\.0\.0\.1:\d+: ", msg), msg
        assert f"127.0.0.1:{port}" in msg, msg
        assert f"127.0.0.1:{dead}" in msg, msg
        assert info.value.code == ErrorCode.NETWORK_EXCEPTION
        assert 2.5 < took < 30, took

        with pytest.raises(KafkaClientError) as info:
            client.metadata(["down"])
        msg = str(info.value)
        assert "cannot fetch metadata within kafka.default.api.timeout.ms=1500; brokers tried: " in msg, msg
        assert f"127.0.0.1:{port}" in msg and f"127.0.0.1:{dead}" in msg, msg

        with pytest.raises(KafkaClientError) as info:
            client.commit_offsets("g-down", {("down", 0): 1})
        msg = str(info.value)
        assert "OffsetCommit for group 'g-down' failed within kafka.default.api.timeout.ms=1500; brokers tried: " in msg
        client.close()
    finally:
        proc.__exit__(None, None, None)


def test_executor_read_moves_on_after_a_restart_and_names_the_cause_when_it_cannot(tmp_path: Path) -> None:
    """`connector.source.reader.read_partition` (one Spark task) keeps reading from the same offset after
    its broker was SIGKILLed and restarted; with the broker gone for good it fails after
    `kafkaConsumer.pollTimeoutMs`, naming the partition, range, brokers tried and the last error."""
    pytest.importorskip("pyspark")
    from connector.source.partition_reader import KafkaInputPartition, ReadSpec, read_partition

    proc = w.BrokerProcess(log_dir=tmp_path / "logs", port=_free_port()).start()
    try:
        _seed(proc.bootstrap, "ex", 1, 50)
        cfg = ClientConfig(proc.bootstrap, client_id=f"t-exec-{time.monotonic_ns()}", max_partition_fetch_bytes=1)
        spec = ReadSpec(cfg, False, True, 30_000, 3, 100)
        rows = read_partition(KafkaInputPartition("ex", 0, 0, 50, spec))
        got = [next(rows)]
        proc.kill9()
        restarter = _restart_later(proc, 2.0)
        got.extend(rows)
        restarter.join(30)
        offsets = [o for b in got for o in b.column("offset").to_pylist()]
        assert offsets == list(range(50))

        proc.kill9()
        spec = ReadSpec(cfg, False, True, 2_000, 3, 100)
        with pytest.raises(TimeoutError) as info:
            list(read_partition(KafkaInputPartition("ex", 0, 10, 50, spec)))
        msg = str(info.value)
        head = "Cannot fetch records of ex-0 in [10, 50) within kafkaConsumer.pollTimeoutMs=2000 ms"
        assert msg.startswith(head), msg
        assert f"brokers tried: {proc.bootstrap}; last error: NETWORK_EXCEPTION" in msg, msg
    finally:
        proc.__exit__(None, None, None)


def test_offset_mirror_commits_refuses_live_groups_and_rides_a_restart(tmp_path: Path) -> None:
    """`connector.offset_mirror` (the Delta sink's optional mirror) over the client stack: commits
    to an idle group, is refused (quietly) by a group with a live member, rides through a broker
    restart, and gives up after `kafka.default.api.timeout.ms` when the broker stays down."""
    from confluent_kafka import Consumer

    from connector.offset_mirror import mirror_offsets

    proc = w.BrokerProcess(log_dir=tmp_path / "logs", port=_free_port()).start()
    try:
        _seed(proc.bootstrap, "mir", 2, 3)
        params = (("bootstrap.servers", proc.bootstrap),)
        assert mirror_offsets("mirror-g", params, {("mir", 0): 3, ("mir", 1): 2})
        client = KafkaClient(ClientConfig(proc.bootstrap, client_id="t-mirror"))
        assert client.fetch_offsets("mirror-g") == {("mir", 0): (3, ""), ("mir", 1): (2, "")}
        client.close()

        member = Consumer({"bootstrap.servers": proc.bootstrap, "group.id": "busy-g", "session.timeout.ms": 6000})
        try:
            member.subscribe(["mir"])
            deadline = time.monotonic() + 30
            while not member.assignment() and time.monotonic() < deadline:
                member.poll(0.2)
            assert member.assignment()
            assert not mirror_offsets("busy-g", params, {("mir", 0): 1})
        finally:
            member.close()

        proc.kill9()
        restarter = _restart_later(proc, 2.0)
        assert mirror_offsets("mirror-g", params, {("mir", 0): 3, ("mir", 1): 3})
        restarter.join(30)

        proc.kill9()
        t0 = time.monotonic()
        short = (*params, ("default.api.timeout.ms", "1000"))
        assert not mirror_offsets("mirror-g", short, {("mir", 0): 3})
        assert time.monotonic() - t0 < 20
    finally:
        proc.__exit__(None, None, None)
