"""Compaction (cleanup.policy=compact)."""

from __future__ import annotations

from pathlib import Path

from broker_embedded.log import Log, LogConfig, LogManager
from broker_embedded.log.cleaner import clean_log
from kafka_wire.records import build_batch, decode_batches
from tests.unit.test_log_helpers import FakeClock, crash

COMPACT = {
    "cleanup.policy": "compact",
    "segment.bytes": 700,
    "min.cleanable.dirty.ratio": 0.0,
    "file.delete.delay.ms": 0,
}


def _kv(key: str, value: bytes | None, ts: int, compression: int = 0) -> bytearray:
    return bytearray(build_batch([(ts, key.encode(), value, None)], compression=compression))


def _records(log: Log) -> list[tuple[int, bytes | None, bytes | None]]:
    out = []
    off = log.log_start_offset
    while off < log.log_end_offset:
        r = log.read(off, 1 << 20)
        recs = [x for x in decode_batches(bytes(r.records)) if x.offset >= off]
        if not recs:
            break
        out.extend((x.offset, x.key, x.value) for x in recs)
        off = recs[-1].offset + 1
    return out


def _fill(log: Log, clock: FakeClock, rounds: int = 10) -> None:
    for i in range(rounds):
        for k in ("a", "b", "c"):
            log.append_as_leader(_kv(k, f"{k}{i}".encode(), clock.now, compression=i % 2), 0)
            clock.advance(1)


def test_compaction_keeps_latest_per_key_and_offsets(tmp_path: Path) -> None:
    clock = FakeClock()
    log = Log(tmp_path / "c-0", LogConfig.from_dict(COMPACT), clock=clock)
    _fill(log, clock)
    log.update_high_watermark(log.log_end_offset)
    before = _records(log)
    assert len(before) == 30
    active_base = log.active_segment.base_offset
    stats = clean_log(log, clock.now)
    assert stats is not None and stats.records_removed > 0
    after = _records(log)
    # Below the active segment only the latest record per key (among those below it) survives,
    # at its original offset; the active segment is untouched.
    latest: dict[bytes | None, int] = {}
    for off, key, _ in before:
        if off < active_base:
            latest[key] = off
    expected = [r for r in before if r[0] >= active_base or latest[r[1]] == r[0]]
    assert after == expected
    assert len(after) < len(before)
    assert log.log_end_offset == 30
    # Reopen after a crash: the swapped segments are what is on disk.
    crash(log)
    log = Log(tmp_path / "c-0", LogConfig.from_dict(COMPACT), clock=clock)
    assert _records(log) == after
    assert not list((tmp_path / "c-0").glob("*.cleaned")) and not list((tmp_path / "c-0").glob("*.swap"))


def test_tombstones_removed_after_delete_retention(tmp_path: Path) -> None:
    clock = FakeClock()
    cfg = LogConfig.from_dict({**COMPACT, "delete.retention.ms": 1000})
    log = Log(tmp_path / "c-0", cfg, clock=clock)
    log.append_as_leader(_kv("a", b"1", clock.now), 0)
    log.append_as_leader(_kv("b", b"1", clock.now), 0)
    log.append_as_leader(_kv("a", None, clock.now), 0)  # tombstone for a
    log.roll()
    log.append_as_leader(_kv("z", b"1", clock.now), 0)
    log.update_high_watermark(log.log_end_offset)
    clean_log(log, clock.now)
    assert [(o, k, v) for o, k, v in _records(log)] == [(1, b"b", b"1"), (2, b"a", None), (3, b"z", b"1")]
    clock.advance(5000)
    clean_log(log, clock.now, force=True)
    assert [(o, k) for o, k, _ in _records(log)] == [(1, b"b"), (3, b"z")]


def test_cleaner_respects_high_watermark(tmp_path: Path) -> None:
    clock = FakeClock()
    log = Log(tmp_path / "c-0", LogConfig.from_dict(COMPACT), clock=clock)
    _fill(log, clock)
    assert clean_log(log, clock.now) is None  # HW 0: nothing cleanable


def test_manager_runs_cleaner(tmp_path: Path) -> None:
    clock = FakeClock()
    mgr = LogManager(tmp_path, clock=clock)
    mgr.startup()
    mgr.set_topic_config("__consumer_offsets", LogConfig.from_dict(COMPACT))
    log = mgr.get_or_create_log("__consumer_offsets", 0)
    _fill(log, clock)
    log.update_high_watermark(log.log_end_offset)
    stats = mgr.run_maintenance()
    assert stats.logs_cleaned == 1
    assert len(_records(log)) < 30
    mgr.shutdown()
