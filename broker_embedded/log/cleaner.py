"""Log compaction for `cleanup.policy=compact` (what `__consumer_offsets` needs).

Kafka's two passes, simplified:

1. Build an offset map `key -> latest offset` over the *dirty* section (records appended since
   the last cleaning), up to the first uncleanable offset: the active segment's base, the first
   open transaction, the high watermark, and segments younger than `min.compaction.lag.ms`.
2. Rewrite every cleanable segment, keeping a keyed record only if no later record has the same
   key. A tombstone (null value) that is the latest for its key is kept for
   `delete.retention.ms` (measured from its timestamp) so consumers see the delete, then dropped.
   Offsets are preserved (compacted logs have gaps); batches keep their base offset, producer
   fields, compression and timestamp type. A producer's latest batch is never filtered, so
   idempotence state survives cleaning. Keyless records are kept.

Transactions (Kafka's rules): nothing at or above the LSO is cleaned; records of aborted
transactions neither enter the offset map (they must not shadow committed records) nor survive
the rewrite; a transaction marker is kept while records of its transaction remain, and then until
`delete.retention.ms` after its timestamp (a consumer reading up to it still sees the marker). An
aborted batch kept as its producer's latest keeps its aborted-transaction index entry and marker.

Crash safety (Kafka's protocol): cleaned segments are written as `*.cleaned`, fsynced, renamed to
`*.swap`; then the replaced segments are renamed `*.deleted` and the swap files to their final
names. On load, `*.cleaned` files are discarded and a `*.swap` replaces whatever it covers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from kafka_wire.errors import KafkaError
from kafka_wire.records import (
    BatchHeader,
    ControlRecordType,
    Record,
    build_batch,
    decode_batch,
    decode_control_record,
    parse_batch_header,
)

from .checkpoint import fsync_dir
from .log import Log
from .segment import (
    CLEANED_FILE_SUFFIX,
    DELETED_FILE_SUFFIX,
    H_BATCH_LENGTH,
    LOG_OVERHEAD,
    SWAP_FILE_SUFFIX,
    LogSegment,
)
from .throttler import CleanerAborted, Throttler
from .txn_index import AbortedTxn

_MAX_RELATIVE_OFFSET = 0x7FFFFFFF


@dataclass
class _TxnState:
    """What the rewrite knows about transactions while it walks the log in offset order."""

    aborted: dict[int, list[AbortedTxn]]  # producer id -> its aborted transactions
    has_data: dict[int, bool] = field(default_factory=dict)  # records of the producer's txn kept
    retained_aborted: set[AbortedTxn] = field(default_factory=set)

    def aborted_txn(self, h: BatchHeader) -> AbortedTxn | None:
        if h.producer_id < 0 or not h.is_transactional:
            return None
        for a in self.aborted.get(h.producer_id, ()):
            if a.first_offset <= h.base_offset <= a.last_offset:
                return a
        return None


@dataclass(slots=True)
class CleanerStats:
    segments_in: int = 0
    segments_out: int = 0
    bytes_in: int = 0
    bytes_out: int = 0
    records_removed: int = 0


def _cleanable_end(log: Log, now_ms: int) -> int:
    """First offset the cleaner must not touch (it cleans only whole segments below it)."""
    end = min(log.active_segment.base_offset, log.high_watermark)
    fuo = log.producer_state.first_unstable_offset()
    if fuo is not None:
        end = min(end, fuo)
    lag = log.config.min_compaction_lag_ms
    if lag > 0:
        for seg in log.segments[:-1]:
            if now_ms - seg.largest_timestamp < lag:
                end = min(end, seg.base_offset)
                break
    return end


def clean_log(log: Log, now_ms: int, force: bool = False, throttler: Throttler | None = None) -> CleanerStats | None:
    """Compact `log` if its dirty ratio reaches min.cleanable.dirty.ratio (or `force`).

    Every batch read (both passes) and written is reported to `throttler` (the cleaner threads'
    shared log.cleaner.io.max.bytes.per.second, as Kafka's Cleaner reports each buffer), which may
    sleep there; no lock of the log is held at those points.

    Safe to call from a worker thread while the event loop appends: files are rewritten without
    the log lock, which is taken only to swap segments (and the pass is abandoned if retention or
    truncation changed those segments meanwhile). Returns None when there was nothing to do.
    """
    with log.lock:
        end = _cleanable_end(log, now_ms)
        group_all = [s for s in log.segments if s.next_offset <= end and s.size > 0]
        if not group_all:
            return None
        first_dirty = max(log.cleaner_checkpoint, log.log_start_offset)
        dirty = [s for s in group_all if s.next_offset > first_dirty]
        if not dirty and not force:
            return None
        total = sum(s.size for s in group_all)
        dirty_bytes = sum(s.size for s in dirty)
        if not force and dirty_bytes / max(total, 1) < log.config.min_cleanable_dirty_ratio:
            return None
        latest_producer_batches = {e.last_offset for e in log.producer_state.entries.values() if e.batches}
        segments = list(group_all)
        clean_upto = segments[-1].next_offset
        aborted: dict[int, list[AbortedTxn]] = {}
        for a in log.collect_aborted_transactions(log.log_start_offset, clean_upto):
            aborted.setdefault(a.producer_id, []).append(a)
    txn = _TxnState(aborted)

    def throttle(observed: float) -> None:
        if log.closed:  # deleted or shut down meanwhile (Kafka's checkDone): drop the cleaning
            raise CleanerAborted(f"log {log.dir} closed")
        if throttler is not None:
            throttler.maybe_throttle(observed)

    # Pass 1: key -> latest offset over the dirty section.
    offset_map: dict[bytes, int] = {}
    for seg in dirty:
        for pos, h in seg.iter_headers():
            batch = seg.read_bytes(pos, h[H_BATCH_LENGTH] + LOG_OVERHEAD)
            throttle(len(batch))
            try:
                hdr, records = decode_batch(batch, 0, verify_crc=False)
            except KafkaError:
                continue
            if hdr.is_control or txn.aborted_txn(hdr) is not None:
                continue
            for r in records:
                if r.key is not None and r.offset >= first_dirty:
                    offset_map[r.key] = r.offset

    # Pass 2: rewrite in groups that fit one segment.
    stats = CleanerStats()
    delete_horizon = now_ms - log.config.delete_retention_ms
    for group in _group_segments(segments, log.config.segment_bytes):
        cleaned = _clean_group(log, group, offset_map, latest_producer_batches, delete_horizon, stats, txn, throttle)
        if cleaned is None:
            return stats  # the log changed under us: try again next time
    with log.lock:
        log.cleaner_checkpoint = max(log.cleaner_checkpoint, clean_upto)
    return stats


def _group_segments(segments: list[LogSegment], max_bytes: int) -> list[list[LogSegment]]:
    groups: list[list[LogSegment]] = []
    cur: list[LogSegment] = []
    size = 0
    for seg in segments:
        fits = cur and size + seg.size <= max_bytes and seg.next_offset - 1 - cur[0].base_offset <= _MAX_RELATIVE_OFFSET
        if cur and not fits:
            groups.append(cur)
            cur, size = [], 0
        cur.append(seg)
        size += seg.size
    if cur:
        groups.append(cur)
    return groups


def _clean_group(
    log: Log,
    group: list[LogSegment],
    offset_map: dict[bytes, int],
    latest_producer_batches: set[int],
    delete_horizon: int,
    stats: CleanerStats,
    txn: _TxnState,
    throttle: Callable[[float], None],
) -> LogSegment | None:
    base = group[0].base_offset
    out = LogSegment(
        log.dir,
        base,
        index_interval_bytes=log.config.index_interval_bytes,
        max_index_size=log.config.segment_index_bytes,
        created_ms=log.clock(),
        create=True,
        file_suffix=CLEANED_FILE_SUFFIX,
    )
    try:
        for seg in group:
            stats.segments_in += 1
            stats.bytes_in += seg.size
            for pos, h in seg.iter_headers():
                raw = seg.read_bytes(pos, h[H_BATCH_LENGTH] + LOG_OVERHEAD)
                throttle(len(raw))
                kept = _filter_batch(raw, offset_map, latest_producer_batches, delete_horizon, stats, txn)
                if kept is not None:
                    hdr = parse_batch_header(kept)
                    out.append(kept, [(0, len(kept), hdr.last_offset, hdr.max_timestamp)])
                    throttle(len(kept))
                    if hdr.is_control:
                        entry = next((a for a in txn.retained_aborted if a.last_offset == hdr.base_offset), None)
                        if entry is not None:
                            out.txn_index.append(entry)  # its aborted data is still there
        out.on_become_inactive()
        out.flush()
        out.change_file_suffix(CLEANED_FILE_SUFFIX, SWAP_FILE_SUFFIX)
        fsync_dir(log.dir)
    except BaseException:
        out.delete_files()
        raise
    with log.lock:
        if log.closed or log.segments.index_of_run(group) is None:
            # closed (deleted, shut down), or retention or truncation changed these segments meanwhile
            out.delete_files()
            return None
        # Old files go to .deleted first, so the swap can take the first one's name.
        for seg in group:
            seg.change_file_suffix("", DELETED_FILE_SUFFIX)
        out.change_file_suffix(SWAP_FILE_SUFFIX, "")
        fsync_dir(log.dir)
        log.segments.replace(group, out)
        log.segments.schedule_delete(group, log.clock() + log.config.file_delete_delay_ms)
    stats.segments_out += 1
    stats.bytes_out += out.size
    if log.config.file_delete_delay_ms <= 0:
        log.delete_pending_segments(force=True)
    return out


def _filter_batch(
    raw: bytes,
    offset_map: dict[bytes, int],
    latest_producer_batches: set[int],
    delete_horizon: int,
    stats: CleanerStats,
    txn: _TxnState,
) -> bytes | None:
    try:
        h, records = decode_batch(raw, 0, verify_crc=False)
    except KafkaError:
        return raw  # undecodable (unknown codec): keep as is rather than lose data
    if h.is_control:
        return _filter_marker(raw, h, records, delete_horizon, txn, stats)
    aborted = txn.aborted_txn(h)
    if aborted is not None:
        if h.last_offset in latest_producer_batches:
            txn.retained_aborted.add(aborted)  # kept for its idempotence state, still aborted
            return raw
        stats.records_removed += len(records)
        return None
    if h.producer_id >= 0 and h.last_offset in latest_producer_batches:
        if h.is_transactional:
            txn.has_data[h.producer_id] = True
        return raw  # a producer's latest batch carries its idempotence state
    kept = []
    for r in records:
        if r.key is None:
            kept.append(r)
            continue
        latest = offset_map.get(r.key)
        if latest is not None and r.offset < latest:
            continue  # superseded by a later record with the same key
        if r.value is None and r.timestamp < delete_horizon:
            continue  # tombstone past delete.retention.ms
        kept.append(r)
    removed = len(records) - len(kept)
    stats.records_removed += removed
    if kept and h.is_transactional:
        txn.has_data[h.producer_id] = True
    if not removed:
        return raw
    if not kept:
        return None
    rebuilt = bytearray(
        build_batch(
            kept,
            base_offset=h.base_offset,
            compression=h.compression,
            producer_id=h.producer_id,
            producer_epoch=h.producer_epoch,
            base_sequence=h.base_sequence,
            is_transactional=h.is_transactional,
            partition_leader_epoch=h.partition_leader_epoch,
            timestamp_type=1 if h.is_log_append_time else 0,
        )
    )
    return bytes(rebuilt)


def _filter_marker(
    raw: bytes, h: BatchHeader, records: list[Record], delete_horizon: int, txn: _TxnState, stats: CleanerStats
) -> bytes | None:
    """Keep a transaction marker while its transaction has records left (or an aborted batch
    kept for the producer state), then until delete.retention.ms past its timestamp."""
    has_data = txn.has_data.pop(h.producer_id, False)
    is_abort = bool(records) and decode_control_record(records[0])[0] == ControlRecordType.ABORT
    if is_abort and any(a.last_offset == h.base_offset for a in txn.retained_aborted):
        has_data = True
    if has_data or h.max_timestamp >= delete_horizon or h.producer_id < 0:
        return raw
    stats.records_removed += len(records)
    return None


__all__ = ["CleanerStats", "clean_log"]
