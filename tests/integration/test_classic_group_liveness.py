"""Classic groups, differential (ours and Apache Kafka 4.3.1): a follower parked in SyncGroup waits for the
leader's assignment as long as it takes, whatever its session timeout; a static member that misses a
rebalance's join phase keeps its place in the group.

Clients send no heartbeats between their JoinGroup and the answer to their SyncGroup (kafka-python 3.0.12
disables its heartbeat for the join-and-sync). Kafka counts a member waiting in either request as alive
and restarts its session when the assignment reaches it; ours expired such a follower once its session
ran out while a slow leader computed the assignment, so the group rebalanced again without it (under CPU
load, rebalance after rebalance). The fake-clock cases are in tests/unit/test_classic_group_liveness.py.
"""

from __future__ import annotations

import time
from typing import Any

from kafka_wire.errors import ErrorCode
from tests.integration.group_util import (
    COORDINATOR_NOT_READY,
    RawMember,
    decode_assignment,
    describe_group,
    differential_broker,  # noqa: F401 - the `broker` fixture
    find_coordinator,
    make_topic,
    unique,
    wait_until,
)

# Apache Kafka's group.min.session.timeout.ms is 6 s
SESSION_MS = 6000
PARTITIONS = 4


def _lead_alone(a: RawMember) -> None:
    """a leads a generation alone (FindCoordinator first, as clients do)."""
    deadline = time.monotonic() + 30
    find_coordinator(a.conn, a.group_id, deadline)
    while (r := a.join()).error_code in COORDINATOR_NOT_READY:
        assert time.monotonic() < deadline, ErrorCode(r.error_code)
        time.sleep(0.2)
    assert r.error_code == ErrorCode.NONE and a.is_leader
    assert a.sync(a.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE


def test_a_follower_parked_in_sync_group_outlives_its_session(broker: Any) -> None:
    bootstrap = broker.bootstrap_servers
    topic = make_topic(bootstrap, PARTITIONS)
    group = unique("parked-sync")
    a = RawMember(bootstrap, group, [topic], session_timeout_ms=SESSION_MS, rebalance_timeout_ms=30000)
    b = RawMember(bootstrap, group, [topic], session_timeout_ms=SESSION_MS, rebalance_timeout_ms=30000)
    try:
        _lead_alone(a)
        # b joins: a hears of the rebalance from its heartbeat and rejoins; both hold the next generation
        b.send_join()
        assert b.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
        b.send_join()
        wait_until(lambda: a.heartbeat() == ErrorCode.REBALANCE_IN_PROGRESS, 10, what="a rebalance")
        a.send_join()
        ra, rb = a.receive_join(), b.receive_join()
        assert ra.error_code == rb.error_code == ErrorCode.NONE, (ErrorCode(ra.error_code), ErrorCode(rb.error_code))
        leader, follower = (a, b) if a.is_leader else (b, a)
        follower.send_sync()  # parked until the leader's SyncGroup; the follower sends nothing else
        parked_at = time.monotonic()
        # the leader takes longer than a whole session over its assignment, heartbeating meanwhile
        while time.monotonic() - parked_at < SESSION_MS / 1000 + 2:
            assert leader.heartbeat() == ErrorCode.NONE
            time.sleep(1.0)
        assignment = leader.range_assignment(PARTITIONS)
        assert leader.sync(assignment).error_code == ErrorCode.NONE
        resp = follower.receive_sync()
        assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
        assert decode_assignment(resp.assignment) == assignment[follower.member_id]
        assert follower.heartbeat() == ErrorCode.NONE
        d = describe_group(bootstrap, group)
        assert d.group_state == "Stable" and len(d.members) == 2
    finally:
        a.close()
        b.close()


def test_a_static_member_that_misses_the_join_keeps_its_place(broker: Any) -> None:
    """Only *dynamic* members that do not rejoin within the rebalance timeout are removed when the join
    phase ends; a static member (KIP-345) stays in the new generation, with its share of the assignment,
    until its session runs out (ours removed it as well)."""
    bootstrap = broker.bootstrap_servers
    topic = make_topic(bootstrap, PARTITIONS)
    group = unique("static-miss")
    # sessions outlast the join phase: only the rebalance timeout decides who is left out of it
    timeouts = {"session_timeout_ms": 30000, "rebalance_timeout_ms": 3000}
    a = RawMember(bootstrap, group, [topic], **timeouts)
    s = RawMember(bootstrap, group, [topic], instance_id=unique("inst"), **timeouts)
    d = RawMember(bootstrap, group, [topic], **timeouts)
    try:
        _lead_alone(a)
        s.send_join()  # static: its member id comes with the answer (no MEMBER_ID_REQUIRED)
        d.send_join()
        assert d.receive_join().error_code == ErrorCode.MEMBER_ID_REQUIRED
        d.send_join()
        wait_until(lambda: a.heartbeat() == ErrorCode.REBALANCE_IN_PROGRESS, 10, what="a rebalance")
        a.send_join()
        joined = [m.receive_join().error_code for m in (a, s, d)]
        assert joined == [ErrorCode.NONE] * 3, [ErrorCode(c) for c in joined]
        assert a.is_leader and len(a.members) == 3
        s.send_sync()
        d.send_sync()
        assert a.sync(a.range_assignment(PARTITIONS)).error_code == ErrorCode.NONE
        assert [m.receive_sync().error_code for m in (s, d)] == [ErrorCode.NONE] * 2
        stable_generation = a.generation
        # the leader asks for a rebalance; s and d send nothing within the rebalance timeout
        a.send_join()
        resp = a.receive_join()
        assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
        assert resp.generation_id == stable_generation + 1
        assert sorted(m.member_id for m in resp.members) == sorted([a.member_id, s.member_id])
        assert {m.member_id: m.group_instance_id for m in resp.members}[s.member_id] == s.instance_id
        d_heartbeat, s_heartbeat = d.heartbeat(), s.heartbeat()
        assert (ErrorCode(d_heartbeat), ErrorCode(s_heartbeat)) == (
            ErrorCode.UNKNOWN_MEMBER_ID,  # the dynamic member is gone
            ErrorCode.ILLEGAL_GENERATION,  # the static one belongs to a generation it has not seen yet
        )
        desc = describe_group(bootstrap, group)
        assert desc.group_state == "CompletingRebalance" and len(desc.members) == 2
        # s comes back with nothing changed: it is answered this generation at once, and synced
        rs = s.join()
        assert rs.error_code == ErrorCode.NONE and rs.generation_id == resp.generation_id and rs.leader == a.member_id
        assignment = a.range_assignment(PARTITIONS)
        s.send_sync()
        assert a.sync(assignment).error_code == ErrorCode.NONE
        rss = s.receive_sync()
        assert rss.error_code == ErrorCode.NONE and decode_assignment(rss.assignment) == assignment[s.member_id]
        desc = describe_group(bootstrap, group)
        assert desc.group_state == "Stable" and len(desc.members) == 2
    finally:
        for m in (a, s, d):
            m.close()
