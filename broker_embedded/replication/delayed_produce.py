"""DelayedProduce: an acks=all produce parked in the purgatory until the ISR has the records.

One operation per request, watched by every partition it appended to (key ``("produce", topic,
partition)``). It completes when, for every partition, the leader's high watermark reached the
offset after the appended batch (the ISR followers fetched past it), or the partition has an answer
of its own: NOT_ENOUGH_REPLICAS_AFTER_APPEND (the ISR shrank below min.insync.replicas meanwhile),
NOT_LEADER_OR_FOLLOWER (leadership lost or moved to another epoch). The request's timeout answers
REQUEST_TIMED_OUT for the partitions still waiting. The append's own results (base offset, log
append time) are the response: they do not change while the request waits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from broker_embedded.purgatory.delayed_operation import DelayedOperation
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import produce_response as rs

if TYPE_CHECKING:
    from broker_embedded.partition import Partition


class PartitionLookup(Protocol):
    """The partitions hosted here (the replica manager): None once a partition is gone."""

    def partition(self, topic: str, index: int) -> Partition | None: ...


@dataclass(slots=True)
class ProducePartitionStatus:
    topic: str
    partition: int
    required_offset: int  # last appended offset + 1: the HW must reach it
    leader_epoch: int  # the epoch the records were appended in
    response: rs.PartitionProduceResponse
    acks_pending: bool = True


class DelayedProduce(DelayedOperation):
    def __init__(
        self,
        partitions: PartitionLookup,
        timeout_ms: int,
        statuses: list[ProducePartitionStatus],
        respond: Callable[[], Any],
        future: asyncio.Future[Any],
    ) -> None:
        super().__init__(max(timeout_ms, 0))
        self.partitions = partitions
        self.statuses = statuses
        self.respond = respond
        self.future = future

    def try_complete(self) -> bool:
        for s in self.statuses:
            if not s.acks_pending:
                continue
            partition = self.partitions.partition(s.topic, s.partition)
            if partition is None:
                error: ErrorCode | None = ErrorCode.NOT_LEADER_OR_FOLLOWER
            else:
                error = partition.check_enough_replicas_reach_offset(s.required_offset, s.leader_epoch)
            if error is not None:
                s.acks_pending = False
                if error != ErrorCode.NONE:
                    _fail(s.response, error)
        if all(not s.acks_pending for s in self.statuses):
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        for s in self.statuses:
            if s.acks_pending:
                # completed by the timeout (or forced) before the ISR caught up
                _fail(s.response, ErrorCode.REQUEST_TIMED_OUT)
        response = self.respond()
        loop = self.future.get_loop()
        loop.call_soon_threadsafe(_set_result, self.future, response)

    def on_expiration(self) -> None:
        pass


def _fail(r: rs.PartitionProduceResponse, error: ErrorCode) -> None:
    # like Kafka, only the error changes: the offsets say where the (unacknowledged) append went
    r.error_code = error


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)
