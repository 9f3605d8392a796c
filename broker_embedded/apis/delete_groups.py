"""DeleteGroups (API 42): only Empty groups; their offsets are tombstoned."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.describe_share_group_offsets import cluster_share_admin
from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.group.share_admin_cluster import in_worker, local_writes_done
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import delete_groups_request as rq
from kafka_wire.protocol.messages import delete_groups_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 42


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteGroupsRequest) -> Any:
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

    def build() -> rs.DeleteGroupsResponse:
        return rs.DeleteGroupsResponse(
            throttle_time_ms=0,
            results=[rs.DeletableGroupResult(group_id=g, error_code=codes[g]) for g in request.groups_names],
        )

    deleted = [g for g in shared if codes[g] == ErrorCode.NONE]
    remote = cluster_share_admin(broker) if deleted else None
    if remote is None:
        return build()
    # a cluster: the deleted share groups' state goes at the share coordinators that own its keys
    flushed = local_writes_done(broker.share_coordinator.partitions.persister)

    async def later() -> rs.DeleteGroupsResponse:
        if flushed is not None:
            await flushed
        states = await in_worker(remote, lambda admin: {g: admin.delete_group(g) for g in deleted})
        codes.update(states)
        return build()

    return asyncio.ensure_future(later())
