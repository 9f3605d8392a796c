"""DeleteRecords (API 21): move a partition's log start offset forward."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import delete_records_request as rq
from kafka_wire.protocol.messages import delete_records_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 21


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteRecordsRequest) -> rs.DeleteRecordsResponse:
    topics = []
    for t in request.topics:
        parts = []
        if denied := authorize(ctx, AclOperation.DELETE, ResourceType.TOPIC, t.name):
            parts = [
                rs.DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=-1, error_code=denied)
                for p in t.partitions
            ]
            topics.append(rs.DeleteRecordsTopicResult(name=t.name, partitions=parts))
            continue
        for p in t.partitions:
            partition = broker.partition(t.name, p.partition_index)
            if partition is None:
                parts.append(
                    rs.DeleteRecordsPartitionResult(
                        partition_index=p.partition_index,
                        low_watermark=-1,
                        error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                    )
                )
                continue
            try:
                partition.check_leader()  # a follower answers NOT_LEADER_OR_FOLLOWER before the policy
                if not partition.log.config.delete_enabled:
                    # Kafka (Partition.deleteRecordsOnLeader): only a log whose cleanup.policy
                    # includes "delete" may have its records deleted ("compact,delete" may)
                    raise KafkaError(
                        f"Records of partition {t.name}-{p.partition_index} can not be deleted due to the "
                        "configured policy",
                        ErrorCode.POLICY_VIOLATION,
                    )
                low = partition.delete_records_before(p.offset)
            except KafkaError as e:
                parts.append(
                    rs.DeleteRecordsPartitionResult(
                        partition_index=p.partition_index, low_watermark=-1, error_code=e.code
                    )
                )
                continue
            parts.append(rs.DeleteRecordsPartitionResult(partition_index=p.partition_index, low_watermark=low))
        topics.append(rs.DeleteRecordsTopicResult(name=t.name, partitions=parts))
    return rs.DeleteRecordsResponse(throttle_time_ms=0, topics=topics)
