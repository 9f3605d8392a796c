"""The roles a KRaft voter moves through (QuorumState's states) and what each remembers: every role knows
its epoch, the vote it cast in that epoch and the leader it knows for it; the rest is per role (timers,
votes collected, the leader's view of its followers)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from broker_embedded.raft.messages import FetchRequest, OffsetAndEpoch


class Role(enum.Enum):
    UNATTACHED = "unattached"
    PROSPECTIVE = "prospective"  # KIP-996: asking for pre-votes, epoch unchanged
    CANDIDATE = "candidate"
    LEADER = "leader"
    FOLLOWER = "follower"
    RESIGNED = "resigned"


@dataclass
class RoleState:
    role: Role
    epoch: int
    voted_id: int | None
    leader_id: int | None
    # when an unattached/prospective/candidate/resigned voter next starts (or restarts) an election
    election_deadline_ms: int = 0
    # prospective and candidate: the votes asked for in this round (correlation id -> voter) and the answers
    outstanding: dict[int, int] = field(default_factory=dict)
    granted: set[int] = field(default_factory=set)
    rejected: set[int] = field(default_factory=set)
    behind: set[int] = field(default_factory=set)  # refusals from voters following a leader of a lower epoch
    # follower
    fetch_deadline_ms: int = 0
    has_fetched: bool = False  # a successful fetch from this epoch's leader: pre-votes are refused (KIP-996)
    inflight_fetch: int | None = None  # correlation id of the one outstanding Fetch / FetchSnapshot
    inflight_sent_ms: int = 0
    next_fetch_ms: int = 0
    fetching_snapshot: OffsetAndEpoch | None = None
    snapshot_buffer: bytearray = field(default_factory=bytearray)
    # leader and resigned: BeginQuorumEpoch / EndQuorumEpoch not yet acknowledged (voter -> last sent)
    unacked: dict[int, int] = field(default_factory=dict)
    preferred_successors: tuple[int, ...] = ()
    leader: LeaderState | None = None


@dataclass
class ReplicaState:
    end_offset: int = -1  # the last validated fetch offset in this epoch (-1: not fetched yet)
    last_fetch_ms: int = -1
    last_caught_up_ms: int = -1  # the last fetch that asked for the leader's end offset


@dataclass(frozen=True)
class ReplicaDescription:
    """One row of DescribeQuorum (API 55): ReplicaId, LogEndOffset, LastFetchTimestamp, LastCaughtUpTimestamp."""

    replica_id: int
    log_end_offset: int
    last_fetch_timestamp: int
    last_caught_up_timestamp: int


@dataclass(frozen=True)
class QuorumDescription:
    """What the leader answers DescribeQuorum with (`kafka-metadata-quorum describe --status/--replication`)."""

    leader_id: int
    leader_epoch: int
    high_watermark: int
    current_voters: tuple[ReplicaDescription, ...]
    observers: tuple[ReplicaDescription, ...]


@dataclass
class ParkedFetch:
    source: int
    request: FetchRequest
    deadline_ms: int


@dataclass
class LeaderState:
    """LeaderState: where each voter's log ends (as its fetches say), the high watermark, check-quorum."""

    epoch_start_offset: int  # offset of this epoch's LeaderChange record: the HW must pass it to move
    voters: frozenset[int]
    local_id: int
    check_quorum_timeout_ms: int
    check_quorum_deadline_ms: int
    replicas: dict[int, ReplicaState] = field(default_factory=dict)
    fetched_voters: set[int] = field(default_factory=set)
    parked: dict[int, ParkedFetch] = field(default_factory=dict)
    flush_deadline_ms: int | None = None

    def majority(self) -> int:
        return len(self.voters) // 2 + 1

    def record_fetch(self, replica_id: int, now_ms: int) -> None:
        """Check-quorum (KIP-595): a majority of voters (the leader counts) must fetch within the timeout."""
        self.replicas.setdefault(replica_id, ReplicaState()).last_fetch_ms = now_ms
        if replica_id in self.voters:
            self.fetched_voters.add(replica_id)
            # the leader counts itself only while it is a voter (KIP-853 lets it remove itself)
            if len(self.fetched_voters | ({self.local_id} & self.voters)) >= self.majority():
                self.fetched_voters.clear()
                self.check_quorum_deadline_ms = now_ms + self.check_quorum_timeout_ms

    def update_replica_end(self, replica_id: int, end_offset: int) -> None:
        r = self.replicas.setdefault(replica_id, ReplicaState())
        # duplicated or reordered fetches must not move a replica backwards (a validated offset stays valid)
        r.end_offset = max(r.end_offset, end_offset)

    def compute_high_watermark(self, local_flushed_offset: int) -> int | None:
        """The largest offset a majority of voters have durably (the leader counts its flushed end), once that
        includes the leader's own epoch start; None while it does not."""
        ends = sorted(
            (local_flushed_offset if v == self.local_id else self.replicas.get(v, ReplicaState()).end_offset)
            for v in self.voters
        )
        candidate = ends[len(ends) - self.majority()]
        return candidate if candidate > self.epoch_start_offset else None
