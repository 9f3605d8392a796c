"""log.cleaner.io.max.bytes.per.second (issue 30): Kafka's Throttler, shared by the cleaner threads,
on a fake clock. The cleaner threads' reads and writes together stay at the configured rate; a rate
update and close wake a sleeping cleaner; the default never reads the clock; a throttled cleaning
does not hold the maintenance pass (retention of other logs goes on)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BROKER_CONFIGS
from broker_embedded.log import Log, LogConfig, LogManager
from broker_embedded.log.cleaner_pool import CleanerPool
from broker_embedded.log.throttler import UNLIMITED, CleanerAborted, Throttler
from tests.unit.test_log_cleaner import _kv
from tests.unit.test_log_helpers import FakeClock

MS = 1_000_000
RATE = 10_000.0  # bytes/s, the configured log.cleaner.io.max.bytes.per.second
DISK_RATE = 4 * RATE  # how fast the fake disk reads and writes: unthrottled, the cleaners run at 4x
CHECK_S = 0.3  # Kafka's cleaner throttler checks its rate every 300 ms


def _until(pred: Callable[[], Any], timeout: float = 10.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s: {what}")
        time.sleep(0.01)


class _Disk:
    """The fake clock (ns) of the throttler: time passes only by I/O, at DISK_RATE, and by sleeps."""

    def __init__(self) -> None:
        self.now_ns = 0
        self._lock = threading.Lock()

    def clock(self) -> int:
        return self.now_ns

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now_ns += round(seconds * 1e9)


class _MeasuredThrottler(Throttler):
    """Each report first costs its bytes' I/O time on the fake disk; records (time, bytes so far).
    The two cleaner threads wait for each other at their first report, so they run together."""

    def __init__(self, rate: float, disk: _Disk) -> None:
        super().__init__(rate, clock_ns=disk.clock, wait=disk.advance)
        self.disk = disk
        self.samples: list[tuple[int, float]] = []
        self.threads: set[int] = set()
        self.largest = 0.0
        self._both = threading.Barrier(2, timeout=10)
        self._seen = threading.Lock()

    def maybe_throttle(self, observed: float) -> None:
        me = threading.get_ident()
        with self._seen:
            first = me not in self.threads
            self.threads.add(me)
        if first:
            self._both.wait()
        self.disk.advance(observed / DISK_RATE)
        with self._seen:
            total = (self.samples[-1][1] if self.samples else 0.0) + observed
            self.samples.append((self.disk.now_ns, total))
            self.largest = max(self.largest, observed)
        super().maybe_throttle(observed)


def _compacted_log(path: Path, clock: FakeClock, segments: int = 8) -> Log:
    cfg = {"cleanup.policy": "compact", "segment.bytes": 8192, "min.cleanable.dirty.ratio": 0.0}
    log = Log(path, LogConfig.from_dict({**cfg, "file.delete.delay.ms": 0}), clock=clock)
    i = 0
    while len(log.segments) <= segments:
        log.append_as_leader(_kv(f"k{i % 16}", b"v" * 200 + str(i).encode(), clock.now), 0)
        clock.advance(1)
        i += 1
    log.update_high_watermark(log.log_end_offset)
    return log


def _clean_two_logs(tmp_path: Path, rate: float) -> tuple[_MeasuredThrottler, float]:
    """Two cleaner threads clean two logs of ~64 kB; (the throttler, the rate in bytes/s of fake time)."""
    clock = FakeClock()
    logs = [_compacted_log(tmp_path / f"c-{i}", clock) for i in range(2)]
    sizes = [log.size for log in logs]
    throttler = _MeasuredThrottler(rate, _Disk())
    pool = CleanerPool(2, throttler=throttler)
    try:
        pool.clean(logs, clock.now)  # throttled: returns at once, the cleanings go on
        _until(lambda: not pool.in_progress(), timeout=30, what="both cleanings ended")
    finally:
        pool.shutdown()
    assert len(throttler.threads) == 2, "both cleaner threads reported to the one throttler"
    for log, size in zip(logs, sizes, strict=True):
        assert log.cleaner_checkpoint == log.active_segment.base_offset and log.size < size / 2
        log.close()
    end_ns, total = throttler.samples[-1]
    return throttler, total / (end_ns / 1e9)


def test_cleaner_threads_together_held_at_the_rate(tmp_path: Path) -> None:
    throttler, rate = _clean_two_logs(tmp_path / "throttled", RATE)
    total = throttler.samples[-1][1]
    print(f"2 cleaner threads: {total:.0f} B in {total / rate:.1f} s of fake time: {rate:.0f} B/s, limit {RATE:.0f}")
    assert total > 10 * CHECK_S * DISK_RATE  # many check periods: the free first 300 ms is a small part
    assert throttler.throttle_count > 0
    assert 0.8 * RATE <= rate <= 1.2 * RATE
    # never ahead of the rate by more than one check period of I/O (plus a batch in flight per thread)
    slack = CHECK_S * DISK_RATE + 2 * throttler.largest
    ahead = max(done - RATE * t / 1e9 for t, done in throttler.samples)
    assert ahead <= slack, (ahead, slack)
    # the same cleanings unthrottled run at the disk's rate: the bounds above fail without the throttle
    unthrottled, fast = _clean_two_logs(tmp_path / "unthrottled", UNLIMITED)
    assert unthrottled.throttle_count == 0 and fast > 1.5 * RATE, fast


def test_default_never_reads_the_clock() -> None:
    reads: list[int] = []
    waits: list[float] = []

    def clock() -> int:
        reads.append(1)
        return len(reads) * 10**12  # 1000 s per read: any check would find the rate exceeded

    throttler = Throttler(clock_ns=clock, wait=waits.append)
    reads.clear()  # the construction's read (the first period's start, as Kafka's)
    for _ in range(1000):
        throttler.maybe_throttle(1 << 20)
    assert (reads, waits, throttler.throttle_count, throttler.limited) == ([], [], 0, False)
    # Kafka's default for the config is Double.MAX_VALUE, the unlimited rate
    assert BROKER_CONFIGS["log.cleaner.io.max.bytes.per.second"].default == UNLIMITED
    assert not CleanerPool().throttler.limited


def _asleep(throttler: Throttler, now: list[int], outcome: list[str]) -> threading.Thread:
    """A cleaner thread reporting 1 MB 400 ms into a check period: at 1000 B/s it sleeps ~1000 s."""
    now[0] += 400 * MS

    def report() -> None:
        try:
            throttler.maybe_throttle(1_000_000)
            outcome.append("done")
        except CleanerAborted:
            outcome.append("aborted")

    sleeps = throttler.throttle_count
    t = threading.Thread(target=report, daemon=True)
    t.start()
    _until(lambda: throttler.throttle_count > sleeps, what="the cleaner asleep")
    return t


def test_rate_update_and_close_wake_a_sleeping_cleaner() -> None:
    now = [0]
    throttler = Throttler(1000.0, clock_ns=lambda: now[0])  # a fake clock, real (interruptible) sleeps
    outcome: list[str] = []
    t = _asleep(throttler, now, outcome)
    throttler.update_desired_rate_per_sec(2000.0)  # ~500 s still to sleep under the new rate
    t.join(0.3)
    assert t.is_alive() and outcome == []
    throttler.update_desired_rate_per_sec(10_000_000.0)  # 1 MB takes 100 ms at this rate: 400 ms passed
    t.join(10)
    assert not t.is_alive() and outcome == ["done"]
    throttler.update_desired_rate_per_sec(1000.0)
    t = _asleep(throttler, now, outcome)
    throttler.close()  # broker shutdown: the cleaning is abandoned
    t.join(10)
    assert not t.is_alive() and outcome == ["done", "aborted"]
    with pytest.raises(CleanerAborted):
        throttler.maybe_throttle(1)


def _write(log: Log, clock: FakeClock, batches: int) -> None:
    for i in range(batches):
        log.append_as_leader(_kv(f"k{i % 4}", b"x" * 100, clock.now), 0)
    log.update_high_watermark(log.log_end_offset)


def test_throttled_cleaning_does_not_hold_the_maintenance_pass(tmp_path: Path) -> None:
    """While a throttled cleaning sleeps, a maintenance pass returns and enforces the retention of the
    other logs; the retention of the log being cleaned (compact,delete) waits for its cleaning and runs
    in the first pass after it, as Kafka's LogCleanerManager keeps retention off a log in progress."""
    clock = FakeClock()
    now = [0]
    pool = CleanerPool(1, throttler=Throttler(1.0, clock_ns=lambda: now[0]))  # 1 B/s: any cleaning sleeps
    now[0] = 1000 * MS  # past the first check period
    mgr = LogManager(tmp_path, clock=clock)
    mgr.startup()
    mgr.cleaner_pool = pool
    small = {"segment.bytes": 1024, "retention.ms": 1000, "file.delete.delay.ms": 0}
    mgr.set_topic_config("both", LogConfig.from_dict({**small, "cleanup.policy": "compact,delete"}))
    mgr.set_topic_config("plain", LogConfig.from_dict({**small, "cleanup.policy": "delete"}))
    compacted, plain = mgr.get_or_create_log("both", 0), mgr.get_or_create_log("plain", 0)
    try:
        for log in (compacted, plain):
            _write(log, clock, 40)
        compacted_segments, plain_segments = len(compacted.segments), len(plain.segments)
        assert compacted_segments > 3 and plain_segments > 3
        # every segment past retention.ms (also the cleaner's empty ones, timestamped by the wall clock)
        later = clock.now + 10**12
        passes: list[Any] = []
        first = threading.Thread(target=lambda: passes.append(mgr.run_maintenance(later)), daemon=True)
        first.start()
        first.join(10)
        assert not first.is_alive(), "the maintenance pass waited for the throttled cleaning"
        assert pool.in_progress() == {id(compacted)}
        (stats,) = passes
        assert stats.segments_deleted == plain_segments and len(plain.segments) == 1  # all expired
        assert len(compacted.segments) == compacted_segments  # retention waits for the cleaning
        _until(lambda: pool.throttler.throttle_count == 1, what="the cleaning asleep at its first batch")
        # a second pass meanwhile: the log is not handed over again, its retention still waits
        assert mgr.run_maintenance(later, retention=True).segments_deleted == 0
        # the operator lifts the limit: the sleeping cleaning wakes and finishes
        pool.update_io_max_bytes_per_second(UNLIMITED)
        _until(lambda: not pool.in_progress(), what="the cleaning ended")
        assert compacted.cleaner_checkpoint == compacted.active_segment.base_offset
        # the first pass after it runs the log's retention, though retention is not due
        assert mgr.run_maintenance(later, retention=False).segments_deleted > 0
        assert len(compacted.segments) == 1
    finally:
        pool.shutdown()
        mgr.shutdown()
