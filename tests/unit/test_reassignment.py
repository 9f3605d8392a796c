"""Partition reassignment in the controller (sans-IO): Kafka's stages, cancel and errors
(ReplicationControlManager / PartitionReassignmentReplicas / PartitionReassignmentRevert)."""

from __future__ import annotations

from pathlib import Path

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.reassignment import (
    ReassignmentReplicas,
    alter_partition_reassignments,
    list_partition_reassignments,
    maybe_complete,
)
from broker_embedded.controller.state import ControllerState
from kafka_wire.errors import ErrorCode


def make(tmp_path: Path, **configs: object) -> ControllerState:
    s = ControllerState(BrokerConfig(dict(configs)), tmp_path)
    for b in (1, 2, 3, 4):
        s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc-{b}")
    return s


def codes(results: dict[str, list[tuple[int, int, str | None]]]) -> dict[str, list[tuple[int, int]]]:
    return {t: [(p, c) for p, c, _ in rs] for t, rs in results.items()}


def test_merged_replicas_as_kafka_computes_them() -> None:
    move = ReassignmentReplicas.of([1, 2], [2, 3])
    assert (move.replicas, move.adding, move.removing) == ([2, 3, 1], [3], [1])
    assert move.completed([1, 2]) is None  # 3 not in sync yet
    assert move.completed([1, 2, 3]) == ([2, 3], [2, 3])
    reorder = ReassignmentReplicas.of([1, 2], [2, 1])
    assert not reorder.in_progress and reorder.completed([1, 2]) is None


def test_move_adds_then_completes_when_the_new_replica_joins_the_isr(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, [[1, 2]])
    p = t.partitions[0]
    epoch = p.leader_epoch
    results, changed = alter_partition_reassignments(s, [("t", [(0, [2, 3])])])
    assert codes(results) == {"t": [(0, 0)]} and changed
    # stage 1: target + removing, leader unchanged, no leader epoch bump
    assert (p.replicas, p.adding_replicas, p.removing_replicas, p.leader) == ([2, 3, 1], [3], [1], 1)
    assert p.leader_epoch == epoch
    assert list_partition_reassignments(s, None) == [("t", [(0, [2, 3, 1], [3], [1])])]
    assert list_partition_reassignments(s, [("t", [1, 0]), ("nope", [0])]) == [("t", [(0, [2, 3, 1], [3], [1])])]
    # the leader adds 3 to the ISR: the reassignment completes, the removed leader hands over
    s.alter_partition(1, "t", 0, p.leader_epoch, [1, 2, 3], p.partition_epoch)
    assert maybe_complete(s, p)
    assert (p.replicas, sorted(p.isr), p.adding_replicas, p.removing_replicas) == ([2, 3], [2, 3], [], [])
    assert p.leader == 2 and p.leader_epoch == epoch + 1
    assert list_partition_reassignments(s, None) == []


def test_reorder_or_shrink_of_in_sync_replicas_completes_at_once(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, [[1, 2, 3]])
    p = t.partitions[0]
    epoch = p.leader_epoch
    alter_partition_reassignments(s, [("t", [(0, [3, 2])])])
    assert (p.replicas, sorted(p.isr), p.adding_replicas, p.removing_replicas) == ([3, 2], [2, 3], [], [])
    assert p.leader == 3 and p.leader_epoch == epoch + 1  # leader 1 removed: the first in-sync target leads


def test_cancel_reverts_and_errors(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, [[1, 2], [2, 1]])
    p = t.partitions[0]
    alter_partition_reassignments(s, [("t", [(0, [3, 4])])])
    assert (p.replicas, p.adding_replicas, p.removing_replicas) == ([3, 4, 1, 2], [3, 4], [1, 2])
    results, changed = alter_partition_reassignments(
        s,
        [
            ("t", [(0, None), (1, None), (2, [1]), (1, []), (1, [1, 5]), (1, [2, 2])]),
            ("missing", [(0, [1])]),
        ],
    )
    assert changed
    assert codes(results) == {
        "t": [
            (0, 0),
            (1, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS),
            (2, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
            (1, ErrorCode.INVALID_REPLICA_ASSIGNMENT),
            (1, ErrorCode.INVALID_REPLICA_ASSIGNMENT),
            (1, ErrorCode.INVALID_REPLICA_ASSIGNMENT),
        ],
        "missing": [(0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)],
    }
    messages = [m for _, _, m in results["t"]]
    assert messages[1] == "No partition reassignment is in progress for this topic or partition."
    assert messages[3] == "The manual partition assignment includes an empty replica list."
    assert messages[4] == "The manual partition assignment includes broker 5, but no such broker is registered."
    assert messages[5] == "The manual partition assignment includes the broker 2 more than once."
    assert (p.replicas, p.adding_replicas, p.removing_replicas, p.leader) == ([1, 2], [], [], 1)
    assert list_partition_reassignments(s, None) == []


def test_a_new_target_during_a_move_is_relative_to_the_merged_list(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, [[1, 2]])
    p = t.partitions[0]
    alter_partition_reassignments(s, [("t", [(0, [2, 3])])])
    alter_partition_reassignments(s, [("t", [(0, [3, 4])])])
    assert (p.replicas, p.adding_replicas, p.removing_replicas) == ([3, 4, 1, 2], [4], [1, 2])


def test_revert_needing_an_unclean_election_is_refused(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, [[1]])
    p = t.partitions[0]
    alter_partition_reassignments(s, [("t", [(0, [2])])])
    # the new replica joins the ISR but the old one has left it (say it fell behind): only 2 in sync
    p.isr = [2]
    results, _ = alter_partition_reassignments(s, [("t", [(0, None)])])
    assert codes(results) == {"t": [(0, ErrorCode.INVALID_REPLICA_ASSIGNMENT)]}
    assert results["t"][0][2] == (
        "Unable to revert partition assignment for t:0 because it would require an unclean leader election."
    )


def test_reassignment_state_is_persisted(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.create_topic("t", -1, -1, {}, [[1, 2]])
    alter_partition_reassignments(s, [("t", [(0, [2, 3])])])
    s.save()
    again = ControllerState(BrokerConfig({}), tmp_path)
    p = again.topics["t"].partitions[0]
    assert (p.replicas, p.adding_replicas, p.removing_replicas) == ([2, 3, 1], [3], [1])
