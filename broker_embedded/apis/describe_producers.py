"""DescribeProducers (API 61): the producer state of partitions this broker leads (KIP-664)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_producers_request as rq
from kafka_wire.protocol.messages import describe_producers_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 61


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeProducersRequest) -> rs.DescribeProducersResponse:
    topics = []
    for t in request.topics:
        partitions = []
        if denied := authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.name):
            partitions = [rs.PartitionResponse(partition_index=i, error_code=denied) for i in t.partition_indexes]
            topics.append(rs.TopicResponse(name=t.name, partitions=partitions))
            continue
        for index in t.partition_indexes:
            p = broker.partition(t.name, index)
            if p is None or p.deleted:
                partitions.append(
                    rs.PartitionResponse(partition_index=index, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                )
                continue
            if not p.is_leader:
                partitions.append(
                    rs.PartitionResponse(partition_index=index, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER)
                )
                continue
            active = [
                rs.ProducerState(
                    producer_id=e.producer_id,
                    producer_epoch=e.producer_epoch,
                    last_sequence=e.last_seq,
                    last_timestamp=e.last_timestamp,
                    coordinator_epoch=e.coordinator_epoch,
                    current_txn_start_offset=-1 if e.current_txn_first_offset is None else e.current_txn_first_offset,
                )
                for e in list(p.log.producer_state.entries.values())
            ]
            partitions.append(
                rs.PartitionResponse(partition_index=index, error_code=ErrorCode.NONE, active_producers=active)
            )
        topics.append(rs.TopicResponse(name=t.name, partitions=partitions))
    return rs.DescribeProducersResponse(topics=topics)
