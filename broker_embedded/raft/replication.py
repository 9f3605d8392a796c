"""Pull replication, the half of the Raft core about Fetch and FetchSnapshot (split from node.py along the
seam KafkaRaftClient has between its fetch handling and its elections): the leader validates a fetch
position against its log (diverging epoch, snapshot id, or records), parks empty fetches as a long poll,
counts voters' fetch offsets for the high watermark and check-quorum; the follower appends, truncates
where the leader says its log diverged, downloads a snapshot in chunks, and keeps one fetch in flight."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.raft.messages import (
    FetchRequest,
    FetchResponse,
    FetchSnapshotRequest,
    FetchSnapshotResponse,
    LoadSnapshot,
    LogEntry,
    Message,
    OffsetAndEpoch,
)
from broker_embedded.raft.quorum import ParkedFetch, Role
from broker_embedded.raft.voters import unwrap_snapshot
from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    import random
    from collections.abc import Callable

    from broker_embedded.raft.messages import Action, BeginQuorumEpochRequest
    from broker_embedded.raft.node import RaftConfig
    from broker_embedded.raft.quorum import RoleState
    from broker_embedded.raft.storage import RaftLog
    from broker_embedded.raft.voters import VoterSetHistory


class Replication:
    """Mixed into RaftNode: these methods use its state, log, config and transitions."""

    if TYPE_CHECKING:  # what RaftNode provides (node.py), for the type checker
        node_id: int
        log: RaftLog
        config: RaftConfig
        state: RoleState
        high_watermark: int
        voter_history: VoterSetHistory
        clock: Callable[[], int]
        rng: random.Random
        _out: list[Action]
        _applied: int

        @property
        def voters(self) -> frozenset[int]: ...
        @property
        def is_voter(self) -> bool: ...
        def _send(self, destination: int, message: Message) -> None: ...
        def _leader_info(self) -> tuple[int | None, int]: ...
        def _on_voters_changed(self) -> None: ...
        def _next_correlation(self) -> int: ...
        def _become_resigned(self, now: int) -> None: ...
        def _advance_high_watermark(self, hw: int) -> None: ...
        def _resend_unacked(self, now: int, build: Callable[[], Message]) -> None: ...
        def _observe_epoch(self, epoch: int, leader_id: int | None, now: int) -> bool: ...
        def _begin_quorum_epoch_request(self) -> BeginQuorumEpochRequest: ...

    # ------------------------------------------------------------------ leader side of Fetch

    def _epoch_error(self, epoch: int) -> ErrorCode | None:
        s = self.state
        if epoch < s.epoch:
            return ErrorCode.FENCED_LEADER_EPOCH
        if epoch > s.epoch:
            return ErrorCode.UNKNOWN_LEADER_EPOCH
        if s.role is not Role.LEADER:
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
        return None

    def _on_fetch_request(self, source: int, req: FetchRequest, now: int) -> None:
        err = self._epoch_error(req.current_leader_epoch)
        if err is not None:
            self._send(source, FetchResponse(req.correlation_id, err, *self._leader_info()))
            return
        ls = self.state.leader
        assert ls is not None
        ls.record_fetch(req.replica_id, now)
        self.state.unacked.pop(req.replica_id, None)  # it fetches: it knows about this epoch
        log = self.log
        snap = log.latest_snapshot_id
        diverging: OffsetAndEpoch | None = None
        snapshot_id: OffsetAndEpoch | None = None
        # ReplicatedLog.validateOffsetAndEpoch: is (fetch_offset, last_fetched_epoch) on our log?
        if req.fetch_offset == log.start_offset and (snap is None or req.last_fetched_epoch == snap.epoch):
            pass
        elif req.fetch_offset <= log.start_offset and snap is not None:
            snapshot_id = snap
        else:
            end = log.end_offset_for_epoch(req.last_fetched_epoch)
            if end.epoch < 0 and snap is not None:
                snapshot_id = snap
            elif end.epoch != req.last_fetched_epoch or end.offset < req.fetch_offset:
                diverging = end if end.epoch >= 0 else OffsetAndEpoch(0, -1)
        if diverging is not None or snapshot_id is not None:
            self._send(source, self._fetch_response(req, diverging=diverging, snapshot_id=snapshot_id))
            return
        ls.update_replica_end(req.replica_id, req.fetch_offset)
        if req.fetch_offset >= log.end_offset:
            ls.replicas[req.replica_id].last_caught_up_ms = now
        self._leader_update_high_watermark()
        stale_hw = req.high_watermark is not None and req.high_watermark < self.high_watermark
        if req.fetch_offset < log.end_offset or stale_hw:
            self._send(source, self._fetch_response(req))
        else:
            old = ls.parked.get(source)
            if old is None or old.request.correlation_id < req.correlation_id:  # a duplicate must not win
                ls.parked[source] = ParkedFetch(source, req, now + self.config.fetch_max_wait_ms)

    def _fetch_response(
        self,
        req: FetchRequest,
        diverging: OffsetAndEpoch | None = None,
        snapshot_id: OffsetAndEpoch | None = None,
    ) -> FetchResponse:
        records: tuple[LogEntry, ...] = ()
        if diverging is None and snapshot_id is None:
            records = self.log.read(req.fetch_offset, min(req.max_records, self.config.fetch_max_records))
        return FetchResponse(
            req.correlation_id,
            ErrorCode.NONE,
            self.node_id,
            self.state.epoch,
            high_watermark=self.high_watermark,
            log_start_offset=self.log.start_offset,
            records=records,
            diverging_epoch=diverging,
            snapshot_id=snapshot_id,
        )

    def _complete_parked(self, now: int, only_expired: bool) -> None:
        ls = self.state.leader
        if ls is None:
            return  # resigned meanwhile (our own removal committed)
        for source, p in list(ls.parked.items()):
            if not only_expired or now >= p.deadline_ms:
                del ls.parked[source]
                self._send(source, self._fetch_response(p.request))

    def _leader_update_high_watermark(self) -> None:
        ls = self.state.leader
        assert ls is not None
        hw = ls.compute_high_watermark(self.log.flushed_offset)
        if hw is not None and hw > self.high_watermark:
            self._advance_high_watermark(hw)
            self._complete_parked(self.clock(), only_expired=False)
            if not self.is_voter and self.voter_history.last_change_offset < self.high_watermark:
                self._become_resigned(self.clock())  # our own removal is committed: hand over (KIP-853)

    def _leader_append(self, entries: list[LogEntry], now: int) -> None:
        ls = self.state.leader
        assert ls is not None
        self.log.append(entries)
        if self.voter_history.on_append(entries):
            self._on_voters_changed()
        if self.config.flush_linger_ms <= 0:
            self.log.flush()
            self._leader_update_high_watermark()
        elif ls.flush_deadline_ms is None:
            ls.flush_deadline_ms = now + self.config.flush_linger_ms
        self._complete_parked(now, only_expired=False)

    def _tick_leader(self, now: int) -> None:
        s = self.state
        ls = s.leader
        assert ls is not None
        if self.voters != {self.node_id} and now >= ls.check_quorum_deadline_ms:
            # check-quorum: we have not heard from a majority within the fetch timeout; someone else may lead
            self._become_resigned(now)
            return
        if ls.flush_deadline_ms is not None and now >= ls.flush_deadline_ms:
            ls.flush_deadline_ms = None
            self.log.flush()
            self._leader_update_high_watermark()
        self._complete_parked(now, only_expired=True)
        self._resend_unacked(now, self._begin_quorum_epoch_request)

    def _on_fetch_snapshot_request(self, source: int, req: FetchSnapshotRequest, now: int) -> None:
        err = self._epoch_error(req.current_leader_epoch)
        if err is not None:
            self._send(source, FetchSnapshotResponse(req.correlation_id, err, *self._leader_info()))
            return
        ls = self.state.leader
        assert ls is not None
        ls.record_fetch(req.replica_id, now)
        data = self.log.read_snapshot(req.snapshot_id)
        if data is None:
            err = ErrorCode.SNAPSHOT_NOT_FOUND
        elif not 0 <= req.position <= len(data):
            err = ErrorCode.POSITION_OUT_OF_RANGE
        if err is not None or data is None:
            self._send(
                source,
                FetchSnapshotResponse(req.correlation_id, err or ErrorCode.SNAPSHOT_NOT_FOUND, *self._leader_info()),
            )
            return
        chunk = data[req.position : req.position + min(req.max_bytes, self.config.snapshot_chunk_bytes)]
        self._send(
            source,
            FetchSnapshotResponse(
                req.correlation_id,
                ErrorCode.NONE,
                self.node_id,
                self.state.epoch,
                req.snapshot_id,
                len(data),
                req.position,
                chunk,
            ),
        )

    # ------------------------------------------------------------------ follower side of Fetch

    def _send_fetch(self, now: int) -> None:
        s = self.state
        assert s.role is Role.FOLLOWER and s.leader_id is not None
        c = self._next_correlation()
        s.inflight_fetch = c
        s.inflight_sent_ms = now
        if s.fetching_snapshot is not None:
            msg: Message = FetchSnapshotRequest(
                c, self.node_id, s.epoch, s.fetching_snapshot, len(s.snapshot_buffer), self.config.snapshot_chunk_bytes
            )
        else:
            msg = FetchRequest(
                c,
                self.node_id,
                s.epoch,
                self.log.end_offset,
                self.log.last_epoch,
                self.config.fetch_max_records,
                high_watermark=self.high_watermark,
            )
        self._send(s.leader_id, msg)

    def _accept_fetch_answer(
        self, source: int, correlation_id: int, epoch: int, leader_id: int | None, error: ErrorCode, now: int
    ) -> bool:
        """Common checks on a Fetch / FetchSnapshot answer: True if it is the one we wait for and it is good."""
        if self._observe_epoch(epoch, leader_id, now):
            return False
        s = self.state
        if s.role is not Role.FOLLOWER or s.inflight_fetch != correlation_id or source != s.leader_id:
            return False
        s.inflight_fetch = None
        if error is not ErrorCode.NONE:
            s.next_fetch_ms = now + self.config.retry_backoff_ms
            return False
        s.has_fetched = True
        s.fetch_deadline_ms = now + self.config.fetch_timeout_ms
        return True

    def _on_fetch_response(self, source: int, resp: FetchResponse, now: int) -> None:
        if not self._accept_fetch_answer(
            source, resp.correlation_id, resp.leader_epoch, resp.leader_id, resp.error, now
        ):
            return
        s = self.state
        log = self.log
        if resp.diverging_epoch is not None:
            d = resp.diverging_epoch
            local = log.end_offset_for_epoch(d.epoch)
            target = max(min(d.offset, local.offset), log.start_offset) if local.epoch >= 0 else log.start_offset
            if target < self.high_watermark:
                raise AssertionError(
                    f"node {self.node_id}: truncation to {target} below the high watermark {self.high_watermark}"
                )
            log.truncate_to(target)
            if self.voter_history.on_truncate(target):
                self._on_voters_changed()
        elif resp.snapshot_id is not None:
            s.fetching_snapshot = resp.snapshot_id
            s.snapshot_buffer = bytearray()
        else:
            records = resp.records
            if records and records[0].offset == log.end_offset:
                log.append(records)
                self.voter_history.on_append(records)
                log.flush()  # the next fetch reports this end offset to the leader, which counts it for the HW
            self._advance_high_watermark(min(resp.high_watermark, log.end_offset))
        self._send_fetch(now)

    def _on_fetch_snapshot_response(self, source: int, resp: FetchSnapshotResponse, now: int) -> None:
        s = self.state
        if s.role is Role.FOLLOWER and s.inflight_fetch == resp.correlation_id and resp.error is not ErrorCode.NONE:
            s.fetching_snapshot = None  # the leader moved on to a newer snapshot: fetch again to learn it
        if not self._accept_fetch_answer(
            source, resp.correlation_id, resp.leader_epoch, resp.leader_id, resp.error, now
        ):
            return
        s = self.state
        if resp.snapshot_id != s.fetching_snapshot or resp.position != len(s.snapshot_buffer):
            s.fetching_snapshot = None
        else:
            s.snapshot_buffer += resp.unaligned_records
            if len(s.snapshot_buffer) >= resp.size:
                sid = resp.snapshot_id
                assert sid is not None
                data = bytes(s.snapshot_buffer)
                s.fetching_snapshot, s.snapshot_buffer = None, bytearray()
                self.log.install_snapshot(sid, data)
                self.voter_history.on_log_start(sid.offset, unwrap_snapshot(data)[0])
                data = unwrap_snapshot(data)[1]
                self._applied = sid.offset
                self.high_watermark = max(self.high_watermark, sid.offset)
                self._out.append(LoadSnapshot(sid, data))
        self._send_fetch(now)

    def _discover_leader(self, now: int) -> None:
        """An observer without a leader fetches from a voter; the answer (or its error) names the leader."""
        s = self.state
        s.election_deadline_ms = now + self.config.request_timeout_ms
        voter = self.rng.choice(sorted(self.voters))
        self._send(
            voter,
            FetchRequest(
                self._next_correlation(),
                self.node_id,
                s.epoch,
                self.log.end_offset,
                self.log.last_epoch,
                self.config.fetch_max_records,
            ),
        )
