"""The aborted-transaction index (`.txnindex`, Kafka's format) and the Log's read API over it:
entries from ABORT markers only, rebuilt after a crash that lost the file, cut on truncation,
kept per segment across rolls, and a torn tail ignored."""

from __future__ import annotations

import struct
from pathlib import Path

from broker_embedded.log import Log
from broker_embedded.log.txn_index import ENTRY_SIZE, AbortedTxn, TransactionIndex, decode_entries
from kafka_wire.records import build_batch, build_control_batch


def _txn(log: Log, pid: int, seq: int, n: int = 2) -> int:
    batch = bytearray(
        build_batch(
            [(None, b"k", b"v", []) for _ in range(n)],
            producer_id=pid,
            producer_epoch=0,
            base_sequence=seq,
            is_transactional=True,
        )
    )
    return log.append_as_leader(batch, 0).first_offset


def _marker(log: Log, pid: int, commit: bool) -> int:
    from broker_embedded.log.log import AppendOrigin

    info = log.append_as_leader(
        bytearray(build_control_batch(pid, 0, commit, 0, 1)), 0, origin=AppendOrigin.COORDINATOR
    )
    return info.first_offset


def test_entry_format_is_kafkas() -> None:
    e = AbortedTxn(7, 10, 20, 21)
    assert e.encode() == struct.pack(">hqqqq", 0, 7, 10, 20, 21)
    assert ENTRY_SIZE == 34
    assert decode_entries(e.encode() + e.encode()[:5]) == [e]  # a torn tail is ignored


def test_index_append_collect_truncate(tmp_path: Path) -> None:
    idx = TransactionIndex(tmp_path / "00000000000000000000.txnindex")
    assert idx.collect(0, 100) == [] and not idx.path.exists()  # no file until an entry
    idx.append(AbortedTxn(1, 0, 5, 6))
    idx.append(AbortedTxn(2, 3, 9, 10))
    idx.append(AbortedTxn(2, 3, 9, 10))  # a replayed marker is not indexed twice
    assert TransactionIndex(idx.path).entries == [AbortedTxn(1, 0, 5, 6), AbortedTxn(2, 3, 9, 10)]
    assert [e.producer_id for e in idx.collect(6, 100)] == [2]
    assert [e.producer_id for e in idx.collect(0, 3)] == [1]
    idx.truncate_to(9)
    assert TransactionIndex(idx.path).entries == [AbortedTxn(1, 0, 5, 6)]


def test_log_indexes_aborts_only_and_interleaved_producers(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0")
    a = _txn(log, 1, 0)  # 0-1
    b = _txn(log, 2, 0)  # 2-3
    m1 = _marker(log, 1, commit=False)  # 4
    _txn(log, 2, 2)  # 5-6
    m2 = _marker(log, 2, commit=True)  # 7
    assert log.collect_aborted_transactions(0, 100) == [AbortedTxn(1, a, m1, b)]  # LSO: pid 2 still open
    assert log.collect_aborted_transactions(m1 + 1, 100) == []
    assert m2 == 7
    log.close()


def test_index_rebuilt_after_losing_it_and_cut_by_truncation(tmp_path: Path) -> None:
    log = Log(tmp_path / "t-0")
    _txn(log, 1, 0)
    m1 = _marker(log, 1, commit=False)
    log.roll()
    _txn(log, 1, 2)
    m2 = _marker(log, 1, commit=False)
    files = sorted(p.name for p in (tmp_path / "t-0").glob("*.txnindex"))
    assert files == ["00000000000000000000.txnindex", "00000000000000000003.txnindex"]  # per segment
    log.close()
    for p in (tmp_path / "t-0").glob("*.txnindex"):
        p.unlink()
    for p in (tmp_path / "t-0").glob("*.snapshot"):
        p.unlink()  # no snapshot: the replay covers the whole log
    log = Log(tmp_path / "t-0", had_clean_shutdown=False)
    assert [e.last_offset for e in log.collect_aborted_transactions(0, 100)] == [m1, m2]
    log.truncate_to(m2)  # the second marker is cut: its transaction is open again
    assert [e.last_offset for e in log.collect_aborted_transactions(0, 100)] == [m1]
    assert log.producer_state.first_unstable_offset() == m1 + 1
    log.close()


def _kv_txn(log: Log, pid: int, seq: int, key: bytes, value: bytes, ts: int) -> None:
    batch = bytearray(
        build_batch([(ts, key, value, [])], producer_id=pid, producer_epoch=0, base_sequence=seq, is_transactional=True)
    )
    log.append_as_leader(batch, 0)


def test_cleaner_drops_aborted_data_and_spent_markers(tmp_path: Path) -> None:
    """Kafka's rules: aborted records neither shadow committed ones nor survive compaction, a
    marker goes once its transaction has no records left and delete.retention.ms has passed, and
    nothing at or above the LSO is cleaned."""
    from broker_embedded.log import LogConfig
    from broker_embedded.log.cleaner import clean_log
    from broker_embedded.log.log import AppendOrigin
    from kafka_wire.records import decode_batches

    cfg = LogConfig.from_dict(
        {
            "cleanup.policy": "compact",
            "min.cleanable.dirty.ratio": 0.0,
            "file.delete.delay.ms": 0,
            "delete.retention.ms": 0,
        }
    )
    log = Log(tmp_path / "c-0", cfg)

    def marker(pid: int, commit: bool) -> None:
        log.append_as_leader(bytearray(build_control_batch(pid, 0, commit, 0, 1)), 0, origin=AppendOrigin.COORDINATOR)

    _kv_txn(log, 1, 0, b"a", b"committed-a", 1)  # 0
    marker(1, True)  # 1
    _kv_txn(log, 2, 0, b"a", b"aborted-a", 2)  # 2: newer than 0 but aborted
    marker(2, False)  # 3
    _kv_txn(log, 2, 1, b"b", b"committed-b", 3)  # 4: pid 2's latest batch
    marker(2, True)  # 5
    log.roll()
    _kv_txn(log, 3, 0, b"a", b"open-a", 4)  # 6: open transaction, above the LSO
    log.roll()
    log.update_high_watermark(log.log_end_offset)
    assert log.collect_aborted_transactions(0, 10) != []
    stats = clean_log(log, 10**13, force=True)
    assert stats is not None
    kept = {r.offset: r.value for r in decode_batches(bytes(log.read(0, 1 << 20).records), include_control=True)}
    # committed a survives (the aborted a did not shadow it), the aborted batch and its marker are
    # gone, the markers of transactions with records left stay, the open transaction is untouched
    assert kept.get(0) == b"committed-a" and 2 not in kept and 3 not in kept
    assert kept.get(4) == b"committed-b" and 1 in kept and 5 in kept
    assert log.log_end_offset == 7 and log.producer_state.first_unstable_offset() == 6
    assert log.collect_aborted_transactions(0, 10) == []  # no aborted data left to skip
    log.close()
