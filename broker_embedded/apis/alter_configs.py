"""AlterConfigs (API 33): replace a topic's config overrides as a whole (the legacy, non-incremental
API). Broker configs are static here."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.config import ConfigError, validate_topic_configs
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import alter_configs_request as rq
from kafka_wire.protocol.messages import alter_configs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 33
TOPIC_RESOURCE = 2
BROKER_RESOURCE = 4


def handle(broker: Broker, ctx: RequestContext, request: rq.AlterConfigsRequest) -> Any:
    out = []
    forwarded: list[tuple[int, str, dict[str, Any]]] = []
    for res in request.resources:

        def result(code: ErrorCode, message: str | None = None, res: Any = res) -> rs.AlterConfigsResourceResponse:
            return rs.AlterConfigsResourceResponse(
                error_code=code,
                error_message=message,
                resource_type=res.resource_type,
                resource_name=res.resource_name,
            )

        # ALTER_CONFIGS on the topic, or on the cluster for broker resources
        if res.resource_type == TOPIC_RESOURCE:
            denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, res.resource_name)
        else:
            denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER)
        if denied:
            out.append(result(denied))
            continue
        if res.resource_type == BROKER_RESOURCE:
            out.append(
                result(
                    ErrorCode.INVALID_REQUEST,
                    "Dynamic broker configs are not supported; restart with --override",
                )
            )
            continue
        if res.resource_type != TOPIC_RESOURCE:
            out.append(result(ErrorCode.INVALID_REQUEST, f"Unsupported resource type {res.resource_type}"))
            continue
        if broker.topics.get(res.resource_name) is None:
            out.append(result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {res.resource_name} does not exist"))
            continue
        try:
            overrides = validate_topic_configs({c.name: c.value for c in res.configs if c.value is not None})
        except ConfigError as e:
            out.append(result(ErrorCode.INVALID_CONFIG, str(e)))
            continue
        if broker.controller_client is not None:
            forwarded.append((len(out), res.resource_name, overrides))
            out.append(result(ErrorCode.NONE))
            continue
        try:
            broker.set_topic_configs(res.resource_name, overrides, validate_only=request.validate_only)
        except KafkaError as e:
            out.append(result(e.code, str(e)))
            continue
        out.append(result(ErrorCode.NONE))
    response = rs.AlterConfigsResponse(throttle_time_ms=0, responses=out)
    if forwarded:
        return asyncio.ensure_future(forward_topic_configs(broker, response, forwarded, request.validate_only))
    return response


async def forward_topic_configs(
    broker: Broker, response: Any, forwarded: list[tuple[int, str, dict[str, Any]]], validate_only: bool
) -> Any:
    """Cluster mode: the controller stores topic configs; every broker applies them from its image."""
    assert broker.controller_client is not None
    for index, name, overrides in forwarded:
        try:
            await broker.controller_client.request(
                "alter_configs", topic=name, configs=overrides, validate_only=validate_only
            )
        except KafkaError as e:
            response.responses[index].error_code = e.code
            response.responses[index].error_message = str(e)
    return response
