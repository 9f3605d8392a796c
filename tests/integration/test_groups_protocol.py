"""Consumer groups: the rebalance protocol's edge cases, driven by hand with `RawMember`.

- JoinGroup validation: INVALID_SESSION_TIMEOUT, INCONSISTENT_GROUP_PROTOCOL;
- the join phase ends when every member rejoined, or at the rebalance timeout, dropping the
  members that did not rejoin (even though they kept heartbeating);
- a leader that dies between JoinGroup and SyncGroup: the followers parked in SyncGroup are told
  REBALANCE_IN_PROGRESS when its session expires, and the next generation goes on without it;
- a leader that leaves in CompletingRebalance: the same, at once;
- followers' SyncGroup waits for the leader's; a member left out of the assignment gets an empty
  one; generations only grow; heartbeats tell members about a rebalance;
- a member of a group that was Stable when the broker stopped expires after its session timeout
  once the broker is back (the group is reloaded, then becomes Empty).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from kafka_wire.errors import ErrorCode
from tests.integration.group_util import (
    RawMember,
    decode_assignment,
    describe_group,
    fetch_offsets,
    group_broker,
    make_topic,
    state_of,
    unique,
    wait_until,
)

pytestmark = pytest.mark.timeout(60)

PARTITIONS = 4


@pytest.fixture
def topic(gb: Any) -> str:
    return make_topic(gb.bootstrap_servers, PARTITIONS)


def _join_all(gb: Any, members: list[RawMember]) -> None:
    """Every member (already in the group or pending) joins the same new generation."""
    for m in members:
        m.send_join()
    resps = [m.receive_join() for m in members]
    codes = [ErrorCode(r.error_code) for r in resps]
    assert set(codes) == {ErrorCode.NONE}, codes
    assert len({r.generation_id for r in resps}) == 1


def _two_member_group(gb: Any, raw: Any, group: str, topic: str, **kw: Any) -> tuple[RawMember, RawMember]:
    a = raw(group, topic, **kw)
    b = raw(group, topic, **kw)
    for m in (a, b):  # KIP-394 round trip first, so both can join in one go
        m.send_join()
        assert m.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    _join_all(gb, [a, b])
    leader, follower = (a, b) if a.is_leader else (b, a)
    follower.send_sync()
    assert leader.sync(leader.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
    assert follower.receive_sync().error_code == ErrorCode.NONE
    assert state_of(gb, group) == "Stable"
    return leader, follower


def test_join_validation(gb: Any, topic: str, raw: Any) -> None:
    group = unique("validate")
    too_short = raw(group, topic, session_timeout_ms=500)  # below group.min.session.timeout.ms
    assert too_short.join().error_code == ErrorCode.INVALID_SESSION_TIMEOUT
    ok = raw(group, topic, protocols=["range"])
    assert ok.join().error_code == ErrorCode.NONE
    stranger = raw(group, topic, protocols=["roundrobin"])  # nothing in common with the group
    assert stranger.join().error_code == ErrorCode.INCONSISTENT_GROUP_PROTOCOL
    assert state_of(gb, group) == "CompletingRebalance"


def test_member_that_does_not_rejoin_is_dropped_at_rebalance_timeout(gb: Any, topic: str, raw: Any) -> None:
    """B keeps heartbeating (it is alive) but never rejoins: at the rebalance timeout the join
    phase completes without it, and it learns it is no longer a member."""
    group = unique("rebalance-timeout")
    rebalance_ms = 2000
    a, b = _two_member_group(gb, raw, group, topic, session_timeout_ms=3000, rebalance_timeout_ms=rebalance_ms)
    gen = a.generation
    c = raw(group, topic, session_timeout_ms=3000, rebalance_timeout_ms=rebalance_ms)
    c.send_join()
    assert c.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    started = time.monotonic()
    c.send_join()
    a.send_join()
    # B only heartbeats: each heartbeat keeps its session alive and says a rebalance is on
    # (a deadline, not a window: without the rebalance timeout the join never completes while B
    # heartbeats, so B would still be told REBALANCE_IN_PROGRESS when it passes)
    while time.monotonic() - started < rebalance_ms / 1000 + 15:
        code = b.heartbeat()
        if code != ErrorCode.REBALANCE_IN_PROGRESS:
            break
        time.sleep(0.2)
    elapsed = time.monotonic() - started
    ra, rc = a.receive_join(), c.receive_join()
    assert ra.error_code == rc.error_code == ErrorCode.NONE
    assert ra.generation_id == rc.generation_id == gen + 1
    assert code == ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode(code)
    assert elapsed >= rebalance_ms / 1000 - 0.3, elapsed  # never before the rebalance timeout
    leader = a if a.is_leader else c
    assert sorted(m.member_id for m in leader.members) == sorted([a.member_id, c.member_id])


def test_leader_dies_before_sync(gb: Any, topic: str, raw: Any) -> None:
    """The leader gets its JoinGroup response and dies: the follower, parked in SyncGroup, is
    told REBALANCE_IN_PROGRESS once the leader's session expires, and leads the next generation."""
    group = unique("dead-leader")
    leader = raw(group, topic, session_timeout_ms=1500, rebalance_timeout_ms=1500)
    follower = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    for m in (leader, follower):
        m.send_join()
        assert m.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    leader.send_join()  # the first member to join leads
    wait_until(lambda: state_of(gb, group) == "PreparingRebalance", 5)
    follower.send_join()
    assert leader.receive_join().error_code == follower.receive_join().error_code == ErrorCode.NONE
    assert leader.is_leader
    gen = leader.generation
    started = time.monotonic()
    follower.send_sync()  # parked until the leader syncs: it never will
    resp = follower.receive_sync()
    waited = time.monotonic() - started
    assert resp.error_code == ErrorCode.REBALANCE_IN_PROGRESS, ErrorCode(resp.error_code)
    # ended by the leader's 1.5 s session, not early, and not by the follower's own 10 s session
    assert 1.0 <= waited < 7.0, waited
    r = follower.join()
    assert r.error_code == ErrorCode.NONE
    assert r.generation_id > gen
    assert follower.is_leader and [m.member_id for m in r.members] == [follower.member_id]
    assert decode_assignment(follower.sync(follower.range_assignment(PARTITIONS)).assignment) == {
        topic: list(range(PARTITIONS))
    }
    assert leader.heartbeat() == ErrorCode.UNKNOWN_MEMBER_ID


def test_leader_leaves_before_sync(gb: Any, topic: str, raw: Any) -> None:
    group = unique("leaving-leader")
    a = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    b = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    for m in (a, b):
        m.send_join()
        assert m.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    _join_all(gb, [a, b])
    leader, follower = (a, b) if a.is_leader else (b, a)
    follower.send_sync()
    time.sleep(0.1)
    assert [x.error_code for x in leader.leave().members] == [ErrorCode.NONE]
    assert follower.receive_sync().error_code == ErrorCode.REBALANCE_IN_PROGRESS
    r = follower.join()
    assert r.error_code == ErrorCode.NONE and follower.is_leader


def test_sync_waits_for_leader_and_unassigned_member_gets_empty(gb: Any, topic: str, raw: Any) -> None:
    group = unique("sync")
    a = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    b = raw(group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    for m in (a, b):
        m.send_join()
        assert m.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
    _join_all(gb, [a, b])
    leader, follower = (a, b) if a.is_leader else (b, a)
    assert state_of(gb, group) == "CompletingRebalance"
    # a heartbeat in CompletingRebalance is fine (the member is between Join and Sync)
    assert follower.heartbeat() in (ErrorCode.NONE, ErrorCode.REBALANCE_IN_PROGRESS)
    follower.send_sync()
    follower.conn.sock.settimeout(0.5)
    with pytest.raises(TimeoutError):
        follower.conn.recv_frame()  # no answer before the leader's SyncGroup
    follower.conn.sock.settimeout(30)
    # the leader leaves the follower out of its assignment entirely
    assert leader.sync({leader.member_id: {topic: list(range(PARTITIONS))}}).error_code == ErrorCode.NONE
    resp = follower.receive_sync()
    assert resp.error_code == ErrorCode.NONE
    assert decode_assignment(resp.assignment) == {}
    assert state_of(gb, group) == "Stable"
    d = describe_group(gb.bootstrap_servers, group)
    assert d.group_state == "Stable" and d.protocol_data == "range" and len(d.members) == 2
    assert follower.heartbeat() == ErrorCode.NONE


def test_generations_increase_and_heartbeat_reports_rebalance(gb: Any, topic: str, raw: Any) -> None:
    group = unique("gens")
    a, b = _two_member_group(gb, raw, group, topic, session_timeout_ms=10000, rebalance_timeout_ms=10000)
    generations = [a.generation]
    for _ in range(3):
        # the leader rejoining starts a rebalance; the follower finds out from its heartbeat
        leader, follower = (a, b) if a.is_leader else (b, a)
        leader.send_join()
        wait_until(lambda f=follower: f.heartbeat() == ErrorCode.REBALANCE_IN_PROGRESS, 5)
        follower.send_join()
        ra, rb = a.receive_join(), b.receive_join()
        assert ra.error_code == rb.error_code == ErrorCode.NONE
        assert ra.generation_id == rb.generation_id
        generations.append(ra.generation_id)
        leader, follower = (a, b) if a.is_leader else (b, a)
        follower.send_sync()
        assert leader.sync(leader.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
        assert follower.receive_sync().error_code == ErrorCode.NONE
    assert generations == sorted(set(generations)), generations
    # a follower rejoining with unchanged metadata in Stable gets the current generation back
    leader, follower = (a, b) if a.is_leader else (b, a)
    r = follower.join()
    assert r.error_code == ErrorCode.NONE and r.generation_id == generations[-1]
    assert state_of(gb, group) == "Stable"


def test_member_of_reloaded_group_expires(tmp_path: Path) -> None:
    """A group that had a member when the broker stopped is reloaded Stable with it; if the member
    never comes back, it expires after its session timeout and the group becomes Empty, keeping
    its offsets."""
    log_dir = tmp_path / "broker"
    with group_broker(log_dir=log_dir) as b:
        topic = make_topic(b.bootstrap_servers, 1)
        group = unique("reload")
        m = RawMember(b.bootstrap_servers, group, [topic], session_timeout_ms=1500)
        try:
            assert m.join().error_code == ErrorCode.NONE
            assert m.sync(m.range_assignment(1)).error_code == ErrorCode.NONE
            assert m.commit({(topic, 0): (3, "kept")}) == {(topic, 0): ErrorCode.NONE}
        finally:
            m.close()
    with group_broker(log_dir=log_dir) as b:
        d = describe_group(b.bootstrap_servers, group)
        assert d.group_state == "Stable" and [x.member_id for x in d.members] == [m.member_id]
        # its 1.5 s session: not a default one (10 s and more) nor never (no timer armed on reload)
        wait_until(lambda: state_of(b, group) == "Empty", 8, what="the reloaded member to expire")
        assert fetch_offsets(b.bootstrap_servers, group, topic, [0]) == {0: (3, "kept")}
