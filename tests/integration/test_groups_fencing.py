"""Consumer groups, scenario 4: fencing of stale members, KIP-394 member ids, static membership.

The protocol-level checks use `RawMember` (JoinGroup/SyncGroup/Heartbeat/OffsetCommit by hand) so
that a member can be made to stop heartbeating or to speak with an old generation or member id.
Static membership is also checked end to end with confluent-kafka members (`group.instance.id`)
running as child processes.
"""

from __future__ import annotations

from typing import Any

import pytest

from kafka_wire.errors import ErrorCode
from tests.integration.group_util import (
    MemberPool,
    RawMember,
    decode_assignment,
    fetch_offsets,
    generation_of,
    make_topic,
    produce_keyed,
    state_of,
    unique,
    wait_split,
    wait_until,
)

pytestmark = pytest.mark.timeout(60)

PARTITIONS = 4


@pytest.fixture
def topic(gb: Any) -> str:
    return make_topic(gb.bootstrap_servers, PARTITIONS)


def _stable_single(m: RawMember) -> None:
    resp = m.join()
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    assert m.is_leader
    sync = m.sync(m.range_assignment(PARTITIONS))
    assert sync.error_code == ErrorCode.NONE, ErrorCode(sync.error_code)


# --------------------------------------------------------------------------------------------
# KIP-394: MEMBER_ID_REQUIRED
# --------------------------------------------------------------------------------------------


def test_join_v4_without_member_id_gets_member_id_required(gb: Any, topic: str, raw: Any) -> None:
    group = unique("kip394")
    m = raw(group, topic)
    assert m.join_version >= 4
    first = m.join(follow_member_id_required=False)
    assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED
    assert first.member_id, "MEMBER_ID_REQUIRED must carry the member id to rejoin with"
    assert m.member_id == first.member_id
    second = m.join(follow_member_id_required=False)  # now with that id
    assert second.error_code == ErrorCode.NONE, ErrorCode(second.error_code)
    assert second.member_id == first.member_id
    assert second.generation_id == 1
    assert second.leader == first.member_id
    assert [x.member_id for x in second.members] == [first.member_id]
    sync = m.sync(m.range_assignment(PARTITIONS))
    assert decode_assignment(sync.assignment) == {topic: list(range(PARTITIONS))}
    assert m.heartbeat() == ErrorCode.NONE


def test_join_v3_gets_member_id_directly(gb: Any, topic: str, raw: Any) -> None:
    m = raw(unique("v3"), topic, join_version=3)
    resp = m.join(follow_member_id_required=False)
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    assert resp.member_id and resp.generation_id == 1


def test_join_with_made_up_member_id_is_unknown(gb: Any, topic: str, raw: Any) -> None:
    group = unique("madeup")
    _stable_single(raw(group, topic))
    stranger = raw(group, topic)
    stranger.member_id = "not-a-member"
    assert stranger.join(follow_member_id_required=False).error_code == ErrorCode.UNKNOWN_MEMBER_ID
    assert stranger.heartbeat(generation=1) == ErrorCode.UNKNOWN_MEMBER_ID


# --------------------------------------------------------------------------------------------
# fencing by generation and member id
# --------------------------------------------------------------------------------------------


def test_evicted_member_commit_is_rejected(gb: Any, topic: str, raw: Any) -> None:
    group = unique("zombie")
    # A: short session, and it will stop heartbeating
    a = raw(group, topic, session_timeout_ms=1500, rebalance_timeout_ms=1500)
    _stable_single(a)
    assert a.commit({(topic, 0): (5, "a@1")}) == {(topic, 0): ErrorCode.NONE}

    # B joins; A never rejoins (a "zombie" stuck in processing) and is evicted when its session
    # expires, which completes the rebalance with B alone
    b = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    resp = b.join()
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    assert resp.generation_id == 2
    assert b.is_leader
    assert [x.member_id for x in resp.members] == [b.member_id]

    # the zombie is told it is gone, and its commit does not overwrite anything
    assert a.heartbeat() == ErrorCode.UNKNOWN_MEMBER_ID
    assert set(a.commit({(topic, 0): (6, "a@1 late")}).values()) <= {
        ErrorCode.UNKNOWN_MEMBER_ID,
        ErrorCode.ILLEGAL_GENERATION,
    }
    assert b.sync(b.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
    assert b.commit({(topic, 0): (7, "b@2")}) == {(topic, 0): ErrorCode.NONE}
    assert fetch_offsets(gb.bootstrap_servers, group, topic, [0]) == {0: (7, "b@2")}
    # the zombie, coming back to life, rejoins as a new member
    a.member_id = ""
    a.send_join()
    first = a.receive_join()
    assert first.error_code == ErrorCode.MEMBER_ID_REQUIRED


def test_old_generation_commit_is_illegal_generation(gb: Any, topic: str, raw: Any) -> None:
    group = unique("oldgen")
    b = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    _stable_single(b)
    assert b.generation == 1

    # C joins: B is told to rejoin; until it does, its generation-1 commits are still valid
    c = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    c.send_join()
    assert c.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    c.send_join()  # parked until B rejoins
    wait_until(lambda: state_of(gb, group) == "PreparingRebalance", 5, what="PreparingRebalance")
    assert b.heartbeat() == ErrorCode.REBALANCE_IN_PROGRESS
    assert b.commit({(topic, 1): (3, "b@1")}) == {(topic, 1): ErrorCode.NONE}
    b.send_join()
    rb, rc = b.receive_join(), c.receive_join()
    assert rb.error_code == rc.error_code == ErrorCode.NONE
    assert rb.generation_id == rc.generation_id == 2
    leader, follower = (b, c) if b.is_leader else (c, b)

    # generation 2 is not Stable until the leader's SyncGroup: commits must wait
    assert b.commit({(topic, 1): (4, "b@2 early")}) == {(topic, 1): ErrorCode.REBALANCE_IN_PROGRESS}
    follower.send_sync()
    assert leader.sync(leader.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
    assert follower.receive_sync().error_code == ErrorCode.NONE

    # a commit or heartbeat that still carries generation 1 is fenced
    assert b.commit({(topic, 1): (9, "b@1 stale")}, generation=1) == {(topic, 1): ErrorCode.ILLEGAL_GENERATION}
    assert b.heartbeat(generation=1) == ErrorCode.ILLEGAL_GENERATION
    assert b.commit({(topic, 1): (5, "b@2")}) == {(topic, 1): ErrorCode.NONE}
    assert fetch_offsets(gb.bootstrap_servers, group, topic, [1]) == {1: (5, "b@2")}


# --------------------------------------------------------------------------------------------
# static membership (KIP-345)
# --------------------------------------------------------------------------------------------


def _two_static_members(gb: Any, raw: Any, group: str, topic: str) -> tuple[RawMember, RawMember]:
    a = raw(group, topic, instance_id="inst-a", session_timeout_ms=10000, rebalance_timeout_ms=10000)
    b = raw(group, topic, instance_id="inst-b", session_timeout_ms=10000, rebalance_timeout_ms=10000)
    a.send_join()
    ra = a.receive_join()
    assert ra.error_code == ErrorCode.NONE, "static members do not get MEMBER_ID_REQUIRED"
    # a is alone in generation 1; b's join starts generation 2 with both
    assert a.sync(a.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
    b.send_join()
    wait_until(lambda: state_of(gb, group) == "PreparingRebalance", 5, what="PreparingRebalance")
    a.send_join()
    rb, ra = b.receive_join(), a.receive_join()
    assert ra.error_code == rb.error_code == ErrorCode.NONE
    leader, follower = (a, b) if a.is_leader else (b, a)
    follower.send_sync()
    assert leader.sync(leader.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
    assert follower.receive_sync().error_code == ErrorCode.NONE
    return a, b


@pytest.mark.parametrize("replaced", ["leader", "follower"])
def test_static_member_restart_keeps_generation_and_fences_old_id(gb: Any, topic: str, raw: Any, replaced: str) -> None:
    group = unique("static")
    a, b = _two_static_members(gb, raw, group, topic)
    generation = a.generation
    old, other = (a, b) if (a.is_leader == (replaced == "leader")) else (b, a)
    old_assignment = decode_assignment(old.sync().assignment)
    old_leader = old.leader

    # the same instance comes back with no member id (a restarted process)
    new = raw(group, topic, instance_id=old.instance_id, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    resp = new.join(follow_member_id_required=False)
    assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
    assert resp.member_id and resp.member_id != old.member_id
    assert resp.generation_id == generation, "a static member's restart must not start a rebalance"
    assert generation_of(gb, group) == generation
    assert state_of(gb, group) == "Stable"
    if new.join_version < 9:
        # KIP-345: the restarted member must not believe it is the leader (its assignment would
        # be dropped by a Stable group), so the response names the leader it had before
        assert resp.leader == old_leader
        assert resp.members == []
    else:
        # KIP-814: v9 names it leader but tells it to skip the assignment
        assert resp.leader == (resp.member_id if replaced == "leader" else old_leader)
        assert resp.skip_assignment == (replaced == "leader")
    sync = new.sync()
    assert sync.error_code == ErrorCode.NONE, ErrorCode(sync.error_code)
    assert decode_assignment(sync.assignment) == old_assignment
    assert new.heartbeat() == ErrorCode.NONE
    # the other member is not disturbed
    assert other.heartbeat() == ErrorCode.NONE

    # the old process, still holding the replaced member id, is fenced everywhere
    assert old.heartbeat() == ErrorCode.FENCED_INSTANCE_ID
    assert old.commit({(topic, 0): (1, "old")}) == {(topic, 0): ErrorCode.FENCED_INSTANCE_ID}
    assert old.sync().error_code == ErrorCode.FENCED_INSTANCE_ID
    assert old.join(follow_member_id_required=False).error_code == ErrorCode.FENCED_INSTANCE_ID
    leave = old.leave()
    assert [m.error_code for m in leave.members] == [ErrorCode.FENCED_INSTANCE_ID]
    # and none of that disturbed the group
    assert generation_of(gb, group) == generation
    assert new.heartbeat() == ErrorCode.NONE


def test_static_members_confluent_restart_without_rebalance(gb: Any) -> None:
    """Three confluent-kafka members with group.instance.id; one is killed and restarted with the
    same instance id before its session expires: it gets its partitions back and the others see
    no rebalance at all."""
    partitions = 12
    topic = make_topic(gb.bootstrap_servers, partitions)
    produce_keyed(gb.bootstrap_servers, topic, partitions, 3)
    group = unique("static-cf")
    args = ["--strategy", "range", "--session-ms", "10000", "--heartbeat-ms", "300"]
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        members = [pool.start(f"m{i}", *args, "--instance-id", f"inst-{i}") for i in range(3)]
        wait_split(members, partitions, 30)
        generation = generation_of(gb, group)
        leader_instance = gb.call(
            lambda br: (
                br.group_coordinator.groups[group]
                .members[br.group_coordinator.groups[group].leader_id]
                .group_instance_id
            )
        )
        victim_index = int(leader_instance.rsplit("-", 1)[1])  # restart the leader: the harder case
        victim = members[victim_index]
        others = [m for i, m in enumerate(members) if i != victim_index]
        before = victim.assignment
        marks = [len(m.snapshot()) for m in others]
        victim.kill9()
        restarted = pool.start(f"m{victim_index}b", *args, "--instance-id", leader_instance)
        restarted.wait_event(lambda e: e["ev"] == "assignment" and e["partitions"], 10)
        wait_split([*others, restarted], partitions, 10)
        assert restarted.assignment == before
        assert generation_of(gb, group) == generation
        # give a rebalance, if one were (wrongly) triggered, time to show up
        restarted.wait_event(lambda e: e["ev"] == "consumed", 10)
        wait_until(lambda: state_of(gb, group) == "Stable", 5)
        for m, mark in zip(others, marks, strict=True):
            moved = [e for e in m.snapshot()[mark:] if e["ev"] in ("assign", "revoke", "lost", "assignment")]
            assert not moved, f"{m.name} saw a rebalance when a static member restarted: {moved}"
        assert generation_of(gb, group) == generation


def test_duplicate_static_instance_fences_the_old_one(gb: Any) -> None:
    """A second process with the same group.instance.id takes over; the first one is fenced
    (FENCED_INSTANCE_ID is fatal in librdkafka) instead of both fighting over the identity."""
    partitions = 4
    topic = make_topic(gb.bootstrap_servers, partitions)
    group = unique("dup")
    args = ["--strategy", "range", "--session-ms", "6000", "--heartbeat-ms", "300", "--instance-id", "dup-0"]
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        first = pool.start("first", *args)
        wait_split([first], partitions, 30)
        second = pool.start("second", *args)
        second.wait_event(lambda e: e["ev"] == "assignment" and e["partitions"], 15)
        fenced = first.wait_event(lambda e: e["ev"] == "error" and e.get("fatal"), 10)
        assert "FENCED" in (fenced.get("code", "") + fenced.get("text", "")).upper(), fenced
        first.wait_event(lambda e: e["ev"] == "eof", 10)
        generation = generation_of(gb, group)
        # the survivor keeps the identity: no further generations, it keeps all partitions
        second.wait_event(lambda e: e["ev"] == "consumed" or e["ev"] == "assignment", 5)
        assert second.assignment == list(range(partitions))
        assert generation_of(gb, group) == generation
        assert not [e for e in second.snapshot() if e["ev"] == "error" and e.get("fatal")]
