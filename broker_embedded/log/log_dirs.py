"""Several log dirs per broker (JBOD, `log.dirs=a,b,c`): Kafka's LogManager over many dirs.

Each dir is one `LogManager` with its own `LogDirState`, so a failed dir takes only its own
partitions offline (KIP-858): their reads and writes answer KAFKA_STORAGE_ERROR while the other
dirs keep serving. New partitions go to the online dir holding the fewest partitions (Kafka's
`LogManager.nextLogDirs`), unless AlterReplicaLogDirs named a preferred dir for them first.

AlterReplicaLogDirs moves a replica between dirs online, as Kafka's ReplicaAlterLogDirsThread
does: a *future* log is created in the target dir (under ``<target>/.future-<id>/``, ignored by
the loader, so a crash mid-move leaves the current log in place), batches are copied from the
current log while the partition keeps taking writes, and once the future log has caught up the
last batches are copied and the logs are swapped under the current log's lock (on the broker's
event loop when it has one, so no produce interleaves). The copy rate is capped by
`replica.alter.log.dirs.io.max.bytes.per.second` when set.
"""

from __future__ import annotations

import enum
import logging
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from broker_embedded.log.checkpoint import TopicPartition, fsync_dir
from broker_embedded.log.config import LogConfig
from broker_embedded.log.errors import KafkaStorageError
from broker_embedded.log.log import Log, partition_dir_name
from broker_embedded.log.manager import LogDirDescription, LogManager, MaintenanceStats
from kafka_wire.errors import ErrorCode

log = logging.getLogger(__name__)

FUTURE_STAGING_PREFIX = ".future-"
_COPY_CHUNK_BYTES = 1024 * 1024


def parse_log_dirs(value: str | None) -> list[Path]:
    """`log.dirs` as Kafka reads it: comma-separated, blanks dropped, duplicates refused."""
    if not value:
        return []
    dirs = [Path(p.strip()).absolute() for p in value.split(",") if p.strip()]
    if len(set(dirs)) != len(dirs):
        raise ValueError(f"Duplicate log directory found: {value}")
    return dirs


def next_log_dir(counts: Mapping[str, int], online: Iterable[str]) -> str:
    """The online dir with the fewest partitions (ties: the first in `log.dirs` order)."""
    candidates = list(online)
    if not candidates:
        raise KafkaStorageError("No log directories available. Tried nothing: every log dir is offline")
    return min(candidates, key=lambda d: (counts.get(d, 0), candidates.index(d)))


class MoveState(enum.Enum):
    COPYING = "copying"  # the future log trails the current one
    SWAPPED = "swapped"  # the future log replaced the current one (done)
    CANCELLED = "cancelled"  # another target or the partition was deleted; future log removed


class IoThrottle:
    """`replica.alter.log.dirs.io.max.bytes.per.second` over one-second windows (rate <= 0: none)."""

    def __init__(self, rate: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.clock = clock
        self._window_start = clock()
        self._bytes = 0

    def allowance(self) -> int:
        """Bytes that may be copied now (0: wait for the next window)."""
        if self.rate <= 0:
            return _COPY_CHUNK_BYTES
        now = self.clock()
        if now - self._window_start >= 1.0:
            self._window_start, self._bytes = now, 0
        return max(0, min(_COPY_CHUNK_BYTES, self.rate - self._bytes))

    def record(self, n: int) -> None:
        self._bytes += n


@dataclass
class ReplicaMove:
    """One replica moving from `source` to `target` (both LogManagers of this broker)."""

    topic: str
    partition: int
    source: LogManager
    target: LogManager
    future: Log
    staging: Path
    state: MoveState = MoveState.COPYING
    copied_bytes: int = field(default=0)

    def current(self) -> Log | None:
        return self.source.get_log(self.topic, self.partition)

    @property
    def tp(self) -> TopicPartition:
        return TopicPartition(self.topic, self.partition)

    def lag(self) -> int:
        cur = self.current()
        return 0 if cur is None else max(0, cur.log_end_offset - self.future.log_end_offset)

    def copy(self, max_bytes: int) -> int:
        """Copy whole batches from the current log into the future log; returns the bytes copied."""
        cur = self.current()
        if cur is None or self.state is not MoveState.COPYING:
            return 0
        done = 0
        while done < max_bytes:
            with cur.lock:
                if self.future.log_end_offset < cur.log_start_offset:
                    # retention or DeleteRecords moved the start past what we copied
                    self.future.truncate_fully_and_start_at(cur.log_start_offset)
                if self.future.log_end_offset >= cur.log_end_offset:
                    break
                data = bytes(cur.read(self.future.log_end_offset, max_bytes - done, None, True).records)
            if not data:
                break
            self.future.append_as_follower(data)
            done += len(data)
        self.copied_bytes += done
        return done


class LogDirs:
    """Every log dir of one broker; the same calls as `LogManager`, routed to the dir of each log."""

    def __init__(
        self,
        dirs: list[Path],
        *,
        producer_id_expiration_ms: int = 86400000,
        io_max_bytes_per_second: int = -1,
        time_s: Callable[[], float] | None = None,
        background: bool = True,
    ) -> None:
        if not dirs:
            raise ValueError("log.dirs names no directory")
        self.managers: dict[str, LogManager] = {
            str(d.absolute()): LogManager(d, producer_id_expiration_ms=producer_id_expiration_ms) for d in dirs
        }
        for m in self.managers.values():
            m.dir_state.recoverable = False  # KIP-858: a failed dir stays offline until a restart
        self._lock = threading.RLock()
        self.preferred: dict[TopicPartition, str] = {}
        self.moves: dict[TopicPartition, ReplicaMove] = {}
        self.throttle = IoThrottle(io_max_bytes_per_second, time_s or time.monotonic)
        # how a swap reaches the partition: set by the broker (replaces Partition.log)
        self.on_swap: Callable[[str, int, Log], None] = lambda t, p, new: None
        # where a swap runs: the broker's event loop (no produce interleaves), else inline
        self._run_swap: Callable[[Callable[[], None]], None] = lambda fn: fn()
        self._wake = threading.Event()
        self._stopped = False
        self.background = background  # False: the caller drives do_work()/try_swap() (tests)
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- lifecycle

    @property
    def run_swap(self) -> Callable[[Callable[[], None]], None]:
        return self._run_swap

    @run_swap.setter
    def run_swap(self, run: Callable[[Callable[[], None]], None]) -> None:
        """The broker sets this once its loop runs: moves resumed at startup start only then."""
        self._run_swap = run
        if self.moves:
            self._ensure_thread()

    def startup(self) -> None:
        for m in self.managers.values():
            try:
                m.startup()
            except OSError as e:
                # a dir unusable at startup is offline; the broker starts on the others (KIP-858)
                m.dir_state.fail("loading the log dir", e)
        for path, m in self.managers.items():
            if m.dir_state.online:
                for staging in Path(path).glob(f"{FUTURE_STAGING_PREFIX}*"):
                    self._resume(m, staging)

    def _resume(self, target: LogManager, staging: Path) -> None:
        """A future log left by a shutdown mid-move: the move goes on, as Kafka resumes it
        (recovered in full: it was not part of any clean-shutdown checkpoint); one without a
        current log any more is removed."""
        children = [c for c in staging.iterdir() if c.is_dir()]
        source = None
        if len(children) == 1:
            try:
                future = Log(children[0], dir_state=target.dir_state)
            except (OSError, ValueError):
                future = None
            if future is not None:
                source = self.manager_of(future.topic, future.partition)
                if source is not None and source is not target and source.dir_state.online:
                    cur = source.get_log(future.topic, future.partition)
                    assert cur is not None
                    future.update_config(cur.config)
                    tp = TopicPartition(future.topic, future.partition)
                    self.moves[tp] = ReplicaMove(future.topic, future.partition, source, target, future, staging)
                    log.info("%s-%d: resuming the move to %s", *tp, target.log_dir)
                    return
                future.delete()
        shutil.rmtree(staging, ignore_errors=True)

    def shutdown(self) -> None:
        self._stopped = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        with self._lock:
            for mv in self.moves.values():
                if mv.state is MoveState.COPYING:
                    mv.future.close()  # kept: the move resumes at the next start
            self.moves.clear()
        for m in self.managers.values():
            m.shutdown()

    # ---------------------------------------------------------------- the LogManager calls

    def manager_of(self, topic: str, partition: int) -> LogManager | None:
        for m in self.managers.values():
            if m.get_log(topic, partition) is not None:
                return m
        return None

    def get_log(self, topic: str, partition: int) -> Log | None:
        m = self.manager_of(topic, partition)
        return None if m is None else m.get_log(topic, partition)

    def _place(self, topic: str, partition: int) -> LogManager:
        online = [p for p, m in self.managers.items() if m.dir_state.online]
        preferred = self.preferred.pop(TopicPartition(topic, partition), None)
        if preferred in online:
            return self.managers[preferred]
        counts = {p: len(m.all_logs()) for p, m in self.managers.items()}
        return self.managers[next_log_dir(counts, online)]

    def get_or_create_log(self, topic: str, partition: int, config: LogConfig | None = None) -> Log:
        with self._lock:
            existing = self.get_log(topic, partition)
            if existing is not None:
                return existing
            return self._place(topic, partition).get_or_create_log(topic, partition, config)

    def create_logs(self, topic: str, partitions: Iterable[int], config: LogConfig) -> list[Log]:
        with self._lock:
            # place them all first (counting the ones placed), then one create (one fsync) per dir
            counts = {p: len(m.all_logs()) for p, m in self.managers.items()}
            online = [p for p, m in self.managers.items() if m.dir_state.online]
            placed: dict[str, list[int]] = {}
            wanted = list(partitions)
            for p in wanted:
                if self.get_log(topic, p) is not None:
                    continue
                preferred = self.preferred.pop(TopicPartition(topic, p), None)
                d = preferred if preferred in online else next_log_dir(counts, online)
                counts[d] = counts.get(d, 0) + 1
                placed.setdefault(d, []).append(p)
            for d, ps in placed.items():
                self.managers[d].create_logs(topic, ps, config)
            logs = [self.get_log(topic, p) for p in wanted]
        return [lg for lg in logs if lg is not None]

    def all_logs(self) -> dict[TopicPartition, Log]:
        out: dict[TopicPartition, Log] = {}
        for m in self.managers.values():
            out.update(m.all_logs())
        return out

    def delete_log(self, topic: str, partition: int) -> bool:
        with self._lock:
            mv = self.moves.pop(TopicPartition(topic, partition), None)
            if mv is not None:
                self._drop_future(mv)
            m = self.manager_of(topic, partition)
        return m is not None and m.delete_log(topic, partition)

    def set_topic_config(self, topic: str, config: LogConfig) -> None:
        for m in self.managers.values():
            m.set_topic_config(topic, config)

    def checkpoint_high_watermarks(self) -> None:
        for m in self.managers.values():
            if m.dir_state.online:
                m.checkpoint_high_watermarks()

    def read_high_watermarks(self) -> dict[TopicPartition, int]:
        out: dict[TopicPartition, int] = {}
        for m in self.managers.values():
            out.update(m.read_high_watermarks())
        return out

    def run_maintenance(self, now_ms: int | None = None, *, retention: bool = True) -> MaintenanceStats:
        total = MaintenanceStats()
        for m in self.managers.values():
            s = m.run_maintenance(now_ms, retention=retention)
            for name in total.__dataclass_fields__:
                setattr(total, name, getattr(total, name) + getattr(s, name))
        return total

    # ---------------------------------------------------------------- failed dirs (KIP-858)

    def on_dir_failure(self, listener: Callable[[str], None]) -> None:
        """`listener(dir)` once per dir that goes offline, on the thread that saw the error, maybe holding a
        log's lock (Kafka's LogDirFailureChannel feeding ReplicaManager.handleLogDirFailure): it should only
        hand the news on (then `partitions_in`)."""
        for path, m in self.managers.items():

            def failed(_state: object, path: str = path) -> None:
                listener(path)

            m.dir_state.listeners.append(failed)

    def partitions_in(self, path: str) -> list[TopicPartition]:
        m = self.managers.get(path)
        return [] if m is None else sorted(m.all_logs())

    def offline_dirs(self) -> list[str]:
        return [p for p, m in self.managers.items() if not m.dir_state.online]

    def is_offline(self, topic: str, partition: int) -> bool:
        """Whether this partition's log is in an offline dir (its replica here is offline)."""
        m = self.manager_of(topic, partition)
        return m is not None and not m.dir_state.online

    # ---------------------------------------------------------------- DescribeLogDirs

    def describe_dirs(self, partitions: Mapping[str, Iterable[int]] | None = None) -> list[LogDirDescription]:
        """Every dir (offline ones with their error), future replicas flagged with their lag:
        Kafka reports a future log's lag as current LEO - future LEO, a current log's as
        max(HW - LEO, 0)."""
        wanted = None if partitions is None else {(t, p) for t, ps in partitions.items() for p in ps}
        out: list[LogDirDescription] = []
        with self._lock:
            moves = list(self.moves.values())
        for m in self.managers.values():
            d = m.describe(partitions)
            if d.offline_reason is None:
                d.partitions = {
                    tp: (size, max(0, lg.high_watermark - lg.log_end_offset), False)
                    for tp, (size, _, _) in d.partitions.items()
                    if (lg := m.get_log(*tp)) is not None
                }
                for mv in moves:
                    tp = mv.tp
                    if mv.target is m and mv.state is MoveState.COPYING and (wanted is None or tp in wanted):
                        d.partitions[tp] = (mv.future.size, mv.lag(), True)
            out.append(d)
        return out

    # ---------------------------------------------------------------- AlterReplicaLogDirs

    def alter_replica_log_dir(self, topic: str, partition: int, destination: str, hosted: bool) -> ErrorCode:
        """Start moving a replica to `destination` (Kafka's ReplicaManager.alterReplicaLogDirs):
        an unknown dir answers LOG_DIR_NOT_FOUND, an offline one KAFKA_STORAGE_ERROR; a replica
        not hosted here is placed there when it arrives and answers REPLICA_NOT_AVAILABLE."""
        dest = str(Path(destination).absolute())
        target = self.managers.get(dest)
        if target is None:
            return ErrorCode.LOG_DIR_NOT_FOUND
        if not target.dir_state.online:
            return ErrorCode.KAFKA_STORAGE_ERROR
        tp = TopicPartition(topic, partition)
        with self._lock:
            mv = self.moves.get(tp)
            if mv is not None and mv.target is not target:
                # a new destination cancels the move in progress (futureReplicaDirChanged)
                self._drop_future(self.moves.pop(tp))
            source = self.manager_of(topic, partition)
            if source is None or not hosted:
                self.preferred[tp] = dest
                return ErrorCode.REPLICA_NOT_AVAILABLE
            if not source.dir_state.online:
                return ErrorCode.KAFKA_STORAGE_ERROR
            if source is target or tp in self.moves:
                return ErrorCode.NONE
            current = source.get_log(topic, partition)
            assert current is not None
            staging = Path(dest) / f"{FUTURE_STAGING_PREFIX}{uuid.uuid4().hex}"
            try:
                future = Log(
                    staging / partition_dir_name(topic, partition),
                    current.config,
                    had_clean_shutdown=True,
                    dir_state=target.dir_state,
                )
                if current.log_start_offset > 0:
                    future.truncate_fully_and_start_at(current.log_start_offset)
            except OSError as e:
                shutil.rmtree(staging, ignore_errors=True)
                target.dir_state.fail(f"creating the future log of {topic}-{partition}", e)
                return ErrorCode.KAFKA_STORAGE_ERROR
            self.moves[tp] = ReplicaMove(topic, partition, source, target, future, staging)
            log.info("%s-%d: moving from %s to %s", topic, partition, source.log_dir, dest)
        self._ensure_thread()
        return ErrorCode.NONE

    def _drop_future(self, mv: ReplicaMove) -> None:
        mv.state = MoveState.CANCELLED
        mv.future.delete()
        shutil.rmtree(mv.staging, ignore_errors=True)

    def _ensure_thread(self) -> None:
        if not self.background:
            return
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="ReplicaAlterLogDirsThread", daemon=True)
            self._thread.start()
        self._wake.set()

    def _run(self) -> None:
        while not self._stopped:
            self._wake.clear()
            try:
                busy = self.do_work()
            except Exception:
                log.exception("replica log dir move failed")
                busy = False
            if not busy:
                self._wake.wait(0.05 if self.moves else 1.0)

    def do_work(self) -> bool:
        """One round over the moves: copy what the throttle allows, swap those caught up.
        True when data was copied (more may follow at once)."""
        with self._lock:
            moves = [mv for mv in self.moves.values() if mv.state is MoveState.COPYING]
        copied = False
        for mv in moves:
            allowance = self.throttle.allowance()
            if allowance <= 0:
                return False
            try:
                n = mv.copy(allowance)
            except KafkaStorageError as e:
                log.warning("%s-%d: move stopped: %s", mv.topic, mv.partition, e)
                with self._lock:
                    if self.moves.get(mv.tp) is mv:
                        self._drop_future(self.moves.pop(mv.tp))
                continue
            self.throttle.record(n)
            copied = copied or n > 0
            if n == 0 and mv.lag() == 0:
                done = threading.Event()

                def swap(mv: ReplicaMove = mv, done: threading.Event = done) -> None:
                    try:
                        self.try_swap(mv)
                    finally:
                        done.set()

                self.run_swap(swap)
                done.wait(10)
        return copied

    def try_swap(self, mv: ReplicaMove) -> bool:
        """Copy the last batches and replace the current log by the future one, under the current
        log's lock: no append lands between the final copy and the swap."""
        cur = mv.current()
        if cur is None or mv.state is not MoveState.COPYING:
            return False
        with cur.lock:
            mv.copy(1 << 62)
            if mv.future.log_end_offset != cur.log_end_offset:
                return False
            hw = cur.high_watermark
            try:
                mv.future.close()
                final = mv.target.log_dir / partition_dir_name(mv.topic, mv.partition)
                os.replace(mv.future.dir, final)
                fsync_dir(mv.target.log_dir)
            except (OSError, KafkaStorageError) as e:
                # the target dir failed: the current log stays where it is, the move is dropped
                if isinstance(e, OSError):
                    mv.target.dir_state.fail(f"moving {mv.topic}-{mv.partition} into the dir", e)
                with self._lock:
                    if self.moves.get(mv.tp) is mv:
                        self._drop_future(self.moves.pop(mv.tp))
                return False
            shutil.rmtree(mv.staging, ignore_errors=True)
            new = mv.target.get_or_create_log(mv.topic, mv.partition, cur.config)
            new.update_high_watermark(hw)
            mv.state = MoveState.SWAPPED
            self.on_swap(mv.topic, mv.partition, new)
            mv.source.delete_log(mv.topic, mv.partition)
        with self._lock:
            if self.moves.get(mv.tp) is mv:
                del self.moves[mv.tp]
        log.info("%s-%d: moved to %s (%d bytes copied)", mv.topic, mv.partition, mv.target.log_dir, mv.copied_bytes)
        return True
