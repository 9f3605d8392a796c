"""JoinGroup (API 11): parked until the rebalance completes (DelayedJoin in the purgatory)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import join_group_request as rq
from kafka_wire.protocol.messages import join_group_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 11


def handle(broker: Broker, ctx: RequestContext, request: rq.JoinGroupRequest) -> Any:
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return rs.JoinGroupResponse(error_code=denied, generation_id=-1, member_id=request.member_id)
    result = broker.group_coordinator.join_group(
        request, ctx.api_version, ctx.header.client_id or "", "/" + ctx.peer.rsplit(":", 1)[0]
    )
    if not isinstance(result, asyncio.Future):
        return result
    out: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    member_id = request.member_id

    def done(f: asyncio.Future[Any]) -> None:
        if out.done():
            return
        response = f.result() if not f.cancelled() else None
        # None: the member was removed or fenced while it waited
        out.set_result(response or rs.JoinGroupResponse(error_code=ErrorCode.UNKNOWN_MEMBER_ID, member_id=member_id))

    result.add_done_callback(done)
    return out
