"""Several log dirs per broker (broker_embedded.log.log_dirs): placement, failed dirs, replica moves."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.log import LogConfig
from broker_embedded.log.errors import KafkaStorageError
from broker_embedded.log.log import Log
from broker_embedded.log.log_dirs import IoThrottle, LogDirs, MoveState, next_log_dir, parse_log_dirs
from kafka_wire.errors import ErrorCode
from tests.unit.test_log_helpers import batch


def _dirs(tmp_path: Path, n: int = 2) -> LogDirs:
    d = LogDirs([tmp_path / f"d{i}" for i in range(n)], background=False)
    d.startup()
    return d


def test_parse_and_next_log_dir() -> None:
    assert parse_log_dirs(" /a, /b ,") == [Path("/a"), Path("/b")]
    with pytest.raises(ValueError, match="Duplicate log directory"):
        parse_log_dirs("/a,/a")
    # the fewest partitions wins; ties go to the first in log.dirs order; offline dirs never
    assert next_log_dir({"a": 2, "b": 1, "c": 1}, ["a", "b", "c"]) == "b"
    assert next_log_dir({"a": 0, "b": 5}, ["b"]) == "b"
    with pytest.raises(KafkaStorageError):
        next_log_dir({"a": 0}, [])


def test_new_partitions_go_to_the_dir_with_fewest(tmp_path: Path) -> None:
    d = _dirs(tmp_path, 3)
    try:
        d.create_logs("t", range(6), LogConfig())
        counts = sorted(len(m.all_logs()) for m in d.managers.values())
        assert counts == [2, 2, 2]
        m0 = d.managers[str(tmp_path / "d0")]
        m0.dir_state.fail("a test write", OSError(5, "Input/output error"))
        d.create_logs("u", range(4), LogConfig())
        assert len(m0.all_logs()) == 2  # nothing placed in the offline dir
        assert {str(log.dir.parent) for log in d.all_logs().values()} >= {str(tmp_path / "d1")}
    finally:
        d.shutdown()


def test_a_failed_dir_takes_only_its_partitions_offline(tmp_path: Path) -> None:
    d = _dirs(tmp_path)
    try:
        a, b = d.create_logs("t", [0, 1], LogConfig())
        assert a.dir.parent != b.dir.parent
        a.dir_state.fail("a test write", OSError(5, "Input/output error"))
        with pytest.raises(KafkaStorageError):
            a.dir_state.check_online("append to t-0")
        b.append_as_leader(batch(2), 0)  # the other dir keeps serving
        assert b.log_end_offset == 2
        descs = {x.path: x for x in d.describe_dirs()}
        assert descs[str(a.dir.parent)].offline_reason is not None
        assert set(descs[str(b.dir.parent)].partitions) == {("t", 1)}
    finally:
        d.shutdown()


def test_move_copies_while_writes_continue_then_swaps(tmp_path: Path) -> None:
    d = _dirs(tmp_path)
    swapped: list[Log] = []
    d.on_swap = lambda t, p, new: swapped.append(new)
    try:
        (log,) = d.create_logs("t", [0], LogConfig())
        for i in range(20):
            log.append_as_leader(batch(5, value_size=200, tag=i), 3)
        log.update_high_watermark(log.log_end_offset)
        src = str(log.dir.parent)
        dst = next(p for p in d.managers if p != src)
        assert d.alter_replica_log_dir("t", 0, dst + "/", hosted=True) == ErrorCode.NONE
        mv = d.moves[("t", 0)]
        assert mv.state is MoveState.COPYING and mv.lag() == 100
        # the future replica is reported in the target dir with its lag
        descs = {x.path: x for x in d.describe_dirs()}
        assert descs[dst].partitions[("t", 0)] == (0, 100, True)
        assert mv.copy(3000) > 0 and 0 < mv.lag() < 100
        log.append_as_leader(batch(5, tag=99), 4)  # writes keep landing on the current log
        while mv.copy(1 << 20):
            pass
        log.append_as_leader(batch(1, tag=100), 4)
        assert mv.lag() == 1
        before = bytes(log.read(0, 1 << 24).records)
        assert d.try_swap(mv) and mv.state is MoveState.SWAPPED
        (new,) = swapped
        assert str(new.dir.parent) == dst and not log.dir.exists()
        assert new.log_end_offset == 106 and new.high_watermark == 100
        assert new.latest_epoch == 4
        assert d.get_log("t", 0) is new and ("t", 0) not in d.moves
        assert bytes(new.read(0, 1 << 24).records) == before  # the same batches, byte for byte
    finally:
        d.shutdown()


def test_alter_errors_and_cancel(tmp_path: Path) -> None:
    d = _dirs(tmp_path, 3)
    try:
        (log,) = d.create_logs("t", [0], LogConfig())
        log.append_as_leader(batch(3), 0)
        others = [p for p in d.managers if p != str(log.dir.parent)]
        assert d.alter_replica_log_dir("t", 0, str(tmp_path / "nope"), hosted=True) == ErrorCode.LOG_DIR_NOT_FOUND
        # not hosted yet: remembered, and the partition is created there later
        assert d.alter_replica_log_dir("u", 0, others[1], hosted=False) == ErrorCode.REPLICA_NOT_AVAILABLE
        assert str(d.get_or_create_log("u", 0).dir.parent) == others[1]
        assert d.alter_replica_log_dir("t", 0, str(log.dir.parent), hosted=True) == ErrorCode.NONE
        assert not d.moves  # already there
        assert d.alter_replica_log_dir("t", 0, others[0], hosted=True) == ErrorCode.NONE
        first = d.moves[("t", 0)]
        # another destination cancels the move in progress and starts a new one
        assert d.alter_replica_log_dir("t", 0, others[1], hosted=True) == ErrorCode.NONE
        assert first.state is MoveState.CANCELLED and not first.staging.exists()
        assert d.moves[("t", 0)].target is d.managers[others[1]]
        d.managers[others[0]].dir_state.fail("a test write", OSError(5, "Input/output error"))
        assert d.alter_replica_log_dir("t", 0, others[0], hosted=True) == ErrorCode.KAFKA_STORAGE_ERROR
        # deleting the partition drops its future replica
        staging = d.moves[("t", 0)].staging
        assert d.delete_log("t", 0) and not staging.exists() and not d.moves
    finally:
        d.shutdown()


def test_io_throttle_windows() -> None:
    now = [0.0]
    t = IoThrottle(1000, lambda: now[0])
    assert t.allowance() == 1000
    t.record(700)
    assert t.allowance() == 300
    t.record(300)
    assert t.allowance() == 0
    now[0] = 1.0
    assert t.allowance() == 1000
    assert IoThrottle(-1, lambda: 0.0).allowance() > 0


def test_do_work_copies_within_the_io_rate_then_swaps(tmp_path: Path) -> None:
    """replica.alter.log.dirs.io.max.bytes.per.second: per one-second window, at most the rate
    (plus one whole batch) is copied; once caught up the move swaps."""
    now = [0.0]
    d = LogDirs([tmp_path / "a", tmp_path / "b"], background=False, io_max_bytes_per_second=5000, time_s=lambda: now[0])
    d.startup()
    try:
        (log,) = d.create_logs("t", [0], LogConfig())
        for i in range(10):
            log.append_as_leader(batch(5, value_size=200, tag=i), 0)
        dst = next(p for p in d.managers if p != str(log.dir.parent))
        assert d.alter_replica_log_dir("t", 0, dst, hosted=True) == ErrorCode.NONE
        mv = d.moves[("t", 0)]
        per_window = []
        while mv.state is MoveState.COPYING:
            before = mv.copied_bytes
            while d.do_work():
                pass
            per_window.append(mv.copied_bytes - before)
            now[0] += 1.0
            assert len(per_window) < 20
        # about 11 KB at 5 KB/s: three windows or more, none above the rate plus one batch (~1.1 KB)
        assert max(per_window) <= 5000 + 1200 and len(per_window) >= 3, per_window
        assert sum(per_window) == mv.copied_bytes and mv.state is MoveState.SWAPPED
        assert str(d.get_log("t", 0).dir.parent) == dst and d.get_log("t", 0).log_end_offset == 50
    finally:
        d.shutdown()


def test_a_move_resumes_after_a_restart(tmp_path: Path) -> None:
    d = _dirs(tmp_path)
    (log,) = d.create_logs("t", [0], LogConfig())
    for i in range(10):
        log.append_as_leader(batch(5, value_size=200, tag=i), 2)
    src = str(log.dir.parent)
    dst = next(p for p in d.managers if p != src)
    assert d.alter_replica_log_dir("t", 0, dst, hosted=True) == ErrorCode.NONE
    d.moves[("t", 0)].copy(3000)
    copied = d.moves[("t", 0)].future.log_end_offset
    assert 0 < copied < 50
    d.shutdown()  # mid-move: the future log stays on disk

    d = _dirs(tmp_path)
    try:
        mv = d.moves[("t", 0)]
        assert mv.future.log_end_offset == copied and str(mv.source.log_dir) == src
        assert d.try_swap(mv) and str(d.get_log("t", 0).dir.parent) == dst
        assert d.get_log("t", 0).log_end_offset == 50 and not list(Path(dst).glob(".future-*"))
    finally:
        d.shutdown()


def test_background_move_under_continuous_appends_loses_nothing(tmp_path: Path) -> None:
    """The mover thread copies while a 'loop' thread keeps appending; the swap runs on that loop
    (as on the broker's event loop), so every append lands in the log that ends up current."""
    import queue

    d = LogDirs([tmp_path / "a", tmp_path / "b"], io_max_bytes_per_second=200_000)
    d.startup()
    holder: dict[str, Log] = {}
    d.on_swap = lambda t, p, new: holder.__setitem__("log", new)
    tasks: queue.Queue[object] = queue.Queue()
    d.run_swap = tasks.put
    try:
        (holder["log"],) = d.create_logs("t", [0], LogConfig())
        src = str(holder["log"].dir.parent)
        dst = next(p for p in d.managers if p != src)
        for i in range(30):
            holder["log"].append_as_leader(batch(5, value_size=300, tag=i), 0)
        assert d.alter_replica_log_dir("t", 0, dst, hosted=True) == ErrorCode.NONE
        appended = 150
        for _ in range(200_000):  # the "loop": runs swaps handed to it, appends in between
            try:
                task = tasks.get(timeout=0.001)
                assert callable(task)
                task()
            except queue.Empty:
                pass
            if appended < 1000:
                holder["log"].append_as_leader(batch(5, value_size=300, tag=appended), 0)
                appended += 5
            elif not d.moves:
                break
        assert not d.moves
        new = holder["log"]
        assert str(new.dir.parent) == dst and d.get_log("t", 0) is new
        assert new.log_end_offset == appended == 1000
    finally:
        d.shutdown()
