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
