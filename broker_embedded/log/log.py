"""One partition's log: a directory `<log_dir>/<topic>-<partition>/` of segments.

Offsets: `log_start_offset` <= `high_watermark` <= `log_end_offset` (LEO). The first segment's
base offset is <= log_start_offset (DeleteRecords may start the log mid-segment); the last
segment is the active one, the only one appended to.

Concurrency: the broker calls append/read from its event loop thread and may run flush,
retention, recovery or cleaning in a worker thread. Every mutation and every read takes
`self.lock` (an RLock); fsync runs outside it on duplicated descriptors so a slow disk never
stalls appends.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from kafka_wire.errors import CorruptRecordError, KafkaError, MessageTooLargeError, OffsetOutOfRangeError
from kafka_wire.records import (
    BATCH_HEADER_SIZE,
    LOG_OVERHEAD,
    BatchHeader,
    parse_batch_header,
    set_log_append_time,
    stamp_batch,
    validate_batch,
)

from .checkpoint import fsync_dir
from .config import LogConfig
from .dir_state import LogDirState
from .epoch_cache import LeaderEpochFileCache
from .errors import (
    InvalidProducerEpochError,
    OutOfOrderSequenceError,
    RecordBatchTooLargeError,
    UnexpectedAppendOffsetError,
)
from .loader import LogLoader
from .producer_state import ProducerCheckStatus, ProducerStateManager
from .retention import LogRetention
from .segment import (
    LogSegment,
)
from .segments import LogSegments
from .txn_index import AbortedTxn, index_marker

# ListOffsets special timestamps.
LATEST_TIMESTAMP = -1
EARLIEST_TIMESTAMP = -2
MAX_TIMESTAMP = -3
EARLIEST_LOCAL_TIMESTAMP = -4
LATEST_TIERED_TIMESTAMP = -5

_MIN_BATCH_LENGTH = BATCH_HEADER_SIZE - LOG_OVERHEAD
# Producer snapshots kept: the newest is all a restart needs; older ones only spare a replay
# after a deep truncation (without one, the state is replayed from the first segment).
_SNAPSHOTS_TO_KEEP = 3


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def parse_topic_partition_name(name: str) -> tuple[str, int]:
    """`my-topic-3` -> ("my-topic", 3): topics may contain '-', so split on the last one."""
    topic, sep, partition = name.rpartition("-")
    if not sep or not topic or not partition.isdigit():
        raise ValueError(f"not a partition directory name: {name!r}")
    return topic, int(partition)


def partition_dir_name(topic: str, partition: int) -> str:
    return f"{topic}-{partition}"


class AppendOrigin(Enum):
    CLIENT = "client"  # a producer: sequence numbers are checked
    COORDINATOR = "coordinator"  # group/transaction coordinator writes (markers, offsets)
    REPLICATION = "replication"


@dataclass(slots=True)
class LogOffsetMetadata:
    """An offset plus where it lives (the start of a fetch's data)."""

    message_offset: int
    segment_base_offset: int = -1
    relative_position_in_segment: int = -1


@dataclass(slots=True)
class AppendInfo:
    """Outcome of an append. For a duplicate batch nothing was written: the offsets are the
    original ones, to be returned to the producer with error NONE."""

    first_offset: int
    last_offset: int
    max_timestamp: int = -1
    offset_of_max_timestamp: int = -1
    log_append_time_ms: int = -1  # -1 unless the batches were stamped LogAppendTime
    log_start_offset: int = 0
    num_batches: int = 0
    num_records: int = 0
    valid_bytes: int = 0
    duplicate: bool = False


@dataclass(slots=True)
class FileRegion:
    """Where fetched bytes live on disk: what a sendfile-based network path would send."""

    path: Path
    fd: int
    position: int
    size: int


@dataclass(slots=True)
class FetchDataInfo:
    fetch_offset_metadata: LogOffsetMetadata
    records: memoryview  # whole batches; empty when nothing is available
    file_region: FileRegion | None = None
    first_entry_incomplete: bool = False  # min_one_batch=False and the first batch > max_bytes

    @property
    def size(self) -> int:
        return len(self.records)


@dataclass(slots=True)
class TimestampAndOffset:
    timestamp: int
    offset: int
    leader_epoch: int | None = None


class Log(LogRetention):
    """A partition's segments, offsets, producer state and leader epoch cache."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        config: LogConfig | None = None,
        *,
        log_start_offset: int = 0,
        recovery_point: int = 0,
        had_clean_shutdown: bool = False,
        clock: Callable[[], int] | None = None,
        dir_state: LogDirState | None = None,
    ) -> None:
        self.dir = Path(directory)
        # shared with the LogManager: a write error anywhere in the dir takes it offline
        self.dir_state = dir_state or LogDirState(self.dir.parent)
        self.topic, self.partition = parse_topic_partition_name(self.dir.name)
        self.config = config or LogConfig()
        self.clock = clock or _wall_clock_ms
        self.lock = threading.RLock()
        self.segments = LogSegments()  # set by the loader below
        self._log_start_offset = log_start_offset
        self._recovery_point = recovery_point
        self._leo = 0
        self._high_watermark = 0
        self._unflushed_messages = 0
        self._last_flush_ms = self.clock()
        self._closed = False
        # Offset up to which compaction has run (in memory: after a restart the first pass
        # re-cleans everything once, which is idempotent).
        self.cleaner_checkpoint = 0
        # Tiered storage (KIP-405): the highest offset copied to the remote tier, set by the
        # RemoteLogManager (-1: none). Local retention never deletes a segment above it.
        self.highest_offset_in_remote_storage = -1
        self.dir.mkdir(parents=True, exist_ok=True)
        self.leader_epoch_cache = LeaderEpochFileCache(self.dir)
        self.producer_state = ProducerStateManager(self.dir)
        loaded = LogLoader(
            self.dir,
            self._new_segment,
            self.leader_epoch_cache,
            self.producer_state,
            log_start_offset=log_start_offset,
            recovery_point=recovery_point,
            had_clean_shutdown=had_clean_shutdown,
        ).load()
        self.segments = loaded.segments
        self._log_start_offset = loaded.log_start_offset
        self._leo = loaded.log_end_offset
        self._recovery_point = loaded.recovery_point
        self._high_watermark = loaded.log_start_offset

    # ================================================================ segments (the map: segments.py)

    def _new_segment(self, base_offset: int, create: bool) -> LogSegment:
        return LogSegment(
            self.dir,
            base_offset,
            index_interval_bytes=self.config.index_interval_bytes,
            max_index_size=self.config.segment_index_bytes,
            created_ms=self.clock(),
            create=create,
        )

    # ================================================================ properties

    @property
    def active_segment(self) -> LogSegment:
        return self.segments.active

    @property
    def log_start_offset(self) -> int:
        return self._log_start_offset

    @property
    def log_end_offset(self) -> int:
        return self._leo

    @property
    def recovery_point(self) -> int:
        return self._recovery_point

    @property
    def high_watermark(self) -> int:
        return self._high_watermark

    def update_high_watermark(self, offset: int) -> int:
        """Set the HW (clamped to [log start, LEO]); the partition layer owns when it moves."""
        with self.lock:
            self._high_watermark = min(max(offset, self._log_start_offset), self._leo)
            return self._high_watermark

    @property
    def last_stable_offset(self) -> int:
        """min(first offset of any open transaction, HW): what read_committed consumers see."""
        fuo = self.producer_state.first_unstable_offset()
        return self._high_watermark if fuo is None else min(fuo, self._high_watermark)

    @property
    def size(self) -> int:
        """Bytes of all segments."""
        with self.lock:
            return self.segments.size_in_bytes

    @property
    def num_segments(self) -> int:
        return len(self.segments)

    @property
    def latest_epoch(self) -> int:
        return self.leader_epoch_cache.latest_epoch

    def end_offset_for_epoch(self, leader_epoch: int) -> tuple[int, int]:
        """(epoch, end offset) for OffsetForLeaderEpoch."""
        with self.lock:
            return self.leader_epoch_cache.end_offset_for(leader_epoch, self._leo)

    def update_config(self, config: LogConfig) -> None:
        with self.lock:
            self.config = config

    # ================================================================ append

    def _walk(
        self, buf: bytes | bytearray, verify_crc: bool, validated: BatchHeader | None = None
    ) -> list[tuple[int, BatchHeader]]:
        """(position, header) of each batch in `buf`, with the checks every append makes.

        `validated`: the header the produce path's validator already parsed and checked (CRC,
        magic, lengths, offset delta) when `buf` is exactly that one batch; only the log's own
        size limits are checked again (its config may have changed since)."""
        n = len(buf)
        if validated is not None and validated.batch_length + LOG_OVERHEAD == n:
            headers = [(0, validated)]
            self._check_sizes(n, n)
            return headers
        headers = []
        pos = 0
        max_message_bytes = self.config.max_message_bytes
        while pos < n:
            if verify_crc:
                h = validate_batch(buf, pos)
            else:
                h = parse_batch_header(buf, pos)
                if h.magic != 2:
                    raise CorruptRecordError(f"unsupported record batch magic {h.magic}")
                if h.batch_length < _MIN_BATCH_LENGTH or pos + h.batch_length + LOG_OVERHEAD > n:
                    raise CorruptRecordError(f"record batch at position {pos} has a bad length")
                if h.last_offset_delta < 0:
                    raise CorruptRecordError("negative last offset delta")
            size = h.batch_length + LOG_OVERHEAD
            if size > max_message_bytes:
                raise MessageTooLargeError(
                    f"record batch of {size} bytes exceeds max.message.bytes {max_message_bytes}"
                )
            headers.append((pos, h))
            pos += size
        self._check_sizes(0, n)
        return headers

    def _check_sizes(self, batch_size: int, n: int) -> None:
        if batch_size > self.config.max_message_bytes:
            raise MessageTooLargeError(
                f"record batch of {batch_size} bytes exceeds max.message.bytes {self.config.max_message_bytes}"
            )
        if n > self.config.segment_bytes:
            raise RecordBatchTooLargeError(f"{n} bytes of records exceed segment.bytes {self.config.segment_bytes}")

    def append_as_leader(
        self,
        records: bytes | bytearray | memoryview,
        leader_epoch: int,
        log_append_time_ms: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        validated: BatchHeader | None = None,
    ) -> AppendInfo:
        """Assign offsets to validated batches and append them.

        `records` is stamped in place when it is a bytearray (copied otherwise): each batch's base
        offset and partition leader epoch; for LogAppendTime (the argument, or the topic's
        message.timestamp.type) also its timestamp type and max timestamp, with a fresh CRC.
        Producer batches are checked for duplicates / sequence gaps / fenced epochs first:
        a duplicate returns the original offsets with `duplicate=True` and writes nothing;
        a gap raises OutOfOrderSequenceError, an old epoch InvalidProducerEpochError.
        `validated`: the batch's header from the produce path's validator (`ValidatedBatch.header`),
        so the header is not parsed again.
        """
        buf = records if isinstance(records, bytearray) else bytearray(records)
        with self.lock:
            self._ensure_open()
            headers = self._walk(buf, verify_crc=False, validated=validated)
            if not headers:
                return AppendInfo(-1, -1, log_start_offset=self._log_start_offset)
            if log_append_time_ms is None and self.config.log_append_time:
                log_append_time_ms = self.clock()
            staged = self.producer_state.start_append()
            next_offset = self._leo
            first_offset = next_offset
            batches: list[tuple[int, int, int, int]] = []
            controls: list[tuple[int, int | None, int, int]] = []  # transaction markers
            max_ts = -1
            offset_of_max_ts = -1
            num_records = 0
            for pos, h in headers:
                first = next_offset
                last = first + h.last_offset_delta
                if h.producer_id >= 0:
                    if origin is AppendOrigin.CLIENT or h.is_control:
                        check = staged.check(h)
                        if check.status is ProducerCheckStatus.DUPLICATE:
                            dup = check.duplicate
                            assert dup is not None
                            return AppendInfo(
                                dup.first_offset,
                                dup.last_offset,
                                max_timestamp=dup.timestamp,
                                offset_of_max_timestamp=dup.last_offset,
                                log_start_offset=self._log_start_offset,
                                num_batches=1,
                                num_records=h.record_count,
                                duplicate=True,
                            )
                        if check.status is ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER:
                            raise OutOfOrderSequenceError(check.message)
                        if check.status is ProducerCheckStatus.INVALID_PRODUCER_EPOCH:
                            raise InvalidProducerEpochError(check.message)
                    if h.is_control:
                        entry = staged._entry(h.producer_id)
                        txn_first = entry.current_txn_first_offset if entry is not None else None
                        controls.append((h.producer_id, txn_first, first, pos))
                    staged.add(h, first, last)
                stamp_batch(buf, pos, first, leader_epoch)
                if log_append_time_ms is not None:
                    set_log_append_time(buf, pos, log_append_time_ms)
                    batch_max_ts = log_append_time_ms
                else:
                    batch_max_ts = h.max_timestamp
                if batch_max_ts > max_ts:
                    max_ts, offset_of_max_ts = batch_max_ts, last
                batches.append((pos, h.batch_length + LOG_OVERHEAD, last, batch_max_ts))
                num_records += h.record_count
                next_offset = last + 1
            self._write(buf, batches, max_ts, first_offset, next_offset - 1)
            self._leo = next_offset
            self.producer_state.commit(staged, next_offset)
            for pid, txn_first, marker_offset, pos in controls:
                txn_index = self.segments.floor(marker_offset).txn_index
                index_marker(self.producer_state, txn_index, buf, pos, pid, txn_first, marker_offset)
            if leader_epoch >= 0:
                self.leader_epoch_cache.assign(leader_epoch, first_offset)
            self._after_append(num_records)
            return AppendInfo(
                first_offset,
                next_offset - 1,
                max_timestamp=max_ts,
                offset_of_max_timestamp=offset_of_max_ts,
                log_append_time_ms=log_append_time_ms if log_append_time_ms is not None else -1,
                log_start_offset=self._log_start_offset,
                num_batches=len(headers),
                num_records=num_records,
                valid_bytes=len(buf),
            )

    def append_as_follower(self, records: bytes | bytearray | memoryview) -> AppendInfo:
        """Append batches that already carry offsets and leader epochs (replication).

        Batches are CRC-checked (they crossed the network); offsets must be >= the LEO and
        increasing. Producer state and the leader epoch cache follow the batches.
        """
        buf = records if isinstance(records, (bytes, bytearray)) else bytes(records)
        with self.lock:
            self._ensure_open()
            headers = self._walk(buf, verify_crc=True)
            if not headers:
                return AppendInfo(-1, -1, log_start_offset=self._log_start_offset)
            first_offset = headers[0][1].base_offset
            if first_offset < self._leo:
                raise UnexpectedAppendOffsetError(
                    f"follower append at offset {first_offset} is below the log end offset {self._leo}"
                )
            expected = first_offset
            batches: list[tuple[int, int, int, int]] = []
            max_ts = -1
            offset_of_max_ts = -1
            num_records = 0
            for pos, h in headers:
                if h.base_offset < expected:
                    raise CorruptRecordError(f"offsets go backwards at {h.base_offset} (expected >= {expected})")
                if h.max_timestamp > max_ts:
                    max_ts, offset_of_max_ts = h.max_timestamp, h.last_offset
                batches.append((pos, h.size, h.last_offset, h.max_timestamp))
                num_records += h.record_count
                expected = h.next_offset
            self._write(buf, batches, max_ts, first_offset, expected - 1)
            self._leo = expected
            for pos, h in headers:
                if h.partition_leader_epoch >= 0:
                    self.leader_epoch_cache.assign(h.partition_leader_epoch, h.base_offset)
                if h.is_control and h.producer_id >= 0:
                    self._complete_txn(self.active_segment, h, buf, pos)
                self.producer_state.update(h, h.base_offset, h.last_offset)
            self.producer_state.map_end_offset = expected
            self._after_append(num_records)
            return AppendInfo(
                first_offset,
                expected - 1,
                max_timestamp=max_ts,
                offset_of_max_timestamp=offset_of_max_ts,
                log_start_offset=self._log_start_offset,
                num_batches=len(headers),
                num_records=num_records,
                valid_bytes=len(buf),
            )

    def _write(
        self,
        buf: bytes | bytearray,
        batches: list[tuple[int, int, int, int]],
        max_ts: int,
        first_offset: int,
        last_offset: int,
    ) -> None:
        """Roll if needed and write stamped batches; nothing in memory changes if this raises.

        An OSError (ENOSPC, EIO, ...) takes the log dir offline and becomes KAFKA_STORAGE_ERROR:
        the producer retries, and the torn bytes were cut by the segment."""
        self.dir_state.check_online(f"append to {self.topic}-{self.partition}")
        try:
            seg = self._maybe_roll(len(buf), max_ts, first_offset, last_offset)
            seg.append(buf, batches)
        except OSError as e:
            raise self.dir_state.fail(f"appending to log {self.topic}-{self.partition}", e, len(buf)) from None

    def _after_append(self, num_records: int) -> None:
        self._unflushed_messages += num_records
        if self._unflushed_messages >= self.config.flush_messages:
            try:
                self.flush()
            except OSError as e:
                # the records are in the log but not durable: answer the error (Kafka does the
                # same); an idempotent producer's retry is then acknowledged as a duplicate
                raise self.dir_state.fail(f"flushing log {self.topic}-{self.partition}", e) from None

    def _maybe_roll(self, records_size: int, max_timestamp: int, first_offset: int, last_offset: int) -> LogSegment:
        seg = self.active_segment
        cfg = self.config
        now = self.clock()
        if (
            seg.size > cfg.segment_bytes - records_size
            or (seg.size > 0 and seg.time_waited_for_roll(now, max_timestamp) > cfg.segment_ms - cfg.segment_jitter_ms)
            or seg.offset_index.is_full
            or seg.time_index.is_full
            or not seg.can_convert_to_relative_offset(last_offset)
        ):
            return self._roll_locked(first_offset)
        return seg

    def roll(self, expected_next_offset: int | None = None) -> LogSegment:
        """Start a new active segment at max(expected_next_offset, LEO)."""
        with self.lock:
            return self._roll_locked(expected_next_offset)

    def _roll_locked(self, expected_next_offset: int | None = None) -> LogSegment:
        new_base = max(expected_next_offset or 0, self._leo)
        old = self.active_segment
        if old.base_offset == new_base and old.size == 0:
            return old  # already empty at that offset: nothing to roll
        old.on_become_inactive()
        # Producer state as of the new base: a restart replays only the segments after it.
        self.producer_state.map_end_offset = self._leo
        self.producer_state.take_snapshot()
        self.producer_state.prune_snapshots(keep=_SNAPSHOTS_TO_KEEP)
        seg = self._new_segment(new_base, create=True)
        self.segments.add(seg)
        return seg

    # ================================================================ read

    def read(
        self,
        fetch_offset: int,
        max_bytes: int,
        max_offset: int | None = None,
        min_one_batch: bool = True,
    ) -> FetchDataInfo:
        """Whole batches starting with the one holding `fetch_offset`, from one segment.

        At most `max_bytes`, except that with `min_one_batch` the first batch is returned whole.
        Only batches whose base offset is below `max_offset` (the HW or LSO for consumers, None
        for followers) are returned. Raises OffsetOutOfRangeError outside [log start, LEO].
        """
        with self.lock:
            self._ensure_open()
            if fetch_offset < self._log_start_offset or fetch_offset > self._leo:
                raise OffsetOutOfRangeError(
                    f"offset {fetch_offset} is out of range [{self._log_start_offset}, {self._leo}] "
                    f"for {self.topic}-{self.partition}"
                )
            if fetch_offset == self._leo or (max_offset is not None and fetch_offset >= max_offset):
                seg = self.active_segment if fetch_offset == self._leo else self.segments.floor(fetch_offset)
                pos = seg.size if fetch_offset == self._leo else -1
                return FetchDataInfo(LogOffsetMetadata(fetch_offset, seg.base_offset, pos), memoryview(b""))
            segments = self.segments
            i = segments.floor_index(fetch_offset)
            while i < len(segments):
                seg = segments[i]
                r = seg.read(fetch_offset, max_bytes, max_offset, min_one_batch)
                if r is not None:
                    return FetchDataInfo(
                        LogOffsetMetadata(fetch_offset, seg.base_offset, r.position),
                        r.data,
                        FileRegion(seg.log_path, seg.fd, r.position, len(r.data)),
                        r.first_entry_incomplete,
                    )
                i += 1
            return FetchDataInfo(LogOffsetMetadata(fetch_offset), memoryview(b""))

    # ================================================================ transactions

    def _complete_txn(self, seg: LogSegment, h: BatchHeader, buf: bytes | bytearray | memoryview, pos: int) -> None:
        """A marker is about to be applied to the producer state: index its transaction if it
        was aborted (the producer state still knows where that transaction started)."""
        entry = self.producer_state.last_entry(h.producer_id)
        txn_first = entry.current_txn_first_offset if entry is not None else None
        index_marker(self.producer_state, seg.txn_index, buf, pos, h.producer_id, txn_first, h.base_offset)

    def collect_aborted_transactions(self, fetch_offset: int, upper_bound_offset: int) -> list[AbortedTxn]:
        """Aborted transactions overlapping [fetch_offset, upper_bound_offset): what a
        read_committed fetch of that range returns, so the consumer drops their records."""
        with self.lock:
            out: list[AbortedTxn] = []
            for seg in self.segments.from_offset(fetch_offset):
                out.extend(seg.txn_index.collect(fetch_offset, upper_bound_offset))
            return out

    # ================================================================ timestamps

    def offset_for_timestamp(self, timestamp: int) -> TimestampAndOffset | None:
        """ListOffsets: first offset whose record timestamp >= `timestamp`, exact to the record.

        Special values: -2 earliest (log start), -4 earliest local (same here), -1 latest (LEO;
        the caller clamps to HW/LSO for consumers), -3 the record with the max timestamp.
        Returns None if no record has a timestamp >= the target.
        """
        with self.lock:
            self._ensure_open()
            cache = self.leader_epoch_cache
            if timestamp in (EARLIEST_TIMESTAMP, EARLIEST_LOCAL_TIMESTAMP):
                lso = self._log_start_offset
                return TimestampAndOffset(-1, lso, cache.epoch_for_offset(lso))
            if timestamp == LATEST_TIMESTAMP:
                return TimestampAndOffset(-1, self._leo, cache.epoch_for_offset(self._leo - 1))
            if timestamp == MAX_TIMESTAMP:
                return self._max_timestamp_and_offset()
            if timestamp < 0:
                raise KafkaError(f"unsupported ListOffsets timestamp {timestamp}")
            for seg in self.segments:
                if seg.next_offset <= self._log_start_offset or seg.max_timestamp < timestamp:
                    continue
                found = seg.find_offset_by_timestamp(timestamp, max(seg.base_offset, self._log_start_offset))
                if found is not None:
                    ts, off = found
                    return TimestampAndOffset(ts, off, cache.epoch_for_offset(off))
            return None

    def _max_timestamp_and_offset(self) -> TimestampAndOffset | None:
        best: LogSegment | None = None
        for seg in self.segments:
            if seg.next_offset <= self._log_start_offset:
                continue
            if seg.max_timestamp >= 0 and (best is None or seg.max_timestamp > best.max_timestamp):
                best = seg
        if best is None:
            return None
        max_ts = best.max_timestamp
        shallow = best.offset_of_max_timestamp
        found = best.translate_offset(shallow)
        if found is not None:
            # Exact record: the first one in that batch carrying the max timestamp.
            from kafka_wire.records import decode_batch

            try:
                _, recs = decode_batch(best.read_bytes(found.position, found.size), 0, verify_crc=False)
                for r in recs:
                    if r.timestamp == max_ts and r.offset >= self._log_start_offset:
                        return TimestampAndOffset(max_ts, r.offset, self.leader_epoch_cache.epoch_for_offset(r.offset))
            except KafkaError:
                pass
        return TimestampAndOffset(max_ts, shallow, self.leader_epoch_cache.epoch_for_offset(shallow))

    # ================================================================ flush / close

    def flush(self, up_to_offset: int | None = None) -> None:
        """fsync segments holding offsets below `up_to_offset` (default LEO); advance the recovery point.

        The fsyncs run outside the lock on duplicated descriptors, so appends are not blocked.
        """
        with self.lock:
            if self._closed:
                return
            target = self._leo if up_to_offset is None else min(up_to_offset, self._leo)
            if target <= self._recovery_point:
                return
            fds: list[int] = []
            try:
                for seg in self.segments.from_offset(self._recovery_point):
                    if seg.base_offset >= target:
                        break
                    seg.offset_index.flush()
                    seg.time_index.flush()
                    fds.append(os.dup(seg.fd))
                    for p in (seg.offset_index.path, seg.time_index.path):
                        try:
                            fds.append(os.open(p, os.O_RDONLY))
                        except FileNotFoundError:
                            pass
            except BaseException:
                for fd in fds:
                    os.close(fd)
                raise
            self._unflushed_messages = 0
            self._last_flush_ms = self.clock()
        try:
            for fd in fds:
                os.fsync(fd)
            fsync_dir(self.dir)
        finally:
            for fd in fds:
                os.close(fd)
        with self.lock:
            self._recovery_point = max(self._recovery_point, min(target, self._leo))

    def flush_if_due(self, now_ms: int) -> bool:
        """Apply flush.ms, and flush segments already rolled (Kafka flushes a rolled segment soon)."""
        if now_ms - self._last_flush_ms >= self.config.flush_ms:
            self.flush()
            return True
        active_base = self.active_segment.base_offset
        if self._recovery_point < active_base:
            self.flush(active_base)
            return True
        return False

    @property
    def closed(self) -> bool:
        """Closed (broker shutdown) or deleted: a cleaning of it in progress is abandoned."""
        return self._closed

    def _ensure_open(self) -> None:
        if self._closed:
            raise KafkaError(f"log {self.dir} is closed")

    def close(self) -> None:
        """Flush everything, snapshot the producer state, close files. The log is then unusable."""
        error: OSError | None = None
        with self.lock:
            if self._closed:
                return
            pristine = (
                len(self.segments) == 1
                and self.active_segment.size == 0
                and self._leo == self._log_start_offset
                and not self.producer_state.entries
                and not self.segments.has_scheduled_deletes
            )
            if pristine:
                # never written (mass-created partitions): nothing to snapshot, flush or fsync
                self.active_segment.close_handles()
                self._closed = True
                return
            try:
                self.producer_state.map_end_offset = self._leo
                self.producer_state.take_snapshot(fsync=True)
                dirty_from = self.segments.floor_index(self._recovery_point)
                for i, seg in enumerate(self.segments):
                    if i >= dirty_from:
                        seg.on_become_inactive()  # the final time index entry, as Kafka writes on close
                        seg.flush()
                fsync_dir(self.dir)
                self._recovery_point = self._leo
            except OSError as e:
                # a full or failing disk: the descriptors are still closed below; what was not
                # flushed or snapshotted is rebuilt by recovery at the next start
                error = e
            for seg in self.segments:
                try:
                    seg.close()
                except OSError as e:
                    error = error or e
                    seg.close_handles()
            self._closed = True
        if error is not None:
            raise self.dir_state.fail(f"closing log {self.topic}-{self.partition}", error)
        self.delete_pending_segments(force=True)

    def delete(self) -> None:
        """Close and remove the partition directory."""
        with self.lock:
            if not self._closed:
                for seg in self.segments:
                    seg.close_handles()
                self._closed = True
        for seg in self.segments.take_due_deletes(0, force=True):
            seg.close_handles()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __repr__(self) -> str:
        return (
            f"Log({self.topic}-{self.partition}, start={self._log_start_offset}, leo={self._leo}, "
            f"segments={len(self.segments)})"
        )
