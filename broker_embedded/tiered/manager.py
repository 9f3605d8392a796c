"""RemoteLogManager (RLM): moves rolled segments to the remote tier, expires them, and serves reads
below the local log start offset (KIP-405).

Threads (none of them the broker's event loop; a slow or dead remote store never delays produce,
local fetches, metadata or topic admin):

- the scheduler (`remote-log-manager`): every tick, finds the tiered partitions this broker
  leads and hands each one that is due to the task pool; after a failure a partition waits
  `remote.log.manager.task.retry.backoff.ms`, doubling per failure up to `...backoff.max.ms`,
  with `...retry.jitter`. One task per partition at a time.
- the task pool (`remote.log.manager.thread.pool.size`): a partition's task first finishes what
  a crash or failure interrupted (COPY_SEGMENT_STARTED leftovers are deleted, DELETE_SEGMENT_STARTED
  completed), then copies the rolled segments below the last stable offset, oldest first, then
  expires remote segments by retention.ms / retention.bytes (over remote plus untiered local
  bytes) and below the log start offset. Topic deletion is finished here too.
- the copy calls run on their own threads so a hung store times out
  (`remote.log.manager.copy.timeout.ms`, a pykafka setting) and the copy is retried later under a
  new segment id.
- the reader pool (`remote.log.reader.threads`, at most `remote.log.reader.max.pending.tasks`
  queued): fetches and timestamp lookups of remote data; the request waits at most
  `remote.fetch.max.wait.ms`, then that partition alone answers KAFKA_STORAGE_ERROR.

Offsets: the Log's own log start offset is the *local* log start offset. The RLM owns the
partition's overall log start offset: the start of the remote segments that reach the local data
without a gap, raised by remote expiry and DeleteRecords (kept in
`remote-log-start-offset-checkpoint`). Local retention (local.retention.*) only deletes segments
at or below the highest offset copied (`Log.highest_offset_in_remote_storage`).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import queue
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from struct import Struct
from typing import Any

from broker_embedded.log.checkpoint import CheckpointError, OffsetCheckpointFile
from kafka_wire.errors import ErrorCode, KafkaError, OffsetOutOfRangeError
from kafka_wire.records import BATCH_HEADER_SIZE, decode_batch, parse_batch_header

from .storage import (
    IndexType,
    LogSegmentData,
    RemoteLogMetadataManager,
    RemoteLogSegmentId,
    RemoteLogSegmentMetadata,
    RemoteLogSegmentMetadataUpdate,
    RemoteLogSegmentState,
    RemotePartitionDeleteMetadata,
    RemotePartitionDeleteState,
    RemoteStorageException,
    RemoteStorageManager,
    TopicIdPartition,
)

log = logging.getLogger(__name__)

REMOTE_LOG_START_OFFSET_CHECKPOINT = "remote-log-start-offset-checkpoint"
REMOTE_STAGING_DIR = "remote-log-staging"
DEFAULT_RSM_DIR = "remote-log-storage"
DEFAULT_RLMM_DIR = "remote-log-metadata"
DEFAULT_RSM_CLASS = "broker_embedded.tiered.local.LocalTieredStorage"
DEFAULT_RLMM_CLASS = "broker_embedded.tiered.local.FileBasedRemoteLogMetadataManager"

_FINISHED = RemoteLogSegmentState.COPY_SEGMENT_FINISHED
_READ_CHUNK = 64 * 1024
_READ_AHEAD_ENTRIES = 16  # remote reads kept ready for the next fetch...
_READ_AHEAD_MAX_BYTES = 4 << 20  # ...each of at most this many bytes: at most 64 MiB held
_OFFSET_ENTRY = Struct(">II")
_TIME_ENTRY = Struct(">qI")


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class RemoteStorageError(KafkaError):
    """A remote read failed or timed out: the partition answers KAFKA_STORAGE_ERROR (retriable)."""

    code = ErrorCode.KAFKA_STORAGE_ERROR


# ====================================================================== configuration


@dataclass(slots=True)
class RemoteLogManagerConfig:
    """Broker configs of tiered storage, with Kafka's names and defaults."""

    task_interval_ms: int = 30000
    retry_backoff_ms: int = 500
    retry_backoff_max_ms: int = 30000
    retry_jitter: float = 0.2
    thread_pool_size: int = 10
    reader_threads: int = 10
    reader_max_pending_tasks: int = 100
    fetch_max_wait_ms: int = 500
    copy_timeout_ms: int = 300000
    copy_max_bytes_per_second: int = 2**63 - 1
    index_cache_total_size_bytes: int = 1 << 30
    rsm_class_name: str = DEFAULT_RSM_CLASS
    rlmm_class_name: str = DEFAULT_RLMM_CLASS
    rsm_configs: dict[str, Any] = field(default_factory=dict)
    rlmm_configs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_configs(cls, get: Callable[[str], Any], all_items: Mapping[str, Any]) -> RemoteLogManagerConfig:
        """`get(name)` reads a defined broker config; `all_items` holds every config given
        (unknown names included), from which the plugins' prefixed settings are taken."""
        rsm_prefix = get("remote.log.storage.manager.impl.prefix") or "rsm.config."
        rlmm_prefix = get("remote.log.metadata.manager.impl.prefix") or "rlmm.config."
        return cls(
            task_interval_ms=int(get("remote.log.manager.task.interval.ms")),
            retry_backoff_ms=int(get("remote.log.manager.task.retry.backoff.ms")),
            retry_backoff_max_ms=int(get("remote.log.manager.task.retry.backoff.max.ms")),
            retry_jitter=float(get("remote.log.manager.task.retry.jitter")),
            thread_pool_size=int(get("remote.log.manager.thread.pool.size")),
            reader_threads=int(get("remote.log.reader.threads")),
            reader_max_pending_tasks=int(get("remote.log.reader.max.pending.tasks")),
            fetch_max_wait_ms=int(get("remote.fetch.max.wait.ms")),
            copy_timeout_ms=int(get("remote.log.manager.copy.timeout.ms")),
            copy_max_bytes_per_second=int(get("remote.log.manager.copy.max.bytes.per.second")),
            index_cache_total_size_bytes=int(get("remote.log.index.file.cache.total.size.bytes")),
            rsm_class_name=get("remote.log.storage.manager.class.name") or DEFAULT_RSM_CLASS,
            rlmm_class_name=get("remote.log.metadata.manager.class.name") or DEFAULT_RLMM_CLASS,
            rsm_configs={k[len(rsm_prefix) :]: v for k, v in all_items.items() if k.startswith(rsm_prefix)},
            rlmm_configs={k[len(rlmm_prefix) :]: v for k, v in all_items.items() if k.startswith(rlmm_prefix)},
        )


def load_plugin(class_name: str, base: type) -> Any:
    """Instantiate `package.module.ClassName` (no arguments) and check it implements `base`."""
    module_name, _, attr = class_name.rpartition(".")
    if not module_name:
        raise ValueError(f"{class_name!r} is not a class path (package.module.ClassName)")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"cannot load {class_name!r}: {e}") from e
    instance = cls()
    if not isinstance(instance, base):
        raise ValueError(f"{class_name} is not a {base.__name__}")
    return instance


# ====================================================================== thread pool


class _DaemonPool:
    """A fixed pool of daemon threads: a remote call that never returns cannot hold up shutdown."""

    def __init__(self, size: int, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]] | None] = (
            queue.SimpleQueue()
        )
        self._threads = [
            threading.Thread(target=self._work, name=f"{name}-{i}", daemon=True) for i in range(max(1, size))
        ]
        self._lock = threading.Lock()
        self.pending = 0  # submitted and not finished (queued or running)
        for t in self._threads:
            t.start()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        fut: Future[Any] = Future()
        with self._lock:
            self.pending += 1
        self._queue.put((fut, fn, args))
        return fut

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            fut, fn, args = item
            try:
                if fut.set_running_or_notify_cancel():
                    try:
                        fut.set_result(fn(*args))
                    except BaseException as e:  # handed to the waiter
                        fut.set_exception(e)
            finally:
                with self._lock:
                    self.pending -= 1

    def shutdown(self) -> None:
        for _ in self._threads:
            self._queue.put(None)


# ====================================================================== remote index cache


@dataclass(slots=True)
class _CachedIndexes:
    base_offset: int
    offsets: list[int]  # absolute last offsets of indexed batches
    positions: list[int]
    timestamps: list[int]
    time_offsets: list[int]
    size: int

    def position_for(self, offset: int) -> int:
        """Position of the last indexed batch whose offset is <= `offset` (0 if none)."""
        from bisect import bisect_right

        i = bisect_right(self.offsets, offset) - 1
        return self.positions[i] if i >= 0 else 0

    def offset_before_timestamp(self, timestamp: int) -> int:
        """Offset of the last time index entry strictly below `timestamp` (the base if none)."""
        from bisect import bisect_left

        i = bisect_left(self.timestamps, timestamp) - 1
        return self.time_offsets[i] if i >= 0 else self.base_offset


class RemoteIndexCache:
    """A bounded LRU of remote segments' offset and time indexes, parsed, keyed by segment id."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._entries: OrderedDict[Any, _CachedIndexes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, rsm: RemoteStorageManager, md: RemoteLogSegmentMetadata) -> _CachedIndexes:
        key = md.remote_log_segment_id.id
        with self._lock:
            hit = self._entries.get(key)
            if hit is not None:
                self._entries.move_to_end(key)
                return hit
        off_data = rsm.fetch_index(md, IndexType.OFFSET).read()
        time_data = rsm.fetch_index(md, IndexType.TIMESTAMP).read()
        base = md.start_offset
        offsets: list[int] = []
        positions: list[int] = []
        for i in range(len(off_data) // _OFFSET_ENTRY.size):
            rel, pos = _OFFSET_ENTRY.unpack_from(off_data, i * _OFFSET_ENTRY.size)
            if offsets and base + rel <= offsets[-1]:
                break  # unused (zeroed) tail of a preallocated index
            offsets.append(base + rel)
            positions.append(pos)
        timestamps: list[int] = []
        time_offsets: list[int] = []
        for i in range(len(time_data) // _TIME_ENTRY.size):
            ts, rel = _TIME_ENTRY.unpack_from(time_data, i * _TIME_ENTRY.size)
            if timestamps and ts < timestamps[-1]:
                break
            timestamps.append(ts)
            time_offsets.append(base + rel)
        entry = _CachedIndexes(base, offsets, positions, timestamps, time_offsets, len(off_data) + len(time_data))
        with self._lock:
            if key not in self._entries:
                self._entries[key] = entry
                self._bytes += entry.size
                while self._bytes > self.max_bytes and len(self._entries) > 1:
                    _, old = self._entries.popitem(last=False)
                    self._bytes -= old.size
        return entry

    def remove(self, segment_id: Any) -> None:
        with self._lock:
            old = self._entries.pop(segment_id, None)
            if old is not None:
                self._bytes -= old.size


# ====================================================================== per-partition state


@dataclass
class RemoteFetchInfo:
    """A planned remote read of one fetch partition (whole batches from the one holding the offset)."""

    partition: Any
    tip: TopicIdPartition
    fetch_offset: int
    max_bytes: int
    min_one_batch: bool


@dataclass
class _PartitionState:
    tip: TopicIdPartition
    partition: Any
    next_run_ms: int = 0  # a newly seen partition runs at once
    running: bool = False
    failures: int = 0
    highest_copied: int = -1
    remote_start: int | None = None  # start of the remote range that reaches the local data
    start_floor: int = 0  # log start offset raised by expiry / DeleteRecords
    finished: list[RemoteLogSegmentMetadata] = field(default_factory=list)  # COPY_SEGMENT_FINISHED, by start
    deleted: bool = False
    last_error: str | None = None
    copies: int = 0
    deletes: int = 0


def topic_id_partition(p: Any) -> TopicIdPartition:
    return TopicIdPartition(p.topic_id, p.topic, p.index)


# ====================================================================== the manager


class RemoteLogManager:
    """Tiered storage of one broker. `partitions()` lists the broker's partitions (objects with
    `topic`, `index`, `topic_id`, `log`, `high_watermark`, `last_stable_offset`, `deleted` and
    optionally `is_leader`)."""

    def __init__(
        self,
        config: RemoteLogManagerConfig,
        log_dir: Path,
        broker_id: int,
        partitions: Callable[[], Iterable[Any]],
        *,
        rsm: RemoteStorageManager | None = None,
        rlmm: RemoteLogMetadataManager | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        self.config = config
        self.log_dir = Path(log_dir)
        self.broker_id = broker_id
        self._partitions = partitions
        self.clock = clock or _wall_clock_ms
        if rsm is None:
            rsm = load_plugin(config.rsm_class_name, RemoteStorageManager)
            rsm.configure({"dir": str(self.log_dir / DEFAULT_RSM_DIR), **config.rsm_configs})
        if rlmm is None:
            rlmm = load_plugin(config.rlmm_class_name, RemoteLogMetadataManager)
            rlmm.configure(
                {
                    "dir": str(self.log_dir / DEFAULT_RLMM_DIR),
                    "log.dir": str(self.log_dir),
                    "broker.id": broker_id,
                    **config.rlmm_configs,
                }
            )
        self.rsm: RemoteStorageManager = rsm
        self.rlmm: RemoteLogMetadataManager = rlmm
        self.index_cache = RemoteIndexCache(config.index_cache_total_size_bytes)
        self._staging = self.log_dir / REMOTE_STAGING_DIR
        self._staging.mkdir(parents=True, exist_ok=True)
        for leftover in self._staging.iterdir():
            leftover.unlink(missing_ok=True)
        self._states: dict[TopicIdPartition, _PartitionState] = {}
        self._states_lock = threading.RLock()
        self._removals: dict[TopicIdPartition, tuple[bool, int, int]] = {}  # tip -> (running, next run, failures)
        self._start_checkpoint = OffsetCheckpointFile(self.log_dir / REMOTE_LOG_START_OFFSET_CHECKPOINT)
        self._checkpoint_lock = threading.Lock()
        try:
            self._floors: dict[tuple[str, int], int] = self._start_checkpoint.read()
        except CheckpointError:
            self._floors = {}
        self._task_pool = _DaemonPool(config.thread_pool_size, "remote-log-task")
        self._copy_pool = _DaemonPool(config.thread_pool_size, "remote-log-copy")
        self._reader_pool = _DaemonPool(config.reader_threads, "remote-log-reader")
        self._read_ahead: dict[tuple[TopicIdPartition, int, int, bool], Future[Any]] = {}  # loop thread only
        self._stop = threading.Event()
        self._scheduler: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        self._scheduler = threading.Thread(target=self._run_scheduler, name="remote-log-manager", daemon=True)
        self._scheduler.start()

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop scheduling, give running tasks `timeout` seconds, close the plugins."""
        self._stop.set()
        if self._scheduler is not None:
            self._scheduler.join(timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (self._task_pool.pending or self._copy_pool.pending):
            time.sleep(0.01)
        for pool in (self._task_pool, self._copy_pool, self._reader_pool):
            pool.shutdown()
        for plugin in (self.rsm, self.rlmm):
            try:
                plugin.close()
            except Exception:
                log.exception("closing %s failed", type(plugin).__name__)

    # ------------------------------------------------------------------ partitions
    @staticmethod
    def is_tiered(p: Any) -> bool:
        return bool(getattr(p.log.config, "remote_storage_enable", False))

    def _floor_key(self, tip: TopicIdPartition) -> tuple[str, int]:
        return (tip.topic_id.hex(), tip.partition)

    def _state_for(self, p: Any) -> _PartitionState:
        tip = topic_id_partition(p)
        with self._states_lock:
            st = self._states.get(tip)
            if st is None:
                st = _PartitionState(tip, p, start_floor=self._floors.get(self._floor_key(tip), 0))
                self._refresh(st)
                self._states[tip] = st
            elif st.partition is not p:
                st.partition = p
            return st

    def _refresh(self, st: _PartitionState) -> None:
        """Recompute the cached view of the remote tier from the metadata manager."""
        p = st.partition
        segs = self.rlmm.list_remote_log_segments(st.tip)
        finished = [m for m in segs if m.state is _FINISHED]
        st.finished = finished
        st.highest_copied = self._highest_copied(st.tip, p, finished)
        # The remote range without a gap below the highest copied offset (independent of where the
        # local log starts right now: local retention moves that concurrently).
        cover = st.highest_copied + 1
        for md in sorted(finished, key=lambda m: m.start_offset, reverse=True):
            if md.start_offset < cover <= md.end_offset + 1:
                cover = md.start_offset
        st.remote_start = cover if cover <= st.highest_copied else None
        p.log.highest_offset_in_remote_storage = st.highest_copied

    def _highest_copied(self, tip: TopicIdPartition, p: Any, finished: list[RemoteLogSegmentMetadata]) -> int:
        """Where copying resumes: walk the leader epochs newest first and ask the RLMM for the
        highest offset copied in each (KIP-405's follower-to-leader rule)."""
        with p.log.lock:
            epochs = [e for e, _ in p.log.leader_epoch_cache.entries]
        seen = set(epochs)
        for md in finished:
            for e, _ in md.segment_leader_epochs:
                if e not in seen:
                    seen.add(e)
                    epochs.append(e)
        for epoch in sorted(set(epochs), reverse=True):
            found = self.rlmm.highest_offset_for_epoch(tip, epoch)
            if found is not None:
                return found
        return max((m.end_offset for m in finished), default=-1)

    def log_start_offset(self, p: Any) -> int:
        """The partition's overall log start offset (remote data included)."""
        st = self._state_for(p)
        local = p.log.log_start_offset
        if st.remote_start is not None and st.highest_copied + 1 >= local:
            start = min(st.remote_start, local)  # the remote range reaches the local data
        else:
            start = local
        return max(start, st.start_floor)

    def highest_offset_in_remote_storage(self, p: Any) -> int:
        return self._state_for(p).highest_copied

    # ------------------------------------------------------------------ scheduler
    def _run_scheduler(self) -> None:
        tick = max(0.01, min(0.1, self.config.task_interval_ms / 1000))
        while not self._stop.wait(tick):
            try:
                self.schedule_once()
            except Exception:
                log.exception("remote log manager scheduling failed")

    def _backoff_ms(self, failures: int) -> int:
        c = self.config
        delay = min(c.retry_backoff_ms * 2 ** max(0, failures - 1), c.retry_backoff_max_ms)
        return int(delay * random.uniform(1 - c.retry_jitter, 1 + c.retry_jitter))

    def _current_partitions(self) -> list[Any]:
        for _ in range(5):
            try:
                return list(self._partitions())
            except RuntimeError:  # the dict changed size while copied: try again
                continue
        return []

    def schedule_once(self) -> None:
        """One scheduling pass (the scheduler thread calls this every tick)."""
        now = self.clock()
        seen: set[TopicIdPartition] = set()
        for p in self._current_partitions():
            if getattr(p, "deleted", False):
                continue
            tip = topic_id_partition(p)
            if not self.is_tiered(p):
                with self._states_lock:
                    st = self._states.get(tip)
                if st is not None and not st.running:
                    # tiering switched off (remote.log.delete.on.disable=true): remove the remote data
                    st.running = True
                    self._task_pool.submit(self._disable_task, st)
                continue
            seen.add(tip)
            st = self._state_for(p)
            if not getattr(p, "is_leader", True):
                continue  # followers never copy or expire (the leader does)
            if not st.running and now >= st.next_run_ms:
                st.running = True
                self._task_pool.submit(self._partition_task, st)
        with self._states_lock:
            for tip, st in list(self._states.items()):
                if tip not in seen and not st.running and (st.deleted or st.partition.deleted):
                    del self._states[tip]
        for pdm in self.rlmm.partitions_pending_deletion():
            tip = pdm.topic_id_partition
            with self._states_lock:
                st = self._states.get(tip)
                if st is not None and st.running:
                    continue  # let the partition's own task finish first
                running, next_run, failures = self._removals.get(tip, (False, 0, 0))
                if running or now < next_run:
                    continue
                self._removals[tip] = (True, next_run, failures)
            self._task_pool.submit(self._removal_task, tip)

    # ------------------------------------------------------------------ partition task
    def _partition_task(self, st: _PartitionState) -> None:
        try:
            p = st.partition
            self._finish_interrupted(st.tip)
            if not p.log.config.remote_log_copy_disable:
                self._copy_segments(st, p)
            self._expire_segments(st, p)
            st.failures = 0
            st.last_error = None
            st.next_run_ms = self.clock() + self.config.task_interval_ms
        except Exception as e:
            st.failures += 1
            st.last_error = f"{type(e).__name__}: {e}"
            st.next_run_ms = self.clock() + self._backoff_ms(st.failures)
            log.warning("remote log task of %s failed (attempt %d): %s", st.tip, st.failures, st.last_error)
        finally:
            try:
                self._refresh(st)
            except Exception:
                log.exception("refreshing the remote state of %s failed", st.tip)
            st.running = False

    def _disable_task(self, st: _PartitionState) -> None:
        try:
            for md in list(self.rlmm.list_remote_log_segments(st.tip)):
                self._delete_segment(md)
            with self._states_lock:
                self._states.pop(st.tip, None)
            self._set_floor(st.tip, 0)
            st.partition.log.highest_offset_in_remote_storage = -1
        except Exception as e:
            st.failures += 1
            st.last_error = f"{type(e).__name__}: {e}"
            log.warning("deleting the remote data of %s failed: %s", st.tip, st.last_error)
        finally:
            st.running = False

    def _finish_interrupted(self, tip: TopicIdPartition) -> None:
        """Tasks of one partition never overlap, so a STARTED state seen here was left by a crash,
        a failed copy or a timed-out one: delete its data (never served) and finish deletions."""
        for md in list(self.rlmm.list_remote_log_segments(tip)):
            if md.state in (RemoteLogSegmentState.COPY_SEGMENT_STARTED, RemoteLogSegmentState.DELETE_SEGMENT_STARTED):
                self._delete_segment(md)

    def _delete_segment(self, md: RemoteLogSegmentMetadata) -> None:
        """DELETE_SEGMENT_STARTED -> RSM delete -> DELETE_SEGMENT_FINISHED (each step idempotent)."""
        sid = md.remote_log_segment_id
        if md.state is RemoteLogSegmentState.DELETE_SEGMENT_FINISHED:
            return
        if md.state is not RemoteLogSegmentState.DELETE_SEGMENT_STARTED:
            self.rlmm.update_remote_log_segment_metadata(
                RemoteLogSegmentMetadataUpdate(
                    sid, self.clock(), RemoteLogSegmentState.DELETE_SEGMENT_STARTED, self.broker_id
                )
            )
        self.index_cache.remove(sid.id)
        self.rsm.delete_log_segment_data(md)
        self.rlmm.update_remote_log_segment_metadata(
            RemoteLogSegmentMetadataUpdate(
                sid, self.clock(), RemoteLogSegmentState.DELETE_SEGMENT_FINISHED, self.broker_id
            )
        )

    # ------------------------------------------------------------------ copy
    def _copy_segments(self, st: _PartitionState, p: Any) -> None:
        """Copy rolled segments below the last stable offset, oldest first, one at a time."""
        log_ = p.log
        while not self._stop.is_set():
            upper = min(p.last_stable_offset, p.high_watermark)
            staged = self._stage_next_segment(st, log_, upper)
            if staged is None:
                return
            md, data, snapshot_tmp = staged
            started = time.monotonic()
            try:
                self.rlmm.add_remote_log_segment_metadata(md)
                custom = self._copy_with_timeout(md, data)
                self.rlmm.update_remote_log_segment_metadata(
                    RemoteLogSegmentMetadataUpdate(
                        md.remote_log_segment_id, self.clock(), _FINISHED, self.broker_id, custom
                    )
                )
            except Exception:
                self._abandon_copy(md)
                raise
            finally:
                snapshot_tmp.unlink(missing_ok=True)
            st.copies += 1
            self._refresh(st)  # local retention may now delete the segment: the remote range covers it
            self._throttle(md.segment_size_in_bytes, time.monotonic() - started)

    def _stage_next_segment(
        self, st: _PartitionState, log_: Any, upper: int
    ) -> tuple[RemoteLogSegmentMetadata, LogSegmentData, Path] | None:
        """Under the log lock: the oldest rolled segment not yet copied whose records are all
        below `upper`, with its epochs, leader-epoch checkpoint and producer snapshot."""
        with log_.lock:
            segments = log_.segments
            seg = None
            for s in segments[:-1]:  # never the active segment
                end = s.next_offset - 1
                if end <= st.highest_copied or s.size == 0:
                    continue
                if s.next_offset > upper:
                    return None
                seg = s
                break
            if seg is None:
                return None
            base, end = seg.base_offset, seg.next_offset - 1
            # the indexes of a rolled segment were written on roll; make sure they are complete
            seg.offset_index.flush()
            seg.time_index.flush()
            entries = list(log_.leader_epoch_cache.entries)
            seg_epochs: list[tuple[int, int]] = []
            for i, (e, s_off) in enumerate(entries):
                nxt = entries[i + 1][1] if i + 1 < len(entries) else None
                if s_off > end or (nxt is not None and nxt <= base):
                    continue
                seg_epochs.append((e, max(s_off, base)))
            if not seg_epochs:
                seg_epochs = [(max(log_.leader_epoch_cache.latest_epoch, 0), base)]
            # the epoch history up to this segment's end, including the part only the remote tier
            # holds (the local cache starts at the local log start offset)
            first: dict[int, int] = {}
            for md_ in st.finished:
                for e, o in md_.segment_leader_epochs:
                    first[e] = min(o, first.get(e, o))
            for e, o in entries:
                first[e] = min(o, first.get(e, o))
            lineage = [(e, o) for e, o in sorted(first.items()) if o <= end]
            checkpoint = (f"0\n{len(lineage)}\n" + "".join(f"{e} {o}\n" for e, o in lineage)).encode()
            snapshot = self._producer_snapshot_bytes(log_, end + 1)
            md = RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generate_new(st.tip),
                start_offset=base,
                end_offset=end,
                max_timestamp_ms=seg.max_timestamp,
                broker_id=self.broker_id,
                event_timestamp_ms=self.clock(),
                segment_size_in_bytes=seg.size,
                segment_leader_epochs=tuple(seg_epochs),
            )
            data_paths = (seg.log_path, seg.offset_index.path, seg.time_index.path)
        snapshot_tmp = self._staging / f"{md.remote_log_segment_id.id}.snapshot"
        snapshot_tmp.write_bytes(snapshot)
        data = LogSegmentData(
            log_segment=data_paths[0],
            offset_index=data_paths[1],
            time_index=data_paths[2],
            transaction_index=None,  # transactions keep no index in this broker yet
            producer_snapshot_index=snapshot_tmp,
            leader_epoch_index=checkpoint,
        )
        return md, data, snapshot_tmp

    @staticmethod
    def _producer_snapshot_bytes(log_: Any, offset: int) -> bytes:
        """The producer snapshot as of `offset` (taken at the roll), else the newest one below it
        (older snapshots are pruned after a few rolls); empty when there is none."""
        ps = log_.producer_state
        candidates = [o for o in ps.snapshot_offsets() if o <= offset]
        for o in reversed(candidates):
            try:
                return ps._snapshot_path(o).read_bytes()
            except FileNotFoundError:
                continue
        return b""

    def _copy_with_timeout(self, md: RemoteLogSegmentMetadata, data: LogSegmentData) -> bytes | None:
        fut = self._copy_pool.submit(self.rsm.copy_log_segment_data, md, data)
        try:
            return fut.result(timeout=self.config.copy_timeout_ms / 1000)
        except FutureTimeout:
            if not fut.cancel():
                # the call is still running: whatever it writes when it ends is an orphan (its
                # metadata is deleted below), so delete its data again then
                fut.add_done_callback(lambda _f: self._delete_orphan(md))
            raise RemoteStorageException(
                f"copying {md.remote_log_segment_id} timed out after {self.config.copy_timeout_ms} ms"
            ) from None

    def _delete_orphan(self, md: RemoteLogSegmentMetadata) -> None:
        try:
            self.rsm.delete_log_segment_data(md)
        except Exception as e:
            log.warning("deleting the data of the timed-out copy %s failed: %s", md.remote_log_segment_id, e)

    def _abandon_copy(self, md: RemoteLogSegmentMetadata) -> None:
        """A failed copy: delete what it may have written and mark it deleted (best effort; the
        next task does it otherwise)."""
        try:
            self._delete_segment(md)
        except Exception as e:
            log.info("cleaning up the failed copy %s is left to the next task: %s", md.remote_log_segment_id, e)

    def _throttle(self, size: int, elapsed: float) -> None:
        rate = self.config.copy_max_bytes_per_second
        if 0 < rate < 2**62:
            wait = size / rate - elapsed
            if wait > 0:
                self._stop.wait(wait)

    # ------------------------------------------------------------------ expiry
    def _expire_segments(self, st: _PartitionState, p: Any) -> None:
        """Total retention over remote + local, and everything below the log start offset."""
        log_ = p.log
        cfg = log_.config
        finished = sorted(
            (m for m in self.rlmm.list_remote_log_segments(st.tip) if m.state is _FINISHED),
            key=lambda m: m.start_offset,
        )
        if not finished:
            return
        now = self.clock()
        st.finished = finished
        log_start = self.log_start_offset(p)
        excess = -1
        if cfg.delete_enabled and cfg.retention_bytes >= 0:
            with log_.lock:
                untiered = sum(s.size for s in log_.segments if s.base_offset > st.highest_copied)
            excess = sum(m.segment_size_in_bytes for m in finished) + untiered - cfg.retention_bytes
        expired: list[RemoteLogSegmentMetadata] = []
        for md in finished:
            below_start = md.end_offset < log_start
            ts = md.max_timestamp_ms if md.max_timestamp_ms >= 0 else md.event_timestamp_ms
            by_time = cfg.delete_enabled and cfg.retention_ms >= 0 and now - ts > cfg.retention_ms
            by_size = excess >= 0 and excess - md.segment_size_in_bytes >= 0
            if not (below_start or by_time or by_size):
                break  # oldest first: stop at the first segment retention keeps
            expired.append(md)
            if excess >= 0:
                excess -= md.segment_size_in_bytes
        for md in expired:
            # The log start offset moves first: no fetch plans a read of a segment about to go.
            self._raise_floor(st, p, md.end_offset + 1)
            self._delete_segment(md)
            st.deletes += 1
            st.finished = [m for m in st.finished if m.remote_log_segment_id != md.remote_log_segment_id]

    def _raise_floor(self, st: _PartitionState, p: Any, offset: int) -> None:
        if offset <= st.start_floor:
            return
        st.start_floor = offset
        self._set_floor(st.tip, offset)
        log_ = p.log
        if offset > log_.log_start_offset:
            # local data below the new log start offset goes too (Kafka's logStartOffset semantics)
            log_.delete_records_before(min(offset, p.high_watermark), high_watermark=p.high_watermark)

    def _set_floor(self, tip: TopicIdPartition, offset: int) -> None:
        with self._checkpoint_lock:
            key = self._floor_key(tip)
            if offset <= 0:
                self._floors.pop(key, None)
            else:
                self._floors[key] = offset
            self._start_checkpoint.write(dict(self._floors))

    # ------------------------------------------------------------------ DeleteRecords
    def delete_records(self, p: Any, offset: int) -> int:
        """DeleteRecords on a tiered partition: raise the log start offset (possibly into the remote
        range); the partition's next task deletes the remote segments below it."""
        st = self._state_for(p)
        if offset > self.log_start_offset(p):
            st.start_floor = max(st.start_floor, offset)
            self._set_floor(st.tip, st.start_floor)
            if offset > p.log.log_start_offset:
                p.log.delete_records_before(offset, high_watermark=p.high_watermark)
            st.next_run_ms = 0
        return self.log_start_offset(p)

    # ------------------------------------------------------------------ topic deletion
    def on_partitions_deleted(self, topic_id: bytes, topic: str, partitions: Iterable[int]) -> None:
        """DeleteTopics: mark the partitions for deletion (durably); their remote data is removed
        asynchronously by the task pool, also after a restart."""
        for index in partitions:
            tip = TopicIdPartition(topic_id, topic, index)
            with self._states_lock:
                st = self._states.get(tip)
                if st is not None:
                    st.deleted = True
            if st is None and next(iter(self.rlmm.list_remote_log_segments(tip)), None) is None:
                continue  # never tiered
            self.rlmm.put_remote_partition_delete_metadata(
                RemotePartitionDeleteMetadata(
                    tip, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, self.clock(), self.broker_id
                )
            )
            self._set_floor(tip, 0)

    def _removal_task(self, tip: TopicIdPartition) -> None:
        try:
            self.rlmm.put_remote_partition_delete_metadata(
                RemotePartitionDeleteMetadata(
                    tip, RemotePartitionDeleteState.DELETE_PARTITION_STARTED, self.clock(), self.broker_id
                )
            )
            for md in list(self.rlmm.list_remote_log_segments(tip)):
                self._delete_segment(md)
            self.rlmm.put_remote_partition_delete_metadata(
                RemotePartitionDeleteMetadata(
                    tip, RemotePartitionDeleteState.DELETE_PARTITION_FINISHED, self.clock(), self.broker_id
                )
            )
            with self._states_lock:
                self._removals.pop(tip, None)
                self._states.pop(tip, None)
        except Exception as e:
            log.warning("removing the remote data of deleted partition %s failed: %s", tip, e)
            with self._states_lock:
                _, _, failures = self._removals.get(tip, (False, 0, 0))
                self._removals[tip] = (False, self.clock() + self._backoff_ms(failures + 1), failures + 1)

    # ------------------------------------------------------------------ reads
    def plan_read(self, p: Any, fetch_offset: int, max_bytes: int, min_one_batch: bool) -> RemoteFetchInfo | None:
        """On the request path (cheap, in memory): None to read locally, a plan for the reader
        pool, or OffsetOutOfRangeError below the log start offset."""
        start = self.log_start_offset(p)
        if fetch_offset < start:
            raise OffsetOutOfRangeError(
                f"offset {fetch_offset} is below the log start offset {start} of {p.topic}-{p.index}"
            )
        if fetch_offset >= p.log.log_start_offset:
            return None
        return RemoteFetchInfo(p, topic_id_partition(p), fetch_offset, max_bytes, min_one_batch)

    def _find_segment(self, p: Any, tip: TopicIdPartition, offset: int) -> RemoteLogSegmentMetadata | None:
        """offset -> leader epoch (through the epoch cache) -> (epoch, offset) -> remote segment."""
        with p.log.lock:
            epoch = p.log.leader_epoch_cache.epoch_for_offset(offset)
        if epoch is not None:
            md = self.rlmm.remote_log_segment_metadata(tip, epoch, offset)
            if md is not None:
                return md
        # Below the local epoch cache (its start moved with the local log start): use the epochs
        # the segments recorded; of overlapping copies the latest start wins.
        best = None
        for md in self.rlmm.list_remote_log_segments(tip):
            if md.state is _FINISHED and md.start_offset <= offset <= md.end_offset:
                if best is None or md.start_offset >= best.start_offset:
                    best = md
        return best

    def _iter_batches(self, md: RemoteLogSegmentMetadata, position: int) -> Iterator[tuple[int, bytes]]:
        """(position, whole batch bytes) of the remote segment from `position`, read in chunks."""
        size = md.segment_size_in_bytes
        buf = bytearray()
        buf_start = position
        pos = position

        def fill(until: int) -> bool:
            nonlocal buf_start
            if buf_start + len(buf) >= until:
                return True
            del buf[: pos - buf_start]  # drop what was consumed before reading more
            buf_start = pos
            while buf_start + len(buf) < until:
                first = buf_start + len(buf)
                data = self.rsm.fetch_log_segment(md, first, min(size, max(until, first + _READ_CHUNK)) - 1).read()
                if not data:
                    return False
                buf.extend(data)
            return True

        while pos + BATCH_HEADER_SIZE <= size:
            if not fill(pos + BATCH_HEADER_SIZE):
                return
            h = parse_batch_header(buf, pos - buf_start)
            end = pos + h.size
            if end > size or not fill(end):
                return
            yield pos, bytes(buf[pos - buf_start : end - buf_start])
            pos = end

    def read_remote(self, info: RemoteFetchInfo) -> bytes:
        """In a reader thread: whole batches from the one holding the fetch offset, at most
        max_bytes (but the first batch whole with min_one_batch), from one remote segment."""
        md = self._find_segment(info.partition, info.tip, info.fetch_offset)
        if md is None:
            raise OffsetOutOfRangeError(f"offset {info.fetch_offset} of {info.tip} is in no remote segment")
        position = self.index_cache.get(self.rsm, md).position_for(info.fetch_offset)
        # Common case: one ranged read covers the index gap and max_bytes of whole batches.
        end_position = min(md.segment_size_in_bytes, position + info.max_bytes + 2 * _READ_CHUNK)
        buf = self.rsm.fetch_log_segment(md, position, end_position - 1).read()
        start = stop = -1
        p = 0
        while p + BATCH_HEADER_SIZE <= len(buf):
            h = parse_batch_header(buf, p)
            if p + h.size > len(buf):
                break
            if start < 0:
                if h.last_offset >= info.fetch_offset:
                    start = p
                else:
                    p += h.size
                    continue
            if p + h.size - start > info.max_bytes and not (p == start and info.min_one_batch):
                break
            p += h.size
            stop = p
        if stop > start >= 0:
            return bytes(memoryview(buf)[start:stop])
        # A first batch larger than that read (or a sparse index): walk the segment in chunks.
        out = bytearray()
        for _, batch in self._iter_batches(md, position):
            h = parse_batch_header(batch, 0)
            if h.last_offset < info.fetch_offset:
                continue
            if len(out) + len(batch) > info.max_bytes and not (not out and info.min_one_batch):
                break
            out += batch
        return bytes(out)

    def find_offset_by_timestamp(self, p: Any, timestamp: int) -> tuple[int, int, int] | None:
        """In a reader thread: (offset, timestamp, leader epoch) of the first remote record with a
        timestamp >= `timestamp` at or after the log start offset, None if the remote tier has none."""
        tip = topic_id_partition(p)
        start = self.log_start_offset(p)
        local_start = p.log.log_start_offset
        finished = sorted(
            (m for m in self.rlmm.list_remote_log_segments(tip) if m.state is _FINISHED),
            key=lambda m: m.start_offset,
        )
        for md in finished:
            if md.end_offset < start or md.start_offset >= local_start or md.max_timestamp_ms < timestamp:
                continue
            idx = self.index_cache.get(self.rsm, md)
            from_offset = max(idx.offset_before_timestamp(timestamp), start)
            for _, batch in self._iter_batches(md, idx.position_for(from_offset)):
                h = parse_batch_header(batch, 0)
                if h.last_offset < start or h.max_timestamp < timestamp:
                    continue
                _, records = decode_batch(batch, 0, verify_crc=False)
                for r in records:
                    if r.timestamp >= timestamp and r.offset >= start:
                        return r.offset, r.timestamp, md.epoch_for_offset(r.offset) or h.partition_leader_epoch
        return None

    def needs_remote_timestamp_lookup(self, p: Any, timestamp: int) -> bool:
        """On the request path (cached state only): may the first record at `timestamp` be remote?"""
        if timestamp < 0 or not self.is_tiered(p):
            return False
        st = self._state_for(p)
        local_start = p.log.log_start_offset
        start = self.log_start_offset(p)
        return any(
            m.start_offset < local_start and m.end_offset >= start and m.max_timestamp_ms >= timestamp
            for m in st.finished
        )

    def _submit_read(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        if self._reader_pool.pending >= self.config.reader_max_pending_tasks:
            raise RemoteStorageError(
                f"the remote log reader queue is full ({self.config.reader_max_pending_tasks} pending tasks)"
            )
        return self._reader_pool.submit(fn, *args)

    async def _await_read(self, fut: Future[Any]) -> Any:
        """Wait for a reader-pool task at most remote.fetch.max.wait.ms."""
        try:
            return await asyncio.wait_for(asyncio.wrap_future(fut), self.config.fetch_max_wait_ms / 1000)
        except TimeoutError:
            raise RemoteStorageError(
                f"the remote read did not finish within remote.fetch.max.wait.ms={self.config.fetch_max_wait_ms}"
            ) from None
        except KafkaError:
            raise
        except RemoteStorageException as e:
            raise RemoteStorageError(f"remote storage: {e}") from e

    async def _in_reader_pool(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await self._await_read(self._submit_read(fn, *args))

    async def read_remote_fetches(self, pending: list[tuple[Any, RemoteFetchInfo]]) -> None:
        """Fill each placeholder PartitionData with its remote records, or an error of its own.

        On the loop thread. A consumer reading the remote tier asks for the next offsets right
        after, so each read also starts the next one (read-ahead, a few entries): the following
        fetch then finds its data ready instead of waiting for a reader thread.
        """

        async def one(pd: Any, info: RemoteFetchInfo) -> None:
            try:
                key = (info.tip, info.fetch_offset, info.max_bytes, info.min_one_batch)
                fut = self._read_ahead.pop(key, None)
                if fut is None or fut.cancelled() or (fut.done() and fut.exception() is not None):
                    fut = self._submit_read(self.read_remote, info)
                data = await self._await_read(fut)
                pd.records = data
                self._start_read_ahead(info, data)
            except KafkaError as e:
                pd.error_code = e.code
                pd.records = b""
            except Exception as e:
                log.warning("remote read of %s at %d failed: %s", info.tip, info.fetch_offset, e)
                pd.error_code = ErrorCode.KAFKA_STORAGE_ERROR
                pd.records = b""

        await asyncio.gather(*(one(pd, info) for pd, info in pending))

    def _start_read_ahead(self, info: RemoteFetchInfo, data: bytes) -> None:
        if (
            not data
            or info.max_bytes > _READ_AHEAD_MAX_BYTES
            or self._reader_pool.pending >= self.config.reader_max_pending_tasks // 2
        ):
            return
        pos = 0
        next_offset = -1
        while pos + BATCH_HEADER_SIZE <= len(data):
            h = parse_batch_header(data, pos)
            next_offset = h.next_offset
            pos += h.size
        if next_offset < 0 or next_offset >= info.partition.log.log_start_offset:
            return  # the rest is local
        key = (info.tip, next_offset, info.max_bytes, info.min_one_batch)
        if key in self._read_ahead:
            return
        while len(self._read_ahead) >= _READ_AHEAD_ENTRIES:
            self._read_ahead.pop(next(iter(self._read_ahead)))
        nxt = RemoteFetchInfo(info.partition, info.tip, next_offset, info.max_bytes, info.min_one_batch)
        self._read_ahead[key] = self._reader_pool.submit(self.read_remote, nxt)

    async def offset_for_timestamp_async(self, p: Any, timestamp: int) -> tuple[int, int, int] | None:
        return await self._in_reader_pool(self.find_offset_by_timestamp, p, timestamp)

    # ------------------------------------------------------------------ introspection
    def partition_status(self, p: Any) -> dict[str, Any]:
        """Counters and offsets of one partition (tests, debugging)."""
        st = self._state_for(p)
        return {
            "highest_copied": st.highest_copied,
            "log_start_offset": self.log_start_offset(p),
            "local_log_start_offset": p.log.log_start_offset,
            "remote_segments": len(st.finished),
            "copies": st.copies,
            "deletes": st.deletes,
            "failures": st.failures,
            "last_error": st.last_error,
        }
