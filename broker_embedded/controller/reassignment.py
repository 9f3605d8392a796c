"""Partition reassignment as Kafka's KRaft controller runs it (AlterPartitionReassignments /
ListPartitionReassignments; ReplicationControlManager, PartitionReassignmentReplicas,
PartitionReassignmentRevert, PartitionChangeBuilder).

Sans-IO over `ControllerState`: the functions change `PartitionRecord`s and say whether anything
changed; the server saves and pushes the image.

The stages of a move (Kafka's):
1. the replica list becomes target + the replicas being removed, with `adding_replicas` /
   `removing_replicas` set; the brokers being added create the partition and fetch from the leader;
2. the leader adds them to the ISR (AlterPartition) once caught up;
3. when the ISR without the removing replicas holds every target replica, the reassignment
   completes: replicas = target, ISR without the removing ones, a new leader when the old one was
   removed, and the leader epoch bumped because replicas left (the removed brokers stop serving the
   partition and delete its log). A reassignment that only reorders or drops in-sync replicas
   completes at once.
A null target cancels: the replicas being added leave, the removing ones stay (a revert that would
need an unclean election is refused unless unclean.leader.election.enable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.controller.state import ControllerState, PartitionRecord, TopicRecord

NO_LEADER = -1
NO_REASSIGNMENT_IN_PROGRESS_MESSAGE = "No partition reassignment is in progress for this topic or partition."

# (partition index, error code, message) per topic
Results = dict[str, list[tuple[int, int, str | None]]]


@dataclass(frozen=True, slots=True)
class ReassignmentReplicas:
    """Kafka's PartitionReassignmentReplicas: the merged replica list of a move and its two sides."""

    replicas: list[int]
    adding: list[int]
    removing: list[int]

    @classmethod
    def of(cls, current: list[int], target: list[int]) -> ReassignmentReplicas:
        removing = sorted(set(current) - set(target))
        adding = sorted(set(target) - set(current))
        return cls(list(target) + removing, adding, removing)

    @property
    def in_progress(self) -> bool:
        return bool(self.adding or self.removing)

    def completed(self, isr: list[int]) -> tuple[list[int], list[int]] | None:
        """(replicas, isr) once the ISR allows completing, else None (maybeCompleteReassignment)."""
        if not self.in_progress:
            return None
        new_isr = [r for r in isr if r not in self.removing]
        new_replicas = [r for r in self.replicas if r not in self.removing]
        if not new_isr or not new_replicas:
            return None
        if not set(new_replicas) <= set(new_isr):
            return None
        return new_replicas, new_isr


def in_progress(p: PartitionRecord) -> bool:
    return bool(p.adding_replicas or p.removing_replicas)


def validate_target(state: ControllerState, target: list[int]) -> None:
    """Kafka's validateManualPartitionAssignment (its messages, INVALID_REPLICA_ASSIGNMENT)."""
    if not target:
        raise KafkaError(
            "The manual partition assignment includes an empty replica list.", ErrorCode.INVALID_REPLICA_ASSIGNMENT
        )
    previous: int | None = None
    for broker in sorted(target):
        if broker not in state.brokers:
            raise KafkaError(
                f"The manual partition assignment includes broker {broker}, but no such broker is registered.",
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            )
        if broker == previous:
            raise KafkaError(
                f"The manual partition assignment includes the broker {broker} more than once.",
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            )
        previous = broker


def _leader_for(state: ControllerState, p: PartitionRecord, replicas: list[int], isr: list[int]) -> int:
    """Kafka's ONLINE election: the current leader when still in the ISR and live, else the first
    live ISR member in replica order."""
    if p.leader in isr and state.is_live(p.leader):
        return p.leader
    for r in replicas:
        if r in isr and state.is_live(r):
            return r
    return NO_LEADER


def _change(
    state: ControllerState,
    p: PartitionRecord,
    replicas: list[int],
    isr: list[int],
    adding: list[int],
    removing: list[int],
    leader: int | None = None,
) -> bool:
    """Apply one PartitionChangeRecord; the complete-if-possible step runs first, as in
    PartitionChangeBuilder.build. Returns whether anything changed."""
    done = ReassignmentReplicas(replicas, adding, removing).completed(isr)
    if done is not None:
        replicas, isr = done
        adding, removing = [], []
    if leader is None:
        leader = _leader_for(state, p, replicas, isr)
    old_replicas = set(p.replicas)
    changed = (replicas, isr, adding, removing, leader) != (
        p.replicas,
        p.isr,
        p.adding_replicas,
        p.removing_replicas,
        p.leader,
    )
    if not changed:
        return False
    # a leader change bumps the leader epoch; so does a replica leaving the list (Kafka's
    # triggerLeaderEpochBumpForReplicaReassignmentIfNeeded), so its fetches are fenced
    if leader != p.leader or not old_replicas <= set(replicas):
        p.leader_epoch += 1
    p.partition_epoch += 1
    p.leader = leader
    p.replicas = list(replicas)
    p.isr = list(isr) if isr else [replicas[0]]
    p.adding_replicas = list(adding)
    p.removing_replicas = list(removing)
    return True


def maybe_complete(state: ControllerState, p: PartitionRecord) -> bool:
    """After an ISR change (AlterPartition): complete the partition's reassignment if it can."""
    if not in_progress(p):
        return False
    return _change(state, p, p.replicas, p.isr, p.adding_replicas, p.removing_replicas)


def _unclean_allowed(state: ControllerState, topic: TopicRecord) -> bool:
    return state._unclean_allowed(topic)


def cancel(state: ControllerState, topic: TopicRecord, p: PartitionRecord) -> bool:
    """Kafka's cancelPartitionReassignment (PartitionReassignmentRevert)."""
    if not in_progress(p):
        raise KafkaError(NO_REASSIGNMENT_IN_PROGRESS_MESSAGE, ErrorCode.NO_REASSIGNMENT_IN_PROGRESS)
    replicas = [r for r in p.replicas if r not in p.adding_replicas]
    isr = [r for r in p.isr if r not in p.adding_replicas]
    if not isr:
        if not _unclean_allowed(state, topic):
            raise KafkaError(
                f"Unable to revert partition assignment for {topic.name}:{p.partition} because it would "
                "require an unclean leader election.",
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            )
        isr = [replicas[0]]
    leader = _leader_for(state, p, replicas, isr)
    if leader == NO_LEADER and _unclean_allowed(state, topic):
        live = [r for r in replicas if state.is_live(r)]
        if live:
            leader, isr = live[0], [live[0]]
    return _change(state, p, replicas, isr, [], [], leader)


def change(state: ControllerState, p: PartitionRecord, target: list[int]) -> bool:
    """Kafka's changePartitionReassignment: the target relative to the current (possibly merged)
    replica list."""
    validate_target(state, target)
    move = ReassignmentReplicas.of(p.replicas, target)
    return _change(state, p, move.replicas, p.isr, move.adding, move.removing)


def alter_partition_reassignments(
    state: ControllerState, topics: list[tuple[str, list[tuple[int, list[int] | None]]]], allow_rf_change: bool = True
) -> tuple[Results, bool]:
    """AlterPartitionReassignments: per partition an error (or none); whether anything changed."""
    results: Results = {}
    changed = False
    for name, parts in topics:
        out = results.setdefault(name, [])
        for index, target in parts:
            try:
                topic = state.topics.get(name)
                if topic is None:
                    raise KafkaError(f"Unable to find a topic named {name}.", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                if not 0 <= index < len(topic.partitions):
                    raise KafkaError(f"Unable to find partition {name}:{index}.", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                p = topic.partitions[index]
                if target is None:
                    changed |= cancel(state, topic, p)
                else:
                    if not allow_rf_change:
                        original = len([r for r in p.replicas if r not in p.adding_replicas])
                        if len(target) != original:
                            raise KafkaError(
                                f"The replication factor is changed from {original} to {len(target)}",
                                ErrorCode.INVALID_REPLICATION_FACTOR,
                            )
                    changed |= change(state, p, list(target))
            except KafkaError as e:
                out.append((index, int(e.code), str(e)))
                continue
            out.append((index, int(ErrorCode.NONE), None))
    return results, changed


def list_partition_reassignments(
    state: ControllerState, wanted: list[tuple[str, list[int]]] | None
) -> list[tuple[str, list[tuple[int, list[int], list[int], list[int]]]]]:
    """ListPartitionReassignments: (topic, [(index, replicas, adding, removing)]) of the ongoing
    reassignments among `wanted` (None: all); unknown topics and partitions are left out."""
    out = []
    if wanted is None:
        wanted = [(name, list(range(len(t.partitions)))) for name, t in state.topics.items()]
    for name, indexes in wanted:
        topic = state.topics.get(name)
        if topic is None:
            continue
        ongoing = []
        for index in indexes:
            if 0 <= index < len(topic.partitions) and in_progress(topic.partitions[index]):
                p = topic.partitions[index]
                ongoing.append((index, list(p.replicas), list(p.adding_replicas), list(p.removing_replicas)))
        if ongoing:
            out.append((name, ongoing))
    return out
