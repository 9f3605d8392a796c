"""OffsetForLeaderEpoch (API 23): the end offset of a leader epoch on this partition's leader.

Followers ask it for their latest epoch before fetching, to truncate a divergent tail (KIP-101 /
KIP-279); consumers (librdkafka, KIP-320) ask it to validate their position after a leader change.
The answer is the largest epoch <= the requested one that the leader knows, and the start offset of
the next epoch (or the leader's LEO for its current epoch); (-1, -1) when the leader has no such
epoch. Only the leader answers; `current_leader_epoch` fences stale (FENCED_LEADER_EPOCH) and
too-new (UNKNOWN_LEADER_EPOCH) callers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import offset_for_leader_epoch_request as rq
from kafka_wire.protocol.messages import offset_for_leader_epoch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 23


def handle(
    broker: Broker, ctx: RequestContext, request: rq.OffsetForLeaderEpochRequest
) -> rs.OffsetForLeaderEpochResponse:
    topics = []
    # a follower (replica id >= 0) needs CLUSTER_ACTION, a consumer DESCRIBE on the topic
    follower = request.replica_id >= 0
    for t in request.topics:
        parts = []
        if follower:
            denied = authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
        else:
            denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.topic)
        if denied:
            code = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            topics.append(
                rs.OffsetForLeaderTopicResult(
                    topic=t.topic,
                    partitions=[rs.EpochEndOffset(error_code=code, partition=p.partition) for p in t.partitions],
                )
            )
            continue
        for p in t.partitions:
            partition = broker.partition(t.topic, p.partition)
            if partition is None:
                hosted_elsewhere = broker.replica_manager.current_leader(t.topic, p.partition) is not None
                code = ErrorCode.NOT_LEADER_OR_FOLLOWER if hosted_elsewhere else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                parts.append(rs.EpochEndOffset(error_code=code, partition=p.partition))
                continue
            try:
                epoch, end_offset = partition.last_offset_for_leader_epoch(p.current_leader_epoch, p.leader_epoch)
            except KafkaError as e:
                parts.append(rs.EpochEndOffset(error_code=e.code, partition=p.partition))
                continue
            parts.append(
                rs.EpochEndOffset(
                    error_code=ErrorCode.NONE, partition=p.partition, leader_epoch=epoch, end_offset=end_offset
                )
            )
        topics.append(rs.OffsetForLeaderTopicResult(topic=t.topic, partitions=parts))
    return rs.OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics)
