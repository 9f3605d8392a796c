"""The broker's log directory: loads every partition log on startup, creates and deletes logs,
runs retention/flush/cleaning on a timer, writes checkpoints, and marks a clean shutdown.

Layout of `<log_dir>/` (what Kafka keeps there; `meta.properties` belongs to the broker)::

    .kafka_cleanshutdown               present only between a clean shutdown and the next start
    recovery-point-offset-checkpoint   per partition: offsets below are fsynced (no scan needed)
    log-start-offset-checkpoint        per partition: log start offset (DeleteRecords, retention)
    replication-offset-checkpoint      per partition: high watermark (written for the broker)
    <topic>-<partition>/               one Log each
"""

from __future__ import annotations

import logging
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .checkpoint import (
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    REPLICATION_OFFSET_CHECKPOINT,
    CheckpointError,
    OffsetCheckpointFile,
    TopicPartition,
    fsync_dir,
    write_atomically,
)
from .config import LogConfig
from .dir_state import LogDirState
from .errors import KafkaStorageError
from .log import Log, parse_topic_partition_name, partition_dir_name

if TYPE_CHECKING:
    from .cleaner_pool import CleanerPool

CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown"
DELETE_DIR_SUFFIX = "-delete"
FUTURE_DIR_SUFFIX = "-future"

log_ = logging.getLogger(__name__)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class PeriodicSchedule:
    """When a periodic log task is due, on a monotonic clock: first ``initial_delay_ms`` after
    creation, then every ``period_ms`` (fixed rate, like Kafka's scheduler; a pass that ran late
    does not make the next ones pile up). Kafka's LogManager schedules its retention check this way
    (``log.initial.task.delay.ms`` 30 s, then ``log.retention.check.interval.ms`` 5 min)."""

    def __init__(self, initial_delay_ms: int, period_ms: int, clock: Callable[[], int]) -> None:
        if period_ms <= 0 or initial_delay_ms < 0:
            raise ValueError(
                f"period {period_ms} ms must be positive, initial delay {initial_delay_ms} ms not negative"
            )
        self.period_ms = period_ms
        self.clock = clock
        self.next_due_ms = clock() + initial_delay_ms

    def due(self) -> bool:
        """True once per elapsed period (then the next period starts from the missed deadline,
        skipping whole periods already past)."""
        now = self.clock()
        if now < self.next_due_ms:
            return False
        missed = (now - self.next_due_ms) // self.period_ms
        self.next_due_ms += (missed + 1) * self.period_ms
        return True

    def ms_until_due(self) -> int:
        return max(0, self.next_due_ms - self.clock())


@dataclass(slots=True)
class LogDirDescription:
    """One log dir as DescribeLogDirs reports it (Kafka's LogManager + ReplicaManager.describeLogDirs).

    ``offline_reason`` is set when the dir is offline (then no partitions are listed);
    ``partitions`` maps (topic, partition) to (size in bytes, offset lag, is_future). Total and
    usable bytes are the file system's (KIP-827), -1 when it cannot be read."""

    path: str
    offline_reason: str | None
    partitions: dict[TopicPartition, tuple[int, int, bool]]
    total_bytes: int
    usable_bytes: int


@dataclass(slots=True)
class MaintenanceStats:
    segments_deleted: int = 0
    logs_flushed: int = 0
    producers_expired: int = 0
    logs_cleaned: int = 0
    files_deleted: int = 0


class LogManager:
    """Owns one log dir. Call `startup()` first and `shutdown()` last."""

    def __init__(
        self,
        log_dir: str | os.PathLike[str],
        default_config: LogConfig | None = None,
        *,
        topic_configs: Mapping[str, LogConfig] | None = None,
        clock: Callable[[], int] | None = None,
        producer_id_expiration_ms: int = 86400000,
        cleaner_enabled: bool = True,
    ) -> None:
        self.log_dir = Path(log_dir)
        self.default_config = default_config or LogConfig()
        self.topic_configs: dict[str, LogConfig] = dict(topic_configs or {})
        self.clock = clock or _wall_clock_ms
        self.producer_id_expiration_ms = producer_id_expiration_ms
        self.cleaner_enabled = cleaner_enabled
        # log.cleaner.threads (log/cleaner_pool.py, set by the broker); None: cleaned one by one inline
        self.cleaner_pool: CleanerPool | None = None
        self._retention_deferred: set[int] = set()  # id() of logs whose retention waits for their cleaning
        self._logs: dict[TopicPartition, Log] = {}
        self._lock = threading.RLock()
        self._recovery_checkpoint = OffsetCheckpointFile(self.log_dir / RECOVERY_POINT_CHECKPOINT)
        self._start_checkpoint = OffsetCheckpointFile(self.log_dir / LOG_START_OFFSET_CHECKPOINT)
        self._hw_checkpoint = OffsetCheckpointFile(self.log_dir / REPLICATION_OFFSET_CHECKPOINT)
        self._last_recovery_points: dict[TopicPartition, int] | None = None
        self._last_start_offsets: dict[TopicPartition, int] | None = None
        self._last_high_watermarks: dict[TopicPartition, int] | None = None
        self.had_clean_shutdown = False
        self._started = False
        self.dir_state = LogDirState(self.log_dir)

    # ---------------------------------------------------------------- lifecycle

    def startup(self) -> None:
        """Load every partition directory; recover those not covered by a clean shutdown."""
        with self._lock:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            marker = self.log_dir / CLEAN_SHUTDOWN_FILE
            self.had_clean_shutdown = marker.exists()
            recovery_points = self._read_checkpoint(self._recovery_checkpoint)
            start_offsets = self._read_checkpoint(self._start_checkpoint)
            high_watermarks = self._read_checkpoint(self._hw_checkpoint)
            for d in sorted(self.log_dir.iterdir()):
                if not d.is_dir():
                    continue
                if d.name.endswith(DELETE_DIR_SUFFIX):
                    shutil.rmtree(d, ignore_errors=True)  # a deletion interrupted by a crash
                    continue
                if d.name.endswith(FUTURE_DIR_SUFFIX):
                    continue
                try:
                    topic, partition = parse_topic_partition_name(d.name)
                except ValueError:
                    continue
                tp = TopicPartition(topic, partition)
                log = Log(
                    d,
                    self.config_for(topic),
                    log_start_offset=start_offsets.get(tp, 0),
                    # Without the marker, a log missing from the checkpoint is scanned in full.
                    recovery_point=recovery_points.get(tp, 0),
                    had_clean_shutdown=self.had_clean_shutdown,
                    clock=self.clock,
                    dir_state=self.dir_state,
                )
                if tp in high_watermarks:
                    log.update_high_watermark(high_watermarks[tp])
                self._logs[tp] = log
            # The marker is only valid for the shutdown that wrote it.
            marker.unlink(missing_ok=True)
            fsync_dir(self.log_dir)
            self._started = True

    @staticmethod
    def _read_checkpoint(f: OffsetCheckpointFile) -> dict[TopicPartition, int]:
        try:
            return f.read()
        except CheckpointError:
            return {}  # a damaged checkpoint only costs a longer recovery

    def shutdown(self) -> None:
        """Flush and close every log, write the checkpoints, then the clean shutdown marker."""
        with self._lock:
            if not self._started:
                return
            self._started = False

            def close(log: Log) -> int:
                try:
                    log.close()
                    return 0
                except KafkaStorageError:
                    return 1  # logged once by the dir state; the log's files are closed

            # fsync waits dominate a close: overlap them (Kafka closes logs with
            # num.recovery.threads.per.data.dir threads)
            logs = list(self._logs.values())
            if len(logs) > 16:
                with ThreadPoolExecutor(max_workers=8, thread_name_prefix="log-close") as pool:
                    failed = sum(pool.map(close, logs))
            else:
                failed = sum(close(log) for log in logs)
            try:
                self.checkpoint_recovery_points()
                self.checkpoint_log_start_offsets()
                self.checkpoint_high_watermarks()
                if not self.dir_state.had_error:
                    # after a storage error the files may end in a torn write the truncate could
                    # not remove: no marker, so the next start recovers (validates and truncates)
                    write_atomically(self.log_dir / CLEAN_SHUTDOWN_FILE, b"")
            except OSError as e:
                self.dir_state.fail("writing checkpoints at shutdown", e)
            if self.dir_state.had_error:
                log_.warning(
                    "Shut down log directory %s after storage errors (%d logs not flushed): the next start recovers it",
                    self.log_dir,
                    failed,
                )

    def __enter__(self) -> LogManager:
        self.startup()
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    # ---------------------------------------------------------------- logs

    def config_for(self, topic: str) -> LogConfig:
        return self.topic_configs.get(topic, self.default_config)

    def set_topic_config(self, topic: str, config: LogConfig) -> None:
        """Apply a topic's config (CreateTopics / AlterConfigs) to its existing and future logs."""
        with self._lock:
            self.topic_configs[topic] = config
            for (t, _), log in self._logs.items():
                if t == topic:
                    log.update_config(config)

    def get_log(self, topic: str, partition: int) -> Log | None:
        return self._logs.get(TopicPartition(topic, partition))

    def get_or_create_log(self, topic: str, partition: int, config: LogConfig | None = None) -> Log:
        with self._lock:
            log = self._logs.get(TopicPartition(topic, partition))
            if log is not None:
                return log
            if config is not None:
                self.topic_configs.setdefault(topic, config)
            self.dir_state.check_online(f"create log {topic}-{partition}")
            try:
                log = Log(
                    self.log_dir / partition_dir_name(topic, partition),
                    config or self.config_for(topic),
                    had_clean_shutdown=True,  # brand new: nothing to recover
                    clock=self.clock,
                    dir_state=self.dir_state,
                )
                fsync_dir(self.log_dir)
            except OSError as e:
                raise self.dir_state.fail(f"creating log {topic}-{partition}", e) from None
            self._logs[TopicPartition(topic, partition)] = log
            return log

    def create_logs(self, topic: str, partitions: Iterable[int], config: LogConfig) -> list[Log]:
        """Logs for many new partitions (CreateTopics/CreatePartitions), with one directory fsync
        for all of them instead of one each: thread-safe, meant for a worker thread."""
        self.dir_state.check_online(f"create logs of {topic}")
        logs: list[Log] = []
        try:
            for partition in partitions:
                with self._lock:
                    log = self._logs.get(TopicPartition(topic, partition))
                    if log is None:
                        self.topic_configs.setdefault(topic, config)
                        log = Log(
                            self.log_dir / partition_dir_name(topic, partition),
                            config,
                            had_clean_shutdown=True,
                            clock=self.clock,
                            dir_state=self.dir_state,
                        )
                        self._logs[TopicPartition(topic, partition)] = log
                logs.append(log)
            fsync_dir(self.log_dir)
        except OSError as e:
            raise self.dir_state.fail(f"creating logs of {topic}", e) from None
        return logs

    def all_logs(self) -> dict[TopicPartition, Log]:
        with self._lock:
            return dict(self._logs)

    def delete_log(self, topic: str, partition: int) -> bool:
        """Remove a partition's log (DeleteTopics). Crash-safe: rename to `*-delete`, then remove."""
        with self._lock:
            log = self._logs.pop(TopicPartition(topic, partition), None)
        if log is None:
            return False
        with log.lock:
            target = self.log_dir / f"{log.dir.name}.{uuid.uuid4().hex}{DELETE_DIR_SUFFIX}"
            os.replace(log.dir, target)
            fsync_dir(self.log_dir)
            log.dir = target
            log.delete()
        return True

    # ---------------------------------------------------------------- checkpoints

    def checkpoint_recovery_points(self) -> None:
        with self._lock:
            points = {tp: log.recovery_point for tp, log in self._logs.items()}
            if points != self._last_recovery_points:
                self._recovery_checkpoint.write(points)
                self._last_recovery_points = points

    def checkpoint_log_start_offsets(self) -> None:
        with self._lock:
            starts = {tp: log.log_start_offset for tp, log in self._logs.items()}
            if starts != self._last_start_offsets:
                self._start_checkpoint.write(starts)
                self._last_start_offsets = starts

    def checkpoint_high_watermarks(self, high_watermarks: Mapping[TopicPartition, int] | None = None) -> None:
        """Write `replication-offset-checkpoint` (default: every log's current high watermark)."""
        with self._lock:
            hws = (
                dict(high_watermarks)
                if high_watermarks is not None
                else {tp: log.high_watermark for tp, log in self._logs.items()}
            )
            if hws != self._last_high_watermarks:
                self._hw_checkpoint.write(hws)
                self._last_high_watermarks = hws

    def read_high_watermarks(self) -> dict[TopicPartition, int]:
        return self._read_checkpoint(self._hw_checkpoint)

    # ---------------------------------------------------------------- maintenance

    def run_maintenance(self, now_ms: int | None = None, *, retention: bool = True) -> MaintenanceStats:
        """One pass of background work; the broker calls this periodically (a worker thread is fine).

        Per log: retention (cleanup.policy=delete; only below the high watermark; only when
        ``retention`` — the broker passes its retention schedule, `PeriodicSchedule`), compaction
        (cleanup.policy=compact), expiry of idle producer ids, flush of rolled segments and
        flush.ms, removal of `.deleted` files after file.delete.delay.ms. Then the recovery
        point, log start offset and high watermark checkpoints are written if they changed
        (the replication layer can call `checkpoint_high_watermarks` itself instead).
        """
        now = self.clock() if now_ms is None else now_ms
        stats = MaintenanceStats()
        # An offline dir is only probed (no retention, flush or checkpoint attempts that would
        # fail again every tick); it comes back when a write of the failed size works again.
        if not self.dir_state.probe():
            return stats
        try:
            self._maintain_logs(now, stats, retention)
            self.checkpoint_recovery_points()
            self.checkpoint_log_start_offsets()
            self.checkpoint_high_watermarks()
        except OSError as e:
            self.dir_state.fail("log maintenance (retention, flush, checkpoints)", e)
        except KafkaStorageError:
            pass  # already marked offline (and logged) by the log that failed
        return stats

    def _maintain_logs(self, now: int, stats: MaintenanceStats, retention: bool) -> None:
        logs = list(self.all_logs().values())
        cleaning: set[int] = set()
        if self.cleaner_enabled and self.cleaner_pool is not None:
            # the cleaner threads take the compacted logs first; unthrottled, the pass waits for them,
            # throttled (log.cleaner.io.max.bytes.per.second) they go on apart from it (cleaner_pool.py)
            stats.logs_cleaned += self.cleaner_pool.clean([log for log in logs if log.config.compact_enabled], now)
            cleaning = self.cleaner_pool.in_progress()
        for log in logs:
            cfg = log.config
            if (retention or id(log) in self._retention_deferred) and cfg.delete_enabled:
                if id(log) in cleaning:
                    # never under a cleaning (Kafka's LogCleanerManager): right after it ends
                    self._retention_deferred.add(id(log))
                else:
                    self._retention_deferred.discard(id(log))
                    stats.segments_deleted += log.enforce_retention(now, high_watermark=log.high_watermark)
            if cfg.compact_enabled and self.cleaner_enabled and self.cleaner_pool is None:
                from .cleaner import clean_log

                if clean_log(log, now):
                    stats.logs_cleaned += 1
            with log.lock:
                stats.producers_expired += log.producer_state.remove_expired_producers(
                    now, self.producer_id_expiration_ms
                )
            if log.flush_if_due(now):
                stats.logs_flushed += 1
            stats.files_deleted += log.delete_pending_segments(now)

    # ---------------------------------------------------------------- description

    def describe(self, partitions: Mapping[str, Iterable[int]] | None = None) -> LogDirDescription:
        """This dir for DescribeLogDirs: every log's size (``partitions``: only these topics and
        partitions; None: all). Offset lag is that of a future replica behind its current log;
        this manager keeps no future replicas (no AlterReplicaLogDirs), so every lag is 0."""
        path = str(self.log_dir.absolute())
        total = usable = -1
        try:
            st = os.statvfs(self.log_dir)
            total, usable = st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize
        except OSError:
            pass
        if not self.dir_state.online:
            return LogDirDescription(path, self.dir_state.offline_reason, {}, total, usable)
        wanted = None if partitions is None else {(t, p) for t, ps in partitions.items() for p in ps}
        out: dict[TopicPartition, tuple[int, int, bool]] = {}
        for tp, log in self.all_logs().items():
            if wanted is None or tp in wanted:
                out[tp] = (log.size, 0, False)
        return LogDirDescription(path, None, out, total, usable)
