"""IncrementalAlterConfigs (API 44): SET / DELETE / APPEND / SUBTRACT single topic, group or dynamic
broker configs."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.apis.alter_configs import alter_resources, forward_topic_configs
from broker_embedded.config import BROKER_CONFIGS, TOPIC_CONFIGS, ConfigError, ConfigType, validate_topic_configs
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import incremental_alter_configs_request as rq
from kafka_wire.protocol.messages import incremental_alter_configs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext
    from broker_embedded.topic_registry import TopicMetadata

API_KEY = 44
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


def _broker_overrides(res: Any, current: dict[str, str]) -> dict[str, str]:
    """A BROKER resource's ops on its stored dynamic set (Kafka's ConfigAdminManager.preprocess and
    prepareIncrementalConfigs)."""
    names = [op.name for op in res.configs]
    if len(set(names)) != len(names):
        raise KafkaError("Error due to duplicate config keys", ErrorCode.INVALID_REQUEST)
    raw = dict(current)
    for op in res.configs:
        if op.config_operation == SET:
            if op.value is None:
                raise KafkaError(f"Null value not supported for : {op.name}", ErrorCode.INVALID_REQUEST)
            raw[op.name] = op.value
        elif op.config_operation == DELETE:
            raw.pop(op.name, None)
        elif op.config_operation in (APPEND, SUBTRACT):
            d = BROKER_CONFIGS.get(op.name)
            if d is None or d.type != ConfigType.LIST:
                verb = "append" if op.config_operation == APPEND else "subtract"
                raise KafkaError(
                    f"Config value {verb} is not allowed for config key: {op.name}", ErrorCode.INVALID_CONFIG
                )
            items = [x for x in raw.get(op.name, "").split(",") if x]
            values = [x.strip() for x in (op.value or "").split(",") if x.strip()]
            if op.config_operation == APPEND:
                items += [v for v in values if v not in items]
            else:
                items = [v for v in items if v not in values]
            raw[op.name] = ",".join(items)
        else:
            raise KafkaError(f"Unknown operations type {op.config_operation}", ErrorCode.INVALID_REQUEST)
    return raw


def handle(broker: Broker, ctx: RequestContext, request: rq.IncrementalAlterConfigsRequest) -> Any:
    def overrides_of(topic: TopicMetadata, res: Any) -> dict[str, Any]:
        return _apply(topic.configs, res.configs)

    def group_overrides_of(res: Any) -> dict[str, str]:
        # the broker's checks (Kafka's ConfigAdminManager.preprocess), then the ops on the stored set
        names = [op.name for op in res.configs]
        if len(set(names)) != len(names):
            raise KafkaError("Error due to duplicate config keys", ErrorCode.INVALID_REQUEST)
        for op in res.configs:
            if op.config_operation not in (SET, DELETE, APPEND, SUBTRACT):
                raise KafkaError("", ErrorCode.UNKNOWN_SERVER_ERROR)
            if op.config_operation == SET and op.value is None:
                raise KafkaError(f"Null value not supported for : {op.name}", ErrorCode.INVALID_REQUEST)
        return broker.group_configs.incremental(
            res.resource_name, [(op.name, op.config_operation, op.value) for op in res.configs]
        )

    out, forwarded = alter_resources(
        broker,
        ctx,
        request.resources,
        request.validate_only,
        rs.AlterConfigsResourceResponse,
        overrides_of,
        group_overrides_of,
        _broker_overrides,
    )
    response = rs.IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=out)
    if forwarded:
        return asyncio.ensure_future(forward_topic_configs(broker, response, forwarded, request.validate_only))
    return response
