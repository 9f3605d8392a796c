"""DescribeShareGroupOffsets (API 90): share-partition start offsets and lag of share groups."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.features import share_groups_enabled
from broker_embedded.group.share_admin import ShareGroupAdmin
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_share_group_offsets_request as rq
from kafka_wire.protocol.messages import describe_share_group_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 90


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DescribeShareGroupOffsetsRequest
) -> rs.DescribeShareGroupOffsetsResponse:
    admin = ShareGroupAdmin(broker.share_coordinator)
    out = []
    for group in request.groups:
        if not share_groups_enabled(broker):  # share.version 0, before the ACLs (Kafka's KafkaApis)
            out.append(
                rs.DescribeShareGroupOffsetsResponseGroup(
                    group_id=group.group_id, topics=[], error_code=ErrorCode.UNSUPPORTED_VERSION
                )
            )
            continue
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group.group_id)
        code = code or broker.group_coordinator.coordinator_error(group.group_id)
        if code != ErrorCode.NONE:
            out.append(rs.DescribeShareGroupOffsetsResponseGroup(group_id=group.group_id, topics=[], error_code=code))
            continue
        wanted = None if group.topics is None else [(t.topic_name, list(t.partitions)) for t in group.topics]
        topics = []
        for t in admin.describe_offsets(group.group_id, wanted):
            denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name)
            if denied and wanted is None:
                continue  # all offsets: only the topics the principal may describe
            topics.append(
                rs.DescribeShareGroupOffsetsResponseTopic(
                    topic_name=t.name,
                    topic_id=t.topic_id,
                    partitions=[
                        rs.DescribeShareGroupOffsetsResponsePartition(
                            partition_index=p.partition,
                            start_offset=-1 if denied else p.start_offset,
                            leader_epoch=p.leader_epoch,
                            lag=-1 if denied else p.lag,
                            error_code=denied,
                            error_message=None,
                        )
                        for p in t.partitions
                    ],
                )
            )
        out.append(
            rs.DescribeShareGroupOffsetsResponseGroup(group_id=group.group_id, topics=topics, error_code=ErrorCode.NONE)
        )
    return rs.DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=out)
