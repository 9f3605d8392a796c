"""Leader epoch cache of one partition (Kafka's LeaderEpochFileCache).

An ordered list of (leader epoch, start offset): the first offset written under each epoch.
Replication uses it to answer OffsetForLeaderEpoch (the end offset of an epoch on this replica)
so a follower truncates to the right place. Persisted in `leader-epoch-checkpoint`.
"""

from __future__ import annotations

from pathlib import Path

from .checkpoint import LEADER_EPOCH_CHECKPOINT, CheckpointError, LeaderEpochCheckpointFile

UNDEFINED_EPOCH = -1
UNDEFINED_EPOCH_OFFSET = -1


class LeaderEpochFileCache:
    def __init__(self, directory: Path | None = None) -> None:
        self._file = LeaderEpochCheckpointFile(directory / LEADER_EPOCH_CHECKPOINT) if directory else None
        self.entries: list[tuple[int, int]] = []
        if self._file is not None:
            try:
                self.entries = self._file.read()
            except CheckpointError:
                self.entries = []  # rebuilt from the batches during recovery

    def _flush(self) -> None:
        if self._file is not None:
            self._file.write(self.entries)

    @property
    def latest_epoch(self) -> int:
        return self.entries[-1][0] if self.entries else UNDEFINED_EPOCH

    @property
    def earliest_entry(self) -> tuple[int, int] | None:
        return self.entries[0] if self.entries else None

    def assign(self, epoch: int, start_offset: int) -> None:
        """Record that `epoch` started at `start_offset` (no-op unless it is a newer epoch)."""
        if epoch < 0:
            return
        if self.entries and (epoch <= self.entries[-1][0] or start_offset < self.entries[-1][1]):
            return
        self.entries.append((epoch, start_offset))
        self._flush()

    def epoch_for_offset(self, offset: int) -> int | None:
        """The epoch under which `offset` was written, if known."""
        found: int | None = None
        for epoch, start in self.entries:
            if start > offset:
                break
            found = epoch
        return found

    def end_offset_for(self, requested_epoch: int, log_end_offset: int) -> tuple[int, int]:
        """(epoch, end offset) as OffsetForLeaderEpoch answers it.

        The end offset of an epoch is the start offset of the next higher epoch, or the log end
        offset for the latest epoch. For an epoch we never saw, the answer uses the largest
        epoch below it; above the latest epoch (or an undefined one) it is (-1, -1).
        """
        if requested_epoch == UNDEFINED_EPOCH or not self.entries:
            return UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
        if requested_epoch == self.latest_epoch:
            return requested_epoch, log_end_offset
        higher = next(((e, s) for e, s in self.entries if e > requested_epoch), None)
        if higher is None:
            return UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET
        floor = None
        for e, s in self.entries:
            if e <= requested_epoch:
                floor = (e, s)
        if floor is None:
            return requested_epoch, higher[1]
        return floor[0], higher[1]

    def truncate_from_end(self, end_offset: int) -> None:
        """Drop epochs that start at or after `end_offset` (log truncated there)."""
        kept = [(e, s) for e, s in self.entries if s < end_offset]
        if kept != self.entries:
            self.entries = kept
            self._flush()

    def truncate_from_start(self, start_offset: int) -> None:
        """The log now starts at `start_offset`: drop epochs wholly below it, clamp the first."""
        if not self.entries:
            return
        kept: list[tuple[int, int]] = []
        for i, (e, s) in enumerate(self.entries):
            nxt = self.entries[i + 1][1] if i + 1 < len(self.entries) else None
            if nxt is not None and nxt <= start_offset:
                continue
            kept.append((e, max(s, start_offset) if not kept else s))
        if kept != self.entries:
            self.entries = kept
            self._flush()

    def clear(self) -> None:
        self.entries = []
        self._flush()
