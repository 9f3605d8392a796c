"""DescribeProducers (API 61): the producer state of partitions this broker holds (KIP-664).

As in Kafka (ReplicaManager.activeProducerState), any replica answers from its own log, leader or
follower: followers build the same producer state as they append, and `kafka-transactions.sh
find-hanging --broker-id N` asks broker N about every replica it holds."""

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
                    rs.PartitionResponse(partition_index=index, error_code=_not_here(broker, t.name, index))
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


def _not_here(broker: Broker, topic: str, index: int) -> int:
    """A partition of the cluster without a replica here: NOT_LEADER_OR_FOLLOWER (the client asks
    another broker); one the cluster does not know: UNKNOWN_TOPIC_OR_PARTITION."""
    image = broker.controller_client.image if broker.controller_client is not None else None
    if image is not None:
        known = image.topics.get(topic)
        if known is not None and 0 <= index < len(known.partitions):
            return ErrorCode.NOT_LEADER_OR_FOLLOWER
    return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
