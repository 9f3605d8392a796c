"""AlterShareGroupOffsets (API 91): set the start offsets of an empty share group's share-partitions."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.features import UNSUPPORTED, share_groups_enabled
from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.group.share_admin_cluster import local_writes_done
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import alter_share_group_offsets_request as rq
from kafka_wire.protocol.messages import alter_share_group_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 91


def handle(broker: Broker, ctx: RequestContext, request: rq.AlterShareGroupOffsetsRequest) -> Any:
    if not share_groups_enabled(broker):  # share.version 0, before the ACLs (Kafka's KafkaApis)
        return rs.AlterShareGroupOffsetsResponse(
            error_code=ErrorCode.UNSUPPORTED_VERSION, error_message=UNSUPPORTED, responses=[]
        )
    code = authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id)
    code = code or broker.group_coordinator.coordinator_error(request.group_id)
    if code != ErrorCode.NONE:
        return rs.AlterShareGroupOffsetsResponse(throttle_time_ms=0, error_code=code, responses=[])
    denied = [t for t in request.topics if authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.topic_name)]
    allowed = [
        (t.topic_name, [(p.partition_index, p.start_offset) for p in t.partitions])
        for t in request.topics
        if t not in denied
    ]
    code, message, results = ShareGroupAdmin(broker.share_coordinator).alter_offsets(request.group_id, allowed)
    responses = [
        rs.AlterShareGroupOffsetsResponseTopic(
            topic_name=t.topic_name,
            topic_id=bytes(16),
            partitions=[
                rs.AlterShareGroupOffsetsResponsePartition(
                    partition_index=p.partition_index, error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED
                )
                for p in t.partitions
            ],
        )
        for t in denied
    ]
    responses += [
        rs.AlterShareGroupOffsetsResponseTopic(
            topic_name=r.name,
            topic_id=r.topic_id,
            partitions=[
                rs.AlterShareGroupOffsetsResponsePartition(partition_index=i, error_code=c, error_message=m)
                for i, c, m in r.partitions
            ],
        )
        for r in results
    ]
    if code != ErrorCode.NONE:
        responses = []
    response = rs.AlterShareGroupOffsetsResponse(
        throttle_time_ms=0, error_code=code, error_message=message, responses=responses
    )
    # a cluster: answered once the share coordinators hold the new start offsets (Kafka answers
    # after its persister's initializeState), so a describe that follows reads them
    flushed = local_writes_done(broker.share_coordinator.partitions.persister) if code == ErrorCode.NONE else None
    if flushed is None:
        return response

    async def later() -> rs.AlterShareGroupOffsetsResponse:
        await flushed
        return response

    return asyncio.ensure_future(later())
