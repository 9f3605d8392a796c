"""ElectLeaders (API 43) in the controller: preferred and unclean elections on request.

Sans-IO over :class:`ControllerState` (the caller saves and pushes the image when something
changed). Kafka's rules (ReplicationControlManager.electLeader, PartitionChangeBuilder):

- PREFERRED (0): ELECTION_NOT_NEEDED when the first replica already leads; it takes over when it is
  live and in the ISR; otherwise, when the current leader is still a valid leader nothing changes
  and the answer is PREFERRED_LEADER_NOT_AVAILABLE (a leaderless partition gets the next live ISR
  member, as a clean election would).
- UNCLEAN (1): ELECTION_NOT_NEEDED when the partition has a leader; otherwise a live ISR member, else
  any live replica (the ISR restarts as that replica alone: records may be lost), else
  ELIGIBLE_LEADERS_NOT_AVAILABLE.
- An unknown topic or partition: UNKNOWN_TOPIC_OR_PARTITION. ``partitions=None`` elects for every
  partition of every topic and leaves out those answering ELECTION_NOT_NEEDED.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping

from broker_embedded.controller.state import NO_LEADER, ControllerState, PartitionRecord, TopicRecord
from kafka_wire.errors import ErrorCode

log = logging.getLogger(__name__)

PREFERRED = 0
UNCLEAN = 1

# Kafka's default messages of these errors (Errors.java): the admin client builds its exception from them
MESSAGES: dict[int, str] = {
    ErrorCode.ELECTION_NOT_NEEDED: "Leader election not needed for topic partition.",
    ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE: "The preferred leader was not available.",
    ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE: "Eligible topic partition leaders are not available.",
}

# (partition, error code, message) per topic, in request order
ElectionResults = dict[str, list[tuple[int, int, str | None]]]


def elect_leaders(
    state: ControllerState, election_type: int, partitions: Mapping[str, Iterable[int]] | None
) -> tuple[ElectionResults, bool]:
    """Run the elections; returns the results and whether any partition changed (then save + push)."""
    if election_type not in (PREFERRED, UNCLEAN):
        raise ValueError(f"Unknown election type {election_type}")
    results: ElectionResults = {}
    changed = False
    if partitions is None:
        for topic in state.topics.values():
            for p in topic.partitions:
                code, message, moved = _elect_one(state, topic, p, election_type)
                changed |= moved
                if code != ErrorCode.ELECTION_NOT_NEEDED:
                    results.setdefault(topic.name, []).append((p.partition, code, message))
        return results, changed
    for name, indexes in partitions.items():
        out = results.setdefault(name, [])
        named = state.topics.get(name)
        for index in indexes:
            if named is None:
                out.append((index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {name}"))
                continue
            if not 0 <= index < len(named.partitions):
                out.append((index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {name}-{index}"))
                continue
            code, message, moved = _elect_one(state, named, named.partitions[index], election_type)
            changed |= moved
            out.append((index, code, message))
    return results, changed


def _elect_one(
    state: ControllerState, topic: TopicRecord, p: PartitionRecord, election_type: int
) -> tuple[int, str | None, bool]:
    """(error code, message, changed) for one partition."""
    if election_type == PREFERRED:
        if p.replicas and p.leader == p.replicas[0]:
            return _error(ErrorCode.ELECTION_NOT_NEEDED)
        leader = _preferred_choice(state, p)
        if leader == p.leader:
            return _error(ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE)
        state._set(p, leader, p.isr)
        return ErrorCode.NONE, None, True
    if p.leader != NO_LEADER:
        return _error(ErrorCode.ELECTION_NOT_NEEDED)
    for r in p.replicas:
        if r in p.isr and state.is_live(r):
            state._set(p, r, p.isr)
            return ErrorCode.NONE, None, True
    for r in p.replicas:
        if state.is_live(r):
            log.warning(
                "unclean leader election (ElectLeaders) of %s-%d: broker %d was not in the ISR %s; records may be lost",
                topic.name,
                p.partition,
                r,
                p.isr,
            )
            state._set(p, r, [r])
            return ErrorCode.NONE, None, True
    return _error(ErrorCode.ELIGIBLE_LEADERS_NOT_AVAILABLE)


def _preferred_choice(state: ControllerState, p: PartitionRecord) -> int:
    """Kafka's electPreferredLeader: the first replica if valid, else keep a valid current leader,
    else the next valid replica; valid = live and in the ISR."""

    def valid(r: int) -> bool:
        return r != NO_LEADER and r in p.isr and state.is_live(r)

    if valid(p.replicas[0]):
        return p.replicas[0]
    if valid(p.leader):
        return p.leader
    for r in p.replicas[1:]:
        if valid(r):
            return r
    return NO_LEADER


def _error(code: int) -> tuple[int, str | None, bool]:
    return code, MESSAGES.get(code), False


# --- auto.leader.rebalance.enable ------------------------------------------------------------------

# Kafka's QuorumController: at most this many preferred elections per balance run; more waiting
# reschedules the next run almost at once (10 ms) instead of one check interval later
MAX_ELECTIONS_PER_IMBALANCE = 1000
IMMEDIATE_DELAY_MS = 10


def imbalanced(state: ControllerState) -> bool:
    """Whether some partition is not led by its preferred (first) replica."""
    return any(p.replicas and p.leader != p.replicas[0] for t in state.topics.values() for p in t.partitions)


def balance_partition_leaders(
    state: ControllerState, max_elections: int = MAX_ELECTIONS_PER_IMBALANCE
) -> tuple[int, bool]:
    """One balance run (Kafka's ReplicationControlManager.maybeBalancePartitionLeaders): a preferred
    election for each imbalanced partition whose preferred replica is live and in the ISR.
    Returns (leaders moved, more remain: run again at once)."""
    moved = 0
    for topic in state.topics.values():
        for p in topic.partitions:
            if not p.replicas or p.leader == p.replicas[0]:
                continue
            if moved >= max_elections:
                return moved, True
            leader = _preferred_choice(state, p)
            if leader != p.leader:
                state._set(p, leader, p.isr)
                moved += 1
    return moved, False


class LeaderBalanceSchedule:
    """When the controller runs its automatic preferred-leader balance (Kafka 4's QuorumController;
    ``leader.imbalance.per.broker.percentage`` is gone from Kafka 4: any imbalanced partition counts).

    Sans-IO on an injected millisecond clock. After each metadata change the controller calls
    :meth:`maybe_schedule`; when nothing is scheduled and some partition is imbalanced, a run is due
    ``leader.imbalance.check.interval.seconds`` later (10 ms later when the previous run stopped at
    its election limit). :meth:`run_if_due` runs it and clears the schedule.
    """

    def __init__(
        self, check_interval_ms: int, clock: Callable[[], int], max_elections: int = MAX_ELECTIONS_PER_IMBALANCE
    ) -> None:
        if check_interval_ms <= 0:
            raise ValueError(f"leader.imbalance.check.interval.seconds must be positive, got {check_interval_ms} ms")
        self.check_interval_ms = check_interval_ms
        self.clock = clock
        self.max_elections = max_elections
        self.next_due_ms: int | None = None
        self._immediately = False

    def maybe_schedule(self, state: ControllerState) -> bool:
        """Schedule a run if none is and the state is imbalanced; True when one is scheduled."""
        if self.next_due_ms is None and imbalanced(state):
            delay = IMMEDIATE_DELAY_MS if self._immediately else self.check_interval_ms
            self.next_due_ms = self.clock() + delay
        return self.next_due_ms is not None

    def ms_until_due(self) -> int | None:
        return None if self.next_due_ms is None else max(0, self.next_due_ms - self.clock())

    def run_if_due(self, state: ControllerState) -> int:
        """Run the balance when due; returns how many leaders moved (the caller saves and pushes)."""
        if self.next_due_ms is None or self.clock() < self.next_due_ms:
            return 0
        self.next_due_ms = None
        moved, self._immediately = balance_partition_leaders(state, self.max_elections)
        if moved:
            log.info("automatic preferred leader balance moved %d partition(s)", moved)
        return moved
