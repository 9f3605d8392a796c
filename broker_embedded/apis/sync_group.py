"""SyncGroup (API 14): the leader's assignment is stored, then every member gets its share."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import sync_group_request as rq
from kafka_wire.protocol.messages import sync_group_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 14


def handle(broker: Broker, ctx: RequestContext, request: rq.SyncGroupRequest) -> Any:
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return rs.SyncGroupResponse(error_code=denied, assignment=b"")
    result = broker.group_coordinator.sync_group(request, ctx.api_version)
    if not isinstance(result, asyncio.Future):
        return result
    out: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def done(f: asyncio.Future[Any]) -> None:
        if out.done():
            return
        response = f.result() if not f.cancelled() else None
        out.set_result(response or rs.SyncGroupResponse(error_code=ErrorCode.UNKNOWN_MEMBER_ID, assignment=b""))

    result.add_done_callback(done)
    return out
