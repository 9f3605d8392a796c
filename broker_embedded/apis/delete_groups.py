"""DeleteGroups (API 42): only Empty groups; their offsets are tombstoned."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.protocol.messages import delete_groups_request as rq
from kafka_wire.protocol.messages import delete_groups_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 42


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteGroupsRequest) -> rs.DeleteGroupsResponse:
    refused = {
        g: code for g in request.groups_names if (code := authorize(ctx, AclOperation.DELETE, ResourceType.GROUP, g))
    }
    # share groups (KIP-932) are the share coordinator's; the rest the group coordinator's
    share = ShareGroupAdmin(broker.share_coordinator)
    wanted = [g for g in request.groups_names if g not in refused]
    shared = {g for g in wanted if share.is_share_group(g) and not broker.group_coordinator.coordinator_error(g)}
    codes = broker.group_coordinator.delete_groups([g for g in wanted if g not in shared])
    codes.update({g: share.delete_group(g) for g in shared})
    codes.update(refused)
    return rs.DeleteGroupsResponse(
        throttle_time_ms=0,
        results=[rs.DeletableGroupResult(group_id=g, error_code=codes[g]) for g in request.groups_names],
    )
