"""ListGroups (API 16), with the states filter (v4+) and types filter (v5+: classic, consumer and share groups)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import list_groups_request as rq
from kafka_wire.protocol.messages import list_groups_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 16


def handle(broker: Broker, ctx: RequestContext, request: rq.ListGroupsRequest) -> rs.ListGroupsResponse:
    states = {s.lower() for s in request.states_filter or []}
    types = {t.lower() for t in request.types_filter or []}
    groups = []
    # DESCRIBE on the cluster lists every group; otherwise only the groups the principal may describe
    everything = authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER) == ErrorCode.NONE
    consumer_groups = broker.group_coordinator.consumer_groups.groups
    for cg in consumer_groups.values():
        if not everything and authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, cg.group_id):
            continue
        if (states and cg.state.value.lower() not in states) or (types and "consumer" not in types):
            continue
        groups.append(
            rs.ListedGroup(
                group_id=cg.group_id, protocol_type="consumer", group_state=cg.state.value, group_type="consumer"
            )
        )
    streams_groups = broker.group_coordinator.streams_groups.groups
    for sg in streams_groups.values():  # KIP-1071
        if not everything and authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, sg.group_id):
            continue
        if (states and sg.state().lower() not in states) or (types and "streams" not in types):
            continue
        groups.append(
            rs.ListedGroup(group_id=sg.group_id, protocol_type="streams", group_state=sg.state(), group_type="streams")
        )
    for g in broker.group_coordinator.groups.values():
        if g.group_id in streams_groups and not g.members:
            continue
        if g.group_id in consumer_groups and not g.members:
            continue  # the offsets of a consumer group, kept beside its classic twin
        if not everything and authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, g.group_id):
            continue
        if states and g.state.value.lower() not in states:
            continue
        if types and "classic" not in types:
            continue
        groups.append(
            rs.ListedGroup(
                group_id=g.group_id,
                protocol_type=g.protocol_type or "",
                group_state=g.state.value,
                group_type="classic",
            )
        )
    for group_id, state in ShareGroupAdmin(broker.share_coordinator).listed():
        if not everything and authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
            continue
        if (states and state.lower() not in states) or (types and "share" not in types):
            continue
        groups.append(rs.ListedGroup(group_id=group_id, protocol_type="share", group_state=state, group_type="share"))
    return rs.ListGroupsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, groups=groups)
