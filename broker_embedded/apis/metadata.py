"""Metadata (API 3): brokers, topics and partition leaders; auto-creates topics when allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import metadata_request as rq
from kafka_wire.protocol.messages import metadata_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.metadata import TopicMetadata
    from broker_embedded.network.server import RequestContext

API_KEY = 3
ZERO_UUID = b"\x00" * 16
AUTHORIZED_OPERATIONS_OMITTED = -2147483648


def topic_response(broker: Broker, topic: TopicMetadata) -> rs.MetadataResponseTopic:
    partitions = []
    for index in range(topic.num_partitions):
        p = broker.partition(topic.name, index)
        partitions.append(
            rs.MetadataResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=index,
                leader_id=broker.node_id,
                leader_epoch=p.leader_epoch if p else 0,
                replica_nodes=[broker.node_id],
                isr_nodes=[broker.node_id],
                offline_replicas=[],
            )
        )
    return rs.MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=topic.name,
        topic_id=topic.topic_id,
        is_internal=topic.is_internal,
        partitions=partitions,
        topic_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.MetadataRequest) -> rs.MetadataResponse:
    topics: list[rs.MetadataResponseTopic] = []
    if request.topics is None:
        topics = [topic_response(broker, t) for t in broker.topics if not t.name.startswith("__")]
        topics += [topic_response(broker, t) for t in broker.topics if t.name.startswith("__")]
    else:
        # v4+ lets the client say whether it wants auto-creation; older versions always ask
        allow_auto = request.allow_auto_topic_creation if ctx.api_version >= 4 else True
        for wanted in request.topics:
            name = wanted.name
            if name is None and wanted.topic_id != ZERO_UUID:
                meta = broker.topics.by_id.get(wanted.topic_id)
                if meta is None:
                    topics.append(
                        rs.MetadataResponseTopic(
                            error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None, topic_id=wanted.topic_id
                        )
                    )
                    continue
                name = meta.name
            topic = broker.topics.get(name or "")
            if topic is None and allow_auto and broker.config["auto.create.topics.enable"]:
                try:
                    topic = broker.create_topic(name or "")
                except KafkaError as e:
                    code = e.code if e.code != ErrorCode.TOPIC_ALREADY_EXISTS else ErrorCode.NONE
                    topics.append(rs.MetadataResponseTopic(error_code=code, name=name))
                    continue
            if topic is None:
                topics.append(rs.MetadataResponseTopic(error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name=name))
                continue
            topics.append(topic_response(broker, topic))
    return rs.MetadataResponse(
        throttle_time_ms=0,
        brokers=[rs.MetadataResponseBroker(node_id=broker.node_id, host=broker.host, port=broker.port, rack=None)],
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        topics=topics,
        cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        error_code=ErrorCode.NONE,
    )
