"""Loading a partition's log from disk: the segments, crash recovery and the producer state.

Kafka's LogLoader, as a part of `Log` (the same object and lock): it runs once, from
`Log.__init__`, before the log is shared, and sets the offsets everything else starts from.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from pathlib import Path
from typing import TYPE_CHECKING

from kafka_wire.records import (
    BatchHeader,
)

from .checkpoint import fsync_dir
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
from .txn_index import TXN_INDEX_FILE_SUFFIX

if TYPE_CHECKING:
    from .log import Log as _LogBase
else:
    _LogBase = object


class LogLoading(_LogBase):
    """`Log`'s loading and recovery (see the module)."""

    def _load(self, had_clean_shutdown: bool) -> None:
        self._clean_stray_files()
        bases = sorted(
            int(p.name[: -len(LOG_FILE_SUFFIX)])
            for p in self.dir.iterdir()
            if p.name.endswith(LOG_FILE_SUFFIX) and p.name[: -len(LOG_FILE_SUFFIX)].isdigit()
        )
        self.segments = [self._new_segment(b, create=False) for b in bases]
        self._bases = bases
        if not self.segments:
            self._add_segment(self._new_segment(max(self._log_start_offset, 0), create=True))
        if not had_clean_shutdown:
            self._recover_segments()
        else:
            self._check_indexes(self.segments)
        self._leo = self.active_segment.next_offset
        if self._log_start_offset > self._leo:
            # Everything was deleted (DeleteRecords/retention) past the data we have.
            self._truncate_fully_locked(self._log_start_offset)
        self._log_start_offset = max(self._log_start_offset, self.segments[0].base_offset)
        # Clean shutdown flushed everything; recovery fsynced what it scanned: all is durable now.
        self._recovery_point = self._leo
        self._high_watermark = self._log_start_offset
        self.leader_epoch_cache.truncate_from_end(self._leo)
        self.leader_epoch_cache.truncate_from_start(self._log_start_offset)
        for seg in self.segments:
            # entries of markers a crash cut from the log; the replay below re-adds the others
            seg.txn_index.truncate_to(self._leo)
        self._rebuild_producer_state()

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
            elif seg is self.segments[-1]:
                seg._checked_indexes()  # the active segment's indexes are needed right away

    def _recover_segments(self) -> None:
        """Scan every segment from the one holding the recovery point; cut at the first bad batch."""
        i = max(0, bisect_right(self._bases, self._recovery_point) - 1)
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
                for later in self.segments[i + 1 :]:
                    later.delete_files()
                del self.segments[i + 1 :]
                del self._bases[i + 1 :]
                break
            i += 1
        # An empty trailing segment behind a truncation is fine; an empty *middle* one is not possible.
        fsync_dir(self.dir)

    def _rebuild_producer_state(self) -> None:
        """Load the newest snapshot at or below the LEO, then replay batch headers after it."""
        ps = self.producer_state
        ps.delete_snapshots_after(self._leo)
        start = ps.load_latest_snapshot(self._leo)
        first_base = self.segments[0].base_offset
        if start is None:
            ps.clear(first_base)
            start = first_base
        elif start < first_base:
            # Batches between the snapshot and the first segment were deleted by retention:
            # keep the snapshot's (older) knowledge and replay what is still on disk.
            start = first_base
        i = max(0, bisect_right(self._bases, start) - 1)
        for seg in self.segments[i:]:
            found = seg.translate_offset(start)
            if found is None:
                continue
            for pos, h in seg.iter_headers(found.position):
                if h[H_PRODUCER_ID] >= 0 and h[H_BASE_OFFSET] >= start:
                    base = h[H_BASE_OFFSET]
                    header = BatchHeader(*h)
                    if header.is_control:
                        # rebuilds the transaction index entry of a marker (kept if present)
                        self._complete_txn(seg, header, seg.read_bytes(pos, header.size), 0)
                    ps.update(header, base, base + h[H_LAST_OFFSET_DELTA])
        ps.map_end_offset = self._leo
