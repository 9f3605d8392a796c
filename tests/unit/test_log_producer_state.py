"""Idempotent producer state: duplicates, gaps, epochs, wrap-around, persistence across restarts."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.log import (
    InvalidProducerEpochError,
    Log,
    LogConfig,
    OutOfOrderSequenceError,
    ProducerCheckStatus,
    ProducerStateManager,
)
from kafka_wire.errors import ErrorCode
from kafka_wire.records import build_control_batch, parse_batch_header
from tests.unit.test_log_helpers import batch, crash, open_log

PID = 4000


def pbatch(seq: int, n: int = 2, epoch: int = 0, pid: int = PID, txn: bool = False) -> bytearray:
    return batch(n, producer_id=pid, producer_epoch=epoch, base_sequence=seq, is_transactional=txn)


def test_check_classifies_batches() -> None:
    m = ProducerStateManager()
    h0 = parse_batch_header(pbatch(0))
    assert m.check(h0).status is ProducerCheckStatus.OK
    m.update(h0, 0, 1)
    dup = m.check(h0)
    assert dup.status is ProducerCheckStatus.DUPLICATE and dup.duplicate is not None
    assert (dup.duplicate.first_offset, dup.duplicate.last_offset) == (0, 1)
    assert dup.error_code is ErrorCode.NONE
    gap = m.check(parse_batch_header(pbatch(5)))
    assert gap.status is ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert gap.error_code is ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    assert m.check(parse_batch_header(pbatch(2))).status is ProducerCheckStatus.OK
    # Epoch bump: must restart at 0.
    assert m.check(parse_batch_header(pbatch(2, epoch=1))).status is ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER
    h_new = parse_batch_header(pbatch(0, epoch=1))
    assert m.check(h_new).status is ProducerCheckStatus.OK
    m.update(h_new, 2, 3)
    old = m.check(parse_batch_header(pbatch(2, epoch=0)))
    assert old.status is ProducerCheckStatus.INVALID_PRODUCER_EPOCH
    assert old.error_code is ErrorCode.INVALID_PRODUCER_EPOCH
    # Unknown producers may start anywhere (their state may have expired).
    assert m.check(parse_batch_header(pbatch(77, pid=9))).status is ProducerCheckStatus.OK


def test_sequence_wraps_at_int32_max() -> None:
    m = ProducerStateManager()
    h = parse_batch_header(pbatch(0x7FFFFFFF - 1, n=2))
    m.update(h, 0, 1)
    assert m.entries[PID].last_seq == 0x7FFFFFFF
    assert m.check(parse_batch_header(pbatch(0))).status is ProducerCheckStatus.OK
    wrap = parse_batch_header(pbatch(0x7FFFFFFF, n=3))  # spans the wrap: last seq 1
    assert wrap.last_sequence == 1


def test_only_last_five_batches_are_deduplicated() -> None:
    m = ProducerStateManager()
    for i in range(7):
        m.update(parse_batch_header(pbatch(i * 2)), i * 2, i * 2 + 1)
    assert m.check(parse_batch_header(pbatch(4))).status is ProducerCheckStatus.DUPLICATE
    assert m.check(parse_batch_header(pbatch(2))).status is ProducerCheckStatus.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_log_append_duplicate_returns_original_offsets(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    log.append_as_leader(batch(3), 0)
    a = log.append_as_leader(pbatch(0), 0)
    b = log.append_as_leader(pbatch(2), 0)
    assert (a.first_offset, b.first_offset) == (3, 5)
    dup = log.append_as_leader(pbatch(0), 0)
    assert dup.duplicate and (dup.first_offset, dup.last_offset) == (3, 4)
    assert log.log_end_offset == 7  # nothing written
    with pytest.raises(OutOfOrderSequenceError):
        log.append_as_leader(pbatch(9), 0)
    bumped = log.append_as_leader(pbatch(0, epoch=1), 0)
    assert bumped.first_offset == 7
    with pytest.raises(InvalidProducerEpochError):
        log.append_as_leader(pbatch(4, epoch=0), 0)  # a zombie with the old epoch
    assert log.log_end_offset == 9


def test_two_batches_of_one_producer_in_one_append(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    info = log.append_as_leader(pbatch(0) + pbatch(2), 0)
    assert (info.first_offset, info.last_offset) == (0, 3)
    with pytest.raises(OutOfOrderSequenceError):
        log.append_as_leader(pbatch(4) + pbatch(7), 0)
    assert log.log_end_offset == 4  # the whole append was refused


@pytest.mark.parametrize("clean", [True, False])
def test_duplicate_detected_after_restart(tmp_path: Path, clean: bool) -> None:
    cfg = LogConfig(segment_bytes=600)
    log = Log(tmp_path / "t-0", cfg)
    for i in range(20):  # spans several segments: snapshots at each roll
        log.append_as_leader(pbatch(i * 2), 0)
        log.append_as_leader(batch(1), 0)
    assert log.num_segments > 3
    if clean:
        log.close()
    else:
        crash(log)
    log = Log(tmp_path / "t-0", cfg, had_clean_shutdown=clean)
    for i in range(15, 20):  # each of the last 5 batches is still a duplicate
        dup = log.append_as_leader(pbatch(i * 2), 0)
        assert dup.duplicate and dup.first_offset == i * 3
    with pytest.raises(OutOfOrderSequenceError):
        log.append_as_leader(pbatch(50), 0)
    assert log.append_as_leader(pbatch(40), 0).first_offset == 60


def test_corrupt_snapshot_falls_back_to_replay(tmp_path: Path) -> None:
    cfg = LogConfig(segment_bytes=600)
    log = Log(tmp_path / "t-0", cfg)
    for i in range(10):
        log.append_as_leader(pbatch(i * 2), 0)
    log.close()
    for snap in (tmp_path / "t-0").glob("*.snapshot"):
        data = bytearray(snap.read_bytes())
        data[-1] ^= 0xFF
        snap.write_bytes(data)
    log = Log(tmp_path / "t-0", cfg)
    assert log.append_as_leader(pbatch(18), 0).duplicate


def test_truncation_rewinds_producer_state(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    log.append_as_leader(pbatch(0), 0)
    log.append_as_leader(pbatch(2), 0)
    log.truncate_to(2)
    assert log.producer_state.entries[PID].last_seq == 1
    assert log.append_as_leader(pbatch(2), 0).first_offset == 2


def test_transactions_bound_last_stable_offset(tmp_path: Path) -> None:
    log = open_log(tmp_path)
    log.append_as_leader(batch(2), 0)
    log.append_as_leader(pbatch(0, txn=True), 0)
    log.append_as_leader(pbatch(2, txn=True), 0)
    log.update_high_watermark(log.log_end_offset)
    assert log.producer_state.first_unstable_offset() == 2
    assert log.last_stable_offset == 2
    marker = bytearray(build_control_batch(PID, 0, True, 0, 1234))
    log.append_as_leader(marker, 0)
    log.update_high_watermark(log.log_end_offset)
    assert log.producer_state.first_unstable_offset() is None
    assert log.last_stable_offset == log.log_end_offset == 7
    fenced = bytearray(build_control_batch(PID, 0, False, 0, 1234))
    log.append_as_leader(pbatch(0, epoch=3), 0)
    with pytest.raises(InvalidProducerEpochError):
        log.append_as_leader(fenced, 0)


def test_expired_producers_are_forgotten() -> None:
    m = ProducerStateManager()
    m.update(parse_batch_header(pbatch(0)), 0, 1)  # batch max timestamp 1001
    assert m.remove_expired_producers(now_ms=1500, expiration_ms=1000) == 0
    assert m.remove_expired_producers(now_ms=3000, expiration_ms=1000) == 1
    assert not m.entries
