"""DescribeTopicPartitions (API 75, KIP-966): topics and their partitions, paginated; Kafka 4's
admin client (kafka-topics --describe) prefers it to Metadata.

Kafka's DescribeTopicPartitionsRequestHandler: an empty topic list means every topic (those the
principal may not DESCRIBE left out, unknown ones never reported); named topics come back sorted by
name, each unknown one with UNKNOWN_TOPIC_OR_PARTITION (INVALID_TOPIC_EXCEPTION for an invalid name)
and each unauthorized one with TOPIC_AUTHORIZATION_FAILED and no topic id. At most
min(response_partition_limit, max.request.partition.size.limit) partitions (at least 1) are answered;
`next_cursor` names where the next page starts. Topics before the cursor's topic are skipped, and
a named list must contain the cursor's topic (INVALID_REQUEST otherwise, as for a negative cursor
partition). No eligible leader replicas here (ELR lists are empty).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.apis.metadata import cluster_topic_response, topic_response
from broker_embedded.security.access import AclOperation, ResourceType, allowed
from broker_embedded.topic_registry import validate_topic_name
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import describe_topic_partitions_request as rq
from kafka_wire.protocol.messages import describe_topic_partitions_response as rs
from kafka_wire.protocol.messages import metadata_response as mrs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 75
ZERO_UUID = b"\x00" * 16
# Kafka's supported operations on a TOPIC resource (AclEntry.supportedOperations)
_TOPIC_OPERATIONS = (
    AclOperation.READ,
    AclOperation.WRITE,
    AclOperation.CREATE,
    AclOperation.DESCRIBE,
    AclOperation.DELETE,
    AclOperation.ALTER,
    AclOperation.DESCRIBE_CONFIGS,
    AclOperation.ALTER_CONFIGS,
)


def _authorized_operations(ctx: RequestContext, topic: str) -> int:
    bits = 0
    for op in _TOPIC_OPERATIONS:
        if allowed(ctx, op, ResourceType.TOPIC, topic):
            bits |= 1 << int(op)
    return bits


def _metadata(broker: Broker, name: str) -> mrs.MetadataResponseTopic | None:
    """The topic as Metadata would describe it (the controller's image in a cluster), or None."""
    if broker.controller_client is not None:
        image = broker.controller_client.image
        t = image.topics.get(name) if image is not None else None
        return None if t is None or image is None else cluster_topic_response(image, t)
    meta = broker.topics.get(name)
    return None if meta is None else topic_response(broker, meta)


def _all_topics(broker: Broker) -> list[str]:
    if broker.controller_client is not None:
        image = broker.controller_client.image
        return [] if image is None else list(image.topics)
    return [t.name for t in broker.topics]


def _error_response(request: rq.DescribeTopicPartitionsRequest, code: int) -> rs.DescribeTopicPartitionsResponse:
    """Kafka's getErrorResponse: every named topic with the error, no partitions."""
    return rs.DescribeTopicPartitionsResponse(
        throttle_time_ms=0,
        topics=[
            rs.DescribeTopicPartitionsResponseTopic(error_code=code, name=t.name, is_internal=False, partitions=[])
            for t in request.topics
        ],
    )


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DescribeTopicPartitionsRequest
) -> rs.DescribeTopicPartitionsResponse:
    fetch_all = not request.topics
    cursor = request.cursor
    cursor_topic = cursor.topic_name if cursor is not None else ""
    if fetch_all:
        names = {n for n in _all_topics(broker) if n >= cursor_topic}
    else:
        names = {t.name for t in request.topics if t.name >= cursor_topic}
        if cursor is not None and cursor.topic_name not in names:
            # "DescribeTopicPartitionsRequest topic list should contain the cursor topic"
            return _error_response(request, ErrorCode.INVALID_REQUEST)
    if cursor is not None and cursor.partition_index < 0:
        return _error_response(request, ErrorCode.INVALID_REQUEST)  # "cursor partition must be valid"
    limit = max(min(int(broker.config["max.request.partition.size.limit"]), request.response_partition_limit), 1)
    remaining = limit
    topics: list[rs.DescribeTopicPartitionsResponseTopic] = []
    refused: list[rs.DescribeTopicPartitionsResponseTopic] = []
    next_cursor = None
    for name in sorted(names):
        if not allowed(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, name):
            if not fetch_all:
                refused.append(
                    rs.DescribeTopicPartitionsResponseTopic(
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                        name=name,
                        topic_id=ZERO_UUID,
                        is_internal=False,
                        partitions=[],
                    )
                )
            continue
        if remaining == 0:
            # the previous topics are complete: the next page starts at this topic
            next_cursor = rs.Cursor(topic_name=name, partition_index=0)
            break
        md = _metadata(broker, name)
        if md is None:
            if not fetch_all:
                try:
                    validate_topic_name(name)
                    code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                except KafkaError:
                    code = ErrorCode.INVALID_TOPIC_EXCEPTION
                topics.append(
                    rs.DescribeTopicPartitionsResponseTopic(
                        error_code=code, name=name, topic_id=ZERO_UUID, is_internal=False, partitions=[]
                    )
                )
            continue
        start = cursor.partition_index if cursor is not None and name == cursor_topic else 0
        upper = min(len(md.partitions), start + remaining)
        parts = [
            rs.DescribeTopicPartitionsResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=p.partition_index,
                leader_id=p.leader_id,
                leader_epoch=p.leader_epoch,
                replica_nodes=list(p.replica_nodes),
                isr_nodes=list(p.isr_nodes),
                eligible_leader_replicas=[],
                last_known_elr=[],
                offline_replicas=list(p.offline_replicas),
            )
            for p in sorted(md.partitions, key=lambda p: p.partition_index)[start:upper]
        ]
        topics.append(
            rs.DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.NONE,
                name=name,
                topic_id=md.topic_id,
                is_internal=md.is_internal,
                partitions=parts,
                topic_authorized_operations=_authorized_operations(ctx, name),
            )
        )
        if upper < len(md.partitions):
            next_cursor = rs.Cursor(topic_name=name, partition_index=upper)
            break
        remaining -= len(parts)
    return rs.DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=topics + refused, next_cursor=next_cursor)
