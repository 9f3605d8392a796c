"""Sparse segment indexes: `.index` (offset -> file position) and `.timeindex` (timestamp -> offset).

On disk both are arrays of fixed-size big-endian entries, as in Kafka:

* `.index`: relative offset u32 + physical position u32 (8 bytes);
* `.timeindex`: timestamp i64 + relative offset u32 (12 bytes).

Relative offsets are `offset - segment base offset`. In memory each index is a pair of
`array.array` columns (binary search with `bisect`, no per-entry objects). Entries are written to
the file only on flush/roll/close: a crash can leave an index short or missing, which is fine
because crash recovery rebuilds the indexes of every segment above the recovery point, and the
segments below it were flushed together with their indexes.
"""

from __future__ import annotations

import os
import struct
import sys
from array import array
from bisect import bisect_left, bisect_right
from pathlib import Path

OFFSET_ENTRY_SIZE = 8
TIME_ENTRY_SIZE = 12
_OFFSET_ENTRY = struct.Struct(">II")
_TIME_ENTRY = struct.Struct(">qI")
_LITTLE = sys.byteorder == "little"


class IndexCorruptError(Exception):
    """The index file fails its sanity check and must be rebuilt from the log."""


class _IndexBase:
    entry_size: int

    def __init__(self, path: Path, base_offset: int, max_index_size: int) -> None:
        self.path = path
        self.base_offset = base_offset
        self.max_entries = max(1, max_index_size // self.entry_size)
        self._persisted = 0  # entries already in the file
        self._loaded = False

    def __len__(self) -> int:
        self._ensure_loaded()
        return self._count()

    def _count(self) -> int:
        raise NotImplementedError

    def _ensure_loaded(self) -> None:
        if not self._loaded:
            self.load()

    def load(self) -> None:
        raise NotImplementedError

    @property
    def is_full(self) -> bool:
        return len(self) >= self.max_entries

    def _read_file(self) -> bytes:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return b""
        if len(data) % self.entry_size:
            raise IndexCorruptError(f"{self.path}: size {len(data)} is not a multiple of {self.entry_size}")
        return data

    def flush(self, fsync: bool = False) -> None:
        """Append the entries not yet in the file; fsync when asked."""
        if not self._loaded:
            return
        n = self._count()
        if n > self._persisted or not self.path.exists():
            data = self._encode(self._persisted, n)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.pwrite(fd, data, self._persisted * self.entry_size)
                if fsync:
                    os.fsync(fd)
            finally:
                os.close(fd)
            self._persisted = n
        elif fsync:
            fd = os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def _encode(self, start: int, stop: int) -> bytes:
        raise NotImplementedError

    def _rewrite(self) -> None:
        """Make the file match memory exactly (after a truncation or reset)."""
        n = self._count()
        data = self._encode(0, n)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        self._persisted = n

    def rename(self, new_path: Path) -> None:
        if self.path.exists():
            os.replace(self.path, new_path)
        self.path = new_path

    def delete_file(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


class OffsetIndex(_IndexBase):
    """Maps a batch's last offset to the file position where that batch starts."""

    entry_size = OFFSET_ENTRY_SIZE

    def __init__(self, path: Path, base_offset: int, max_index_size: int) -> None:
        super().__init__(path, base_offset, max_index_size)
        self._rel = array("I")
        self._pos = array("I")

    def _count(self) -> int:
        return len(self._rel)

    def load(self) -> None:
        data = self._read_file()
        words = array("I")
        words.frombytes(data)
        if _LITTLE:
            words.byteswap()
        self._rel = words[0::2]
        self._pos = words[1::2]
        self._persisted = len(self._rel)
        self._loaded = True

    @classmethod
    def from_bytes(cls, data: bytes, base_offset: int) -> OffsetIndex:
        """A read-only index over the bytes of an `.index` file that is not ours to write (a remote
        segment's): the entries up to the first that does not increase (the zeroed tail of a
        preallocated file). Only the lookups are meant to be used on it."""
        index = cls(Path(os.devnull), base_offset, max(len(data), OFFSET_ENTRY_SIZE))
        words = array("I")
        words.frombytes(data[: len(data) - len(data) % OFFSET_ENTRY_SIZE])
        if _LITTLE:
            words.byteswap()
        rel, pos = words[0::2], words[1::2]
        n = next((i for i in range(1, len(rel)) if rel[i] <= rel[i - 1]), len(rel))
        index._rel, index._pos = rel[:n], pos[:n]
        index._persisted = n
        index._loaded = True
        return index

    def sanity_check(self, log_size: int) -> None:
        """Cheap checks (as Kafka does on load): last entry in range, entries increasing at the ends."""
        self._ensure_loaded()
        n = len(self._rel)
        if n == 0:
            return
        if self._pos[-1] >= log_size:
            raise IndexCorruptError(f"{self.path}: last entry points past the log ({self._pos[-1]} >= {log_size})")
        if n > 1 and (self._rel[-1] <= self._rel[-2] or self._pos[-1] <= self._pos[-2]):
            raise IndexCorruptError(f"{self.path}: entries are not increasing")
        if n > self.max_entries:
            raise IndexCorruptError(f"{self.path}: {n} entries exceed the maximum {self.max_entries}")

    def _encode(self, start: int, stop: int) -> bytes:
        words = array("I", bytes(8 * (stop - start)))
        words[0::2] = self._rel[start:stop]
        words[1::2] = self._pos[start:stop]
        if _LITTLE:
            words.byteswap()
        return words.tobytes()

    @property
    def last_offset(self) -> int:
        """Offset of the last entry, or the base offset when empty."""
        self._ensure_loaded()
        return self.base_offset + self._rel[-1] if self._rel else self.base_offset

    def append(self, offset: int, position: int) -> None:
        self._ensure_loaded()
        rel = offset - self.base_offset
        if self._rel and rel <= self._rel[-1]:
            raise ValueError(f"offset index entries must increase: {offset} after {self.last_offset}")
        if len(self._rel) >= self.max_entries:
            raise ValueError(f"offset index {self.path} is full")
        self._rel.append(rel)
        self._pos.append(position)

    def lookup(self, target_offset: int) -> tuple[int, int]:
        """(offset, position) of the last entry with offset <= target, or (base, 0)."""
        self._ensure_loaded()
        rel = target_offset - self.base_offset
        if rel < 0:
            return self.base_offset, 0
        i = bisect_right(self._rel, min(rel, 0xFFFFFFFF)) - 1
        if i < 0:
            return self.base_offset, 0
        return self.base_offset + self._rel[i], self._pos[i]

    def floor_position(self, position: int) -> int:
        """The largest indexed position <= `position` (0 if none): a batch boundary near it."""
        self._ensure_loaded()
        i = bisect_right(self._pos, position) - 1
        return self._pos[i] if i >= 0 else 0

    def truncate_to(self, offset: int) -> None:
        """Drop entries whose offset is >= `offset`."""
        self._ensure_loaded()
        keep = bisect_left(self._rel, max(0, offset - self.base_offset))
        if keep < len(self._rel):
            del self._rel[keep:]
            del self._pos[keep:]
            self._rewrite()

    def reset(self) -> None:
        self._rel = array("I")
        self._pos = array("I")
        self._loaded = True
        self._rewrite()


class TimeIndex(_IndexBase):
    """Maps the largest timestamp seen so far to the offset holding it; both monotonic."""

    entry_size = TIME_ENTRY_SIZE

    def __init__(self, path: Path, base_offset: int, max_index_size: int) -> None:
        super().__init__(path, base_offset, max_index_size)
        self._ts = array("q")
        self._rel = array("I")

    def _count(self) -> int:
        return len(self._ts)

    def load(self) -> None:
        data = self._read_file()
        n = len(data) // TIME_ENTRY_SIZE
        ts = array("q")
        rel = array("I")
        if n:
            # De-interleave the 12-byte entries with strided slice copies (C speed, no per-entry objects).
            ts_bytes = bytearray(8 * n)
            rel_bytes = bytearray(4 * n)
            for k in range(8):
                ts_bytes[k::8] = data[k::12]
            for k in range(4):
                rel_bytes[k::4] = data[8 + k :: 12]
            ts.frombytes(ts_bytes)
            rel.frombytes(rel_bytes)
            if _LITTLE:
                ts.byteswap()
                rel.byteswap()
        self._ts = ts
        self._rel = rel
        self._persisted = n
        self._loaded = True

    @classmethod
    def from_bytes(cls, data: bytes, base_offset: int) -> TimeIndex:
        """A read-only index over the bytes of a `.timeindex` file that is not ours to write (a
        remote segment's): the entries up to the first whose timestamp decreases (the zeroed tail
        of a preallocated file). Only the lookups are meant to be used on it."""
        n = len(data) // TIME_ENTRY_SIZE
        ts: list[int] = []
        rel: list[int] = []
        for i in range(n):
            t, r = _TIME_ENTRY.unpack_from(data, i * TIME_ENTRY_SIZE)
            if ts and t < ts[-1]:
                break
            ts.append(t)
            rel.append(r)
        index = cls(Path(os.devnull), base_offset, max(len(data), TIME_ENTRY_SIZE))
        index._ts, index._rel = array("q", ts), array("I", rel)
        index._persisted = len(ts)
        index._loaded = True
        return index

    def sanity_check(self) -> None:
        self._ensure_loaded()
        n = len(self._ts)
        if n > 1 and (self._ts[-1] < self._ts[-2] or self._rel[-1] < self._rel[-2]):
            raise IndexCorruptError(f"{self.path}: entries are not monotonic")
        if n > self.max_entries + 1:  # +1: the final entry written when the segment goes inactive
            raise IndexCorruptError(f"{self.path}: {n} entries exceed the maximum {self.max_entries}")

    def _encode(self, start: int, stop: int) -> bytes:
        ts = self._ts[start:stop]
        rel = self._rel[start:stop]
        if _LITTLE:
            ts.byteswap()
            rel.byteswap()
        ts_bytes = ts.tobytes()
        rel_bytes = rel.tobytes()
        out = bytearray(12 * (stop - start))
        for k in range(8):
            out[k::12] = ts_bytes[k::8]
        for k in range(4):
            out[8 + k :: 12] = rel_bytes[k::4]
        return bytes(out)

    @property
    def last_entry(self) -> tuple[int, int]:
        """(timestamp, offset) of the last entry, or (-1, base offset) when empty."""
        self._ensure_loaded()
        if not self._ts:
            return -1, self.base_offset
        return self._ts[-1], self.base_offset + self._rel[-1]

    @staticmethod
    def read_last_entry(path: Path, base_offset: int) -> tuple[int, int]:
        """The last entry straight from the file, without loading the whole index."""
        try:
            with open(path, "rb") as f:
                size = f.seek(0, os.SEEK_END)
                if size < TIME_ENTRY_SIZE or size % TIME_ENTRY_SIZE:
                    return -1, base_offset
                f.seek(size - TIME_ENTRY_SIZE)
                ts, rel = _TIME_ENTRY.unpack(f.read(TIME_ENTRY_SIZE))
                return ts, base_offset + rel
        except FileNotFoundError:
            return -1, base_offset

    def maybe_append(self, timestamp: int, offset: int, skip_full_check: bool = False) -> None:
        """Add an entry if `timestamp` is larger than the last one (entries stay monotonic)."""
        self._ensure_loaded()
        if self._ts and timestamp <= self._ts[-1]:
            return
        rel = offset - self.base_offset
        if self._rel and rel < self._rel[-1]:
            raise ValueError(f"time index offsets must not decrease: {offset}")
        if not skip_full_check and len(self._ts) >= self.max_entries:
            raise ValueError(f"time index {self.path} is full")
        self._ts.append(timestamp)
        self._rel.append(rel)

    def lookup_before(self, target_timestamp: int) -> tuple[int, int]:
        """(timestamp, offset) of the last entry with timestamp strictly below the target.

        Every record before that entry's offset has a timestamp <= the entry's (entries hold the
        running maximum), so none of them can be the first record with ts >= target: the search
        can start at that offset's batch. (-1, base offset) if there is no such entry.
        """
        self._ensure_loaded()
        i = bisect_left(self._ts, target_timestamp) - 1
        if i < 0:
            return -1, self.base_offset
        return self._ts[i], self.base_offset + self._rel[i]

    def truncate_to(self, offset: int) -> None:
        """Drop entries whose offset is >= `offset`."""
        self._ensure_loaded()
        keep = bisect_left(self._rel, max(0, offset - self.base_offset))
        if keep < len(self._rel):
            del self._ts[keep:]
            del self._rel[keep:]
            self._rewrite()

    def reset(self) -> None:
        self._ts = array("q")
        self._rel = array("I")
        self._loaded = True
        self._rewrite()
