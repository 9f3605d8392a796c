"""OffsetDelete (API 47): delete committed offsets of partitions the group no longer consumes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import offset_delete_request as rq
from kafka_wire.protocol.messages import offset_delete_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 47


def handle(broker: Broker, ctx: RequestContext, request: rq.OffsetDeleteRequest) -> rs.OffsetDeleteResponse:
    if denied := authorize(ctx, AclOperation.DELETE, ResourceType.GROUP, request.group_id):
        return rs.OffsetDeleteResponse(error_code=denied, topics=[])
    refused = {
        (t.name, p.partition_index): code
        for t in request.topics
        if (code := authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.name))
        for p in t.partitions
    }
    partitions = [(t.name, p.partition_index) for t in request.topics for p in t.partitions]
    code, codes = broker.group_coordinator.delete_offsets(
        request.group_id, [tp for tp in partitions if tp not in refused]
    )
    codes.update(refused)
    if code != ErrorCode.NONE:
        return rs.OffsetDeleteResponse(error_code=code, topics=[])
    return rs.OffsetDeleteResponse(
        error_code=ErrorCode.NONE,
        throttle_time_ms=0,
        topics=[
            rs.OffsetDeleteResponseTopic(
                name=t.name,
                partitions=[
                    rs.OffsetDeleteResponsePartition(
                        partition_index=p.partition_index, error_code=codes[(t.name, p.partition_index)]
                    )
                    for p in t.partitions
                ],
            )
            for t in request.topics
        ],
    )
