"""DescribeShareGroupOffsets (API 90): share-partition start offsets and lag of share groups.

In a cluster the offsets come from the share coordinators that own each key
(``share_admin_cluster``), read in a worker thread; the answer is a future then."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.features import share_groups_enabled
from broker_embedded.group.share_admin import ShareGroupAdmin, TopicOffsets
from broker_embedded.group.share_admin_cluster import ClusterShareAdmin, cluster_admin, in_worker
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_share_group_offsets_request as rq
from kafka_wire.protocol.messages import describe_share_group_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 90


def cluster_share_admin(broker: Broker) -> ClusterShareAdmin | None:
    """The share-group admin that reaches the share coordinators (a cluster with Kafka's default
    persister), over the inter-broker listener as the share persister does; None otherwise."""
    return cluster_admin(
        broker.controller_client,
        broker.share_coordinator.partitions.persister,
        lambda: (broker.host, broker.port),
        lambda: broker.replica_manager.inter_broker_security,
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeShareGroupOffsetsRequest) -> Any:
    admin = ShareGroupAdmin(broker.share_coordinator)
    asked: list[tuple[str, ErrorCode, list[tuple[str, list[int]]] | None]] = []
    for group in request.groups:
        if not share_groups_enabled(broker):  # share.version 0, before the ACLs (Kafka's KafkaApis)
            asked.append((group.group_id, ErrorCode.UNSUPPORTED_VERSION, None))
            continue
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group.group_id)
        code = code or broker.group_coordinator.coordinator_error(group.group_id)
        wanted = None if group.topics is None else [(t.topic_name, list(t.partitions)) for t in group.topics]
        asked.append((group.group_id, ErrorCode(code), wanted))

    def build(described: list[list[TopicOffsets]]) -> rs.DescribeShareGroupOffsetsResponse:
        out = []
        for (group_id, code, wanted), offsets in zip(asked, described, strict=True):
            if code != ErrorCode.NONE:
                out.append(rs.DescribeShareGroupOffsetsResponseGroup(group_id=group_id, topics=[], error_code=code))
                continue
            topics = []
            for t in offsets:
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
                                error_code=denied or p.error,
                                error_message=None,
                            )
                            for p in t.partitions
                        ],
                    )
                )
            out.append(
                rs.DescribeShareGroupOffsetsResponseGroup(group_id=group_id, topics=topics, error_code=ErrorCode.NONE)
            )
        return rs.DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=out)

    remote = cluster_share_admin(broker)
    if remote is None:
        return build([admin.describe_offsets(g, w) if c == ErrorCode.NONE else [] for g, c, w in asked])

    # a cluster: each share-partition's state from the share coordinator that owns its key
    def describe(cluster: ClusterShareAdmin) -> list[list[TopicOffsets]]:
        return [cluster.describe_offsets(g, w) if c == ErrorCode.NONE else [] for g, c, w in asked]

    done = in_worker(remote, describe)

    async def later() -> rs.DescribeShareGroupOffsetsResponse:
        return build(await done)

    return asyncio.ensure_future(later())
