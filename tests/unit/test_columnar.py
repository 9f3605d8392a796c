"""kafka_wire.columnar (bulk decode into columns) against kafka_wire.records (the per-record oracle),
and connector.source.arrow (columns → Arrow in Spark's exact schema)."""

from __future__ import annotations

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connector.source.arrow import ARROW_SCHEMA, ARROW_SCHEMA_WITH_HEADERS, spark_schema, to_record_batch
from kafka_wire.columnar import LOG_APPEND_TIME, decode_columns, scan_records
from kafka_wire.errors import CorruptRecordError
from kafka_wire.records import build_batch, build_control_batch, decode_batches

blob = st.none() | st.binary(max_size=300)
headers = st.lists(st.tuples(st.text(max_size=8), st.none() | st.binary(max_size=20)), max_size=3)
record = st.tuples(st.integers(0, 2**41), blob, blob, headers)


@st.composite
def fetch_buffers(draw: st.DrawFn) -> bytes:
    parts = []
    offset = draw(st.integers(0, 10**6))
    for _ in range(draw(st.integers(1, 5))):
        recs = draw(st.lists(record, min_size=1, max_size=40))
        codec = draw(st.integers(0, 4))
        parts.append(
            build_batch(recs, base_offset=offset, compression=codec, timestamp_type=draw(st.sampled_from([0, 1])))
        )
        offset += len(recs) + draw(st.integers(0, 3))  # gaps, as after compaction
    return b"".join(parts)


def _expected(buf: bytes) -> list[tuple[int, int, bytes | None, bytes | None, list[tuple[str, bytes | None]]]]:
    return [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in decode_batches(buf)]


@given(fetch_buffers())
@settings(max_examples=150, deadline=None)
def test_columns_match_record_decoder(buf: bytes) -> None:
    cols = decode_columns(buf, headers=True)
    got = list(zip(cols.offsets, cols.timestamps, cols.keys(), cols.values(), cols.headers(), strict=True))
    assert got == _expected(buf)


@given(fetch_buffers(), st.data())
@settings(max_examples=100, deadline=None)
def test_arrow_batch_matches(buf: bytes, data: st.DataObject) -> None:
    cols = decode_columns(buf, headers=True)
    n = len(cols)
    start = data.draw(st.integers(0, n))
    stop = data.draw(st.integers(start, n))
    rb = to_record_batch(cols, "topic", 7, start, stop, include_headers=True)
    assert rb.schema.equals(ARROW_SCHEMA_WITH_HEADERS)
    rows = rb.to_pylist()
    exp = _expected(buf)[start:stop]
    assert [r["offset"] for r in rows] == [e[0] for e in exp]
    assert [r["key"] for r in rows] == [e[2] for e in exp]
    assert [r["value"] for r in rows] == [e[3] for e in exp]
    assert [r["headers"] for r in rows] == [[{"key": k, "value": v} for k, v in e[4]] or None for e in exp]
    assert all(r["topic"] == "topic" and r["partition"] == 7 for r in rows)
    ts = rb.column("timestamp").cast(pa.int64()).to_pylist()
    assert ts == [e[1] * 1000 for e in exp]


def test_log_append_time_and_types() -> None:
    buf = build_batch([(5, b"k", b"v", None), (9, None, b"w", None)], base_offset=3, timestamp_type=1)
    cols = decode_columns(buf)
    assert list(cols.timestamp_types) == [LOG_APPEND_TIME] * 2
    assert list(cols.timestamps) == [9, 9]  # maxTimestamp for every record
    rb = to_record_batch(cols, "t", 0, include_headers=False)
    assert rb.schema.equals(ARROW_SCHEMA)
    assert rb.column("timestampType").to_pylist() == [1, 1]


def test_control_batches_skipped_and_next_offset() -> None:
    data = build_batch([(1, b"a", b"1", None), (1, b"b", b"2", None)], base_offset=0, producer_id=7,
                       producer_epoch=0, base_sequence=0, is_transactional=True)  # fmt: skip
    marker = build_control_batch(7, 0, commit=True, coordinator_epoch=0, timestamp=2, base_offset=2)
    cols = decode_columns(data + marker)
    assert list(cols.offsets) == [0, 1]
    assert cols.next_offset == 3
    only_marker = decode_columns(marker)
    assert len(only_marker) == 0 and only_marker.next_offset == 3


def test_aborted_transactions_are_dropped_under_read_committed() -> None:
    def txn(pid: int, base: int, n: int) -> bytes:
        return build_batch([(1, b"k", b"%d" % (base + i), None) for i in range(n)], base_offset=base,
                           producer_id=pid, producer_epoch=0, base_sequence=0, is_transactional=True)  # fmt: skip

    buf = b"".join(
        [
            build_batch([(1, None, b"plain", None)], base_offset=0),
            txn(7, 1, 2),  # aborted
            txn(8, 3, 2),  # committed
            build_control_batch(7, 0, commit=False, coordinator_epoch=0, timestamp=1, base_offset=5),
            build_control_batch(8, 0, commit=True, coordinator_epoch=0, timestamp=1, base_offset=6),
            txn(7, 7, 1),  # a later transaction of producer 7, committed
            build_control_batch(7, 0, commit=True, coordinator_epoch=0, timestamp=1, base_offset=8),
        ]
    )
    assert list(decode_columns(buf).offsets) == [0, 1, 2, 3, 4, 7]  # read_uncommitted
    assert list(decode_columns(buf, aborted=[(7, 1)]).offsets) == [0, 3, 4, 7]
    assert decode_columns(buf, aborted=[(7, 1)]).next_offset == 9


def test_partial_tail_is_ignored() -> None:
    a = build_batch([(1, b"k", b"v", None)], base_offset=0)
    b = build_batch([(1, b"k", b"w", None)] * 3, base_offset=1)
    cols = decode_columns(a + b[:-5])
    assert list(cols.offsets) == [0] and cols.next_offset == 1
    assert decode_columns(b"").next_offset == -1


def test_crc_checked() -> None:
    buf = bytearray(build_batch([(1, b"k", b"value", None)], base_offset=0))
    buf[-2] ^= 0xFF
    with pytest.raises(CorruptRecordError, match="CRC"):
        decode_columns(bytes(buf))
    assert len(decode_columns(bytes(buf), verify_crc=False)) == 1


def test_corrupt_record_lengths() -> None:
    good = build_batch([(1, b"k", b"value", None)], base_offset=0)
    # lie about the record count: the decoder must notice it runs out of bytes
    bad = bytearray(good)
    bad[57:61] = (2).to_bytes(4, "big")
    with pytest.raises(CorruptRecordError):
        decode_columns(bytes(bad), verify_crc=False)


def test_arrow_schema_is_what_pyspark_expects() -> None:
    pytest.importorskip("pyspark")
    from pyspark.sql.pandas.types import to_arrow_schema

    assert to_arrow_schema(spark_schema(False), timezone="UTC").equals(ARROW_SCHEMA)
    assert to_arrow_schema(spark_schema(True), timezone="UTC").equals(ARROW_SCHEMA_WITH_HEADERS)


def test_all_null_keys_and_empty() -> None:
    buf = build_batch([(1, None, b"v%d" % i, None) for i in range(5)], base_offset=0)
    rb = to_record_batch(decode_columns(buf), "t", 0, include_headers=False)
    assert rb.column("key").null_count == 5 and rb.column("value").to_pylist()[4] == b"v4"
    empty = to_record_batch(decode_columns(buf), "t", 0, 2, 2, include_headers=True)
    assert empty.num_rows == 0 and empty.schema.equals(ARROW_SCHEMA_WITH_HEADERS)


# --- the vectorized path: scan_records + index_to_record_batch -------------------------------------


@given(fetch_buffers(), st.data(), st.booleans())
@settings(max_examples=150, deadline=None)
def test_vectorized_decoder_matches_python_decoder(buf: bytes, data: st.DataObject, headers: bool) -> None:
    from connector.source.arrow import index_to_record_batch

    cols = decode_columns(buf, headers=headers)
    offsets = list(cols.offsets)
    lo = data.draw(st.integers(offsets[0] - 2, offsets[-1] + 2))
    hi = data.draw(st.integers(lo, offsets[-1] + 3))
    expected = to_record_batch(cols, "tp", 3, cols.index_of(lo), cols.index_of(hi), include_headers=headers)
    got = index_to_record_batch(scan_records(buf), "tp", 3, lo, hi, include_headers=headers)
    if expected.num_rows == 0:
        assert got is None
    else:
        assert got is not None and got.schema.equals(expected.schema)
        assert got.to_pylist() == expected.to_pylist()
    assert scan_records(buf).next_offset == cols.next_offset


def test_records_to_arrow_falls_back_on_inconsistent_records() -> None:
    from connector.source.partition_reader import records_to_arrow

    recs = [(1000 + i, b"k%d" % i, b"v" * 300, None) for i in range(300)]
    buf = build_batch(recs, base_offset=0)
    batch, nxt = records_to_arrow(buf, "t", 0, 0, 1 << 40, verify_crc=True, aborted=None, include_headers=False)
    assert batch is not None and batch.num_rows == 300 and nxt == 300
    # a key length that overruns its record: both decoders refuse it (without the CRC check)
    bad = bytearray(buf)
    first_key_len = 61 + 5  # batch header, length varint (2 bytes), attributes, ts delta, offset delta
    assert bad[first_key_len] == 4  # zig-zag of 2 ("k0")
    bad[first_key_len] = 0x7E  # 63: far past this record's end
    with pytest.raises(CorruptRecordError):
        records_to_arrow(bytes(bad), "t", 0, 0, 1 << 40, verify_crc=False, aborted=None, include_headers=False)


def test_vectorized_multi_byte_varints() -> None:
    from connector.source.arrow import index_to_record_batch

    # 20 KB values (3-byte lengths), timestamps far apart (long deltas), offset deltas > 63
    recs = [(10**12 + i * 10**9, b"k" * (i % 200), b"x" * 20_000 if i % 2 else None, None) for i in range(400)]
    buf = build_batch(recs, base_offset=7, compression=4)
    got = index_to_record_batch(scan_records(buf), "t", 0, 0, 10**9, include_headers=True)
    exp = to_record_batch(decode_columns(buf, headers=True), "t", 0, include_headers=True)
    assert got is not None and got.to_pylist() == exp.to_pylist()


@given(fetch_buffers(), st.binary(max_size=40), st.binary(max_size=40))
@settings(max_examples=50, deadline=None)
def test_scan_in_place_within_a_frame(buf: bytes, prefix: bytes, suffix: bytes) -> None:
    """A records section given as (frame, start, stop) decodes like the section on its own."""
    from connector.source.arrow import index_to_record_batch
    from connector.source.partition_reader import _in_place

    frame = prefix + buf + suffix
    view = memoryview(frame)[len(prefix) : len(prefix) + len(buf)]
    whole, start, stop = _in_place(view)
    assert whole is frame and (start, stop) == (len(prefix), len(prefix) + len(buf))
    a = index_to_record_batch(scan_records(whole, start=start, stop=stop), "t", 0, 0, 1 << 62, include_headers=True)
    b = index_to_record_batch(scan_records(buf), "t", 0, 0, 1 << 62, include_headers=True)
    assert a is not None and b is not None and a.equals(b)
