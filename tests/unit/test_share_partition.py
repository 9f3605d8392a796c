"""The share-partition state machine (KIP-932) on a fake clock, and its __share_group_state replay."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from broker_embedded.purgatory import ManualClock, SystemTimer
from broker_embedded.share import (
    AcknowledgementBatch,
    AcknowledgeType,
    AcquiredRecords,
    AutoOffsetReset,
    PersisterStateBatch,
    RecordState,
    ShareErrorCode,
    ShareGroupStateKey,
    SharePartition,
    SharePartitionError,
    ShareStateStore,
)
from broker_embedded.share.partition import parse_auto_offset_reset

KEY = ShareGroupStateKey("g", "topic-id", 0)


def make(start: int = 0, **config: int | bool) -> tuple[SharePartition, ManualClock, SystemTimer]:
    clock = ManualClock(1_000)
    timer = SystemTimer("share", tick_ms=1, clock=clock)
    return SharePartition(timer, start, **config), clock, timer  # type: ignore[arg-type]


def tick(clock: ManualClock, timer: SystemTimer, ms: int) -> None:
    clock.advance(ms)
    timer.advance_clock()


def ack(first: int, last: int, t: AcknowledgeType) -> AcknowledgementBatch:
    return AcknowledgementBatch(first, last, (int(t),))


def test_acquire_accept_moves_spso() -> None:
    sp, _, _ = make(10)
    assert sp.acquire("m1", 10, 19, 500) == [AcquiredRecords(10, 19, 1)]
    assert (sp.start_offset, sp.end_offset, sp.next_fetch_offset()) == (10, 19, 20)
    # Nothing left for a second member.
    assert sp.acquire("m2", 10, 19, 500) == []
    sp.acknowledge("m1", [ack(10, 14, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 15
    # Acknowledging the middle does not move the SPSO past the still-acquired 15..16.
    sp.acknowledge("m1", [ack(17, 19, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 15 and sp.record(17).state == RecordState.ACKNOWLEDGED  # type: ignore[union-attr]
    sp.acknowledge("m1", [ack(15, 16, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 20 and sp.end_offset == 20 and sp.in_flight_count == 0


def test_release_redelivers_with_count_and_reject_never_again() -> None:
    sp, _, _ = make()
    sp.acquire("m1", 0, 4, 500)
    sp.acknowledge("m1", [AcknowledgementBatch(0, 4, (2, 3, 1, 2, 1))])  # release, reject, accept, release, accept
    assert sp.start_offset == 0
    assert sp.record(1).state == RecordState.ARCHIVED  # type: ignore[union-attr]
    assert sp.next_fetch_offset() == 0
    assert sp.acquire("m2", 0, 4, 500) == [AcquiredRecords(0, 0, 2), AcquiredRecords(3, 3, 2)]
    sp.acknowledge("m2", [ack(0, 0, AcknowledgeType.ACCEPT), ack(3, 3, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 5 and sp.in_flight_count == 0


def test_acknowledge_errors_leave_state_unchanged() -> None:
    sp, _, _ = make()
    sp.acquire("m1", 0, 9, 5)  # 0..4
    sp.acquire("m2", 5, 9, 1)  # 5
    before = sp.records()
    cases = [
        ("m2", [ack(0, 1, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_RECORD_STATE),  # another member's
        ("m1", [ack(3, 5, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_RECORD_STATE),  # 5 is m2's
        ("m1", [ack(3, 6, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_REQUEST),  # 6 past the fetched records
        ("m1", [ack(0, 2, AcknowledgeType.ACCEPT), ack(1, 2, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_REQUEST),
        # starting at the previous batch's last offset passes Kafka's request check; offset 1 is then
        # acknowledged twice (Apache Kafka 4.3.1 on the wire: INVALID_RECORD_STATE, nothing applied)
        (
            "m1",
            [ack(0, 1, AcknowledgeType.ACCEPT), ack(1, 2, AcknowledgeType.ACCEPT)],
            ShareErrorCode.INVALID_RECORD_STATE,
        ),
        # the request check comes first: a reversed batch after an offset acknowledged twice
        (
            "m1",
            [ack(0, 0, AcknowledgeType.ACCEPT), ack(0, 0, AcknowledgeType.ACCEPT), ack(3, 1, AcknowledgeType.ACCEPT)],
            ShareErrorCode.INVALID_REQUEST,
        ),
        ("m1", [ack(2, 3, AcknowledgeType.ACCEPT), ack(0, 1, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_REQUEST),
        ("m1", [ack(3, 1, AcknowledgeType.ACCEPT)], ShareErrorCode.INVALID_REQUEST),
        ("m1", [AcknowledgementBatch(0, 2, (1, 1))], ShareErrorCode.INVALID_REQUEST),
        ("m1", [AcknowledgementBatch(0, 0, (9,))], ShareErrorCode.INVALID_REQUEST),
        # The first batch is valid, the second is not: nothing is applied.
        (
            "m1",
            [ack(0, 0, AcknowledgeType.ACCEPT), ack(5, 5, AcknowledgeType.ACCEPT)],
            ShareErrorCode.INVALID_RECORD_STATE,
        ),
    ]
    for member, batches, code in cases:
        with pytest.raises(SharePartitionError) as e:
            sp.acknowledge(member, batches)
        assert e.value.code == code, (member, batches)
        assert sp.records() == before
    sp.acknowledge("m1", [ack(0, 3, AcknowledgeType.ACCEPT)])
    # Acknowledging twice (a client's retry): wholly below the SPSO now, delivery-complete, skipped
    # without an error as Kafka does -- by anyone, with any type; nothing changes.
    sp.drain_updates()
    before = sp.records()
    sp.acknowledge("m1", [ack(2, 3, AcknowledgeType.ACCEPT)])
    sp.acknowledge("m2", [ack(0, 1, AcknowledgeType.RELEASE), ack(3, 3, AcknowledgeType.REJECT)])
    assert sp.records() == before and sp.start_offset == 4 and sp.drain_updates() == []
    # A batch straddling the SPSO acknowledges only what is still in flight (Kafka skips the rest).
    sp.acknowledge("m1", [ack(1, 4, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 5 and sp.acquired_by("m2") == [5]
    sp.acknowledge("m2", [ack(4, 4, AcknowledgeType.ACCEPT)])
    # A skipped batch does not excuse a bad one after it: all or nothing (5 is m2's).
    with pytest.raises(SharePartitionError) as e:
        sp.acknowledge("m1", [ack(4, 4, AcknowledgeType.ACCEPT), ack(5, 5, AcknowledgeType.ACCEPT)])
    assert e.value.code == ShareErrorCode.INVALID_RECORD_STATE and sp.acquired_by("m2") == [5]


def test_lock_expiry_on_fake_clock_and_renew() -> None:
    sp, clock, timer = make(record_lock_duration_ms=30_000)
    sp.acquire("m1", 0, 3, 500)
    tick(clock, timer, 29_999)
    assert sp.acquired_by("m1") == [0, 1, 2, 3]
    sp.acknowledge("m1", [ack(0, 0, AcknowledgeType.ACCEPT), ack(1, 1, AcknowledgeType.RENEW)])
    tick(clock, timer, 1)
    # 2, 3 expired; 1 was renewed at t+29 999 so holds until t+59 999.
    assert sp.acquired_by("m1") == [1]
    assert sp.record(2).state == RecordState.AVAILABLE and sp.record(2).member_id is None  # type: ignore[union-attr]
    assert sp.start_offset == 1
    assert sp.acquire("m2", 0, 3, 500) == [AcquiredRecords(2, 3, 2)]
    with pytest.raises(SharePartitionError):
        sp.acknowledge("m1", [ack(2, 2, AcknowledgeType.ACCEPT)])  # the lock is gone, m2 holds it
    tick(clock, timer, 29_998)
    assert sp.acquired_by("m1") == [1]
    tick(clock, timer, 1)
    assert sp.acquired_by("m1") == [] and sp.acquired_by("m2") == [2, 3]
    # All acknowledged records cancel their timer tasks; only m2's lock remains queued.
    assert timer.size == 1


def test_renew_can_be_disabled() -> None:
    sp, _, _ = make(renew_acknowledge_enable=False)
    sp.acquire("m1", 0, 0, 1)
    with pytest.raises(SharePartitionError) as e:
        sp.acknowledge("m1", [ack(0, 0, AcknowledgeType.RENEW)])
    assert e.value.code == ShareErrorCode.INVALID_RECORD_STATE  # as Kafka answers it


def test_delivery_count_limit_archives_poison_record() -> None:
    sp, clock, timer = make(delivery_count_limit=3, record_lock_duration_ms=100)
    assert sp.acquire("m0", 0, 1, 500) == [AcquiredRecords(0, 1, 1)]
    sp.acknowledge("m0", [ack(0, 0, AcknowledgeType.RELEASE), ack(1, 1, AcknowledgeType.ACCEPT)])
    assert sp.acquire("m1", 0, 1, 500) == [AcquiredRecords(0, 0, 2)]
    sp.acknowledge("m1", [ack(0, 0, AcknowledgeType.RELEASE)])
    assert sp.acquire("m2", 0, 1, 500) == [AcquiredRecords(0, 0, 3)]
    # The third delivery times out: count 3 reached the limit, so the record is archived.
    tick(clock, timer, 100)
    assert sp.record(0) is None and sp.start_offset == 2
    assert sp.acquire("m9", 0, 1, 500) == []


def test_records_near_the_delivery_limit_are_throttled_then_isolated() -> None:
    sp, _, _ = make(delivery_count_limit=5)
    for _ in range(3):
        assert sp.acquire("m", 0, 9, 10)[0].last_offset == 9
        sp.acknowledge("m", [ack(0, 9, AcknowledgeType.RELEASE)])
    # Count 3 reached ceil(5 / 2): the batch halves.
    assert sp.acquire("m", 0, 9, 10) == [AcquiredRecords(0, 4, 4)]
    sp.acknowledge("m", [ack(0, 4, AcknowledgeType.RELEASE)])
    # Offset 0 is on its last attempt (count 4 of 5): it goes out alone.
    assert sp.acquire("m", 0, 9, 10) == [AcquiredRecords(0, 0, 5)]
    assert sp.acquire("m", 0, 9, 10) == [AcquiredRecords(1, 1, 5)]
    sp.acknowledge("m", [ack(0, 1, AcknowledgeType.RELEASE)])  # count 5 reached: archived
    assert sp.start_offset == 2


def test_in_flight_limit_and_max_records() -> None:
    sp, _, _ = make(max_in_flight_records=5)
    assert sp.acquire("m1", 0, 99, 3) == [AcquiredRecords(0, 2, 1)]
    assert sp.acquire("m2", 0, 99, 100) == [AcquiredRecords(3, 4, 1)]
    assert not sp.can_acquire_records() and sp.acquire("m3", 5, 99, 100) == []
    sp.acknowledge("m2", [ack(3, 3, AcknowledgeType.RELEASE)])
    assert sp.can_acquire_records()
    assert sp.acquire("m3", 0, 99, 100) == [AcquiredRecords(3, 3, 2)]  # within the window only
    sp.acknowledge("m1", [ack(0, 1, AcknowledgeType.ACCEPT)])  # SPSO 2: two slots free
    assert sp.acquire("m3", 5, 99, 100) == [AcquiredRecords(5, 6, 1)]


def test_member_leave_releases_only_its_records() -> None:
    sp, _, timer = make(delivery_count_limit=1)
    sp.acquire("m1", 0, 1, 500)
    sp.acknowledge("m1", [ack(0, 0, AcknowledgeType.RELEASE)])  # count 1 == limit: archived
    sp.acquire("m2", 2, 3, 500)
    assert sp.release_acquired_records("m2") == [2, 3]
    assert sp.acquired_by("m1") == [1]
    assert sp.record(2).state == RecordState.ARCHIVED  # type: ignore[union-attr]  # limit 1 reached
    sp.release_acquired_records("m1")
    assert sp.start_offset == 4 and timer.size == 0


def test_aborted_transactions_are_archived_never_acquired() -> None:
    sp, _, _ = make()
    got = sp.acquire("m1", 0, 9, 500, aborted_ranges=[(2, 4), (8, 8)])
    assert got == [AcquiredRecords(0, 1, 1), AcquiredRecords(5, 7, 1), AcquiredRecords(9, 9, 1)]
    sp.acknowledge("m1", [ack(0, 1, AcknowledgeType.ACCEPT)])
    assert sp.start_offset == 5  # over the aborted 2..4
    sp.acknowledge("m1", [AcknowledgementBatch(5, 7, (1,)), AcknowledgementBatch(9, 9, (1,))])
    assert sp.start_offset == 10


def test_auto_offset_reset_and_log_start_moves() -> None:
    assert SharePartition.initial_start_offset(AutoOffsetReset.LATEST, 3, 50) == 50
    assert SharePartition.initial_start_offset(AutoOffsetReset.EARLIEST, 3, 50) == 3
    assert parse_auto_offset_reset("latest") == (AutoOffsetReset.LATEST, None)
    assert parse_auto_offset_reset("by_duration:PT1H30M") == (AutoOffsetReset.BY_DURATION, 5_400_000)
    assert parse_auto_offset_reset("by_duration:P1DT0.5S") == (AutoOffsetReset.BY_DURATION, 86_400_500)
    for bad in ("none", "by_duration:", "by_duration:PT", "by_duration:-PT1H", "by_duration:1H", "by_duration:P1DT"):
        with pytest.raises(ValueError):
            parse_auto_offset_reset(bad)
    timestamps = [100, 200, 300, 400]  # offsets 0..3
    lookup = lambda ts: next((o for o, t in enumerate(timestamps) if t >= ts), len(timestamps))  # noqa: E731
    by = AutoOffsetReset.BY_DURATION
    assert SharePartition.initial_start_offset(by, 0, 4, duration_ms=150, now_ms=400, offset_for_timestamp=lookup) == 2
    assert SharePartition.initial_start_offset(by, 0, 4, duration_ms=0, now_ms=900, offset_for_timestamp=lookup) == 4
    sp, _, _ = make(0)
    sp.acquire("m1", 0, 9, 500)
    sp.update_log_start_offset(6)
    assert sp.start_offset == 6 and sp.acquired_by("m1") == [6, 7, 8, 9]
    state = replay_all(sp, SharePartition(sp.timer, 0).snapshot()).read(KEY)
    assert state is not None and (state.start_offset, state.state_batches) == (6, sp.persisted_batches())
    sp, _, _ = make(0)
    base = sp.snapshot()
    # The log starts later than the SPSO (retention before the first fetch).
    assert sp.acquire("m1", 20, 21, 500) == [AcquiredRecords(20, 21, 1)]
    assert sp.start_offset == 20
    state = replay_all(sp, base).read(KEY)
    assert state is not None and state.start_offset == 20
    with pytest.raises(SharePartitionError):
        sp.acquire("m1", 30, 31, 500)  # a hole past the in-flight window


def replay_all(sp: SharePartition, base=None) -> ShareStateStore:  # type: ignore[no-untyped-def]
    store = ShareStateStore()
    store.replay(KEY, base)
    for u in sp.drain_updates():
        store.replay(KEY, u)
    return store


def test_snapshot_and_updates_replay_to_the_same_state() -> None:
    sp, clock, timer = make(100, delivery_count_limit=2, record_lock_duration_ms=50)
    base = sp.snapshot()
    sp.acquire("a", 100, 109, 6)
    sp.acquire("b", 100, 120, 4, aborted_ranges=[(111, 112)])
    sp.acknowledge("a", [AcknowledgementBatch(100, 103, (1, 2, 3, 0))])
    sp.acknowledge("b", [ack(106, 107, AcknowledgeType.ACCEPT)])
    tick(clock, timer, 50)
    store = replay_all(sp, base)
    state = store.read(KEY)
    assert state is not None
    assert (state.start_offset, state.state_batches) == (sp.start_offset, sp.persisted_batches())
    assert state.delivery_complete_count == sp.delivery_complete_count == 4  # 102, 103, 106, 107
    A, K, X = RecordState.AVAILABLE, RecordState.ACKNOWLEDGED, RecordState.ARCHIVED
    assert state.state_batches == (
        PersisterStateBatch(101, 101, A, 1),  # released
        PersisterStateBatch(102, 103, X, 1),  # rejected, gap
        PersisterStateBatch(104, 105, A, 1),  # a's lock expired
        PersisterStateBatch(106, 107, K, 1),
        PersisterStateBatch(108, 109, A, 1),  # b's lock expired
    )
    # A new leader rebuilds from the stored state: same in-flight view, no locks.
    sp2 = SharePartition.from_state(timer, state, delivery_count_limit=2)
    assert sp2.snapshot().state_batches == sp.persisted_batches()
    assert sp2.start_offset == sp.start_offset and sp2.acquired_by("a") == []
    # The coordinator's next snapshot (epoch + 1) carries the same content.
    snap = store.snapshot(KEY, write_timestamp=5)
    store2 = ShareStateStore()
    store2.replay(KEY, snap)
    assert store2.read(KEY).state_batches == state.state_batches  # type: ignore[union-attr]
    store2.replay(KEY, None)
    assert store2.read(KEY) is None


def test_a_new_leader_redelivers_unwritten_acquisitions_from_the_written_count() -> None:
    for persist, expected in ((False, 2), (True, 3)):
        sp, _, timer = make(persist_acquisitions=persist)
        base = sp.snapshot()
        sp.acquire("m", 0, 0, 1)
        sp.acknowledge("m", [ack(0, 0, AcknowledgeType.RELEASE)])
        sp.acquire("m", 0, 0, 1)  # delivery 2, then the leader dies before an acknowledgement
        state = replay_all(sp, base).read(KEY)
        assert state is not None
        sp2 = SharePartition.from_state(timer, state)
        # Kafka (persist=False) lost the second acquisition: it counts as delivery 2 again.
        assert sp2.acquire("n", 0, 0, 1) == [AcquiredRecords(0, 0, expected)]


def test_update_without_snapshot_or_for_another_epoch_is_refused() -> None:
    sp, _, _ = make()
    sp.acquire("m", 0, 0, 1)
    assert sp.drain_updates() == []  # Kafka writes no state for an acquisition
    sp.acknowledge("m", [ack(0, 0, AcknowledgeType.RELEASE)])
    (update,) = sp.drain_updates()
    with pytest.raises(ValueError):
        ShareStateStore().replay(KEY, update)
    store = ShareStateStore()
    store.replay(KEY, sp.snapshot())
    store.replay(KEY, store.snapshot(KEY, 0))  # snapshot epoch 1 now
    with pytest.raises(ValueError):
        store.replay(KEY, update)


# ---- property test ------------------------------------------------------------------------------

MEMBERS = ["a", "b", "c"]
op = st.one_of(
    st.tuples(st.just("acquire"), st.sampled_from(MEMBERS), st.integers(0, 40), st.integers(0, 8), st.integers(1, 6)),
    st.tuples(
        st.just("ack"),
        st.sampled_from(MEMBERS),
        st.integers(0, 45),
        st.integers(0, 4),
        st.sampled_from([0, 1, 2, 3, 4]),
    ),
    st.tuples(st.just("tick"), st.integers(1, 60)),
    st.tuples(st.just("leave"), st.sampled_from(MEMBERS)),
    st.tuples(st.just("snapshot")),
)


@settings(max_examples=300, deadline=None)
@given(
    ops=st.lists(op, max_size=40),
    limit=st.integers(1, 4),
    max_in_flight=st.integers(3, 30),
    persist_acquisitions=st.booleans(),
)
def test_random_operations_keep_share_partition_invariants(
    ops: list[tuple], limit: int, max_in_flight: int, persist_acquisitions: bool
) -> None:
    lock_ms = 40
    sp, clock, timer = make(
        0,
        delivery_count_limit=limit,
        max_in_flight_records=max_in_flight,
        record_lock_duration_ms=lock_ms,
        persist_acquisitions=persist_acquisitions,
    )
    store = ShareStateStore()
    store.replay(KEY, sp.snapshot())
    # Our own model of who holds what: offset -> (member, lock deadline).
    held: dict[int, tuple[str, int]] = {}
    aborted = [(13, 15), (30, 30)]
    for o in ops:
        kind = o[0]
        if kind == "acquire":
            _, member, first, span, max_records = o
            first = min(first, sp.end_offset + 1)  # a log read starts at most at the next new offset
            for r in sp.acquire(member, first, first + span, max_records, aborted_ranges=aborted):
                assert 1 <= r.delivery_count <= limit
                for off in range(r.first_offset, r.last_offset + 1):
                    assert not any(lo <= off <= hi for lo, hi in aborted)
                    prior = held.get(off)
                    # Never acquired while another acquisition's lock is still live.
                    assert prior is None or prior[1] <= clock(), (off, prior, member)
                    held[off] = (member, clock() + lock_ms)
        elif kind == "ack":
            _, member, first, span, t = o
            start_before = sp.start_offset
            try:
                sp.acknowledge(member, [AcknowledgementBatch(first, first + span, (t,))])
            except SharePartitionError as e:
                assert e.code in (ShareErrorCode.INVALID_RECORD_STATE, ShareErrorCode.INVALID_REQUEST)
            else:
                # Offsets below the SPSO are skipped (already delivery-complete).
                for off in range(max(first, start_before), first + span + 1):
                    assert held[off][0] == member
                    if t == AcknowledgeType.RENEW:
                        held[off] = (member, clock() + lock_ms)
                    else:
                        del held[off]
        elif kind == "tick":
            tick(clock, timer, o[1])
            for off in [k for k, (_, d) in held.items() if d <= clock()]:
                del held[off]
        elif kind == "leave":
            for off in sp.release_acquired_records(o[1]):
                assert held.pop(off)[0] == o[1]
        else:
            for u in sp.drain_updates():
                store.replay(KEY, u)
            snap = store.snapshot(KEY, clock())
            store = ShareStateStore()
            store.replay(KEY, snap)
            sp.snapshot_epoch = snap.snapshot_epoch
        # The partition agrees with the model about ownership.
        recs = sp.records()
        assert {k: r.member_id for k, r in recs.items() if r.state == RecordState.ACQUIRED} == {
            k: m for k, (m, _) in held.items()
        }
        for off, r in recs.items():
            assert off >= sp.start_offset
            if r.state == RecordState.AVAILABLE:
                assert r.delivery_count < limit
            assert r.delivery_count <= limit
        # The SPSO sits on a non-terminal record (or nothing is in flight).
        if recs:
            assert not recs[sp.start_offset].state.is_terminal
            assert sorted(recs) == list(range(sp.start_offset, sp.end_offset + 1))
        assert len(recs) <= max_in_flight
        assert timer.size <= len(held)
    for u in sp.drain_updates():
        store.replay(KEY, u)
    state = store.read(KEY)
    assert state is not None
    assert (state.start_offset, state.state_batches) == (sp.start_offset, sp.persisted_batches())
    assert state.delivery_complete_count == sp.persisted_delivery_complete_count
    rebuilt = SharePartition.from_state(timer, state)
    assert rebuilt.persisted_batches() == sp.persisted_batches()
    assert rebuilt.start_offset == sp.start_offset
    written = {o for b in state.state_batches for o in range(b.first_offset, b.last_offset + 1)}
    for off, r in rebuilt.records().items():
        if off not in written:  # in flight here but never written: a new leader delivers it afresh
            assert (r.state, r.delivery_count) == (RecordState.AVAILABLE, 0)
