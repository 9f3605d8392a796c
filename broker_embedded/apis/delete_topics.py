"""DeleteTopics (API 20): by name, or by topic id from v6."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import delete_topics_request as rq
from kafka_wire.protocol.messages import delete_topics_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 20
ZERO_UUID = b"\x00" * 16


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteTopicsRequest) -> rs.DeleteTopicsResponse:
    if ctx.api_version >= 6:
        wanted = [(t.name, t.topic_id) for t in request.topics]
    else:
        wanted = [(name, ZERO_UUID) for name in request.topic_names]
    results = []
    for name, topic_id in wanted:
        if name is None:
            meta = broker.topics.by_id.get(topic_id)
            if meta is None:
                results.append(
                    rs.DeletableTopicResult(name=None, topic_id=topic_id, error_code=ErrorCode.UNKNOWN_TOPIC_ID)
                )
                continue
            name = meta.name
        try:
            deleted = broker.delete_topic(name)
        except KafkaError as e:
            results.append(
                rs.DeletableTopicResult(name=name, topic_id=topic_id, error_code=e.code, error_message=str(e))
            )
            continue
        results.append(rs.DeletableTopicResult(name=name, topic_id=deleted.topic_id, error_code=ErrorCode.NONE))
    return rs.DeleteTopicsResponse(throttle_time_ms=0, responses=results)
