"""The Raft RPCs as plain dataclasses (named after Kafka's KRaft RPCs and their fields) and the actions the
core hands back to its driver. No encoding here: a socket driver maps these to the wire messages
(Vote = 52, BeginQuorumEpoch = 53, EndQuorumEpoch = 54, Fetch = 1, FetchSnapshot = 59); the simulator
passes them as they are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kafka_wire.errors import ErrorCode


@dataclass(frozen=True, order=True)
class OffsetAndEpoch:
    """Kafka's OffsetAndEpoch: an end offset (exclusive) and the epoch of the entry before it. A snapshot id."""

    offset: int
    epoch: int


@dataclass(frozen=True)
class LogEntry:
    offset: int
    epoch: int
    value: Any
    # KRaft's control records (LeaderChange): written by the leader at the start of its epoch, not user data
    control: bool = False


# --- requests and responses (every one carries a correlation id so duplicates and stale replies are recognised)


@dataclass(frozen=True)
class VoteRequest:
    correlation_id: int
    candidate_id: int
    candidate_epoch: int  # for a pre-vote (KIP-996): the prospective's current epoch (it would campaign in +1)
    last_offset_epoch: int
    last_offset: int  # log end offset
    pre_vote: bool = False


@dataclass(frozen=True)
class VoteResponse:
    correlation_id: int
    error: ErrorCode
    leader_id: int | None
    leader_epoch: int
    vote_granted: bool
    pre_vote: bool = False


@dataclass(frozen=True)
class BeginQuorumEpochRequest:
    correlation_id: int
    leader_id: int
    leader_epoch: int


@dataclass(frozen=True)
class BeginQuorumEpochResponse:
    correlation_id: int
    error: ErrorCode
    leader_id: int | None
    leader_epoch: int


@dataclass(frozen=True)
class EndQuorumEpochRequest:
    correlation_id: int
    leader_id: int
    leader_epoch: int
    preferred_successors: tuple[int, ...] = ()


@dataclass(frozen=True)
class EndQuorumEpochResponse:
    correlation_id: int
    error: ErrorCode
    leader_id: int | None
    leader_epoch: int


@dataclass(frozen=True)
class FetchRequest:
    correlation_id: int
    replica_id: int
    current_leader_epoch: int
    fetch_offset: int
    last_fetched_epoch: int
    max_records: int = 100
    # KIP-1166: the high watermark the fetcher knows (None: not sent). Below the leader's, the fetch is answered
    # at once instead of parked, so a caught-up replica learns a new HW without waiting out fetch_max_wait
    high_watermark: int | None = None


@dataclass(frozen=True)
class FetchResponse:
    correlation_id: int
    error: ErrorCode
    leader_id: int | None
    leader_epoch: int
    high_watermark: int = -1
    log_start_offset: int = 0
    records: tuple[LogEntry, ...] = ()
    # KRaft answers a fetch whose (fetch_offset, last_fetched_epoch) is not on the leader's log with the end
    # offset of the largest epoch <= last_fetched_epoch; the follower truncates there and fetches again
    diverging_epoch: OffsetAndEpoch | None = None
    # the fetch offset is below the leader's log start: fetch this snapshot first (KIP-630)
    snapshot_id: OffsetAndEpoch | None = None


@dataclass(frozen=True)
class FetchSnapshotRequest:
    correlation_id: int
    replica_id: int
    current_leader_epoch: int
    snapshot_id: OffsetAndEpoch
    position: int
    max_bytes: int = 1 << 20


@dataclass(frozen=True)
class FetchSnapshotResponse:
    correlation_id: int
    error: ErrorCode
    leader_id: int | None
    leader_epoch: int
    snapshot_id: OffsetAndEpoch | None = None
    size: int = 0
    position: int = 0
    unaligned_records: bytes = b""


Message = (
    VoteRequest
    | VoteResponse
    | BeginQuorumEpochRequest
    | BeginQuorumEpochResponse
    | EndQuorumEpochRequest
    | EndQuorumEpochResponse
    | FetchRequest
    | FetchResponse
    | FetchSnapshotRequest
    | FetchSnapshotResponse
)


# --- actions out


@dataclass(frozen=True)
class Send:
    destination: int
    message: Message


@dataclass(frozen=True)
class Apply:
    """Entries below the high watermark, in offset order, each handed out once per process lifetime."""

    entries: tuple[LogEntry, ...]


@dataclass(frozen=True)
class LoadSnapshot:
    """Replace the application's state with this snapshot (a follower caught up from the leader's snapshot,
    or a restart found one): every Apply afterwards continues from snapshot_id.offset."""

    snapshot_id: OffsetAndEpoch
    data: bytes


@dataclass(frozen=True)
class LeaderChange:
    """KRaft's handleLeaderChange: the node learned (or lost) the leader of an epoch. leader_id is None when
    the epoch has no known leader (yet)."""

    epoch: int
    leader_id: int | None


Action = Send | Apply | LoadSnapshot | LeaderChange
