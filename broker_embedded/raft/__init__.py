"""KRaft's consensus core, sans-IO (DESIGN.md §7): `RaftNode` takes received messages, clock ticks and
appends and returns actions; storage is injected. The metadata image and its records belong in
`controller/` on top of it; sockets stay outside both. `testsupport/raft_sim.py` drives it deterministically."""

from broker_embedded.raft.messages import (
    Apply,
    LeaderChange,
    LoadSnapshot,
    LogEntry,
    OffsetAndEpoch,
    Send,
)
from broker_embedded.raft.node import NotLeaderError, RaftConfig, RaftNode, VoterChangeError
from broker_embedded.raft.quorum import Role
from broker_embedded.raft.storage import ElectionState, MemoryQuorumStateStore, MemoryRaftLog

__all__ = [
    "Apply",
    "ElectionState",
    "LeaderChange",
    "LoadSnapshot",
    "LogEntry",
    "MemoryQuorumStateStore",
    "MemoryRaftLog",
    "NotLeaderError",
    "OffsetAndEpoch",
    "RaftConfig",
    "RaftNode",
    "Role",
    "Send",
    "VoterChangeError",
]
