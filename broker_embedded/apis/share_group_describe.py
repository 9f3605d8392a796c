"""ShareGroupDescribe (API 77): a share group's state, epochs, members and their assignments."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.features import share_groups_enabled
from broker_embedded.group.share_group import ASSIGNOR_NAME, Assignment
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import share_group_describe_request as rq
from kafka_wire.protocol.messages import share_group_describe_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 77
AUTHORIZED_OPERATIONS_OMITTED = -(2**31)


def _assignment(assignment: Assignment, names: dict[bytes, str]) -> rs.Assignment:
    return rs.Assignment(
        topic_partitions=[
            rs.TopicPartitions(topic_id=t, topic_name=names[t], partitions=sorted(ps))
            for t, ps in sorted(assignment.items(), key=lambda kv: names.get(kv[0], ""))
            if ps and t in names
        ]
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.ShareGroupDescribeRequest) -> rs.ShareGroupDescribeResponse:
    if not share_groups_enabled(broker):  # share.version 0: every group UNSUPPORTED_VERSION, as Kafka answers
        return rs.ShareGroupDescribeResponse(
            groups=[rs.DescribedGroup(group_id=g, error_code=ErrorCode.UNSUPPORTED_VERSION) for g in request.group_ids]
        )
    share = broker.share_coordinator
    share.groups.expire(share.clock())
    names = {t.topic_id: t.name for t in broker.topics}
    out = []
    for group_id in request.group_ids or []:
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id)
        code = code or broker.group_coordinator.coordinator_error(group_id)
        if code != ErrorCode.NONE:
            out.append(rs.DescribedGroup(error_code=code, group_id=group_id, members=[]))
            continue
        group = share.groups.get(group_id)
        if group is None:
            out.append(
                rs.DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                    error_message=f"Group {group_id} not found.",
                    group_id=group_id,
                    members=[],
                    authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
                )
            )
            continue
        members = [
            rs.Member(
                member_id=m.member_id,
                rack_id=m.rack_id,
                member_epoch=m.member_epoch,
                client_id=m.client_id,
                client_host=m.client_host,
                subscribed_topic_names=list(m.subscribed_topic_names),
                assignment=_assignment(m.assignment, names),
            )
            for m in list(group.members.values())
        ]
        out.append(
            rs.DescribedGroup(
                error_code=ErrorCode.NONE,
                group_id=group_id,
                group_state=group.state,
                group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch,
                assignor_name=ASSIGNOR_NAME,
                members=members,
                authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
            )
        )
    return rs.ShareGroupDescribeResponse(throttle_time_ms=0, groups=out)
