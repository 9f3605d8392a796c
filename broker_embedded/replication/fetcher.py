"""ReplicaFetcher: the follower side of replication, one per source (leader) broker.

An asyncio task on the broker's loop (Kafka's ReplicaFetcherThread / AbstractFetcherThread). Each
round it first truncates the partitions that are Truncating, then sends one Fetch for every
partition that is Fetching and not backing off:

- Truncation by leader epoch (KIP-101/KIP-279): OffsetForLeaderEpoch for the follower's latest epoch;
  the leader answers the largest epoch it knows <= it and that epoch's end offset; the follower
  truncates to min(leader's end offset, its own end offset for that epoch). When the follower does
  not know the leader's answer epoch it truncates to the end of the epoch below and asks again.
  Without any epoch on the follower, or when the leader knows none (UNDEFINED), it falls back to
  truncating to its high watermark.
- Fetch (replica id / ReplicaState, up to the leader's LEO): appended with the leader's offsets and
  epochs (`Log.append_as_follower`); follower HW = min(leader HW, own LEO); the log start offset
  follows the leader's. A diverging epoch in the answer sends the partition back to truncation.
- Errors: OFFSET_OUT_OF_RANGE resets (truncate to the leader's LEO if it is shorter, else restart
  empty at the leader's local log start offset); FENCED_LEADER_EPOCH with our epoch still current stops
  the partition until a newer state arrives; UNKNOWN_LEADER_EPOCH, NOT_LEADER_OR_FOLLOWER and
  others back off `replica.fetch.backoff.ms`; a lost connection backs off and reconnects.

A response is applied only if the partition is still in the same fetch state (same object, same
fetch offset): it may have been removed, re-added or truncated while the request was in flight.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from broker_embedded.log.log import EARLIEST_LOCAL_TIMESTAMP, LATEST_TIMESTAMP
from kafka_wire.errors import ErrorCode, KafkaError, ProtocolDecodeError
from kafka_wire.protocol.messages import fetch_request as frq
from kafka_wire.protocol.messages import list_offsets_request as lorq
from kafka_wire.protocol.messages import offset_for_leader_epoch_request as oferq
from kafka_wire.records import iter_batches

from .connection import LeaderConnection

if TYPE_CHECKING:
    from broker_embedded.partition import Partition
    from broker_embedded.replication.replica_manager import ReplicaManager

log = logging.getLogger(__name__)

FETCH = 1
LIST_OFFSETS = 2
OFFSET_FOR_LEADER_EPOCH = 23
# ListOffsets with EARLIEST_LOCAL_TIMESTAMP: the leader's local log start: a follower can only fetch
# what the leader has on disk (with tiered storage the overall log start may be lower, served to
# consumers from the remote tier)


@dataclass(eq=False, slots=True)
class PartitionFetchState:
    partition: Partition
    leader_epoch: int
    fetch_offset: int
    truncating: bool = True
    failed: bool = False  # fenced with our epoch current: wait for a newer state
    delayed_until: float = 0.0  # monotonic seconds

    def ready(self, now: float) -> bool:
        return not self.failed and self.delayed_until <= now


class ReplicaFetcher:
    def __init__(self, replica_manager: ReplicaManager, source_id: int) -> None:
        self.rm = replica_manager
        self.source_id = source_id
        self.node_id = replica_manager.node_id
        self.states: dict[tuple[str, int], PartitionFetchState] = {}
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._conn: LeaderConnection | None = None
        self._conn_endpoint: tuple[str, int] | None = None
        self.client_id = f"broker-{self.node_id}-fetcher-{source_id}"
        # counters for tests and logs
        self.fetches = 0
        self.truncations = 0

    # --- configs ------------------------------------------------------------------------
    def _cfg(self, key: str) -> int:
        return int(self.rm.config[key])

    @property
    def backoff_s(self) -> float:
        return self._cfg("replica.fetch.backoff.ms") / 1000

    @property
    def socket_timeout_s(self) -> float:
        return self._cfg("replica.socket.timeout.ms") / 1000

    # --- partitions ---------------------------------------------------------------------
    @property
    def is_idle(self) -> bool:
        return not self.states

    def add_partition(self, p: Partition) -> None:
        """Start at the LEO in Truncating state (truncation decides where fetching resumes)."""
        self.states[(p.topic, p.index)] = PartitionFetchState(p, p.leader_epoch, p.log.log_end_offset)
        self._wakeup.set()

    def remove_partition(self, key: tuple[str, int]) -> None:
        self.states.pop(key, None)

    def state(self, topic: str, partition: int) -> PartitionFetchState | None:
        return self.states.get((topic, partition))

    # --- lifecycle ----------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.client_id)

    def stop(self) -> asyncio.Task[None] | None:
        """Cancel the fetch task (returned, for callers that can wait for it) and close the connection."""
        # The flag as well as the cancel: wait_for can swallow a cancellation that races with
        # its inner future completing (a fetch response arriving), and the loop must still end.
        self._stopped = True
        self._wakeup.set()
        task = self._task
        if task is not None:
            task.cancel()
            self._task = None
        self._close()
        return task

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._conn_endpoint = None

    async def _connection(self) -> LeaderConnection | None:
        ep = self.rm.endpoints.get(self.source_id)
        if ep is None:
            return None  # the leader is not known alive: wait for a new state / endpoints
        endpoint = (ep.host, ep.port)
        if self._conn is not None and not self._conn.closed and self._conn_endpoint == endpoint:
            return self._conn
        self._close()
        self._conn = await LeaderConnection.open(
            ep.host, ep.port, self.client_id, self.socket_timeout_s, self.rm.inter_broker_security
        )
        self._conn_endpoint = endpoint
        return self._conn

    async def _idle(self, timeout_s: float) -> None:
        """Sleep up to `timeout_s`, or less if a partition was added meanwhile (no busy loop)."""
        if not self._wakeup.is_set():
            try:
                await asyncio.wait_for(self._wakeup.wait(), max(timeout_s, 0.001))
            except TimeoutError:
                pass
        self._wakeup.clear()

    async def _run(self) -> None:
        while not self._stopped:
            try:
                if not self.states:
                    await self._idle(self.backoff_s)
                    continue
                conn = await self._connection()
                if conn is None:
                    await self._idle(self.backoff_s)
                    continue
                await self._truncate(conn)
                now = time.monotonic()
                ready = [s for s in self.states.values() if not s.truncating and s.ready(now)]
                if not ready:
                    if not any(s.truncating and s.ready(now) for s in self.states.values()):
                        waits = [s.delayed_until - now for s in self.states.values() if not s.failed]
                        await self._idle(min([self.backoff_s, *(w for w in waits if w > 0)]))
                    continue
                await self._fetch(conn, ready)
            except asyncio.CancelledError:
                raise
            except (TimeoutError, OSError, ConnectionError, asyncio.IncompleteReadError, ProtocolDecodeError) as e:
                log.info("%s: connection to broker %d lost: %r", self.client_id, self.source_id, e)
                self._close()
                await self._idle(self.backoff_s)
            except Exception:
                log.exception("%s: fetcher round failed", self.client_id)
                self._close()
                await self._idle(self.backoff_s)

    def _current(self, key: tuple[str, int], s: PartitionFetchState) -> bool:
        """The state is still the one the request was built from (not removed or re-added)."""
        return self.states.get(key) is s and s.partition.leader_epoch == s.leader_epoch and not s.partition.deleted

    def _back_off(self, s: PartitionFetchState) -> None:
        s.delayed_until = time.monotonic() + self.backoff_s

    def _on_error(self, key: tuple[str, int], s: PartitionFetchState, code: int, where: str) -> None:
        p = s.partition
        if code == ErrorCode.FENCED_LEADER_EPOCH:
            # our epoch is older than the leader's: stop until the controller's newer state arrives
            log.info(
                "%s-%d: fenced at epoch %d by broker %d (%s)", p.topic, p.index, s.leader_epoch, self.source_id, where
            )
            s.failed = True
            return
        if code not in (ErrorCode.UNKNOWN_LEADER_EPOCH, ErrorCode.NOT_LEADER_OR_FOLLOWER):
            log.info("%s-%d: %s from broker %d (%s)", p.topic, p.index, ErrorCode(code).name, self.source_id, where)
        self._back_off(s)

    # --- truncation -----------------------------------------------------------------------
    async def _truncate(self, conn: LeaderConnection) -> None:
        now = time.monotonic()
        pending = [(k, s) for k, s in self.states.items() if s.truncating and s.ready(now)]
        if not pending:
            return
        with_epochs: list[tuple[tuple[str, int], PartitionFetchState]] = []
        for key, s in pending:
            if s.partition.log.latest_epoch >= 0:
                with_epochs.append((key, s))
            else:
                # no epoch history: the legacy rule, truncate to the high watermark
                self._truncate_to(s, s.partition.high_watermark, "no leader epoch: to the high watermark", True)
        if not with_epochs:
            return
        version = conn.best_version(OFFSET_FOR_LEADER_EPOCH)
        topics: dict[str, list[oferq.OffsetForLeaderPartition]] = {}
        asked: dict[tuple[str, int], tuple[PartitionFetchState, int]] = {}
        for key, s in with_epochs:
            latest = s.partition.log.latest_epoch
            topics.setdefault(key[0], []).append(
                oferq.OffsetForLeaderPartition(
                    partition=key[1], current_leader_epoch=s.leader_epoch, leader_epoch=latest
                )
            )
            asked[key] = (s, latest)
        request = oferq.OffsetForLeaderEpochRequest(
            replica_id=self.node_id,
            topics=[oferq.OffsetForLeaderTopic(topic=t, partitions=ps) for t, ps in topics.items()],
        )
        response = await conn.request(OFFSET_FOR_LEADER_EPOCH, request, version, self.socket_timeout_s)
        if self._stopped:
            return
        for t in response.topics:
            for r in t.partitions:
                key = (t.topic, r.partition)
                entry = asked.get(key)
                if entry is None:
                    continue
                s, _ = entry
                if not self._current(key, s) or not s.truncating:
                    continue
                if r.error_code != ErrorCode.NONE:
                    self._on_error(key, s, r.error_code, "OffsetForLeaderEpoch")
                    continue
                self._truncate_by_epoch(s, r.leader_epoch, r.end_offset)

    def _truncate_by_epoch(self, s: PartitionFetchState, leader_epoch: int, leader_end_offset: int) -> None:
        """Kafka's getOffsetTruncationState, given the leader's (epoch, end offset) answer."""
        p = s.partition
        leo = p.log.log_end_offset
        if leader_end_offset < 0:
            # the leader knows no epoch <= ours: fall back to the high watermark
            self._truncate_to(s, min(p.high_watermark, leo), "leader has no epoch information", True)
        elif leader_epoch < 0:
            self._truncate_to(s, min(leader_end_offset, leo), "leader end offset without epoch", True)
        else:
            follower_epoch, follower_end = p.log.end_offset_for_epoch(leader_epoch)
            if follower_epoch < 0:
                self._truncate_to(s, min(leader_end_offset, leo), f"leader epoch {leader_epoch} end offset", True)
            elif follower_epoch != leader_epoch:
                # we do not know the leader's epoch: cut to the end of our epoch below it, ask again
                self._truncate_to(s, min(follower_end, leo), f"before unknown epoch {leader_epoch}", False)
            else:
                target = min(leader_end_offset, follower_end, leo)
                self._truncate_to(s, target, f"end of leader epoch {leader_epoch} is {leader_end_offset}", True)

    def _truncate_to(self, s: PartitionFetchState, offset: int, reason: str, completed: bool) -> None:
        p = s.partition
        if p.truncate_to(max(offset, 0), reason):
            self.truncations += 1
        s.fetch_offset = p.log.log_end_offset
        s.truncating = not completed

    # --- fetch ------------------------------------------------------------------------------
    async def _fetch(self, conn: LeaderConnection, ready: list[PartitionFetchState]) -> None:
        version = conn.best_version(FETCH)
        use_ids = version >= 13
        cfg = self.rm.config
        topics: dict[str, frq.FetchTopic] = {}
        sent: dict[tuple[str, int], tuple[PartitionFetchState, int]] = {}
        by_id: dict[bytes, str] = {}
        quota = self.rm.follower_quota
        throttled: set[tuple[str, int]] = set()
        for s in ready:
            p = s.partition
            if self._throttled(p):
                # follower.replication.throttled.replicas lists this replica and it is catching up
                if quota.is_quota_exceeded():
                    continue  # left out while the follower quota is exceeded (shouldFollowerThrottle)
                throttled.add((p.topic, p.index))
            ft = topics.get(p.topic)
            if ft is None:
                ft = topics[p.topic] = frq.FetchTopic(topic="" if use_ids else p.topic, topic_id=p.topic_id)
                by_id[p.topic_id] = p.topic
            ft.partitions.append(
                frq.FetchPartition(
                    partition=p.index,
                    current_leader_epoch=s.leader_epoch,
                    fetch_offset=s.fetch_offset,
                    last_fetched_epoch=p.log.latest_epoch,
                    log_start_offset=p.log.log_start_offset,
                    partition_max_bytes=int(cfg["replica.fetch.max.bytes"]),
                )
            )
            sent[(p.topic, p.index)] = (s, s.fetch_offset)
        if not sent:
            await self._idle(self.backoff_s)  # every ready partition is throttled for now
            return
        max_wait_ms = int(cfg["replica.fetch.wait.max.ms"])
        request = frq.FetchRequest(
            replica_id=self.node_id if version < 15 else -1,
            replica_state=frq.ReplicaState(replica_id=self.node_id if version >= 15 else -1, replica_epoch=-1),
            max_wait_ms=max_wait_ms,
            min_bytes=int(cfg["replica.fetch.min.bytes"]),
            max_bytes=int(cfg["replica.fetch.response.max.bytes"]),
            isolation_level=0,
            session_id=0,
            session_epoch=-1,
            topics=list(topics.values()),
        )
        response = await conn.request(FETCH, request, version, max_wait_ms / 1000 + self.socket_timeout_s)
        if self._stopped:
            return  # stopped while the request was in flight: the logs may be closing
        self.fetches += 1
        if response.error_code != ErrorCode.NONE:
            for s, _ in sent.values():
                self._on_error((s.partition.topic, s.partition.index), s, response.error_code, "Fetch")
            return
        out_of_range: list[tuple[tuple[str, int], PartitionFetchState]] = []
        for t in response.responses:
            name = by_id.get(t.topic_id, "") if use_ids else t.topic
            for pd in t.partitions:
                key = (name, pd.partition_index)
                entry = sent.get(key)
                if entry is None:
                    continue
                s, offset = entry
                if not self._current(key, s) or s.truncating or s.fetch_offset != offset:
                    continue  # stale: removed, re-added or truncated while in flight
                if pd.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                    out_of_range.append((key, s))
                elif pd.error_code != ErrorCode.NONE:
                    self._on_error(key, s, pd.error_code, "Fetch")
                else:
                    if key in throttled and pd.records:
                        quota.record(len(pd.records))
                    self._process_partition_data(s, pd)
        for key, s in out_of_range:
            await self._handle_out_of_range(conn, key, s)

    def _throttled(self, p: Partition) -> bool:
        """An out-of-sync replica the topic's follower.replication.throttled.replicas lists here."""
        if self.node_id in p.isr:
            return False
        meta = self.rm.topics.by_name.get(p.topic)
        return meta is not None and self.rm.follower_quota.is_throttled(meta.configs, p.index)

    def _process_partition_data(self, s: PartitionFetchState, pd: Any) -> None:
        p = s.partition
        if pd.diverging_epoch.epoch >= 0 or pd.diverging_epoch.end_offset >= 0:
            self._truncate_by_epoch(s, pd.diverging_epoch.epoch, pd.diverging_epoch.end_offset)
            return
        records = pd.records
        if records:
            end = 0
            for pos, h in iter_batches(records, allow_partial_tail=True):
                end = pos + h.size
            if end:
                try:
                    s.fetch_offset = p.append_records_as_follower(memoryview(records)[:end], s.fetch_offset)
                except KafkaError as e:
                    log.error("%s-%d: follower append failed: %s; truncating again", p.topic, p.index, e)
                    s.truncating = True
                    self._back_off(s)
                    return
        p.update_follower_high_watermark(pd.high_watermark)
        if pd.log_start_offset > p.log.log_start_offset:
            p.log.maybe_increment_log_start_offset(pd.log_start_offset)
            s.fetch_offset = p.log.log_end_offset

    async def _handle_out_of_range(self, conn: LeaderConnection, key: tuple[str, int], s: PartitionFetchState) -> None:
        """Kafka's fetchOffsetAndTruncate: a leader shorter than us (unclean election) -> truncate to
        its LEO; else we are below its log start -> restart empty there."""
        p = s.partition
        leader_end = await self._leader_offset(conn, s, LATEST_TIMESTAMP)
        if leader_end is None or self._stopped or not self._current(key, s):
            return
        leo = p.log.log_end_offset
        if leader_end < leo:
            self._truncate_to(s, leader_end, f"leader's log end offset {leader_end} is below ours", True)
            return
        leader_start = await self._leader_offset(conn, s, EARLIEST_LOCAL_TIMESTAMP)
        if leader_start is None or self._stopped or not self._current(key, s):
            return
        if leader_start > leo:
            p.truncate_fully_and_start_at(leader_start)
        s.fetch_offset = p.log.log_end_offset
        s.truncating = False

    async def _leader_offset(self, conn: LeaderConnection, s: PartitionFetchState, timestamp: int) -> int | None:
        p = s.partition
        request = lorq.ListOffsetsRequest(
            replica_id=self.node_id,
            isolation_level=0,
            topics=[
                lorq.ListOffsetsTopic(
                    name=p.topic,
                    partitions=[
                        lorq.ListOffsetsPartition(
                            partition_index=p.index, current_leader_epoch=s.leader_epoch, timestamp=timestamp
                        )
                    ],
                )
            ],
        )
        response = await conn.request(LIST_OFFSETS, request, conn.best_version(LIST_OFFSETS), self.socket_timeout_s)
        for t in response.topics:
            for r in t.partitions:
                if r.partition_index != p.index:
                    continue
                if r.error_code != ErrorCode.NONE:
                    self._on_error((p.topic, p.index), s, r.error_code, "ListOffsets")
                    return None
                return int(r.offset)
        self._back_off(s)
        return None
