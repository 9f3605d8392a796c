"""ListOffsets (API 2): earliest, latest, max timestamp, earliest local, or by timestamp."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import list_offsets_request as rq
from kafka_wire.protocol.messages import list_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 2
READ_COMMITTED = 1


def handle(broker: Broker, ctx: RequestContext, request: rq.ListOffsetsRequest) -> rs.ListOffsetsResponse:
    topics = []
    read_committed = request.isolation_level == READ_COMMITTED
    for t in request.topics:
        parts = []
        for p in t.partitions:
            partition = broker.partition(t.name, p.partition_index)
            if partition is None:
                parts.append(
                    rs.ListOffsetsPartitionResponse(
                        partition_index=p.partition_index, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    )
                )
                continue
            try:
                partition.check_leader_epoch(p.current_leader_epoch)
                found = partition.offset_for_timestamp(p.timestamp, read_committed)
            except KafkaError as e:
                parts.append(rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=e.code))
                continue
            if found is None:
                # no record at or after the timestamp: Kafka answers offset -1, timestamp -1
                parts.append(rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, offset=-1))
                continue
            offset, timestamp, epoch = found
            parts.append(
                rs.ListOffsetsPartitionResponse(
                    partition_index=p.partition_index,
                    error_code=ErrorCode.NONE,
                    timestamp=timestamp,
                    offset=offset,
                    leader_epoch=epoch,
                )
            )
        topics.append(rs.ListOffsetsTopicResponse(name=t.name, partitions=parts))
    return rs.ListOffsetsResponse(throttle_time_ms=0, topics=topics)
