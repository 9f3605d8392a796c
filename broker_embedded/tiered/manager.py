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
  queued; `reader.py`): fetches and timestamp lookups of remote data; the request waits at most
  `remote.fetch.max.wait.ms`, then that partition alone answers KAFKA_STORAGE_ERROR.

Beside this module: `config.py` (the broker configs), `plugins.py` (loading the RSM and RLMM),
`thread_pool.py`, `index_cache.py` (remote indexes, parsed by the local log's index classes),
`reader.py` (the read path), `partitions.py` (what the manager needs of a partition).

Offsets: the Log's own log start offset is the *local* log start offset. The RLM owns the
partition's overall log start offset: the start of the remote segments that reach the local data
without a gap, raised by remote expiry and DeleteRecords (kept in
`remote-log-start-offset-checkpoint`). Local retention (local.retention.*) only deletes segments
at or below the highest offset copied (`Log.highest_offset_in_remote_storage`).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded.log.checkpoint import CheckpointError, OffsetCheckpointFile
from kafka_wire.errors import OffsetOutOfRangeError
from kafka_wire.records import decode_batch, parse_batch_header

from .config import RemoteLogManagerConfig
from .index_cache import RemoteIndexCache
from .partitions import TieredPartition, topic_id_partition
from .plugins import create_remote_log_metadata_manager, create_remote_storage_manager
from .reader import RemoteFetchInfo, RemoteLogReader
from .storage import (
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
from .thread_pool import DaemonPool

if TYPE_CHECKING:
    from broker_embedded.log import Log

log = logging.getLogger(__name__)

REMOTE_LOG_START_OFFSET_CHECKPOINT = "remote-log-start-offset-checkpoint"
REMOTE_STAGING_DIR = "remote-log-staging"

_FINISHED = RemoteLogSegmentState.COPY_SEGMENT_FINISHED


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


# ====================================================================== per-partition state


@dataclass
class _PartitionState:
    tip: TopicIdPartition
    partition: TieredPartition
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


# ====================================================================== the manager


class RemoteLogManager:
    """Tiered storage of one broker. `partitions()` lists the broker's partitions (`TieredPartition`s:
    the broker's `Partition` objects)."""

    def __init__(
        self,
        config: RemoteLogManagerConfig,
        log_dir: Path,
        broker_id: int,
        partitions: Callable[[], Iterable[TieredPartition]],
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
            rsm = create_remote_storage_manager(config, self.log_dir)
        if rlmm is None:
            rlmm = create_remote_log_metadata_manager(config, self.log_dir, broker_id)
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
            # keyed by (topic id hex, partition): the checkpoint file's format, TopicPartition-shaped
            self._floors: dict[tuple[str, int], int] = dict(self._start_checkpoint.read().items())
        except CheckpointError:
            self._floors = {}
        self._task_pool = DaemonPool(config.thread_pool_size, "remote-log-task")
        self._copy_pool = DaemonPool(config.thread_pool_size, "remote-log-copy")
        self.reader = RemoteLogReader(config, rsm, rlmm, self.index_cache)
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
        for pool in (self._task_pool, self._copy_pool):
            pool.shutdown()
        self.reader.shutdown()
        for plugin in (self.rsm, self.rlmm):
            try:
                plugin.close()
            except Exception:
                log.exception("closing %s failed", type(plugin).__name__)

    # ------------------------------------------------------------------ partitions
    @staticmethod
    def is_tiered(p: TieredPartition) -> bool:
        return bool(getattr(p.log.config, "remote_storage_enable", False))

    def _floor_key(self, tip: TopicIdPartition) -> tuple[str, int]:
        return (tip.topic_id.hex(), tip.partition)

    def _state_for(self, p: TieredPartition) -> _PartitionState:
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

    def _highest_copied(
        self, tip: TopicIdPartition, p: TieredPartition, finished: list[RemoteLogSegmentMetadata]
    ) -> int:
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

    def log_start_offset(self, p: TieredPartition) -> int:
        """The partition's overall log start offset (remote data included)."""
        st = self._state_for(p)
        local = p.log.log_start_offset
        if st.remote_start is not None and st.highest_copied + 1 >= local:
            start = min(st.remote_start, local)  # the remote range reaches the local data
        else:
            start = local
        return max(start, st.start_floor)

    def highest_offset_in_remote_storage(self, p: TieredPartition) -> int:
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

    def _current_partitions(self) -> list[TieredPartition]:
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
    def _copy_segments(self, st: _PartitionState, p: TieredPartition) -> None:
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
        self, st: _PartitionState, log_: Log, upper: int
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
            # the aborted transactions whose ABORT marker is in this segment (no file: none)
            txn_index = seg.txn_index.path if seg.txn_index.path.exists() else None
            data_paths = (seg.log_path, seg.offset_index.path, seg.time_index.path)
        snapshot_tmp = self._staging / f"{md.remote_log_segment_id.id}.snapshot"
        snapshot_tmp.write_bytes(snapshot)
        data = LogSegmentData(
            log_segment=data_paths[0],
            offset_index=data_paths[1],
            time_index=data_paths[2],
            transaction_index=txn_index,
            producer_snapshot_index=snapshot_tmp,
            leader_epoch_index=checkpoint,
        )
        return md, data, snapshot_tmp

    @staticmethod
    def _producer_snapshot_bytes(log_: Log, offset: int) -> bytes:
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
    def _expire_segments(self, st: _PartitionState, p: TieredPartition) -> None:
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

    def _raise_floor(self, st: _PartitionState, p: TieredPartition, offset: int) -> None:
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
    def delete_records(self, p: TieredPartition, offset: int) -> int:
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
    def plan_read(
        self, p: TieredPartition, fetch_offset: int, max_bytes: int, min_one_batch: bool
    ) -> RemoteFetchInfo | None:
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

    def read_remote(self, info: RemoteFetchInfo) -> bytes:
        """In a reader thread: whole batches from the one holding the fetch offset (see RemoteLogReader)."""
        return self.reader.read(info)

    def find_offset_by_timestamp(self, p: TieredPartition, timestamp: int) -> tuple[int, int, int] | None:
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
            for _, batch in self.reader.iter_batches(md, idx.position_for(from_offset)):
                h = parse_batch_header(batch, 0)
                if h.last_offset < start or h.max_timestamp < timestamp:
                    continue
                _, records = decode_batch(batch, 0, verify_crc=False)
                for r in records:
                    if r.timestamp >= timestamp and r.offset >= start:
                        return r.offset, r.timestamp, md.epoch_for_offset(r.offset) or h.partition_leader_epoch
        return None

    def needs_remote_timestamp_lookup(self, p: TieredPartition, timestamp: int) -> bool:
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

    async def read_remote_fetches(self, pending: list[tuple[Any, RemoteFetchInfo]]) -> None:
        """Fill each placeholder PartitionData with its remote records, or an error of its own (on
        the loop thread; the reads run in the reader pool, with read-ahead)."""
        await self.reader.read_fetches(pending)

    async def offset_for_timestamp_async(self, p: TieredPartition, timestamp: int) -> tuple[int, int, int] | None:
        return await self.reader.run(self.find_offset_by_timestamp, p, timestamp)

    # ------------------------------------------------------------------ introspection
    def partition_status(self, p: TieredPartition) -> dict[str, Any]:
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
