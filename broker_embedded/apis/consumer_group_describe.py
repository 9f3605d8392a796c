"""ConsumerGroupDescribe (API 69): epochs, members, their current and target assignments (KIP-848)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.features import group_protocol_enabled
from broker_embedded.group.consumer_records import Assignment
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import consumer_group_describe_request as rq
from kafka_wire.protocol.messages import consumer_group_describe_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 69


def _assignment(assignment: Assignment, names: dict[bytes, str]) -> rs.Assignment:
    return rs.Assignment(
        topic_partitions=[
            rs.TopicPartitions(topic_id=t, topic_name=names.get(t, ""), partitions=sorted(ps))
            for t, ps in sorted(assignment.items(), key=lambda kv: names.get(kv[0], ""))
            if ps and t in names
        ]
    )


def handle(
    broker: Broker, ctx: RequestContext, request: rq.ConsumerGroupDescribeRequest
) -> rs.ConsumerGroupDescribeResponse:
    if not group_protocol_enabled(broker):  # group.version 0: every group UNSUPPORTED_VERSION, as Kafka answers
        return rs.ConsumerGroupDescribeResponse(
            groups=[rs.DescribedGroup(group_id=g, error_code=ErrorCode.UNSUPPORTED_VERSION) for g in request.group_ids]
        )
    coordinator = broker.group_coordinator
    names = {t.topic_id: t.name for t in broker.topics}
    out = []
    for group_id in request.group_ids or []:
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id)
        code = code or coordinator.coordinator_error(group_id)
        if code != ErrorCode.NONE:
            out.append(rs.DescribedGroup(error_code=code, group_id=group_id, members=[]))
            continue
        group = coordinator.consumer_groups.groups.get(group_id)
        if group is None:
            classic = coordinator.groups.get(group_id)
            if classic is not None and (classic.members or classic.protocol_type):
                message = f"Group {group_id} is not a consumer group."
            else:
                message = f"Group {group_id} not found."
            out.append(
                rs.DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                    error_message=message,
                    group_id=group_id,
                    group_state="Dead",
                    members=[],
                )
            )
            continue
        members = [
            rs.Member(
                member_id=m.member_id,
                instance_id=m.instance_id,
                rack_id=m.rack_id,
                member_epoch=m.member_epoch,
                client_id=m.client_id,
                client_host=m.client_host,
                subscribed_topic_names=list(m.subscribed_topic_names),
                subscribed_topic_regex=m.subscribed_topic_regex,
                assignment=_assignment(m.assigned, names),
                target_assignment=_assignment(group.target.get(m.member_id, {}), names),
                member_type=1,  # consumer protocol (0 would be a classic member of a consumer group)
            )
            for m in group.members.values()
        ]
        assignor = next((m.server_assignor for m in group.members.values() if m.server_assignor), None)
        out.append(
            rs.DescribedGroup(
                error_code=ErrorCode.NONE,
                group_id=group_id,
                group_state=group.state.value,
                group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch,
                assignor_name=assignor or coordinator.consumer_groups.assignors[0],
                members=members,
                authorized_operations=-2147483648,
            )
        )
    return rs.ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=out)
