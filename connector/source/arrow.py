"""The source's schema (Spark's Kafka source schema) and records → Arrow.

`read()` must yield `pyarrow.RecordBatch`es whose schema *equals* what pyspark derives from the
Spark schema (`to_arrow_schema(schema, timezone="UTC")`): pyspark ≥ 4.2 compares the first batch
with `Schema.equals` (types and nullability; `binary` not `large_binary`, `timestamp[us, UTC]`).

The conversion takes `kafka_wire.columnar.Columns` and never creates a per-record Python object:
integer columns are zero-copy views of the `array.array`s; keys and values are one `take` over a
binary array laid on the decoded data buffer (see `kafka_wire.columnar` for the bounds trick).
"""

from __future__ import annotations

import sys
from array import array
from itertools import accumulate

import pyarrow as pa
import pyarrow.compute as pc

from connector.schema import SCHEMA_DDL, SCHEMA_DDL_WITH_HEADERS, spark_schema
from kafka_wire.columnar import ArrowBuffers, Columns, RecordIndex, decode_headers
from kafka_wire.errors import PykafkaError

HEADER_TYPE = pa.struct([pa.field("key", pa.string()), pa.field("value", pa.binary())])
HEADERS_TYPE = pa.list_(pa.field("element", HEADER_TYPE))
TIMESTAMP_TYPE = pa.timestamp("us", tz="UTC")

_BASE_FIELDS = [
    pa.field("key", pa.binary()),
    pa.field("value", pa.binary()),
    pa.field("topic", pa.string()),
    pa.field("partition", pa.int32()),
    pa.field("offset", pa.int64()),
    pa.field("timestamp", TIMESTAMP_TYPE),
    pa.field("timestampType", pa.int32()),
]
ARROW_SCHEMA = pa.schema(_BASE_FIELDS)
ARROW_SCHEMA_WITH_HEADERS = pa.schema([*_BASE_FIELDS, pa.field("headers", HEADERS_TYPE)])


def arrow_schema(include_headers: bool) -> pa.Schema:
    return ARROW_SCHEMA_WITH_HEADERS if include_headers else ARROW_SCHEMA


# Even indexes 0, 2, 4, ... grown on demand and sliced: picks the keys/values out of a
# bounds-as-offsets binary array (kafka_wire.columnar).
_even = pa.array(array("q", range(0, 2 * 65536, 2)), pa.int64())


def _even_indexes(start: int, n: int) -> pa.Array:
    global _even
    if start + n > len(_even):
        size = max(2 * len(_even), start + n)
        _even = pa.array(array("q", range(0, 2 * size, 2)), pa.int64())
    return _even.slice(start, n)


def _binary_column(data_buffer: pa.Buffer, bounds: array, nulls: list[int], start: int, n: int) -> pa.Array:
    count = len(bounds) // 2
    if count == 0 or n == 0:
        return pa.array([], pa.binary())
    if len(nulls) == count:
        return pa.nulls(n, pa.binary())
    # 2*count offsets describe 2*count-1 elements: keys/values at even indexes, framing between.
    spans = pa.Array.from_buffers(pa.binary(), 2 * count - 1, [None, pa.py_buffer(bounds), data_buffer])
    taken = spans.take(_even_indexes(start, n))
    if not nulls:
        return taken
    lo, hi = start, start + n
    mine = [i - lo for i in nulls if lo <= i < hi]
    if not mine:
        return taken
    valid = [True] * n
    for i in mine:
        valid[i] = False
    validity = pa.array(valid, pa.bool_()).buffers()[1]
    return pa.Array.from_buffers(pa.binary(), n, [validity, taken.buffers()[1], taken.buffers()[2]], len(mine))


def _int_column(values: array, type_: pa.DataType, start: int, n: int) -> pa.Array:
    return pa.Array.from_buffers(type_, len(values), [None, pa.py_buffer(values)]).slice(start, n)


def _headers_column(cols: Columns, start: int, n: int) -> pa.Array:
    hc = cols.header_counts
    assert hc is not None and cols.header_keys is not None and cols.header_values is not None
    offsets = pa.array(array("i", hc[start : start + n + 1]), pa.int32())
    lo, hi = hc[start], hc[start + n]
    entries = pa.StructArray.from_arrays(
        [
            pa.array(cols.header_keys[lo:hi], pa.string()),
            pa.array(cols.header_values[lo:hi], pa.binary()),
        ],
        fields=list(HEADER_TYPE),
    )
    if lo:
        offsets = pc.subtract(offsets, pa.scalar(lo, pa.int32()))
    # Spark's Kafka source gives null, not an empty array, for a record without headers
    empty = pc.equal(pc.subtract(offsets.slice(1), offsets.slice(0, n)), pa.scalar(0, pa.int32()))
    return pa.ListArray.from_arrays(offsets, entries, type=HEADERS_TYPE, mask=empty)


def to_record_batch(
    cols: Columns, topic: str, partition: int, start: int = 0, stop: int | None = None, *, include_headers: bool
) -> pa.RecordBatch:
    """Records [start, stop) of `cols` (indexes, not offsets) as one batch in the source schema."""
    if stop is None:
        stop = len(cols)
    n = max(0, stop - start)
    schema = arrow_schema(include_headers)
    if n == 0:
        return empty_batch(include_headers)
    data = pa.py_buffer(cols.data)
    ts_ms = _int_column(cols.timestamps, pa.int64(), start, n)
    arrays = [
        _binary_column(data, cols.key_bounds, cols.key_nulls, start, n),
        _binary_column(data, cols.value_bounds, cols.value_nulls, start, n),
        pa.repeat(pa.scalar(topic, pa.string()), n),
        pa.repeat(pa.scalar(partition, pa.int32()), n),
        _int_column(cols.offsets, pa.int64(), start, n),
        pc.multiply(ts_ms, pa.scalar(1000, pa.int64())).view(TIMESTAMP_TYPE),
        _int_column(cols.timestamp_types, pa.int32(), start, n),
    ]
    if include_headers:
        arrays.append(_headers_column(cols, start, n))
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def empty_batch(include_headers: bool) -> pa.RecordBatch:
    return pa.RecordBatch.from_pylist([], schema=arrow_schema(include_headers))


__all__ = [
    "ARROW_SCHEMA",
    "ARROW_SCHEMA_WITH_HEADERS",
    "SCHEMA_DDL",
    "SCHEMA_DDL_WITH_HEADERS",
    "arrow_schema",
    "empty_batch",
    "spark_schema",
    "to_record_batch",
]


# --------------------------------------------------------------------------------------------
# Vectorized decode: kafka_wire.columnar.scan_records found the records; Arrow kernels decode
# their insides for all records at once (each kernel call costs microseconds, so this pays off
# from a few hundred records per call: the source fetches several MB per partition at a time).
# --------------------------------------------------------------------------------------------

_I64 = pa.int64()


def _i(v: int) -> pa.Scalar:
    # Always typed scalars: given a bare Python int, pyarrow.compute infers its type through a
    # path that tries to import numpy, ~100 µs per call when numpy is not installed.
    return pa.scalar(v, _I64)


_U8_7F = pa.scalar(0x7F, pa.uint8())
_U8_80 = pa.scalar(0x80, pa.uint8())
_ZERO, _ONE, _THOUSAND = _i(0), _i(1), _i(1000)
# zig-zag value of every single-byte varint (bytes >= 0x80 never looked up here)
_ZIGZAG1 = pa.array([(b >> 1) ^ -(b & 1) for b in range(256)], _I64)
_LITTLE_ENDIAN = sys.byteorder == "little"


class VectorDecodeError(PykafkaError, ValueError):
    """The records do not decode consistently: the caller falls back to the exact Python decoder."""


def _varints(u8: pa.Array, pos: pa.Array, last: int) -> tuple[pa.Array, pa.Array]:
    """Zig-zag varints starting at `pos` (int64 positions into `u8`): (values, positions after)."""
    b = u8.take(pos)
    if pc.max(b).as_py() < 0x80:  # the common case: every varint is one byte
        return _ZIGZAG1.take(b), pc.add(pos, _ONE)
    acc = pc.cast(pc.bit_wise_and(b, _U8_7F), _I64)
    active = pc.greater_equal(b, _U8_80)
    extra = pc.cast(active, _I64)
    last_s = _i(last)
    k = 1
    while pc.any(active).as_py():
        if k >= 10:
            raise VectorDecodeError("varint longer than 10 bytes")
        bk = u8.take(pc.min_element_wise(pc.add(pos, _i(k)), last_s))
        part = pc.shift_left(pc.cast(pc.bit_wise_and(bk, _U8_7F), _I64), _i(7 * k))
        acc = pc.if_else(active, pc.bit_wise_or(acc, part), acc)
        active = pc.and_(active, pc.greater_equal(bk, _U8_80))
        extra = pc.add(extra, pc.cast(active, _I64))
        k += 1
    value = pc.bit_wise_xor(pc.shift_right(acc, _ONE), pc.negate(pc.bit_wise_and(acc, _ONE)))
    return value, pc.add(pc.add(pos, _ONE), extra)


class _Batches:
    """Expands one value per record batch to one per record (a `take` by batch number)."""

    def __init__(self, idx: RecordIndex) -> None:
        self.n = len(idx)
        self.single = len(idx.counts) == 1
        if not self.single:
            numbers = array("i")
            for j, c in enumerate(idx.counts):
                numbers.extend(array("i", (j,)) * c)
            self.numbers = pa.Array.from_buffers(pa.int32(), self.n, [None, pa.py_buffer(numbers)])

    def expand(self, values: list[int], type_: pa.DataType = _I64) -> pa.Array:
        if self.single:
            return pa.repeat(pa.scalar(values[0], type_), self.n)
        return pa.array(values, type_).take(self.numbers)


def _spans(data: pa.Buffer, start: pa.Array, end: pa.Array, length: pa.Array) -> pa.Array:
    """Binary array of data[start[i]:end[i]]; a negative `length` marks a null."""
    n = len(start)
    if n == 0:
        return pa.array([], pa.binary())
    nulls = pc.less(length, _ZERO)
    null_count = pc.sum(nulls).as_py() or 0
    if null_count == n:
        return pa.nulls(n, pa.binary())
    # one int64 per record holding (start, end) as two little-endian int32s: read as int32s, that
    # is the interleaved run [start0, end0, start1, end1, ...] = binary offsets (see columnar)
    pairs = pc.add(start, pc.shift_left(end, _i(32))).buffers()[1]
    spans = pa.Array.from_buffers(pa.binary(), 2 * n - 1, [None, pairs, data])
    taken = spans.take(_even_indexes(0, n))
    if not null_count:
        return taken
    validity = pc.invert(nulls).buffers()[1]
    return pa.Array.from_buffers(pa.binary(), n, [validity, taken.buffers()[1], taken.buffers()[2]], null_count)


def index_to_record_batch(
    idx: RecordIndex,
    topic: str,
    partition: int,
    from_offset: int,
    until_offset: int,
    *,
    include_headers: bool,
) -> pa.RecordBatch | None:
    """Records of `idx` with from_offset <= offset < until_offset, as one batch (None if none).

    Raises VectorDecodeError when the records are not self-consistent (corrupt data, or a
    layout this path does not handle); `kafka_wire.columnar.decode_columns` then gives the exact
    error or the right answer.
    """
    n = len(idx)
    if n == 0 or not _LITTLE_ENDIAN:
        if n and not _LITTLE_ENDIAN:
            raise VectorDecodeError("the vectorized decoder assumes a little-endian machine")
        return None
    data = pa.py_buffer(idx.data)
    u8 = pa.Array.from_buffers(pa.uint8(), len(idx.data), [None, data])
    last = len(idx.data) - 1
    r = pc.cast(pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(idx.positions)]), _I64)
    length, s = _varints(u8, r, last)
    end = pc.add(s, length)
    # scan_records chained the lengths up to each batch's end with the same arithmetic; a
    # negative length is all it could have missed
    if pc.min(length).as_py() < 6:
        raise VectorDecodeError("record length below the minimum")
    per_batch = _Batches(idx)
    # attributes byte at s; timestampDelta; offsetDelta
    tsd, p = _varints(u8, pc.add(s, _ONE), last)
    od, p = _varints(u8, p, last)
    offsets = pc.add(per_batch.expand(idx.base_offsets), od)
    i0 = pc.sum(pc.less(offsets, _i(from_offset))).as_py() or 0
    i1 = pc.sum(pc.less(offsets, _i(until_offset))).as_py() or 0
    if i1 <= i0:
        return None
    m = i1 - i0
    if i0 or i1 < n:
        # only the wanted records from here on
        offsets, tsd, p, end = offsets.slice(i0, m), tsd.slice(i0, m), p.slice(i0, m), end.slice(i0, m)
    klen, p = _varints(u8, p, last)
    kend = pc.add(p, pc.max_element_wise(klen, _ZERO))
    vlen, vstart = _varints(u8, kend, last)
    vend = pc.add(vstart, pc.max_element_wise(vlen, _ZERO))
    if (
        pc.min(klen).as_py() < -1
        or pc.min(vlen).as_py() < -1
        or not pc.all(pc.less(vend, end)).as_py()  # the header count still fits in the record
    ):
        raise VectorDecodeError("key/value lengths overrun their record")
    log_append = per_batch.expand([int(x) for x in idx.log_append_time], pa.int32())
    ts_base = per_batch.expand(
        [
            mt if la else bt
            for bt, mt, la in zip(idx.base_timestamps, idx.max_timestamps, idx.log_append_time, strict=True)
        ]
    )
    if i0 or i1 < n:
        log_append, ts_base = log_append.slice(i0, m), ts_base.slice(i0, m)
    # LogAppendTime batches: every record has the batch's max timestamp (deltas ignored)
    ts_ms = pc.add(ts_base, pc.multiply(tsd, pc.subtract(_ONE, pc.cast(log_append, _I64))))
    arrays = [
        _spans(data, p, kend, klen),
        _spans(data, vstart, vend, vlen),
        pa.repeat(pa.scalar(topic, pa.string()), m),
        pa.repeat(pa.scalar(partition, pa.int32()), m),
        offsets,
        pc.multiply(ts_ms, _THOUSAND).view(TIMESTAMP_TYPE),
        log_append,
    ]
    headers = _vector_headers(idx.data, u8, vend, end, last)  # also validates the records' tails
    if include_headers:
        arrays.append(headers)
    return pa.RecordBatch.from_arrays(arrays, schema=arrow_schema(include_headers))


def _vector_headers(data: bytes, u8: pa.Array, hpos: pa.Array, end: pa.Array, last: int) -> pa.Array:
    count, after = _varints(u8, hpos, last)
    m = len(hpos)
    with_headers = pc.greater(count, _ZERO)
    if not pc.all(pc.or_(with_headers, pc.equal(after, end))).as_py():
        raise VectorDecodeError("records without headers do not end after their header count")
    if not pc.any(with_headers).as_py():
        return pa.nulls(m, HEADERS_TYPE)
    # headers are rare: parse the records that have some in Python
    keys: list[str] = []
    values: list[bytes | None] = []
    counts = [0] * m
    hp = hpos.to_pylist()
    ends = end.to_pylist()
    for i in pc.indices_nonzero(with_headers).to_pylist():
        before = len(keys)
        stop = decode_headers(data, hp[i], keys, values)
        if stop != ends[i]:
            raise VectorDecodeError("headers do not end where their record ends")
        counts[i] = len(keys) - before
    offsets = pa.array([0, *accumulate(counts)], pa.int32())
    entries = pa.StructArray.from_arrays(
        [pa.array(keys, pa.string()), pa.array(values, pa.binary())], fields=list(HEADER_TYPE)
    )
    return pa.ListArray.from_arrays(offsets, entries, type=HEADERS_TYPE, mask=pc.invert(with_headers))


# --------------------------------------------------------------------------------------------
# Native decode: kafka_wire.columnar.decode_to_buffers wrote the Arrow buffers; wrap them (no copy).
# --------------------------------------------------------------------------------------------


def buffers_to_record_batch(
    b: ArrowBuffers, topic: str, partition: int, *, include_headers: bool
) -> pa.RecordBatch | None:
    """The records of `b` as one batch in the source schema (None if there are none)."""
    n = b.length
    if n == 0:
        return None
    buf = _as_buffer
    arrays = [
        pa.Array.from_buffers(
            pa.binary(),
            n,
            [None if b.key_validity is None else buf(b.key_validity), buf(b.key_offsets), buf(b.key_data)],
            b.key_nulls,
        ),
        pa.Array.from_buffers(
            pa.binary(),
            n,
            [None if b.value_validity is None else buf(b.value_validity), buf(b.value_offsets), buf(b.value_data)],
            b.value_nulls,
        ),
        pa.repeat(pa.scalar(topic, pa.string()), n),
        pa.repeat(pa.scalar(partition, pa.int32()), n),
        pa.Array.from_buffers(_I64, n, [None, buf(b.offsets)]),
        pa.Array.from_buffers(TIMESTAMP_TYPE, n, [None, buf(b.timestamps_us)]),
        pa.Array.from_buffers(pa.int32(), n, [None, buf(b.timestamp_types)]),
    ]
    if include_headers:
        arrays.append(_buffers_headers(b))
    return pa.RecordBatch.from_arrays(arrays, schema=arrow_schema(include_headers))


def _as_buffer(b: object) -> pa.Buffer:
    return b if isinstance(b, pa.Buffer) else pa.py_buffer(b)  # (py_buffer does not copy either)


def allocate(size: int) -> pa.ResizableBuffer:
    """Output buffers of `kafka_wire.columnar.decode_to_buffers`, from Arrow's memory pool."""
    return pa.allocate_buffer(size, resizable=True)


def trim(buf: pa.ResizableBuffer, size: int) -> pa.ResizableBuffer:
    """Cut an `allocate`d buffer to `size` (in place when it shrinks little, as the values' does)."""
    if buf.size != size:
        buf.resize(size, shrink_to_fit=True)
    return buf


def _buffers_headers(b: ArrowBuffers) -> pa.Array:
    n = b.length
    if not b.header_indexes:
        return pa.nulls(n, HEADERS_TYPE)
    counts = [0] * n
    valid = [False] * n
    for i, c in zip(b.header_indexes, b.header_counts, strict=True):
        counts[i] = c
        valid[i] = True
    offsets = pa.array([0, *accumulate(counts)], pa.int32())
    entries = pa.StructArray.from_arrays(
        [pa.array(b.header_keys, pa.string()), pa.array(b.header_values, pa.binary())], fields=list(HEADER_TYPE)
    )
    # Spark's Kafka source gives null, not an empty array, for a record without headers
    return pa.ListArray.from_arrays(offsets, entries, type=HEADERS_TYPE, mask=pc.invert(pa.array(valid)))
