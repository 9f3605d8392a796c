"""ShareGroupHeartbeat (API 76): join, heartbeat and leave of a share group (KIP-932).

Membership and assignment live in ``broker_embedded.group.share_group``; this module converts the
wire structs. Version 1 (Kafka 4.1+, the only one Kafka 4.3 serves) has the member bring its own id.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from broker_embedded.features import share_groups_enabled
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import share_group_heartbeat_request as rq
from kafka_wire.protocol.messages import share_group_heartbeat_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 76

log = logging.getLogger(__name__)


def handle(broker: Broker, ctx: RequestContext, request: rq.ShareGroupHeartbeatRequest) -> Any:
    def error(code: ErrorCode, message: str | None = None) -> rs.ShareGroupHeartbeatResponse:
        return rs.ShareGroupHeartbeatResponse(error_code=code, error_message=message, member_epoch=-1)

    if not share_groups_enabled(broker):  # share.version 0, before the ACLs (Kafka's KafkaApis)
        return rs.ShareGroupHeartbeatResponse(error_code=ErrorCode.UNSUPPORTED_VERSION)
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return error(denied)
    for topic in request.subscribed_topic_names or []:
        if authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topic):
            return error(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    if code := broker.group_coordinator.coordinator_error(request.group_id):
        return error(code)
    share = broker.share_coordinator
    try:
        out = share.groups.heartbeat(
            request.group_id,
            request.member_id,
            request.member_epoch,
            request.rack_id,
            list(request.subscribed_topic_names) if request.subscribed_topic_names is not None else None,
            share.clock(),
            client_id=ctx.header.client_id or "",
            client_host="/" + ctx.peer.rsplit(":", 1)[0],
        )
    except KafkaError as e:
        log.debug("ShareGroupHeartbeat of %s in %s: %s", request.member_id, request.group_id, e)
        return error(e.code, str(e))
    share.heartbeat_seen()
    assignment = None
    if out.assignment is not None:
        assignment = rs.Assignment(
            topic_partitions=[
                rs.TopicPartitions(topic_id=t, partitions=sorted(ps)) for t, ps in sorted(out.assignment.items()) if ps
            ]
        )
    response = rs.ShareGroupHeartbeatResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        member_id=out.member_id,
        member_epoch=out.member_epoch,
        heartbeat_interval_ms=out.heartbeat_interval_ms,
        assignment=assignment,
    )
    # cluster mode: answered once the group's records are replicated, as Kafka's coordinator does
    wait = broker.group_coordinator.replication_wait(request.group_id) if out.records_written else None
    if wait is None:
        return response
    return asyncio.ensure_future(_after_replication(wait, response))


async def _after_replication(
    wait: asyncio.Future[ErrorCode], response: rs.ShareGroupHeartbeatResponse
) -> rs.ShareGroupHeartbeatResponse:
    code = await wait
    if code != ErrorCode.NONE:
        return rs.ShareGroupHeartbeatResponse(error_code=code, member_epoch=-1)
    return response
