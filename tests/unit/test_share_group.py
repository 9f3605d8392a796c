"""Share groups (KIP-932) in the group coordinator, sans-IO on a manual clock: epochs, the simple
assignor (more members than partitions share them), session timeouts that release the member's
records on the share-partition, and the manager's record batches trimmed to what was acquired."""

from __future__ import annotations

import pytest

from broker_embedded.group.share_group import ShareGroups, compute_assignment
from broker_embedded.purgatory import ManualClock, SystemTimer
from broker_embedded.share.manager import aborted_ranges, batches
from broker_embedded.share.partition import SharePartition
from broker_embedded.share.persister import java_string_hash
from broker_embedded.share.records import SNAPSHOT, UPDATE, decode_key, decode_value, encode_key, encode_value
from broker_embedded.share.state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import build_batch

T1, T2 = b"\x01" * 16, b"\x02" * 16
TOPICS = {"one": (T1, 1), "four": (T2, 4)}


def groups(removed: list[tuple[str, str]] | None = None, session_ms: int = 45_000) -> ShareGroups:
    def on_removed(group: str, member: str) -> None:
        if removed is not None:
            removed.append((group, member))

    return ShareGroups(TOPICS.get, timeouts=lambda _: (session_ms, 5_000), on_member_removed=on_removed)


def test_join_epochs_and_errors() -> None:
    g = groups()
    a = g.heartbeat("g", "a", 0, None, ["one"], now_ms=0)
    assert a.member_epoch == 1 and a.assignment == {T1: frozenset({0})}
    again = g.heartbeat("g", "a", 1, None, None, now_ms=10)
    assert again.member_epoch == 1 and again.assignment is None  # unchanged: not repeated
    for epoch, code in ((5, ErrorCode.FENCED_MEMBER_EPOCH), (-2, ErrorCode.INVALID_REQUEST)):
        with pytest.raises(KafkaError) as e:
            g.heartbeat("g", "a", epoch, None, None, now_ms=20)
        assert e.value.code == code
    with pytest.raises(KafkaError) as e:
        g.heartbeat("g", "stranger", 1, None, None, now_ms=20)
    assert e.value.code == ErrorCode.UNKNOWN_MEMBER_ID
    with pytest.raises(KafkaError) as e:
        g.heartbeat("nope", "a", 1, None, None, now_ms=20)
    assert e.value.code == ErrorCode.GROUP_ID_NOT_FOUND
    # a second member: both share the single partition, both get the new epoch
    b = g.heartbeat("g", "b", 0, None, ["one"], now_ms=30)
    assert b.member_epoch == 2 and b.assignment == {T1: frozenset({0})}
    a2 = g.heartbeat("g", "a", 1, None, None, now_ms=40)
    assert a2.member_epoch == 2 and a2.assignment == {T1: frozenset({0})}
    assert g.heartbeat("g", "a", -1, None, None, now_ms=50).member_epoch == -1
    assert list(g.groups["g"].members) == ["b"]


def test_simple_assignor_covers_every_partition_and_every_member() -> None:
    members = {m: ["four"] for m in ("a", "b")}
    g = groups()
    for m, topics in members.items():
        g.heartbeat("g", m, 0, None, topics, now_ms=0)
    target = compute_assignment(g.groups["g"].members, {"four": TOPICS["four"]})
    assert sorted(p for a in target.values() for p in a[T2]) == [0, 1, 2, 3]  # each partition once
    for m in "cdefg":
        g.heartbeat("g", m, 0, None, ["one"], now_ms=0)
    target = compute_assignment(g.groups["g"].members, TOPICS)
    assert all(target[m] == {T1: frozenset({0})} for m in "cdefg")  # five members share partition 0


def test_session_timeout_removes_the_member_and_releases_its_records() -> None:
    clock = ManualClock(0)
    timer = SystemTimer("share", tick_ms=1, clock=clock)
    sp = SharePartition(timer, 0)
    removed: list[tuple[str, str]] = []
    g = groups(removed, session_ms=1_000)
    g.on_member_removed = lambda group, member: (removed.append((group, member)), sp.release_acquired_records(member))
    g.heartbeat("g", "a", 0, None, ["one"], now_ms=0)
    g.heartbeat("g", "b", 0, None, ["one"], now_ms=500)
    assert [(r.first_offset, r.last_offset) for r in sp.acquire("a", 0, 9, 100)] == [(0, 9)]
    assert g.expire(999) == []
    assert g.expire(1_000) == [("g", "a")] and removed == [("g", "a")]
    assert sp.acquired_by("a") == [] and sp.next_fetch_offset() == 0  # back to AVAILABLE at once
    got = sp.acquire("b", 0, 9, 100)
    assert [(r.first_offset, r.last_offset, r.delivery_count) for r in got] == [(0, 9, 2)]
    assert list(g.groups["g"].members) == ["b"]


def _batch(base: int, count: int, pid: int = -1, transactional: bool = False) -> bytes:
    records = [(None, None, b"v%d" % i, []) for i in range(count)]
    return build_batch(records, base_offset=base, producer_id=pid, is_transactional=transactional)


def test_batches_and_aborted_ranges() -> None:
    data = _batch(0, 3) + _batch(3, 2, pid=7, transactional=True) + _batch(5, 4)
    found = batches(data + data[:20])  # a trailing partial batch is left out
    assert [(b.base_offset, b.last_offset, b.transactional) for b in found] == [
        (0, 2, False),
        (3, 4, True),
        (5, 8, False),
    ]
    assert aborted_ranges(found, [(7, 3)]) == [(3, 4)]
    assert aborted_ranges(found, [(8, 3)]) == []


def test_share_state_records_round_trip_in_kafkas_layout() -> None:
    key = ShareGroupStateKey("g", "00000000-0000-0000-0000-000000000001", 3)
    snap = ShareSnapshotValue(1, 2, 3, 40, 5, 6, (PersisterStateBatch(40, 44, RecordState.ARCHIVED, 5),), 7)
    update = ShareUpdateValue(1, 3, -1, (PersisterStateBatch(45, 45, RecordState.AVAILABLE, 2),))
    for kind, value in ((SNAPSHOT, snap), (UPDATE, update)):
        encoded = encode_key(kind, key)
        assert encoded[:2] == bytes([0, kind]) and decode_key(encoded) == (kind, key)
        assert decode_value(kind, encode_value(value)) == value
    # the tagged DeliveryCompleteCount is written only when known (tag 0, 4 bytes)
    assert encode_value(snap).endswith(b"\x01\x00\x04\x00\x00\x00\x07")
    assert encode_value(update).endswith(b"\x00")
    assert java_string_hash("abc") == 96354 and java_string_hash("polygenelubricants") == -(2**31)
