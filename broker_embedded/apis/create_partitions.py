"""CreatePartitions (API 37): grow a topic's partition count."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.create_topics import MAX_PARTITIONS_PER_REQUEST, TOO_MANY_PARTITIONS_MESSAGE
from broker_embedded.security.access import AclOperation, ResourceType, authorize, with_response
from broker_embedded.topic_registry import INTERNAL_TOPICS
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import create_partitions_request as rq
from kafka_wire.protocol.messages import create_partitions_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 37


async def _handle_cluster(broker: Broker, request: rq.CreatePartitionsRequest) -> rs.CreatePartitionsResponse:
    assert broker.controller_client is not None
    wanted = [
        {
            "name": t.name,
            "count": t.count,
            "assignments": [list(a.broker_ids) for a in t.assignments] if t.assignments is not None else None,
        }
        for t in request.topics
    ]
    try:
        msg = await broker.controller_client.request(
            "create_partitions",
            timeout=max(request.timeout_ms, 1000) / 1000,
            topics=wanted,
            validate_only=request.validate_only,
        )
        answers = msg["results"]
    except KafkaError as e:
        answers = [{"name": t.name, "error": int(e.code), "message": str(e)} for t in request.topics]
    return rs.CreatePartitionsResponse(
        throttle_time_ms=0,
        results=[
            rs.CreatePartitionsTopicResult(name=a["name"], error_code=a["error"], error_message=a.get("message"))
            for a in answers
        ],
    )


def _current_partitions(broker: Broker, name: str) -> int:
    """The topic's partition count as this broker knows it (0 when unknown)."""
    if broker.controller_client is not None:
        image = broker.controller_client.image
        topic = image.topics.get(name) if image is not None else None
        return len(topic.partitions) if topic is not None else 0
    meta = broker.topics.get(name)
    return meta.num_partitions if meta is not None else 0


def _added_partitions(broker: Broker, request: rq.CreatePartitionsRequest) -> int:
    return sum(max(t.count - _current_partitions(broker, t.name), 0) for t in request.topics)


def handle(broker: Broker, ctx: RequestContext, request: rq.CreatePartitionsRequest) -> Any:
    # ALTER on each topic; refused topics join the answer
    refused = [
        rs.CreatePartitionsTopicResult(name=t.name, error_code=code, error_message=None)
        for t in request.topics
        if (code := authorize(ctx, AclOperation.ALTER, ResourceType.TOPIC, t.name))
    ]
    if refused:
        names = {r.name for r in refused}
        request.topics = [t for t in request.topics if t.name not in names]
        return with_response(_create(broker, request), lambda response: response.results.extend(refused))
    return _create(broker, request)


def _create(broker: Broker, request: rq.CreatePartitionsRequest) -> Any:
    if _added_partitions(broker, request) > MAX_PARTITIONS_PER_REQUEST:
        return rs.CreatePartitionsResponse(
            throttle_time_ms=0,
            results=[
                rs.CreatePartitionsTopicResult(
                    name=t.name, error_code=ErrorCode.POLICY_VIOLATION, error_message=TOO_MANY_PARTITIONS_MESSAGE
                )
                for t in request.topics
            ],
        )
    internal = [t for t in request.topics if t.name in INTERNAL_TOPICS]
    if internal:
        refused = {t.name for t in internal}
        request = rq.CreatePartitionsRequest(
            topics=[t for t in request.topics if t.name not in refused],
            timeout_ms=request.timeout_ms,
            validate_only=request.validate_only,
        )
    if broker.controller_client is not None:
        if not internal:
            return asyncio.ensure_future(_handle_cluster(broker, request))
        return asyncio.ensure_future(_with_internal_refused(_handle_cluster(broker, request), internal))
    return asyncio.ensure_future(_with_internal_refused(_handle_local(broker, request), internal))


def _internal_result(name: str) -> rs.CreatePartitionsTopicResult:
    return rs.CreatePartitionsTopicResult(
        name=name,
        error_code=ErrorCode.INVALID_REQUEST,
        error_message=f"Cannot add partitions to internal topic {name}.",
    )


def _add_internal_refusals(response: rs.CreatePartitionsResponse, internal: list[Any]) -> rs.CreatePartitionsResponse:
    response.results = list(response.results) + [_internal_result(t.name) for t in internal]
    return response


async def _with_internal_refused(inner: Any, internal: list[Any]) -> rs.CreatePartitionsResponse:
    return _add_internal_refusals(await inner, internal)


async def _handle_local(broker: Broker, request: rq.CreatePartitionsRequest) -> rs.CreatePartitionsResponse:
    results = []
    for t in request.topics:
        try:
            if t.assignments is not None:
                for a in t.assignments:
                    if any(b != broker.node_id for b in a.broker_ids):
                        raise KafkaError("Unknown broker in assignment", ErrorCode.INVALID_REPLICA_ASSIGNMENT)
            await broker.create_partitions(t.name, t.count, validate_only=request.validate_only)
        except KafkaError as e:
            results.append(rs.CreatePartitionsTopicResult(name=t.name, error_code=e.code, error_message=str(e)))
            continue
        results.append(rs.CreatePartitionsTopicResult(name=t.name, error_code=ErrorCode.NONE, error_message=None))
    return rs.CreatePartitionsResponse(throttle_time_ms=0, results=results)
