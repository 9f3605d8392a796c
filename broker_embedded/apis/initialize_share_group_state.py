"""InitializeShareGroupState (API 83): the share coordinator starts (or restarts) a share-partition's state."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult, not_coordinator
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import initialize_share_group_state_request as rq
from kafka_wire.protocol.messages import initialize_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 83


def handle(
    broker: Broker, ctx: RequestContext, request: rq.InitializeShareGroupStateRequest
) -> rs.InitializeShareGroupStateResponse:
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
                r = not_coordinator("initialize share group state")
            else:
                r = service.initialize(key, p.state_epoch, p.start_offset)
            partitions.append(rs.PartitionResult(partition=p.partition, error_code=r.error, error_message=r.message))
        results.append(rs.InitializeStateResult(topic_id=topic.topic_id, partitions=partitions))
    return rs.InitializeShareGroupStateResponse(results=results)
