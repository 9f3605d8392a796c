"""Reading a fetch request's partitions, and DelayedFetch: a long poll parked in the purgatory.

A consumer's fetch completes when min bytes are available below the high watermark, when a
partition hits an error, or when max wait passes (then it answers with whatever is there). Every
append calls ``check_and_complete(("fetch", topic, partition))``, so a long poll answers as soon
as data arrives instead of polling.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from broker_embedded.purgatory.delayed_operation import DelayedOperation
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker

READ_COMMITTED = 1


@dataclass(slots=True)
class FetchPartitionStatus:
    topic: str
    topic_id: bytes
    request: rq.FetchPartition


@dataclass
class FetchResult:
    topics: dict[tuple[str, bytes], list[rs.PartitionData]] = field(default_factory=dict)
    total_bytes: int = 0
    has_error: bool = False

    def to_response(self, use_ids: bool, extra: list[rs.FetchableTopicResponse]) -> rs.FetchResponse:
        responses = [
            rs.FetchableTopicResponse(topic="" if use_ids else name, topic_id=topic_id, partitions=parts)
            for (name, topic_id), parts in self.topics.items()
        ]
        return rs.FetchResponse(
            throttle_time_ms=0, error_code=ErrorCode.NONE, session_id=0, responses=responses + extra
        )


def read_partitions(broker: Broker, statuses: list[FetchPartitionStatus], request: rq.FetchRequest) -> FetchResult:
    result = FetchResult()
    remaining = request.max_bytes if request.max_bytes > 0 else 0x7FFFFFFF
    read_committed = request.isolation_level == READ_COMMITTED
    for s in statuses:
        fp = s.request
        key = (s.topic, s.topic_id)
        parts = result.topics.get(key)
        if parts is None:
            parts = result.topics[key] = []
        partition = broker.partition(s.topic, fp.partition)
        if partition is None:
            code = ErrorCode.UNKNOWN_TOPIC_ID if s.topic_id != b"\x00" * 16 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            # error partitions still carry empty (not null) records: librdkafka rejects a null set
            parts.append(
                rs.PartitionData(partition_index=fp.partition, error_code=code, high_watermark=-1, records=b"")
            )
            result.has_error = True
            continue
        try:
            partition.check_leader_epoch(fp.current_leader_epoch)
            # At least one whole batch for the first partition with data, so a batch bigger
            # than the limits never stalls a consumer (KIP-74).
            data = partition.read(
                fp.fetch_offset,
                max_bytes=min(fp.partition_max_bytes, remaining),
                min_one_batch=result.total_bytes == 0,
                read_committed=read_committed,
            )
        except KafkaError as e:
            parts.append(
                rs.PartitionData(
                    partition_index=fp.partition,
                    error_code=e.code,
                    high_watermark=partition.high_watermark,
                    last_stable_offset=partition.last_stable_offset,
                    log_start_offset=partition.log_start_offset,
                    records=b"",
                )
            )
            result.has_error = True
            continue
        size = len(data.records) if data.records is not None else 0
        remaining = max(0, remaining - size)
        result.total_bytes += size
        parts.append(
            rs.PartitionData(
                partition_index=fp.partition,
                error_code=ErrorCode.NONE,
                high_watermark=data.high_watermark,
                last_stable_offset=data.last_stable_offset,
                log_start_offset=data.log_start_offset,
                aborted_transactions=[] if read_committed else None,
                preferred_read_replica=-1,
                records=data.records if size else b"",
            )
        )
    return result


class DelayedFetch(DelayedOperation):
    def __init__(
        self,
        broker: Broker,
        request: rq.FetchRequest,
        statuses: list[FetchPartitionStatus],
        use_ids: bool,
        unknown: list[rs.FetchableTopicResponse],
        future: asyncio.Future[Any],
    ) -> None:
        super().__init__(request.max_wait_ms)
        self.broker = broker
        self.request = request
        self.statuses = statuses
        self.use_ids = use_ids
        self.unknown = unknown
        self.future = future
        self._result: FetchResult | None = None

    def try_complete(self) -> bool:
        result = read_partitions(self.broker, self.statuses, self.request)
        if result.has_error or result.total_bytes >= max(self.request.min_bytes, 1):
            self._result = result
            return self.force_complete()
        return False

    def on_complete(self) -> None:
        result = self._result
        if result is None:
            result = read_partitions(self.broker, self.statuses, self.request)
        response = result.to_response(self.use_ids, self.unknown)
        loop = self.future.get_loop()
        # completion may happen on the reaper or another thread: resolve on the loop thread
        loop.call_soon_threadsafe(_set_result, self.future, response)

    def on_expiration(self) -> None:
        pass


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)
