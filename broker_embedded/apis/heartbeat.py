"""Heartbeat (API 12): renews the member's session; tells it when a rebalance is under way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.protocol.messages import heartbeat_request as rq
from kafka_wire.protocol.messages import heartbeat_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 12


def handle(broker: Broker, ctx: RequestContext, request: rq.HeartbeatRequest) -> rs.HeartbeatResponse:
    code = authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id)
    if not code:
        code = broker.group_coordinator.heartbeat(request, ctx.api_version)
    return rs.HeartbeatResponse(throttle_time_ms=0, error_code=code)
