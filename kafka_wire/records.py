"""Record batch v2 (magic 2): header parsing, validation, building and decoding.

Layout (byte offsets): baseOffset i64 @0, batchLength i32 @8, partitionLeaderEpoch i32 @12,
magic i8 @16, crc u32 @17 (CRC-32C over bytes 21..end), attributes i16 @21, lastOffsetDelta i32 @23,
baseTimestamp i64 @27, maxTimestamp i64 @35, producerId i64 @43, producerEpoch i16 @51,
baseSequence i32 @53, recordCount i32 @57; records follow at @61.
"""

from __future__ import annotations

import mmap
import os
import struct
import time
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum

import crc32c as _crc32c_mod

from kafka_wire.compression import compress, decompress, decompressed_bounded
from kafka_wire.errors import CorruptRecordError, MessageTooLargeError, UnsupportedCompressionTypeError
from kafka_wire.varint import ZIGZAG1, decode_varint, write_varint

# the contract of the C functions this module calls (INTERFACE_VERSION in _columnar_ext.c)
NATIVE_INTERFACE_VERSION = 2

try:  # the C record loops (kafka_wire/_columnar_ext.c): optional, built by pip install
    from kafka_wire import _columnar_ext as native_records  # type: ignore[attr-defined]  # a C extension, no stub
except ImportError:
    native_records = None
if native_records is not None and getattr(native_records, "INTERFACE_VERSION", 1) != NATIVE_INTERFACE_VERSION:
    # a build older than these sources (an editable checkout not reinstalled): its answers would be
    # misread, so the Python paths answer until `pip install -e .` rebuilds it
    warnings.warn(
        f"kafka_wire._columnar_ext is a stale build (interface {getattr(native_records, 'INTERFACE_VERSION', 1)}, "
        f"these sources need {NATIVE_INTERFACE_VERSION}): using the pure-Python record loops; "
        "rebuild it with `pip install -e .` (scripts/setup.sh)",
        RuntimeWarning,
        stacklevel=1,
    )
    native_records = None
if os.environ.get("PYKAFKA_NO_EXTENSIONS"):  # the pure-Python paths even where the extension is built
    native_records = None

BATCH_HEADER_SIZE = 61
LOG_OVERHEAD = 12  # baseOffset + batchLength: the bytes not counted by batchLength
_HEADER = struct.Struct(">qiibIhiqqqhii")

COMPRESSION_MASK = 0x07
TIMESTAMP_TYPE_MASK = 0x08
TRANSACTIONAL_MASK = 0x10
CONTROL_MASK = 0x20

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
NO_PARTITION_LEADER_EPOCH = -1
NO_TIMESTAMP = -1

MAGIC = 2
MAX_CODEC = 4  # zstd; codecs 5-7 are unassigned
MIN_BATCH_LENGTH = BATCH_HEADER_SIZE - LOG_OVERHEAD  # batchLength of a batch with no records
# What the produce path decompresses a batch into at most (check_records): a compressed batch
# claiming more is refused as corrupt rather than inflated (legit producer batches are a few MiB)
MAX_DECOMPRESSED_BATCH_BYTES = 256 * 1024 * 1024

# Byte offsets of the fields we rewrite in place.
_PARTITION_LEADER_EPOCH_OFFSET = 12
_CRC_OFFSET = 17
_ATTRIBUTES_OFFSET = 21  # the CRC covers [21, end)
_MAX_TIMESTAMP_OFFSET = 35

_I64 = struct.Struct(">q")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_I16 = struct.Struct(">h")
_CONTROL_KEY = struct.Struct(">hh")
_CONTROL_VALUE = struct.Struct(">hi")

_crc32c = _crc32c_mod.crc32c

Buffer = bytes | bytearray | memoryview


@dataclass(slots=True)
class BatchHeader:
    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    @property
    def size(self) -> int:
        """Bytes the whole batch occupies on the wire and on disk."""
        return self.batch_length + LOG_OVERHEAD

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.last_offset_delta + 1

    @property
    def compression(self) -> int:
        return self.attributes & COMPRESSION_MASK

    @property
    def is_log_append_time(self) -> bool:
        return bool(self.attributes & TIMESTAMP_TYPE_MASK)

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_MASK)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_MASK)

    @property
    def last_sequence(self) -> int:
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return (self.base_sequence + self.last_offset_delta) & 0x7FFFFFFF


def parse_batch_header(buf: bytes | bytearray | memoryview, pos: int = 0) -> BatchHeader:
    """Parse the 61-byte header at `pos`; raises CorruptRecordError if fewer bytes remain."""
    if len(buf) - pos < BATCH_HEADER_SIZE:
        raise CorruptRecordError(f"record batch header truncated at position {pos}")
    return BatchHeader(*_HEADER.unpack_from(buf, pos))


# --------------------------------------------------------------------------------------------
# Validation and in-place rewriting (the broker's hot path: never decompresses)
# --------------------------------------------------------------------------------------------


def _check_batch(buf: Buffer, pos: int, max_size: int | None, verify_crc: bool) -> BatchHeader:
    avail = len(buf) - pos
    if avail < BATCH_HEADER_SIZE:
        raise CorruptRecordError(f"record batch header truncated at position {pos}")
    h = BatchHeader(*_HEADER.unpack_from(buf, pos))
    if h.magic != MAGIC:
        raise CorruptRecordError(f"unsupported record batch magic {h.magic} at position {pos}")
    if h.batch_length < MIN_BATCH_LENGTH:
        raise CorruptRecordError(f"record batch length {h.batch_length} is below the header size")
    size = h.batch_length + LOG_OVERHEAD
    if size > avail:
        raise CorruptRecordError(f"record batch truncated: {size} bytes declared, {avail} present")
    if max_size is not None and size > max_size:
        raise MessageTooLargeError(f"record batch of {size} bytes exceeds the limit of {max_size}")
    if verify_crc:
        crc = _crc32c(memoryview(buf)[pos + _ATTRIBUTES_OFFSET : pos + size])
        if crc != h.crc:
            raise CorruptRecordError(f"record batch CRC mismatch: stored {h.crc:#010x}, computed {crc:#010x}")
    if h.attributes & COMPRESSION_MASK > MAX_CODEC:
        raise UnsupportedCompressionTypeError(
            f"record batch uses unknown compression codec {h.attributes & COMPRESSION_MASK}"
        )
    if h.record_count < 0:
        raise CorruptRecordError(f"negative record count {h.record_count}")
    if h.last_offset_delta < 0:
        raise CorruptRecordError(f"negative last offset delta {h.last_offset_delta}")
    return h


def validate_batch(buf: Buffer, pos: int = 0, max_size: int | None = None) -> BatchHeader:
    """Check the batch at `pos` structurally and by CRC-32C, without decompressing it.

    Raises CorruptRecordError (bad magic, length, truncation, CRC, negative counts),
    UnsupportedCompressionTypeError (codec bits 5-7) or MessageTooLargeError (size > max_size).
    Only the batch at `pos` is checked; bytes after it are ignored.
    """
    return _check_batch(buf, pos, max_size, True)


def iter_batches(buf: Buffer, pos: int = 0, *, allow_partial_tail: bool = False) -> Iterator[tuple[int, BatchHeader]]:
    """Walk concatenated batches, yielding (position, header) for each complete one.

    Only framing is checked here (header present, magic 2, sane length), not the CRC.
    A truncated last batch raises CorruptRecordError unless `allow_partial_tail` (fetch
    responses may legitimately end with a partial batch), in which case iteration just stops.
    """
    end = len(buf)
    unpack = _HEADER.unpack_from
    while pos < end:
        avail = end - pos
        if avail < BATCH_HEADER_SIZE:
            if allow_partial_tail:
                return
            raise CorruptRecordError(f"record batch header truncated at position {pos}")
        h = BatchHeader(*unpack(buf, pos))
        if h.magic != MAGIC:
            raise CorruptRecordError(f"unsupported record batch magic {h.magic} at position {pos}")
        if h.batch_length < MIN_BATCH_LENGTH:
            raise CorruptRecordError(f"record batch length {h.batch_length} is below the header size")
        size = h.batch_length + LOG_OVERHEAD
        if size > avail:
            if allow_partial_tail:
                return
            raise CorruptRecordError(f"record batch truncated: {size} bytes declared, {avail} present")
        yield pos, h
        pos += size


def stamp_batch(buf: bytearray | memoryview, pos: int, base_offset: int, partition_leader_epoch: int) -> None:
    """Write baseOffset and partitionLeaderEpoch in place; the CRC does not cover them."""
    _I64.pack_into(buf, pos, base_offset)
    _I32.pack_into(buf, pos + _PARTITION_LEADER_EPOCH_OFFSET, partition_leader_epoch)


def set_log_append_time(buf: bytearray | memoryview, pos: int, timestamp_ms: int) -> None:
    """Mark the batch LogAppendTime with maxTimestamp = `timestamp_ms` and refresh its CRC.

    As Kafka does, the per-record timestamp deltas are left alone: readers of a
    LogAppendTime batch use maxTimestamp for every record.
    """
    if len(buf) - pos < BATCH_HEADER_SIZE:
        raise CorruptRecordError(f"record batch header truncated at position {pos}")
    size = _I32.unpack_from(buf, pos + 8)[0] + LOG_OVERHEAD
    if size < BATCH_HEADER_SIZE or pos + size > len(buf):
        raise CorruptRecordError(f"record batch at position {pos} has a bad length")
    attrs = _I16.unpack_from(buf, pos + _ATTRIBUTES_OFFSET)[0]
    _I16.pack_into(buf, pos + _ATTRIBUTES_OFFSET, attrs | TIMESTAMP_TYPE_MASK)
    _I64.pack_into(buf, pos + _MAX_TIMESTAMP_OFFSET, timestamp_ms)
    _U32.pack_into(buf, pos + _CRC_OFFSET, _crc32c(memoryview(buf)[pos + _ATTRIBUTES_OFFSET : pos + size]))


# --------------------------------------------------------------------------------------------
# Records and decoding (the consumer's hot path)
# --------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Record:
    """One record with its absolute offset and timestamp (batch base + deltas already applied)."""

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]] = field(default_factory=list)
    attributes: int = 0  # the record-level int8, unused by Kafka so far


class ControlRecordType(IntEnum):
    ABORT = 0
    COMMIT = 1


def decode_control_record(record: Record) -> tuple[int, int | None]:
    """(type, coordinator_epoch) of a control record; the epoch is None if the value is absent."""
    key = record.key
    if key is None or len(key) < _CONTROL_KEY.size:
        raise CorruptRecordError("control record key too short")
    _version, ctype = _CONTROL_KEY.unpack_from(key)
    value = record.value
    epoch = None
    if value is not None and len(value) >= _CONTROL_VALUE.size:
        epoch = _CONTROL_VALUE.unpack_from(value)[1]
    return ctype, epoch


def _decode_headers(data: bytes, pos: int) -> tuple[list[tuple[str, bytes | None]], int]:
    # Headers are rare and small: clarity over speed here.
    count, pos = decode_varint(data, pos)
    if count < 0:
        raise CorruptRecordError(f"negative header count {count}")
    headers: list[tuple[str, bytes | None]] = []
    for _ in range(count):
        klen, pos = decode_varint(data, pos)
        if klen < 0:
            raise CorruptRecordError("null or negative header key length")
        end = pos + klen
        if end > len(data):
            raise CorruptRecordError("header key overruns the record")
        try:
            hkey = data[pos:end].decode("utf-8")
        except UnicodeDecodeError as e:
            raise CorruptRecordError(f"header key is not UTF-8: {e}") from None
        pos = end
        vlen, pos = decode_varint(data, pos)
        if vlen >= 0:
            hval: bytes | None = data[pos : pos + vlen]
            pos += vlen
        elif vlen == -1:
            hval = None
        else:
            raise CorruptRecordError(f"bad header value length {vlen}")
        headers.append((hkey, hval))
    return headers, pos


def _decode_records(
    data: bytes,
    pos: int,
    stop: int,
    count: int,
    base_offset: int,
    base_timestamp: int,
    append_time: int | None,
) -> list[Record]:
    """Decode `count` records from data[pos:stop]; `data` must be `bytes` so slices are bytes.

    Written for speed: one-byte varints (the common case for lengths < 64, small deltas) are
    a tuple lookup; two-byte ones (values up to 8191, e.g. 1 KB payloads, offset deltas up to
    8191) are decoded inline; longer ones fall back to decode_varint. Out-of-range indexing is
    caught once around the loop.
    """
    out: list[Record] = []
    append = out.append
    zz = ZIGZAG1
    slow = decode_varint
    new = Record
    headers_slow = _decode_headers
    ts_fixed = append_time is not None
    try:
        for _ in range(count):
            # length
            b = data[pos]
            if b < 0x80:
                length = zz[b]
                pos += 1
            else:
                length, pos = slow(data, pos)
            end = pos + length
            if length < 6 or end > stop:  # 6 = smallest possible record body
                raise CorruptRecordError(f"bad record length {length}")
            attrs = data[pos]
            # timestampDelta
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
                key = data[pos : pos + n]
                pos += n
            elif n == -1:
                key = None
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
                value = data[pos : pos + n]
                pos += n
            elif n == -1:
                value = None
            else:
                raise CorruptRecordError(f"bad value length {n}")
            # headers: almost always none
            if data[pos] == 0:
                headers: list[tuple[str, bytes | None]] = []
                pos += 1
            else:
                headers, pos = headers_slow(data, pos)
            if pos != end:
                raise CorruptRecordError(f"record length mismatch: declared {length}, read {pos - end + length}")
            append(
                new(
                    base_offset + od,
                    append_time if ts_fixed else base_timestamp + tsd,  # type: ignore[arg-type]  # ts_fixed: not None
                    key,
                    value,
                    headers,
                    attrs,
                )
            )
    except IndexError:
        raise CorruptRecordError("record runs past the end of its batch") from None
    if pos != stop:
        raise CorruptRecordError(f"{stop - pos} unconsumed bytes after the last record of the batch")
    return out


def _decode_body(buf: Buffer, pos: int, h: BatchHeader) -> list[Record]:
    size = h.batch_length + LOG_OVERHEAD
    codec = h.attributes & COMPRESSION_MASK
    if codec == 0:
        if type(buf) is bytes:
            # Decode in place: no copy of the batch, slices of `buf` are the keys/values.
            data = buf
            start = pos + BATCH_HEADER_SIZE
            stop = pos + size
        else:
            data = bytes(memoryview(buf)[pos + BATCH_HEADER_SIZE : pos + size])
            start = 0
            stop = len(data)
    else:
        data = decompress(codec, memoryview(buf)[pos + BATCH_HEADER_SIZE : pos + size])
        start = 0
        stop = len(data)
    append_time = h.max_timestamp if h.attributes & TIMESTAMP_TYPE_MASK else None
    return _decode_records(data, start, stop, h.record_count, h.base_offset, h.base_timestamp, append_time)


def check_records(buf: Buffer, pos: int, h: BatchHeader, limit: int | None = None) -> int:
    """Check that the batch at `pos` holds exactly its `record_count` records, each adding up to
    its length prefix, with offset deltas 0, 1, 2, ... and UTF-8 header keys (decompressing if
    needed). Returns how many records have no key (what a compacted topic refuses: counted in the
    same walk, so such a topic decompresses a batch once). Raises CorruptRecordError naming the fault.

    The produce path's walk of the records (Kafka's LogValidator reads every record too): a batch
    whose header and CRC are right but whose records are not would otherwise be appended and fail
    every consumer of the partition from that offset on. Stricter than Kafka in two ways, both
    things no client writes: offset deltas must be the records' indexes (Kafka rewrites them in
    compressed batches and stores them as sent in others), and header keys must be UTF-8 (Java
    decodes bad bytes as U+FFFD; Python consumers, ours included, refuse them). A compressed batch
    is inflated into at most MAX_DECOMPRESSED_BATCH_BYTES (a decompression bomb is refused, never
    held in memory whole), or `limit` when that is smaller (the event loop's inline budget). Safe
    on any thread: the decompression and the C walk release the GIL.
    """
    size = h.batch_length + LOG_OVERHEAD
    codec = h.attributes & COMPRESSION_MASK
    if not codec:
        return _check_record_section(buf, pos + BATCH_HEADER_SIZE, pos + size, h.record_count)
    section = memoryview(buf)[pos + BATCH_HEADER_SIZE : pos + size]
    bound = MAX_DECOMPRESSED_BATCH_BYTES if limit is None else min(limit, MAX_DECOMPRESSED_BATCH_BYTES)
    with decompressed_bounded(codec, section, bound) as (out, n):
        return _check_record_section(out, 0, n, h.record_count)


def _check_record_section(data: Buffer | mmap.mmap, start: int, stop: int, count: int) -> int:
    if native_records is not None:
        try:
            keyless: int = native_records.check_records(data, start, stop, count)
        except ValueError as e:
            raise CorruptRecordError(f"the records of the batch do not match it: {e}") from None
        return keyless
    if type(data) is not bytes:
        data, start, stop = bytes(memoryview(data)[start:stop]), 0, stop - start
    records = _decode_records(data, start, stop, count, 0, 0, None)
    for i, r in enumerate(records):
        if r.offset != i:
            raise CorruptRecordError(
                "the records of the batch do not match it: record offset deltas are not 0, 1, 2, ..."
            )
    return sum(r.key is None for r in records)


def decode_batch(buf: Buffer, pos: int = 0, *, verify_crc: bool = True) -> tuple[BatchHeader, list[Record]]:
    """Decode (decompressing if needed) the batch at `pos` into its header and records.

    Control batches decode like any other: their records carry the raw control key/value
    (see decode_control_record). With `verify_crc` the batch is fully validated first.
    """
    h = _check_batch(buf, pos, None, verify_crc)
    return h, _decode_body(buf, pos, h)


def decode_batches(
    buf: Buffer, pos: int = 0, *, verify_crc: bool = True, include_control: bool = False
) -> Iterator[Record]:
    """Records of every complete batch in `buf` (a partial trailing batch is skipped).

    Control batches (transaction markers) are skipped unless `include_control`, since a
    consumer never hands them to the application.
    """
    for p, h in iter_batches(buf, pos, allow_partial_tail=True):
        if h.is_control and not include_control:
            continue
        if verify_crc:
            _check_batch(buf, p, None, True)
        elif h.attributes & COMPRESSION_MASK > MAX_CODEC:
            raise UnsupportedCompressionTypeError(
                f"record batch uses unknown compression codec {h.attributes & COMPRESSION_MASK}"
            )
        yield from _decode_body(buf, p, h)


# --------------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------------

HeaderLike = tuple[str | bytes, bytes | None]
# (timestamp, key, value, headers) or a Record.
RecordLike = Record | tuple[int | None, bytes | None, bytes | None, Iterable[HeaderLike] | None]


def _encode_record(
    out: bytearray,
    offset_delta: int,
    timestamp_delta: int,
    key: bytes | bytearray | memoryview | None,
    value: bytes | bytearray | memoryview | None,
    headers: Iterable[HeaderLike] | None,
    attributes: int,
) -> None:
    body = bytearray((attributes & 0xFF,))
    write_varint(body, timestamp_delta)
    write_varint(body, offset_delta)
    if key is None:
        body.append(1)  # zig-zag -1: null
    else:
        write_varint(body, len(key) if not isinstance(key, memoryview) else key.nbytes)
        body += key
    if value is None:
        body.append(1)
    else:
        write_varint(body, len(value) if not isinstance(value, memoryview) else value.nbytes)
        body += value
    hs = list(headers) if headers else ()
    write_varint(body, len(hs))
    for hkey, hval in hs:
        kb = hkey.encode("utf-8") if isinstance(hkey, str) else bytes(hkey)
        write_varint(body, len(kb))
        body += kb
        if hval is None:
            body.append(1)
        else:
            hv = bytes(hval)
            write_varint(body, len(hv))
            body += hv
    write_varint(out, len(body))
    out += body


def build_batch(
    records: Iterable[RecordLike],
    *,
    base_offset: int = 0,
    compression: int = 0,
    producer_id: int = NO_PRODUCER_ID,
    producer_epoch: int = NO_PRODUCER_EPOCH,
    base_sequence: int = NO_SEQUENCE,
    is_transactional: bool = False,
    is_control: bool = False,
    partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
    timestamp_type: int = 0,
) -> bytes:
    """Encode a v2 record batch.

    `records` are (timestamp, key, value, headers) tuples, whose offset deltas are 0, 1, 2, ...,
    or Record objects, whose offset delta is `record.offset - base_offset` (so a decoded batch
    re-encodes to the same offsets). A None timestamp means "now". baseTimestamp is the first
    record's timestamp and maxTimestamp the largest, as the Java producer writes them.
    """
    if not 0 <= compression <= MAX_CODEC:
        raise UnsupportedCompressionTypeError(f"unsupported compression codec {compression}")
    body = bytearray()
    base_ts: int | None = None
    max_ts = NO_TIMESTAMP
    last_delta = -1
    count = 0
    ts: int | None
    headers: Iterable[HeaderLike] | None
    for i, r in enumerate(records):
        if isinstance(r, Record):
            ts, key, value, headers, attrs = r.timestamp, r.key, r.value, r.headers, r.attributes
            delta = r.offset - base_offset
        else:
            ts, key, value, headers = r
            attrs = 0
            delta = i
        if delta <= last_delta:
            raise ValueError(f"record offsets must increase: delta {delta} after {last_delta}")
        if ts is None:
            ts = int(time.time() * 1000)
        if base_ts is None:
            base_ts = max_ts = ts
        elif ts > max_ts:
            max_ts = ts
        _encode_record(body, delta, ts - base_ts, key, value, headers, attrs)
        last_delta = delta
        count += 1
    if count == 0:
        raise ValueError("a record batch needs at least one record")
    if last_delta > 0x7FFFFFFF:
        raise ValueError("offset delta does not fit in int32")

    payload: bytes | bytearray = compress(compression, body) if compression else body
    attributes = compression
    if timestamp_type:
        attributes |= TIMESTAMP_TYPE_MASK
    if is_transactional:
        attributes |= TRANSACTIONAL_MASK
    if is_control:
        attributes |= CONTROL_MASK
    header = bytearray(BATCH_HEADER_SIZE)
    _HEADER.pack_into(
        header,
        0,
        base_offset,
        BATCH_HEADER_SIZE - LOG_OVERHEAD + len(payload),
        partition_leader_epoch,
        MAGIC,
        0,  # CRC, filled in below
        attributes,
        last_delta,
        base_ts,
        max_ts,
        producer_id,
        producer_epoch,
        base_sequence,
        count,
    )
    # CRC-32C over attributes..end, computed incrementally to avoid joining first.
    crc = _crc32c(payload, _crc32c(memoryview(header)[_ATTRIBUTES_OFFSET:]))
    _U32.pack_into(header, _CRC_OFFSET, crc)
    return b"".join((header, payload))


def build_control_batch(
    producer_id: int,
    producer_epoch: int,
    commit: bool,
    coordinator_epoch: int,
    timestamp: int,
    base_offset: int = 0,
    partition_leader_epoch: int = NO_PARTITION_LEADER_EPOCH,
) -> bytes:
    """A transaction marker: a transactional control batch holding one COMMIT/ABORT record."""
    ctype = ControlRecordType.COMMIT if commit else ControlRecordType.ABORT
    key = _CONTROL_KEY.pack(0, ctype)
    value = _CONTROL_VALUE.pack(0, coordinator_epoch)
    return build_batch(
        [(timestamp, key, value, None)],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=NO_SEQUENCE,
        is_transactional=True,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )


__all__ = [
    "BATCH_HEADER_SIZE",
    "LOG_OVERHEAD",
    "COMPRESSION_MASK",
    "TIMESTAMP_TYPE_MASK",
    "TRANSACTIONAL_MASK",
    "CONTROL_MASK",
    "NO_PRODUCER_ID",
    "NO_PRODUCER_EPOCH",
    "NO_SEQUENCE",
    "NO_PARTITION_LEADER_EPOCH",
    "NO_TIMESTAMP",
    "MAGIC",
    "BatchHeader",
    "Record",
    "ControlRecordType",
    "parse_batch_header",
    "validate_batch",
    "iter_batches",
    "stamp_batch",
    "set_log_append_time",
    "decode_batch",
    "decode_batches",
    "decode_control_record",
    "build_batch",
    "build_control_batch",
]
