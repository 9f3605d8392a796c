"""The aborted-transaction index of one segment (Kafka's TransactionIndex, ``<base>.txnindex``).

One 34-byte entry per transaction whose ABORT marker is in the segment: version (int16, 0),
producer id, first offset, last offset (the marker's) and the last stable offset right after the
marker, big-endian, as Kafka writes them. read_committed fetches return the aborted transactions
overlapping the fetched range so consumers can drop their records. The file exists only once a
segment has an entry; entries are cached in memory after the first read.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kafka_wire.records import ControlRecordType, decode_batch, decode_control_record

if TYPE_CHECKING:
    from .producer_state import ProducerStateManager

TXN_INDEX_FILE_SUFFIX = ".txnindex"
_ENTRY = struct.Struct(">hqqqq")
ENTRY_SIZE = _ENTRY.size  # 34
_VERSION = 0


@dataclass(frozen=True, slots=True)
class AbortedTxn:
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int

    def encode(self) -> bytes:
        return _ENTRY.pack(_VERSION, self.producer_id, self.first_offset, self.last_offset, self.last_stable_offset)


class CorruptTransactionIndexError(ValueError):
    pass


def decode_entries(data: bytes) -> list[AbortedTxn]:
    """Entries of a `.txnindex` file; a torn tail (crash mid-write) is ignored."""
    out = []
    for pos in range(0, len(data) - len(data) % ENTRY_SIZE, ENTRY_SIZE):
        version, pid, first, last, lso = _ENTRY.unpack_from(data, pos)
        if version != _VERSION:
            raise CorruptTransactionIndexError(f"unknown transaction index entry version {version}")
        out.append(AbortedTxn(pid, first, last, lso))
    return out


class TransactionIndex:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: list[AbortedTxn] | None = None

    @property
    def entries(self) -> list[AbortedTxn]:
        if self._entries is None:
            try:
                self._entries = decode_entries(self.path.read_bytes())
            except FileNotFoundError:
                self._entries = []
            except CorruptTransactionIndexError:
                self._entries = []  # rebuilt from the log by the next recovery's replay
        return self._entries

    def append(self, entry: AbortedTxn) -> None:
        entries = self.entries
        if entries and entry.last_offset <= entries[-1].last_offset:
            return  # a marker replayed after a restart: already indexed
        with open(self.path, "ab") as f:
            size = f.tell()
            if size % ENTRY_SIZE:
                f.truncate(size - size % ENTRY_SIZE)  # a torn entry from a crash
            f.write(entry.encode())
        entries.append(entry)

    def collect(self, fetch_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """Aborted transactions overlapping [fetch_offset, upper_bound_offset)."""
        return [e for e in self.entries if e.last_offset >= fetch_offset and e.first_offset < upper_bound_offset]

    def truncate_to(self, offset: int) -> None:
        """Drop entries whose marker is at or after `offset` (the log was cut there)."""
        entries = self.entries
        kept = [e for e in entries if e.last_offset < offset]
        if len(kept) == len(entries):
            return
        self._entries = kept
        if not kept:
            self.path.unlink(missing_ok=True)
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(b"".join(e.encode() for e in kept))
        os.replace(tmp, self.path)

    def rename(self, path: Path) -> None:
        if self.path.exists():
            os.replace(self.path, path)
        self.path = path

    def flush(self) -> None:
        if self.path.exists():
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def delete(self) -> None:
        self.path.unlink(missing_ok=True)
        self._entries = []


def index_marker(
    producer_state: ProducerStateManager,
    txn_index: TransactionIndex,
    buf: bytes | bytearray | memoryview,
    pos: int,
    producer_id: int,
    txn_first: int | None,
    marker_offset: int,
) -> None:
    """A transaction marker (the control batch at `pos` in `buf`, at `marker_offset`) reaches the
    log: note its coordinator epoch in the producer state and, for an ABORT of a transaction that
    started at `txn_first`, append the aborted transaction to the index of the marker's segment.
    Called before the marker is applied to the producer state (which still knows where the
    transaction started), on append, follower append and the producer state replay."""
    _, records = decode_batch(buf, pos, verify_crc=False)
    if not records:
        return
    ctype, coordinator_epoch = decode_control_record(records[0])
    entry = producer_state.entries.get(producer_id)
    if entry is not None and coordinator_epoch is not None:
        # a marker from an older coordinator is refused after this one (zombie coordinators)
        entry.coordinator_epoch = max(entry.coordinator_epoch, coordinator_epoch)
    if txn_first is None or ctype != ControlRecordType.ABORT:
        return  # a commit, or no record of this producer in the transaction here
    open_firsts = [
        e.current_txn_first_offset
        for e in producer_state.entries.values()
        if e.current_txn_first_offset is not None and e.producer_id != producer_id
    ]
    lso = min(open_firsts) if open_firsts else marker_offset + 1
    txn_index.append(AbortedTxn(producer_id, txn_first, marker_offset, lso))
