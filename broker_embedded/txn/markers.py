"""Transaction markers: the COMMIT/ABORT control batch each partition of a transaction receives
(Kafka's TransactionMarkerChannelManager plus the partition side of WriteTxnMarkers).

A partition this broker leads takes its marker in-process; any other partition is retried until
it took one (single node: every partition is local; cluster mode: until this broker leads it or
the marker reaches its leader). A job is done when every partition answered NONE, or answered
that it no longer exists (a deleted topic needs no marker).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from broker_embedded.log.errors import InvalidProducerEpochError, KafkaStorageError
from broker_embedded.replication.connection import LeaderConnection
from broker_embedded.replication.coordinator_wait import wait_until_replicated
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import write_txn_markers_request as wtq
from kafka_wire.records import build_control_batch

if TYPE_CHECKING:
    from broker_embedded.txn.host import TxnHost
    from broker_embedded.txn.state import TransactionMetadata

log = logging.getLogger(__name__)

TP = tuple[str, int]
OFFSETS_TOPIC = "__consumer_offsets"
WRITE_TXN_MARKERS = 27
_RETRY_BACKOFF_S = 0.1
_REMOTE_TIMEOUT_S = 10.0
# a leader answers WriteTxnMarkers once the markers are replicated, well inside the sender's timeout
MARKER_REPLICATION_TIMEOUT_MS = 5000
# answers after which a partition needs no (more) marker from this job
_DONE = frozenset(
    {
        ErrorCode.NONE,
        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        ErrorCode.INVALID_PRODUCER_EPOCH,
        # this coordinator is stale: the new one owns the transaction now
        ErrorCode.TRANSACTION_COORDINATOR_FENCED,
    }
)

# Called after a marker reached a __consumer_offsets partition (pending transactional offsets are
# then materialized or dropped): (partition, producer id, commit).
OffsetsMarkerHook = Callable[[int, int, bool], None]


def write_marker(
    broker: TxnHost,
    tp: TP,
    producer_id: int,
    producer_epoch: int,
    commit: bool,
    coordinator_epoch: int,
    on_offsets_marker: OffsetsMarkerHook | None = None,
) -> ErrorCode:
    """Append one marker to a partition this broker leads (the partition side of WriteTxnMarkers)."""
    p = broker.partition(*tp)
    if p is None or p.deleted:
        if broker.controller_client is not None and p is None and _leader_of(broker, tp) is not None:
            return ErrorCode.NOT_LEADER_OR_FOLLOWER  # hosted elsewhere in the cluster
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    if not p.is_leader:
        return ErrorCode.NOT_LEADER_OR_FOLLOWER
    entry = p.log.producer_state.last_entry(producer_id)
    if entry is not None and entry.coordinator_epoch > coordinator_epoch:
        return ErrorCode.TRANSACTION_COORDINATOR_FENCED  # a newer coordinator already wrote here
    if entry is not None and entry.current_txn_first_offset is None and entry.producer_epoch >= producer_epoch:
        # nothing open for this producer here (a resent marker after a restart, or the partition
        # got no record in the transaction): a marker would only move the epoch, which it
        # already has; Kafka writes it anyway, but an empty transaction needs no marker to be
        # correct, and skipping keeps retries idempotent
        if entry.producer_epoch == producer_epoch:
            _after_marker(broker, tp, producer_id, commit, on_offsets_marker)
            return ErrorCode.NONE
    batch = bytearray(build_control_batch(producer_id, producer_epoch, commit, coordinator_epoch, _now_ms()))
    try:
        p.append_as_coordinator(batch)
    except InvalidProducerEpochError:
        # the producer moved to a newer epoch on this partition: this marker is stale
        return ErrorCode.INVALID_PRODUCER_EPOCH
    except KafkaStorageError:
        return ErrorCode.KAFKA_STORAGE_ERROR
    except KafkaError as e:
        return e.code
    _after_marker(broker, tp, producer_id, commit, on_offsets_marker)
    return ErrorCode.NONE


def marker_replicated(broker: TxnHost, tp: TP) -> asyncio.Future[ErrorCode] | None:
    """Cluster mode: a future resolving when the marker just written to `tp` (which this broker
    leads) is covered by the high watermark, or None when nothing needs waiting for. Kafka appends
    markers with acks=-1: a marker acknowledged before its followers had it would be lost with
    the leader, leaving the transaction open on that partition for ever (its LSO stuck, and on
    __consumer_offsets its offsets pending, so OffsetFetch with require_stable never settles).
    Resolves to NONE, NOT_LEADER_OR_FOLLOWER if leadership moved, REQUEST_TIMED_OUT otherwise."""
    if broker.controller_client is None:
        return None
    p = broker.partition(*tp)
    if p is None:
        return None
    wait = wait_until_replicated(p, broker.replica_manager.produce_purgatory, MARKER_REPLICATION_TIMEOUT_MS)
    if wait is None:
        return None

    def as_marker_code(code: ErrorCode) -> ErrorCode:
        if code == ErrorCode.NOT_COORDINATOR:
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
        return ErrorCode.NONE if code == ErrorCode.NONE else ErrorCode.REQUEST_TIMED_OUT

    async def mapped() -> ErrorCode:
        return as_marker_code(await wait)

    return asyncio.ensure_future(mapped())


def _after_marker(broker: TxnHost, tp: TP, producer_id: int, commit: bool, hook: OffsetsMarkerHook | None) -> None:
    if tp[0] == OFFSETS_TOPIC and hook is not None:
        hook(tp[1], producer_id, commit)


def _leader_of(broker: TxnHost, tp: TP) -> tuple[int, str, int] | None:
    """Cluster mode: (node id, host, port) of the partition's live leader, per the controller's
    image ((-1, "", -1) while it has none: retried); None when the topic is gone."""
    client = broker.controller_client
    image = client.image if client is not None else None
    if image is None:
        return (-1, "", -1)
    topic = image.topics.get(tp[0])
    if topic is None or not 0 <= tp[1] < len(topic.partitions):
        return None
    leader = image.brokers.get(topic.partitions[tp[1]].leader)
    if leader is None or leader.fenced:
        return (-1, "", -1)
    return leader.node_id, leader.host, leader.port


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass
class MarkerJob:
    producer_id: int
    producer_epoch: int
    commit: bool
    coordinator_epoch: int
    remaining: set[TP] = field(default_factory=set)
    attempts: int = 0
    remote_in_flight: bool = False


class MarkerWriter:
    """Markers of transactions being completed, retried until every partition has its own."""

    def __init__(self, broker: TxnHost, on_done: Callable[[int, bool], None]) -> None:
        self.broker = broker
        self.on_done = on_done
        self.jobs: dict[int, MarkerJob] = {}
        self.offsets_hook: OffsetsMarkerHook | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def pending(self, producer_id: int) -> bool:
        return producer_id in self.jobs

    def forget(self, producer_id: int) -> None:
        self.jobs.pop(producer_id, None)

    def send(self, meta: TransactionMetadata, commit: bool, coordinator_epoch: int) -> None:
        job = MarkerJob(meta.producer_id, meta.producer_epoch, commit, coordinator_epoch, set(meta.partitions))
        self.jobs[meta.producer_id] = job
        self._attempt(job)

    def _attempt(self, job: MarkerJob) -> None:
        job.attempts += 1
        remote: dict[tuple[int, str, int], list[TP]] = {}
        replicating: dict[TP, asyncio.Future[ErrorCode]] = {}
        for tp in sorted(job.remaining):
            code = write_marker(
                self.broker,
                tp,
                job.producer_id,
                job.producer_epoch,
                job.commit,
                job.coordinator_epoch,
                self.offsets_hook,
            )
            if code == ErrorCode.NONE and (wait := marker_replicated(self.broker, tp)) is not None:
                replicating[tp] = wait  # done once its followers have it
                continue
            if code in _DONE:
                job.remaining.discard(tp)
                continue
            if code == ErrorCode.NOT_LEADER_OR_FOLLOWER and self.broker.controller_client is not None:
                leader = _leader_of(self.broker, tp)
                if leader is None:
                    job.remaining.discard(tp)  # the topic is gone
                    continue
                if leader[0] >= 0 and leader[0] != self.broker.node_id:
                    remote.setdefault(leader, []).append(tp)
                    continue
            if job.attempts == 1 or job.attempts % 50 == 0:
                log.info("marker for producer %d on %s-%d: %s, retrying", job.producer_id, tp[0], tp[1], code.name)
        if (remote or replicating) and not job.remote_in_flight:
            job.remote_in_flight = True
            self._spawn(self._send_remote(job, remote, replicating))
            return
        for wait in replicating.values():
            wait.cancel()  # a write already in flight retries these partitions when it ends
        if not job.remaining:
            if self.jobs.get(job.producer_id) is job:
                del self.jobs[job.producer_id]
            self.on_done(job.producer_id, job.commit)
            return
        self._schedule_retry()

    def _spawn(self, coro: Any) -> None:
        loop = self.broker.loop
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            pass
        if loop is None:
            coro.close()
            return
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_remote(
        self,
        job: MarkerJob,
        remote: dict[tuple[int, str, int], list[TP]],
        replicating: dict[TP, asyncio.Future[ErrorCode]],
    ) -> None:
        """WriteTxnMarkers to each leader of the job's partitions elsewhere in the cluster, and the
        wait for the markers written here to reach their followers."""

        async def local(tp: TP, wait: asyncio.Future[ErrorCode]) -> None:
            if await wait == ErrorCode.NONE:
                job.remaining.discard(tp)

        async def one(host: str, port: int, tps: list[TP]) -> None:
            by_topic: dict[str, list[int]] = {}
            for topic, index in tps:
                by_topic.setdefault(topic, []).append(index)
            body = wtq.WriteTxnMarkersRequest(
                markers=[
                    wtq.WritableTxnMarker(
                        producer_id=job.producer_id,
                        producer_epoch=job.producer_epoch,
                        transaction_result=job.commit,
                        topics=[wtq.WritableTxnMarkerTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()],
                        coordinator_epoch=job.coordinator_epoch,
                    )
                ]
            )
            conn = await LeaderConnection.open(host, port, f"txn-markers-{self.broker.node_id}", _REMOTE_TIMEOUT_S)
            try:
                version = conn.best_version(WRITE_TXN_MARKERS)
                resp = await conn.request(WRITE_TXN_MARKERS, body, version, _REMOTE_TIMEOUT_S)
            finally:
                conn.close()
            for marker in resp.markers:
                for topic in marker.topics:
                    for part in topic.partitions:
                        if ErrorCode(part.error_code) in _DONE:
                            job.remaining.discard((topic.name, part.partition_index))

        try:
            results = await asyncio.gather(
                *(one(h, p, tps) for (_, h, p), tps in remote.items()),
                *(local(tp, wait) for tp, wait in replicating.items()),
                return_exceptions=True,
            )
            for r in results:
                if isinstance(r, BaseException):
                    log.info("WriteTxnMarkers for producer %d failed: %s, retrying", job.producer_id, r)
        finally:
            job.remote_in_flight = False
        if self.jobs.get(job.producer_id) is not job:
            return  # forgotten (this broker resigned as coordinator)
        if not job.remaining:
            del self.jobs[job.producer_id]
            self.on_done(job.producer_id, job.commit)
        else:
            self._schedule_retry()

    def _schedule_retry(self) -> None:
        if self._retry is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            # the host's loop is Optional: None is handled on the next line
            loop = self.broker.loop  # type: ignore[assignment]
            if loop is None:
                return  # unit tests: retry_now() by hand
        self._retry = loop.call_later(_RETRY_BACKOFF_S, self.retry_now)

    def retry_now(self) -> None:
        self._retry = None
        for job in list(self.jobs.values()):
            self._attempt(job)

    def shutdown(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        for task in list(self._tasks):
            task.cancel()
