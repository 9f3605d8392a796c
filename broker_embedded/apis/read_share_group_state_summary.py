"""ReadShareGroupStateSummary (API 87): start offset and delivery-complete count (share-group offsets)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult, not_coordinator
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import read_share_group_state_summary_request as rq
from kafka_wire.protocol.messages import read_share_group_state_summary_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 87


def handle(
    broker: Broker, ctx: RequestContext, request: rq.ReadShareGroupStateSummaryRequest
) -> rs.ReadShareGroupStateSummaryResponse:
    persister = broker.share_coordinator.partitions.persister
    service = ShareStateService(persister) if persister is not None else None
    # an inter-broker RPC: CLUSTER_ACTION on the cluster, as Kafka checks it
    denied = authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
    results = []
    for topic in request.topics:
        partitions = []
        for p in topic.partitions:
            key = ShareGroupStateKey(request.group_id, str(uuid.UUID(bytes=bytes(topic.topic_id))), p.partition)
            if denied:
                r = StateResult(ErrorCode(denied), None)
            elif service is None:
                r = not_coordinator("read share group state summary")
            else:
                r = service.summary(key, p.leader_epoch)
            partitions.append(
                rs.PartitionResult(
                    partition=p.partition,
                    error_code=r.error,
                    error_message=r.message,
                    state_epoch=r.state_epoch,
                    leader_epoch=r.leader_epoch,
                    start_offset=r.start_offset,
                    delivery_complete_count=r.delivery_complete_count,
                )
            )
        results.append(rs.ReadStateSummaryResult(topic_id=topic.topic_id, partitions=partitions))
    return rs.ReadShareGroupStateSummaryResponse(results=results)
