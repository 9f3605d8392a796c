"""The proof of issue 4: 3 brokers, RF 3, min.insync.replicas=2, an idempotent acks=all producer
writing continuously while the current leader is killed (-9) and restarted, 20 times. Afterwards:

- every acknowledged record is in the log exactly once, in order, at the offset it was acked with;
- the three replicas' logs are identical (read from their log directories after a clean stop);
- a consumer that ran throughout only ever moved forward, and everything it saw is still there;
- the high watermark (ListOffsets latest, polled on every broker throughout) never went back.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Consumer, TopicPartition

from broker_embedded import EmbeddedCluster
from broker_embedded.log.log import Log
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import list_offsets_request
from kafka_wire.records import decode_batches, iter_batches
from tests.integration import wire_util as w
from tests.integration.cluster_util import StreamingProducer, cluster, create_topic, wait_full_isr

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

TOPIC = "fault"
ROUNDS = 20


class ThroughoutConsumer:
    """A confluent-kafka consumer reading the partition from offset 0 for the whole run."""

    def __init__(self, bootstrap: str) -> None:
        self.seen: list[tuple[int, bytes]] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": "throughout",
                "enable.auto.commit": False,
                "auto.offset.reset": "error",  # an offset that disappears must not be papered over
                "topic.metadata.refresh.interval.ms": 1000,
                "reconnect.backoff.ms": 20,
                "reconnect.backoff.max.ms": 200,
            }
        )
        self.consumer.assign([TopicPartition(TOPIC, 0, 0)])
        self.thread = threading.Thread(target=self._run, name="throughout-consumer", daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            m = self.consumer.poll(0.2)
            if m is None:
                continue
            if m.error():
                if not m.error().retriable() and m.error().code() != -191:  # -191: partition EOF
                    self.errors.append(str(m.error()))
                continue
            self.seen.append((m.offset(), m.value()))

    def start(self) -> ThroughoutConsumer:
        self.thread.start()
        return self

    def drain_until(self, offset: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.seen and self.seen[-1][0] >= offset - 1:
                return
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=10)
        self.consumer.close()


class WatermarkMonitor:
    """ListOffsets(latest) against every running broker, every few ms: only the leader answers."""

    def __init__(self, c: EmbeddedCluster) -> None:
        self.c = c
        self.samples: list[tuple[float, int, int, int]] = []  # (time, broker, leader epoch, hw)
        self.unavailable = 0
        self._stop = threading.Event()
        self._conns: dict[int, BrokerConnection] = {}
        self.thread = threading.Thread(target=self._run, name="hw-monitor", daemon=True)

    def _query(self, broker_id: int) -> None:
        conn = self._conns.get(broker_id)
        if conn is None:
            conn = BrokerConnection.from_bootstrap(self.c.bootstrap(broker_id), timeout=2)
            self._conns[broker_id] = conn
        req = list_offsets_request.ListOffsetsRequest(
            replica_id=-1,
            isolation_level=0,
            topics=[
                list_offsets_request.ListOffsetsTopic(
                    name=TOPIC,
                    partitions=[
                        list_offsets_request.ListOffsetsPartition(
                            partition_index=0, timestamp=-1, current_leader_epoch=-1
                        )
                    ],
                )
            ],
        )
        resp = conn.request(2, req)
        p = resp.topics[0].partitions[0]
        if p.error_code == ErrorCode.NONE:
            self.samples.append((time.monotonic(), broker_id, int(p.leader_epoch), int(p.offset)))
        elif p.error_code == ErrorCode.OFFSET_NOT_AVAILABLE:
            self.unavailable += 1  # a new leader whose HW is not known yet (KIP-207's answer)

    def _run(self) -> None:
        while not self._stop.is_set():
            for b in self.c.broker_ids:
                if not self.c.is_running(b):
                    self._conns.pop(b, None)
                    continue
                try:
                    self._query(b)
                except (OSError, ConnectionError, Exception):
                    conn = self._conns.pop(b, None)
                    if conn is not None:
                        try:
                            conn.close()
                        except OSError:
                            pass
            time.sleep(0.01)

    def start(self) -> WatermarkMonitor:
        self.thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self.thread.join(timeout=10)
        for conn in self._conns.values():
            try:
                conn.close()
            except OSError:
                pass


def read_replica_log(log_dir: Path) -> list[bytes]:
    """Every batch of a replica's log, as bytes, read from its directory (the broker is stopped)."""
    log = Log(log_dir)
    try:
        out: list[bytes] = []
        offset = log.log_start_offset
        while offset < log.log_end_offset:
            data = log.read(offset, 1 << 20, max_offset=None, min_one_batch=True)
            raw = bytes(data.records or b"")
            if not raw:
                break
            for pos, header in iter_batches(raw, allow_partial_tail=True):
                out.append(raw[pos : pos + header.size])
                offset = header.next_offset
        return out
    finally:
        log.close()


def _start(c: EmbeddedCluster, broker_id: int, errors: list[BaseException]) -> None:
    try:
        c.start(broker_id)
    except BaseException as e:
        errors.append(e)


def _latest(conn: BrokerConnection) -> int:
    try:
        return w.list_offset(conn, TOPIC, 0)
    except AssertionError:  # OFFSET_NOT_AVAILABLE / NOT_LEADER_OR_FOLLOWER: not known yet
        return -1


def _values(batches: list[bytes]) -> list[tuple[int, bytes]]:
    return [(r.offset, r.value) for b in batches for r in decode_batches(b)]


def test_kill_leader_20_times_no_acknowledged_record_lost(tmp_path: Path) -> None:
    t_start = time.monotonic()
    configs: dict[str, Any] = {
        "min.insync.replicas": 2,
        "default.replication.factor": 3,
        "broker.session.timeout.ms": 1200,
        "broker.heartbeat.interval.ms": 150,
    }
    with cluster(3, log_dir=tmp_path, **configs) as c:
        create_topic(c.bootstrap_servers, TOPIC, rf=3)
        wait_full_isr(c, TOPIC)
        monitor = WatermarkMonitor(c).start()
        prod = StreamingProducer(c.bootstrap_servers, TOPIC).start()
        reader = ThroughoutConsumer(c.bootstrap_servers).start()
        kills: list[tuple[int, float]] = []
        try:
            prod.wait_for_acks(100, 30)
            restart: threading.Thread | None = None
            restart_errors: list[BaseException] = []
            for _ in range(ROUNDS):
                if restart is not None:
                    restart.join(60)
                    assert not restart.is_alive() and not restart_errors, restart_errors
                # a leader with at least one in-sync follower (else its death takes the partition offline)
                c.wait_for(lambda: c.leader(TOPIC, 0) >= 0 and len(c.isr(TOPIC, 0)) >= 2, timeout=30, what="ISR of 2+")
                leader = c.leader(TOPIC, 0)
                n = prod.count()
                t0 = time.monotonic()
                c.kill(leader)
                c.wait_for(
                    lambda leader=leader: c.leader(TOPIC, 0) not in (-1, leader), timeout=30, what="a new leader"
                )
                # the old leader restarts (same id, port and log dir) while the new one takes acks
                restart = threading.Thread(target=_start, args=(c, leader, restart_errors), daemon=True)
                restart.start()
                prod.wait_for_acks(n + 20, 30)  # a few acks from the new leader
                kills.append((leader, time.monotonic() - t0))
            if restart is not None:
                restart.join(60)
            wait_full_isr(c, TOPIC, timeout=30)
            n = prod.count()
            prod.wait_for_acks(n + 50, 30)
        finally:
            prod.stop()
            monitor.stop()
        assert len(kills) == ROUNDS
        assert not prod.errors, prod.errors[:5]
        assert len(prod.acked) > 500, len(prod.acked)

        # every record is acknowledged: once the HW reaches the leader's LEO with all three in the ISR,
        # every replica holds the whole log
        end_offset = max(o for _, o, _ in prod.acked) + 1
        wait_full_isr(c, TOPIC, timeout=30)
        leader = c.leader(TOPIC, 0)
        with BrokerConnection.from_bootstrap(c.bootstrap(leader), timeout=5) as conn:
            c.wait_for(lambda: _latest(conn) == end_offset, timeout=30, what="HW = LEO")
        assert c.isr(TOPIC, 0) and len(c.isr(TOPIC, 0)) == 3
        reader.drain_until(end_offset, 30)
        reader.stop()
        for b in c.broker_ids:  # nothing is in flight any more: a kill leaves the logs as they are
            c.kill(b)

        logs = {b: read_replica_log(c.broker_log_dir(b) / f"{TOPIC}-0") for b in c.broker_ids}

    # 1. the replicas' logs are identical, batch for batch, byte for byte
    reference = logs[leader]
    for b, batches in logs.items():
        assert len(batches) == len(reference), f"broker {b}: {len(batches)} batches, leader {len(reference)}"
        for i, (mine, theirs) in enumerate(zip(batches, reference, strict=True)):
            assert mine == theirs, f"broker {b}: batch {i} differs from the leader's"
    records = _values(reference)
    offsets = [o for o, _ in records]
    assert offsets == list(range(len(records))), "the log has gaps or repeats"

    # 2. every acknowledged record exactly once, in order, at its acknowledged offset
    position = {v: o for o, v in records}
    assert len(position) == len(records), "a payload appears twice: a duplicate got through idempotence"
    acked = sorted(prod.acked, key=lambda a: a[2])  # payloads are zero-padded sequence numbers
    for _, offset, value in acked:
        assert value in position, f"acknowledged {value!r} (offset {offset}) is lost"
        assert position[value] == offset, f"{value!r} acknowledged at {offset}, found at {position[value]}"
    acked_offsets = [o for _, o, _ in acked]
    assert acked_offsets == sorted(acked_offsets), "acknowledged records are out of order"

    # 3. the consumer only moved forward and everything it saw is still there
    assert not reader.errors, reader.errors[:5]
    seen_offsets = [o for o, _ in reader.seen]
    assert all(a < b for a, b in zip(seen_offsets, seen_offsets[1:], strict=False)), "the consumer went backwards"
    for o, v in reader.seen:
        assert o < len(records) and records[o][1] == v, f"offset {o} seen by the consumer disappeared or changed"
    assert len(reader.seen) >= len(acked) * 0.9

    # 4. the high watermark never went back
    hws = [hw for _, _, _, hw in monitor.samples]
    assert len(hws) > 100
    drops = [(a, b) for a, b in zip(monitor.samples, monitor.samples[1:], strict=False) if b[3] < a[3]]
    assert not drops, f"the high watermark went back: {drops[:3]}"

    took = time.monotonic() - t_start
    print(
        f"\n{ROUNDS} leader kills in {took:.1f}s; {len(prod.acked)} records acknowledged; "
        f"kill -> new leader + 20 acks: median {sorted(k for _, k in kills)[ROUNDS // 2]:.2f}s; "
        f"{len(monitor.samples)} HW samples ({monitor.unavailable} OFFSET_NOT_AVAILABLE)"
    )
