"""The seeded property test of the Raft core (issue 32): many simulated runs with loss, duplication,
reordering, partitions, crashes, snapshots, observers and (every 4th seed) voter changes, each checking
election safety, log matching, leader completeness, applied-prefix and liveness after healing
(testsupport/raft_sim.py).

A failing seed is printed with its replay; rerun just that one with
    RAFT_SIM_SEED=<seed> .venv/bin/python -m pytest tests/unit/test_raft_sim.py -k replay
and long runs go through `python -m bench.raft_sim --seeds 20000`.
"""

from __future__ import annotations

import os

import pytest

from broker_embedded.raft import node as raft_node
from testsupport.raft_sim import SimConfig, Simulation, SimulationFailure, run_seeds

# Issue 32 asks for thousands of seeds within the CI budget: 2,000 here. Measured: 38 seeds/s with the 2 shared
# cores lightly loaded (~53 s), 12.5 seeds/s at load average 22; the suite's unit run is where its CPU has room
# (session 13). 30,700 seeds have run offline with no failure. Longer runs: python -m bench.raft_sim.
SUITE_SEEDS = int(os.environ.get("RAFT_SIM_SEEDS", "2000"))
CHUNKS = 10


def _run_chunk(seeds: range) -> None:
    failures: list[str] = []
    for seed in seeds:
        try:
            run_seeds([seed])
        except SimulationFailure as e:
            failures.append(str(e))
    assert not failures, f"{len(failures)} failing seed(s); the first:\n{failures[0]}"


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_seeded_runs_keep_every_raft_invariant(chunk: int) -> None:
    per = -(-SUITE_SEEDS // CHUNKS)
    _run_chunk(range(chunk * per, min((chunk + 1) * per, SUITE_SEEDS)))


def test_replay_a_seed() -> None:
    """RAFT_SIM_SEED picks the seed (default 0), configured as in the suite (config_for_seed)."""
    _run_chunk(range(int(os.environ.get("RAFT_SIM_SEED", "0")), int(os.environ.get("RAFT_SIM_SEED", "0")) + 1))


def test_a_seed_replays_exactly() -> None:
    a = Simulation(11, SimConfig(nodes=5)).run()
    b = Simulation(11, SimConfig(nodes=5)).run()
    assert a == b
    assert a.committed > 20 and a.crashes + a.partitions > 0


def test_the_simulator_catches_a_core_that_votes_for_stale_logs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker has teeth: a voter that ignores the candidate's log position loses committed entries."""
    monkeypatch.setattr(raft_node.RaftNode, "_is_log_up_to_date", lambda self, epoch, offset: True)
    caught = []
    for seed in range(40):
        try:
            run_seeds([seed])
        except SimulationFailure as e:
            caught.append(str(e))
            break
    assert caught and ("leader completeness" in caught[0] or "applied" in caught[0]), caught


def test_the_simulator_catches_a_leader_counting_the_old_voter_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """KIP-853: a VotersRecord takes effect on append, so the leader's high watermark must count the new set.
    A leader that keeps counting the old one commits entries held by no majority of the new set, which the
    check at every first commit (durable on a majority of the committing leader's voters) reports."""
    monkeypatch.setattr(raft_node.RaftNode, "_on_voters_changed", lambda self: None)
    caught = []
    for seed in range(3, 80, 4):  # the voter-change seeds
        try:
            run_seeds([seed])
        except SimulationFailure as e:
            caught.append(str(e))
            break
    assert caught and "commit without a majority" in caught[0], caught
