"""A KRaft voter as a sans-IO state machine (what KafkaRaftClient does, minus the sockets and threads).

Three kinds of input: `handle(source, message)` for a received request or response, `tick()` when the
injected clock passes `next_deadline_ms()`, `append(values)` from the application on the leader. Each returns
the actions to carry out, in order (Send, Apply, LoadSnapshot, LeaderChange). Durable state goes through the
injected QuorumStateStore (written before any vote or epoch change leaves this node) and RaftLog.

Behaviour follows KIP-595 (Vote, BeginQuorumEpoch, EndQuorumEpoch, pull replication by Fetch with
diverging-epoch truncation, HW = majority of voters' fetch offsets once past the epoch start), KIP-630
(snapshots, FetchSnapshot when a fetch falls below the leader's log start) and KIP-996 (pre-vote: a
prospective keeps its epoch until a majority would vote for it; followers that hear from their leader refuse
pre-votes; check-quorum makes a leader that no longer hears from a majority resign) and KIP-853 (the voter
set is whatever the latest VotersRecord in the log says; AddRaftVoter / RemoveRaftVoter one at a time on
the leader; observers fetch without voting)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from broker_embedded.raft.messages import (
    Action,
    Apply,
    BeginQuorumEpochRequest,
    BeginQuorumEpochResponse,
    EndQuorumEpochRequest,
    EndQuorumEpochResponse,
    FetchRequest,
    FetchResponse,
    FetchSnapshotRequest,
    FetchSnapshotResponse,
    LeaderChange,
    LoadSnapshot,
    LogEntry,
    Message,
    OffsetAndEpoch,
    Send,
    VoteRequest,
    VoteResponse,
)
from broker_embedded.raft.quorum import (
    LeaderState,
    QuorumDescription,
    ReplicaDescription,
    ReplicaState,
    Role,
    RoleState,
)
from broker_embedded.raft.replication import Replication
from broker_embedded.raft.storage import ElectionState, QuorumStateStore, RaftLog
from broker_embedded.raft.voters import VoterSetHistory, unwrap_snapshot, voters_record, wrap_snapshot
from kafka_wire.errors import ErrorCode

FAR_FUTURE_MS = 1 << 62


@dataclass(frozen=True)
class RaftConfig:
    """controller.quorum.* settings (Kafka's defaults)."""

    election_timeout_ms: int = 1000  # randomised in [t, 2t)
    election_backoff_max_ms: int = 1000
    fetch_timeout_ms: int = 2000  # a follower that hears nothing for this long stands for election
    fetch_max_wait_ms: int = 500  # the leader parks an empty fetch this long (long poll)
    request_timeout_ms: int = 2000
    retry_backoff_ms: int = 20
    flush_linger_ms: int = 0  # the leader batches appends this long before an fsync (0: flush on append)
    fetch_max_records: int = 100
    snapshot_chunk_bytes: int = 1 << 20


class VoterChangeError(Exception):
    """An AddRaftVoter / RemoveRaftVoter the leader refuses; `error` is the Kafka error name for the wire."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(f"{error}: {message}")
        self.error = error


class NotLeaderError(Exception):
    def __init__(self, leader_id: int | None, epoch: int) -> None:
        super().__init__(f"not the leader (leader {leader_id} in epoch {epoch})")
        self.leader_id = leader_id
        self.epoch = epoch


class RaftNode(Replication):
    def __init__(
        self,
        node_id: int,
        voters: Iterable[int],
        log: RaftLog,
        quorum_store: QuorumStateStore,
        clock: Callable[[], int],
        rng: random.Random,
        config: RaftConfig | None = None,
    ) -> None:
        self.node_id = node_id
        self.log = log
        # the bootstrap voters (controller.quorum.bootstrap.servers' ids), then whatever the log says (KIP-853)
        snap = log.latest_snapshot_id
        base = frozenset(voters)
        if snap is not None:
            raw = log.read_snapshot(snap)
            assert raw is not None
            base = unwrap_snapshot(raw)[0]
        self.voter_history = VoterSetHistory(base)
        self.voter_history.on_append(log.read(log.start_offset, log.end_offset - log.start_offset))
        self.quorum_store = quorum_store
        self.clock = clock
        self.rng = rng
        self.config = config or RaftConfig()
        self._out: list[Action] = []
        self._correlation = 0
        self._persisted: ElectionState | None = quorum_store.read()
        self._notified: tuple[int, int | None] | None = None
        self.high_watermark = snap.offset if snap else 0
        self._applied = log.start_offset  # the next offset to hand to the application
        st = self._persisted or ElectionState(0)
        now = clock()
        # QuorumState.initialize: a node that led its last epoch restarts resigned; one that knew a leader,
        # unattached with that leader known (it follows once the leader's fetch answers or BeginQuorumEpoch
        # come); anything else unattached with its vote kept
        if st.leader_id == node_id:
            self.state = RoleState(Role.RESIGNED, st.epoch, st.voted_id, node_id)
            self.state.election_deadline_ms = now + self._election_timeout()
        elif st.leader_id is not None:
            self.state = self._follower_state(st.epoch, st.leader_id, st.voted_id, now)
        else:
            self.state = RoleState(Role.UNATTACHED, st.epoch, st.voted_id, None)
            self.state.election_deadline_ms = now + (self._election_timeout() if self.can_stand else 0)

    # ------------------------------------------------------------------ public surface

    @property
    def role(self) -> Role:
        return self.state.role

    @property
    def epoch(self) -> int:
        return self.state.epoch

    @property
    def leader_id(self) -> int | None:
        return self.state.leader_id

    @property
    def applied_offset(self) -> int:
        return self._applied

    @property
    def voters(self) -> frozenset[int]:
        return self.voter_history.latest

    @property
    def is_voter(self) -> bool:
        """An observer (a broker reading the metadata log, or a removed voter) fetches but never votes or stands."""
        return self.node_id in self.voter_history.latest

    @property
    def can_stand(self) -> bool:
        """A voter may stand for election; so may a replica whose own removal is the latest, still uncommitted
        change (a leader that removed itself and crashed before the commit: the remaining voters may lack the
        record and need it to lead once, commit the change, and step down). It counts only the new set's votes."""
        if self.is_voter:
            return True
        h = self.voter_history
        return h.last_change_offset >= self.high_watermark and self.node_id in h.voters_at(h.last_change_offset)

    def _votes_needed_from_others(self) -> int:
        return self.majority() - (1 if self.is_voter else 0)

    def majority(self) -> int:
        return len(self.voters) // 2 + 1

    def start(self) -> list[Action]:
        """What the application needs at startup: the snapshot to load and the leader known."""
        snap = self.log.latest_snapshot_id
        if snap is not None:
            raw = self.log.read_snapshot(snap)
            assert raw is not None
            self._out.append(LoadSnapshot(snap, unwrap_snapshot(raw)[1]))
        self._notify_leader()
        if self.state.role is Role.FOLLOWER:
            self._send_fetch(self.clock())
        if self.voters == {self.node_id} and self.state.role is Role.UNATTACHED:
            self._become_prospective(self.clock())
        return self._drain()

    def handle(self, source: int, message: Message) -> list[Action]:
        now = self.clock()
        handler = _HANDLERS.get(type(message))
        if handler is None:
            raise TypeError(f"not a Raft message: {type(message).__name__}")
        handler(self, source, message, now)
        return self._drain()

    def tick(self) -> list[Action]:
        now = self.clock()
        s = self.state
        if s.role is Role.LEADER:
            self._tick_leader(now)
        elif s.role is Role.FOLLOWER:
            if now >= s.fetch_deadline_ms:
                self._become_prospective(now)  # an observer goes looking for the leader instead
            elif s.inflight_fetch is None and now >= s.next_fetch_ms:
                self._send_fetch(now)
            elif s.inflight_fetch is not None and now >= s.inflight_sent_ms + self.config.request_timeout_ms:
                self._send_fetch(now)  # the answer was lost: ask again (a late one is ignored)
        elif s.role is Role.CANDIDATE:
            if now >= s.election_deadline_ms:
                self._become_prospective(now)  # KIP-996: a candidate that did not win goes back to pre-voting
        elif s.role is Role.RESIGNED:
            if now >= s.election_deadline_ms:
                self._become_prospective(now)
            else:
                self._resend_unacked(now, self._end_quorum_epoch_request)
        elif now >= s.election_deadline_ms:  # unattached, prospective
            if not self.can_stand:
                self._discover_leader(now)
            elif s.role is Role.PROSPECTIVE and s.leader_id is not None:
                self._become_follower(s.epoch, s.leader_id, now)
            else:
                self._become_prospective(now)
        return self._drain()

    def next_deadline_ms(self) -> int:
        s = self.state
        if s.role is Role.LEADER:
            ls = s.leader
            assert ls is not None
            d = ls.check_quorum_deadline_ms if self.voters != {self.node_id} else FAR_FUTURE_MS
            if ls.flush_deadline_ms is not None:
                d = min(d, ls.flush_deadline_ms)
            for p in ls.parked.values():
                d = min(d, p.deadline_ms)
            if s.unacked:
                d = min(d, min(s.unacked.values()) + self.config.request_timeout_ms)
            return d
        if s.role is Role.FOLLOWER:
            if s.inflight_fetch is None:
                return min(s.fetch_deadline_ms, s.next_fetch_ms)
            return min(s.fetch_deadline_ms, s.inflight_sent_ms + self.config.request_timeout_ms)
        if s.role is Role.RESIGNED and s.unacked:
            return min(s.election_deadline_ms, min(s.unacked.values()) + self.config.request_timeout_ms)
        return s.election_deadline_ms

    def append(self, values: Iterable[Any]) -> tuple[int, list[Action]]:
        """Append on the leader; returns the offset of the last value. Committed once the HW passes it."""
        s = self.state
        if s.role is not Role.LEADER:
            raise NotLeaderError(s.leader_id, s.epoch)
        now = self.clock()
        start = self.log.end_offset
        entries = [LogEntry(start + i, s.epoch, v) for i, v in enumerate(values)]
        if not entries:
            return start - 1, self._drain()
        self._leader_append(entries, now)
        return entries[-1].offset, self._drain()

    def create_snapshot(self, offset: int, data: bytes) -> OffsetAndEpoch:
        """The application's state after applying every entry below `offset`; the log before it goes."""
        if offset > self._applied:
            raise ValueError(f"snapshot at {offset} past the applied offset {self._applied}")
        if offset > self.log.flushed_offset or offset <= self.log.start_offset:
            raise ValueError(f"snapshot at {offset} outside ({self.log.start_offset}, {self.log.flushed_offset}]")
        snapshot_id = OffsetAndEpoch(offset, self.log.entry(offset - 1).epoch)
        self.log.create_snapshot(snapshot_id, wrap_snapshot(self.voter_history.voters_at(offset), data))
        self.voter_history.on_log_start(self.log.start_offset)
        return snapshot_id

    def add_voter(
        self, replica_id: int, endpoints: Mapping[int, tuple[str, int]] | None = None
    ) -> tuple[int, list[Action]]:
        """AddRaftVoter (KIP-853) on the leader: an observer that is caught up becomes a voter. `endpoints`: the
        voters' listeners as the driver knows them, carried in the VotersRecord (opaque to the core)."""
        voters = self._check_voter_change(replica_id, adding=True)
        return self._append_voters(voters | {replica_id}, endpoints)

    def remove_voter(
        self, replica_id: int, endpoints: Mapping[int, tuple[str, int]] | None = None
    ) -> tuple[int, list[Action]]:
        """RemoveRaftVoter (KIP-853) on the leader; removing the leader itself makes it resign once committed."""
        voters = self._check_voter_change(replica_id, adding=False)
        return self._append_voters(voters - {replica_id}, endpoints)

    def _check_voter_change(self, replica_id: int, adding: bool) -> frozenset[int]:
        s = self.state
        if s.role is not Role.LEADER or s.leader is None:
            raise NotLeaderError(s.leader_id, s.epoch)
        # one change at a time, and only once this epoch committed something: the single-server rule
        # (and its fix for a leader that has not yet committed in its term)
        if self.high_watermark <= s.leader.epoch_start_offset:
            raise VoterChangeError("REQUEST_TIMED_OUT", "the leader has not committed in its epoch yet")
        if self.voter_history.last_change_offset >= self.high_watermark:
            raise VoterChangeError("REQUEST_TIMED_OUT", "a voter change is still uncommitted")
        voters = self.voters
        if adding:
            if replica_id in voters:
                raise VoterChangeError("DUPLICATE_VOTER", f"{replica_id} is already a voter")
            r = s.leader.replicas.get(replica_id)
            if r is None or r.end_offset < self.high_watermark:
                raise VoterChangeError("REQUEST_TIMED_OUT", f"{replica_id} has not caught up to the high watermark")
        else:
            if replica_id not in voters:
                raise VoterChangeError("VOTER_NOT_FOUND", f"{replica_id} is not a voter")
            if len(voters) == 1:
                raise VoterChangeError("INVALID_REQUEST", "cannot remove the last voter")
        return voters

    def _append_voters(
        self, voters: frozenset[int], endpoints: Mapping[int, tuple[str, int]] | None
    ) -> tuple[int, list[Action]]:
        start = self.log.end_offset
        entry = LogEntry(start, self.state.epoch, voters_record(voters, endpoints), control=True)
        self._leader_append([entry], self.clock())
        return start, self._drain()

    def _on_voters_changed(self) -> None:
        """The log's voter set moved (append, truncation or snapshot): the leader recounts with it."""
        ls = self.state.leader
        if ls is not None:
            ls.voters = self.voters

    def describe_quorum(self) -> QuorumDescription:
        """DescribeQuorum's answer; only the leader has it (others: NotLeaderError, the wire's NOT_LEADER)."""
        s = self.state
        if s.role is not Role.LEADER or s.leader is None:
            raise NotLeaderError(s.leader_id, s.epoch)
        ls = s.leader
        now = self.clock()

        def row(replica_id: int) -> ReplicaDescription:
            if replica_id == self.node_id:
                return ReplicaDescription(replica_id, self.log.end_offset, now, now)
            r = ls.replicas.get(replica_id, _NO_REPLICA)
            return ReplicaDescription(replica_id, r.end_offset, r.last_fetch_ms, r.last_caught_up_ms)

        observers = sorted(set(ls.replicas) - self.voters)
        return QuorumDescription(
            self.node_id,
            s.epoch,
            self.high_watermark,
            tuple(row(v) for v in sorted(self.voters)),
            tuple(row(o) for o in observers),
        )

    def resign(self) -> list[Action]:
        """Graceful shutdown of a leader: EndQuorumEpoch so a successor stands at once."""
        if self.state.role is Role.LEADER:
            self._become_resigned(self.clock())
        return self._drain()

    # ------------------------------------------------------------------ plumbing

    def _drain(self) -> list[Action]:
        out, self._out = self._out, []
        return out

    def _next_correlation(self) -> int:
        self._correlation += 1
        return self._correlation

    def _send(self, destination: int, message: Message) -> None:
        self._out.append(Send(destination, message))

    def _election_timeout(self) -> int:
        t = self.config.election_timeout_ms
        return t + self.rng.randrange(max(t, 1))

    def _election_backoff(self) -> int:
        return self.rng.randrange(max(self.config.election_backoff_max_ms, 1)) + 1

    def _persist(self, epoch: int, voted_id: int | None, leader_id: int | None) -> None:
        st = ElectionState(epoch, voted_id, leader_id)
        if st != self._persisted:
            if self._persisted is not None and epoch < self._persisted.epoch:
                raise AssertionError(f"epoch going back from {self._persisted.epoch} to {epoch}")
            self.quorum_store.write(st)  # durable before anything that depends on it is sent
            self._persisted = st

    def _notify_leader(self) -> None:
        # a resigned leader (check-quorum, shutdown, or a restart after leading) tells the application that
        # nobody leads yet, so it stops acting as the active controller at once
        leader = None if self.state.role is Role.RESIGNED else self.state.leader_id
        key = (self.state.epoch, leader)
        if key != self._notified:
            self._notified = key
            self._out.append(LeaderChange(*key))

    def _is_log_up_to_date(self, last_offset_epoch: int, last_offset: int) -> bool:
        return (last_offset_epoch, last_offset) >= (self.log.last_epoch, self.log.end_offset)

    def _advance_high_watermark(self, hw: int) -> None:
        if hw <= self.high_watermark:
            return
        self.high_watermark = hw
        if self._applied < hw:
            entries = self.log.read(self._applied, hw - self._applied)
            self._applied = hw
            self._out.append(Apply(entries))

    def _leader_info(self) -> tuple[int | None, int]:
        return self.state.leader_id, self.state.epoch

    # ------------------------------------------------------------------ transitions

    def _follower_state(self, epoch: int, leader_id: int, voted_id: int | None, now: int) -> RoleState:
        s = RoleState(Role.FOLLOWER, epoch, voted_id, leader_id)
        s.fetch_deadline_ms = now + self.config.fetch_timeout_ms
        return s

    def _leave_leadership(self) -> None:
        if self.state.role is Role.LEADER:
            # answer nothing more from this epoch; what was appended but not fsynced is flushed now so the
            # resigned leader does not later claim entries it could lose in a crash
            self.log.flush()

    def _become_unattached(self, epoch: int, voted_id: int | None, now: int) -> None:
        self._leave_leadership()
        self._persist(epoch, voted_id, None)
        self.state = RoleState(Role.UNATTACHED, epoch, voted_id, None)
        self.state.election_deadline_ms = now + (self._election_timeout() if self.can_stand else 0)
        self._notify_leader()

    def _become_follower(self, epoch: int, leader_id: int, now: int) -> None:
        self._leave_leadership()
        voted = self.state.voted_id if epoch == self.state.epoch else None
        self._persist(epoch, voted, leader_id)
        self.state = self._follower_state(epoch, leader_id, voted, now)
        self._notify_leader()
        self._send_fetch(now)

    def _become_prospective(self, now: int) -> None:
        old = self.state
        if not self.can_stand:
            self._become_unattached(old.epoch, None, now)
            self._discover_leader(now)
            return
        # the leader it followed is kept: losing the pre-vote sends it back to following that leader
        # (KafkaRaftClient's prospectiveTransitionAfterElectionLoss); a resigned leader keeps none
        leader = None if old.leader_id == self.node_id else old.leader_id
        self.state = RoleState(Role.PROSPECTIVE, old.epoch, old.voted_id, leader)
        self.state.election_deadline_ms = now + self._election_timeout()
        if self._votes_needed_from_others() <= 0:
            self._become_candidate(now)
            return
        for v in sorted(self.voters - {self.node_id}):
            c = self._next_correlation()
            self.state.outstanding[c] = v
            self._send(v, VoteRequest(c, self.node_id, old.epoch, self.log.last_epoch, self.log.end_offset, True))

    def _become_candidate(self, now: int) -> None:
        epoch = self.state.epoch + 1
        self._persist(epoch, self.node_id, None)
        self.state = RoleState(Role.CANDIDATE, epoch, self.node_id, None)
        self.state.election_deadline_ms = now + self._election_timeout()
        self._notify_leader()
        if self._votes_needed_from_others() <= 0:
            self._become_leader(now)
            return
        for v in sorted(self.voters - {self.node_id}):
            c = self._next_correlation()
            self.state.outstanding[c] = v
            self._send(v, VoteRequest(c, self.node_id, epoch, self.log.last_epoch, self.log.end_offset, False))

    def _become_leader(self, now: int) -> None:
        epoch = self.state.epoch
        self._persist(epoch, self.node_id, self.node_id)
        start = self.log.end_offset
        s = RoleState(Role.LEADER, epoch, self.node_id, self.node_id)
        s.leader = LeaderState(
            epoch_start_offset=start,
            voters=self.voters,
            local_id=self.node_id,
            check_quorum_timeout_ms=self.config.fetch_timeout_ms * 3 // 2,
            check_quorum_deadline_ms=now + self.config.fetch_timeout_ms * 3 // 2,
        )
        self.state = s
        self._notify_leader()
        # the LeaderChange control record opens the epoch; committing it commits everything before it
        self._leader_append([LogEntry(start, epoch, ("LeaderChange", self.node_id, epoch), control=True)], now)
        for v in sorted(self.voters - {self.node_id}):
            s.unacked[v] = now
            self._send(v, BeginQuorumEpochRequest(self._next_correlation(), self.node_id, epoch))

    def _become_resigned(self, now: int) -> None:
        ls = self.state.leader
        assert ls is not None
        self._leave_leadership()
        # successors in order of how far their logs reach, as KRaft's LeaderState.nonLeaderVotersByDescendingFetchOffset
        others = sorted(self.voters - {self.node_id}, key=lambda v: -ls.replicas.get(v, _NO_REPLICA).end_offset)
        s = RoleState(Role.RESIGNED, self.state.epoch, self.state.voted_id, self.node_id)
        s.election_deadline_ms = now + self._election_timeout()
        s.preferred_successors = tuple(others)
        self.state = s
        self._notify_leader()
        for v in others:
            s.unacked[v] = now
            self._send(v, self._end_quorum_epoch_request())

    def _end_quorum_epoch_request(self) -> EndQuorumEpochRequest:
        s = self.state
        return EndQuorumEpochRequest(self._next_correlation(), self.node_id, s.epoch, s.preferred_successors)

    def _begin_quorum_epoch_request(self) -> BeginQuorumEpochRequest:
        return BeginQuorumEpochRequest(self._next_correlation(), self.node_id, self.state.epoch)

    def _resend_unacked(self, now: int, build: Callable[[], Message]) -> None:
        s = self.state
        for v, sent in list(s.unacked.items()):
            if now >= sent + self.config.request_timeout_ms:
                s.unacked[v] = now
                self._send(v, build())

    def _observe_epoch(self, epoch: int, leader_id: int | None, now: int) -> bool:
        """A message showed a newer epoch (or this epoch's leader): follow it. True if the state changed."""
        s = self.state
        if leader_id == self.node_id:
            leader_id = None  # our own old leadership echoed back: nothing to follow
        if epoch > s.epoch:
            if leader_id is not None:
                self._become_follower(epoch, leader_id, now)
            else:
                self._become_unattached(epoch, None, now)
            return True
        if (
            epoch == s.epoch
            and leader_id is not None
            and s.leader_id is None
            and s.role in (Role.UNATTACHED, Role.PROSPECTIVE, Role.CANDIDATE)
        ):
            self._become_follower(epoch, leader_id, now)
            return True
        return False

    # ------------------------------------------------------------------ Vote

    def _on_vote_request(self, source: int, req: VoteRequest, now: int) -> None:
        # no voter-set check either way (as KafkaRaftClient): the candidate may be a voter this replica does not
        # know of yet, and this replica may be a voter whose own removal is not committed (it answers as an
        # observer by its log, but the candidate's log still counts it; refusing would deadlock that election)
        s = self.state
        up_to_date = self._is_log_up_to_date(req.last_offset_epoch, req.last_offset)
        if req.pre_vote:
            # a pre-vote changes nothing here: it only asks "would you vote for me in the next epoch?"
            if req.candidate_epoch < s.epoch or s.role is Role.LEADER:
                granted = False
            elif s.role is Role.FOLLOWER:
                granted = up_to_date and not s.has_fetched
            else:
                granted = up_to_date
            self._send(source, VoteResponse(req.correlation_id, ErrorCode.NONE, *self._leader_info(), granted, True))
            return
        if req.candidate_epoch > s.epoch:
            self._become_unattached(req.candidate_epoch, None, now)
            s = self.state
        granted = False
        if req.candidate_epoch == s.epoch and s.role in (Role.UNATTACHED, Role.PROSPECTIVE) and s.leader_id is None:
            granted = up_to_date and s.voted_id in (None, req.candidate_id)
            if granted:
                self._become_unattached(s.epoch, req.candidate_id, now)  # persists the vote before it is sent
        self._send(source, VoteResponse(req.correlation_id, ErrorCode.NONE, *self._leader_info(), granted, False))

    def _on_vote_response(self, source: int, resp: VoteResponse, now: int) -> None:
        if self._observe_epoch(resp.leader_epoch, resp.leader_id, now):
            return
        s = self.state
        expected = Role.PROSPECTIVE if resp.pre_vote else Role.CANDIDATE
        if s.role is not expected or s.outstanding.pop(resp.correlation_id, None) != source:
            return  # a late, duplicated or stale answer
        if resp.error is not ErrorCode.NONE:
            return
        (s.granted if resp.vote_granted else s.rejected).add(source)
        if not resp.vote_granted and resp.leader_epoch < s.epoch and resp.leader_id is not None:
            s.behind.add(source)
        losing = len(self.voters) - self.majority() + 1
        if len(s.granted & self.voters) >= self._votes_needed_from_others():
            if s.role is Role.PROSPECTIVE:
                self._become_candidate(now)
            else:
                self._become_leader(now)
        elif s.role is Role.PROSPECTIVE and len(s.behind & self.voters) >= losing:
            # our epoch ran ahead of a working leader (a candidacy whose votes were lost): the followers refuse
            # pre-votes and no answer from a lower epoch can bring us back, so only a real election at a
            # higher epoch reunites the quorum; this node's log decides nothing (the vote still checks it).
            # An isolated follower never gets here: it keeps its epoch, so its answers come from the same one.
            self._become_candidate(now)
        elif len(s.rejected) >= losing:
            if s.role is Role.PROSPECTIVE and s.leader_id is not None:
                # the others still hear from the leader: follow it again instead of disturbing it
                self._become_follower(s.epoch, s.leader_id, now)
            else:
                # lost this round: back off before trying again (randomised, so two losers do not collide)
                s.election_deadline_ms = min(s.election_deadline_ms, now + self._election_backoff())

    # ------------------------------------------------------------------ BeginQuorumEpoch / EndQuorumEpoch

    def _on_begin_quorum_epoch_request(self, source: int, req: BeginQuorumEpochRequest, now: int) -> None:
        s = self.state
        if req.leader_epoch < s.epoch:
            self._send(
                source,
                BeginQuorumEpochResponse(req.correlation_id, ErrorCode.FENCED_LEADER_EPOCH, *self._leader_info()),
            )
            return
        if req.leader_epoch == s.epoch and s.role is Role.LEADER and req.leader_id != self.node_id:
            raise AssertionError(f"two leaders in epoch {s.epoch}: {self.node_id} and {req.leader_id}")
        if req.leader_epoch > s.epoch or not (s.role is Role.FOLLOWER and s.leader_id == req.leader_id):
            self._become_follower(req.leader_epoch, req.leader_id, now)
        self._send(source, BeginQuorumEpochResponse(req.correlation_id, ErrorCode.NONE, *self._leader_info()))

    def _on_begin_quorum_epoch_response(self, source: int, resp: BeginQuorumEpochResponse, now: int) -> None:
        if self._observe_epoch(resp.leader_epoch, resp.leader_id, now):
            return
        if self.state.role is Role.LEADER and resp.leader_epoch == self.state.epoch:
            self.state.unacked.pop(source, None)

    def _on_end_quorum_epoch_request(self, source: int, req: EndQuorumEpochRequest, now: int) -> None:
        s = self.state
        if req.leader_epoch < s.epoch:
            self._send(
                source, EndQuorumEpochResponse(req.correlation_id, ErrorCode.FENCED_LEADER_EPOCH, *self._leader_info())
            )
            return
        if req.leader_epoch > s.epoch or (s.role is not Role.FOLLOWER and s.leader_id in (None, req.leader_id)):
            if req.leader_id != self.node_id:
                self._become_follower(req.leader_epoch, req.leader_id, now)
        s = self.state
        if s.role is Role.FOLLOWER and s.leader_id == req.leader_id and s.epoch == req.leader_epoch:
            # the leader is going: stand soon, the preferred successors first (KRaft's endEpochElectionBackoff)
            if self.node_id in req.preferred_successors:
                pos = req.preferred_successors.index(self.node_id)
                backoff = (
                    0 if pos == 0 else min(self.config.election_backoff_max_ms, self.config.retry_backoff_ms << pos)
                )
            else:
                backoff = self._election_timeout()
            s.fetch_deadline_ms = min(s.fetch_deadline_ms, now + backoff)
            s.has_fetched = False  # the leader said it is gone: pre-votes for a successor are fine now
        self._send(source, EndQuorumEpochResponse(req.correlation_id, ErrorCode.NONE, *self._leader_info()))

    def _on_end_quorum_epoch_response(self, source: int, resp: EndQuorumEpochResponse, now: int) -> None:
        if self._observe_epoch(resp.leader_epoch, resp.leader_id, now):
            return
        if self.state.role is Role.RESIGNED:
            self.state.unacked.pop(source, None)


_NO_REPLICA = ReplicaState()

_HANDLERS: dict[type, Callable[[RaftNode, int, Any, int], None]] = {
    VoteRequest: RaftNode._on_vote_request,
    VoteResponse: RaftNode._on_vote_response,
    BeginQuorumEpochRequest: RaftNode._on_begin_quorum_epoch_request,
    BeginQuorumEpochResponse: RaftNode._on_begin_quorum_epoch_response,
    EndQuorumEpochRequest: RaftNode._on_end_quorum_epoch_request,
    EndQuorumEpochResponse: RaftNode._on_end_quorum_epoch_response,
    FetchRequest: RaftNode._on_fetch_request,
    FetchResponse: RaftNode._on_fetch_response,
    FetchSnapshotRequest: RaftNode._on_fetch_snapshot_request,
    FetchSnapshotResponse: RaftNode._on_fetch_snapshot_response,
}
