"""Loading a partition's log from disk: the segments, crash recovery and the producer state.

Kafka's LogLoader: `LogLoader(...).load()` runs once, from `Log.__init__`, before the log is
shared, and returns the segments and the offsets everything else starts from (`LoadedLog`). It
writes only into the leader epoch cache and producer state it is given. `rebuild_producer_state`
is also what the log runs after a truncation.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kafka_wire.records import (
    BatchHeader,
)

from .checkpoint import fsync_dir
from .epoch_cache import LeaderEpochFileCache
from .producer_state import ProducerStateManager
from .segment import (
    CLEANED_FILE_SUFFIX,
    DELETED_FILE_SUFFIX,
    H_BASE_OFFSET,
    H_LAST_OFFSET_DELTA,
    H_PRODUCER_ID,
    INDEX_FILE_SUFFIX,
    LOG_FILE_SUFFIX,
    SWAP_FILE_SUFFIX,
    TIME_INDEX_FILE_SUFFIX,
    LogSegment,
)
from .segments import LogSegments
from .txn_index import TXN_INDEX_FILE_SUFFIX, index_marker


@dataclass(slots=True)
class LoadedLog:
    """What loading found (Kafka's LoadedLogOffsets, with the segments)."""

    segments: LogSegments
    log_start_offset: int
    log_end_offset: int
    recovery_point: int


class LogLoader:
    """One load of a partition directory (see the module)."""

    def __init__(
        self,
        directory: Path,
        new_segment: Callable[[int, bool], LogSegment],
        leader_epoch_cache: LeaderEpochFileCache,
        producer_state: ProducerStateManager,
        *,
        log_start_offset: int,
        recovery_point: int,
        had_clean_shutdown: bool,
    ) -> None:
        self.dir = directory
        self._new_segment = new_segment
        self.leader_epoch_cache = leader_epoch_cache
        self.producer_state = producer_state
        self._log_start_offset = log_start_offset
        self._recovery_point = recovery_point
        self._had_clean_shutdown = had_clean_shutdown
        self.segments = LogSegments()

    def load(self) -> LoadedLog:
        self._clean_stray_files()
        bases = sorted(
            int(p.name[: -len(LOG_FILE_SUFFIX)])
            for p in self.dir.iterdir()
            if p.name.endswith(LOG_FILE_SUFFIX) and p.name[: -len(LOG_FILE_SUFFIX)].isdigit()
        )
        self.segments = LogSegments(self._new_segment(b, False) for b in bases)
        if not len(self.segments):
            self.segments.add(self._new_segment(max(self._log_start_offset, 0), True))
        if not self._had_clean_shutdown:
            self._recover_segments()
        else:
            self._check_indexes(self.segments[:])
        leo = self.segments.active.next_offset
        if self._log_start_offset > leo:
            # Everything was deleted (DeleteRecords/retention) past the data we have: restart
            # empty there (what Log.truncate_fully_and_start_at does; the rest follows below).
            leo = self._log_start_offset
            for seg in self.segments.clear():
                seg.change_file_suffix("", DELETED_FILE_SUFFIX)
                seg.delete_files()
            self.segments.add(self._new_segment(leo, True))
            self.leader_epoch_cache.clear()
            self.producer_state.delete_all_snapshots()
            self.producer_state.clear(leo)
        log_start = max(self._log_start_offset, self.segments.first.base_offset)
        self.leader_epoch_cache.truncate_from_end(leo)
        self.leader_epoch_cache.truncate_from_start(log_start)
        for seg in self.segments:
            # entries of markers a crash cut from the log; the replay below re-adds the others
            seg.txn_index.truncate_to(leo)
        rebuild_producer_state(self.segments, self.producer_state, leo)
        # Clean shutdown flushed everything; recovery fsynced what it scanned: all is durable now.
        return LoadedLog(self.segments, log_start, leo, recovery_point=leo)

    def _clean_stray_files(self) -> None:
        """Finish or undo file operations a crash interrupted (deletes, compaction swaps)."""
        swaps: list[Path] = []
        for p in list(self.dir.iterdir()):
            name = p.name
            if name.endswith(".tmp") or name.endswith(DELETED_FILE_SUFFIX) or name.endswith(CLEANED_FILE_SUFFIX):
                p.unlink(missing_ok=True)
            elif name.endswith(SWAP_FILE_SUFFIX):
                swaps.append(p)
        # A `.swap` is a complete cleaned replacement: it supersedes the segments it covers.
        for p in sorted(swaps):
            final = p.with_name(p.name[: -len(SWAP_FILE_SUFFIX)])
            if final.name.endswith(LOG_FILE_SUFFIX):
                base = int(final.name[: -len(LOG_FILE_SUFFIX)])
                seg = LogSegment(self.dir, base, file_suffix=SWAP_FILE_SUFFIX)
                upper = seg.next_offset
                seg.close_handles()
                for q in list(self.dir.iterdir()):
                    stem = q.name.split(".")[0]
                    if (
                        stem.isdigit()
                        and base <= int(stem) < upper
                        and not q.name.endswith(SWAP_FILE_SUFFIX)
                        and q.suffix
                        in (LOG_FILE_SUFFIX, INDEX_FILE_SUFFIX, TIME_INDEX_FILE_SUFFIX, TXN_INDEX_FILE_SUFFIX)
                    ):
                        q.unlink(missing_ok=True)
        for p in sorted(swaps):
            os.replace(p, p.with_name(p.name[: -len(SWAP_FILE_SUFFIX)]))
        # Index files whose log is gone are orphans.
        for p in list(self.dir.iterdir()):
            if p.suffix in (INDEX_FILE_SUFFIX, TIME_INDEX_FILE_SUFFIX, TXN_INDEX_FILE_SUFFIX):
                if not p.with_suffix(LOG_FILE_SUFFIX).exists():
                    p.unlink(missing_ok=True)

    def _check_indexes(self, segments: list[LogSegment]) -> None:
        for seg in segments:
            idx, tidx = seg.offset_index.path, seg.time_index.path
            missing = seg.size > 0 and (not idx.exists() or not tidx.exists())
            bad_size = (idx.exists() and idx.stat().st_size % 8) or (tidx.exists() and tidx.stat().st_size % 12)
            if missing or bad_size:
                seg.recover()
            elif seg is self.segments.active:
                seg._checked_indexes()  # the active segment's indexes are needed right away

    def _recover_segments(self) -> None:
        """Scan every segment from the one holding the recovery point; cut at the first bad batch."""
        i = self.segments.floor_index(self._recovery_point)
        self._check_indexes(self.segments[:i])
        epoch_cache = self.leader_epoch_cache

        def on_batch(h: tuple[int, ...]) -> None:
            epoch_cache.assign(h[2], h[H_BASE_OFFSET])

        while i < len(self.segments):
            seg = self.segments[i]
            truncated = seg.recover(on_batch)
            seg.flush()
            if truncated:
                # Nothing after a corrupt region can be trusted: drop the later segments.
                for later in self.segments.remove_after(i):
                    later.delete_files()
                break
            i += 1
        # An empty trailing segment behind a truncation is fine; an empty *middle* one is not possible.
        fsync_dir(self.dir)


def rebuild_producer_state(segments: LogSegments, ps: ProducerStateManager, log_end_offset: int) -> None:
    """Load the newest snapshot at or below the LEO, then replay batch headers after it."""
    ps.delete_snapshots_after(log_end_offset)
    start = ps.load_latest_snapshot(log_end_offset)
    first_base = segments.first.base_offset
    if start is None:
        ps.clear(first_base)
        start = first_base
    elif start < first_base:
        # Batches between the snapshot and the first segment were deleted by retention:
        # keep the snapshot's (older) knowledge and replay what is still on disk.
        start = first_base
    for seg in segments.from_offset(start):
        found = seg.translate_offset(start)
        if found is None:
            continue
        for pos, h in seg.iter_headers(found.position):
            if h[H_PRODUCER_ID] >= 0 and h[H_BASE_OFFSET] >= start:
                base = h[H_BASE_OFFSET]
                header = BatchHeader(*h)
                if header.is_control:
                    # rebuilds the transaction index entry of a marker (kept if present)
                    entry = ps.last_entry(header.producer_id)
                    txn_first = entry.current_txn_first_offset if entry is not None else None
                    index_marker(
                        ps, seg.txn_index, seg.read_bytes(pos, header.size), 0, header.producer_id, txn_first, base
                    )
                ps.update(header, base, base + h[H_LAST_OFFSET_DELTA])
    ps.map_end_offset = log_end_offset


__all__ = ["LoadedLog", "LogLoader", "rebuild_producer_state"]
