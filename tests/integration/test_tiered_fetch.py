"""Tiered storage end to end (KIP-405) with real clients: rolled segments go to the remote tier,
local retention deletes them locally, and confluent-kafka and kafka-python consumers still read the
whole log from offset 0 (remote, then local, no gap, no duplicate). ListOffsets earliest /
earliest-local / latest-tiered / by timestamp, DeleteRecords, total retention, restart, and topic
delete + re-create (new topic id: none of the old data)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer, TopicPartition

from broker_embedded import EmbeddedBroker
from broker_embedded.tiered import LocalTieredStorage, RemoteLogSegmentState, TopicIdPartition
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_records_request as drq
from kafka_wire.protocol.messages import fetch_request
from tests.integration import wire_util as w
from tests.integration.clients_util import ck_consumer, kp_consumer, wait_until

pytestmark = pytest.mark.timeout(60)

EARLIEST_LOCAL = -4
LATEST_TIERED = -5
TOPIC_CONFIGS = {
    "remote.storage.enable": "true",
    "segment.bytes": "16384",
    "local.retention.bytes": "0",  # the local tier keeps only what is not copied yet
}


def broker_configs(tmp_path: Path, **extra: Any) -> dict[str, Any]:
    return {
        "remote.log.storage.system.enable": True,
        "remote.log.manager.task.interval.ms": 100,
        "log.retention.check.interval.ms": 100,
        "log.initial.task.delay.ms": 0,  # local retention from the start (Kafka's default waits 30 s)
        "rsm.config.dir": str(tmp_path / "remote"),
        "remote.fetch.max.wait.ms": 5000,  # generous on a loaded CI machine (the fault tests set 300)
        **extra,
    }


def produce(bootstrap: str, topic: str, n: int, start: int = 0, ts: int | None = None) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "batch.size": 4096})
    for i in range(start, start + n):
        kw: dict[str, Any] = {} if ts is None else {"timestamp": ts + i}
        p.produce(topic, key=f"k{i}".encode(), value=payload(i), partition=0, **kw)
    assert p.flush(30) == 0


def payload(i: int) -> bytes:
    return f"record-{i:06d}-".encode() + bytes([i % 251]) * 90


def status(b: EmbeddedBroker, topic: str) -> dict[str, Any]:
    return b.call(lambda br: br.remote_log_manager.partition_status(br.partition(topic, 0)))


def wait_task_runs(b: EmbeddedBroker, topic: str, runs: int = 2) -> None:
    """Until `runs` runs of the partition's remote log task have finished after now: the first may
    have been in flight already, the second started after now. Counted from the task's next_run_ms
    (the manager's own state: it publishes no run counter), which each run sets to its end + interval
    (+ backoff after a failure), so a value above now + interval belongs to a run that ended after now."""

    def next_run_ms() -> int:
        return int(b.call(lambda br: br.remote_log_manager._state_for(br.partition(topic, 0)).next_run_ms))

    since = int(b.call(lambda br: br.remote_log_manager.clock() + br.remote_log_manager.config.task_interval_ms))
    seen: set[int] = set()

    def enough() -> bool:
        value = next_run_ms()
        if value > since:
            seen.add(value)
        return len(seen) >= runs

    wait_until(enough, timeout=30, interval=0.01, what=f"{runs} remote log task runs of {topic}")


def wait_tiered(b: EmbeddedBroker, topic: str, min_local_start: int) -> dict[str, Any]:
    """Until local retention removed copied segments up to at least `min_local_start`."""
    return wait_until(
        lambda: (s := status(b, topic))["local_log_start_offset"] >= min_local_start and s,
        timeout=20,
        what=f"local log start of {topic} >= {min_local_start}",
    )


def ck_read_all(bootstrap: str, topic: str, n: int, start: int = 0, timeout: float = 30) -> list[tuple[int, bytes]]:
    c = ck_consumer(bootstrap)
    try:
        c.assign([TopicPartition(topic, 0, start)])
        out: list[tuple[int, bytes]] = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            for m in c.consume(1000, 0.2):
                assert m.error() is None, m.error()
                out.append((m.offset(), m.value()))
        return out
    finally:
        c.close()


def kp_read_all(bootstrap: str, topic: str, n: int) -> list[tuple[int, bytes]]:
    from kafka import TopicPartition as KTP

    c = kp_consumer(bootstrap)
    try:
        tp = KTP(topic, 0)
        c.assign([tp])
        c.seek(tp, 0)
        out: list[tuple[int, bytes]] = []
        deadline = time.monotonic() + 30
        while len(out) < n and time.monotonic() < deadline:
            for msgs in c.poll(timeout_ms=200).values():
                out.extend((m.offset, m.value) for m in msgs)
        return out
    finally:
        c.close()


def check_all(records: list[tuple[int, bytes]], n: int, start: int = 0) -> None:
    assert [o for o, _ in records] == list(range(start, n)), "gap or duplicate at the tier boundary"
    assert [v for _, v in records] == [payload(i) for i in range(start, n)]


def test_consumers_read_remote_then_local(tmp_path: Path) -> None:
    n = 3000
    with EmbeddedBroker(tmp_path / "logs", **broker_configs(tmp_path)) as b:
        w.create_topic(w.connect(b.bootstrap_servers), "t", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "t", n)
        s = wait_tiered(b, "t", n // 2)
        assert s["log_start_offset"] == 0 and s["remote_segments"] >= 10, s
        local_dir = tmp_path / "logs" / "t-0"
        local_bases = sorted(int(p.name[:-4]) for p in local_dir.glob("*.log"))
        assert local_bases[0] == s["local_log_start_offset"] > 0
        # the active segment is never copied
        assert s["highest_copied"] < n - 1
        # one remote .log per COPY_SEGMENT_FINISHED segment (copies may still be running: poll)
        wait_until(
            lambda: len(list((tmp_path / "remote").glob("t-0-*/*.log"))) == status(b, "t")["remote_segments"],
            what="remote files match the metadata",
        )

        # each remote segment came with its indexes, producer snapshot and leader-epoch checkpoint
        for log_file in (tmp_path / "remote").glob("t-0-*/*.log"):
            for suffix in (".index", ".timeindex", ".snapshot"):
                assert log_file.with_suffix(suffix).exists(), log_file
            checkpoint = log_file.with_suffix(".leader_epoch_checkpoint").read_text().split("\n")
            assert checkpoint[:3] == ["0", "1", "0 0"], checkpoint  # version, one entry: epoch 0 from offset 0
        ck = ck_read_all(b.bootstrap_servers, "t", n)
        check_all(ck, n)
        kp = kp_read_all(b.bootstrap_servers, "t", n)
        check_all(kp, n)
        # a fetch in the middle of a remote batch starts with the batch holding the offset
        mid = ck_read_all(b.bootstrap_servers, "t", n - 777, start=777)
        check_all(mid, n, start=777)

        conn = w.connect(b.bootstrap_servers)
        assert w.list_offset(conn, "t", 0, w.EARLIEST) == 0
        local_start = w.list_offset(conn, "t", 0, EARLIEST_LOCAL)
        assert 0 < local_start == status(b, "t")["local_log_start_offset"]
        assert w.list_offset(conn, "t", 0, w.LATEST) == n
        assert w.list_offset(conn, "t", 0, LATEST_TIERED) == status(b, "t")["highest_copied"]


def test_timestamp_lookup_reaches_remote_segments(tmp_path: Path) -> None:
    n = 1500
    base_ts = int(time.time() * 1000) - 600_000
    with EmbeddedBroker(tmp_path / "logs", **broker_configs(tmp_path)) as b:
        w.create_topic(w.connect(b.bootstrap_servers), "ts", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "ts", n, ts=base_ts)
        s = wait_tiered(b, "ts", n // 2)
        conn = w.connect(b.bootstrap_servers)
        for target in (0, 1, 123, 500, s["local_log_start_offset"] - 1, s["local_log_start_offset"], n - 1):
            assert w.list_offset(conn, "ts", 0, base_ts + target) == target
        assert w.list_offset(conn, "ts", 0, base_ts - 5) == 0
        assert w.list_offset(conn, "ts", 0, base_ts + n + 10_000) == -1  # no such record
        # the early targets were answered from remote segments' time indexes (none is local)
        assert not (tmp_path / "logs" / "ts-0" / f"{0:020d}.log").exists()
        assert b.call(lambda br: len(br.remote_log_manager.index_cache._entries)) >= 2


def fetch_error(conn: BrokerConnection, topic: str, offset: int) -> tuple[int, bytes]:
    req = fetch_request.FetchRequest(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=1 << 20,
        isolation_level=0,
        topics=[
            fetch_request.FetchTopic(
                topic=topic,
                partitions=[
                    fetch_request.FetchPartition(partition=0, fetch_offset=offset, partition_max_bytes=1 << 20)
                ],
            )
        ],
    )
    pd = conn.request(1, req, version=min(conn.best_version(1), 12)).responses[0].partitions[0]
    return pd.error_code, bytes(pd.records or b"")


def test_delete_records_and_total_retention_move_the_log_start_offset(tmp_path: Path) -> None:
    n = 2000
    with EmbeddedBroker(tmp_path / "logs", **broker_configs(tmp_path)) as b:
        conn = w.connect(b.bootstrap_servers)
        w.create_topic(conn, "dr", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "dr", n)
        wait_tiered(b, "dr", n // 2)
        # DeleteRecords into the remote range: the log start offset moves there at once and the
        # remote segments wholly below it are deleted in the background
        target = 555
        req = drq.DeleteRecordsRequest(
            topics=[drq.DeleteRecordsTopic(name="dr", partitions=[drq.DeleteRecordsPartition(0, target)])],
            timeout_ms=5000,
        )
        res = conn.request(21, req).topics[0].partitions[0]
        assert (res.error_code, res.low_watermark) == (ErrorCode.NONE, target)
        assert w.list_offset(conn, "dr", 0, w.EARLIEST) == target
        assert fetch_error(conn, "dr", target - 1)[0] == ErrorCode.OFFSET_OUT_OF_RANGE
        code, data = fetch_error(conn, "dr", target)
        assert code == ErrorCode.NONE and data
        check_all(ck_read_all(b.bootstrap_servers, "dr", n - target, start=target), n, start=target)
        wait_until(
            lambda: all(
                m.end_offset >= target
                for m in b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(tip(br, "dr"))))
            ),
            what="remote segments below the new log start offset deleted",
        )
        assert status(b, "dr")["deletes"] >= 1
        # total retention (retention.bytes over remote + local) expires remote segments oldest first
        b.call(lambda br: br.set_topic_configs("dr", {**TOPIC_CONFIGS, "retention.bytes": "40000"}))
        wait_until(lambda: status(b, "dr")["log_start_offset"] > target + 300, what="remote expiry by size")

        def remote_bytes() -> int:
            return int(b.call(lambda br: br.remote_log_manager.rlmm.remote_log_size(tip(br, "dr"))))

        # expiry runs segment by segment: poll until it has brought the remote tier within the
        # limit (whole segments: at most one over it), however slowly a loaded machine runs it
        wait_until(lambda: remote_bytes() <= 40000 + 16384, what="remote expiry down to retention.bytes")
        start = w.list_offset(conn, "dr", 0, w.EARLIEST)
        s = status(b, "dr")
        assert remote_bytes() > 0, s  # by size, not everything
        assert fetch_error(conn, "dr", start - 1)[0] == ErrorCode.OFFSET_OUT_OF_RANGE
        check_all(ck_read_all(b.bootstrap_servers, "dr", n - start, start=start), n, start=start)


def tip(br: Any, topic: str) -> TopicIdPartition:
    p = br.partition(topic, 0)
    return TopicIdPartition(p.topic_id, p.topic, 0)


def test_restart_and_topic_recreate(tmp_path: Path) -> None:
    n = 1500
    cfg = broker_configs(tmp_path)
    with EmbeddedBroker(tmp_path / "logs", **cfg) as b:
        w.create_topic(w.connect(b.bootstrap_servers), "rc", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "rc", n)
        wait_tiered(b, "rc", n // 2)
        old_tip = b.call(lambda br: tip(br, "rc"))
    with EmbeddedBroker(tmp_path / "logs", **cfg) as b:
        # metadata reloaded: the remote part is still served after the restart
        check_all(ck_read_all(b.bootstrap_servers, "rc", n), n)
        conn = w.connect(b.bootstrap_servers)
        assert w.list_offset(conn, "rc", 0, w.EARLIEST) == 0
        b.call(lambda br: br.delete_topic("rc"))
        rsm: LocalTieredStorage = b.call(lambda br: br.remote_log_manager.rsm)
        wait_until(lambda: not rsm.partition_dir(old_tip).exists(), what="remote data of the deleted topic removed")
        # same name, new topic id: nothing of the old data
        w.create_topic(conn, "rc", 1, TOPIC_CONFIGS)
        new_tip = b.call(lambda br: tip(br, "rc"))
        assert new_tip.topic_id != old_tip.topic_id
        assert w.list_offset(conn, "rc", 0, w.EARLIEST) == 0
        assert w.list_offset(conn, "rc", 0, w.LATEST) == 0
        produce(b.bootstrap_servers, "rc", 600, start=n)  # values differ from the old topic's
        wait_tiered(b, "rc", 100)
        got = ck_read_all(b.bootstrap_servers, "rc", 600)
        assert [v for _, v in got] == [payload(i) for i in range(n, n + 600)]
        states = b.call(lambda br: [m.state for m in br.remote_log_manager.rlmm.list_remote_log_segments(old_tip)])
        assert states == []
        assert all(
            m.state is RemoteLogSegmentState.COPY_SEGMENT_FINISHED
            for m in b.call(lambda br: list(br.remote_log_manager.rlmm.list_remote_log_segments(new_tip)))
        )


def test_copy_disable_then_disable_with_delete(tmp_path: Path) -> None:
    n = 1500
    with EmbeddedBroker(tmp_path / "logs", **broker_configs(tmp_path)) as b:
        conn = w.connect(b.bootstrap_servers)
        w.create_topic(conn, "d", 1, TOPIC_CONFIGS)
        produce(b.bootstrap_servers, "d", n)
        wait_tiered(b, "d", n // 2)
        # read-only remote tier: no more copies, the remote data stays readable
        b.call(lambda br: br.set_topic_configs("d", {**TOPIC_CONFIGS, "remote.log.copy.disable": "true"}))
        wait_task_runs(b, "d")  # a copy in flight when the config changed may still finish
        highest = status(b, "d")["highest_copied"]
        produce(b.bootstrap_servers, "d", 1500, start=n)
        wait_task_runs(b, "d")  # rounds that would have copied the new segments (a sleep may see none)
        assert status(b, "d")["highest_copied"] == highest
        check_all(ck_read_all(b.bootstrap_servers, "d", 2 * n), 2 * n)
        # switching tiering off with remote.log.delete.on.disable=true deletes the remote data
        local_start = w.list_offset(conn, "d", 0, EARLIEST_LOCAL)
        b.call(
            lambda br: br.set_topic_configs(
                "d", {**TOPIC_CONFIGS, "remote.storage.enable": "false", "remote.log.delete.on.disable": "true"}
            )
        )
        wait_until(lambda: not list((tmp_path / "remote").glob("d-0-*/*")), what="remote data deleted")
        assert w.list_offset(conn, "d", 0, w.EARLIEST) == local_start
        assert fetch_error(conn, "d", 0)[0] == ErrorCode.OFFSET_OUT_OF_RANGE
        check_all(
            ck_read_all(b.bootstrap_servers, "d", 2 * n - local_start, start=local_start), 2 * n, start=local_start
        )
