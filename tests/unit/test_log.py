"""Partition log: append/read, rolling, timestamps, retention, DeleteRecords, truncation, recovery."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker_embedded.log import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    MAX_TIMESTAMP,
    Log,
    LogConfig,
    parse_topic_partition_name,
)
from broker_embedded.log.errors import RecordBatchTooLargeError, UnexpectedAppendOffsetError
from kafka_wire.errors import CorruptRecordError, MessageTooLargeError, OffsetOutOfRangeError
from kafka_wire.records import build_batch, decode_batches, iter_batches
from tests.unit.test_log_helpers import FakeClock, batch, batch_bases, crash, offsets_of, open_log


def _fill(log: Log, nbatches: int, per_batch: int = 3, ts: int = 1000, value_size: int = 30) -> None:
    for i in range(nbatches):
        log.append_as_leader(batch(per_batch, ts=ts + i * per_batch, value_size=value_size, tag=i), 0)


def _read_all(log: Log, start: int | None = None, max_bytes: int = 1 << 20) -> list[int]:
    out: list[int] = []
    off = log.log_start_offset if start is None else start
    while off < log.log_end_offset:
        r = log.read(off, max_bytes)
        offs = [o for o in offsets_of(r.records) if o >= off]
        assert offs, f"no progress at {off}"
        out.extend(offs)
        off = offs[-1] + 1
    return out


def test_parse_topic_partition_name() -> None:
    assert parse_topic_partition_name("my-topic-with-dashes-12") == ("my-topic-with-dashes", 12)
    assert parse_topic_partition_name("__consumer_offsets-0") == ("__consumer_offsets", 0)
    for bad in ("nodash", "topic-", "-3", "topic-x"):
        with pytest.raises(ValueError):
            parse_topic_partition_name(bad)


def test_config_from_dict() -> None:
    cfg = LogConfig.from_dict({"segment.bytes": "2048", "log.retention.hours": 2, "cleanup.policy": "compact"})
    assert cfg.segment_bytes == 2048
    assert cfg.retention_ms == 2 * 3600 * 1000
    assert cfg.compact_enabled and not cfg.delete_enabled
    assert LogConfig.from_dict({"log.retention.ms": 5, "log.retention.hours": 2}).retention_ms == 5
    assert LogConfig.from_dict({"retention.ms": 7, "log.retention.ms": 5}).retention_ms == 7
    assert LogConfig().to_dict()["segment.bytes"] == "1073741824"
    with pytest.raises(ValueError):
        LogConfig.from_dict({"message.timestamp.type": "Bogus"})


def test_append_assigns_consecutive_offsets_and_stamps(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    info = log.append_as_leader(batch(3, ts=100), leader_epoch=7)
    assert (info.first_offset, info.last_offset, info.num_records, info.num_batches) == (0, 2, 3, 1)
    assert info.max_timestamp == 102 and info.offset_of_max_timestamp == 2
    two = batch(2, ts=200) + batch(4, ts=300)  # two batches in one append
    info = log.append_as_leader(two, leader_epoch=7)
    assert (info.first_offset, info.last_offset, info.num_batches) == (3, 8, 2)
    assert log.log_end_offset == 9
    data = bytes(log.read(0, 1 << 20).records)
    headers = [h for _, h in iter_batches(data)]
    assert [h.base_offset for h in headers] == [0, 3, 5]
    assert {h.partition_leader_epoch for h in headers} == {7}
    assert [r.offset for r in decode_batches(data)] == list(range(9))  # CRC still valid
    assert log.latest_epoch == 7


def test_log_append_time(tmp_path: Path) -> None:
    clock = FakeClock(5_000_000)
    log = open_log(tmp_path, clock=clock, message_timestamp_type="LogAppendTime")
    info = log.append_as_leader(batch(2, ts=1), 0)
    assert info.log_append_time_ms == 5_000_000 and info.max_timestamp == 5_000_000
    recs = list(decode_batches(bytes(log.read(0, 1 << 20).records)))
    assert [r.timestamp for r in recs] == [5_000_000, 5_000_000]
    explicit = log.append_as_leader(batch(1, ts=1), 0, log_append_time_ms=42)
    assert explicit.log_append_time_ms == 42


def test_roundtrip_across_many_segments_and_restart(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=2000, index_interval_bytes=200)
    _fill(log, 300)
    assert log.num_segments > 20
    assert _read_all(log) == list(range(900))
    assert _read_all(log, start=451) == list(range(451, 900))
    log.close()
    log = open_log(tmp_path, segment_bytes=2000, index_interval_bytes=200)
    assert log.log_end_offset == 900
    assert _read_all(log) == list(range(900))
    _fill(log, 1)
    assert log.log_end_offset == 903


def test_read_from_mid_batch_returns_whole_batch(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 10, per_batch=5)
    r = log.read(12, 1 << 20)
    assert batch_bases(r.records)[0] == 10
    assert offsets_of(r.records)[:3] == [10, 11, 12]
    assert r.fetch_offset_metadata.message_offset == 12


def test_read_max_bytes_and_min_one_batch(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 20, per_batch=2, value_size=100)
    one = log.read(0, 1 << 20)
    batch_size = len(one.records) // 20
    r = log.read(0, batch_size * 3 + 10)
    assert len(batch_bases(r.records)) == 3 and len(r.records) == batch_size * 3
    r = log.read(0, 1)  # smaller than one batch: still one whole batch
    assert batch_bases(r.records) == [0] and len(r.records) == batch_size
    r = log.read(0, 1, min_one_batch=False)
    assert len(r.records) == 0 and r.first_entry_incomplete


def test_read_max_offset_limit(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 10, per_batch=3)
    r = log.read(0, 1 << 20, max_offset=9)  # HW at a batch boundary
    assert batch_bases(r.records) == [0, 3, 6]
    r = log.read(4, 1 << 20, max_offset=12)
    assert batch_bases(r.records) == [3, 6, 9]
    r = log.read(9, 1 << 20, max_offset=9)  # caught up with the HW
    assert len(r.records) == 0
    r = log.read(30, 1 << 20)  # at the LEO
    assert len(r.records) == 0


def test_read_out_of_range(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 3)
    with pytest.raises(OffsetOutOfRangeError):
        log.read(10, 100)
    with pytest.raises(OffsetOutOfRangeError):
        log.read(-1, 100)
    log.delete_records_before(4)
    with pytest.raises(OffsetOutOfRangeError):
        log.read(3, 100)
    assert offsets_of(log.read(4, 100).records)[0] == 3  # whole batch holding 4


def test_file_region_matches_records(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 40)
    r = log.read(50, 700)
    region = r.file_region
    assert region is not None and region.size == len(r.records)
    assert os.pread(region.fd, region.size, region.position) == bytes(r.records)
    assert region.path.name.endswith(".log")


def test_roll_by_size(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 50, value_size=50)
    for seg in log.segments:
        assert seg.size <= 1000
    bases = [s.base_offset for s in log.segments]
    assert bases == sorted(bases) and bases[0] == 0
    assert sorted(p.name for p in (tmp_path / "topic-0").glob("*.log"))[1] == f"{bases[1]:020d}.log"


def test_roll_by_index_full(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_index_bytes=8 * 4, index_interval_bytes=1)
    _fill(log, 30)
    assert log.num_segments > 3
    assert _read_all(log) == list(range(90))


def test_roll_by_time(tmp_path: Path) -> None:
    clock = FakeClock()
    log = open_log(tmp_path, clock=clock, segment_ms=1000)
    now = clock.now
    log.append_as_leader(batch(1, ts=now), 0)
    log.append_as_leader(batch(1, ts=now + 500), 0)
    assert log.num_segments == 1
    # segment.ms is measured from the first batch's timestamp to the incoming batch's.
    log.append_as_leader(batch(1, ts=now + 1001), 0)
    assert log.num_segments == 2
    assert log.active_segment.base_offset == 2


def test_roll_by_time_without_timestamps_uses_creation_time(tmp_path: Path) -> None:
    clock = FakeClock()
    log = open_log(tmp_path, clock=clock, segment_ms=1000)
    log.append_as_leader(batch(1, ts=-1), 0)
    clock.advance(999)
    log.append_as_leader(batch(1, ts=-1), 0)
    assert log.num_segments == 1
    clock.advance(2)
    log.append_as_leader(batch(1, ts=-1), 0)
    assert log.num_segments == 2


def test_too_large(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=500)
    with pytest.raises(RecordBatchTooLargeError):
        log.append_as_leader(batch(2, value_size=600), 0)
    log2 = open_log(tmp_path, name="t-1", max_message_bytes=100)
    with pytest.raises(MessageTooLargeError):
        log2.append_as_leader(batch(2, value_size=200), 0)
    with pytest.raises(CorruptRecordError):
        log2.append_as_leader(batch(1)[:-3], 0)
    assert log.log_end_offset == 0 and log2.log_end_offset == 0


def test_offset_for_timestamp_exact_record(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1500, index_interval_bytes=100)
    for i in range(100):
        log.append_as_leader(batch(4, ts=10_000 + i * 10), 0)  # ts 10000+10i .. +3
    assert log.num_segments > 5
    for target, expect in [
        (0, (10_000, 0)),
        (10_002, (10_002, 2)),
        (10_004, (10_010, 4)),
        (10_503, (10_503, 203)),
        (10_993, (10_993, 399)),
    ]:
        got = log.offset_for_timestamp(target)
        assert got is not None and (got.timestamp, got.offset) == expect, target
    assert log.offset_for_timestamp(10_994) is None
    assert log.offset_for_timestamp(EARLIEST_TIMESTAMP).offset == 0
    assert log.offset_for_timestamp(LATEST_TIMESTAMP).offset == 400
    mx = log.offset_for_timestamp(MAX_TIMESTAMP)
    assert mx is not None and (mx.timestamp, mx.offset) == (10_993, 399)
    log.delete_records_before(102)
    got = log.offset_for_timestamp(0)
    assert got is not None and got.offset == 102  # never below the log start
    log.close()
    log = open_log(tmp_path, segment_bytes=1500, index_interval_bytes=100)
    got = log.offset_for_timestamp(10_503)
    assert got is not None and (got.timestamp, got.offset) == (10_503, 203)


def test_offset_for_timestamp_unordered_and_compressed(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    recs = [
        (5000, None, b"a", None),
        (3000, None, b"b", None),
        (7000, None, b"c", None),
        (6000, None, b"d", None),
    ]
    log.append_as_leader(bytearray(build_batch(recs, compression=1)), 0)  # gzip
    log.append_as_leader(bytearray(build_batch([(9000, None, b"e", None)], compression=4)), 0)  # zstd
    got = log.offset_for_timestamp(5500)
    assert got is not None and (got.timestamp, got.offset) == (7000, 2)
    got = log.offset_for_timestamp(2000)
    assert got is not None and (got.timestamp, got.offset) == (5000, 0)
    got = log.offset_for_timestamp(8000)
    assert got is not None and (got.timestamp, got.offset) == (9000, 4)
    mx = log.offset_for_timestamp(MAX_TIMESTAMP)
    assert mx is not None and (mx.timestamp, mx.offset) == (9000, 4)


def test_max_timestamp_exact_record(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    log.append_as_leader(
        bytearray(build_batch([(1, None, b"a", None), (9, None, b"b", None), (3, None, b"c", None)])), 0
    )
    log.append_as_leader(batch(2, ts=5), 0)
    mx = log.offset_for_timestamp(MAX_TIMESTAMP)
    assert mx is not None and (mx.timestamp, mx.offset) == (9, 1)


def test_retention_by_time(tmp_path: Path) -> None:
    clock = FakeClock(1_000_000)
    log = open_log(tmp_path, clock=clock, segment_bytes=1000, retention_ms=10_000)
    for i in range(60):
        log.append_as_leader(batch(2, ts=1_000_000 + i * 1000, value_size=40), 0)
    nseg = log.num_segments
    assert nseg > 5
    # now = 1,040,000: segments whose newest record is older than 1,030,000 expire.
    deleted = log.enforce_retention(now_ms=1_040_000)
    assert 0 < deleted < nseg
    first = log.segments[0]
    assert log.log_start_offset == first.base_offset
    for seg in log.segments[:-1]:
        assert seg.largest_timestamp >= 1_030_000
    assert _read_all(log) == list(range(log.log_start_offset, 120))
    assert not list((tmp_path / "topic-0").glob("*.deleted")) or log.config.file_delete_delay_ms > 0
    log.delete_pending_segments(force=True)
    assert not list((tmp_path / "topic-0").glob("*.deleted"))
    assert len(list((tmp_path / "topic-0").glob("*.log"))) == log.num_segments


def test_retention_by_time_respects_high_watermark_and_expires_active(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 30, ts=1)
    n = log.num_segments
    assert log.enforce_retention(now_ms=10**12, retention_ms=1, high_watermark=0) == 0
    assert log.enforce_retention(now_ms=10**12, retention_ms=1) == n  # active one too, after a roll
    assert log.log_start_offset == log.log_end_offset == 90
    assert log.num_segments == 1 and log.active_segment.base_offset == 90
    log.append_as_leader(batch(1), 0)
    assert _read_all(log) == [90]


def test_retention_by_size(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 60)
    total = log.size
    deleted = log.enforce_retention(now_ms=0, retention_ms=-1, retention_bytes=total // 2)
    assert deleted > 0
    assert log.size <= total // 2 + 1000 and log.size > total // 2 - 1000
    assert log.log_start_offset == log.segments[0].base_offset > 0
    assert log.enforce_retention(now_ms=0, retention_ms=-1, retention_bytes=-1) == 0


def test_delete_records_before(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=600)
    _fill(log, 30)
    with pytest.raises(OffsetOutOfRangeError):
        log.delete_records_before(50, high_watermark=40)
    nseg = log.num_segments
    assert log.delete_records_before(40, high_watermark=60) == 40
    assert log.log_start_offset == 40
    assert log.num_segments < nseg
    assert log.segments[0].base_offset <= 40 < log.segments[0].next_offset
    assert log.delete_records_before(10) == 40  # never backwards
    assert _read_all(log, start=40)[0] == 40
    log.close()
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=600), log_start_offset=40)
    assert log.log_start_offset == 40


def test_truncate_to(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=600)
    _fill(log, 30)
    assert log.truncate_to(45)
    assert log.log_end_offset == 45
    assert _read_all(log) == list(range(45))
    assert not log.truncate_to(100)
    log.append_as_leader(batch(2), 3)
    assert _read_all(log) == list(range(47))
    assert log.leader_epoch_cache.entries == [(0, 0), (3, 45)]
    assert log.truncate_to(45)
    assert log.leader_epoch_cache.entries == [(0, 0)]
    log.close()
    log = open_log(tmp_path, segment_bytes=600)
    assert log.log_end_offset == 45


def test_truncate_fully_and_start_at(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=600)
    _fill(log, 30)
    log.truncate_fully_and_start_at(1000)
    assert (log.log_start_offset, log.log_end_offset, log.num_segments) == (1000, 1000, 1)
    log.append_as_leader(batch(2), 0)
    assert _read_all(log) == [1000, 1001]
    log.close()
    log = open_log(tmp_path, segment_bytes=600)
    assert (log.log_start_offset, log.log_end_offset) == (1000, 1002)


def test_append_as_follower(tmp_path: Path) -> None:
    leader = open_log(tmp_path, name="t-0", segment_bytes=700)
    follower = open_log(tmp_path, name="t-1", segment_bytes=700)
    for epoch in (0, 0, 2, 2, 5):
        for _ in range(5):
            leader.append_as_leader(batch(3), epoch)
    off = 0
    while off < leader.log_end_offset:
        r = leader.read(off, 500)
        info = follower.append_as_follower(bytes(r.records))
        off = info.last_offset + 1
    assert follower.log_end_offset == leader.log_end_offset == 75
    assert _read_all(follower) == list(range(75))
    assert follower.leader_epoch_cache.entries == leader.leader_epoch_cache.entries == [(0, 0), (2, 30), (5, 60)]
    assert follower.end_offset_for_epoch(2) == (2, 60)
    assert follower.end_offset_for_epoch(1) == (0, 30)
    assert follower.end_offset_for_epoch(5) == (5, 75)
    assert follower.end_offset_for_epoch(9) == (-1, -1)
    with pytest.raises(UnexpectedAppendOffsetError):
        follower.append_as_follower(bytes(leader.read(0, 100).records))
    bad = bytearray(leader.read(60, 100).records)
    bad[-1] ^= 0xFF
    follower.truncate_to(60)
    with pytest.raises(CorruptRecordError):
        follower.append_as_follower(bad)


def test_maybe_increment_log_start_offset_beyond_leo(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 5)
    assert log.maybe_increment_log_start_offset(7) == 7
    assert log.maybe_increment_log_start_offset(100) == 100  # leader deleted past our LEO
    assert log.log_end_offset == 100


# ---------------------------------------------------------------------------------- recovery


def test_restart_after_crash_keeps_offsets(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000, index_interval_bytes=100)
    _fill(log, 100)
    crash(log)  # in-memory index entries never written
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=1000, index_interval_bytes=100), recovery_point=0)
    assert log.log_end_offset == 300
    assert _read_all(log) == list(range(300))
    got = log.offset_for_timestamp(1150)
    assert got is not None and got.offset == 150


def test_torn_tail_is_truncated(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=10_000)
    _fill(log, 20)
    seg_path = log.active_segment.log_path
    size = log.active_segment.size
    crash(log)
    with open(seg_path, "r+b") as f:
        f.truncate(size - 25)  # cut in the middle of the last batch
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=10_000))
    assert log.log_end_offset == 57
    assert _read_all(log) == list(range(57))
    assert seg_path.stat().st_size < size - 25
    log.append_as_leader(batch(3), 0)
    assert _read_all(log) == list(range(60))


def test_torn_header_and_garbage_tail(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    _fill(log, 5)
    seg_path = log.active_segment.log_path
    crash(log)
    with open(seg_path, "ab") as f:
        f.write(b"\x00\x00\x00\x00\x00\x00\x00\x0f\x00\x00")  # a partial header
    log = Log(tmp_path / "topic-0")
    assert log.log_end_offset == 15


def test_corrupt_crc_at_tail_is_truncated(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 30)
    seg_path = log.active_segment.log_path
    batches = list(log.active_segment.iter_headers())
    last_pos, last_h = batches[-1]
    crash(log)
    with open(seg_path, "r+b") as f:
        f.seek(last_pos + 70)
        b = f.read(1)
        f.seek(last_pos + 70)
        f.write(bytes([b[0] ^ 0x55]))
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=1000))
    assert log.log_end_offset == last_h[0]
    assert _read_all(log) == list(range(last_h[0]))


def test_corruption_in_middle_segment_drops_later_segments(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 60)
    mid = log.segments[2]
    path, base = mid.log_path, mid.base_offset
    crash(log)
    with open(path, "r+b") as f:
        f.seek(17)  # CRC of the first batch
        f.write(b"\xde\xad\xbe\xef")
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=1000), recovery_point=0)
    assert log.log_end_offset == base
    assert log.num_segments == 3
    assert _read_all(log) == list(range(base))


def test_clean_shutdown_skips_recovery_and_recovery_point_limits_scan(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 60)
    log.flush()
    rp = log.recovery_point
    assert rp == 180
    first = log.segments[0]
    first_path = first.log_path
    crash(log)
    # Corrupt a segment below the recovery point: it is trusted, not scanned.
    with open(first_path, "r+b") as f:
        f.seek(17)
        f.write(b"\xde\xad\xbe\xef")
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=1000), recovery_point=rp)
    assert log.log_end_offset == 180


def test_missing_indexes_rebuilt_on_clean_open(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=2000, index_interval_bytes=100)
    _fill(log, 60)
    log.close()
    for p in (tmp_path / "topic-0").glob("*.index"):
        p.unlink()
    for p in (tmp_path / "topic-0").glob("*.timeindex"):
        p.write_bytes(b"\x01" * 5)
    log = Log(tmp_path / "topic-0", LogConfig(segment_bytes=2000, index_interval_bytes=100), had_clean_shutdown=True)
    assert _read_all(log) == list(range(180))
    assert log.segments[0].offset_index.path.stat().st_size > 0
    got = log.offset_for_timestamp(1100)
    assert got is not None and got.offset == 100


def test_flush_advances_recovery_point(tmp_path: Path) -> None:
    log = open_log(tmp_path, segment_bytes=1000)
    _fill(log, 30)
    assert log.recovery_point == 0
    log.flush(50)
    assert log.recovery_point == 50
    log.flush()
    assert log.recovery_point == 90
    assert log.flush_if_due(0) is False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    sizes=st.lists(st.tuples(st.integers(1, 6), st.integers(0, 200)), min_size=1, max_size=40),
    seg_bytes=st.integers(1400, 4000),
    reads=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 4000)), min_size=1, max_size=10),
)
def test_property_reads_are_whole_batches_in_order(
    tmp_path_factory: pytest.TempPathFactory,
    sizes: list[tuple[int, int]],
    seg_bytes: int,
    reads: list[tuple[int, int]],
) -> None:
    d = tmp_path_factory.mktemp("prop")
    log = Log(d / "p-0", LogConfig(segment_bytes=seg_bytes, index_interval_bytes=64))
    for n, vs in sizes:
        log.append_as_leader(batch(n, value_size=vs), 0)
    total = sum(n for n, _ in sizes)
    assert log.log_end_offset == total
    assert _read_all(log) == list(range(total))
    for start, max_bytes in reads:
        start %= total
        r = log.read(start, max_bytes)
        offs = offsets_of(r.records)
        assert start in offs
        assert offs == list(range(offs[0], offs[-1] + 1))
        if len(batch_bases(r.records)) > 1:
            assert len(r.records) <= max_bytes
    log.close()
