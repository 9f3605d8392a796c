"""LogManager: loading, checkpoints in Kafka's format, clean shutdown marker, maintenance."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.log import CLEAN_SHUTDOWN_FILE, LogConfig, LogManager
from broker_embedded.log.checkpoint import (
    LeaderEpochCheckpointFile,
    OffsetCheckpointFile,
    read_high_watermarks,
    write_high_watermarks,
)
from broker_embedded.log.manager import PeriodicSchedule
from broker_embedded.purgatory import ManualClock
from broker_embedded.topic_registry import validate_topic_name
from kafka_wire.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import FakeClock, batch, crash


def test_offset_checkpoint_format(tmp_path: Path) -> None:
    f = OffsetCheckpointFile(tmp_path / "recovery-point-offset-checkpoint")
    f.write({("my-topic", 1): 99, ("a-b-c", 0): 1234})
    assert f.path.read_text() == "0\n2\na-b-c 0 1234\nmy-topic 1 99\n"
    assert f.read() == {("my-topic", 1): 99, ("a-b-c", 0): 1234}
    assert not list(tmp_path.glob("*.tmp"))
    assert OffsetCheckpointFile(tmp_path / "missing").read() == {}
    write_high_watermarks(tmp_path, {("t", 3): 7})
    assert (tmp_path / "replication-offset-checkpoint").read_text() == "0\n1\nt 3 7\n"
    assert read_high_watermarks(tmp_path) == {("t", 3): 7}
    e = LeaderEpochCheckpointFile(tmp_path / "leader-epoch-checkpoint")
    e.write([(0, 0), (3, 120)])
    assert e.path.read_text() == "0\n2\n0 0\n3 120\n"
    assert e.read() == [(0, 0), (3, 120)]


def test_manager_lifecycle_and_checkpoints(tmp_path: Path) -> None:
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=800))
    mgr.startup()
    a = mgr.get_or_create_log("orders-eu-west", 0)
    b = mgr.get_or_create_log("orders-eu-west", 1)
    assert mgr.get_or_create_log("orders-eu-west", 0) is a
    for i in range(20):
        a.append_as_leader(batch(3, tag=i), 1)
        b.append_as_leader(batch(1), 1)
    a.update_high_watermark(a.log_end_offset)
    b.update_high_watermark(30)
    a.delete_records_before(6)
    mgr.shutdown()
    assert (tmp_path / CLEAN_SHUTDOWN_FILE).exists()
    text = (tmp_path / "recovery-point-offset-checkpoint").read_text()
    assert text == "0\n2\norders-eu-west 0 60\norders-eu-west 1 20\n"
    assert (tmp_path / "log-start-offset-checkpoint").read_text() == "0\n2\norders-eu-west 0 6\norders-eu-west 1 0\n"
    assert read_high_watermarks(tmp_path) == {("orders-eu-west", 0): 60, ("orders-eu-west", 1): 20}
    assert (tmp_path / "orders-eu-west-0" / "leader-epoch-checkpoint").read_text() == "0\n1\n1 6\n"

    mgr = LogManager(tmp_path, LogConfig(segment_bytes=800))
    mgr.startup()
    assert mgr.had_clean_shutdown
    assert not (tmp_path / CLEAN_SHUTDOWN_FILE).exists()
    a = mgr.get_log("orders-eu-west", 0)
    assert a is not None
    assert (a.log_start_offset, a.log_end_offset, a.high_watermark) == (6, 60, 60)
    assert sorted(mgr.all_logs()) == [("orders-eu-west", 0), ("orders-eu-west", 1)]
    mgr.shutdown()


def test_manager_recovers_after_crash(tmp_path: Path) -> None:
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=800))
    mgr.startup()
    log = mgr.get_or_create_log("t", 0)
    for _ in range(30):
        log.append_as_leader(batch(2), 0)
    mgr.run_maintenance()  # flushes rolled segments, checkpoints the recovery point
    rp = (tmp_path / "recovery-point-offset-checkpoint").read_text()
    assert rp.startswith("0\n1\nt 0 ") and int(rp.split()[-1]) > 0
    size = log.active_segment.size
    path = log.active_segment.log_path
    crash(log)
    with open(path, "r+b") as f:
        f.truncate(size - 5)
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=800))
    mgr.startup()
    assert not mgr.had_clean_shutdown
    log = mgr.get_log("t", 0)
    assert log is not None and log.log_end_offset == 58
    mgr.shutdown()


def test_maintenance_retention_uses_topic_config_and_high_watermark(tmp_path: Path) -> None:
    clock = FakeClock(10_000_000)
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=600, file_delete_delay_ms=1000), clock=clock)
    mgr.startup()
    mgr.set_topic_config("short", LogConfig(segment_bytes=600, retention_ms=1000, file_delete_delay_ms=1000))
    short = mgr.get_or_create_log("short", 0)
    keep = mgr.get_or_create_log("keep", 0)
    for _ in range(20):
        short.append_as_leader(batch(2, ts=clock.now), 0)
        keep.append_as_leader(batch(2, ts=clock.now), 0)
    clock.advance(5000)
    assert mgr.run_maintenance().segments_deleted == 0  # HW still 0: nothing is below it
    short.update_high_watermark(short.log_end_offset)
    keep.update_high_watermark(keep.log_end_offset)
    stats = mgr.run_maintenance()
    assert stats.segments_deleted > 0
    assert short.log_start_offset == short.log_end_offset == 40
    assert keep.log_start_offset == 0
    assert list((tmp_path / "short-0").glob("*.deleted"))
    clock.advance(1000)
    assert mgr.run_maintenance().files_deleted > 0
    assert not list((tmp_path / "short-0").glob("*.deleted"))
    assert "short 0 40" in (tmp_path / "log-start-offset-checkpoint").read_text()
    mgr.shutdown()


def test_retention_skipped_when_not_due(tmp_path: Path) -> None:
    """run_maintenance(retention=False): flushes and file deletions go on, retention waits for the
    broker's retention schedule."""
    clock = FakeClock(10_000_000)
    mgr = LogManager(tmp_path, LogConfig(segment_bytes=600, retention_ms=1000), clock=clock)
    mgr.startup()
    log = mgr.get_or_create_log("t", 0)
    for _ in range(10):
        log.append_as_leader(batch(2, ts=clock.now), 0)
    log.update_high_watermark(log.log_end_offset)
    clock.advance(5000)
    assert mgr.run_maintenance(retention=False).segments_deleted == 0
    assert log.log_start_offset == 0
    assert mgr.run_maintenance(retention=True).segments_deleted > 0
    assert log.log_start_offset == 20
    mgr.shutdown()


def test_periodic_schedule_initial_delay_then_fixed_rate() -> None:
    """Kafka's retention check: first after log.initial.task.delay.ms, then every
    log.retention.check.interval.ms; a late check does not make missed ones pile up."""
    clock = ManualClock(1_000)
    s = PeriodicSchedule(30_000, 300_000, clock)
    assert not s.due() and s.ms_until_due() == 30_000
    clock.advance(29_999)
    assert not s.due() and s.ms_until_due() == 1
    clock.advance(1)
    assert s.due() and not s.due()  # once per period
    assert s.ms_until_due() == 300_000
    clock.advance(300_000 * 3 + 5)  # three periods late: one check, the next on the original grid
    assert s.due() and not s.due()
    assert s.ms_until_due() == 300_000 - 5
    assert PeriodicSchedule(0, 100, clock).due()  # no initial delay: due at once
    with pytest.raises(ValueError):
        PeriodicSchedule(0, 0, clock)
    with pytest.raises(ValueError):
        PeriodicSchedule(-1, 100, clock)


@pytest.mark.parametrize("name", ["bad\n", "bad\r", "\nbad", "a b", "bad\n\n", "ok\x00"])
def test_topic_names_with_control_characters_are_illegal(name: str) -> None:
    with pytest.raises(KafkaError) as e:
        validate_topic_name(name)
    assert e.value.code == ErrorCode.INVALID_TOPIC_EXCEPTION
    validate_topic_name("ok.name_1-2")


def test_delete_log(tmp_path: Path) -> None:
    mgr = LogManager(tmp_path)
    mgr.startup()
    log = mgr.get_or_create_log("gone", 2)
    log.append_as_leader(batch(1), 0)
    assert mgr.delete_log("gone", 2)
    assert not mgr.delete_log("gone", 2)
    assert not any(p.name.startswith("gone-2") for p in tmp_path.iterdir())
    assert mgr.get_log("gone", 2) is None
    # A leftover "-delete" directory from a crash is removed on startup.
    (tmp_path / "x-0.abc-delete").mkdir()
    mgr.shutdown()
    mgr = LogManager(tmp_path)
    mgr.startup()
    assert not (tmp_path / "x-0.abc-delete").exists()
    assert mgr.all_logs() == {}
    mgr.shutdown()
