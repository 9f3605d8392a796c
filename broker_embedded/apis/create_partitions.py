"""CreatePartitions (API 37): grow a topic's partition count."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import create_partitions_request as rq
from kafka_wire.protocol.messages import create_partitions_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 37


def handle(broker: Broker, ctx: RequestContext, request: rq.CreatePartitionsRequest) -> rs.CreatePartitionsResponse:
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
