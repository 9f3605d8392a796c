"""Idempotent-producer state of one partition (Kafka's ProducerStateManager).

Per producer id we keep the epoch and the metadata of its last 5 batches (the producer's
`max.in.flight.requests.per.connection` bound), so a retried batch is recognised as a duplicate
and acknowledged with its original offsets, a gap is refused as OUT_OF_ORDER_SEQUENCE_NUMBER and a
zombie with an older epoch as INVALID_PRODUCER_EPOCH.

The state is a function of the log: it is rebuilt by replaying batch headers, starting from the
newest `<offset>.snapshot` file (taken at each segment roll and on close). Our snapshot format
keeps all 5 batches per producer (Kafka's keeps only the last), so after a kill -9 a retried
duplicate of any of the last 5 batches is still detected.
"""

from __future__ import annotations

import os
import struct
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

import crc32c

from kafka_wire.errors import ErrorCode
from kafka_wire.records import BatchHeader

from .checkpoint import fsync_dir
from .segment import filename_prefix

NUM_BATCHES_TO_RETAIN = 5
NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
INT32_MAX = 0x7FFFFFFF

SNAPSHOT_FILE_SUFFIX = ".snapshot"
_SNAPSHOT_VERSION = 1
_SNAP_HEADER = struct.Struct(">hI")  # version, crc32c of the body
_SNAP_COUNT = struct.Struct(">i")
_SNAP_ENTRY = struct.Struct(">qhiqqb")  # pid, epoch, coordinator epoch, last ts, txn first offset, n
_SNAP_BATCH = struct.Struct(">iiqqq")  # first seq, last seq, first offset, last offset, timestamp


@dataclass(slots=True)
class BatchMetadata:
    first_seq: int
    last_seq: int
    first_offset: int
    last_offset: int
    timestamp: int


@dataclass(slots=True)
class ProducerStateEntry:
    producer_id: int
    producer_epoch: int = NO_PRODUCER_EPOCH
    batches: deque[BatchMetadata] = field(default_factory=lambda: deque(maxlen=NUM_BATCHES_TO_RETAIN))
    last_timestamp: int = -1
    coordinator_epoch: int = -1
    current_txn_first_offset: int | None = None  # first offset of the open transaction, for the LSO

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else NO_SEQUENCE

    @property
    def last_offset(self) -> int:
        return self.batches[-1].last_offset if self.batches else -1

    def copy(self) -> ProducerStateEntry:
        return ProducerStateEntry(
            self.producer_id,
            self.producer_epoch,
            deque(self.batches, maxlen=NUM_BATCHES_TO_RETAIN),
            self.last_timestamp,
            self.coordinator_epoch,
            self.current_txn_first_offset,
        )

    def find_duplicate(self, h: BatchHeader) -> BatchMetadata | None:
        if h.producer_epoch != self.producer_epoch:
            return None
        last_seq = h.last_sequence
        for b in self.batches:
            if b.first_seq == h.base_sequence and b.last_seq == last_seq:
                return b
        return None


class ProducerCheckStatus(Enum):
    OK = "ok"
    DUPLICATE = "duplicate"
    OUT_OF_ORDER_SEQUENCE_NUMBER = "out_of_order_sequence_number"
    INVALID_PRODUCER_EPOCH = "invalid_producer_epoch"


@dataclass(slots=True)
class ProducerCheck:
    status: ProducerCheckStatus
    duplicate: BatchMetadata | None = None
    message: str = ""

    @property
    def error_code(self) -> ErrorCode:
        """What the produce response carries: a duplicate is acknowledged (NONE) with its old offsets."""
        if self.status is ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER:
            return ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        if self.status is ProducerCheckStatus.INVALID_PRODUCER_EPOCH:
            return ErrorCode.INVALID_PRODUCER_EPOCH
        return ErrorCode.NONE


_OK = ProducerCheck(ProducerCheckStatus.OK)


def in_sequence(last_seq: int, next_seq: int) -> bool:
    """Sequence numbers wrap from Int32 max to 0."""
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)


class ProducerAppendInfo:
    """Staged updates of one append: later batches of the same request see earlier ones."""

    def __init__(self, manager: ProducerStateManager) -> None:
        self._manager = manager
        self.pending: dict[int, ProducerStateEntry] = {}

    def _entry(self, producer_id: int) -> ProducerStateEntry | None:
        e = self.pending.get(producer_id)
        return e if e is not None else self._manager.entries.get(producer_id)

    def check(self, h: BatchHeader) -> ProducerCheck:
        return check_batch(self._entry(h.producer_id), h)

    def add(self, h: BatchHeader, first_offset: int, last_offset: int) -> None:
        pid = h.producer_id
        e = self.pending.get(pid)
        if e is None:
            cur = self._manager.entries.get(pid)
            e = cur.copy() if cur is not None else ProducerStateEntry(pid)
            self.pending[pid] = e
        apply_batch(e, h, first_offset, last_offset)


def check_batch(e: ProducerStateEntry | None, h: BatchHeader) -> ProducerCheck:
    """Classify an incoming batch against the producer's current entry (Kafka's rules)."""
    if h.producer_id < 0:
        return _OK
    if h.is_control:
        # Transaction markers carry no sequence; only a fenced (older) epoch is refused.
        if e is not None and h.producer_epoch < e.producer_epoch:
            return ProducerCheck(
                ProducerCheckStatus.INVALID_PRODUCER_EPOCH,
                message=f"marker epoch {h.producer_epoch} is older than {e.producer_epoch}",
            )
        return _OK
    if e is None:
        # Unknown producer (new, or its state expired): any sequence starts it.
        return _OK
    dup = e.find_duplicate(h)
    if dup is not None:
        return ProducerCheck(ProducerCheckStatus.DUPLICATE, duplicate=dup)
    if h.producer_epoch < e.producer_epoch:
        return ProducerCheck(
            ProducerCheckStatus.INVALID_PRODUCER_EPOCH,
            message=f"producer {h.producer_id} epoch {h.producer_epoch} is older than {e.producer_epoch}",
        )
    seq = h.base_sequence
    if h.producer_epoch > e.producer_epoch:
        # An epoch bump resets the sequence: the new epoch must start at 0.
        if seq != 0 and e.producer_epoch != NO_PRODUCER_EPOCH:
            return ProducerCheck(
                ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER,
                message=f"new epoch {h.producer_epoch} must start at sequence 0, got {seq}",
            )
        return _OK
    last = e.last_seq
    if last == NO_SEQUENCE:
        if seq != 0:
            return ProducerCheck(
                ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER,
                message=f"expected sequence 0 for producer {h.producer_id}, got {seq}",
            )
    elif not in_sequence(last, seq):
        return ProducerCheck(
            ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER,
            message=f"out of order sequence for producer {h.producer_id}: got {seq}, expected {last + 1}",
        )
    return _OK


def apply_batch(e: ProducerStateEntry, h: BatchHeader, first_offset: int, last_offset: int) -> None:
    if h.producer_epoch != e.producer_epoch:
        e.batches.clear()
        e.producer_epoch = h.producer_epoch
    e.last_timestamp = h.max_timestamp
    if h.is_control:
        e.current_txn_first_offset = None  # a COMMIT or ABORT marker ends the transaction
        return
    if h.base_sequence >= 0:
        e.batches.append(BatchMetadata(h.base_sequence, h.last_sequence, first_offset, last_offset, h.max_timestamp))
    if h.is_transactional and e.current_txn_first_offset is None:
        e.current_txn_first_offset = first_offset


class ProducerStateManager:
    """Producer entries of one partition plus their snapshot files in the partition directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory
        self.entries: dict[int, ProducerStateEntry] = {}
        self.map_end_offset = 0  # the state reflects every batch below this offset
        # producer id -> first offset of its open transaction: the LSO is read on every fetch,
        # so it must not scan every (mostly idempotent) producer
        self._unstable: dict[int, int] = {}

    def _track(self, e: ProducerStateEntry) -> None:
        if e.current_txn_first_offset is None:
            self._unstable.pop(e.producer_id, None)
        else:
            self._unstable[e.producer_id] = e.current_txn_first_offset

    # -------------------------------------------------------------- checking / updating

    def last_entry(self, producer_id: int) -> ProducerStateEntry | None:
        return self.entries.get(producer_id)

    def check(self, header: BatchHeader) -> ProducerCheck:
        """Classify `header` against the committed state (see ProducerCheckStatus)."""
        return check_batch(self.entries.get(header.producer_id), header)

    def update(self, header: BatchHeader, first_offset: int, last_offset: int) -> None:
        """Record a batch that was appended at [first_offset, last_offset]."""
        if header.producer_id < 0:
            return
        e = self.entries.get(header.producer_id)
        if e is None:
            e = self.entries[header.producer_id] = ProducerStateEntry(header.producer_id)
        apply_batch(e, header, first_offset, last_offset)
        self._track(e)
        self.map_end_offset = max(self.map_end_offset, last_offset + 1)

    def start_append(self) -> ProducerAppendInfo:
        return ProducerAppendInfo(self)

    def commit(self, info: ProducerAppendInfo, end_offset: int) -> None:
        self.entries.update(info.pending)
        for e in info.pending.values():
            self._track(e)
        self.map_end_offset = max(self.map_end_offset, end_offset)

    def first_unstable_offset(self) -> int | None:
        """First offset of the oldest open transaction (bounds the last stable offset)."""
        return min(self._unstable.values()) if self._unstable else None

    def remove_expired_producers(self, now_ms: int, expiration_ms: int) -> int:
        """Forget producers idle for `producer.id.expiration.ms` with no open transaction."""
        expired = [
            pid
            for pid, e in self.entries.items()
            if e.current_txn_first_offset is None and now_ms - e.last_timestamp >= expiration_ms
        ]
        for pid in expired:
            del self.entries[pid]
        return len(expired)

    def clear(self, offset: int = 0) -> None:
        self.entries.clear()
        self._unstable.clear()
        self.map_end_offset = offset

    # -------------------------------------------------------------- snapshots

    def snapshot_offsets(self) -> list[int]:
        if self.directory is None:
            return []
        out: list[int] = []
        for p in self.directory.glob("*" + SNAPSHOT_FILE_SUFFIX):
            try:
                out.append(int(p.name[: -len(SNAPSHOT_FILE_SUFFIX)]))
            except ValueError:
                continue
        return sorted(out)

    def _snapshot_path(self, offset: int) -> Path:
        assert self.directory is not None
        return self.directory / (filename_prefix(offset) + SNAPSHOT_FILE_SUFFIX)

    def take_snapshot(self, fsync: bool = False) -> None:
        """Write the state as of map_end_offset to `<map_end_offset>.snapshot` (tmp + rename)."""
        if self.directory is None:
            return
        body = bytearray(_SNAP_COUNT.pack(len(self.entries)))
        for e in self.entries.values():
            txn = -1 if e.current_txn_first_offset is None else e.current_txn_first_offset
            body += _SNAP_ENTRY.pack(
                e.producer_id, e.producer_epoch, e.coordinator_epoch, e.last_timestamp, txn, len(e.batches)
            )
            for b in e.batches:
                body += _SNAP_BATCH.pack(b.first_seq, b.last_seq, b.first_offset, b.last_offset, b.timestamp)
        data = _SNAP_HEADER.pack(_SNAPSHOT_VERSION, crc32c.crc32c(body)) + bytes(body)
        path = self._snapshot_path(self.map_end_offset)
        tmp = path.with_name(path.name + ".tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                if fsync:
                    f.flush()
                    os.fsync(f.fileno())
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)  # a torn snapshot must not take the space a retry needs
            raise
        if fsync:
            fsync_dir(self.directory)

    def _read_snapshot(self, offset: int) -> dict[int, ProducerStateEntry] | None:
        try:
            data = self._snapshot_path(offset).read_bytes()
            version, crc = _SNAP_HEADER.unpack_from(data, 0)
            body = memoryview(data)[_SNAP_HEADER.size :]
            if version != _SNAPSHOT_VERSION or crc32c.crc32c(body) != crc:
                return None
            (count,) = _SNAP_COUNT.unpack_from(body, 0)
            pos = _SNAP_COUNT.size
            entries: dict[int, ProducerStateEntry] = {}
            for _ in range(count):
                pid, epoch, coord, ts, txn, n = _SNAP_ENTRY.unpack_from(body, pos)
                pos += _SNAP_ENTRY.size
                e = ProducerStateEntry(
                    pid,
                    epoch,
                    last_timestamp=ts,
                    coordinator_epoch=coord,
                    current_txn_first_offset=None if txn < 0 else txn,
                )
                for _ in range(n):
                    e.batches.append(BatchMetadata(*_SNAP_BATCH.unpack_from(body, pos)))
                    pos += _SNAP_BATCH.size
                entries[pid] = e
            return entries
        except (OSError, struct.error):
            return None

    def load_latest_snapshot(self, max_offset: int) -> int | None:
        """Load the newest valid snapshot at or below `max_offset`; returns its offset or None.

        Unreadable snapshots (torn by a crash) are deleted and older ones tried.
        """
        for offset in reversed(self.snapshot_offsets()):
            if offset > max_offset:
                continue
            entries = self._read_snapshot(offset)
            if entries is None:
                self._delete_snapshot(offset)
                continue
            self.entries = entries
            self._unstable = {
                pid: e.current_txn_first_offset for pid, e in entries.items() if e.current_txn_first_offset is not None
            }
            self.map_end_offset = offset
            return offset
        self.clear()
        return None

    def _delete_snapshot(self, offset: int) -> None:
        try:
            self._snapshot_path(offset).unlink()
        except FileNotFoundError:
            pass

    def delete_snapshots_after(self, offset: int) -> None:
        """Remove snapshots above `offset` (they describe truncated data)."""
        for o in self.snapshot_offsets():
            if o > offset:
                self._delete_snapshot(o)

    def delete_snapshots_before(self, offset: int, keep: Iterable[int] = ()) -> None:
        """Remove snapshots below `offset` except the newest of them (a replay start point)."""
        keep_set = set(keep)
        below = [o for o in self.snapshot_offsets() if o < offset]
        for o in below[:-1]:
            if o not in keep_set:
                self._delete_snapshot(o)

    def prune_snapshots(self, keep: int) -> None:
        """Keep only the newest `keep` snapshots."""
        for o in self.snapshot_offsets()[:-keep]:
            self._delete_snapshot(o)

    def delete_all_snapshots(self) -> None:
        for o in self.snapshot_offsets():
            self._delete_snapshot(o)
