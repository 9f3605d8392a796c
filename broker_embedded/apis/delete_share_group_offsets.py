"""DeleteShareGroupOffsets (API 92): drop an empty share group's state for whole topics (in a cluster
at the share coordinators that own its keys, answered once they did)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.describe_share_group_offsets import cluster_share_admin
from broker_embedded.features import UNSUPPORTED, share_groups_enabled
from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.group.share_admin_cluster import in_worker, local_writes_done
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_share_group_offsets_request as rq
from kafka_wire.protocol.messages import delete_share_group_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 92


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteShareGroupOffsetsRequest) -> Any:
    if not share_groups_enabled(broker):  # share.version 0, before the ACLs (Kafka's KafkaApis)
        return rs.DeleteShareGroupOffsetsResponse(
            error_code=ErrorCode.UNSUPPORTED_VERSION, error_message=UNSUPPORTED, responses=[]
        )
    code = authorize(ctx, AclOperation.DELETE, ResourceType.GROUP, request.group_id)
    code = code or broker.group_coordinator.coordinator_error(request.group_id)
    if code != ErrorCode.NONE:
        return rs.DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=code, responses=[])
    names = [t.topic_name for t in request.topics]
    denied = {n for n in names if authorize(ctx, AclOperation.READ, ResourceType.TOPIC, n)}
    code, message, results = ShareGroupAdmin(broker.share_coordinator).delete_offsets(
        request.group_id, [n for n in names if n not in denied]
    )
    if code != ErrorCode.NONE:
        return rs.DeleteShareGroupOffsetsResponse(
            throttle_time_ms=0, error_code=code, error_message=message, responses=[]
        )

    def build(codes: dict[str, ErrorCode]) -> rs.DeleteShareGroupOffsetsResponse:
        responses = [
            rs.DeleteShareGroupOffsetsResponseTopic(
                topic_name=n, topic_id=bytes(16), error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED
            )
            for n in dict.fromkeys(names)
            if n in denied
        ]
        responses += [
            rs.DeleteShareGroupOffsetsResponseTopic(
                topic_name=r.name,
                topic_id=r.topic_id,
                error_code=codes.get(r.name, r.error),
                error_message=r.message if codes.get(r.name, r.error) == r.error else None,
            )
            for r in results
        ]
        return rs.DeleteShareGroupOffsetsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, responses=responses)

    remote = cluster_share_admin(broker)
    if remote is None:
        return build({})
    # a cluster: the state of every partition of the topics goes at the share coordinators that own
    # its keys, after this broker's own share-partitions' queued writes (Kafka's persister deleteState)
    found = [(r.name, r.topic_id) for r in results if r.error == ErrorCode.NONE]
    flushed = local_writes_done(broker.share_coordinator.partitions.persister)

    async def later() -> rs.DeleteShareGroupOffsetsResponse:
        if flushed is not None:
            await flushed
        return build(await in_worker(remote, lambda admin: admin.delete_topics(request.group_id, found)))

    return asyncio.ensure_future(later())
