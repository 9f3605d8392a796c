"""Metadata (API 3): brokers, topics and partition leaders; auto-creates topics when allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.log.log_dirs import LogDirs
from broker_embedded.security.access import AclOperation, ResourceType, advertised_address, allowed, authorize
from broker_embedded.topic_registry import INTERNAL_TOPICS
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import metadata_request as rq
from kafka_wire.protocol.messages import metadata_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.controller.controller_client import ClusterImage, TopicImage
    from broker_embedded.network.server import RequestContext
    from broker_embedded.topic_registry import TopicMetadata

API_KEY = 3
ZERO_UUID = b"\x00" * 16
AUTHORIZED_OPERATIONS_OMITTED = -2147483648


def topic_response(broker: Broker, topic: TopicMetadata) -> rs.MetadataResponseTopic:
    partitions = []
    dirs = broker.log_manager
    for index in range(topic.num_partitions):
        p = broker.partition(topic.name, index)
        if isinstance(dirs, LogDirs) and dirs.is_offline(topic.name, index):
            # its log dir failed (JBOD, KIP-858): Kafka's controller takes the only replica out of the ISR
            # (left empty: eligible leader replicas, on in Kafka 4.1+) and of leadership, so the partition has
            # no leader and its replica is listed offline
            partitions.append(
                rs.MetadataResponsePartition(
                    error_code=ErrorCode.LEADER_NOT_AVAILABLE,
                    partition_index=index,
                    leader_id=-1,
                    leader_epoch=p.leader_epoch if p else 0,
                    replica_nodes=[broker.node_id],
                    isr_nodes=[],
                    offline_replicas=[broker.node_id],
                )
            )
            continue
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


def cluster_topic_response(image: ClusterImage, topic: TopicImage) -> rs.MetadataResponseTopic:
    """A topic as the controller's image describes it (cluster mode: Kafka's metadata cache)."""
    partitions = []
    for p in topic.partitions:
        partitions.append(
            rs.MetadataResponsePartition(
                error_code=ErrorCode.NONE if p.leader >= 0 else ErrorCode.LEADER_NOT_AVAILABLE,
                partition_index=p.partition,
                leader_id=p.leader,
                leader_epoch=p.leader_epoch,
                replica_nodes=list(p.replicas),
                isr_nodes=list(p.isr),
                # fenced brokers, and replicas in a failed log dir of their broker (KIP-858)
                offline_replicas=[r for r in p.replicas if not image.is_live(r) or r in p.offline_replicas],
            )
        )
    return rs.MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=topic.name,
        topic_id=topic.topic_id,
        is_internal=topic.name in INTERNAL_TOPICS,
        partitions=partitions,
        topic_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
    )


def handle_cluster(broker: Broker, ctx: RequestContext, request: rq.MetadataRequest) -> rs.MetadataResponse:
    assert broker.controller_client is not None and broker.controller_client.image is not None
    image = broker.controller_client.image
    topics: list[rs.MetadataResponseTopic] = []
    if request.topics is None:
        ordered = sorted(image.topics.values(), key=lambda t: (t.name.startswith("__"), t.name))
        topics = [cluster_topic_response(image, t) for t in ordered]
    else:
        allow_auto = request.allow_auto_topic_creation if ctx.api_version >= 4 else True
        by_id = {t.topic_id: t for t in image.topics.values()}
        for wanted in request.topics:
            name = wanted.name
            if name is None and wanted.topic_id != ZERO_UUID:
                found = by_id.get(wanted.topic_id)
                if found is None:
                    topics.append(
                        rs.MetadataResponseTopic(
                            error_code=ErrorCode.UNKNOWN_TOPIC_ID, name=None, topic_id=wanted.topic_id
                        )
                    )
                    continue
                name = found.name
            t = image.topics.get(name or "")
            if t is None:
                code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                if allow_auto and broker.config["auto.create.topics.enable"]:
                    try:
                        broker.create_topic(name or "")  # sent to the controller: not there yet
                    except KafkaError as e:
                        code = e.code if e.code != ErrorCode.TOPIC_ALREADY_EXISTS else ErrorCode.LEADER_NOT_AVAILABLE
                topics.append(rs.MetadataResponseTopic(error_code=code, name=name))
                continue
            topics.append(cluster_topic_response(image, t))
    live = image.live_brokers()
    return rs.MetadataResponse(
        throttle_time_ms=0,
        # each broker's address on the listener this client connected on (advertised.listeners)
        brokers=[
            rs.MetadataResponseBroker(node_id=b.node_id, host=host, port=port, rack=b.rack)
            for b in live
            for host, port in [b.address(ctx.session.listener_name if ctx.session is not None else None)]
        ],
        cluster_id=image.cluster_id,
        # the controller is not a broker clients can reach: like KRaft, name a live broker, which
        # forwards admin requests to the controller
        controller_id=live[0].node_id if live else -1,
        topics=topics,
        cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        error_code=ErrorCode.NONE,
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.MetadataRequest) -> rs.MetadataResponse:
    """Topics the principal may not DESCRIBE are left out of "all topics" and refused
    (TOPIC_AUTHORIZATION_FAILED) when named; auto-creation needs CREATE on the cluster or topic."""
    refused: list[rs.MetadataResponseTopic] = []
    if request.topics is not None:
        allow_auto = (request.allow_auto_topic_creation if ctx.api_version >= 4 else True) and broker.config[
            "auto.create.topics.enable"
        ]
        kept = []
        for wanted in request.topics:
            if wanted.name is not None and (
                authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, wanted.name)
                or (
                    allow_auto
                    and broker.topics.get(wanted.name) is None
                    and authorize(ctx, AclOperation.CREATE, ResourceType.TOPIC, wanted.name, or_cluster=True)
                )
            ):
                refused.append(
                    rs.MetadataResponseTopic(
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED, name=wanted.name, topic_id=ZERO_UUID
                    )
                )
                continue
            kept.append(wanted)
        request.topics = kept
    response = _handle(broker, ctx, request)
    response.topics = [
        t
        for t in response.topics
        if t.name is None
        or t.error_code != ErrorCode.NONE
        or allowed(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name)
    ] + refused
    return response


def _handle(broker: Broker, ctx: RequestContext, request: rq.MetadataRequest) -> rs.MetadataResponse:
    if broker.controller_client is not None:
        return handle_cluster(broker, ctx, request)
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
        brokers=[
            rs.MetadataResponseBroker(node_id=broker.node_id, host=host, port=port, rack=None)
            for host, port in [advertised_address(ctx, (broker.host, broker.port))]
        ],
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        topics=topics,
        cluster_authorized_operations=AUTHORIZED_OPERATIONS_OMITTED,
        error_code=ErrorCode.NONE,
    )
