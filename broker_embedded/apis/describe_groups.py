"""DescribeGroups (API 15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.group.state import GroupState
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_groups_request as rq
from kafka_wire.protocol.messages import describe_groups_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 15


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeGroupsRequest) -> rs.DescribeGroupsResponse:
    out = []
    for group_id in request.groups:
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id)
        # cluster mode: another broker's group
        code = code or broker.group_coordinator.coordinator_error(group_id)
        if code != ErrorCode.NONE:
            out.append(
                rs.DescribedGroup(
                    error_code=code, group_id=group_id, group_state="", protocol_type="", protocol_data="", members=[]
                )
            )
            continue
        group = broker.group_coordinator.groups.get(group_id)
        consumer_group = group_id in broker.group_coordinator.consumer_groups.groups
        # a share group (KIP-932) is not a classic group either
        consumer_group = consumer_group or broker.share_coordinator.groups.get(group_id) is not None
        consumer_group = consumer_group or group_id in broker.group_coordinator.streams_groups.groups
        if group is None or (consumer_group and not group.members):
            # v6+ says so with an error; older versions describe an unknown group as Dead. A consumer
            # group (KIP-848) is not a classic group: Kafka answers the same (ConsumerGroupDescribe has it)
            code = ErrorCode.GROUP_ID_NOT_FOUND if ctx.api_version >= 6 else ErrorCode.NONE
            message = f"Group {group_id} is not a classic group." if consumer_group else None
            out.append(
                rs.DescribedGroup(
                    error_code=code,
                    error_message=message if ctx.api_version >= 6 else None,
                    group_id=group_id,
                    group_state=GroupState.DEAD.value,
                    protocol_type="",
                    protocol_data="",
                    members=[],
                )
            )
            continue
        stable = group.state == GroupState.STABLE
        members = [
            rs.DescribedGroupMember(
                member_id=m.member_id,
                group_instance_id=m.group_instance_id,
                client_id=m.client_id,
                client_host=m.client_host,
                # metadata and assignment are only meaningful once the group is Stable
                member_metadata=m.metadata_for(group.protocol_name) if stable and group.protocol_name else b"",
                member_assignment=m.assignment if stable else b"",
            )
            for m in group.members.values()
        ]
        out.append(
            rs.DescribedGroup(
                error_code=ErrorCode.NONE,
                group_id=group_id,
                group_state=group.state.value,
                protocol_type=group.protocol_type or "",
                protocol_data=(group.protocol_name or "") if stable else "",
                members=members,
            )
        )
    return rs.DescribeGroupsResponse(throttle_time_ms=0, groups=out)
