"""Removing a partition's data at either end: the oldest (retention.ms/bytes, DeleteRecords, the
log start offset) and the newest (a replica truncating to its leader).

A part of `Log` (the same object; every public method takes `self.lock`). Segments leave the
segment map (`LogSegments`, segments.py), are renamed to `.deleted` and unlinked after
file.delete.delay.ms, since readers may still hold their files.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kafka_wire.errors import OffsetOutOfRangeError

from .loader import rebuild_producer_state
from .segment import (
    DELETED_FILE_SUFFIX,
    LogSegment,
)

if TYPE_CHECKING:
    # Log subclasses this mixin, so mypy sees a cycle and cannot resolve the base: it is Any to mypy
    from .log import Log as _LogBase  # type: ignore[attr-defined]
else:
    _LogBase = object


class LogRetention(_LogBase):
    """`Log`'s retention, log start offset and truncation (see the module)."""

    # the Log state this mixin reads and writes (Log.__init__ sets them), typed here for mypy
    _log_start_offset: int
    _high_watermark: int
    _leo: int
    _recovery_point: int
    cleaner_checkpoint: int

    def _schedule_delete(self, segs: list[LogSegment]) -> None:
        """Rename to `.deleted` now, unlink after file.delete.delay.ms (readers may hold the fd)."""
        if not segs:
            return
        self.segments.remove(segs)
        due = self.clock() + self.config.file_delete_delay_ms
        for seg in segs:
            seg.change_file_suffix("", DELETED_FILE_SUFFIX)
            if self.config.file_delete_delay_ms <= 0:
                seg.delete_files()
            else:
                self.segments.schedule_delete([seg], due)

    def delete_pending_segments(self, now_ms: int | None = None, force: bool = False) -> int:
        """Unlink `.deleted` segments whose delay has passed; returns how many."""
        now = self.clock() if now_ms is None else now_ms
        with self.lock:
            ready = self.segments.take_due_deletes(now, force)
        for seg in ready:
            seg.delete_files()
        return len(ready)

    def _delete_old_segments(
        self, predicate: Callable[[LogSegment, LogSegment | None], bool], high_watermark: int
    ) -> int:
        """Delete segments from the oldest while `predicate` holds and they are below the HW."""
        deletable: list[LogSegment] = []
        segments = self.segments[:]
        for i, seg in enumerate(segments):
            nxt = segments[i + 1] if i + 1 < len(segments) else None
            upper = nxt.base_offset if nxt is not None else self._leo
            if nxt is None and seg.size == 0:
                break
            if high_watermark < upper or not predicate(seg, nxt):
                break
            deletable.append(seg)
        if not deletable:
            return 0
        if len(deletable) == len(self.segments):
            self._roll_locked()  # keep an (empty) active segment at the LEO
        self._schedule_delete(deletable)
        new_start = max(self._log_start_offset, self.segments.first.base_offset)
        self._move_log_start_offset(new_start)
        return len(deletable)

    def _move_log_start_offset(self, offset: int) -> None:
        if offset <= self._log_start_offset:
            return
        self._log_start_offset = offset
        self._high_watermark = max(self._high_watermark, offset)
        self.leader_epoch_cache.truncate_from_start(offset)
        self.producer_state.delete_snapshots_before(self.segments.first.base_offset)

    def enforce_retention(
        self,
        now_ms: int | None = None,
        retention_ms: int | None = None,
        retention_bytes: int | None = None,
        high_watermark: int | None = None,
    ) -> int:
        """Delete the oldest segments breaching retention.ms / retention.bytes (-1 = unlimited).

        Only segments wholly below `high_watermark` (default: the LEO) go; the log start offset
        moves to the next remaining segment's base offset. Returns segments deleted.
        """
        now = self.clock() if now_ms is None else now_ms
        cfg = self.config
        tiered = cfg.remote_storage_enable and not cfg.remote_log_copy_disable
        if tiered:
            # Tiered storage: local.retention.* applies to the local tier (retention.* to the
            # whole log, enforced by the RemoteLogManager), and a segment goes only once copied.
            r_ms = cfg.effective_local_retention_ms if retention_ms is None else retention_ms
            r_bytes = cfg.effective_local_retention_bytes if retention_bytes is None else retention_bytes
        else:
            r_ms = cfg.retention_ms if retention_ms is None else retention_ms
            r_bytes = cfg.retention_bytes if retention_bytes is None else retention_bytes
        with self.lock:
            self._ensure_open()
            hw = self._leo if high_watermark is None else min(high_watermark, self._leo)
            if tiered:
                hw = min(hw, self.highest_offset_in_remote_storage + 1)
            deleted = 0
            if r_ms >= 0:
                deleted += self._delete_old_segments(lambda s, _n: now - s.largest_timestamp > r_ms, hw)
            if r_bytes >= 0:
                excess = [self.segments.size_in_bytes - r_bytes]

                def over_size(s: LogSegment, _n: LogSegment | None) -> bool:
                    if excess[0] - s.size >= 0:
                        excess[0] -= s.size
                        return True
                    return False

                deleted += self._delete_old_segments(over_size, hw)
            deleted += self._delete_old_segments(
                lambda _s, n: n is not None and n.base_offset <= self._log_start_offset, hw
            )
            return deleted

    def delete_records_before(self, offset: int, high_watermark: int | None = None) -> int:
        """DeleteRecords: raise the log start offset to `offset` (never backwards, never past the
        HW; -1 means the HW) and delete segments wholly below it. Returns the new log start
        offset (the low watermark of the response). Raises OffsetOutOfRangeError beyond the HW."""
        with self.lock:
            self._ensure_open()
            hw = self._leo if high_watermark is None else high_watermark
            if offset == -1:  # DeleteRecords: -1 means "up to the high watermark"
                offset = hw
            if offset > hw or offset < 0:
                raise OffsetOutOfRangeError(
                    f"cannot increment the log start offset to {offset}: it is beyond the high watermark {hw}"
                )
            if offset > self._log_start_offset:
                self._move_log_start_offset(offset)
                self._delete_old_segments(
                    lambda _s, n: n is not None and n.base_offset <= self._log_start_offset, self._leo
                )
            return self._log_start_offset

    def maybe_increment_log_start_offset(self, offset: int) -> int:
        """Follower path: follow the leader's log start offset without ever wedging.

        If the leader's start is beyond our LEO (DeleteRecords raced with replication), the log
        is truncated fully and restarted there, as the follower would on its next fetch anyway.
        """
        with self.lock:
            if offset > self._leo:
                self._truncate_fully_locked(offset)
            elif offset > self._log_start_offset:
                self._move_log_start_offset(offset)
                self._delete_old_segments(
                    lambda _s, n: n is not None and n.base_offset <= self._log_start_offset, self._leo
                )
            return self._log_start_offset

    # ================================================================ truncation

    def truncate_to(self, offset: int) -> bool:
        """Remove everything from the batch holding `offset` on (replication). True if truncated."""
        with self.lock:
            self._ensure_open()
            if offset < 0:
                raise ValueError(f"cannot truncate to a negative offset {offset}")
            if offset >= self._leo:
                return False
            if offset < self.segments.first.base_offset:
                self._truncate_fully_locked(offset)
                return True
            self._schedule_delete([s for s in self.segments if s.base_offset > offset])
            seg = self.active_segment
            seg.truncate_to(offset)
            self._leo = seg.next_offset
            self._after_truncation()
            return True

    def truncate_fully_and_start_at(self, offset: int) -> None:
        """Drop all data; the log restarts empty at `offset` (log start = LEO = offset)."""
        with self.lock:
            self._ensure_open()
            self._truncate_fully_locked(offset)

    def _truncate_fully_locked(self, offset: int) -> None:
        for seg in self.segments.clear():
            seg.change_file_suffix("", DELETED_FILE_SUFFIX)
            seg.delete_files()
        self.segments.add(self._new_segment(offset, create=True))
        self._leo = offset
        self._log_start_offset = offset
        self.leader_epoch_cache.clear()
        self.producer_state.delete_all_snapshots()
        self.producer_state.clear(offset)
        self._after_truncation()

    def _after_truncation(self) -> None:
        self._recovery_point = min(self._recovery_point, self._leo)
        self._log_start_offset = min(self._log_start_offset, self._leo)
        self._high_watermark = min(self._high_watermark, self._leo)
        self.cleaner_checkpoint = min(self.cleaner_checkpoint, self._leo)
        self.leader_epoch_cache.truncate_from_end(self._leo)
        rebuild_producer_state(self.segments, self.producer_state, self._leo)
