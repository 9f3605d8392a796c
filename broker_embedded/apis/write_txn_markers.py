"""WriteTxnMarkers (API 27): a transaction coordinator on another broker hands this partition
leader the COMMIT/ABORT markers of a transaction."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from broker_embedded.txn.markers import marker_replicated, write_marker
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import write_txn_markers_request as rq
from kafka_wire.protocol.messages import write_txn_markers_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 27


def handle(
    broker: Broker, ctx: RequestContext, request: rq.WriteTxnMarkersRequest
) -> rs.WriteTxnMarkersResponse | asyncio.Future[rs.WriteTxnMarkersResponse]:
    hook = coordinator_of(broker).offsets.on_marker
    results = []
    # only brokers write markers: CLUSTER_ACTION on the cluster
    if denied := authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER):
        return rs.WriteTxnMarkersResponse(
            markers=[
                rs.WritableTxnMarkerResult(
                    producer_id=m.producer_id,
                    topics=[
                        rs.WritableTxnMarkerTopicResult(
                            name=t.name,
                            partitions=[
                                rs.WritableTxnMarkerPartitionResult(partition_index=i, error_code=denied)
                                for i in t.partition_indexes
                            ],
                        )
                        for t in m.topics
                    ],
                )
                for m in request.markers
            ]
        )
    for marker in request.markers:
        topics = []
        for topic in marker.topics:
            partitions = [
                rs.WritableTxnMarkerPartitionResult(
                    partition_index=index,
                    error_code=write_marker(
                        broker,
                        (topic.name, index),
                        marker.producer_id,
                        marker.producer_epoch,
                        marker.transaction_result,
                        marker.coordinator_epoch,
                        hook,
                    ),
                )
                for index in topic.partition_indexes
            ]
            topics.append(rs.WritableTxnMarkerTopicResult(name=topic.name, partitions=partitions))
        results.append(rs.WritableTxnMarkerResult(producer_id=marker.producer_id, topics=topics))
    response = rs.WriteTxnMarkersResponse(markers=results)
    # as Kafka (acks=-1): a written marker is acknowledged once its followers have it
    waits = [
        (part, wait)
        for result in results
        for topic in result.topics
        for part in topic.partitions
        if part.error_code == ErrorCode.NONE
        and (wait := marker_replicated(broker, (topic.name, part.partition_index))) is not None
    ]
    if not waits:
        return response
    return asyncio.ensure_future(_after_replication(response, waits))


async def _after_replication(
    response: rs.WriteTxnMarkersResponse, waits: list[tuple[rs.WritableTxnMarkerPartitionResult, Any]]
) -> rs.WriteTxnMarkersResponse:
    for part, wait in waits:
        part.error_code = await wait
    return response
