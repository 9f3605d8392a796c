"""ListPartitionReassignments (API 46): the ongoing partition reassignments.

In a cluster the controller answers (``broker_embedded.controller.reassignment``): the partitions
being moved among those asked for (null = all), with their replicas and the ones being added and
removed; unknown topics and partitions are left out, as Kafka's controller does. A single broker
never has a reassignment in progress.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import KafkaError
from kafka_wire.protocol.messages import list_partition_reassignments_request as rq
from kafka_wire.protocol.messages import list_partition_reassignments_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 46


def handle(broker: Broker, ctx: RequestContext, request: rq.ListPartitionReassignmentsRequest) -> Any:
    denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER)
    if denied:
        return rs.ListPartitionReassignmentsResponse(error_code=denied, error_message=None, topics=[])
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request))
    return rs.ListPartitionReassignmentsResponse(error_code=0, error_message=None, topics=[])


async def _handle_cluster(
    broker: Broker, request: rq.ListPartitionReassignmentsRequest
) -> rs.ListPartitionReassignmentsResponse:
    assert broker.controller_client is not None
    wanted = None if request.topics is None else [[t.name, list(t.partition_indexes)] for t in request.topics]
    try:
        msg = await broker.controller_client.request(
            "list_partition_reassignments", timeout=max(request.timeout_ms, 1000) / 1000, topics=wanted
        )
    except KafkaError as e:
        return rs.ListPartitionReassignmentsResponse(error_code=e.code, error_message=str(e), topics=[])
    return rs.ListPartitionReassignmentsResponse(
        error_code=0,
        error_message=None,
        topics=[
            rs.OngoingTopicReassignment(
                name=name,
                partitions=[
                    rs.OngoingPartitionReassignment(
                        partition_index=int(i), replicas=replicas, adding_replicas=adding, removing_replicas=removing
                    )
                    for i, replicas, adding, removing in parts
                ],
            )
            for name, parts in msg["topics"]
        ],
    )
