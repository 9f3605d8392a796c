"""Scenarios of the sans-IO Raft core (issue 32), each on the deterministic simulator with faults placed by
hand (no random faults, no loss), so the invariants of testsupport/raft_sim.py are checked all along too;
plus a few single-node checks of the message handling."""

from __future__ import annotations

import random

import pytest

from broker_embedded.raft import (
    MemoryQuorumStateStore,
    MemoryRaftLog,
    NotLeaderError,
    OffsetAndEpoch,
    RaftNode,
    Role,
    Send,
    VoterChangeError,
)
from broker_embedded.raft.messages import (
    FetchRequest,
    FetchResponse,
    LogEntry,
    VoteRequest,
    VoteResponse,
)
from broker_embedded.raft.quorum import LeaderState, ReplicaState
from kafka_wire.errors import ErrorCode
from testsupport.raft_sim import SIM_RAFT_CONFIG, SimConfig, Simulation

CFG = SIM_RAFT_CONFIG


def quiet_cluster(nodes: int = 3, seed: int = 7) -> Simulation:
    """A simulator with a reliable network (delays only) and no scheduled faults or appends."""
    sim = Simulation(seed, SimConfig(nodes=nodes, loss=0.0, duplicate=0.0, vary_raft=False))
    sim.start()
    return sim


def stable_leader(sim: Simulation) -> int:
    sim.run_for(1500)
    leaders = sim.leaders()
    assert len(leaders) == 1, leaders
    leader = leaders[0]
    epoch = sim.raft(leader).epoch
    for i in sim.nodes:
        r = sim.raft(i)
        assert (r.epoch, r.leader_id) == (epoch, leader), (i, r.role, r.epoch, r.leader_id)
    return leader


def applied_values(sim: Simulation, node_id: int) -> list[object]:
    return [v for (_e, v, control) in sim.nodes[node_id].applied if not control]


@pytest.mark.parametrize("nodes", [1, 3, 5])
def test_a_quorum_elects_one_leader_and_commits_on_every_node(nodes: int) -> None:
    sim = quiet_cluster(nodes)
    leader = stable_leader(sim)
    for v in range(10):
        sim.append(leader, v)
    sim.run_for(300)
    for i in sim.nodes:
        assert applied_values(sim, i) == list(range(10))
    assert sim.raft(leader).high_watermark == sim.nodes[leader].log.end_offset
    for other in set(sim.nodes) - {leader}:
        with pytest.raises(NotLeaderError):
            sim.raft(other).append(["x"])


def test_an_isolated_follower_rejoins_without_disturbing_the_leader() -> None:
    """KIP-996: the cut-off follower pre-votes and loses instead of bumping the epoch, so the leader that a
    majority still reaches is never fenced; once healed it follows the same leader in the same epoch."""
    sim = quiet_cluster(3)
    leader = stable_leader(sim)
    epoch = sim.raft(leader).epoch
    follower = next(i for i in sim.nodes if i != leader)
    sim.isolate(follower)
    for step in range(20):  # 20 fetch timeouts' worth of isolation, appends all along
        sim.append(leader, step)
        sim.run_for(CFG.fetch_timeout_ms)
        assert sim.raft(follower).epoch == epoch
        assert sim.raft(follower).role in (Role.PROSPECTIVE, Role.FOLLOWER)
        assert sim.leaders() == [leader] and sim.raft(leader).epoch == epoch
    assert len(applied_values(sim, leader)) == 20  # the majority kept committing
    sim.heal_network()
    sim.run_for(CFG.fetch_timeout_ms * 2)
    assert sim.leaders() == [leader] and sim.raft(leader).epoch == epoch
    assert (sim.raft(follower).role, sim.raft(follower).leader_id) == (Role.FOLLOWER, leader)
    assert applied_values(sim, follower) == list(range(20))


def test_isolating_the_leader_elects_a_new_one_and_the_old_one_resigns_and_truncates() -> None:
    """The issue's scenario: cut off the active controller. The majority elects a successor within the fetch
    timeout plus an election, the old leader resigns by check-quorum, cannot commit on its side, and after
    healing truncates its uncommitted entries and follows without another election."""
    sim = quiet_cluster(3)
    old = stable_leader(sim)
    epoch = sim.raft(old).epoch
    sim.append(old, "committed")
    sim.run_for(100)
    sim.isolate(old)
    cut = sim.now
    sim.append(old, "lost-1")
    sim.append(old, "lost-2")
    bound = CFG.fetch_timeout_ms + 2 * (2 * CFG.election_timeout_ms) + 100
    new = None
    while sim.now - cut < bound:
        sim.run_for(10)
        majority_leaders = [i for i in sim.leaders() if i != old]
        if majority_leaders:
            new = majority_leaders[0]
            break
    assert new is not None, f"no new leader within {bound} ms"
    assert sim.raft(new).epoch == epoch + 1
    sim.run_for(CFG.fetch_timeout_ms * 3 // 2)  # check-quorum
    assert sim.raft(old).role in (Role.RESIGNED, Role.PROSPECTIVE, Role.FOLLOWER)
    assert sim.raft(old).epoch == epoch  # a pre-vote minority never raises its epoch
    assert "lost-1" not in applied_values(sim, old)
    sim.append(new, "after")
    sim.run_for(200)
    sim.heal_network()
    sim.run_for(CFG.fetch_timeout_ms * 2)
    assert sim.leaders() == [new] and sim.raft(new).epoch == epoch + 1
    assert (sim.raft(old).leader_id, sim.raft(old).epoch) == (new, epoch + 1)
    assert sim.nodes[old].log.truncations >= 1
    for i in sim.nodes:
        assert applied_values(sim, i) == ["committed", "after"]
    sim.check_final()


def test_a_follower_below_the_leaders_log_start_catches_up_from_a_snapshot() -> None:
    sim = quiet_cluster(3)
    leader = stable_leader(sim)
    behind = next(i for i in sim.nodes if i != leader)
    sim.crash(behind)
    for v in range(50):
        sim.append(leader, v)
        sim.run_for(5)
    sim.run_for(200)
    sim.snapshot(leader)  # the leader's log before its applied offset is gone now
    start = sim.nodes[leader].log.start_offset
    assert start > 40 and sim.nodes[leader].log.latest_snapshot_id == OffsetAndEpoch(start, sim.raft(leader).epoch)
    installed = sim.stats["snapshots_installed"]
    sim.restart(behind)
    sim.append(leader, "tail")
    sim.run_for(1000)
    assert sim.stats["snapshots_installed"] == installed + 1
    assert sim.nodes[behind].log.start_offset == start
    assert applied_values(sim, behind) == [*range(50), "tail"]
    sim.check_final()


def test_a_crashed_leader_loses_unflushed_appends_but_never_committed_ones() -> None:
    sim = Simulation(3, SimConfig(nodes=3, loss=0.0, duplicate=0.0, vary_raft=False))
    sim.start()
    leader = stable_leader(sim)
    sim.append(leader, "kept")
    sim.run_for(200)
    sim.isolate(leader)
    sim.append(leader, "never-flushed")  # inside the flush linger
    log = sim.nodes[leader].log
    assert log.end_offset > log.flushed_offset
    sim.crash(leader)
    assert sim.nodes[leader].log.end_offset == sim.nodes[leader].log.flushed_offset
    sim.heal_network()
    sim.restart(leader)
    assert sim.raft(leader).role is Role.RESIGNED  # it led its last epoch: it restarts resigned
    sim.run_for(1500)
    assert len(sim.leaders()) == 1
    for i in sim.nodes:
        assert applied_values(sim, i) == ["kept"]
    sim.check_final()


# ---------------------------------------------------------------- single node, message by message


def lone_node(voters: tuple[int, ...] = (1, 2, 3)) -> tuple[RaftNode, MemoryRaftLog, MemoryQuorumStateStore, list[int]]:
    now = [0]
    log, store = MemoryRaftLog(), MemoryQuorumStateStore()
    node = RaftNode(1, voters, log, store, clock=lambda: now[0], rng=random.Random(1), config=CFG)
    node.start()
    return node, log, store, now


def test_a_vote_is_persisted_before_it_is_sent_and_never_given_twice_in_an_epoch() -> None:
    node, _log, store, _now = lone_node()
    out = node.handle(2, VoteRequest(5, 2, 1, 0, 0, pre_vote=False))
    [send] = [a for a in out if isinstance(a, Send)]
    assert isinstance(send.message, VoteResponse) and send.message.vote_granted
    assert store.read() is not None and (store.read().epoch, store.read().voted_id) == (1, 2)
    out = node.handle(3, VoteRequest(6, 3, 1, 0, 0, pre_vote=False))
    assert not out[-1].message.vote_granted  # type: ignore[union-attr]
    # the vote survives a restart
    restarted = RaftNode(1, (1, 2, 3), MemoryRaftLog(), store, clock=lambda: 0, rng=random.Random(2), config=CFG)
    out = restarted.handle(3, VoteRequest(7, 3, 1, 0, 0, pre_vote=False))
    assert not out[-1].message.vote_granted  # type: ignore[union-attr]


def test_a_pre_vote_changes_nothing_and_a_stale_log_is_refused() -> None:
    node, log, store, _now = lone_node()
    log.append([LogEntry(0, 1, "a"), LogEntry(1, 1, "b")])
    writes = store.writes
    out = node.handle(2, VoteRequest(1, 2, 5, 1, 2, pre_vote=True))
    assert out[-1].message.vote_granted and node.epoch == 0 and store.writes == writes  # type: ignore[union-attr]
    out = node.handle(2, VoteRequest(2, 2, 5, 1, 1, pre_vote=True))  # its log ends before ours
    assert not out[-1].message.vote_granted  # type: ignore[union-attr]
    out = node.handle(2, VoteRequest(3, 2, 5, 0, 9, pre_vote=True))  # longer but an older last epoch
    assert not out[-1].message.vote_granted  # type: ignore[union-attr]


def test_the_leader_answers_a_divergent_fetch_with_the_epoch_end_and_the_follower_truncates_there() -> None:
    leader_log = MemoryRaftLog()
    leader_log.append([LogEntry(o, 1, f"e1-{o}") for o in range(5)] + [LogEntry(o, 3, f"e3-{o}") for o in range(5, 8)])
    assert leader_log.end_offset_for_epoch(2) == OffsetAndEpoch(5, 1)
    assert leader_log.end_offset_for_epoch(3) == OffsetAndEpoch(8, 3)
    assert leader_log.end_offset_for_epoch(0).epoch == -1
    follower_log = MemoryRaftLog()
    follower_log.append(
        [LogEntry(o, 1, f"e1-{o}") for o in range(3)] + [LogEntry(o, 2, f"e2-{o}") for o in range(3, 6)]
    )
    follower_log.flush()
    store = MemoryQuorumStateStore()
    from broker_embedded.raft.storage import ElectionState

    store.write(ElectionState(3, None, 2))
    follower = RaftNode(1, (1, 2, 3), follower_log, store, clock=lambda: 0, rng=random.Random(1), config=CFG)
    [send] = [a for a in follower.start() if isinstance(a, Send)]
    fetch = send.message
    assert isinstance(fetch, FetchRequest) and (fetch.fetch_offset, fetch.last_fetched_epoch) == (6, 2)
    # what a leader with leader_log answers: the end of the largest epoch <= 2 it has
    follower.handle(
        2, FetchResponse(fetch.correlation_id, ErrorCode.NONE, 2, 3, 0, 0, diverging_epoch=OffsetAndEpoch(5, 1))
    )
    assert follower_log.end_offset == 3  # min(5, where epoch 1 ends locally)


def test_the_high_watermark_waits_for_the_leaders_own_epoch_start() -> None:
    """Raft's commitment rule in KRaft's form: entries of older epochs commit only once the new leader's
    LeaderChange (its epoch start) is on a majority."""
    ls = LeaderState(
        epoch_start_offset=10,
        voters=frozenset({1, 2, 3}),
        local_id=1,
        check_quorum_timeout_ms=300,
        check_quorum_deadline_ms=300,
    )
    ls.replicas[2] = ReplicaState(end_offset=10)
    assert ls.compute_high_watermark(11) is None  # offsets < 10 are on a majority, but not the epoch start
    ls.update_replica_end(2, 11)
    assert ls.compute_high_watermark(11) == 11
    ls.update_replica_end(2, 5)  # a reordered, older fetch does not move it back
    assert ls.replicas[2].end_offset == 11


def test_check_quorum_resigns_a_leader_that_hears_from_nobody() -> None:
    node, _log, _store, now = lone_node()
    now[0] = 10_000
    node.tick()  # unattached -> prospective (pre-votes out)
    node.handle(2, VoteResponse(node._correlation - 1, ErrorCode.NONE, None, 0, True, True))
    assert node.role is Role.CANDIDATE
    node.handle(2, VoteResponse(node._correlation - 1, ErrorCode.NONE, None, 1, True, False))
    assert node.role is Role.LEADER
    now[0] += CFG.fetch_timeout_ms * 3 // 2
    node.tick()
    assert node.role is Role.RESIGNED and node.epoch == 1


def test_describe_quorum_reports_voters_and_observers_as_the_leader_sees_them() -> None:
    sim = Simulation(5, SimConfig(nodes=3, observers=1, loss=0.0, duplicate=0.0, vary_raft=False))
    sim.start()
    leader = stable_leader(sim)
    sim.append(leader, "x")
    sim.run_for(200)
    d = sim.raft(leader).describe_quorum()
    end = sim.nodes[leader].log.end_offset
    assert (d.leader_id, d.leader_epoch, d.high_watermark) == (leader, sim.raft(leader).epoch, end)
    assert [r.replica_id for r in d.current_voters] == [1, 2, 3]
    assert [r.replica_id for r in d.observers] == [4]
    assert all(r.log_end_offset == end and r.last_caught_up_timestamp > 0 for r in d.current_voters + d.observers)
    assert applied_values(sim, 4) == ["x"]  # the observer reads the log without voting
    with pytest.raises(NotLeaderError):
        sim.raft(4).describe_quorum()


# ---------------------------------------------------------------- voter changes (KIP-853)


def test_an_observer_added_as_voter_counts_for_the_high_watermark_and_a_removed_one_stops() -> None:
    sim = Simulation(9, SimConfig(nodes=3, observers=1, loss=0.0, duplicate=0.0, vary_raft=False))
    sim.start()
    leader = stable_leader(sim)
    sim.append(leader, "a")
    sim.run_for(200)
    r = sim.raft(leader)
    _offset, actions = r.add_voter(4)
    sim._process(sim.nodes[leader], actions)
    with pytest.raises(VoterChangeError, match="REQUEST_TIMED_OUT"):
        r.add_voter(4)  # the first change is not committed yet: one at a time
    sim.run_for(300)
    for i in sim.nodes:
        assert sim.raft(i).voters == {1, 2, 3, 4}
    assert sim.raft(4).is_voter
    with pytest.raises(VoterChangeError, match="DUPLICATE_VOTER"):
        r.add_voter(4)
    # with 4 voters a majority is 3: the leader plus one follower no longer commit
    others = [i for i in (1, 2, 3, 4) if i != leader]
    sim.crash(others[0])
    sim.crash(others[1])
    sim.append(leader, "needs-three")
    sim.run_for(100)
    assert "needs-three" not in applied_values(sim, leader)
    sim.restart(others[0])
    sim.run_for(500)
    assert "needs-three" in applied_values(sim, leader)
    _offset, actions = sim.raft(leader).remove_voter(others[1])
    sim._process(sim.nodes[leader], actions)
    sim.run_for(300)
    assert sim.raft(leader).voters == frozenset({1, 2, 3, 4}) - {others[1]}
    with pytest.raises(VoterChangeError, match="VOTER_NOT_FOUND"):
        sim.raft(leader).remove_voter(others[1])
    sim.restart(others[1])
    sim.run_for(500)
    assert not sim.raft(others[1]).is_voter and applied_values(sim, others[1]) == applied_values(sim, leader)
    sim.check_final()


def test_a_leader_that_removes_itself_resigns_once_committed_and_keeps_reading_as_an_observer() -> None:
    sim = quiet_cluster(3, seed=12)
    old = stable_leader(sim)
    epoch = sim.raft(old).epoch
    sim.append(old, "a")
    sim.run_for(200)
    _offset, actions = sim.raft(old).remove_voter(old)
    sim._process(sim.nodes[old], actions)
    sim.run_for(1500)
    [new] = sim.leaders()
    assert new != old and sim.raft(new).epoch > epoch
    assert sim.raft(new).voters == frozenset({1, 2, 3}) - {old}
    assert not sim.raft(old).is_voter and sim.raft(old).leader_id == new
    sim.append(new, "b")
    sim.run_for(300)
    assert applied_values(sim, old) == ["a", "b"]
    sim.check_final()


def test_a_snapshot_carries_the_voter_set_across_a_restart() -> None:
    sim = Simulation(13, SimConfig(nodes=3, observers=1, loss=0.0, duplicate=0.0, vary_raft=False))
    sim.start()
    leader = stable_leader(sim)
    sim.append(leader, "a")
    sim.run_for(200)
    _offset, actions = sim.raft(leader).add_voter(4)
    sim._process(sim.nodes[leader], actions)
    sim.append(leader, "b")
    sim.run_for(300)
    follower = next(i for i in (1, 2, 3) if i != leader)
    sim.snapshot(follower)
    assert sim.nodes[follower].log.start_offset == sim.nodes[follower].log.end_offset  # all in the snapshot
    sim.crash(follower)
    sim.restart(follower)
    assert sim.raft(follower).voters == {1, 2, 3, 4}
    assert applied_values(sim, follower) == ["a", "b"]


def test_a_voter_whose_epoch_ran_ahead_of_the_leader_rejoins_through_one_real_election() -> None:
    """A candidacy whose votes were all lost leaves a voter one epoch above a working leader. Followers refuse its
    pre-votes and their answers come from a lower epoch, so it stands for real once and the quorum reunites."""
    from broker_embedded.raft.storage import ElectionState

    sim = quiet_cluster(3, seed=21)
    leader = stable_leader(sim)
    epoch = sim.raft(leader).epoch
    sim.append(leader, "a")
    sim.run_for(200)
    ahead = next(i for i in sim.nodes if i != leader)
    sim.crash(ahead)
    sim.nodes[ahead].store.write(ElectionState(epoch + 1, ahead, None))  # the lost candidacy, as persisted
    sim.restart(ahead)
    sim.run_for(2000)
    [new] = sim.leaders()
    assert sim.raft(new).epoch >= epoch + 2
    assert all(sim.raft(i).leader_id == new and sim.raft(i).epoch == sim.raft(new).epoch for i in sim.nodes)
    sim.append(new, "b")
    sim.run_for(300)
    for i in sim.nodes:
        assert applied_values(sim, i) == ["a", "b"]
    sim.check_final()


def test_the_leader_counts_only_its_flushed_offset_toward_the_high_watermark() -> None:
    """With one follower cut off, an entry on the leader (not yet fsynced) and on the other follower is not
    committed: the leader could lose it in a crash and then vote for the cut-off follower."""
    import dataclasses

    raft = dataclasses.replace(SIM_RAFT_CONFIG, flush_linger_ms=60)
    sim = Simulation(17, SimConfig(nodes=3, loss=0.0, duplicate=0.0, vary_raft=False, raft=raft))
    sim.start()
    leader = stable_leader(sim)
    f1, f2 = sorted(set(sim.nodes) - {leader})
    sim.isolate(f2)
    sim.append(leader, "v")
    sim.run_for(30)  # f1 has fetched it and reported its end offset; the leader has not fsynced yet
    assert sim.nodes[f1].log.end_offset == sim.nodes[leader].log.end_offset
    assert sim.nodes[leader].log.flushed_offset < sim.nodes[leader].log.end_offset
    assert "v" not in applied_values(sim, leader)
    sim.run_for(60)  # the linger passes: flushed, counted, committed
    assert "v" in applied_values(sim, leader)


def test_a_fetch_with_a_stale_high_watermark_is_answered_at_once_else_parked() -> None:
    """KIP-1166: a caught-up fetcher whose high watermark is behind the leader's gets it now, not after
    fetch_max_wait; one that knows the leader's high watermark is parked (the long poll)."""
    sim = quiet_cluster()
    leader = stable_leader(sim)
    sim.append(leader, "x")
    sim.run_for(500)
    node = sim.raft(leader)
    end, hw = node.log.end_offset, node.high_watermark
    assert hw == end > 0

    def answers(known_hw: int | None, corr: int) -> list[FetchResponse]:
        req = FetchRequest(corr, 99, node.epoch, end, node.log.last_epoch, 10, high_watermark=known_hw)
        out = [a.message for a in node.handle(99, req) if isinstance(a, Send) and a.destination == 99]
        return [m for m in out if isinstance(m, FetchResponse)]

    [now] = answers(hw - 1, 10**9)
    assert now.high_watermark == hw and not now.records
    assert answers(hw, 10**9 + 1) == []  # parked
    assert answers(None, 10**9 + 2) == []  # an older fetcher that sends none: parked as before
