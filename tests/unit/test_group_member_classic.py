"""The classic-protocol member (`ClassicMemberMachine`) without sockets or threads: JoinGroup and
SyncGroup answers, heartbeat codes and times go in; requests, outcomes and partition deltas come out."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from consumer_group import (
    FencedInstanceIdError,
    Generation,
    GroupError,
    OffsetAndMetadata,
    TopicPartition,
    get_assignor,
)
from consumer_group.classic_member import (
    ClassicMemberMachine,
    CoordinatorLost,
    HeartbeatOutcome,
    MemberState,
    RebalanceProtocol,
    RetryJoin,
)
from consumer_group.commits import (
    CommitVerdict,
    commit_request,
    commit_verdict,
    fetch_request,
    fetch_result,
    offsets_by_topic,
)
from consumer_group.protocol import Assignment, decode_assignment, decode_subscription, encode_assignment
from kafka_wire.errors import ErrorCode

TP = TopicPartition


def machine(*assignors: str, topics: tuple[str, ...] = ("t",), instance: str | None = None) -> ClassicMemberMachine:
    return ClassicMemberMachine(
        "g",
        topics,
        [get_assignor(a) for a in assignors],
        group_instance_id=instance,
        rack_id="r1",
        subscription_version=3,
        session_timeout_ms=10_000,
        rebalance_timeout_ms=20_000,
        metadata_max_age_ms=5_000,
    )


def join_resp(code: int = 0, gen: int = 1, member: str = "m1", leader: str = "m1", members: Any = ()) -> Any:
    return SimpleNamespace(
        error_code=code, generation_id=gen, member_id=member, leader=leader, protocol_name="range", members=members
    )


def stable(m: ClassicMemberMachine, parts: set[TopicPartition], gen: int = 1) -> None:
    m.begin_join()
    g = m.on_join_response(join_resp(gen=gen))
    assert g is not None
    new, _, _ = m.assignment_delta(Assignment(tuple(sorted(parts))))
    assert m.install_assignment(new, g, now=100.0)
    m.assignment_done(g, frozenset())


def test_the_rebalance_protocol_follows_the_assignors() -> None:
    assert machine("cooperative-sticky").rebalance_protocol is RebalanceProtocol.COOPERATIVE
    assert machine("range", "cooperative-sticky").rebalance_protocol is RebalanceProtocol.EAGER


def test_join_with_member_id_required_then_joined_as_leader() -> None:
    m = machine("range")
    assert m.needs_join and m.begin_join() == "initial join" and m.state is MemberState.PREPARING_REBALANCE
    first = m.join_request("initial join")
    assert (
        first.member_id == ""
        and first.rebalance_timeout_ms == 20_000
        and [p.name for p in first.protocols] == ["range"]
    )
    assert decode_subscription(first.protocols[0].metadata).rack_id == "r1"
    assert m.on_join_response(join_resp(int(ErrorCode.MEMBER_ID_REQUIRED), member="m-9")) is None
    assert m.join_request("x").member_id == "m-9"
    gen = m.on_join_response(join_resp(gen=4, member="m-9", leader="m-9"))
    assert gen is not None and gen.generation_id == 4 and gen.member_id == "m-9" and gen.protocol_name == "range"
    assert m.is_leader and m.state is MemberState.COMPLETING_REBALANCE and m.rebalancing


@pytest.mark.parametrize(
    ("code", "raised", "member_after"),
    [
        (ErrorCode.UNKNOWN_MEMBER_ID, RetryJoin, ""),
        (ErrorCode.ILLEGAL_GENERATION, RetryJoin, "m1"),
        (ErrorCode.REBALANCE_IN_PROGRESS, RetryJoin, "m1"),
        (ErrorCode.NOT_COORDINATOR, CoordinatorLost, "m1"),
        (ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, CoordinatorLost, "m1"),
        (ErrorCode.FENCED_INSTANCE_ID, FencedInstanceIdError, "m1"),
        (ErrorCode.GROUP_AUTHORIZATION_FAILED, GroupError, "m1"),
    ],
)
def test_join_errors(code: ErrorCode, raised: type, member_after: str) -> None:
    m = machine("cooperative-sticky")
    stable(m, {TP("t", 0)})
    m.begin_join()
    with pytest.raises(raised) as e:
        m.on_join_response(join_resp(int(code)))
    resets = code in (ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION)
    if raised is RetryJoin:
        assert e.value.lost == ({TP("t", 0)} if resets else frozenset())
    assert m.generation.member_id == member_after
    assert (m.assignment == frozenset()) is resets and (m.generation.generation_id == -1) is resets
    m.after_failed_round()
    assert m.state is MemberState.UNJOINED


def test_eager_revokes_everything_cooperative_only_unsubscribed_topics() -> None:
    eager = machine("range", topics=("a", "b"))
    stable(eager, {TP("a", 0), TP("b", 0)})
    eager.subscribe(["a"])
    assert eager.revocations_before_join() == {TP("a", 0), TP("b", 0)}
    eager.revoked(frozenset({TP("a", 0), TP("b", 0)}))
    assert eager.assignment == frozenset()
    coop = machine("cooperative-sticky", topics=("a", "b"))
    stable(coop, {TP("a", 0), TP("b", 0)})
    assert coop.subscribe(["a"]) and not coop.subscribe(["a"])
    assert coop.rejoin_reason == "subscription changed to ['a']" and not coop.ready
    gone = coop.revocations_before_join()
    assert gone == {TP("b", 0)}
    coop.revoked(gone)
    assert coop.assignment == {TP("a", 0)}
    # cooperative members report what they own in their subscription
    sub = decode_subscription(coop.join_request("r").protocols[0].metadata)
    assert sub.owned_partitions == (TP("a", 0),) and sub.generation_id == 1


def test_cooperative_sync_revokes_the_moved_partitions_then_asks_for_a_follow_up_rebalance() -> None:
    m = machine("cooperative-sticky")
    stable(m, {TP("t", 0), TP("t", 1)})
    m.request_rejoin("test")
    m.begin_join()
    gen = m.on_join_response(join_resp(gen=2))
    assert gen is not None
    new, revoked, added = m.assignment_delta(Assignment((TP("t", 1), TP("t", 2))))
    assert revoked == {TP("t", 0)} and added == {TP("t", 2)}
    assert m.install_assignment(new, gen, now=7.0) and m.last_heartbeat_ok == 7.0 and m.rebalances == 2
    m.assignment_done(gen, revoked)
    assert not m.ready and m.rejoin_reason == "revoked 1 partitions; follow-up rebalance"
    # a generation fenced while the revoke callback ran is not installed
    m.begin_join()
    gen3 = m.on_join_response(join_resp(gen=3))
    assert gen3 is not None
    m.on_join_response(join_resp(gen=4))
    assert not m.install_assignment(frozenset(), gen3, now=8.0)


def test_leader_assigns_and_checks_metadata_on_its_clock() -> None:
    m = machine("range")
    m.begin_join()
    other = machine("range")
    members = [
        SimpleNamespace(member_id="m1", metadata=m.join_request("r").protocols[0].metadata),
        SimpleNamespace(member_id="m2", metadata=other.join_request("r").protocols[0].metadata, group_instance_id="s"),
        SimpleNamespace(member_id="m3", metadata=b"\xff"),  # undecodable: assigned nothing
    ]
    gen = m.on_join_response(join_resp(members=members))
    assert gen is not None
    subs, version = m.leader_subscriptions(members)
    assert [s.topics for s in subs] == [("t",), ("t",), ()] and version == 0
    out = m.leader_assignments(gen, subs, version, {"t": 4})
    assert m.metadata_check_due(0.0) is None  # no snapshot before leader_assigned
    m.leader_assigned(subs, {"t": 4}, now=50.0)
    got = {a.member_id: decode_assignment(a.assignment).partitions for a in out}
    # range orders static members (group.instance.id) first, as Kafka's RangeAssignor
    assert got == {"m2": (TP("t", 0), TP("t", 1)), "m1": (TP("t", 2), TP("t", 3)), "m3": ()}
    assert encode_assignment(Assignment(got["m1"]), 0) == out[0].assignment
    assert m.metadata_check_due(54.9) is None
    assert m.metadata_check_due(55.0) == ({"t": 4}, {"t"})
    assert m.metadata_check_due(55.1) is None  # the next one is 5 s later
    m.on_metadata({"t": 4}, {"t": 4})
    assert m.rejoin_reason is None
    m.on_metadata({"t": 4}, {"t": 6})
    assert m.rejoin_reason is not None and "{'t': 4} -> {'t': 6}" in m.rejoin_reason


def test_heartbeat_outcomes() -> None:
    m = machine("range")
    assert not m.heartbeat_wanted(True)
    stable(m, {TP("t", 0)})
    gen = m.generation
    assert m.heartbeat_wanted(True) and not m.heartbeat_wanted(False)
    hb = m.heartbeat_request(gen)
    assert (hb.generation_id, hb.member_id) == (1, "m1")
    assert m.on_heartbeat_response(ErrorCode.NONE, gen, 42.0, closing=False) is HeartbeatOutcome.OK
    assert m.last_heartbeat_ok == 42.0
    stale = type(gen)(0, "m1")
    assert m.on_heartbeat_response(ErrorCode.ILLEGAL_GENERATION, stale, 43.0, False) is HeartbeatOutcome.IGNORED
    assert m.on_heartbeat_response(ErrorCode.NOT_COORDINATOR, gen, 43.0, False) is HeartbeatOutcome.COORDINATOR_LOST
    assert m.on_heartbeat_response(ErrorCode.ILLEGAL_GENERATION, gen, 43.0, True) is HeartbeatOutcome.IGNORED
    assert m.on_heartbeat_response(ErrorCode.REBALANCE_IN_PROGRESS, gen, 43.0, False) is HeartbeatOutcome.REJOIN
    assert m.needs_join and not m.ready


@pytest.mark.parametrize("code", [ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION])
def test_a_fenced_heartbeat_hands_the_partitions_to_the_lost_path(code: ErrorCode) -> None:
    m = machine("cooperative-sticky")
    stable(m, {TP("t", 0)})
    gen = m.generation
    assert m.on_heartbeat_response(code, gen, 1.0, closing=False) is HeartbeatOutcome.FENCED
    assert not m.heartbeat_wanted(True)  # no heartbeats until the group thread handled it
    assert not m.member_fenced(code, gen, "OffsetCommit", False)  # already marked
    taken = m.take_lost()
    assert taken == (code, {TP("t", 0)})
    assert m.assignment == frozenset() and m.state is MemberState.UNJOINED
    assert m.generation.member_id == ("" if code == ErrorCode.UNKNOWN_MEMBER_ID else "m1")
    assert m.take_lost() is None


def test_leave_group_request_forms() -> None:
    m = machine("range", instance="i-1")
    stable(m, set())
    v3 = m.leave_request(m.generation, 3)
    assert [(x.member_id, x.group_instance_id) for x in v3.members] == [("m1", "i-1")]
    assert m.leave_request(m.generation, 2).member_id == "m1"
    assert m.fail() == frozenset() and m.state is MemberState.FAILED


def _commit_resp(**codes: int) -> Any:
    parts = [SimpleNamespace(partition_index=int(p[1:]), error_code=c) for p, c in codes.items()]
    return SimpleNamespace(topics=[SimpleNamespace(name="t", partitions=parts)])


def test_commit_answers_in_order_of_precedence() -> None:
    gen = Generation(3, "m1", "range", "i-1")
    body = commit_request("g", gen, offsets_by_topic({TP("t", 1): 5, TP("t", 0): OffsetAndMetadata(7, "x", 2)}))
    assert (body.generation_id_or_member_epoch, body.member_id, body.group_instance_id) == (3, "m1", "i-1")
    assert [(p.partition_index, p.committed_offset, p.committed_metadata) for p in body.topics[0].partitions] == [
        (0, 7, "x"),
        (1, 5, ""),
    ]
    assert commit_verdict(_commit_resp(p0=0, p1=0))[0] is CommitVerdict.OK
    fenced = _commit_resp(p0=int(ErrorCode.REBALANCE_IN_PROGRESS), p1=int(ErrorCode.UNKNOWN_MEMBER_ID))
    assert commit_verdict(fenced)[:2] == (CommitVerdict.FENCED, ErrorCode.UNKNOWN_MEMBER_ID)
    stale = _commit_resp(p0=int(ErrorCode.STALE_MEMBER_EPOCH), p1=int(ErrorCode.NOT_COORDINATOR))
    assert commit_verdict(stale)[0] is CommitVerdict.STALE_EPOCH
    assert commit_verdict(_commit_resp(p0=int(ErrorCode.NOT_COORDINATOR)))[0] is CommitVerdict.COORDINATOR
    failed = commit_verdict(_commit_resp(p0=0, p1=int(ErrorCode.OFFSET_METADATA_TOO_LARGE)))
    assert failed == (CommitVerdict.FAILED, ErrorCode.OFFSET_METADATA_TOO_LARGE, TP("t", 1))


def test_offset_fetch_answers() -> None:
    def resp(top: int = 0, **parts: tuple[int, int]) -> Any:
        ps = [
            SimpleNamespace(
                partition_index=int(k[1:]), error_code=c, committed_offset=o, metadata="m", committed_leader_epoch=4
            )
            for k, (c, o) in parts.items()
        ]
        return SimpleNamespace(
            groups=[SimpleNamespace(error_code=top, topics=[SimpleNamespace(name="t", partitions=ps)])]
        )

    assert fetch_result(resp(p0=(0, 9), p1=(0, -1))) == {TP("t", 0): OffsetAndMetadata(9, "m", 4)}
    assert fetch_result(resp(p0=(int(ErrorCode.UNSTABLE_OFFSET_COMMIT), -1))) is None
    assert fetch_result(resp(int(ErrorCode.UNSTABLE_OFFSET_COMMIT))) is None
    with pytest.raises(CoordinatorLost):
        fetch_result(resp(int(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)))
    with pytest.raises(GroupError, match="GROUP_AUTHORIZATION_FAILED"):
        fetch_result(resp(int(ErrorCode.GROUP_AUTHORIZATION_FAILED)))
    v7 = fetch_request("g", {"t": [0, 1]}, 7)
    v8 = fetch_request("g", {"t": [0, 1]}, 8)
    assert v7.group_id == "g" and v7.require_stable and v8.groups[0].topics[0].partition_indexes == [0, 1]
