"""Classic groups: who the session timeout may expire while a rebalance is under way (fake clock).

Clients stop heartbeating from their JoinGroup until their SyncGroup is answered (kafka-python 3.0.12
disables its heartbeat for the whole join-and-sync; the Java consumer's heartbeat thread waits too).
Kafka 4.3.1 (ClassicGroupMember.hasSatisfiedHeartbeat) therefore counts a member waiting in JoinGroup
*or in SyncGroup* as alive, and gives every member a fresh session when the assignment (or an error) is
sent to it (GroupMetadataManager.propagateAssignment). Ours expired a follower that waited in SyncGroup
longer than its session for a slow leader: the group rebalanced again without it, and under CPU load the
rebalances chained (session 18's CI: test_processing_longer_than_session_timeout_keeps_membership had
no complete assignment within 30 s).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from broker_embedded.config import BrokerConfig
from broker_embedded.group.coordinator import GroupCoordinator
from broker_embedded.purgatory import ManualClock, SystemTimer
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import heartbeat_request as hq
from kafka_wire.protocol.messages import join_group_request as jq
from kafka_wire.protocol.messages import sync_group_request as sq
from tests.unit.test_consumer_group_coordinator import Registry, T

SESSION_MS = 6000


class ClassicHarness:
    """A GroupCoordinator on a manual clock; __consumer_offsets is not written (storage stubbed)."""

    def __init__(self) -> None:
        self.clock = ManualClock(1_000)
        self.timer = SystemTimer(name="test", clock=self.clock)
        config = BrokerConfig({"group.initial.rebalance.delay.ms": 0})
        self.coordinator = GroupCoordinator(config, Registry(T), None, self.timer, None)  # type: ignore[arg-type]
        self.coordinator.storage.coordinator_error = lambda group_id: ErrorCode.NONE  # type: ignore[method-assign]
        self.coordinator.storage.store_group = lambda group: None  # type: ignore[method-assign]
        self.generation: dict[str, int] = {}
        self.instance: dict[str, str] = {}  # member id -> group instance id, for static members
        self.session_ms = SESSION_MS
        self.rebalance_ms = 30000

    def advance(self, ms: int) -> None:
        self.timer.advance_clock(self.clock.advance(ms))

    def send_join(self, member_id: str, instance_id: str | None = None) -> Any:
        req = jq.JoinGroupRequest(
            group_id="g",
            session_timeout_ms=self.session_ms,
            rebalance_timeout_ms=self.rebalance_ms,
            member_id=member_id,
            group_instance_id=instance_id or self.instance.get(member_id),
            protocol_type="consumer",
            protocols=[jq.JoinGroupRequestProtocol(name="range", metadata=b"")],
        )
        return self.coordinator.join_group(req, 9, "client", "/127.0.0.1")

    def new_member(self) -> str:
        """A member id the coordinator handed out (KIP-394: MEMBER_ID_REQUIRED first)."""
        resp = self.send_join("")
        assert resp.error_code == ErrorCode.MEMBER_ID_REQUIRED
        return str(resp.member_id)

    def static_member_joins(self, instance_id: str) -> tuple[str, Any]:
        """A static member's first JoinGroup (KIP-345: its member id comes with the answer, no
        MEMBER_ID_REQUIRED). Returns the member id and the JoinGroup's future."""
        future = self.send_join("", instance_id)
        member_id = self.coordinator.groups["g"].static_members[instance_id]
        self.instance[member_id] = instance_id
        return member_id, future

    def send_sync(self, member_id: str, assignments: dict[str, bytes] | None = None) -> Any:
        req = sq.SyncGroupRequest(
            group_id="g",
            generation_id=self.generation[member_id],
            member_id=member_id,
            group_instance_id=self.instance.get(member_id),
            protocol_type="consumer",
            protocol_name="range",
            assignments=[
                sq.SyncGroupRequestAssignment(member_id=m, assignment=a) for m, a in (assignments or {}).items()
            ],
        )
        return self.coordinator.sync_group(req, 5)

    def sync(self, member_id: str, assignments: dict[str, bytes] | None = None) -> Any:
        """SyncGroup, answered at once (the leader's, or any in Stable)."""
        result = self.send_sync(member_id, assignments)
        if isinstance(result, asyncio.Future):
            assert result.done(), f"{member_id}'s SyncGroup is parked"
            result = result.result()
        return result

    def heartbeat(self, member_id: str) -> ErrorCode:
        req = hq.HeartbeatRequest(
            group_id="g",
            generation_id=self.generation[member_id],
            member_id=member_id,
            group_instance_id=self.instance.get(member_id),
        )
        return ErrorCode(self.coordinator.heartbeat(req, 4))

    def joined(self, member_id: str, future: Any) -> Any:
        assert future.done(), f"{member_id}'s JoinGroup is still parked"
        resp = future.result()
        assert resp.error_code == ErrorCode.NONE, ErrorCode(resp.error_code)
        self.generation[member_id] = resp.generation_id
        return resp

    def two_members_awaiting_sync(self) -> tuple[str, str]:
        """a leads a Stable generation alone; b joins; both hold the JoinGroup response of the next
        generation. Returns (leader, follower)."""
        a = self.new_member()
        self.joined(a, self.send_join(a))
        assert self.sync(a, {a: b"a"}).error_code == ErrorCode.NONE
        b = self.new_member()
        join_b = self.send_join(b)
        assert not join_b.done()
        assert self.heartbeat(a) == ErrorCode.REBALANCE_IN_PROGRESS
        join_a = self.send_join(a)
        ra, rb = self.joined(a, join_a), self.joined(b, join_b)
        assert ra.leader == a and rb.leader == a and ra.generation_id == rb.generation_id
        return a, b

    def state(self) -> str:
        return self.coordinator.groups["g"].state.value


def _run(scenario: Callable[[ClassicHarness], None]) -> None:
    async def main() -> None:  # the coordinator's futures belong to a running loop
        scenario(ClassicHarness())

    asyncio.run(main())


def test_a_follower_waiting_in_sync_group_outlives_its_session() -> None:
    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        parked = h.send_sync(follower)
        assert not parked.done()
        # the leader takes two sessions to send the assignment, heartbeating meanwhile; the follower,
        # parked in SyncGroup, sends nothing
        for _ in range(2 * SESSION_MS // 1000):
            h.advance(1000)
            assert h.heartbeat(leader) == ErrorCode.NONE
        assert h.state() == "CompletingRebalance" and parked.done() is False
        assert h.sync(leader, {leader: b"L", follower: b"F"}).error_code == ErrorCode.NONE
        resp = parked.result()
        assert resp.error_code == ErrorCode.NONE and resp.assignment == b"F"
        assert h.state() == "Stable" and h.heartbeat(follower) == ErrorCode.NONE

    _run(scenario)


def test_the_session_starts_again_when_the_assignment_reaches_the_member() -> None:
    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        parked = h.send_sync(follower)
        h.advance(SESSION_MS - 1000)  # the leader syncs 1 s before the follower's session would end
        assert h.sync(leader, {leader: b"L", follower: b"F"}).error_code == ErrorCode.NONE
        assert parked.result().error_code == ErrorCode.NONE
        # the follower's first heartbeat comes most of a session after the assignment, as a client's
        # may under load: it still counts (its session restarted at the assignment)
        h.advance(SESSION_MS - 500)
        assert h.heartbeat(leader) == ErrorCode.NONE
        assert h.heartbeat(follower) == ErrorCode.NONE
        assert h.state() == "Stable" and len(h.coordinator.groups["g"].members) == 2
        # and a member silent for a whole session after that is expired, as before
        h.advance(SESSION_MS + 100)
        assert h.heartbeat(follower) == ErrorCode.UNKNOWN_MEMBER_ID

    _run(scenario)


def test_a_member_between_its_join_response_and_its_sync_must_heartbeat() -> None:
    """Not waiting in a request: the session applies (Kafka's hasSatisfiedHeartbeat is false then)."""

    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        synced = h.sync(leader, {leader: b"L", follower: b"F"})  # the leader syncs; the follower never does
        assert synced.error_code == ErrorCode.NONE
        h.advance(SESSION_MS // 2)
        assert h.heartbeat(leader) == ErrorCode.NONE
        h.advance(SESSION_MS // 2 + 100)
        assert h.heartbeat(leader) == ErrorCode.REBALANCE_IN_PROGRESS  # the follower expired: a rebalance
        assert follower not in h.coordinator.groups["g"].members

    _run(scenario)


def test_a_follower_parked_in_sync_group_when_a_rebalance_starts_gets_a_fresh_session() -> None:
    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        parked = h.send_sync(follower)
        h.advance(SESSION_MS - 500)
        assert h.heartbeat(leader) == ErrorCode.NONE
        third = h.new_member()
        h.send_join(third)  # a new member: the pending syncs are answered REBALANCE_IN_PROGRESS
        assert parked.result().error_code == ErrorCode.REBALANCE_IN_PROGRESS
        # the follower has a whole session to rejoin from that answer on, not the 0.5 s left before it
        h.advance(SESSION_MS - 500)
        assert follower in h.coordinator.groups["g"].members
        assert h.state() == "PreparingRebalance"

    _run(scenario)


def test_a_leader_that_heartbeats_but_never_syncs_is_removed_at_the_rebalance_timeout() -> None:
    """Kafka's pending-sync expiry: followers parked in SyncGroup are alive, so without it a leader that
    heartbeats but never sends the assignment would hold the group in CompletingRebalance forever."""

    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        parked = h.send_sync(follower)
        for _ in range(29):
            h.advance(1000)
            assert h.heartbeat(leader) == ErrorCode.NONE
        assert not parked.done() and h.state() == "CompletingRebalance"
        h.advance(1100)  # the rebalance timeout (30 s) since the join completed
        assert parked.result().error_code == ErrorCode.REBALANCE_IN_PROGRESS
        assert h.heartbeat(leader) == ErrorCode.UNKNOWN_MEMBER_ID
        assert list(h.coordinator.groups["g"].members) == [follower] and h.state() == "PreparingRebalance"
        # the follower rejoins and leads the next generation alone
        h.joined(follower, h.send_join(follower))
        assert h.sync(follower, {follower: b"F"}).error_code == ErrorCode.NONE and h.state() == "Stable"

    _run(scenario)


def test_every_member_that_sent_its_sync_group_is_not_expired_by_the_pending_sync_timer() -> None:
    def scenario(h: ClassicHarness) -> None:
        leader, follower = h.two_members_awaiting_sync()
        parked = h.send_sync(follower)
        assert h.sync(leader, {leader: b"L", follower: b"F"}).error_code == ErrorCode.NONE
        assert parked.result().assignment == b"F"
        for _ in range(40):  # past the rebalance timeout, both heartbeating
            h.advance(1000)
            assert h.heartbeat(leader) == h.heartbeat(follower) == ErrorCode.NONE
        assert h.state() == "Stable" and len(h.coordinator.groups["g"].members) == 2

    _run(scenario)


def _stable_leader_static_and_dynamic(h: ClassicHarness) -> tuple[str, str, str]:
    """a (dynamic) leads a Stable generation with s (static, instance "inst-s") and d (dynamic)."""
    a = h.new_member()
    h.joined(a, h.send_join(a))
    assert h.sync(a, {a: b"a"}).error_code == ErrorCode.NONE
    s, join_s = h.static_member_joins("inst-s")
    d = h.new_member()
    join_d = h.send_join(d)
    assert h.heartbeat(a) == ErrorCode.REBALANCE_IN_PROGRESS
    join_a = h.send_join(a)
    for member_id, future in ((a, join_a), (s, join_s), (d, join_d)):
        h.joined(member_id, future)
    parked = [h.send_sync(s), h.send_sync(d)]
    assert h.sync(a, {a: b"A", s: b"S", d: b"D"}).error_code == ErrorCode.NONE
    assert [p.result().error_code for p in parked] == [ErrorCode.NONE, ErrorCode.NONE]
    assert h.state() == "Stable"
    return a, s, d


def test_a_static_member_that_misses_the_join_keeps_its_place() -> None:
    """Kafka's completeClassicGroupJoin removes only the *dynamic* members that did not rejoin: a static
    member (KIP-345) keeps its membership, and the leader assigns it partitions, until its session runs
    out. Ours removed every member that did not rejoin."""

    def scenario(h: ClassicHarness) -> None:
        h.session_ms, h.rebalance_ms = 60_000, 10_000  # sessions outlast the join phase
        a, s, d = _stable_leader_static_and_dynamic(h)
        join_a = h.send_join(a)  # the leader asks for a rebalance; s and d do not hear of it in time
        h.advance(h.rebalance_ms + 100)
        resp = h.joined(a, join_a)
        assert sorted(m.member_id for m in resp.members) == sorted([a, s])
        assert h.state() == "CompletingRebalance"
        assert h.heartbeat(d) == ErrorCode.UNKNOWN_MEMBER_ID  # the dynamic one is gone
        assert h.heartbeat(s) == ErrorCode.ILLEGAL_GENERATION  # the static one is a member of the new one
        # s comes back: nothing changed for it, so it gets this generation's answer at once
        rs = h.joined(s, h.send_join(s))
        assert rs.generation_id == resp.generation_id and rs.leader == a
        parked = h.send_sync(s)
        assert h.sync(a, {a: b"A", s: b"S"}).error_code == ErrorCode.NONE
        assert parked.result().assignment == b"S" and h.state() == "Stable"

    _run(scenario)


def test_when_no_member_rejoined_the_join_waits_for_the_static_members_sessions() -> None:
    """Kafka's maybeElectNewJoinedLeader: when only static members that did not rejoin are left, no one can
    lead the generation; the join phase waits another rebalance timeout (their sessions decide)."""

    def scenario(h: ClassicHarness) -> None:
        h.session_ms, h.rebalance_ms = 60_000, 10_000
        s1, join_1 = h.static_member_joins("inst-1")
        h.joined(s1, join_1)
        assert h.sync(s1, {s1: b"1"}).error_code == ErrorCode.NONE
        s2, join_2 = h.static_member_joins("inst-2")
        assert h.heartbeat(s1) == ErrorCode.REBALANCE_IN_PROGRESS
        h.joined(s1, h.send_join(s1))
        h.joined(s2, join_2)
        parked = h.send_sync(s2)
        assert h.sync(s1, {s1: b"1", s2: b"2"}).error_code == ErrorCode.NONE and parked.result().assignment == b"2"
        # a dynamic member joins and leaves again before the join completes: the rebalance it started
        # goes on with two static members that have not heard of it
        d = h.new_member()
        join_d = h.send_join(d)
        assert h.coordinator.leave_group("g", [(d, None)]) == (ErrorCode.NONE, [ErrorCode.NONE])
        assert join_d.done() and h.state() == "PreparingRebalance"
        h.advance(h.rebalance_ms + 100)
        assert h.state() == "PreparingRebalance"
        assert sorted(h.coordinator.groups["g"].members) == sorted([s1, s2])
        # s2 comes back and leads the generation once the next wait ends; s1 is still counted in it
        join_2 = h.send_join(s2)
        assert not join_2.done()
        h.advance(h.rebalance_ms + 100)
        resp = h.joined(s2, join_2)
        assert resp.leader == s2 and sorted(m.member_id for m in resp.members) == sorted([s1, s2])
        # s1 never comes back: its session ends it (after the rebalance's pending-sync expiry at the latest)
        assert h.sync(s2, {s2: b"2", s1: b"1"}).error_code == ErrorCode.NONE
        h.advance(h.rebalance_ms + 100)
        assert s1 not in h.coordinator.groups["g"].members

    _run(scenario)
