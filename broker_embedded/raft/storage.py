"""The durable state a Raft node keeps, behind two small interfaces so a driver can put them on disk and the
simulator can keep them in memory and crash them: the quorum-state file (epoch, voted-for, leader: written
and fsynced before the core returns, as KRaft's FileQuorumStateStore does) and the replicated log with its
snapshots (appends are durable only once flushed; a crash keeps the flushed prefix)."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Protocol

from broker_embedded.raft.messages import LogEntry, OffsetAndEpoch

UNDEFINED = OffsetAndEpoch(-1, -1)


@dataclass(frozen=True)
class ElectionState:
    """KRaft's quorum-state: the epoch, whom this node voted for in it, and the leader it knows for it."""

    epoch: int
    voted_id: int | None = None
    leader_id: int | None = None


class QuorumStateStore(Protocol):
    def read(self) -> ElectionState | None: ...

    def write(self, state: ElectionState) -> None:
        """Durable on return (the core sends a vote only after this)."""


class RaftLog(Protocol):
    """The replicated log: offsets start_offset..end_offset-1 are present; below start_offset lies the latest
    snapshot (whose id is (start_offset, epoch of entry start_offset-1))."""

    @property
    def start_offset(self) -> int: ...
    @property
    def end_offset(self) -> int: ...
    @property
    def flushed_offset(self) -> int: ...
    @property
    def last_epoch(self) -> int: ...
    @property
    def latest_snapshot_id(self) -> OffsetAndEpoch | None: ...

    def entry(self, offset: int) -> LogEntry: ...
    def read(self, start: int, max_records: int) -> tuple[LogEntry, ...]: ...
    def append(self, entries: tuple[LogEntry, ...] | list[LogEntry]) -> None: ...
    def truncate_to(self, offset: int) -> None: ...
    def flush(self) -> None: ...
    def end_offset_for_epoch(self, epoch: int) -> OffsetAndEpoch: ...
    def read_snapshot(self, snapshot_id: OffsetAndEpoch) -> bytes | None: ...
    def create_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None: ...
    def install_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None: ...


class MemoryQuorumStateStore:
    def __init__(self) -> None:
        self.state: ElectionState | None = None
        self.writes = 0

    def read(self) -> ElectionState | None:
        return self.state

    def write(self, state: ElectionState) -> None:
        self.state = state
        self.writes += 1


class MemoryRaftLog:
    """An in-memory RaftLog that models fsync: `crash()` drops every entry past the flushed offset, as a
    process kill plus a lost page cache would. Truncations and snapshots are durable at once (a driver on
    disk must fsync them before returning)."""

    def __init__(self) -> None:
        self._entries: list[LogEntry] = []
        self._start = 0
        self._flushed = 0
        # (epoch, first offset of that epoch in the log): KRaft's leader-epoch cache, kept beside the entries
        self._epochs: list[tuple[int, int]] = []
        self._snapshots: dict[OffsetAndEpoch, bytes] = {}
        self._latest_snapshot: OffsetAndEpoch | None = None

    # --- reads
    @property
    def start_offset(self) -> int:
        return self._start

    @property
    def end_offset(self) -> int:
        return self._start + len(self._entries)

    @property
    def flushed_offset(self) -> int:
        return self._flushed

    @property
    def last_epoch(self) -> int:
        if self._epochs:
            return self._epochs[-1][0]
        return self._latest_snapshot.epoch if self._latest_snapshot else 0

    @property
    def latest_snapshot_id(self) -> OffsetAndEpoch | None:
        return self._latest_snapshot

    def entry(self, offset: int) -> LogEntry:
        if not self._start <= offset < self.end_offset:
            raise IndexError(f"offset {offset} outside [{self._start}, {self.end_offset})")
        return self._entries[offset - self._start]

    def read(self, start: int, max_records: int) -> tuple[LogEntry, ...]:
        i = start - self._start
        if i < 0:
            raise IndexError(f"offset {start} below the log start {self._start}")
        return tuple(self._entries[i : i + max_records])

    def end_offset_for_epoch(self, epoch: int) -> OffsetAndEpoch:
        """The largest epoch <= `epoch` this log knows and the offset where the next epoch starts (or the log
        end): what OffsetsForLeaderEpoch answers. UNDEFINED when every epoch here is larger."""
        if epoch >= self.last_epoch:
            return OffsetAndEpoch(self.end_offset, self.last_epoch)
        i = bisect.bisect_right(self._epochs, (epoch, float("inf"))) - 1
        if i >= 0:
            return OffsetAndEpoch(self._epochs[i + 1][1], self._epochs[i][0])
        snap = self._latest_snapshot
        if snap is not None and snap.epoch <= epoch:
            return OffsetAndEpoch(self._start, snap.epoch)
        return UNDEFINED

    def read_snapshot(self, snapshot_id: OffsetAndEpoch) -> bytes | None:
        return self._snapshots.get(snapshot_id)

    # --- writes
    def append(self, entries: tuple[LogEntry, ...] | list[LogEntry]) -> None:
        for e in entries:
            if e.offset != self.end_offset:
                raise ValueError(f"append at {e.offset}, log end is {self.end_offset}")
            if e.epoch < self.last_epoch:
                raise ValueError(f"epoch {e.epoch} after epoch {self.last_epoch}")
            if not self._epochs or self._epochs[-1][0] != e.epoch:
                self._epochs.append((e.epoch, e.offset))
            self._entries.append(e)

    def truncate_to(self, offset: int) -> None:
        if offset < self._start:
            raise ValueError(f"truncation to {offset} below the log start {self._start} (inside the snapshot)")
        if offset >= self.end_offset:
            return
        del self._entries[offset - self._start :]
        while self._epochs and self._epochs[-1][1] >= offset:
            self._epochs.pop()
        self._flushed = min(self._flushed, offset)

    def flush(self) -> None:
        self._flushed = self.end_offset

    def create_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        """Store a snapshot of the state up to snapshot_id.offset and delete the log before it (KRaft keeps some
        log past the snapshot for retention; deleting at once makes followers exercise FetchSnapshot)."""
        if not self._start < snapshot_id.offset <= self._flushed:
            raise ValueError(f"snapshot {snapshot_id} outside the flushed log [{self._start}, {self._flushed}]")
        if self.entry(snapshot_id.offset - 1).epoch != snapshot_id.epoch:
            raise ValueError(f"snapshot {snapshot_id} does not match the log's epoch at that offset")
        self._snapshots = {snapshot_id: data}
        self._latest_snapshot = snapshot_id
        drop = snapshot_id.offset - self._start
        del self._entries[:drop]
        self._start = snapshot_id.offset
        kept: list[tuple[int, int]] = []
        for i, (epoch, first) in enumerate(self._epochs):
            next_first = self._epochs[i + 1][1] if i + 1 < len(self._epochs) else self.end_offset
            if next_first > self._start:  # the epoch still has entries at or past the new log start
                kept.append((epoch, max(first, self._start)))
        self._epochs = kept

    def install_snapshot(self, snapshot_id: OffsetAndEpoch, data: bytes) -> None:
        """A follower replaces its whole log with the leader's snapshot (KIP-630)."""
        self._snapshots = {snapshot_id: data}
        self._latest_snapshot = snapshot_id
        self._entries = []
        self._epochs = []
        self._start = self._flushed = snapshot_id.offset

    # --- the simulator's fault
    def crash(self) -> None:
        """Lose what was never flushed."""
        self.truncate_to(max(self._flushed, self._start))
