"""CreateTopics (API 19)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.apis.describe_configs import topic_config_entries
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import create_topics_request as rq
from kafka_wire.protocol.messages import create_topics_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 19


def handle(broker: Broker, ctx: RequestContext, request: rq.CreateTopicsRequest) -> rs.CreateTopicsResponse:
    results = []
    seen: set[str] = set()
    for t in request.topics:
        if t.name in seen:
            results.append(
                rs.CreatableTopicResult(
                    name=t.name,
                    error_code=ErrorCode.INVALID_REQUEST,
                    error_message="Duplicate topic in request.",
                )
            )
            continue
        seen.add(t.name)
        num_partitions, replication_factor = t.num_partitions, t.replication_factor
        try:
            if t.assignments:
                if num_partitions != -1 or replication_factor != -1:
                    raise KafkaError(
                        "Both numPartitions or replicationFactor and replicasAssignments were set.",
                        ErrorCode.INVALID_REQUEST,
                    )
                num_partitions = len(t.assignments)
                rfs = {len(a.broker_ids) for a in t.assignments}
                if len(rfs) != 1:
                    raise KafkaError("Inconsistent replication factor", ErrorCode.INVALID_REPLICA_ASSIGNMENT)
                replication_factor = rfs.pop()
                for a in t.assignments:
                    if any(b != broker.node_id for b in a.broker_ids):
                        raise KafkaError("Unknown broker in assignment", ErrorCode.INVALID_REPLICA_ASSIGNMENT)
            configs = {c.name: c.value for c in t.configs}
            topic = broker.create_topic(
                t.name, num_partitions, replication_factor, configs, validate_only=request.validate_only
            )
        except KafkaError as e:
            results.append(rs.CreatableTopicResult(name=t.name, error_code=e.code, error_message=str(e)))
            continue
        entries = [
            rs.CreatableTopicConfigs(
                name=e.name,
                value=e.value,
                read_only=e.read_only,
                config_source=e.config_source,
                is_sensitive=False,
            )
            for e in topic_config_entries(broker, topic.configs, None, False, False)
        ]
        results.append(
            rs.CreatableTopicResult(
                name=t.name,
                topic_id=topic.topic_id,
                error_code=ErrorCode.NONE,
                error_message=None,
                num_partitions=topic.num_partitions,
                replication_factor=topic.replication_factor,
                configs=entries,
            )
        )
    return rs.CreateTopicsResponse(throttle_time_ms=0, topics=results)
