"""The KIP-848 member (`ConsumerMemberMachine`) on a fake clock: no sockets, no threads. Each test
drives the machine with heartbeat answers and callback completions and checks the actions."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from consumer_group import GroupMember, TopicPartition
from consumer_group.consumer_driver import ConsumerProtocolMember
from consumer_group.consumer_member import (
    CallbackKind,
    ConsumerMemberMachine,
    ConsumerMemberState,
    Fail,
    FindCoordinator,
    InvokeCallback,
    ResolveTopicIds,
    SendHeartbeat,
)
from kafka_wire.errors import ErrorCode

T1 = uuid.UUID(int=1).bytes
T2 = uuid.UUID(int=2).bytes
NAMES = {T1: "t1", T2: "t2"}


def tp(topic: str, p: int) -> TopicPartition:
    return TopicPartition(topic, p)


def one(actions: list[Any], kind: type) -> Any:
    assert len(actions) == 1 and isinstance(actions[0], kind), actions
    return actions[0]


def joined(now: float = 0.0, **kw: Any) -> ConsumerMemberMachine:
    """A machine that found its coordinator and sent its join heartbeat (in flight)."""
    m = ConsumerMemberMachine("g", ["t1", "t2"], **kw)
    one(m.poll(now), FindCoordinator)
    assert m.poll(now) == []  # one lookup at a time
    m.on_coordinator_found(now)
    hb = one(m.poll(now), SendHeartbeat).request
    assert hb.member_epoch == 0 and hb.member_id == m.member_id and len(m.member_id) == 22
    assert hb.subscribed_topic_names == ["t1", "t2"] and hb.topic_partitions == []
    assert hb.rebalance_timeout_ms == 300_000
    return m


def answer(m: ConsumerMemberMachine, now: float, epoch: int, assignment: Any = None, code: int = 0) -> None:
    m.on_heartbeat_response(code, now, member_epoch=epoch, heartbeat_interval_ms=3000, assignment=assignment)


def run_callbacks(m: ConsumerMemberMachine, now: float) -> list[InvokeCallback]:
    """Complete every callback and topic lookup the machine asks for; return the callbacks in order."""
    seen = []
    while True:
        actions = m.poll(now)
        if not actions or isinstance(actions[0], SendHeartbeat):
            m._pending = actions  # type: ignore[attr-defined]
            return seen
        a = actions[0]
        if isinstance(a, ResolveTopicIds):
            m.on_topic_names({tid: NAMES[tid] for tid in a.topic_ids if tid in NAMES})
        elif isinstance(a, InvokeCallback):
            seen.append(a)
            m.callback_done(now)
        else:
            raise AssertionError(a)


def stable(owned: dict[bytes, list[int]]) -> ConsumerMemberMachine:
    m = joined()
    answer(m, 10, 1, list(owned.items()))
    run_callbacks(m, 10)
    ack = one(m._pending, SendHeartbeat).request  # type: ignore[attr-defined]
    answer(m, 11, 1)
    assert m.state is ConsumerMemberState.STABLE and ack.member_epoch == 1
    return m


def test_join_reconcile_and_acknowledge_at_once() -> None:
    m = joined()
    assert not m.ready and m.generation().generation_id == -1
    answer(m, 10, 3, [(T1, [0, 1])])
    lookup = one(m.poll(10), ResolveTopicIds)
    assert lookup.topic_ids == {T1} and lookup.topic_names == ("t1", "t2")
    assert m.poll(10) == []  # waits for the lookup; the heartbeat is not due before 3010
    m.on_topic_names({T1: "t1"})
    cb = one(m.poll(10), InvokeCallback)
    assert cb.kind is CallbackKind.ASSIGNED and cb.partitions == {tp("t1", 0), tp("t1", 1)}
    assert m.poll(10) == []  # nothing while the callback runs
    m.callback_done(12)
    ack = one(m.poll(12), SendHeartbeat).request  # acknowledged at once, not at the interval
    assert ack.member_epoch == 3 and [(t.topic_id, t.partitions) for t in ack.topic_partitions] == [(T1, [0, 1])]
    assert m.ready and m.generation().generation_id == 3 and m.generation().member_id == m.member_id
    answer(m, 13, 3)
    assert m.poll(12 + 2999) == []  # the interval runs from the send, as Kafka's heartbeat timer
    assert one(m.poll(12 + 3000), SendHeartbeat).request.member_epoch == 3


def test_revoke_before_assign_then_one_acknowledgement() -> None:
    m = stable({T1: [0, 1]})
    one(m.poll(3011), SendHeartbeat)
    answer(m, 3020, 2, [(T1, [1]), (T2, [0])])
    cbs = run_callbacks(m, 3020)
    assert [(c.kind, c.partitions) for c in cbs] == [
        (CallbackKind.REVOKED, {tp("t1", 0)}),
        (CallbackKind.ASSIGNED, {tp("t2", 0)}),
    ]
    ack = one(m._pending, SendHeartbeat).request  # type: ignore[attr-defined]
    assert sorted((t.topic_id, t.partitions) for t in ack.topic_partitions) == [(T1, [1]), (T2, [0])]
    assert m.owned == {tp("t1", 1), tp("t2", 0)}


def test_revoked_partitions_stay_owned_while_the_revoke_callback_runs() -> None:
    """Commit before revoke: the callback sees them owned, and a heartbeat sent meanwhile (here a
    newer target arriving) still reports them until the callback returns."""
    m = stable({T1: [0, 1]})
    one(m.poll(3011), SendHeartbeat)
    answer(m, 3020, 2, [(T1, [1])])
    cb = one(m.poll(3020), InvokeCallback)
    assert cb.kind is CallbackKind.REVOKED and m.owned == {tp("t1", 0), tp("t1", 1)}
    # a newer target while the callback runs: reconciled after it, from the latest target
    m.on_heartbeat_response(0, 3030, member_epoch=3, heartbeat_interval_ms=3000, assignment=[(T1, [])])
    m.callback_done(3040)
    cb2 = one(m.poll(3040), InvokeCallback)
    assert cb2.kind is CallbackKind.REVOKED and cb2.partitions == {tp("t1", 1)}
    m.callback_done(3041)
    ack = one(m.poll(3041), SendHeartbeat).request
    assert ack.member_epoch == 3 and ack.topic_partitions == []


@pytest.mark.parametrize("code", [ErrorCode.FENCED_MEMBER_EPOCH, ErrorCode.UNKNOWN_MEMBER_ID])
def test_fenced_member_loses_its_partitions_and_rejoins_with_epoch_zero(code: ErrorCode) -> None:
    m = stable({T1: [0, 1]})
    member_id = m.member_id
    one(m.poll(3011), SendHeartbeat)
    m.on_heartbeat_response(int(code), 3020)
    cb = one(m.poll(3020), InvokeCallback)
    assert cb.kind is CallbackKind.LOST and cb.partitions == {tp("t1", 0), tp("t1", 1)}
    m.callback_done(3021)
    rejoin = one(m.poll(3021), SendHeartbeat).request
    assert rejoin.member_epoch == 0 and rejoin.member_id == member_id and rejoin.topic_partitions == []
    assert m.owned == frozenset() and m.generation().generation_id == -1
    answer(m, 3030, 7, [(T1, [0])])
    assert [c.kind for c in run_callbacks(m, 3030)] == [CallbackKind.ASSIGNED]
    assert m.generation().generation_id == 7


@pytest.mark.parametrize(
    ("instance_id", "permanent", "epoch"), [(None, False, -1), ("i-1", False, -2), ("i-1", True, -1)]
)
def test_leave_revokes_then_sends_the_leave_epoch(instance_id: str | None, permanent: bool, epoch: int) -> None:
    m = joined(instance_id=instance_id)
    answer(m, 10, 1, [(T1, [0])])
    run_callbacks(m, 10)
    answer(m, 11, 1)
    m.leave(20, permanent=permanent)
    cb = one(m.poll(20), InvokeCallback)
    assert cb.kind is CallbackKind.REVOKED and cb.partitions == {tp("t1", 0)}
    m.callback_done(21)
    leave = one(m.poll(21), SendHeartbeat).request
    assert leave.member_epoch == epoch and leave.instance_id == instance_id and leave.member_id == m.member_id
    assert not m.done
    m.on_heartbeat_response(0, 22, member_epoch=epoch)
    assert m.done and m.state is ConsumerMemberState.LEFT and m.poll(10_000) == []


def test_leave_waits_for_an_in_flight_join_then_leaves() -> None:
    m = joined()
    m.leave(5)
    assert m.poll(5) == []  # the join is in flight
    answer(m, 6, 1, [(T1, [0])])  # its answer is not the leave's: no assignment taken
    leave = one(m.poll(6), SendHeartbeat).request
    assert leave.member_epoch == -1 and m.owned == frozenset()
    m.on_heartbeat_response(0, 7, member_epoch=-1)
    assert m.done


def test_leave_without_sending() -> None:
    m = stable({T1: [0]})
    m.leave(20, send=False)
    assert one(m.poll(20), InvokeCallback).kind is CallbackKind.REVOKED
    m.callback_done(20)
    assert m.poll(20) == [] and m.done


def test_coordinator_errors_and_lost_connections_find_the_coordinator_after_a_backoff() -> None:
    m = stable({T1: [0]})
    one(m.poll(3011), SendHeartbeat)
    m.on_heartbeat_response(int(ErrorCode.NOT_COORDINATOR), 3020)
    assert m.poll(3020 + 79) == []  # retry.backoff.ms 100 with -20 % jitter
    one(m.poll(3020 + 121), FindCoordinator)
    m.on_coordinator_found(3150)
    assert one(m.poll(3150), SendHeartbeat).request.member_epoch == 1  # the due heartbeat goes at once
    m.on_heartbeat_failed(3160)
    assert m.poll(3160) == []
    one(m.poll(3160 + 250), FindCoordinator)  # second attempt: 200 ms +-20 %
    m.on_coordinator_failed(3410)
    assert m.poll(3410 + 319) == []
    one(m.poll(3410 + 481), FindCoordinator)


def test_load_in_progress_retries_the_heartbeat_after_a_backoff() -> None:
    m = joined()
    m.on_heartbeat_response(int(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS), 10)
    assert m.poll(10 + 79) == []
    assert one(m.poll(10 + 121), SendHeartbeat).request.member_epoch == 0


@pytest.mark.parametrize(
    "code", [ErrorCode.UNRELEASED_INSTANCE_ID, ErrorCode.FENCED_INSTANCE_ID, ErrorCode.UNSUPPORTED_ASSIGNOR]
)
def test_fatal_errors_stop_the_member_with_its_partitions_lost(code: ErrorCode) -> None:
    m = stable({T1: [0, 1]})
    one(m.poll(3011), SendHeartbeat)
    m.on_heartbeat_response(int(code), 3020, error_message="no")
    fail = one(m.poll(3020), Fail)
    assert fail.error.code == code and "no" in str(fail.error)
    assert fail.lost == {tp("t1", 0), tp("t1", 1)} and m.owned == frozenset()
    assert m.done and m.poll(99_999) == []


def test_a_topic_id_no_metadata_knows_is_skipped_until_the_next_target() -> None:
    m = joined()
    gone = uuid.UUID(int=9).bytes
    answer(m, 10, 1, [(T1, [0]), (gone, [0])])
    lookup = one(m.poll(10), ResolveTopicIds)
    assert lookup.topic_ids == {T1, gone}
    m.on_topic_names({T1: "t1"})
    cb = one(m.poll(10), InvokeCallback)
    assert cb.partitions == {tp("t1", 0)}
    m.callback_done(10)
    ack = one(m.poll(10), SendHeartbeat).request
    assert [(t.topic_id, t.partitions) for t in ack.topic_partitions] == [(T1, [0])]


def test_a_subscription_change_is_sent_at_once() -> None:
    m = stable({T1: [0]})
    m.subscribe(["t1", "t3"], 500)
    hb = one(m.poll(500), SendHeartbeat).request
    assert hb.subscribed_topic_names == ["t1", "t3"]
    m.subscribe(["t3", "t1"], 600)  # the same set: nothing new
    answer(m, 600, 1)
    assert m.poll(601) == []


def test_group_member_dispatches_on_group_protocol() -> None:
    member = GroupMember("127.0.0.1:9", "g", ["t"], group_protocol="consumer", group_remote_assignor="range")
    assert isinstance(member, ConsumerProtocolMember)
    assert member.machine.server_assignor == "range" and member.generation().generation_id == -1
    classic = GroupMember("127.0.0.1:9", "g", ["t"])
    assert type(classic) is GroupMember and classic.group_protocol == "classic"
    with pytest.raises(ValueError, match="group_protocol"):
        GroupMember("127.0.0.1:9", "g", ["t"], group_protocol="share")
    member.close()
    classic.close()
