"""AlterConfigs (API 33): replace a topic's, a group's or a broker's (dynamic_config.py) config
overrides as a whole (the legacy, non-incremental API)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.config import ConfigError, validate_topic_configs
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import alter_configs_request as rq
from kafka_wire.protocol.messages import alter_configs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext
    from broker_embedded.topic_registry import TopicMetadata

API_KEY = 33
TOPIC_RESOURCE = 2
BROKER_RESOURCE = 4
GROUP_RESOURCE = 32
# (response index, topic or group or broker resource, overrides, is a group or "broker"): what the
# controller stores in a cluster
Forwarded = tuple[int, str, dict[str, Any], bool | str]


def handle(broker: Broker, ctx: RequestContext, request: rq.AlterConfigsRequest) -> Any:
    def overrides_of(topic: TopicMetadata, res: Any) -> dict[str, Any]:
        # the legacy API replaces the topic's overrides as a whole
        return validate_topic_configs({c.name: c.value for c in res.configs if c.value is not None})

    def group_overrides_of(res: Any) -> dict[str, str]:
        return {c.name: c.value for c in res.configs if c.value is not None}

    def broker_overrides_of(res: Any, current: dict[str, str]) -> dict[str, str]:
        return {c.name: c.value for c in res.configs if c.value is not None}

    out, forwarded = alter_resources(
        broker,
        ctx,
        request.resources,
        request.validate_only,
        rs.AlterConfigsResourceResponse,
        overrides_of,
        group_overrides_of,
        broker_overrides_of,
    )
    response = rs.AlterConfigsResponse(throttle_time_ms=0, responses=out)
    if forwarded:
        return asyncio.ensure_future(forward_topic_configs(broker, response, forwarded, request.validate_only))
    return response


def alter_resources(
    broker: Broker,
    ctx: RequestContext,
    resources: list[Any],
    validate_only: bool,
    result_type: Callable[..., Any],
    overrides_of: Callable[[TopicMetadata, Any], dict[str, Any]],
    group_overrides_of: Callable[[Any], dict[str, str]],
    broker_overrides_of: Callable[[Any, dict[str, str]], dict[str, str]],
) -> tuple[list[Any], list[Forwarded]]:
    """The per-resource checks AlterConfigs and IncrementalAlterConfigs share: authorization,
    resource type, topic existence, then `overrides_of` (raising ConfigError: INVALID_CONFIG).
    Groups: `group_overrides_of` gives the group's new raw overrides (KafkaError / ConfigError).
    Returns the per-resource results and, in cluster mode, what the controller has to store."""
    out: list[Any] = []
    forwarded: list[Forwarded] = []
    for res in resources:

        def result(code: ErrorCode, message: str | None = None, res: Any = res) -> Any:
            return result_type(
                error_code=code,
                error_message=message,
                resource_type=res.resource_type,
                resource_name=res.resource_name,
            )

        # ALTER_CONFIGS on the topic, or on the cluster for broker resources
        if res.resource_type == TOPIC_RESOURCE:
            denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, res.resource_name)
        elif res.resource_type == GROUP_RESOURCE:
            denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.GROUP, res.resource_name)
        else:
            denied = authorize(ctx, AclOperation.ALTER_CONFIGS, ResourceType.CLUSTER)
        if denied:
            out.append(result(denied))
            continue
        if res.resource_type == BROKER_RESOURCE:
            out.append(alter_broker(broker, res, validate_only, result, broker_overrides_of, forwarded, len(out)))
            continue
        if res.resource_type == GROUP_RESOURCE:
            out.append(alter_group(broker, res, validate_only, result, group_overrides_of, forwarded, len(out)))
            continue
        if res.resource_type != TOPIC_RESOURCE:
            out.append(result(ErrorCode.INVALID_REQUEST, f"Unsupported resource type {res.resource_type}"))
            continue
        topic = broker.topics.get(res.resource_name)
        if topic is None:
            out.append(result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {res.resource_name} does not exist"))
            continue
        try:
            overrides = overrides_of(topic, res)
        except ConfigError as e:
            out.append(result(ErrorCode.INVALID_CONFIG, str(e)))
            continue
        if broker.controller_client is not None:
            forwarded.append((len(out), res.resource_name, overrides, False))
            out.append(result(ErrorCode.NONE))
            continue
        try:
            broker.set_topic_configs(res.resource_name, overrides, validate_only=validate_only)
        except KafkaError as e:
            out.append(result(e.code, str(e)))
            continue
        out.append(result(ErrorCode.NONE))
    return out, forwarded


def alter_group(
    broker: Broker,
    res: Any,
    validate_only: bool,
    result: Callable[..., Any],
    group_overrides_of: Callable[[Any], dict[str, str]],
    forwarded: list[Forwarded],
    index: int,
) -> Any:
    """One GROUP resource: Kafka refuses the default (empty) group, then validates the group's whole
    new override set against the broker's bounds (group/group_configs.py)."""
    if not res.resource_name:
        return result(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")
    try:
        raw = group_overrides_of(res)
        broker.group_configs.validate(raw)
    except KafkaError as e:
        # Kafka answers an unknown operation with UNKNOWN_SERVER_ERROR and no message
        return result(e.code, None if str(e) == e.code.name else str(e))
    except ConfigError as e:
        return result(ErrorCode.INVALID_CONFIG, str(e))
    if broker.controller_client is not None:
        forwarded.append((index, res.resource_name, raw, True))
    else:
        broker.group_configs.set(res.resource_name, raw, validate_only)
    return result(ErrorCode.NONE)


def alter_broker(
    broker: Broker,
    res: Any,
    validate_only: bool,
    result: Callable[..., Any],
    broker_overrides_of: Callable[[Any, dict[str, str]], dict[str, str]],
    forwarded: list[Forwarded],
    index: int,
) -> Any:
    """One BROKER resource ("" = the cluster default, else this broker's id, as Kafka's broker
    checks): its whole new dynamic set, validated (dynamic_config.py), stored or forwarded."""
    name = res.resource_name
    if name:
        try:
            node = int(name)
        except ValueError:
            return result(ErrorCode.INVALID_REQUEST, f"Node id must be an integer, but it is: {name}")
        if node != broker.node_id:
            return result(
                ErrorCode.INVALID_REQUEST, f"Unexpected broker id, expected {broker.node_id}, but received {name}"
            )
    try:
        raw = broker_overrides_of(res, broker.dynamic_config.current(name))
        broker.dynamic_config.validate_layer(name, raw)
    except KafkaError as e:
        return result(e.code, str(e))
    except ConfigError as e:
        return result(ErrorCode.INVALID_CONFIG, str(e))
    if broker.controller_client is not None:
        forwarded.append((index, name, raw, "broker"))
    else:
        broker.dynamic_config.set_layer(name, raw, validate_only)
    return result(ErrorCode.NONE)


async def forward_topic_configs(broker: Broker, response: Any, forwarded: list[Forwarded], validate_only: bool) -> Any:
    """Cluster mode: the controller stores topic and group configs; every broker applies them from
    its image."""
    assert broker.controller_client is not None
    for index, name, overrides, is_group in forwarded:
        try:
            if is_group == "broker":
                await broker.controller_client.request(
                    "alter_broker_configs", resource=name, configs=overrides, validate_only=validate_only
                )
            elif is_group:
                await broker.controller_client.request(
                    "alter_group_configs", group=name, configs=overrides, validate_only=validate_only
                )
            else:
                await broker.controller_client.request(
                    "alter_configs", topic=name, configs=overrides, validate_only=validate_only
                )
        except KafkaError as e:
            response.responses[index].error_code = e.code
            response.responses[index].error_message = str(e)
    return response
