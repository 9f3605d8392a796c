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
from typing import TYPE_CHECKING

from broker_embedded.log.errors import InvalidProducerEpochError, KafkaStorageError
from broker_embedded.log.log import AppendOrigin
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import build_control_batch

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.txn.state import TransactionMetadata

log = logging.getLogger(__name__)

TP = tuple[str, int]
OFFSETS_TOPIC = "__consumer_offsets"
_RETRY_BACKOFF_S = 0.1

# Called after a marker reached a __consumer_offsets partition (pending transactional offsets are
# then materialized or dropped): (partition, producer id, commit).
OffsetsMarkerHook = Callable[[int, int, bool], None]


def write_marker(
    broker: Broker,
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
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    if not p.is_leader:
        return ErrorCode.NOT_LEADER_OR_FOLLOWER
    entry = p.log.producer_state.last_entry(producer_id)
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
        p.log.append_as_leader(batch, p.leader_epoch, origin=AppendOrigin.COORDINATOR)
    except InvalidProducerEpochError:
        # the producer moved to a newer epoch on this partition: this marker is stale
        return ErrorCode.INVALID_PRODUCER_EPOCH
    except KafkaStorageError:
        return ErrorCode.KAFKA_STORAGE_ERROR
    except KafkaError as e:
        return e.code
    p.after_coordinator_append()
    _after_marker(broker, tp, producer_id, commit, on_offsets_marker)
    return ErrorCode.NONE


def _after_marker(broker: Broker, tp: TP, producer_id: int, commit: bool, hook: OffsetsMarkerHook | None) -> None:
    if tp[0] == OFFSETS_TOPIC and hook is not None:
        hook(tp[1], producer_id, commit)


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


class MarkerWriter:
    """Markers of transactions being completed, retried until every partition has its own."""

    def __init__(self, broker: Broker, on_done: Callable[[int, bool], None]) -> None:
        self.broker = broker
        self.on_done = on_done
        self.jobs: dict[int, MarkerJob] = {}
        self.offsets_hook: OffsetsMarkerHook | None = None
        self._retry: asyncio.TimerHandle | None = None

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
            if code in (ErrorCode.NONE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.INVALID_PRODUCER_EPOCH):
                job.remaining.discard(tp)
            elif job.attempts == 1 or job.attempts % 50 == 0:
                log.info("marker for producer %d on %s-%d: %s, retrying", job.producer_id, tp[0], tp[1], code.name)
        if not job.remaining:
            if self.jobs.get(job.producer_id) is job:
                del self.jobs[job.producer_id]
            self.on_done(job.producer_id, job.commit)
            return
        self._schedule_retry()

    def _schedule_retry(self) -> None:
        if self._retry is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
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
