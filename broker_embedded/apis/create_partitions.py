"""CreatePartitions (API 37): grow a topic's partition count."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

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


def handle(broker: Broker, ctx: RequestContext, request: rq.CreatePartitionsRequest) -> Any:
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request))
    results = []
    for t in request.topics:
        try:
            if t.assignments is not None:
                for a in t.assignments:
                    if any(b != broker.node_id for b in a.broker_ids):
                        raise KafkaError("Unknown broker in assignment", ErrorCode.INVALID_REPLICA_ASSIGNMENT)
            broker.create_partitions(t.name, t.count, validate_only=request.validate_only)
        except KafkaError as e:
            results.append(rs.CreatePartitionsTopicResult(name=t.name, error_code=e.code, error_message=str(e)))
            continue
        results.append(rs.CreatePartitionsTopicResult(name=t.name, error_code=ErrorCode.NONE, error_message=None))
    return rs.CreatePartitionsResponse(throttle_time_ms=0, results=results)
