"""IncrementalAlterConfigs (API 44): SET / DELETE / APPEND / SUBTRACT single topic configs."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.alter_configs import forward_topic_configs
from broker_embedded.config import TOPIC_CONFIGS, ConfigError, ConfigType, validate_topic_configs
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import incremental_alter_configs_request as rq
from kafka_wire.protocol.messages import incremental_alter_configs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 44
TOPIC_RESOURCE = 2
BROKER_RESOURCE = 4
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3


def _apply(current: dict[str, Any], ops: list[rq.AlterableConfig]) -> dict[str, Any]:
    raw: dict[str, Any] = dict(current)
    for op in ops:
        d = TOPIC_CONFIGS.get(op.name)
        if d is None:
            raise ConfigError(f"Unknown topic config name: {op.name}")
        if op.config_operation == SET:
            raw[op.name] = op.value
        elif op.config_operation == DELETE:
            raw.pop(op.name, None)
        elif op.config_operation in (APPEND, SUBTRACT):
            if d.type != ConfigType.LIST:
                raise ConfigError(f"Config value append/subtract is not allowed for config {op.name}")
            existing = raw.get(op.name, d.default)
            items = list(existing) if isinstance(existing, list) else [x for x in str(existing).split(",") if x]
            values = [x.strip() for x in (op.value or "").split(",") if x.strip()]
            if op.config_operation == APPEND:
                items += [v for v in values if v not in items]
            else:
                items = [v for v in items if v not in values]
            raw[op.name] = items
        else:
            raise ConfigError(f"Unknown config operation {op.config_operation}")
    return validate_topic_configs(raw)


def handle(broker: Broker, ctx: RequestContext, request: rq.IncrementalAlterConfigsRequest) -> Any:
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
        topic = broker.topics.get(res.resource_name)
        if topic is None:
            out.append(result(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic {res.resource_name} does not exist"))
            continue
        try:
            overrides = _apply(topic.configs, res.configs)
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
    response = rs.IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=out)
    if forwarded:
        return asyncio.ensure_future(forward_topic_configs(broker, response, forwarded, request.validate_only))
    return response
