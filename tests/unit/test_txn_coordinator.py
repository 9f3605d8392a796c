"""The transaction coordinator without a network: a real Broker on a temp dir, driven by hand.

State machine (Kafka's TransactionState transitions), __transaction_state round trip and reload,
epoch bumps and fencing (PRODUCER_FENCED, abort of the fenced producer's open transaction with a
bumped epoch), KIP-360 retries, markers and the partitions' LSO / aborted-transaction index,
timeout aborts, transactional.id expiration, TxnOffsetCommit pending until the marker.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from broker_embedded.broker import Broker
from broker_embedded.config import BrokerConfig
from broker_embedded.group.state import OffsetAndMetadata
from broker_embedded.log.errors import InvalidProducerEpochError
from broker_embedded.txn.coordinator import TransactionCoordinator, coordinator_of
from broker_embedded.txn.log_records import decode_key, decode_value, encode_key, encode_value
from broker_embedded.txn.state import IllegalTransitionError, TransactionMetadata, TransactionState
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import build_batch, decode_batches

S = TransactionState
CONFIGS = {"transaction.state.log.num.partitions": 3, "offsets.topic.num.partitions": 3}


def _broker(path: Path, **extra: object) -> Broker:
    b = Broker(BrokerConfig({**CONFIGS, **extra}), path)
    if b.topics.get("t") is None:
        b.create_topic("t", 2)
    return b


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    b = _broker(tmp_path)
    yield b
    b.shutdown()


def _send(b: Broker, pid: int, epoch: int, seq: int, n: int = 2, partition: int = 0) -> int:
    p = b.partition("t", partition)
    assert p is not None
    batch = bytearray(
        build_batch(
            [(None, b"k", b"v%d" % i, []) for i in range(n)],
            producer_id=pid,
            producer_epoch=epoch,
            base_sequence=seq,
            is_transactional=True,
        )
    )
    info = p.log.append_as_leader(batch, p.leader_epoch)
    p.after_coordinator_append()
    return info.first_offset


def _init(c: TransactionCoordinator, tid: str = "tx", timeout: int = 60000) -> tuple[int, int]:
    code, pid, epoch = c.init_producer_id(tid, timeout, -1, -1)
    assert code == ErrorCode.NONE
    return pid, epoch


def test_state_transitions_follow_kafka() -> None:
    m = TransactionMetadata("a", 1, 0, 1000)
    assert m.transition(S.ONGOING, 1).state is S.ONGOING
    with pytest.raises(IllegalTransitionError):
        m.transition(S.PREPARE_COMMIT, 1)  # Empty -> PrepareCommit is not allowed
    ongoing = m.transition(S.ONGOING, 1)
    ongoing.partitions = {("t", 0)}
    done = ongoing.transition(S.PREPARE_COMMIT, 2).transition(S.COMPLETE_COMMIT, 3)
    assert done.partitions == set() and done.state is S.COMPLETE_COMMIT
    with pytest.raises(IllegalTransitionError):
        done.transition(S.COMPLETE_ABORT, 4)


def test_transaction_log_records_round_trip() -> None:
    m = TransactionMetadata("tid-é", 42, 7, 30000, S.ONGOING, {("a", 1), ("a", 0), ("b", 3)}, 100, 200)
    assert decode_key(encode_key("tid-é")) == "tid-é"
    back = decode_value("tid-é", encode_value(m))
    assert back is not None
    assert (back.producer_id, back.producer_epoch, back.txn_timeout_ms, back.state) == (42, 7, 30000, S.ONGOING)
    assert back.partitions == m.partitions
    assert (back.txn_start_timestamp, back.txn_last_update_timestamp) == (100, 200)
    # Kafka's layout: key version 0 then the id as an int16-length string
    assert encode_key("x") == b"\x00\x00\x00\x01x"
    assert encode_value(m)[:2] == b"\x00\x00"


def test_commit_abort_markers_lso_and_aborted_index(broker: Broker) -> None:
    c = coordinator_of(broker)
    pid, epoch = _init(c)
    p = broker.partition("t", 0)
    assert p is not None
    assert c.add_partitions("tx", pid, epoch, [("t", 0)]) == {("t", 0): ErrorCode.NONE}
    first = _send(broker, pid, epoch, 0, 3)
    assert p.last_stable_offset == first  # the open transaction holds the LSO
    assert c.end_txn("tx", pid, epoch, False)[0] == ErrorCode.NONE
    assert c.txns["tx"].state is S.COMPLETE_ABORT
    assert p.last_stable_offset == p.high_watermark == 4  # 3 records + the ABORT marker
    (aborted,) = p.log.collect_aborted_transactions(0, 100)
    assert (aborted.producer_id, aborted.first_offset, aborted.last_offset) == (pid, 0, 3)
    assert p.log.collect_aborted_transactions(4, 100) == []  # entirely before the fetch
    c.add_partitions("tx", pid, epoch, [("t", 0)])
    _send(broker, pid, epoch, 3, 2)
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
    assert len(p.log.collect_aborted_transactions(0, 100)) == 1  # a commit is not indexed
    # an EndTxn retried after it completed is answered again; the opposite decision is refused
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
    assert c.end_txn("tx", pid, epoch, False)[0] == ErrorCode.INVALID_TXN_STATE
    # the markers are control batches of the producer
    data = p.log.read(0, 1 << 20).records
    controls = [
        r for r in decode_batches(bytes(data), include_control=True) if r.value is not None and len(r.key or b"") == 4
    ]
    assert len(controls) == 2


def test_fencing_by_a_second_init(broker: Broker) -> None:
    c = coordinator_of(broker)
    pid, e0 = _init(c)
    c.add_partitions("tx", pid, e0, [("t", 0)])
    _send(broker, pid, e0, 0, 2)
    pid2, e1 = _init(c)  # a second producer with the same transactional id
    assert pid2 == pid and e1 > e0 + 1  # one bump fenced the open transaction, one is the new epoch
    p = broker.partition("t", 0)
    assert p is not None
    assert p.last_stable_offset == p.high_watermark  # the zombie's transaction was aborted
    assert len(p.log.collect_aborted_transactions(0, 100)) == 1
    # the zombie: its coordinator calls and its produce are fenced
    assert c.end_txn("tx", pid, e0, True)[0] == ErrorCode.PRODUCER_FENCED
    assert c.add_partitions("tx", pid, e0, [("t", 1)])[("t", 1)] == ErrorCode.PRODUCER_FENCED
    with pytest.raises(InvalidProducerEpochError):
        _send(broker, pid, e0, 2, 1)
    # KIP-360: a producer presenting a pair that is neither current nor the previous one is fenced
    assert c.init_producer_id("tx", 60000, pid, e0)[0] == ErrorCode.PRODUCER_FENCED
    # ... and the retry of the last bump (previous pair) gets the current epoch without a new bump
    code, _, e_retry = c.init_producer_id("tx", 60000, pid, e1)
    assert code == ErrorCode.NONE and e_retry == e1 + 1
    assert c.init_producer_id("tx", 60000, pid, e1) == (ErrorCode.NONE, pid, e1 + 1)


def test_bad_requests(broker: Broker) -> None:
    c = coordinator_of(broker)
    assert c.init_producer_id("tx", 0, -1, -1)[0] == ErrorCode.INVALID_TRANSACTION_TIMEOUT
    assert c.init_producer_id("tx", 900001, -1, -1)[0] == ErrorCode.INVALID_TRANSACTION_TIMEOUT
    assert c.init_producer_id("", 1000, -1, -1)[0] == ErrorCode.INVALID_REQUEST
    pid, epoch = _init(c)
    assert c.add_partitions("nope", pid, epoch, [("t", 0)])[("t", 0)] == ErrorCode.INVALID_PRODUCER_ID_MAPPING
    assert c.add_partitions("tx", pid + 1, epoch, [("t", 0)])[("t", 0)] == ErrorCode.INVALID_PRODUCER_ID_MAPPING
    codes = c.add_partitions("tx", pid, epoch, [("t", 0), ("missing", 0), ("t", 9)])
    assert codes == {
        ("t", 0): ErrorCode.OPERATION_NOT_ATTEMPTED,
        ("missing", 0): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        ("t", 9): ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    }
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.INVALID_TXN_STATE  # nothing open
    # KIP-890 verification: only partitions of the open transaction pass
    c.add_partitions("tx", pid, epoch, [("t", 0)])
    verify = c.add_partitions("tx", pid, epoch, [("t", 0), ("t", 1)], verify_only=True)
    assert verify == {("t", 0): ErrorCode.NONE, ("t", 1): ErrorCode.INVALID_TXN_STATE}


def test_state_survives_restart_and_prepare_commit_is_finished(tmp_path: Path) -> None:
    b = _broker(tmp_path)
    c = coordinator_of(b)
    pid, epoch = _init(c)
    c.add_partitions("tx", pid, epoch, [("t", 0), ("t", 1)])
    _send(b, pid, epoch, 0, 2, partition=0)
    _send(b, pid, epoch, 0, 2, partition=1)
    # a crash after PrepareCommit was written but before any marker: simulate by not sending them
    nxt = c.txns["tx"].transition(S.PREPARE_COMMIT, 1)
    c._apply(nxt)
    b.shutdown()
    b2 = _broker(tmp_path)
    try:
        c2 = coordinator_of(b2)
        assert c2.txns["tx"].state is S.COMPLETE_COMMIT  # the reload sent the markers and completed
        for i in (0, 1):
            p = b2.partition("t", i)
            assert p is not None
            p.log.update_high_watermark(p.log.log_end_offset)
            assert p.last_stable_offset == p.log.log_end_offset == 3
            assert p.log.collect_aborted_transactions(0, 10) == []
        # the next transaction continues with the same producer id and epoch
        assert c2.add_partitions("tx", pid, epoch, [("t", 0)])[("t", 0)] == ErrorCode.NONE
    finally:
        b2.shutdown()


def test_timed_out_transaction_is_aborted_and_fenced(broker: Broker) -> None:
    c = coordinator_of(broker)
    pid, epoch = _init(c, timeout=1000)
    c.add_partitions("tx", pid, epoch, [("t", 0)])
    _send(broker, pid, epoch, 0, 2)
    start = c.txns["tx"].txn_start_timestamp
    assert c.abort_timed_out_transactions(start + 500) == []
    assert c.abort_timed_out_transactions(start + 1001) == ["tx"]
    meta = c.txns["tx"]
    assert meta.state is S.COMPLETE_ABORT and meta.producer_epoch == epoch + 1
    p = broker.partition("t", 0)
    assert p is not None and p.last_stable_offset == p.high_watermark
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.PRODUCER_FENCED


def test_transactional_id_expiration(tmp_path: Path) -> None:
    b = _broker(tmp_path, **{"transactional.id.expiration.ms": 1000})
    try:
        c = coordinator_of(b)
        _init(c, "idle")
        pid, epoch = _init(c, "busy")
        c.add_partitions("busy", pid, epoch, [("t", 0)])
        now = c.txns["idle"].txn_last_update_timestamp
        assert c.expire_transactional_ids(now + 500) == []
        assert c.expire_transactional_ids(now + 5000) == ["idle"]  # an open transaction never expires
        b.shutdown()
        b = _broker(tmp_path)
        assert set(coordinator_of(b).txns) == {"busy"}  # the tombstone is in the state log
    finally:
        b.shutdown()


def test_txn_offset_commit_is_pending_until_the_commit_marker(broker: Broker) -> None:
    c = coordinator_of(broker)
    gc = broker.group_coordinator
    pid, epoch = _init(c)
    om = OffsetAndMetadata(17, -1, "m", 1)
    # the group's offsets partition must be in the transaction first
    codes = c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): om})
    assert codes == {("t", 0): ErrorCode.INVALID_TXN_STATE}
    assert c.add_offsets("tx", pid, epoch, "g") == ErrorCode.NONE
    assert c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): om}) == {("t", 0): ErrorCode.NONE}
    assert gc.fetch_offsets("g", [("t", 0)])[("t", 0)] is None  # not visible before the commit
    # the commit made "g" an Empty group without members (as Kafka does); KIP-447: a member it
    # does not have is refused
    assert gc.groups["g"].members == {}
    bad = c.offsets.commit(c, "tx", "g", pid, epoch, 5, "member", None, {("t", 0): om})
    assert bad == {("t", 0): ErrorCode.UNKNOWN_MEMBER_ID}
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
    got = gc.fetch_offsets("g", [("t", 0)])[("t", 0)]
    assert got is not None and got.offset == 17
    # an aborted transaction's offsets never appear
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): OffsetAndMetadata(99, -1, "", 1)})
    c.end_txn("tx", pid, epoch, False)
    got = gc.fetch_offsets("g", [("t", 0)])[("t", 0)]
    assert got is not None and got.offset == 17


def test_txn_offsets_after_restart(tmp_path: Path) -> None:
    """The group's replay of __consumer_offsets counts committed transactional offsets only."""
    b = _broker(tmp_path)
    c = coordinator_of(b)
    pid, epoch = _init(c)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): OffsetAndMetadata(5, -1, "", 1)})
    c.end_txn("tx", pid, epoch, True)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): OffsetAndMetadata(50, -1, "", 1)})
    c.end_txn("tx", pid, epoch, False)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 1): OffsetAndMetadata(7, -1, "", 1)})
    b.shutdown()  # the last transaction is still open
    b = _broker(tmp_path)
    try:
        got = b.group_coordinator.fetch_offsets("g", [("t", 0), ("t", 1)])
        assert got[("t", 0)] is not None and got[("t", 0)].offset == 5
        assert got[("t", 1)] is None
    finally:
        b.shutdown()


def test_marker_from_an_older_coordinator_is_fenced(broker: Broker) -> None:
    from broker_embedded.txn.markers import write_marker

    c = coordinator_of(broker)
    pid, epoch = _init(c)
    _send(broker, pid, epoch, 0, 1)
    assert write_marker(broker, ("t", 0), pid, epoch, True, 5) == ErrorCode.NONE
    p = broker.partition("t", 0)
    assert p is not None and p.log.producer_state.last_entry(pid).coordinator_epoch == 5  # type: ignore[union-attr]
    _send(broker, pid, epoch, 1, 1)
    assert write_marker(broker, ("t", 0), pid, epoch, False, 4) == ErrorCode.TRANSACTION_COORDINATOR_FENCED
    assert p.log.producer_state.first_unstable_offset() is not None  # the zombie's marker was not written
    assert write_marker(broker, ("t", 1), pid, epoch, True, 0) == ErrorCode.NONE  # per partition


def test_markers_are_retried_until_every_partition_has_one(broker: Broker, monkeypatch: pytest.MonkeyPatch) -> None:
    """A partition that cannot take its marker (a storage error here) keeps the transaction in
    PrepareCommit, new work on the id gets CONCURRENT_TRANSACTIONS, and the retry completes it."""
    from broker_embedded.txn import markers

    c = coordinator_of(broker)
    pid, epoch = _init(c)
    c.add_partitions("tx", pid, epoch, [("t", 0), ("t", 1)])
    _send(broker, pid, epoch, 0, 1, partition=0)
    _send(broker, pid, epoch, 0, 1, partition=1)
    real = markers.write_marker
    failing = {("t", 1)}

    def flaky(b: Broker, tp: tuple[str, int], *args: object, **kw: object) -> ErrorCode:
        if tp in failing:
            return ErrorCode.KAFKA_STORAGE_ERROR
        return real(b, tp, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(markers, "write_marker", flaky)
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE  # the decision is durable
    assert c.txns["tx"].state is S.PREPARE_COMMIT
    assert c.init_producer_id("tx", 60000, -1, -1)[0] == ErrorCode.CONCURRENT_TRANSACTIONS
    assert c.add_partitions("tx", pid, epoch, [("t", 0)])[("t", 0)] == ErrorCode.CONCURRENT_TRANSACTIONS
    p0, p1 = broker.partition("t", 0), broker.partition("t", 1)
    assert p0 is not None and p1 is not None
    assert p0.last_stable_offset == p0.high_watermark and p1.last_stable_offset == 0
    c.markers.retry_now()
    assert c.txns["tx"].state is S.PREPARE_COMMIT  # still failing
    failing.clear()
    c.markers.retry_now()
    assert c.txns["tx"].state is S.COMPLETE_COMMIT
    assert p1.last_stable_offset == p1.high_watermark == 2


def test_txn_offsets_count_at_their_marker_when_the_plain_copy_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash after the COMMIT marker reached __consumer_offsets but before the offsets' plain
    copy was appended: the replay applies the transactional records at their marker."""
    b = _broker(tmp_path)
    c = coordinator_of(b)
    pid, epoch = _init(c)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): OffsetAndMetadata(5, -1, "", 1)})

    def lost(group_id: str, records: object) -> None:
        raise KafkaError("disk gone before the plain copy", ErrorCode.NOT_COORDINATOR)

    monkeypatch.setattr(b.group_coordinator.storage, "append", lost)
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
    b.shutdown()
    b = _broker(tmp_path)
    try:
        got = b.group_coordinator.fetch_offsets("g", [("t", 0)])[("t", 0)]
        assert got is not None and got.offset == 5
    finally:
        b.shutdown()


def test_open_txn_offsets_read_back_are_decided_by_the_marker_after_a_restart(tmp_path: Path) -> None:
    """Offsets of a transaction still open at a restart wait for its marker, then count."""
    b = _broker(tmp_path)
    c = coordinator_of(b)
    pid, epoch = _init(c)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 1): OffsetAndMetadata(7, -1, "", 1)})
    b.shutdown()  # the transaction is still open
    b = _broker(tmp_path)
    try:
        c = coordinator_of(b)
        gc = b.group_coordinator
        assert gc.fetch_offsets("g", [("t", 1)])[("t", 1)] is None
        assert c.offsets.pending_partitions("g") == {("t", 1)}  # OffsetFetch(require_stable) must wait
        assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
        assert c.offsets.pending_partitions("g") == set()
        got = gc.fetch_offsets("g", [("t", 1)])[("t", 1)]
        assert got is not None and got.offset == 7
    finally:
        b.shutdown()


def _pending_then_plain_writes(b: Broker) -> tuple[int, int]:
    """A transaction of "tx" holds offsets 40, 41, 40 of (t, 0), (t, 1), (u, 0) for group "g"; then
    a plain commit of 7 to (t, 0) and an OffsetDelete of (t, 1). Returns its producer id and epoch."""
    c = coordinator_of(b)
    pid, epoch = _init(c)
    c.add_offsets("tx", pid, epoch, "g")
    pending = {tp: OffsetAndMetadata(40 + tp[1], -1, "", 1) for tp in [("t", 0), ("t", 1), ("u", 0)]}
    assert set(c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, pending).values()) == {ErrorCode.NONE}
    gc = b.group_coordinator
    assert gc.commit_offsets("g", -1, "", None, {("t", 0): OffsetAndMetadata(7, -1, "", 2)}) == {
        ("t", 0): ErrorCode.NONE
    }
    assert gc.delete_offsets("g", [("t", 1)]) == (ErrorCode.NONE, {("t", 1): ErrorCode.NONE})
    return pid, epoch


def test_plain_records_after_open_txn_offsets_win_after_a_restart(tmp_path: Path) -> None:
    """Read back at a restart, an open transaction's offsets yield to plain records written after
    them: a tombstone drops them (the partition is stable at once), a plain commit stays when the
    transaction commits (Kafka keeps the later record's offset); an untouched one is materialized."""
    b = _broker(tmp_path)
    pid, epoch = _pending_then_plain_writes(b)
    live = coordinator_of(b).offsets.pending_partitions("g")
    b.shutdown()  # the transaction is still open
    b = _broker(tmp_path)
    try:
        c = coordinator_of(b)
        # the tombstoned partition is no longer pending; the superseded one still is, until the marker
        assert live == c.offsets.pending_partitions("g") == {("t", 0), ("u", 0)}
        assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
        got = b.group_coordinator.fetch_offsets("g", [("t", 0), ("t", 1), ("u", 0)])
        assert {tp: om.offset if om else None for tp, om in got.items()} == {("t", 0): 7, ("t", 1): None, ("u", 0): 40}
    finally:
        b.shutdown()


def test_plain_records_after_txn_offsets_win_live(broker: Broker) -> None:
    """The same without a restart, and a deleted topic: its pending offsets go with it."""
    pid, epoch = _pending_then_plain_writes(broker)
    c, gc = coordinator_of(broker), broker.group_coordinator
    assert gc.on_topics_deleted(["u"]) == 1
    assert c.offsets.pending_partitions("g") == {("t", 0)}
    assert c.end_txn("tx", pid, epoch, True)[0] == ErrorCode.NONE
    assert c.offsets.pending_partitions("g") == set()
    got = gc.fetch_offsets("g", None)
    assert {tp: om.offset for tp, om in got.items()} == {("t", 0): 7}


def test_an_offset_with_an_open_transactions_offset_does_not_expire(broker: Broker) -> None:
    """Kafka's cleanupExpiredOffsets: an expired offset waits while an open transaction holds an
    offset of the same partition, and the group is kept while it has open transactions."""
    c, gc = coordinator_of(broker), broker.group_coordinator
    old = OffsetAndMetadata(3, -1, "", 1)  # committed at t=1 ms: long expired
    gc.commit_offsets("g", -1, "", None, {("t", 0): old, ("t", 1): old})
    pid, epoch = _init(c)
    c.add_offsets("tx", pid, epoch, "g")
    c.offsets.commit(c, "tx", "g", pid, epoch, -1, "", None, {("t", 0): OffsetAndMetadata(9, -1, "", 2)})
    far_future = 10**13
    assert gc.expire_offsets(far_future) == 1  # (t, 1) only
    assert "g" in gc.groups and set(gc.fetch_offsets("g", None)) == {("t", 0)}
    assert c.end_txn("tx", pid, epoch, False)[0] == ErrorCode.NONE  # aborted: (t, 0) may expire now
    assert gc.expire_offsets(far_future) == 1
    assert "g" not in gc.groups


def _two_open_transactions(b: Broker) -> dict[str, tuple[int, int]]:
    """Transactions "early" then "late" send offsets 10 and 20 of (t, 0) for group "g"; both stay open."""
    c = coordinator_of(b)
    ids = {}
    for tid, offset in [("early", 10), ("late", 20)]:
        pid, epoch = ids[tid] = _init(c, tid)
        assert c.add_offsets(tid, pid, epoch, "g") == ErrorCode.NONE
        om = OffsetAndMetadata(offset, -1, "", 1)
        assert c.offsets.commit(c, tid, "g", pid, epoch, -1, "", None, {("t", 0): om}) == {("t", 0): ErrorCode.NONE}
    return ids


def _committed(b: Broker) -> int | None:
    om = b.group_coordinator.fetch_offsets("g", [("t", 0)])[("t", 0)]
    return None if om is None else om.offset


def _committed_after_restart(path: Path) -> int | None:
    b = _broker(path)
    try:
        return _committed(b)
    finally:
        b.shutdown()


def test_the_later_record_wins_when_two_transactions_commit_offsets(tmp_path: Path) -> None:
    """Kafka's marker replay materializes a transaction's offset only if its record is later than
    the committed offset's: "late" committed first stays when "early" commits after it."""
    b = _broker(tmp_path)
    ids = _two_open_transactions(b)
    c = coordinator_of(b)
    assert c.end_txn("late", *ids["late"], True)[0] == ErrorCode.NONE
    assert _committed(b) == 20
    assert c.offsets.pending_partitions("g") == {("t", 0)}  # "early" is still undecided
    assert c.end_txn("early", *ids["early"], True)[0] == ErrorCode.NONE
    assert c.offsets.pending_partitions("g") == set()
    assert _committed(b) == 20
    b.shutdown()
    assert _committed_after_restart(tmp_path) == 20


def test_an_open_transactions_later_offset_outranks_an_earlier_one_committed_before_a_restart(
    tmp_path: Path,
) -> None:
    """Transaction "early" commits, the broker restarts with "late" still open: the plain copy of "early"'s
    offset (appended after its marker) does not make it later than "late"'s record."""
    b = _broker(tmp_path)
    ids = _two_open_transactions(b)
    assert coordinator_of(b).end_txn("early", *ids["early"], True)[0] == ErrorCode.NONE
    assert _committed(b) == 10
    b.shutdown()
    b = _broker(tmp_path)
    try:
        c = coordinator_of(b)
        assert _committed(b) == 10
        assert c.offsets.pending_partitions("g") == {("t", 0)}
        assert c.end_txn("late", *ids["late"], True)[0] == ErrorCode.NONE
        assert _committed(b) == 20
    finally:
        b.shutdown()
    assert _committed_after_restart(tmp_path) == 20
