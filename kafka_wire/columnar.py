"""Column-oriented decoding of record batches (the consumer's bulk path).

`decode_batches` in `kafka_wire.records` builds one `Record` object per record, which is what a
client API wants. A columnar consumer (the Spark source builds Arrow arrays) wants the opposite:
per-record integers appended straight into `array.array` columns, and for keys and values only
their *bounds* in one shared data buffer, so no per-record `bytes` object is ever created.

Bounds are stored as a flat run ``[start0, end0, start1, end1, ...]`` of int32 positions into
`Columns.data`. Because records are laid out in order, that run is non-decreasing: read as Arrow
*binary offsets* it describes an array whose even elements are the keys (or values) and whose odd
elements are the record framing in between; taking the even elements is then one C-level copy
(see `connector.source.arrow`). A null key/value has ``start == end`` and is flagged in `key_nulls` /
`value_nulls`.

Control batches (transaction markers) are skipped, as is every batch of an aborted transaction
when the fetch response lists aborted transactions (read_committed). Offsets may have gaps
(compaction, markers): callers select offset ranges with `Columns.index_of`, never by counting.
"""

from __future__ import annotations

import bisect
import struct
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import crc32c as _crc32c_mod

from kafka_wire.compression import decompress
from kafka_wire.errors import CorruptRecordError, PykafkaError, UnsupportedCompressionTypeError
from kafka_wire.records import (
    BATCH_HEADER_SIZE,
    COMPRESSION_MASK,
    CONTROL_MASK,
    LOG_OVERHEAD,
    MAGIC,
    MAX_CODEC,
    MIN_BATCH_LENGTH,
    TIMESTAMP_TYPE_MASK,
    TRANSACTIONAL_MASK,
    native_records,
)
from kafka_wire.varint import ZIGZAG1, decode_varint

# the record loop of decode_to_buffers in C, or None (not built, or PYKAFKA_NO_EXTENSIONS set)
_native = native_records

_crc32c = _crc32c_mod.crc32c
# baseOffset, batchLength, partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta,
# baseTimestamp, maxTimestamp, producerId, producerEpoch, baseSequence, recordCount
_HEADER = struct.Struct(">qiibIhiqqqhii")
_CONTROL_KEY = struct.Struct(">hh")
_ABORT = 0

CREATE_TIME = 0
LOG_APPEND_TIME = 1

Buffer = bytes | bytearray | memoryview
# an object with the writable buffer protocol (bytearray, a pyarrow Buffer from allocate_buffer, ...)
WritableBuffer = Any

# Positions are int32 (Arrow binary offsets); a fetch response never comes near 2 GiB.
_MAX_POSITION = 0x7FFFFFFF


@dataclass(slots=True)
class Columns:
    """Decoded records of one or more batches, as columns.

    `offsets`/`timestamps` (ms)/`timestamp_types` have one entry per record; `key_bounds` and
    `value_bounds` two (start, end into `data`). `header_counts` (cumulative, n + 1 entries),
    `header_keys` and `header_values` are filled only when headers were asked for.
    `next_offset` is the offset after the last complete batch seen, control and aborted batches
    included: where the next fetch starts.
    """

    data: bytes = b""
    offsets: array = field(default_factory=lambda: array("q"))
    timestamps: array = field(default_factory=lambda: array("q"))
    timestamp_types: array = field(default_factory=lambda: array("i"))
    key_bounds: array = field(default_factory=lambda: array("i"))
    value_bounds: array = field(default_factory=lambda: array("i"))
    key_nulls: list[int] = field(default_factory=list)
    value_nulls: list[int] = field(default_factory=list)
    header_counts: array | None = None
    header_keys: list[str] | None = None
    header_values: list[bytes | None] | None = None
    next_offset: int = -1

    def __len__(self) -> int:
        return len(self.offsets)

    def index_of(self, offset: int) -> int:
        """Index of the first record whose offset is >= `offset` (offsets increase)."""
        return bisect.bisect_left(self.offsets, offset)

    def keys(self) -> list[bytes | None]:
        """Keys as Python objects (tests and small paths; the bulk path uses the bounds)."""
        return _materialize(self.data, self.key_bounds, self.key_nulls)

    def values(self) -> list[bytes | None]:
        return _materialize(self.data, self.value_bounds, self.value_nulls)

    def headers(self) -> list[list[tuple[str, bytes | None]]]:
        if self.header_counts is None or self.header_keys is None or self.header_values is None:
            raise ValueError("headers were not decoded")
        hc, hk, hv = self.header_counts, self.header_keys, self.header_values
        return [list(zip(hk[hc[i] : hc[i + 1]], hv[hc[i] : hc[i + 1]], strict=True)) for i in range(len(self))]


def _materialize(data: bytes, bounds: array, nulls: list[int]) -> list[bytes | None]:
    out: list[bytes | None] = [data[bounds[2 * i] : bounds[2 * i + 1]] for i in range(len(bounds) // 2)]
    for i in nulls:
        out[i] = None
    return out


@dataclass(slots=True)
class _Batch:
    pos: int
    base_offset: int
    next_offset: int
    attributes: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    record_count: int
    size: int
    crc: int


def _check_crc(mv: memoryview, b: _Batch) -> None:
    actual = _crc32c(mv[b.pos + 21 : b.pos + b.size])
    if actual != b.crc:
        raise CorruptRecordError(
            f"record batch at offset {b.base_offset} fails its CRC: stored {b.crc:#010x}, computed {actual:#010x}"
        )


def _walk(buf: Buffer, verify_crc: bool, start: int = 0, stop: int | None = None) -> list[_Batch]:
    """Complete batches in buf[start:stop] (a partial trailing batch is dropped); positions are
    into `buf`."""
    out: list[_Batch] = []
    end = len(buf) if stop is None else stop
    pos = start
    unpack = _HEADER.unpack_from
    mv = memoryview(buf) if verify_crc else None
    while end - pos >= BATCH_HEADER_SIZE:
        (base, length, _ple, magic, crc, attrs, lod, bts, mts, pid, _pe, _bs, count) = unpack(buf, pos)
        if magic != MAGIC:
            # Kafka fetch responses may hold legacy message sets (magic 0/1) only from very old
            # producers; the Spark source targets v2 like every current client.
            raise CorruptRecordError(f"unsupported record batch magic {magic} at position {pos}")
        if length < MIN_BATCH_LENGTH:
            raise CorruptRecordError(f"record batch length {length} is below the header size")
        size = length + LOG_OVERHEAD
        if size > end - pos:
            break  # partial batch at the end of a fetch response: normal, fetch again from here
        if count < 0 or lod < 0:
            raise CorruptRecordError(f"negative record count or offset delta in batch at offset {base}")
        b = _Batch(pos, base, base + lod + 1, attrs, bts, mts, pid, count, size, crc)
        if verify_crc:
            assert mv is not None
            _check_crc(mv, b)
        if attrs & COMPRESSION_MASK > MAX_CODEC:
            raise UnsupportedCompressionTypeError(f"record batch uses unknown compression codec {attrs & 7}")
        out.append(b)
        pos += size
    return out


def _aborted_batches(batches: list[_Batch], aborted: Iterable[tuple[int, int]], buf: Buffer) -> set[int]:
    """Indexes of batches that belong to aborted transactions (KIP-98 consumer logic).

    A producer's transaction is aborted from its listed first offset until that producer's ABORT
    marker; the fetch response's aborted list covers exactly the fetched range.
    """
    pending = sorted(aborted, key=lambda a: a[1])  # (producer id, first offset) by first offset
    active: set[int] = set()
    skip: set[int] = set()
    k = 0
    for i, b in enumerate(batches):
        while k < len(pending) and pending[k][1] <= b.next_offset - 1:
            active.add(pending[k][0])
            k += 1
        if not b.attributes & TRANSACTIONAL_MASK:
            continue
        if b.attributes & CONTROL_MASK:
            if b.producer_id in active and _is_abort_marker(buf, b):
                active.discard(b.producer_id)
            continue
        if b.producer_id in active:
            skip.add(i)
    return skip


def _is_abort_marker(buf: Buffer, b: _Batch) -> bool:
    # a control batch holds one record; its key is (version int16, type int16)
    body = bytes(memoryview(buf)[b.pos + BATCH_HEADER_SIZE : b.pos + b.size])
    if b.attributes & COMPRESSION_MASK:
        body = decompress(b.attributes & COMPRESSION_MASK, body)
    cols = Columns(data=body)
    _decode_into(cols, body, 0, len(body), 1, b.base_offset, b.base_timestamp, None, False, 0)
    k0, k1 = cols.key_bounds[0], cols.key_bounds[1]
    if k1 - k0 < _CONTROL_KEY.size:
        raise CorruptRecordError("control record key too short")
    return _CONTROL_KEY.unpack_from(body, k0)[1] == _ABORT


def _data_spans(
    buf: Buffer,
    verify_crc: bool,
    aborted: Iterable[tuple[int, int]] | None,
    start: int = 0,
    stop: int | None = None,
) -> tuple[int, bytes, list[tuple[_Batch, int, int]]]:
    """(next offset, data, [(batch, start, stop)]): the record sections of the data batches.

    Uncompressed responses are used in place (positions into `buf` itself, when it is `bytes`);
    otherwise every data batch's records are decompressed (or copied) into one buffer.
    """
    return _select(buf, _walk(buf, verify_crc, start, stop), aborted)


def _select(
    buf: Buffer, batches: list[_Batch], aborted: Iterable[tuple[int, int]] | None
) -> tuple[int, bytes, list[tuple[_Batch, int, int]]]:
    if not batches:
        return -1, b"", []
    next_offset = batches[-1].next_offset
    skip = _aborted_batches(batches, aborted, buf) if aborted else ()
    data_batches = [
        b for i, b in enumerate(batches) if not b.attributes & CONTROL_MASK and i not in skip and b.record_count
    ]
    if not data_batches:
        return next_offset, b"", []
    if all(not b.attributes & COMPRESSION_MASK for b in data_batches):
        data = buf if type(buf) is bytes else bytes(buf)
        spans = [(b, b.pos + BATCH_HEADER_SIZE, b.pos + b.size) for b in data_batches]
    else:
        parts: list[bytes] = []
        spans = []
        at = 0
        mv = memoryview(buf)
        for b in data_batches:
            body = mv[b.pos + BATCH_HEADER_SIZE : b.pos + b.size]
            codec = b.attributes & COMPRESSION_MASK
            raw = decompress(codec, body) if codec else bytes(body)
            parts.append(raw)
            spans.append((b, at, at + len(raw)))
            at += len(raw)
        data = b"".join(parts)
    if len(data) > _MAX_POSITION:
        raise CorruptRecordError("fetched record data exceeds 2 GiB")
    return next_offset, data, spans


def decode_columns(
    buf: Buffer,
    *,
    verify_crc: bool = True,
    aborted: Iterable[tuple[int, int]] | None = None,
    headers: bool = False,
) -> Columns:
    """Decode every complete data batch of `buf` (a fetch response's records) into columns.

    `aborted` is the fetch response's aborted-transaction list (producer id, first offset) for a
    read_committed fetch; None for read_uncommitted. With `headers`, record headers are decoded
    too (otherwise skipped unparsed). This is the all-Python reference path; `scan_records` is the
    bulk one.
    """
    cols = Columns()
    if headers:
        cols.header_counts = array("q", [0])
        cols.header_keys = []
        cols.header_values = []
    cols.next_offset, data, spans = _data_spans(buf, verify_crc, aborted)
    if not spans:
        return cols
    cols.data = data
    tt = cols.timestamp_types
    for b, start, stop in spans:
        log_append = b.attributes & TIMESTAMP_TYPE_MASK
        _decode_into(
            cols,
            data,
            start,
            stop,
            b.record_count,
            b.base_offset,
            b.base_timestamp,
            b.max_timestamp if log_append else None,
            headers,
            len(cols.offsets),
        )
        tt.extend(array("i", (LOG_APPEND_TIME if log_append else CREATE_TIME,)) * b.record_count)
    return cols


@dataclass(slots=True)
class RecordIndex:
    """Where each record starts, and per-batch facts: the input of a vectorized decoder.

    `positions[i]` is where record i (its length varint) starts in `data`; the records of data
    batch j are `counts[j]` consecutive entries and end exactly at `ends[j]`. Everything inside a
    record (deltas, key, value, headers) is left to the caller, which can decode it for all
    records at once (`connector.source.arrow.index_to_record_batch` does, with Arrow compute kernels).
    """

    data: bytes = b""
    positions: array = field(default_factory=lambda: array("i"))
    counts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    base_offsets: list[int] = field(default_factory=list)
    base_timestamps: list[int] = field(default_factory=list)
    max_timestamps: list[int] = field(default_factory=list)
    log_append_time: list[bool] = field(default_factory=list)
    next_offset: int = -1

    def __len__(self) -> int:
        return len(self.positions)


def scan_records(
    buf: Buffer,
    *,
    verify_crc: bool = True,
    aborted: Iterable[tuple[int, int]] | None = None,
    start: int = 0,
    stop: int | None = None,
) -> RecordIndex:
    """Find every record of every complete data batch in buf[start:stop] without decoding it.

    Give a whole fetch response frame (`bytes`) with the bounds of its records section rather than
    a memoryview slice of it: uncompressed records are then indexed in place, with no copy.

    One interpreter step per record (read the length varint, jump over the record): about an
    order of magnitude less work per record than `decode_columns`. The chaining of lengths is
    checked per batch (the last record must end where the batch ends); the caller validates the
    insides of the records.
    """
    idx = RecordIndex()
    idx.next_offset, data, spans = _data_spans(buf, verify_crc, aborted, start, stop)
    if not spans:
        return idx
    idx.data = data
    zz = ZIGZAG1
    slow = decode_varint
    append = idx.positions.append
    for b, pos, stop in spans:
        try:
            for _ in range(b.record_count):
                append(pos)
                c = data[pos]
                if c < 0x80:
                    pos += zz[c] + 1
                else:
                    c2 = data[pos + 1]
                    if c2 < 0x80:
                        u = (c & 0x7F) | (c2 << 7)
                        pos += ((u >> 1) ^ -(u & 1)) + 2
                    else:
                        n, p = slow(data, pos)
                        pos = p + n
        except IndexError:
            raise CorruptRecordError("record runs past the end of its batch") from None
        if pos != stop:
            raise CorruptRecordError(
                f"records of the batch at offset {b.base_offset} do not add up to its size ({pos - stop:+d} bytes)"
            )
        idx.counts.append(b.record_count)
        idx.ends.append(stop)
        idx.base_offsets.append(b.base_offset)
        idx.base_timestamps.append(b.base_timestamp)
        idx.max_timestamps.append(b.max_timestamp)
        idx.log_append_time.append(bool(b.attributes & TIMESTAMP_TYPE_MASK))
    return idx


class NativeDecodeError(PykafkaError, ValueError):
    """The C record loop refused the records (corrupt, or a layout it does not handle): decode them with
    the all-Python `decode_columns`, which gives the right answer or the exact CorruptRecordError."""


@dataclass(slots=True)
class ArrowBuffers:
    """Records of a fetch response within an offset range, as the buffers of Arrow arrays.

    Each buffer is what the caller's `allocate(size)` returned, of exactly the size needed:
    `offsets`/`timestamps_us` hold an int64 per record, `timestamp_types` an int32; keys and values
    are Arrow binary arrays: int32 offsets (n + 1), data, and a validity bitmap (None when there is
    no null). Headers are decoded only when asked for: `header_indexes` are the records that have
    some, `header_counts` how many each, in the order of `header_keys`/`header_values`.
    """

    length: int
    offsets: WritableBuffer
    timestamps_us: WritableBuffer
    timestamp_types: WritableBuffer
    key_offsets: WritableBuffer
    key_data: WritableBuffer
    key_validity: WritableBuffer | None
    key_nulls: int
    value_offsets: WritableBuffer
    value_data: WritableBuffer
    value_validity: WritableBuffer | None
    value_nulls: int
    header_indexes: list[int]
    header_counts: list[int]
    header_keys: list[str]
    header_values: list[bytes | None]
    next_offset: int


def _clamp64(v: int) -> int:
    return min(max(v, -(2**63)), 2**63 - 1)


def native_decoder_available() -> bool:
    """True when the C record loop (kafka_wire._columnar_ext) was built: `decode_to_buffers` needs it."""
    return _native is not None


def _trim_bytearray(buf: bytearray, size: int) -> bytearray:
    del buf[size:]
    return buf


def decode_to_buffers(
    buf: Buffer,
    *,
    from_offset: int,
    until_offset: int,
    verify_crc: bool = True,
    aborted: Iterable[tuple[int, int]] | None = None,
    headers: bool = False,
    start: int = 0,
    stop: int | None = None,
    allocate: Callable[[int], WritableBuffer] = bytearray,
    trim: Callable[[WritableBuffer, int], WritableBuffer] = _trim_bytearray,
    on_scanned: Callable[[int], None] | None = None,
) -> ArrowBuffers:
    """Records of buf[start:stop] with from_offset <= offset < until_offset, straight into Arrow buffers.

    Batches are found, filtered (control, aborted) and decompressed in Python as for `scan_records`;
    `on_scanned(next_offset)` is called then, before the records are decoded. The records go through
    the C loop in one call (one pass over the data, each uncompressed batch CRC-checked just before
    its records are read), which writes into buffers of the largest size the batches could need
    (`allocate(size)`: Arrow's memory pool reuses its pages, where fresh `bytes` would fault 8 MB of
    pages in for every response), then cut to what was used (`trim(buffer, size)`). Raises
    NativeDecodeError on corrupt input (CRC mismatch included) and on anything the C loop does not
    fully understand: `decode_columns` then gives the right answer or the exact CorruptRecordError.
    """
    if _native is None:
        raise NativeDecodeError("kafka_wire._columnar_ext is not built")
    mv = memoryview(buf)
    try:
        batches = _walk(buf, False, start, stop)
        # Uncompressed batches are CRC-checked one by one just before the C loop reads their records
        # (`check` below: the batch is then still in the CPU caches); compressed ones before anything
        # is decompressed, as on the Python path.
        verify_now = verify_crc and any(b.attributes & COMPRESSION_MASK for b in batches)
        for b in batches if verify_now else ():
            _check_crc(mv, b)
        next_offset, data, spans = _select(buf, batches, aborted)
        if verify_crc and not verify_now:
            in_spans = {b.pos for b, _, _ in spans}
            for b in batches:
                if b.pos not in in_spans:  # control and aborted batches
                    _check_crc(mv, b)
    except (CorruptRecordError, UnsupportedCompressionTypeError) as e:
        # which error comes first may differ from the Python path's walk: the caller's decode_columns
        # gives the exact one
        raise NativeDecodeError(str(e)) from e
    if on_scanned is not None:
        on_scanned(next_offset)

    def check(j: int) -> None:
        _check_crc(mv, spans[j][0])

    packed = array("q")
    n_max = size_max = 0
    for b, lo, hi in spans:
        log_append = b.attributes & TIMESTAMP_TYPE_MASK
        ts_base = b.max_timestamp if log_append else b.base_timestamp
        packed.extend((lo, hi, b.record_count, b.base_offset, ts_base, 1 if log_append else 0))
        n_max += b.record_count
        size_max += hi - lo
    # (record counts come from the batch headers: the C loop checks them, and a count that does
    # not fit its batch's bytes is refused before anything is allocated from it)
    if n_max > size_max // 7:
        raise NativeDecodeError("record counts do not fit their batches")
    bitmap = (n_max + 7) // 8
    out = [
        allocate(8 * n_max),  # offsets
        allocate(8 * n_max),  # timestamps (µs)
        allocate(4 * n_max),  # timestamp types
        allocate(4 * (n_max + 1)),  # key offsets
        allocate(size_max),  # key data
        allocate(bitmap),  # key validity
        allocate(4 * (n_max + 1)),  # value offsets
        allocate(size_max),  # value data
        allocate(bitmap),  # value validity
        allocate(16 * n_max),  # (index, position) of records with headers
    ]
    try:
        n, key_bytes, value_bytes, key_nulls, value_nulls, with_headers = _native.decode(
            data,
            packed,
            _clamp64(from_offset),
            _clamp64(until_offset),
            *out,
            check if verify_crc and not verify_now else None,
        )
    except (ValueError, CorruptRecordError) as e:
        raise NativeDecodeError(str(e)) from None
    h_indexes: list[int] = []
    h_counts: list[int] = []
    h_keys: list[str] = []
    h_values: list[bytes | None] = []
    if with_headers:
        # headers are rare: decode those records' headers in Python (the C loop checked their framing;
        # this also checks that keys are UTF-8, as decode_columns does for every record)
        pairs = memoryview(out[9]).cast("B").cast("q")
        for j in range(0, 2 * with_headers, 2):
            index, pos = pairs[j], pairs[j + 1]
            if headers and index >= 0:
                before = len(h_keys)
                decode_headers(data, pos, h_keys, h_values)
                h_indexes.append(index)
                h_counts.append(len(h_keys) - before)
            else:
                decode_headers(data, pos, [], [])
        pairs.release()
    bitmap = (n + 7) // 8
    sizes = (8 * n, 8 * n, 4 * n, 4 * (n + 1), key_bytes, bitmap, 4 * (n + 1), value_bytes, bitmap)
    o = [trim(b, size) for b, size in zip(out, sizes, strict=False)]
    return ArrowBuffers(
        n, o[0], o[1], o[2], o[3], o[4], o[5] if key_nulls else None, key_nulls, o[6], o[7],
        o[8] if value_nulls else None, value_nulls, h_indexes, h_counts, h_keys, h_values, next_offset,
    )  # fmt: skip


def _decode_into(
    cols: Columns,
    data: bytes,
    pos: int,
    stop: int,
    count: int,
    base_offset: int,
    base_timestamp: int,
    append_time: int | None,
    want_headers: bool,
    first_index: int,
) -> None:
    """Append `count` records from data[pos:stop] to the columns.

    The hot loop: one-byte varints are a tuple lookup, two-byte ones are decoded inline, longer
    ones call `decode_varint`. Out-of-range indexing is caught once around the loop.
    """
    zz = ZIGZAG1
    slow = decode_varint
    off_append = cols.offsets.append
    ts_append = cols.timestamps.append
    kb_extend = cols.key_bounds.extend
    vb_extend = cols.value_bounds.extend
    knull = cols.key_nulls
    vnull = cols.value_nulls
    hc = cols.header_counts
    hk = cols.header_keys
    hv = cols.header_values
    ts_fixed = append_time is not None
    index = first_index
    try:
        for _ in range(count):
            b = data[pos]
            if b < 0x80:
                length = zz[b]
                pos += 1
            else:
                b2 = data[pos + 1]
                if b2 < 0x80:
                    u = (b & 0x7F) | (b2 << 7)
                    length = (u >> 1) ^ -(u & 1)
                    pos += 2
                else:
                    length, pos = slow(data, pos)
            end = pos + length
            if length < 6 or end > stop:  # 6 = smallest possible record body
                raise CorruptRecordError(f"bad record length {length}")
            # attributes (unused) at pos; timestampDelta
            b = data[pos + 1]
            if b < 0x80:
                tsd = zz[b]
                pos += 2
            else:
                b2 = data[pos + 2]
                if b2 < 0x80:
                    u = (b & 0x7F) | (b2 << 7)
                    tsd = (u >> 1) ^ -(u & 1)
                    pos += 3
                else:
                    tsd, pos = slow(data, pos + 1)
            # offsetDelta
            b = data[pos]
            if b < 0x80:
                od = zz[b]
                pos += 1
            else:
                b2 = data[pos + 1]
                if b2 < 0x80:
                    u = (b & 0x7F) | (b2 << 7)
                    od = (u >> 1) ^ -(u & 1)
                    pos += 2
                else:
                    od, pos = slow(data, pos)
            # key
            b = data[pos]
            if b < 0x80:
                n = zz[b]
                pos += 1
            else:
                b2 = data[pos + 1]
                if b2 < 0x80:
                    u = (b & 0x7F) | (b2 << 7)
                    n = (u >> 1) ^ -(u & 1)
                    pos += 2
                else:
                    n, pos = slow(data, pos)
            if n >= 0:
                kb_extend((pos, pos + n))
                pos += n
            elif n == -1:
                kb_extend((pos, pos))
                knull.append(index)
            else:
                raise CorruptRecordError(f"bad key length {n}")
            # value
            b = data[pos]
            if b < 0x80:
                n = zz[b]
                pos += 1
            else:
                b2 = data[pos + 1]
                if b2 < 0x80:
                    u = (b & 0x7F) | (b2 << 7)
                    n = (u >> 1) ^ -(u & 1)
                    pos += 2
                else:
                    n, pos = slow(data, pos)
            if n >= 0:
                vb_extend((pos, pos + n))
                pos += n
            elif n == -1:
                vb_extend((pos, pos))
                vnull.append(index)
            else:
                raise CorruptRecordError(f"bad value length {n}")
            if pos >= end:
                raise CorruptRecordError("record ends before its header count")
            if want_headers:
                if data[pos] == 0:
                    pos += 1
                else:
                    # headers columns are lists here (hk/hv are None only when headers are off)
                    pos = decode_headers(data, pos, hk, hv)  # type: ignore[arg-type]
                if pos != end:
                    raise CorruptRecordError(f"record length mismatch: declared {length}, read {pos - end + length}")
                # headers columns are lists here (hk/hv are None only when headers are off)
                hc.append(len(hk))  # type: ignore[union-attr,arg-type]
            elif data[pos] == 0:
                if pos + 1 != end:
                    raise CorruptRecordError(
                        f"record length mismatch: declared {length}, read {pos + 1 - end + length}"
                    )
            elif decode_headers(data, pos, [], []) != end:
                raise CorruptRecordError("record headers do not end where the record ends")
            pos = end
            off_append(base_offset + od)
            ts_append(append_time if ts_fixed else base_timestamp + tsd)
            index += 1
    except IndexError:
        raise CorruptRecordError("record runs past the end of its batch") from None
    if pos != stop:
        raise CorruptRecordError(f"{stop - pos} unconsumed bytes after the last record of the batch")


def decode_headers(data: bytes, pos: int, keys: list[str], values: list[bytes | None]) -> int:
    count, pos = decode_varint(data, pos)
    if count < 0:
        raise CorruptRecordError(f"negative header count {count}")
    for _ in range(count):
        klen, pos = decode_varint(data, pos)
        if klen < 0 or pos + klen > len(data):
            raise CorruptRecordError("bad header key length")
        try:
            keys.append(data[pos : pos + klen].decode("utf-8"))
        except UnicodeDecodeError as e:
            raise CorruptRecordError(f"header key is not UTF-8: {e}") from None
        pos += klen
        vlen, pos = decode_varint(data, pos)
        if vlen >= 0:
            values.append(data[pos : pos + vlen])
            pos += vlen
        elif vlen == -1:
            values.append(None)
        else:
            raise CorruptRecordError(f"bad header value length {vlen}")
    return pos


__all__ = [
    "CREATE_TIME",
    "LOG_APPEND_TIME",
    "ArrowBuffers",
    "Columns",
    "NativeDecodeError",
    "RecordIndex",
    "decode_columns",
    "decode_headers",
    "decode_to_buffers",
    "native_decoder_available",
    "scan_records",
]
