"""LeaveGroup (API 13): one member (v0–2) or a batch of members by identity (v3+, KIP-345)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.protocol.messages import leave_group_request as rq
from kafka_wire.protocol.messages import leave_group_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 13


def handle(broker: Broker, ctx: RequestContext, request: rq.LeaveGroupRequest) -> rs.LeaveGroupResponse:
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return rs.LeaveGroupResponse(throttle_time_ms=0, error_code=denied, members=[])
    if ctx.api_version >= 3:
        members = [(m.member_id, m.group_instance_id) for m in request.members]
    else:
        members = [(request.member_id, None)]
    code, codes = broker.group_coordinator.leave_group(request.group_id, members)
    if ctx.api_version < 3:
        return rs.LeaveGroupResponse(throttle_time_ms=0, error_code=codes[0] if code == 0 else code)
    return rs.LeaveGroupResponse(
        throttle_time_ms=0,
        error_code=code,
        members=[
            rs.MemberResponse(member_id=m, group_instance_id=i, error_code=c)
            for (m, i), c in zip(members, codes, strict=True)
        ],
    )
