"""DeleteGroups (API 42): only Empty groups; their offsets are tombstoned."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.protocol.messages import delete_groups_request as rq
from kafka_wire.protocol.messages import delete_groups_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 42


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteGroupsRequest) -> rs.DeleteGroupsResponse:
    codes = broker.group_coordinator.delete_groups(list(request.groups_names))
    return rs.DeleteGroupsResponse(
        throttle_time_ms=0,
        results=[rs.DeletableGroupResult(group_id=g, error_code=codes[g]) for g in request.groups_names],
    )
