"""WriteShareGroupState (API 85): a share-partition leader writes what acknowledgements, releases and lock
timeouts changed."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult, not_coordinator
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import write_share_group_state_request as rq
from kafka_wire.protocol.messages import write_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 85


def handle(
    broker: Broker, ctx: RequestContext, request: rq.WriteShareGroupStateRequest
) -> rs.WriteShareGroupStateResponse:
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
                r = not_coordinator("write share group state")
            else:
                r = service.write(
                    key,
                    p.state_epoch,
                    p.leader_epoch,
                    p.start_offset,
                    [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p.state_batches],
                    p.delivery_complete_count,
                )
            partitions.append(rs.PartitionResult(partition=p.partition, error_code=r.error, error_message=r.message))
        results.append(rs.WriteStateResult(topic_id=topic.topic_id, partitions=partitions))
    return rs.WriteShareGroupStateResponse(results=results)
