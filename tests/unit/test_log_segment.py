"""Segments and their indexes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from broker_embedded.log.index import IndexCorruptError, OffsetIndex, TimeIndex
from broker_embedded.log.segment import LogSegment
from kafka_wire.records import parse_batch_header, stamp_batch
from tests.unit.test_log_helpers import batch, batch_bases, offsets_of


def _append(seg: LogSegment, data: bytearray, base_offset: int) -> None:
    stamp_batch(data, 0, base_offset, 0)
    h = parse_batch_header(data)
    seg.append(data, [(0, h.size, h.last_offset, h.max_timestamp)])


def _filled_segment(tmp_path: Path, nbatches: int = 200, base: int = 0, interval: int = 256) -> LogSegment:
    seg = LogSegment(tmp_path, base, index_interval_bytes=interval, create=True)
    off = base
    for i in range(nbatches):
        n = 1 + i % 4
        _append(seg, batch(n, ts=10_000 + off, value_size=20 + i % 50), off)
        off += n
    return seg


def test_file_names_are_20_digit_base_offsets(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 1234, create=True)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "00000000000000001234.index",
        "00000000000000001234.log",
        "00000000000000001234.timeindex",
    ]
    seg.close()


def test_offset_index_binary_search(tmp_path: Path) -> None:
    idx = OffsetIndex(tmp_path / "x.index", 100, 10 * 8)
    idx.reset()
    for i in range(10):
        idx.append(100 + i * 10 + 5, i * 1000)
    assert idx.is_full
    with pytest.raises(ValueError):
        idx.append(1000, 99999)
    assert idx.lookup(50) == (100, 0)
    assert idx.lookup(104) == (100, 0)
    assert idx.lookup(105) == (105, 0)
    assert idx.lookup(126) == (125, 2000)
    assert idx.lookup(10**9) == (195, 9000)
    assert idx.floor_position(2500) == 2000
    idx.flush()
    again = OffsetIndex(tmp_path / "x.index", 100, 10 * 8)
    assert again.lookup(126) == (125, 2000)
    assert len(again) == 10
    again.truncate_to(125)
    assert again.lookup(10**9) == (115, 1000)
    assert (tmp_path / "x.index").stat().st_size == 2 * 8


def test_time_index_monotonic_and_lookup(tmp_path: Path) -> None:
    t = TimeIndex(tmp_path / "x.timeindex", 0, 12 * 100)
    t.reset()
    t.maybe_append(100, 3)
    t.maybe_append(90, 5)  # not larger: skipped
    t.maybe_append(200, 8)
    t.maybe_append(300, 12)
    assert len(t) == 3
    assert t.lookup_before(100) == (-1, 0)
    assert t.lookup_before(101) == (100, 3)
    assert t.lookup_before(300) == (200, 8)
    assert t.lookup_before(10**12) == (300, 12)
    t.flush()
    assert TimeIndex.read_last_entry(tmp_path / "x.timeindex", 0) == (300, 12)
    again = TimeIndex(tmp_path / "x.timeindex", 0, 12 * 100)
    assert again.last_entry == (300, 12)
    assert again.lookup_before(250) == (200, 8)


def test_corrupt_index_detected(tmp_path: Path) -> None:
    (tmp_path / "x.index").write_bytes(b"\x00" * 7)
    with pytest.raises(IndexCorruptError):
        OffsetIndex(tmp_path / "x.index", 0, 1024).load()


def test_segment_index_is_sparse(tmp_path: Path) -> None:
    seg = _filled_segment(tmp_path, 300, interval=1024)
    entries = len(seg.offset_index)
    assert 0 < entries <= seg.size // 1024 + 1
    seg.close()


def test_translate_offset_finds_containing_batch(tmp_path: Path) -> None:
    seg = _filled_segment(tmp_path, 200, base=50)
    all_batches = [(p, h[0], h[0] + h[6]) for p, h in seg.iter_headers()]
    for target in range(50, seg.next_offset):
        found = seg.translate_offset(target)
        assert found is not None
        expect = next(b for b in all_batches if b[1] <= target <= b[2])
        assert (found.position, found.base_offset, found.last_offset) == expect
    assert seg.translate_offset(seg.next_offset) is None
    seg.close()


def test_segment_read_whole_batches(tmp_path: Path) -> None:
    seg = _filled_segment(tmp_path, 200)
    rng = random.Random(7)
    for _ in range(200):
        start = rng.randrange(0, seg.next_offset)
        max_size = rng.randrange(1, 5000)
        r = seg.read(start, max_size)
        assert r is not None
        data = bytes(r.data)
        bases = batch_bases(data)
        assert bases, "min one batch"
        offs = offsets_of(data)
        assert offs[0] <= start <= offs[-1] or len(bases) == 1
        assert start in offs
        if len(bases) > 1:
            assert len(data) <= max_size
        assert offs == list(range(offs[0], offs[-1] + 1))
    seg.close()


def test_segment_reload_and_rebuild(tmp_path: Path) -> None:
    seg = _filled_segment(tmp_path, 100)
    nxt, size, max_ts = seg.next_offset, seg.size, seg.max_timestamp
    seg.close()
    again = LogSegment(tmp_path, 0, index_interval_bytes=256)
    assert (again.next_offset, again.size, again.max_timestamp) == (nxt, size, max_ts)
    # Delete the indexes: recovery rebuilds them identically.
    idx_before = again.offset_index.path.read_bytes()
    again.close()
    again.offset_index.path.unlink()
    again.time_index.path.unlink()
    rebuilt = LogSegment(tmp_path, 0, index_interval_bytes=256)
    assert rebuilt.recover() == 0
    assert rebuilt.offset_index.path.read_bytes() == idx_before
    assert rebuilt.next_offset == nxt
    rebuilt.close()


def test_find_offset_by_timestamp_exact_record(tmp_path: Path) -> None:
    seg = LogSegment(tmp_path, 0, index_interval_bytes=100, create=True)
    off = 0
    for i in range(50):
        _append(seg, batch(5, ts=1000 + i * 10), off)  # records at ts 1000+10i .. +4
        off += 5
    assert seg.find_offset_by_timestamp(0, 0) == (1000, 0)
    assert seg.find_offset_by_timestamp(1002, 0) == (1002, 2)
    assert seg.find_offset_by_timestamp(1005, 0) == (1010, 5)
    assert seg.find_offset_by_timestamp(1253, 0) == (1253, 128)
    assert seg.find_offset_by_timestamp(1494, 0) == (1494, 249)
    assert seg.find_offset_by_timestamp(1495, 0) is None
    assert seg.find_offset_by_timestamp(1000, 7) == (1012, 7)
    seg.close()
