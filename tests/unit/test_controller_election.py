"""ElectLeaders in the controller (sans-IO): Kafka's answers for preferred and unclean elections."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.election import PREFERRED, UNCLEAN, elect_leaders
from broker_embedded.controller.state import NO_LEADER, ControllerState
from kafka_wire.errors import ErrorCode

NOT_NEEDED = ErrorCode.ELECTION_NOT_NEEDED


def make(tmp_path: Path) -> ControllerState:
    s = ControllerState(BrokerConfig({}), tmp_path)
    for b in (1, 2, 3):
        s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc-{b}")
    return s


def codes(results: dict[str, list[tuple[int, int, str | None]]]) -> dict[str, list[tuple[int, int]]]:
    return {t: [(p, c) for p, c, _ in rs] for t, rs in results.items()}


def test_preferred_leader_moves_back_after_a_restart(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", 3, 3, {})
    p0 = t.partitions[0]
    preferred = p0.replicas[0]
    assert codes(elect_leaders(s, PREFERRED, {"t": [0]})[0]) == {"t": [(0, NOT_NEEDED)]}
    s.fence_broker(preferred)  # leadership moves away
    assert p0.leader != preferred and preferred not in p0.isr
    # down and out of the ISR: the current leader stays
    results, changed = elect_leaders(s, PREFERRED, {"t": [0]})
    assert codes(results) == {"t": [(0, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE)]} and not changed
    assert results["t"][0][2] == "The preferred leader was not available."
    s.unfence(preferred)
    # live again but not yet back in the ISR: still not available
    assert codes(elect_leaders(s, PREFERRED, {"t": [0]})[0]) == {"t": [(0, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE)]}
    p0.isr.append(preferred)  # the leader's AlterPartition after the follower caught up
    epoch = p0.leader_epoch
    results, changed = elect_leaders(s, PREFERRED, None)
    # all partitions: only those that needed an election are listed
    assert changed and codes(results) == {"t": [(0, ErrorCode.NONE)]}
    assert p0.leader == preferred and p0.leader_epoch == epoch + 1
    assert elect_leaders(s, PREFERRED, None) == ({}, False)


def test_unknown_topics_and_partitions(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.create_topic("t", 1, 3, {})
    results, changed = elect_leaders(s, PREFERRED, {"t": [0, 5], "nope": [0]})
    assert not changed
    assert results == {
        "t": [
            (0, NOT_NEEDED, "Leader election not needed for topic partition."),
            (5, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as t-5"),
        ],
        "nope": [(0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope")],
    }
    with pytest.raises(ValueError):
        elect_leaders(s, 2, None)


def test_unclean_election_of_an_offline_partition(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("u", 1, 2, {})
    p = t.partitions[0]
    a, b = p.replicas
    assert codes(elect_leaders(s, UNCLEAN, {"u": [0]})[0]) == {"u": [(0, NOT_NEEDED)]}
    s.fence_broker(b)  # b leaves the ISR
    s.fence_broker(a)  # a is the last ISR member: the partition goes offline, a stays in the ISR
    assert p.leader == NO_LEADER and p.isr == [a]
    assert codes(elect_leaders(s, UNCLEAN, {"u": [0]})[0]) == {"u": [(0, ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE)]}
    assert codes(elect_leaders(s, PREFERRED, {"u": [0]})[0]) == {"u": [(0, ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE)]}
    s.unfence(b)  # only the out-of-sync replica is back: a clean election cannot use it
    assert p.leader == NO_LEADER
    results, changed = elect_leaders(s, UNCLEAN, {"u": [0]})
    assert changed and codes(results) == {"u": [(0, ErrorCode.NONE)]}
    assert p.leader == b and p.isr == [b]


# --- auto.leader.rebalance.enable on a fake clock ---------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000

    def __call__(self) -> int:
        return self.ms


def moved_away(s: ControllerState, topic: str) -> list[int]:
    """Leadership of every partition on its second replica, the ISR full (as after a restart of the
    preferred replicas once they caught up)."""
    for p in s.topics[topic].partitions:
        s._set(p, p.replicas[1], list(p.replicas))
    return [p.partition for p in s.topics[topic].partitions if p.leader != p.replicas[0]]


def test_balance_runs_one_interval_after_an_imbalance(tmp_path: Path) -> None:
    from broker_embedded.controller.election import LeaderBalanceSchedule, imbalanced

    s = make(tmp_path)
    s.create_topic("t", 3, 3, {})
    clock = Clock()
    schedule = LeaderBalanceSchedule(300_000, clock)
    assert not schedule.maybe_schedule(s) and schedule.ms_until_due() is None  # balanced: nothing to do
    assert moved_away(s, "t") == [0, 1, 2] and imbalanced(s)
    assert schedule.maybe_schedule(s) and schedule.next_due_ms == 1_000 + 300_000
    clock.ms += 120_000
    assert schedule.maybe_schedule(s) and schedule.next_due_ms == 301_000  # not pushed back by later changes
    clock.ms = 300_999
    assert schedule.run_if_due(s) == 0 and schedule.ms_until_due() == 1
    clock.ms = 301_000
    assert schedule.run_if_due(s) == 3
    assert all(p.leader == p.replicas[0] for p in s.topics["t"].partitions)
    assert schedule.ms_until_due() is None and not schedule.maybe_schedule(s)


def test_balance_skips_preferred_replicas_not_in_the_isr_and_waits_a_full_interval_again(tmp_path: Path) -> None:
    from broker_embedded.controller.election import LeaderBalanceSchedule

    s = make(tmp_path)
    p = s.create_topic("t", 1, 3, {}).partitions[0]
    preferred = p.replicas[0]
    s.fence_broker(preferred)
    s.unfence(preferred)  # live again, not yet back in the ISR
    clock = Clock()
    schedule = LeaderBalanceSchedule(5_000, clock)
    assert schedule.maybe_schedule(s)
    clock.ms += 5_000
    assert schedule.run_if_due(s) == 0 and p.leader != preferred
    assert schedule.maybe_schedule(s) and schedule.ms_until_due() == 5_000  # deferred: one interval
    p.isr.append(preferred)
    clock.ms += 5_000
    assert schedule.run_if_due(s) == 1 and p.leader == preferred


def test_balance_stops_at_its_election_limit_and_goes_on_at_once(tmp_path: Path) -> None:
    from broker_embedded.controller.election import IMMEDIATE_DELAY_MS, LeaderBalanceSchedule

    s = make(tmp_path)
    s.create_topic("t", 6, 3, {})
    assert len(moved_away(s, "t")) == 6
    clock = Clock()
    schedule = LeaderBalanceSchedule(60_000, clock, max_elections=4)
    schedule.maybe_schedule(s)
    clock.ms += 60_000
    assert schedule.run_if_due(s) == 4
    assert schedule.maybe_schedule(s) and schedule.ms_until_due() == IMMEDIATE_DELAY_MS
    clock.ms += IMMEDIATE_DELAY_MS
    assert schedule.run_if_due(s) == 2
    assert not schedule.maybe_schedule(s)
    with pytest.raises(ValueError):
        LeaderBalanceSchedule(0, clock)
