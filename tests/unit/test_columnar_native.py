"""The C record loop (kafka_wire/_columnar_ext.c, `decode_to_buffers`) against the all-Python decoder.

`connector.source.partition_reader.records_to_arrow` uses the C loop when it is built and the pure-Python
paths (`scan_records` + Arrow kernels, `decode_columns`) otherwise: both must give the same
RecordBatch on every input, and the same CorruptRecordError on corrupt input.
"""

from __future__ import annotations

import os

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafka_wire.columnar as columnar
from connector.source.arrow import allocate, buffers_to_record_batch, to_record_batch, trim
from connector.source.partition_reader import records_to_arrow
from kafka_wire.columnar import NativeDecodeError, decode_columns, decode_to_buffers, native_decoder_available
from kafka_wire.errors import CorruptRecordError
from kafka_wire.records import build_batch, build_control_batch

if not native_decoder_available():
    if os.environ.get("CI"):
        pytest.fail("kafka_wire._columnar_ext is not built (pip install -e . compiles it)", pytrace=False)
    pytest.skip("kafka_wire._columnar_ext is not built", allow_module_level=True)

blob = st.none() | st.just(b"") | st.binary(max_size=200)
headers = st.none() | st.lists(st.tuples(st.text(max_size=6), st.none() | st.binary(max_size=10)), max_size=2)
timestamp = st.integers(0, 2**41) | st.integers(-(2**40), 2**62)
record = st.tuples(timestamp, blob, blob, headers)


@st.composite
def responses(draw: st.DrawFn) -> tuple[bytes, list[tuple[int, int]] | None]:
    """A fetch response's records: data batches (compressed or not, CreateTime or LogAppendTime, offset
    gaps as after compaction, transactional ones committed or aborted, control batches), maybe cut
    inside its last batch; and its aborted-transaction list when read_committed."""
    parts = []
    aborted: list[tuple[int, int]] = []
    offset = draw(st.integers(0, 10**6))
    for _ in range(draw(st.integers(1, 6))):
        recs = draw(st.lists(record, min_size=1, max_size=30))
        if draw(st.integers(0, 4)) == 0:  # a transaction of one batch, then its marker
            pid = draw(st.integers(1, 3))
            parts.append(build_batch(recs, base_offset=offset, producer_id=pid, producer_epoch=0, base_sequence=0,
                                     is_transactional=True, compression=draw(st.integers(0, 4))))  # fmt: skip
            commit = draw(st.booleans())
            if not commit:
                aborted.append((pid, offset))
            offset += len(recs)
            parts.append(build_control_batch(pid, 0, commit, 0, 1, base_offset=offset))
            offset += 1
            continue
        parts.append(
            build_batch(
                recs,
                base_offset=offset,
                compression=draw(st.integers(0, 4)),
                timestamp_type=draw(st.sampled_from([0, 1])),
            )  # fmt: skip
        )
        offset += len(recs) + draw(st.integers(0, 3))  # gaps
    buf = b"".join(parts)
    if draw(st.booleans()):
        buf = buf[: len(buf) - draw(st.integers(1, min(200, len(parts[-1]))))]  # a partial last batch
    return buf, (aborted if draw(st.booleans()) else None)


def _reference(
    buf: bytes, lo: int, hi: int, aborted: list[tuple[int, int]] | None, include_headers: bool, crc: bool = False
) -> tuple[pa.RecordBatch | None, int]:
    """What the all-Python decoder gives (it raises CorruptRecordError on corrupt input)."""
    cols = decode_columns(buf, verify_crc=crc, aborted=aborted, headers=include_headers)
    i0, i1 = cols.index_of(lo), cols.index_of(hi)
    if i1 <= i0:
        return None, cols.next_offset
    return to_record_batch(cols, "tp", 3, i0, i1, include_headers=include_headers), cols.next_offset


def _same(got: pa.RecordBatch | None, exp: pa.RecordBatch | None) -> None:
    if exp is None:
        assert got is None
    else:
        assert got is not None and got.schema.equals(exp.schema)
        assert got.equals(exp) and _rows(got) == _rows(exp)


def _rows(rb: pa.RecordBatch) -> list[dict]:
    # timestamps as int64 µs: far-off ones (wrapped by the ms → µs product, on both paths) are no datetime
    i = rb.schema.get_field_index("timestamp")
    return rb.set_column(i, "timestamp", rb.column(i).view(pa.int64())).to_pylist()


def _both_paths(buf: bytes, lo: int, hi: int, aborted: list[tuple[int, int]] | None, include_headers: bool) -> None:
    """records_to_arrow with the C loop and without it (pure Python) give the reference's answer."""
    kw = {"verify_crc": True, "aborted": aborted, "include_headers": include_headers}
    native = records_to_arrow(buf, "tp", 3, lo, hi, **kw)
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(columnar, "_native", None)
        python = records_to_arrow(buf, "tp", 3, lo, hi, **kw)
    finally:
        mp.undo()
    exp = _reference(buf, lo, hi, aborted, include_headers)
    # and the C loop took these records itself (no quiet fallback to the Python decoder)
    direct = decode_to_buffers(buf, from_offset=lo, until_offset=hi, aborted=aborted, headers=include_headers,
                               allocate=allocate, trim=trim)  # fmt: skip
    _same(buffers_to_record_batch(direct, "tp", 3, include_headers=include_headers), exp[0])
    for got in (native, python):
        _same(got[0], exp[0])
        assert got[1] == exp[1]


@given(responses(), st.data(), st.booleans())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_native_and_python_paths_agree(resp: tuple[bytes, list | None], data: st.DataObject, hdrs: bool) -> None:
    buf, aborted = resp
    offsets = list(decode_columns(buf, aborted=aborted).offsets) or [0]
    lo = data.draw(st.integers(offsets[0] - 2, offsets[-1] + 2))
    hi = data.draw(st.integers(lo, offsets[-1] + 3))
    _both_paths(buf, lo, hi, aborted, hdrs)
    _both_paths(buf, -(2**70), 2**70, aborted, hdrs)  # the whole response, bounds past int64


def test_many_records_multi_byte_varints_and_nulls() -> None:
    # more records than the Python path's vector threshold; 20 KB values (3-byte lengths), long timestamp
    # deltas, offset deltas > 63, null and empty keys/values, headers on some records
    def value(i: int) -> bytes | None:
        return b"x" * 20_000 if i % 2 else (None if i % 4 else b"")

    recs = [
        (10**12 + i * 10**9, None if i % 7 == 0 else b"k" * (i % 200), value(i),
         [("h", b"%d" % i), ("n", None)] if i % 5 == 0 else None)
        for i in range(400)
    ]  # fmt: skip
    for codec in (0, 4):
        buf = build_batch(recs, base_offset=7, compression=codec) + build_batch(recs[:50], base_offset=1000)
        for hdrs in (False, True):
            _both_paths(buf, 0, 1 << 40, None, hdrs)
            _both_paths(buf, 100, 1020, None, hdrs)


@given(
    st.lists(st.tuples(st.integers(0, 2**31), st.integers(0, 255)), min_size=1, max_size=8),
    st.booleans(),
    st.booleans(),
    st.integers(0, 4),
)
@settings(max_examples=250, deadline=None)
def test_corrupt_records_give_the_python_decoders_answer(
    flips: list[tuple[int, int]], hdrs: bool, crc: bool, codec: int
) -> None:
    """Bytes flipped anywhere past the first batch header: records_to_arrow gives exactly what
    decode_columns gives, a RecordBatch or the same CorruptRecordError (without the CRC check the
    record loop sees the damage; with it, the first failing batch must be the one reported)."""
    recs = [(1000 + i, b"key-%d" % i, b"v" * (i % 150), [("a", b"b")] if i % 9 == 0 else None) for i in range(60)]
    buf = bytearray(
        build_batch(recs, base_offset=5)
        + build_control_batch(3, 0, True, 0, 1, base_offset=65)
        + build_batch(recs[:20], base_offset=70, timestamp_type=1, compression=codec)
        + build_batch(recs[:30], base_offset=90)
    )
    for pos, byte in flips:
        buf[61 + pos % (len(buf) - 61)] = byte
    data = bytes(buf)
    try:
        exp: tuple[pa.RecordBatch | None, int] | Exception = _reference(data, 0, 1 << 40, None, hdrs, crc)
    except Exception as e:  # whatever the Python decoder raises, the other path must raise too
        exp = e
    try:
        got = records_to_arrow(data, "tp", 3, 0, 1 << 40, verify_crc=crc, aborted=None, include_headers=hdrs)
    except Exception as e:
        assert isinstance(exp, Exception) and type(e) is type(exp) and str(e) == str(exp)
        return
    assert not isinstance(exp, Exception), f"native path returned a batch where the Python decoder raised {exp!r}"
    _same(got[0], exp[0])
    assert got[1] == exp[1]


def test_refuses_and_the_caller_falls_back() -> None:
    good = build_batch([(1, b"k", b"value", None), (2, b"k", b"w", None)], base_offset=0)
    # a record count larger than the batch's bytes could hold: refused before anything is allocated
    bad = bytearray(good)
    bad[57:61] = (10**9).to_bytes(4, "big")
    with pytest.raises(NativeDecodeError):
        decode_to_buffers(bytes(bad), from_offset=0, until_offset=10, verify_crc=False)
    with pytest.raises(CorruptRecordError):
        records_to_arrow(bytes(bad), "t", 0, 0, 10, verify_crc=False, aborted=None, include_headers=False)
    # a CRC mismatch: refused by the native path, reported by the Python decoder
    bad = bytearray(good)
    bad[-1] ^= 1
    with pytest.raises(NativeDecodeError, match="CRC"):
        decode_to_buffers(bytes(bad), from_offset=0, until_offset=10)
    with pytest.raises(CorruptRecordError, match="CRC"):
        records_to_arrow(bytes(bad), "t", 0, 0, 10, verify_crc=True, aborted=None, include_headers=False)


def test_output_buffers_are_never_overrun() -> None:
    from kafka_wire import _columnar_ext  # type: ignore[attr-defined]

    buf = build_batch([(1, b"key", b"value" * 10, None)] * 4, base_offset=0)
    spans = pa.array([61, len(buf), 4, 0, 1, 0], pa.int64()).buffers()[1]
    sizes = [32, 32, 16, 20, 12, 1, 20, 200, 1, 64]
    n = _columnar_ext.decode(buf, spans, 0, 10, *(bytearray(s) for s in sizes))
    assert n == (4, 12, 200, 0, 0, 0)
    for i, size in enumerate(sizes):  # one buffer one byte too small: refused, nothing written past it
        small = [bytearray(s) for s in sizes]
        small[i] = bytearray(max(0, size - (1 if i not in (5, 8, 9) else size)))
        if i == 9:
            continue  # no record has headers: an empty headers buffer is enough
        with pytest.raises(ValueError):
            _columnar_ext.decode(buf, spans, 0, 10, *small)
    with pytest.raises(ValueError):  # spans outside the data
        _columnar_ext.decode(buf, pa.array([61, len(buf) + 1, 4, 0, 1, 0], pa.int64()).buffers()[1], 0, 10,
                             *(bytearray(s) for s in sizes))  # fmt: skip


def test_decode_to_buffers_into_arrow_pool() -> None:
    recs = [(5 + i, b"k%d" % i, b"v" * i, None) for i in range(100)]
    buf = build_batch(recs, base_offset=10, timestamp_type=1)
    b = decode_to_buffers(buf, from_offset=20, until_offset=30, allocate=allocate, trim=trim)
    rb = buffers_to_record_batch(b, "t", 1, include_headers=False)
    assert rb is not None and rb.column("offset").to_pylist() == list(range(20, 30))
    assert rb.column("timestampType").to_pylist() == [1] * 10
    assert rb.column("timestamp").cast(pa.int64()).to_pylist() == [104_000] * 10  # max timestamp, in µs
    assert b.next_offset == 110 and b.key_data.size == sum(len(b"k%d" % i) for i in range(10, 20))


def test_pure_python_path_on_request() -> None:
    import subprocess
    import sys

    code = "from kafka_wire.columnar import native_decoder_available as a; print(a())"
    env = {**os.environ, "PYKAFKA_NO_EXTENSIONS": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
