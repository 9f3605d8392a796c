"""KIP-1251 (Kafka 4.3.1): the member epoch each partition was assigned at, and commits judged per partition.

The timing that lost commits under CPU load (session 18, test_kip848_churn: a partition's committed offset
stayed 2 behind what was read): a member sends a commit with its epoch while the heartbeat that brings it
a new epoch is in flight. Kafka 4.3.1 takes that commit for the partitions the member held since the older
epoch; ours refused the whole commit STALE_MEMBER_EPOCH. Here the timing is made on purpose: a heartbeat
moves the member's epoch, then the commit with the previous epoch is judged.
"""

from __future__ import annotations

from broker_embedded.group.consumer_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    CurrentMemberAssignmentValue,
    decode_value,
    encode_value,
)
from broker_embedded.group.txn_offsets import GroupTxnOffsets
from kafka_wire.errors import ErrorCode
from tests.unit.test_consumer_group_coordinator import Harness, T


def _epochs(h: Harness, member: str) -> dict[int, int]:
    m = h.coordinator.groups["g"].members[member]
    return {p: e for (t, p), e in m.current_assignment_epochs().items() if t == T.topic_id}


def test_a_commit_of_the_previous_epoch_is_taken_for_the_partitions_held_since() -> None:
    h = Harness()
    e1 = h.join("a")
    assert _epochs(h, "a") == dict.fromkeys(range(4), e1)
    h.join("b")  # a must give up two partitions: it keeps its epoch until it acknowledges
    h.hb("a", e1, owned=h.coordinator.groups["g"].members["a"].assigned)
    a = h.coordinator.groups["g"].members["a"]
    kept = sorted(a.assigned[T.topic_id])
    revoking = sorted(a.pending_revocation[T.topic_id])
    assert len(kept) == 2 and len(revoking) == 2 and a.member_epoch == e1
    assert _epochs(h, "a") == dict.fromkeys(range(4), e1)  # pending revocation keeps its epoch too

    # the revocation acknowledged: a new epoch, the kept partitions still assigned since e1
    e2 = h.hb("a", e1, owned={T.topic_id: frozenset(kept)})
    assert e2 > e1
    assert _epochs(h, "a") == dict.fromkeys(kept, e1)

    judge = h.coordinator.commit_partition_errors
    every = [("t", p) for p in range(4)]
    assert judge("g", "a", e2, every) is None  # the current epoch: the whole-request check answers
    assert judge("g", "a", e2 + 1, every) is None  # a newer one: refused as a whole (validate_offset_request)
    assert h.coordinator.validate_offset_request("g", "a", e2 + 1, True) == ErrorCode.STALE_MEMBER_EPOCH
    assert h.coordinator.validate_offset_request("g", "a", e1, True) == ErrorCode.STALE_MEMBER_EPOCH
    assert judge("g", "a", e1, every) == {
        ("t", p): ErrorCode.NONE if p in kept else ErrorCode.STALE_MEMBER_EPOCH for p in range(4)
    }
    # older than the partitions' assignment epoch: refused
    assert set(judge("g", "a", e1 - 1, every).values()) == {ErrorCode.STALE_MEMBER_EPOCH}
    # b: its partitions come at the epoch they are released at; a commit of an epoch before that is stale
    eb = h.hb("b", h.coordinator.groups["g"].members["b"].member_epoch, owned={})
    b = h.coordinator.groups["g"].members["b"]
    assert sorted(b.assigned.get(T.topic_id, ())) == revoking and _epochs(h, "b") == dict.fromkeys(revoking, eb)
    assert set(judge("g", "b", eb - 1, [("t", p) for p in revoking]).values()) == {ErrorCode.STALE_MEMBER_EPOCH}
    # unknown member / topic
    assert judge("g", "nobody", 0, every) is None
    assert judge("g", "a", e1, [("other", 0)]) == {("other", 0): ErrorCode.STALE_MEMBER_EPOCH}


def test_assignment_epochs_survive_the_records_and_a_reload() -> None:
    h = Harness()
    e1 = h.join("a")
    h.join("b")
    h.hb("a", e1, owned=h.coordinator.groups["g"].members["a"].assigned)
    kept = h.coordinator.groups["g"].members["a"].assigned
    h.hb("a", e1, owned=kept)
    moved = Harness(log=[])
    for _group, key, value in h.log:
        assert moved.coordinator.replay_raw(key, value)
    moved.coordinator.after_load()
    assert moved.coordinator.groups == h.coordinator.groups
    assert _epochs(moved, "a") == _epochs(h, "a") and e1 in _epochs(moved, "a").values()


def test_the_record_carries_assignment_epochs_as_tagged_field_0_and_reads_records_without() -> None:
    t = T.topic_id
    value = CurrentMemberAssignmentValue(
        5, 4, 0, {t: frozenset({0, 2})}, {t: frozenset({1})}, {(t, 0): 3, (t, 2): 5, (t, 1): 3}
    )
    raw = encode_value(value)
    assert decode_value(CURRENT_MEMBER_ASSIGNMENT, raw) == value
    # Kafka's layout of one topic: uuid, compact int32 array, tags {0: compact int32 array}
    assert bytes([2]) + t + bytes([3]) + (0).to_bytes(4, "big") + (2).to_bytes(4, "big") + bytes([1, 0, 9, 3]) in raw
    # a record without the tag (Kafka before 4.3, or ours before): no epochs, the member epoch applies
    old = CurrentMemberAssignmentValue(5, 4, 0, {t: frozenset({0, 2})}, {})
    assert decode_value(CURRENT_MEMBER_ASSIGNMENT, encode_value(old)) == old


def test_a_transactional_commit_of_the_previous_epoch_is_judged_the_same_way() -> None:
    """TxnOffsetCommit goes through Kafka's same validateOffsetCommit (isTransactional): taken when every
    partition was held since the commit's epoch, ILLEGAL_GENERATION otherwise (the transactional answer)."""
    h = Harness()
    e1 = h.join("a")
    h.join("b")
    h.hb("a", e1, owned=h.coordinator.groups["g"].members["a"].assigned)
    a = h.coordinator.groups["g"].members["a"]
    kept, given_up = sorted(a.assigned[T.topic_id]), sorted(a.pending_revocation[T.topic_id])
    e2 = h.hb("a", e1, owned={T.topic_id: frozenset(kept)})
    txn = GroupTxnOffsets({}, None)  # type: ignore[arg-type]
    txn.member_groups = [h.coordinator]
    assert txn.commit_error("g", e1, "a", None, [("t", p) for p in kept]) == ErrorCode.NONE
    assert txn.commit_error("g", e1, "a", None, [("t", p) for p in kept + given_up]) == ErrorCode.ILLEGAL_GENERATION
    assert txn.commit_error("g", e1 - 1, "a", None, [("t", p) for p in kept]) == ErrorCode.ILLEGAL_GENERATION
    assert txn.commit_error("g", e2, "a", None, [("t", p) for p in kept + given_up]) == ErrorCode.NONE
