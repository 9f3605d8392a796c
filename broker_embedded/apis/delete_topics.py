"""DeleteTopics (API 20): by name, or by topic id from v6."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize, with_response
from broker_embedded.topic_registry import INTERNAL_TOPICS
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import delete_topics_request as rq
from kafka_wire.protocol.messages import delete_topics_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 20
ZERO_UUID = b"\x00" * 16


async def _handle_cluster(
    broker: Broker, wanted: list[tuple[str | None, bytes]], timeout_ms: int
) -> rs.DeleteTopicsResponse:
    """Cluster mode: the controller deletes; every broker drops its replicas on the next image."""
    assert broker.controller_client is not None and broker.controller_client.image is not None
    image = broker.controller_client.image
    by_id = {t.topic_id: t.name for t in image.topics.values()}
    results: list[rs.DeletableTopicResult | None] = []
    names: list[str] = []
    for name, topic_id in wanted:
        if name is None:
            found = by_id.get(topic_id)
            if found is None:
                results.append(
                    rs.DeletableTopicResult(name=None, topic_id=topic_id, error_code=ErrorCode.UNKNOWN_TOPIC_ID)
                )
                continue
            name = found
        if name in INTERNAL_TOPICS:
            results.append(_internal_refused(name, topic_id))
            continue
        names.append(name)
        results.append(None)
    answers: dict[str, dict[str, Any]] = {}
    if names:
        try:
            msg = await broker.controller_client.request(
                "delete_topics", timeout=max(timeout_ms, 1000) / 1000, names=names
            )
            answers = {r["name"]: r for r in msg["results"]}
        except KafkaError as e:
            answers = {n: {"error": int(e.code), "message": str(e)} for n in names}
    it = iter(names)
    out = []
    for r in results:
        if r is not None:
            out.append(r)
            continue
        name = next(it)
        a = answers[name]
        topic_id = uuid.UUID(a["topic_id"]).bytes if a.get("topic_id") else ZERO_UUID
        out.append(
            rs.DeletableTopicResult(name=name, topic_id=topic_id, error_code=a["error"], error_message=a.get("message"))
        )
    return rs.DeleteTopicsResponse(throttle_time_ms=0, responses=out)


def _internal_refused(name: str, topic_id: bytes) -> rs.DeletableTopicResult:
    """Internal topics (__consumer_offsets, __transaction_state) are not deletable through the admin API."""
    return rs.DeletableTopicResult(
        name=name,
        topic_id=topic_id,
        error_code=ErrorCode.INVALID_REQUEST,
        error_message=f"Cannot delete internal topic {name}.",
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteTopicsRequest) -> Any:
    if ctx.api_version >= 6:
        wanted = [(t.name, t.topic_id) for t in request.topics]
    else:
        wanted = [(name, ZERO_UUID) for name in request.topic_names]
    # DELETE on each topic (by id: on the topic the id names)
    refused = [
        rs.DeletableTopicResult(name=name, topic_id=topic_id, error_code=code, error_message=None)
        for name, topic_id in wanted
        if (code := _authorize_delete(broker, ctx, name, topic_id))
    ]
    if refused:
        gone = {(r.name, r.topic_id) for r in refused}
        wanted = [w for w in wanted if w not in gone]
        return with_response(_delete(broker, wanted, request), lambda response: response.responses.extend(refused))
    return _delete(broker, wanted, request)


def _authorize_delete(broker: Broker, ctx: RequestContext, name: str | None, topic_id: bytes) -> ErrorCode:
    if name is None and topic_id != ZERO_UUID:
        meta = broker.topics.by_id.get(topic_id)
        if meta is None:
            return ErrorCode.NONE  # answered UNKNOWN_TOPIC_ID below
        name = meta.name
    return authorize(ctx, AclOperation.DELETE, ResourceType.TOPIC, name or "")


def _delete(broker: Broker, wanted: list[tuple[str | None, bytes]], request: rq.DeleteTopicsRequest) -> Any:
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, wanted, request.timeout_ms))
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
        if name in INTERNAL_TOPICS:
            results.append(_internal_refused(name, topic_id))
            continue
        try:
            deleted = broker.delete_topic(name)
        except KafkaError as e:
            results.append(
                rs.DeletableTopicResult(name=name, topic_id=topic_id, error_code=e.code, error_message=str(e))
            )
            continue
        results.append(rs.DeletableTopicResult(name=name, topic_id=deleted.topic_id, error_code=ErrorCode.NONE))
    return rs.DeleteTopicsResponse(throttle_time_ms=0, responses=results)
