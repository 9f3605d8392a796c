"""Crash recovery of a CLI broker process: kill -9 mid-stream loses no acknowledged record, a torn
or corrupted tail is cut back to the last whole batch, and a clean SIGTERM shutdown leaves the
clean-shutdown marker and restarts with everything in place.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from kafka_wire.errors import ErrorCode
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = [pytest.mark.slow, pytest.mark.timeout(150)]

NUM_PARTITIONS = 4
# small segments: the stream rolls several, so recovery also meets indexes and producer snapshots
BROKER_ARGS = ("--override", f"num.partitions={NUM_PARTITIONS}", "--override", "log.segment.bytes=262144")


class StreamingProducer:
    """A confluent-kafka idempotent producer in a thread, recording every acknowledged record."""

    def __init__(self, bootstrap: str, topic: str, tag: str) -> None:
        self.topic = topic
        self.tag = tag
        self.acked: list[tuple[int, int, bytes, bytes]] = []
        self.failed = 0
        self.sent = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self.producer = Producer(
            {
                "bootstrap.servers": bootstrap,
                "acks": "all",
                "enable.idempotence": True,
                "linger.ms": 2,
                "batch.size": 65536,  # below log.segment.bytes (bigger batches: RECORD_LIST_TOO_LARGE)
                "message.timeout.ms": 10000,
                "reconnect.backoff.ms": 50,
                "reconnect.backoff.max.ms": 200,
            }
        )
        self.thread = threading.Thread(target=self._run, name=f"producer-{tag}", daemon=True)

    def _on_delivery(self, err: Any, msg: Any) -> None:
        with self._lock:
            if err is None:
                self.acked.append((msg.partition(), msg.offset(), msg.key(), msg.value()))
            else:
                self.failed += 1

    def _run(self) -> None:
        i = 0
        while not self._stop.is_set():
            key = f"{self.tag}-{i}".encode()
            try:
                self.producer.produce(self.topic, key=key, value=key * 4, on_delivery=self._on_delivery)
                self.sent += 1
                i += 1
            except BufferError:
                self.producer.poll(0.05)
                continue
            if i % 100 == 0:
                self.producer.poll(0)
                time.sleep(0.001)  # keep the broker busy, not the GIL
        self.producer.poll(0)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        """Stop producing; collect the acks that arrived; drop everything still unacknowledged."""
        self._stop.set()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        self.producer.poll(0.2)  # delivery reports the broker answered before it died
        self.producer.purge(in_queue=True, in_flight=True, blocking=False)
        self.producer.flush(5)

    def wait_for_acks(self, n: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.acked) >= n:
                    return
            time.sleep(0.02)
        raise AssertionError(f"only {len(self.acked)} of {n} records acknowledged within {timeout}s")


def _read_everything(bootstrap: str, topic: str) -> dict[int, list[tuple[int, bytes | None, bytes | None]]]:
    with w.connect(bootstrap) as c:
        leos = {p: w.list_offset(c, topic, p) for p in range(NUM_PARTITIONS)}
    got = w.consume_all(bootstrap, topic, range(NUM_PARTITIONS), expected=sum(leos.values()), timeout=30)
    by_partition: dict[int, list[tuple[int, bytes | None, bytes | None]]] = {p: [] for p in range(NUM_PARTITIONS)}
    for p, off, k, v in got:
        by_partition[p].append((off, k, v))
    for p, recs in by_partition.items():
        offsets = [o for o, _, _ in recs]
        assert offsets == list(range(leos[p])), f"partition {p}: offsets are not 0..{leos[p] - 1} exactly once"
    return by_partition


def test_kill9_mid_stream_loses_no_acknowledged_record(tmp_path: Path) -> None:
    """Rounds of: restart on the same log dir, check every record acknowledged so far, stream
    idempotent acks=all produces from a thread, kill -9 the broker mid-stream."""
    topic = "crash-stream"
    acked: list[tuple[int, int, bytes, bytes]] = []
    rng = random.Random(7)
    rounds = 4  # kill -9 three times, then a SIGTERM mid-stream
    stats = []
    recovery_points: list[dict[int, int]] = []
    bootstrap = None
    for rnd in range(rounds):
        with w.BrokerProcess(*BROKER_ARGS, log_dir=tmp_path) as proc:
            assert proc.bootstrap
            bootstrap = proc.bootstrap
            if rnd == 0:
                with w.connect(proc.bootstrap) as c:
                    md = w.metadata(c, [topic], auto_create=True)  # num.partitions from --override
                    assert len(md.topics[0].partitions) == NUM_PARTITIONS
            else:
                # everything acknowledged before the last crash is back, at the same offsets
                _check_acked(proc.bootstrap, topic, acked)
            sp = StreamingProducer(proc.bootstrap, topic, tag=f"r{rnd}")
            sp.start()
            try:
                sp.wait_for_acks(200, timeout=20)  # mid-stream, not before the first ack
                time.sleep(rng.uniform(0.8, 1.6))
                before_kill = len(sp.acked)
                if rnd < rounds - 1:
                    proc.kill9()
                else:
                    assert proc.terminate() == 0, proc.stderr  # a clean stop under load
            finally:
                sp.stop()
            assert (tmp_path / ".kafka_cleanshutdown").exists() == (rnd == rounds - 1)
            acked.extend(sp.acked)
            stats.append((rnd, sp.sent, before_kill, len(sp.acked), sp.failed, proc.startup_seconds))
            recovery_points.append(_recovery_points(tmp_path, topic))
    # final restart: all acknowledged records of all rounds, offsets contiguous, no key twice
    with w.BrokerProcess(*BROKER_ARGS, log_dir=tmp_path) as proc:
        assert proc.bootstrap and bootstrap
        segments = {p: len(list(w.partition_dir(tmp_path, topic, p).glob("*.log"))) for p in range(NUM_PARTITIONS)}
        by_partition = _check_acked(proc.bootstrap, topic, acked)
        keys = [k for recs in by_partition.values() for _, k, _ in recs]
        assert len(keys) == len(set(keys)), "a record was written twice"
        # and the broker takes new writes at the end of each partition
        with w.connect(proc.bootstrap) as c:
            for p in range(NUM_PARTITIONS):
                leo = w.list_offset(c, topic, p)
                r = w.produce(c, topic, p, build_batch(w.records(1)))
                assert r.error_code == ErrorCode.NONE and r.base_offset == leo
        assert proc.terminate() == 0
    for rnd, sent, before_kill, n_acked, failed, startup in stats:
        print(
            f"round {rnd}: sent {sent}, acked {n_acked} ({before_kill} seen before the stop), "
            f"unacked/purged {failed}, broker start {startup:.2f}s"
        )
    print(f"segments per partition: {segments}; recovery points at each kill: {recovery_points}")
    assert len(acked) >= 200 * rounds


def _recovery_points(log_dir: Path, topic: str) -> dict[int, int]:
    """The recovery-point checkpoint (Kafka's text format) for `topic`: where a restart starts scanning."""
    path = log_dir / "recovery-point-offset-checkpoint"
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines()[2:]:
        parts = line.split()
        if len(parts) == 3 and parts[0] == topic:
            out[int(parts[1])] = int(parts[2])
    return out


def _check_acked(
    bootstrap: str, topic: str, acked: list[tuple[int, int, bytes, bytes]]
) -> dict[int, list[tuple[int, bytes | None, bytes | None]]]:
    by_partition = _read_everything(bootstrap, topic)
    index = {(p, o): (k, v) for p, recs in by_partition.items() for o, k, v in recs}
    missing = [(p, o) for p, o, _, _ in acked if (p, o) not in index]
    assert not missing, f"{len(missing)} acknowledged records lost, e.g. {missing[:5]}"
    wrong = [(p, o) for p, o, k, v in acked if index[(p, o)] != (k, v)]
    assert not wrong, f"{len(wrong)} acknowledged records changed, e.g. {wrong[:5]}"
    return by_partition


# --------------------------------------------------------------------------------------------
# damaged tails
# --------------------------------------------------------------------------------------------


def _write_batches(bootstrap: str, topic: str, n_batches: int = 6, per_batch: int = 3) -> list[list[bytes]]:
    values = []
    with w.connect(bootstrap) as c:
        w.create_topic(c, topic, 1)
        for i in range(n_batches):
            recs = w.records(per_batch, prefix=f"b{i}-")
            r = w.produce(c, topic, 0, build_batch(recs))
            assert r.error_code == ErrorCode.NONE and r.base_offset == i * per_batch
            values.append([v for _, _, v, _ in recs])
    return values


def _damage(seg: Path, how: str) -> None:
    data = seg.read_bytes()
    positions = w.batch_positions(data)
    assert positions and positions[-1][0] + positions[-1][1] == len(data)
    last_pos, last_size, _ = positions[-1]
    if how == "cut-payload":
        seg.write_bytes(data[: len(data) - 7])
    elif how == "cut-header":
        seg.write_bytes(data[: last_pos + 30])
    elif how == "bad-crc":
        b = bytearray(data)
        b[last_pos + last_size - 3] ^= 0x5A  # a payload byte of the last batch
        seg.write_bytes(bytes(b))
    elif how == "zeros-after":
        seg.write_bytes(data + b"\x00" * 4096)  # what a filesystem may leave after a power cut
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["cut-payload", "cut-header", "bad-crc", "zeros-after"])
def test_damaged_tail_is_truncated_on_recovery(tmp_path: Path, how: str) -> None:
    topic = "torn"
    per_batch, n_batches = 3, 6
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        values = _write_batches(proc.bootstrap, topic, n_batches, per_batch)
        proc.kill9()
    _damage(w.last_segment(tmp_path, topic, 0), how)
    kept_batches = n_batches if how == "zeros-after" else n_batches - 1
    leo = kept_batches * per_batch
    with w.BrokerProcess(log_dir=tmp_path) as proc:  # starts: the bootstrap line appears
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, topic, 0) == leo
            assert w.list_offset(c, topic, 0, w.EARLIEST) == 0
            got = w.fetch_records(c, topic, 0)
            assert [r.offset for r in got] == list(range(leo))
            assert [r.value for r in got] == [v for vs in values[:kept_batches] for v in vs]
            r = w.produce(c, topic, 0, build_batch(w.records(2, prefix="new-")))
            assert r.error_code == ErrorCode.NONE and r.base_offset == leo
            got = w.fetch_records(c, topic, 0, offset=leo)
            assert [(x.offset, x.value) for x in got] == [(leo, b"new-0"), (leo + 1, b"new-1")]
        proc.kill9()
    # the segment file itself was cut back (the garbage is gone, not merely skipped)
    data = w.last_segment(tmp_path, topic, 0).read_bytes()
    positions = w.batch_positions(data)
    assert positions[-1][0] + positions[-1][1] == len(data)
    assert [base for _, _, base in positions] == [i * per_batch for i in range(kept_batches)] + [leo]


def test_clean_shutdown_marker_and_fast_restart(tmp_path: Path) -> None:
    topic = "clean"
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        values = _write_batches(proc.bootstrap, topic, 20, 5)
        first_start = proc.startup_seconds
        assert proc.terminate() == 0
        assert len(proc.stdout_lines) == 1, proc.stdout_lines
    assert (tmp_path / ".kafka_cleanshutdown").exists(), "no clean-shutdown marker after SIGTERM"
    assert (tmp_path / "recovery-point-offset-checkpoint").exists()
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap and proc.startup_seconds is not None
        # the marker is consumed at start: a crash from now on must trigger recovery
        assert not (tmp_path / ".kafka_cleanshutdown").exists()
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, topic, 0) == 100
            got = w.fetch_records(c, topic, 0)
            assert [r.value for r in got] == [v for vs in values for v in vs]
        restart = proc.startup_seconds
        assert proc.terminate() == 0
    print(f"CLI broker start: first {first_start:.2f}s, after clean shutdown {restart:.2f}s")
    assert restart < 5.0


@pytest.mark.parametrize("damage", ["garbage", "deleted", "halved"])
def test_damaged_indexes_are_rebuilt(tmp_path: Path, damage: str) -> None:
    """Offset indexes are derived data: garbage, missing or cut index files (here after a clean
    shutdown, where nothing is rescanned by default) must not misplace a single fetch."""
    topic = "idx"
    args = ("--override", "log.segment.bytes=4096", "--override", "log.index.interval.bytes=100")
    with w.BrokerProcess(*args, log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, topic, 1)
            for i in range(60):
                assert w.produce(c, topic, 0, build_batch(w.records(3, prefix=f"b{i}-"))).error_code == 0
        assert proc.terminate() == 0
    rng = random.Random(11)
    indexes = sorted(w.partition_dir(tmp_path, topic, 0).glob("*.index")) + sorted(
        w.partition_dir(tmp_path, topic, 0).glob("*.timeindex")
    )
    assert len(indexes) >= 4
    for f in indexes:
        n = f.stat().st_size
        if damage == "garbage":
            f.write_bytes(bytes(rng.randrange(256) for _ in range(n)))
        elif damage == "deleted":
            f.unlink()
        else:
            f.write_bytes(f.read_bytes()[: n // 2 - 3])
    with w.BrokerProcess(*args, log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, topic, 0) == 180
            assert [r.offset for r in w.fetch_records(c, topic, 0)] == list(range(180))
            for off in range(0, 180, 7):
                got = w.fetch_records(c, topic, 0, offset=off, max_rounds=1)
                assert got and got[0].offset == off, (off, got[:1])
            r = w.produce(c, topic, 0, build_batch(w.records(1)))
            assert r.error_code == ErrorCode.NONE and r.base_offset == 180
        assert proc.terminate() == 0
