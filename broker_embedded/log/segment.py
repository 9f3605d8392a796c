"""One log segment: `<base offset>.log` plus its `.index` and `.timeindex`.

The `.log` file is a plain concatenation of record batches (v2) exactly as they travel on the
wire, with offsets already assigned. Appends go through `os.pwrite` and reads through
`os.pread` on one kept-open descriptor, so a reader never disturbs the writer's position and the
network layer could `sendfile` the same (fd, position, size) region.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from crc32c import crc32c

from kafka_wire.errors import KafkaError
from kafka_wire.records import BATCH_HEADER_SIZE, LOG_OVERHEAD

from .index import IndexCorruptError, OffsetIndex, TimeIndex
from .txn_index import TXN_INDEX_FILE_SUFFIX, TransactionIndex

LOG_FILE_SUFFIX = ".log"
INDEX_FILE_SUFFIX = ".index"
TIME_INDEX_FILE_SUFFIX = ".timeindex"
DELETED_FILE_SUFFIX = ".deleted"
CLEANED_FILE_SUFFIX = ".cleaned"
SWAP_FILE_SUFFIX = ".swap"

# Header fields by index in the tuple unpacked with _HEADER (same layout as kafka_wire.records).
_HEADER = struct.Struct(">qiibIhiqqqhii")
H_BASE_OFFSET = 0
H_BATCH_LENGTH = 1
H_LEADER_EPOCH = 2
H_MAGIC = 3
H_CRC = 4
H_ATTRIBUTES = 5
H_LAST_OFFSET_DELTA = 6
H_MAX_TIMESTAMP = 8
H_PRODUCER_ID = 9
H_PRODUCER_EPOCH = 10
H_BASE_SEQUENCE = 11
H_RECORD_COUNT = 12

HeaderTuple = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int]

_SCAN_CHUNK = 16 * 1024  # header scans read this much at a time: several small batches per syscall
_RECOVERY_CHUNK = 8 * 1024 * 1024
_MAX_RELATIVE_OFFSET = 0x7FFFFFFF


def filename_prefix(offset: int) -> str:
    """Kafka names segment files by their base offset, zero-padded to 20 digits."""
    return f"{offset:020d}"


def log_file_path(directory: Path, base_offset: int, suffix: str = "") -> Path:
    return directory / (filename_prefix(base_offset) + LOG_FILE_SUFFIX + suffix)


def _pwrite_all(fd: int, data: bytes | bytearray | memoryview, position: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, position)
        view = view[n:]
        position += n


@dataclass(slots=True)
class BatchPosition:
    """Where a batch lives in a segment file."""

    position: int
    base_offset: int
    last_offset: int
    size: int


@dataclass(slots=True)
class SegmentRead:
    """Whole batches read from one segment: `data` is the bytes at [position, position + len)."""

    position: int
    data: memoryview
    first_entry_incomplete: bool = False


class LogSegment:
    """A segment's files and in-memory state. Not thread-safe: the owning Log serialises access."""

    def __init__(
        self,
        directory: Path,
        base_offset: int,
        *,
        index_interval_bytes: int = 4096,
        max_index_size: int = 10485760,
        created_ms: int = 0,
        create: bool = False,
        file_suffix: str = "",
    ) -> None:
        self.directory = directory
        self.base_offset = base_offset
        self.index_interval_bytes = index_interval_bytes
        self.created_ms = created_ms
        prefix = filename_prefix(base_offset)
        self.log_path = directory / (prefix + LOG_FILE_SUFFIX + file_suffix)
        self.offset_index = OffsetIndex(
            directory / (prefix + INDEX_FILE_SUFFIX + file_suffix), base_offset, max_index_size
        )
        self.time_index = TimeIndex(
            directory / (prefix + TIME_INDEX_FILE_SUFFIX + file_suffix), base_offset, max_index_size
        )
        # aborted transactions whose ABORT marker is in this segment (a file only once it has one)
        self.txn_index = TransactionIndex(directory / (prefix + TXN_INDEX_FILE_SUFFIX + file_suffix))
        flags = os.O_RDWR | os.O_CREAT | (os.O_TRUNC if create else 0)
        self._fd: int | None = os.open(self.log_path, flags, 0o644)
        self.size = os.fstat(self._fd).st_size
        if create:
            self.offset_index.reset()
            self.time_index.reset()
        self._next_offset: int | None = base_offset if create else None
        self._max_timestamp = -1
        self._offset_of_max_timestamp = base_offset
        self._tail_loaded = create
        self._first_batch_timestamp: int | None = None
        self.bytes_since_last_index_entry = 0
        self._indexes_checked = create

    # ------------------------------------------------------------------ properties

    @property
    def fd(self) -> int:
        if self._fd is None:
            raise KafkaError(f"segment {self.log_path} is closed")
        return self._fd

    @property
    def next_offset(self) -> int:
        """One past the last offset in this segment (the base offset when empty)."""
        if self._next_offset is None:
            self._load_tail()
        assert self._next_offset is not None
        return self._next_offset

    @property
    def max_timestamp(self) -> int:
        """Largest batch max timestamp in the segment, -1 if none."""
        if not self._tail_loaded:
            self._load_tail()
        return self._max_timestamp

    @property
    def offset_of_max_timestamp(self) -> int:
        """Last offset of the batch holding max_timestamp (Kafka's shallow offset)."""
        if not self._tail_loaded:
            self._load_tail()
        return self._offset_of_max_timestamp

    @property
    def largest_timestamp(self) -> int:
        """What time retention compares: the max timestamp, or the file's mtime without one."""
        ts = self.max_timestamp
        if ts >= 0:
            return ts
        return int(os.stat(self.log_path).st_mtime * 1000)

    @property
    def first_batch_timestamp(self) -> int:
        """Max timestamp of the first batch (-1 if empty): what segment.ms rolls are relative to."""
        if self._first_batch_timestamp is None:
            if self.size < BATCH_HEADER_SIZE:
                return -1
            buf = os.pread(self.fd, BATCH_HEADER_SIZE, 0)
            if len(buf) < BATCH_HEADER_SIZE:
                return -1
            self._first_batch_timestamp = _HEADER.unpack_from(buf, 0)[H_MAX_TIMESTAMP]
        return self._first_batch_timestamp

    def time_waited_for_roll(self, now_ms: int, message_timestamp: int) -> int:
        first = self.first_batch_timestamp
        if first >= 0:
            return message_timestamp - first
        return now_ms - self.created_ms

    def can_convert_to_relative_offset(self, offset: int) -> bool:
        return 0 <= offset - self.base_offset <= _MAX_RELATIVE_OFFSET

    # ------------------------------------------------------------------ loading

    def _load_tail(self) -> None:
        """Find next offset and max timestamp by scanning the batches after the last index entry."""
        if self.offset_index._loaded:
            _, pos = self.offset_index.lookup(2**63 - 1)
        else:
            pos = _read_last_offset_index_position(self.offset_index.path)
        if self.time_index._loaded:
            max_ts, off_max = self.time_index.last_entry
        else:
            max_ts, off_max = TimeIndex.read_last_entry(self.time_index.path, self.base_offset)
        if pos >= self.size:
            pos = 0  # stale index: fall back to a full scan
        next_offset = self.base_offset
        for p, h in self.iter_headers(pos):
            next_offset = h[H_BASE_OFFSET] + h[H_LAST_OFFSET_DELTA] + 1
            if h[H_MAX_TIMESTAMP] > max_ts:
                max_ts = h[H_MAX_TIMESTAMP]
                off_max = next_offset - 1
            self.bytes_since_last_index_entry = p + h[H_BATCH_LENGTH] + LOG_OVERHEAD - pos
        if pos == 0 and next_offset == self.base_offset and self.size > 0:
            # Index pointed nowhere useful and nothing parsed: keep base offset (empty/torn file).
            pass
        self._next_offset = next_offset
        self._max_timestamp = max_ts
        self._offset_of_max_timestamp = off_max
        self._tail_loaded = True

    def sanity_check(self) -> None:
        """Raise IndexCorruptError if the indexes are unusable (they will then be rebuilt)."""
        self.offset_index.sanity_check(max(self.size, 1))
        self.time_index.sanity_check()

    # ------------------------------------------------------------------ scanning

    def iter_headers(self, start: int = 0, end: int | None = None) -> Iterator[tuple[int, HeaderTuple]]:
        """(position, header tuple) of each complete batch in [start, end); stops at a torn tail."""
        fd = self.fd
        end = self.size if end is None else end
        unpack = _HEADER.unpack_from
        buf = b""
        buf_start = start
        pos = start
        while pos + BATCH_HEADER_SIZE <= end:
            off = pos - buf_start
            if off + BATCH_HEADER_SIZE > len(buf):
                buf = os.pread(fd, min(_SCAN_CHUNK, end - pos), pos)
                buf_start = pos
                off = 0
                if len(buf) < BATCH_HEADER_SIZE:
                    return
            h = unpack(buf, off)
            size = h[H_BATCH_LENGTH] + LOG_OVERHEAD
            if size < BATCH_HEADER_SIZE or pos + size > end:
                return
            yield pos, h
            pos += size

    def _checked_indexes(self) -> None:
        """Before the first lookup in a lazily opened segment, make sure its indexes are sane."""
        if not self._indexes_checked:
            self._indexes_checked = True
            self.rebuild_indexes_if_needed()

    def translate_offset(self, offset: int, start_position: int = 0) -> BatchPosition | None:
        """The first batch whose last offset is >= `offset` (the one holding it, if any)."""
        self._checked_indexes()
        _, pos = self.offset_index.lookup(offset)
        pos = max(pos, start_position)
        for p, h in self.iter_headers(pos):
            last = h[H_BASE_OFFSET] + h[H_LAST_OFFSET_DELTA]
            if last >= offset:
                return BatchPosition(p, h[H_BASE_OFFSET], last, h[H_BATCH_LENGTH] + LOG_OVERHEAD)
        return None

    def read_bytes(self, position: int, size: int) -> bytes:
        return os.pread(self.fd, size, position)

    # ------------------------------------------------------------------ append / read

    def append(self, records: bytes | bytearray | memoryview, batches: list[tuple[int, int, int, int]]) -> None:
        """Append already-stamped batches. `batches`: (position in records, size, last offset, max ts)."""
        if not batches:
            return
        base_pos = self.size
        if base_pos == 0:
            self._first_batch_timestamp = batches[0][3]
        if not self._tail_loaded:
            self._load_tail()
        try:
            _pwrite_all(self.fd, records, base_pos)
        except OSError:
            # ENOSPC/EIO part way: cut the torn bytes so they are never read back or kept. If
            # even the truncate fails, `size` still ends before them: reads stop there, the next
            # append overwrites them, and the log dir's error forces recovery at the next start.
            try:
                os.ftruncate(self.fd, base_pos)
            except OSError:
                pass
            raise
        interval = self.index_interval_bytes
        for rel_pos, size, last_offset, max_ts in batches:
            if max_ts > self._max_timestamp:
                self._max_timestamp = max_ts
                self._offset_of_max_timestamp = last_offset
            # A full index just stops growing (lookups scan a little further); the log rolls
            # before the next append. Never fail here: the bytes are already written.
            if self.bytes_since_last_index_entry > interval and not self.offset_index.is_full:
                self.offset_index.append(last_offset, base_pos + rel_pos)
                if not self.time_index.is_full:
                    self.time_index.maybe_append(self._max_timestamp, self._offset_of_max_timestamp)
                self.bytes_since_last_index_entry = 0
            self.bytes_since_last_index_entry += size
        self.size = base_pos + len(records)
        self._next_offset = batches[-1][2] + 1

    def read(
        self, start_offset: int, max_size: int, max_offset: int | None = None, min_one_batch: bool = True
    ) -> SegmentRead | None:
        """Whole batches from the one holding `start_offset`, at most `max_size` bytes.

        Only batches whose base offset is below `max_offset` are returned. With `min_one_batch`
        the first batch is returned whole even when larger than `max_size`. Returns None when no
        batch in this segment has an offset >= start_offset (the caller moves to the next one).
        """
        start = self.translate_offset(start_offset)
        if start is None:
            return None
        pos = start.position
        empty = memoryview(b"")
        if max_offset is not None and start.base_offset >= max_offset:
            return SegmentRead(pos, empty)
        limit = self.size
        if max_offset is not None and max_offset < self.next_offset:
            stop = self.translate_offset(max_offset, pos)
            if stop is not None:
                # A batch straddling max_offset (never the case for a HW) counts as below it.
                limit = stop.position + stop.size if stop.base_offset < max_offset else stop.position
        want = min(max_size, limit - pos)
        if want < start.size:
            if not min_one_batch:
                return SegmentRead(pos, empty, first_entry_incomplete=True)
            want = start.size
        data = os.pread(self.fd, want, pos)
        cut = pos + len(data)
        if cut < limit:
            # Cut by max_size: trim to the last whole batch. Jump to an indexed batch boundary
            # close to the cut so this walk is short however large the read.
            p = max(self.offset_index.floor_position(cut), pos)
            unpack = _LENGTH.unpack_from
            while p + LOG_OVERHEAD <= cut:
                size = unpack(data, p - pos + 8)[0] + LOG_OVERHEAD
                if p + size > cut:
                    break
                p += size
            if p == pos and min_one_batch:
                p = pos + min(start.size, len(data))
            return SegmentRead(pos, memoryview(data)[: p - pos])
        return SegmentRead(pos, memoryview(data))

    def find_offset_by_timestamp(self, target_timestamp: int, starting_offset: int) -> tuple[int, int] | None:
        """(timestamp, offset) of the first record with ts >= target and offset >= starting_offset."""
        self._checked_indexes()
        _, entry_offset = self.time_index.lookup_before(target_timestamp)
        _, pos = self.offset_index.lookup(max(entry_offset, starting_offset))
        for p, h in self.iter_headers(pos):
            last = h[H_BASE_OFFSET] + h[H_LAST_OFFSET_DELTA]
            if h[H_MAX_TIMESTAMP] < target_timestamp or last < starting_offset:
                continue
            found = self._first_record_at_or_after(p, h, target_timestamp, starting_offset)
            if found is not None:
                return found
        return None

    def _first_record_at_or_after(
        self, position: int, h: HeaderTuple, target_timestamp: int, starting_offset: int
    ) -> tuple[int, int] | None:
        size = h[H_BATCH_LENGTH] + LOG_OVERHEAD
        try:
            from kafka_wire.records import decode_batch

            _, records = decode_batch(self.read_bytes(position, size), 0, verify_crc=False)
        except (KafkaError, ImportError):
            # Undecodable (or unknown codec): fall back to batch granularity, as Kafka did pre-KIP-33.
            return h[H_MAX_TIMESTAMP], max(h[H_BASE_OFFSET], starting_offset)
        for r in records:
            if r.timestamp >= target_timestamp and r.offset >= starting_offset:
                return r.timestamp, r.offset
        return None

    # ------------------------------------------------------------------ recovery / truncation

    def recover(self, on_batch: Callable[[HeaderTuple], None] | None = None) -> int:
        """Validate every batch, rebuild both indexes, and cut the file at the first bad batch.

        Returns the number of bytes truncated. `on_batch` sees each valid batch header (used to
        rebuild the leader epoch cache).
        """
        self.offset_index.reset()
        self.time_index.reset()
        fd = self.fd
        file_size = os.fstat(fd).st_size
        unpack = _HEADER.unpack_from
        pos = 0
        buf = b""
        view = memoryview(buf)
        buf_start = 0
        next_offset = self.base_offset
        max_ts = -1
        off_max = self.base_offset
        since_index = 0
        first_ts: int | None = None
        interval = self.index_interval_bytes
        while pos + BATCH_HEADER_SIZE <= file_size:
            off = pos - buf_start
            if off + BATCH_HEADER_SIZE > len(buf):
                buf = os.pread(fd, min(_RECOVERY_CHUNK, file_size - pos), pos)
                buf_start, off = pos, 0
                view = memoryview(buf)
            h = unpack(buf, off)
            size = h[H_BATCH_LENGTH] + LOG_OVERHEAD
            if size < BATCH_HEADER_SIZE or pos + size > file_size:
                break  # torn write: the tail batch is incomplete
            if off + size > len(buf):
                buf = os.pread(fd, max(_RECOVERY_CHUNK, size), pos)
                buf_start, off = pos, 0
                view = memoryview(buf)
            # Validate as kafka_wire.records.validate_batch does, reusing the header tuple.
            if (
                h[H_MAGIC] != 2
                or h[H_LAST_OFFSET_DELTA] < 0
                or h[H_RECORD_COUNT] < 0
                or h[H_ATTRIBUTES] & 0x07 > 4
                or crc32c(view[off + 21 : off + size]) != h[H_CRC]
            ):
                break  # corrupt (bad magic or CRC): everything from here on is discarded
            base = h[H_BASE_OFFSET]
            last = base + h[H_LAST_OFFSET_DELTA]
            if base < next_offset or not self.can_convert_to_relative_offset(last):
                break  # offsets must increase within a segment
            if first_ts is None:
                first_ts = h[H_MAX_TIMESTAMP]
            if h[H_MAX_TIMESTAMP] > max_ts:
                max_ts, off_max = h[H_MAX_TIMESTAMP], last
            if since_index > interval:
                self.offset_index.append(last, pos)
                self.time_index.maybe_append(max_ts, off_max)
                since_index = 0
            since_index += size
            if on_batch is not None:
                on_batch(h)
            next_offset = last + 1
            pos += size
        truncated = file_size - pos
        if truncated:
            os.ftruncate(fd, pos)
        self.size = pos
        self._next_offset = next_offset
        self._max_timestamp = max_ts
        self._offset_of_max_timestamp = off_max
        self._tail_loaded = True
        self._first_batch_timestamp = first_ts
        self.bytes_since_last_index_entry = since_index
        self._indexes_checked = True
        self.offset_index.flush()
        self.time_index.flush()
        return truncated

    def truncate_to(self, offset: int) -> int:
        """Remove the batch holding `offset` and everything after it; returns bytes removed."""
        found = self.translate_offset(offset)
        if found is None:
            return 0
        removed = self.size - found.position
        self.offset_index.truncate_to(offset)
        self.time_index.truncate_to(offset)
        self.txn_index.truncate_to(offset)
        os.ftruncate(self.fd, found.position)
        self.size = found.position
        self._next_offset = None
        self._first_batch_timestamp = None
        self._tail_loaded = False
        self.bytes_since_last_index_entry = 0
        self._load_tail()
        return removed

    def rebuild_indexes_if_needed(self) -> bool:
        """Sanity-check the indexes and rebuild them (via recover) if corrupt. True if rebuilt."""
        try:
            self.sanity_check()
        except IndexCorruptError:
            self.recover()
            return True
        return False

    # ------------------------------------------------------------------ lifecycle

    def on_become_inactive(self) -> None:
        """Called when a newer segment becomes active: record the final max timestamp, write indexes."""
        self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp, skip_full_check=True)
        self.offset_index.flush()
        self.time_index.flush()

    def flush(self) -> None:
        """fsync the log and its indexes."""
        os.fsync(self.fd)
        self.offset_index.flush(fsync=True)
        self.time_index.flush(fsync=True)
        self.txn_index.flush()

    def close(self) -> None:
        if self._fd is None:
            return
        if self.time_index._loaded and self._tail_loaded and self._max_timestamp >= 0:
            self.time_index.maybe_append(self._max_timestamp, self._offset_of_max_timestamp, skip_full_check=True)
        self.offset_index.flush()
        self.time_index.flush()
        os.close(self._fd)
        self._fd = None

    def close_handles(self) -> None:
        """Close the descriptor without touching the files (they are about to be deleted)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def change_file_suffix(self, old_suffix: str, new_suffix: str) -> None:
        """Rename all three files (e.g. to `.deleted`); an open descriptor stays valid."""

        def renamed(p: Path) -> Path:
            name = p.name[: len(p.name) - len(old_suffix)] if old_suffix else p.name
            return p.with_name(name + new_suffix)

        new_log = renamed(self.log_path)
        if self.log_path.exists():
            os.replace(self.log_path, new_log)
        self.log_path = new_log
        self.offset_index.rename(renamed(self.offset_index.path))
        self.time_index.rename(renamed(self.time_index.path))
        self.txn_index.rename(renamed(self.txn_index.path))

    def delete_files(self) -> None:
        self.close_handles()
        for p in (self.log_path, self.offset_index.path, self.time_index.path, self.txn_index.path):
            try:
                p.unlink()
            except FileNotFoundError:
                pass

    def __repr__(self) -> str:
        return f"LogSegment(base_offset={self.base_offset}, size={self.size}, path={self.log_path.name})"


_LENGTH = struct.Struct(">i")


def _read_last_offset_index_position(path: Path) -> int:
    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            if size < 8 or size % 8:
                return 0
            f.seek(size - 8)
            _, position = struct.unpack(">II", f.read(8))
            return position
    except FileNotFoundError:
        return 0
