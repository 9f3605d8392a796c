"""CreateTopics (API 19)."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.describe_configs import topic_config_entries
from broker_embedded.config import validate_topic_configs
from broker_embedded.security.access import AclOperation, ResourceType, authorize, with_response
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import create_topics_request as rq
from kafka_wire.protocol.messages import create_topics_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 19

# Kafka refuses a CreateTopics/CreatePartitions asking for more than this many partitions in one
# request (KAFKA-17870, ReplicationControlManager.MAX_PARTITIONS_PER_BATCH), with POLICY_VIOLATION.
MAX_PARTITIONS_PER_REQUEST = 10_000
TOO_MANY_PARTITIONS_MESSAGE = "Excessively large number of partitions per request."


def requested_partitions(request: rq.CreateTopicsRequest, default_partitions: int) -> int:
    """Partitions a CreateTopics asks for, counted as Kafka does (assignments, else numPartitions)."""
    total = 0
    for t in request.topics:
        if t.assignments:
            total += len(t.assignments)
        elif t.num_partitions == -1:
            total += max(default_partitions, 0)
        elif t.num_partitions > 0:
            total += t.num_partitions
    return total


def _refuse_all(request: rq.CreateTopicsRequest) -> rs.CreateTopicsResponse:
    return rs.CreateTopicsResponse(
        throttle_time_ms=0,
        topics=[
            rs.CreatableTopicResult(
                name=t.name, error_code=ErrorCode.POLICY_VIOLATION, error_message=TOO_MANY_PARTITIONS_MESSAGE
            )
            for t in request.topics
        ],
    )


async def _handle_cluster(broker: Broker, request: rq.CreateTopicsRequest) -> rs.CreateTopicsResponse:
    """Cluster mode: the controller assigns replicas and answers; duplicates are refused here."""
    assert broker.controller_client is not None
    names = [t.name for t in request.topics]
    wanted = []
    for t in request.topics:
        if names.count(t.name) > 1:
            continue
        wanted.append(
            {
                "name": t.name,
                "num_partitions": t.num_partitions,
                "replication_factor": t.replication_factor,
                "configs": {c.name: c.value for c in t.configs},
                "assignments": [list(a.broker_ids) for a in sorted(t.assignments, key=lambda a: a.partition_index)]
                if t.assignments
                else None,
            }
        )
    answers: dict[str, dict[str, Any]] = {}  # the controller's JSON answer per topic
    if wanted:
        timeout = max(request.timeout_ms, 1000) / 1000
        try:
            msg = await broker.controller_client.request(
                "create_topics", timeout=timeout, topics=wanted, validate_only=request.validate_only
            )
            answers = {r["name"]: r for r in msg["results"]}
        except KafkaError as e:
            answers = {w["name"]: {"error": int(e.code), "message": str(e)} for w in wanted}
    results = []
    for t in request.topics:
        if names.count(t.name) > 1:
            results.append(
                rs.CreatableTopicResult(
                    name=t.name, error_code=ErrorCode.INVALID_REQUEST, error_message="Duplicate topic in request."
                )
            )
            continue
        r = answers[t.name]
        if r["error"]:
            results.append(
                rs.CreatableTopicResult(name=t.name, error_code=int(r["error"]), error_message=r.get("message"))
            )
            continue
        overrides = validate_topic_configs(r.get("configs") or {})
        entries = [
            rs.CreatableTopicConfigs(
                name=e.name, value=e.value, read_only=e.read_only, config_source=e.config_source, is_sensitive=False
            )
            for e in topic_config_entries(broker, overrides, None, False, False)
        ]
        results.append(
            rs.CreatableTopicResult(
                name=t.name,
                topic_id=uuid.UUID(str(r["topic_id"])).bytes,
                error_code=ErrorCode.NONE,
                error_message=None,
                num_partitions=int(r["num_partitions"]),
                replication_factor=int(r["replication_factor"]),
                configs=entries,
            )
        )
    return rs.CreateTopicsResponse(throttle_time_ms=0, topics=results)


def handle(broker: Broker, ctx: RequestContext, request: rq.CreateTopicsRequest) -> Any:
    # CREATE on the cluster, or on the topic (Kafka's order); refused topics join the answer
    refused = [
        rs.CreatableTopicResult(name=t.name, error_code=code, error_message=None)
        for t in request.topics
        if (code := authorize(ctx, AclOperation.CREATE, ResourceType.TOPIC, t.name, or_cluster=True))
    ]
    if refused:
        names = {r.name for r in refused}
        request.topics = [t for t in request.topics if t.name not in names]
        return with_response(_create(broker, request), lambda response: response.topics.extend(refused))
    return _create(broker, request)


def _create(broker: Broker, request: rq.CreateTopicsRequest) -> Any:
    if requested_partitions(request, broker.config["num.partitions"]) > MAX_PARTITIONS_PER_REQUEST:
        return _refuse_all(request)
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request))
    return asyncio.ensure_future(_handle_local(broker, request))


async def _handle_local(broker: Broker, request: rq.CreateTopicsRequest) -> rs.CreateTopicsResponse:
    """Single node: partitions are created off the loop (Broker.create_topic_async)."""
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
            topic = await broker.create_topic_async(
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
