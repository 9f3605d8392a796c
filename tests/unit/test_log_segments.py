"""LogSegments (broker_embedded/log/segments.py): the segment map's floor lookups, replace and
scheduled deletes, alone and as the log, its cleaner and retention use them."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.log import Log, LogConfig
from broker_embedded.log.cleaner import clean_log
from broker_embedded.log.segment import LogSegment
from broker_embedded.log.segments import LogSegments
from broker_embedded.log.validator import AppendPolicy, validate_records_for_append
from kafka_wire.errors import MessageTooLargeError
from kafka_wire.records import build_batch, decode_batches, parse_batch_header
from tests.unit.test_log_helpers import FakeClock, batch, open_log


def _segs(tmp_path: Path, *bases: int) -> list[LogSegment]:
    return [LogSegment(tmp_path, b, create=True) for b in bases]


def test_floor_lookup_at_the_boundaries(tmp_path: Path) -> None:
    s0, s10, s25 = _segs(tmp_path, 0, 10, 25)
    segs = LogSegments([s0, s10, s25])
    expected = {-1: s0, 0: s0, 9: s0, 10: s10, 11: s10, 24: s10, 25: s25, 26: s25, 10**15: s25}
    for offset, seg in expected.items():
        assert segs.floor(offset) is seg, offset
    assert [segs.floor_index(o) for o in (-1, 0, 9, 10, 24, 25)] == [0, 0, 0, 1, 1, 2]
    assert segs.from_offset(10) == [s10, s25]
    assert segs.from_offset(9) == [s0, s10, s25]
    assert segs.from_offset(25) == [s25]
    assert segs.active is s25 and segs.first is s0
    assert segs.base_offsets == [0, 10, 25] and len(segs) == 3 and list(segs) == [s0, s10, s25]


def test_floor_lookup_on_a_log_starting_mid_range(tmp_path: Path) -> None:
    (s100,) = _segs(tmp_path, 100)
    segs = LogSegments([s100])
    # below the first base the first segment answers (DeleteRecords may start a log mid-segment)
    assert segs.floor(0) is s100 and segs.floor(100) is s100 and segs.floor(99) is s100


def test_add_keeps_base_offsets_increasing(tmp_path: Path) -> None:
    s0, s10, again10, s5 = _segs(tmp_path, 0, 10, 10, 5)
    segs = LogSegments([s0, s10])
    with pytest.raises(ValueError):
        segs.add(again10)
    with pytest.raises(ValueError):
        segs.add(s5)
    assert segs.base_offsets == [0, 10]


def test_slices_are_copies(tmp_path: Path) -> None:
    segs = LogSegments(_segs(tmp_path, 0, 10))
    view = segs[:]
    view.pop()
    assert len(segs) == 2 and segs[-1].base_offset == 10


def test_replace_a_run_with_its_cleaned_segment(tmp_path: Path) -> None:
    s0, s10, s20, s30 = _segs(tmp_path, 0, 10, 20, 30)
    segs = LogSegments([s0, s10, s20, s30])
    (tmp_path / "c").mkdir()
    (cleaned,) = _segs(tmp_path / "c", 10)
    segs.replace([s10, s20], cleaned)
    assert list(segs) == [s0, cleaned, s30] and segs.base_offsets == [0, 10, 30]
    # the floor lookups follow the new map: 25 was in s20, now in the cleaned segment
    assert segs.floor(25) is cleaned and segs.floor(29) is cleaned and segs.floor(30) is s30


def test_replace_refuses_anything_but_a_run_of_these_segments(tmp_path: Path) -> None:
    s0, s10, s20 = _segs(tmp_path, 0, 10, 20)
    (tmp_path / "o").mkdir()
    other10, new0, new10 = _segs(tmp_path / "o", 10, 0, 5)
    segs = LogSegments([s0, s10, s20])
    assert segs.index_of_run([s10, s20]) == 1
    assert segs.index_of_run([s0, s20]) is None  # not consecutive
    assert segs.index_of_run([other10]) is None  # same base offset, another object (a stale read)
    assert segs.index_of_run([s20, s0]) is None
    assert segs.index_of_run([]) is None
    with pytest.raises(ValueError):
        segs.replace([s0, s20], new0)
    with pytest.raises(ValueError):
        segs.replace([other10], new10)
    with pytest.raises(ValueError):
        segs.replace([s10], new10)  # the replacement must start at the run's base offset (5 != 10)
    assert list(segs) == [s0, s10, s20]


def test_remove_clear_and_remove_after(tmp_path: Path) -> None:
    s0, s10, s20, s30 = _segs(tmp_path, 0, 10, 20, 30)
    segs = LogSegments([s0, s10, s20, s30])
    segs.remove([s10])
    assert segs.base_offsets == [0, 20, 30] and segs.floor(15) is s0
    assert segs.remove_after(1) == [s30]
    assert list(segs) == [s0, s20] and segs.floor(35) is s20
    assert segs.clear() == [s0, s20]
    assert len(segs) == 0 and segs.base_offsets == []
    segs.add(s30)  # a cleared map starts again anywhere
    assert segs.floor(0) is s30


def test_scheduled_deletes_come_due_in_time(tmp_path: Path) -> None:
    a, b, c = _segs(tmp_path, 0, 10, 20)
    segs = LogSegments([c])
    assert not segs.has_scheduled_deletes
    segs.schedule_delete([a], due_ms=100)
    segs.schedule_delete([b], due_ms=200)
    assert segs.has_scheduled_deletes
    assert segs.take_due_deletes(99) == []
    assert segs.take_due_deletes(100) == [a]
    assert segs.take_due_deletes(150) == []
    assert segs.take_due_deletes(0, force=True) == [b]
    assert not segs.has_scheduled_deletes and list(segs) == [c]


def test_cleaner_swap_goes_through_the_map_and_schedules_the_old_files(tmp_path: Path) -> None:
    clock = FakeClock()
    cfg = {"cleanup.policy": "compact", "segment.bytes": 700, "min.cleanable.dirty.ratio": 0.0}
    log = Log(tmp_path / "c-0", LogConfig.from_dict({**cfg, "file.delete.delay.ms": 1000}), clock=clock)
    for i in range(10):
        for k in ("a", "b", "c"):
            log.append_as_leader(bytearray(build_batch([(clock.now, k.encode(), f"{i}".encode(), None)])), 0)
            clock.advance(1)
    log.update_high_watermark(log.log_end_offset)
    before = len(log.segments)
    stats = clean_log(log, clock.now)
    assert stats is not None and stats.segments_in >= 2 and stats.records_removed > 0
    assert len(log.segments) == before - stats.segments_in + stats.segments_out
    assert log.segments.has_scheduled_deletes
    deleted = sorted(p.name for p in (tmp_path / "c-0").glob("*.log.deleted"))
    assert len(deleted) == stats.segments_in
    # every offset still resolves to a segment holding it, through the new map
    for seg in log.segments:
        assert log.segments.floor(seg.base_offset) is seg
    values = [r.value for r in decode_batches(bytes(log.read(0, 1 << 20).records))]
    assert values  # readable from offset 0 after the swap
    assert log.delete_pending_segments(clock.now + 999) == 0
    assert log.delete_pending_segments(clock.now + 1000) == stats.segments_in
    assert not list((tmp_path / "c-0").glob("*.deleted")) and not log.segments.has_scheduled_deletes
    log.close()


def test_retention_schedules_deletes_after_the_delay(tmp_path: Path) -> None:
    clock = FakeClock()
    log = open_log(tmp_path, clock=clock, segment_bytes=200, file_delete_delay_ms=500)
    for i in range(20):
        log.append_as_leader(batch(2, ts=clock.now, tag=i), 0)
    n = len(log.segments)
    deleted = log.enforce_retention(clock.now, retention_bytes=0, retention_ms=-1)
    assert deleted >= n - 1 and len(log.segments) == 1
    assert log.segments.floor(0) is log.active_segment  # below the new start: the first segment
    assert log.delete_pending_segments(clock.now + 499) == 0
    assert log.delete_pending_segments(clock.now + 500) == deleted
    log.close()


def _policy(max_message_bytes: int = 1_000_000) -> AppendPolicy:
    return AppendPolicy(max_message_bytes, compacted=False)


def test_append_takes_the_validators_header(tmp_path: Path) -> None:
    clock = FakeClock()
    a = open_log(tmp_path, "a-0", clock=clock)
    b = open_log(tmp_path, "b-0", clock=clock)
    for i in range(3):
        records = batch(4, ts=clock.now, tag=i)
        header = validate_records_for_append(memoryview(records), _policy(), clock.now).header
        with_header = a.append_as_leader(bytearray(records), 0, validated=header)
        parsed = b.append_as_leader(bytearray(records), 0)
        assert with_header == parsed
    assert bytes(a.read(0, 1 << 20).records) == bytes(b.read(0, 1 << 20).records)


def test_append_with_a_header_that_is_not_the_whole_buffer_walks_the_batches(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    first, second = batch(2), batch(3, tag=5)
    header = parse_batch_header(first)  # one batch's header, two batches in the buffer
    info = log.append_as_leader(first + second, 0, validated=header)
    assert (info.first_offset, info.last_offset, info.num_batches) == (0, 4, 2)


def test_append_with_a_header_still_checks_the_logs_limits(tmp_path: Path) -> None:
    records = batch(1, value_size=500)
    header = validate_records_for_append(memoryview(records), _policy(), 1000).header
    log = open_log(tmp_path, max_message_bytes=100)  # the topic's limit changed after validation
    with pytest.raises(MessageTooLargeError):
        log.append_as_leader(records, 0, validated=header)
    assert log.log_end_offset == 0
