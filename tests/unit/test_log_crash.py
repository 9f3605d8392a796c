"""Crash safety with real processes, concurrency with a maintenance thread, odd inputs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from kafka.record.default_records import DefaultRecordBatchBuilder

from broker_embedded.log import Log, LogConfig, LogManager
from broker_embedded.log.cleaner import clean_log
from kafka_wire.errors import OffsetOutOfRangeError
from tests.unit.test_log_helpers import batch, crash, offsets_of, open_log

ROOT = Path(__file__).resolve().parents[2]

_WRITER = textwrap.dedent(
    """
    import sys
    from broker_embedded.log import LogManager, LogConfig
    from kafka_wire.records import build_batch
    mgr = LogManager(sys.argv[1], LogConfig(segment_bytes=4000))
    mgr.startup()
    log = mgr.get_or_create_log("crash-topic", 0)
    seq = 0
    i = 0
    while True:
        recs = [(1000 + i, b"k%d" % i, b"v" * 50, None), (1000 + i, b"x", b"y", None)]
        info = log.append_as_leader(bytearray(build_batch(recs, producer_id=7, producer_epoch=0,
                                                          base_sequence=seq)), 0)
        seq += 2
        i += 1
        print(info.first_offset, info.last_offset, flush=True)  # the "acknowledgement"
        if i % 50 == 0:
            mgr.run_maintenance()
    """
)


def test_kill_9_loses_nothing_acknowledged(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(tmp_path)], stdout=subprocess.PIPE, env=env, text=True)
    assert proc.stdout is not None
    acked: list[tuple[int, int]] = []
    for line in proc.stdout:
        a, b = line.split()
        acked.append((int(a), int(b)))
        if len(acked) >= 400:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=4000))
    mgr.startup()
    assert not mgr.had_clean_shutdown
    log = mgr.get_log("crash-topic", 0)
    assert log is not None
    last_acked = acked[-1][1]
    assert log.log_end_offset >= last_acked + 1
    got: list[int] = []
    off = 0
    while off < log.log_end_offset:
        offs = [o for o in offsets_of(log.read(off, 1 << 20).records) if o >= off]
        got.extend(offs)
        off = offs[-1] + 1
    assert got == list(range(log.log_end_offset))
    # Batch n holds offsets (2n, 2n+1) with sequence 2n. Retrying any of the last 5 batches on
    # disk after the restart is recognised as a duplicate, with its original offsets.
    from kafka_wire.records import build_batch

    written = log.log_end_offset // 2
    for n in range(written - 5, written):
        recs = [(1000 + n, b"k%d" % n, b"v" * 50, None), (1000 + n, b"x", b"y", None)]
        retry = log.append_as_leader(
            bytearray(build_batch(recs, producer_id=7, producer_epoch=0, base_sequence=2 * n)), 0
        )
        assert retry.duplicate and retry.first_offset == 2 * n
    assert log.log_end_offset == 2 * written
    mgr.shutdown()


def test_concurrent_maintenance_thread(tmp_path: Path) -> None:
    cfg = LogConfig(segment_bytes=1500, retention_ms=-1, retention_bytes=20_000, file_delete_delay_ms=0)
    mgr = LogManager(tmp_path, cfg)
    mgr.startup()
    log = mgr.get_or_create_log("busy", 0)
    stop = threading.Event()
    errors: list[BaseException] = []

    def maintenance() -> None:
        try:
            while not stop.is_set():
                log.update_high_watermark(log.log_end_offset)
                mgr.run_maintenance()
                log.flush()
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    t = threading.Thread(target=maintenance)
    t.start()
    try:
        for i in range(3000):
            log.append_as_leader(batch(2, value_size=40, tag=i), 0)
            if i % 7 == 0:
                start = log.log_start_offset
                try:
                    r = log.read(start, 3000)
                except OffsetOutOfRangeError:
                    continue  # retention moved the start meanwhile: what a consumer would see
                offs = offsets_of(r.records)
                assert offs and offs[-1] >= start
    finally:
        stop.set()
        t.join()
    assert not errors, errors
    assert log.log_end_offset == 6000
    assert log.log_start_offset > 0
    log.update_high_watermark(log.log_end_offset)
    mgr.run_maintenance()  # the appends after the thread's last pass
    assert log.size <= 20_000 + 1500
    mgr.shutdown()
    mgr = LogManager(tmp_path, cfg)
    mgr.startup()
    again = mgr.get_log("busy", 0)
    assert again is not None and again.log_end_offset == 6000
    mgr.shutdown()


def test_concurrent_cleaner(tmp_path: Path) -> None:
    cfg = LogConfig.from_dict(
        {
            "cleanup.policy": "compact",
            "segment.bytes": 800,
            "min.cleanable.dirty.ratio": 0.0,
            "file.delete.delay.ms": 0,
        }
    )
    log = Log(tmp_path / "c-0", cfg)
    stop = threading.Event()
    errors: list[BaseException] = []

    def cleaner() -> None:
        try:
            while not stop.is_set():
                log.update_high_watermark(log.log_end_offset)
                clean_log(log, 0)
        except BaseException as e:  # pragma: no cover
            errors.append(e)

    t = threading.Thread(target=cleaner)
    t.start()
    try:
        for i in range(1500):
            log.append_as_leader(batch(1, key=b"k%d" % (i % 10), tag=i), 0)
    finally:
        stop.set()
        t.join()
    assert not errors, errors
    log.update_high_watermark(log.log_end_offset)
    clean_log(log, 0, force=True)
    offs: list[int] = []
    off = 0
    while off < log.log_end_offset:
        got = [o for o in offsets_of(log.read(off, 1 << 20).records) if o >= off]
        offs.extend(got)
        off = got[-1] + 1
    assert offs == sorted(set(offs)) and offs[-1] == 1499
    assert len(offs) < 300


def test_kafka_python_built_batches(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    for codec in (0, 1, 2, 3):  # none, gzip, snappy (xerial), lz4
        b = DefaultRecordBatchBuilder(2, codec, False, -1, -1, -1, 1 << 20)
        for i in range(5):
            b.append(i, 5000 + i, b"k", b"value-%d" % i, [])
        log.append_as_leader(bytearray(b.build()), 0)
    assert offsets_of(log.read(0, 1 << 20).records) == list(range(20))
    got = log.offset_for_timestamp(5003)
    assert got is not None and got.offset == 3
    assert offsets_of(log.read(12, 1 << 20).records)[0] == 10


def test_multi_batch_append_into_nearly_full_index(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_index_bytes=8 * 3, index_interval_bytes=1)
    log.append_as_leader(batch(1) + batch(1) + batch(1) + batch(1) + batch(1) + batch(1), 0)
    log.append_as_leader(batch(1), 0)
    assert log.log_end_offset == 7
    assert offsets_of(log.read(0, 1 << 20).records) == list(range(6))


def test_garbage_index_content_is_rebuilt_lazily(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=2000, index_interval_bytes=100)
    for _ in range(60):
        log.append_as_leader(batch(2, value_size=30), 0)
    log.close()
    first_index = sorted((tmp_path / "topic-0").glob("*.index"))[0]
    size = first_index.stat().st_size
    first_index.write_bytes(b"\xff" * size)  # right size, nonsense entries
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=2000, index_interval_bytes=100), had_clean_shutdown=True)
    assert offsets_of(log.read(5, 1 << 20).records)[0] == 4


def test_producer_snapshots_are_pruned(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=500)
    for i in range(40):
        log.append_as_leader(batch(2, producer_id=1, producer_epoch=0, base_sequence=2 * i), 0)
    assert log.num_segments > 5
    assert len(list((tmp_path / "topic-0").glob("*.snapshot"))) <= 3
    crash(log)
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=500))
    assert log.append_as_leader(batch(2, producer_id=1, producer_epoch=0, base_sequence=78), 0).duplicate
