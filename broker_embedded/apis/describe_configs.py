"""DescribeConfigs (API 32): every topic config with its value, source and synonyms; broker configs
with their dynamic layers (dynamic_config.py: read-only unless Kafka makes them dynamic); group
configs (resource type 32, group/group_configs.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from broker_embedded.config import (
    BROKER_CONFIGS,
    BROKER_CONFIGS_WITHOUT_DEFAULT_SYNONYM,
    TOPIC_CONFIGS,
    ConfigSource,
    ConfigType,
    format_value,
    resolve_topic_config,
)
from broker_embedded.dynamic_config import (
    DYNAMIC_BROKER_CONFIGS,
    DYNAMIC_ONLY_BROKER_CONFIGS,
    LISTENER_KEYSTORE,
    LISTENER_KEYSTORE_SENSITIVE,
)
from broker_embedded.group.group_configs import format_group_value
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_configs_request as rq
from kafka_wire.protocol.messages import describe_configs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 32
TOPIC_RESOURCE = 2
BROKER_RESOURCE = 4
BROKER_LOGGER_RESOURCE = 8
GROUP_RESOURCE = 32


@dataclass
class ConfigEntry:
    name: str
    value: str | None
    read_only: bool
    config_source: int
    config_type: int
    documentation: str
    synonyms: list[rs.DescribeConfigsSynonym]


def topic_config_entries(
    broker: Broker, overrides: dict[str, Any], keys: list[str] | None, synonyms: bool, docs: bool
) -> list[ConfigEntry]:
    out = []
    for name in sorted(TOPIC_CONFIGS):
        if keys is not None and name not in keys:
            continue
        r = resolve_topic_config(broker.config, overrides, name)
        syn: list[rs.DescribeConfigsSynonym] = []
        if synonyms:
            if name in overrides:
                syn.append(rs.DescribeConfigsSynonym(name, format_value(r.definition, overrides[name]), 1))
            bsyn = r.definition.broker_synonym
            if bsyn:
                bdef = BROKER_CONFIGS[bsyn]
                for layer, source in (
                    (broker.config.dynamic_broker, ConfigSource.DYNAMIC_BROKER_CONFIG),
                    (broker.config.dynamic_default, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
                ):
                    if bsyn in layer:
                        syn.append(rs.DescribeConfigsSynonym(bsyn, format_value(bdef, layer[bsyn]), source))
                if bsyn in broker.config.explicit:
                    syn.append(
                        rs.DescribeConfigsSynonym(
                            bsyn,
                            format_value(bdef, broker.config.explicit[bsyn]),
                            ConfigSource.STATIC_BROKER_CONFIG,
                        )
                    )
                if bsyn not in BROKER_CONFIGS_WITHOUT_DEFAULT_SYNONYM:
                    syn.append(
                        rs.DescribeConfigsSynonym(bsyn, format_value(bdef, bdef.default), ConfigSource.DEFAULT_CONFIG)
                    )
        out.append(
            ConfigEntry(
                name=name,
                value=format_value(r.definition, r.value),
                read_only=False,
                config_source=int(r.source),
                config_type=int(r.definition.type),
                documentation=r.definition.doc if docs else "",
                synonyms=syn,
            )
        )
    return out


def group_config_entries(
    broker: Broker, group_id: str, keys: list[str] | None, synonyms: bool, docs: bool
) -> list[ConfigEntry]:
    """A group's 17 configs (any group id: one without overrides shows the broker defaults, as Kafka)."""
    return [
        ConfigEntry(
            name=r.name,
            value=format_group_value(r.definition, r.value),
            read_only=False,
            config_source=int(r.source),
            config_type=int(r.definition.type),
            documentation=r.definition.doc if docs else "",
            synonyms=[rs.DescribeConfigsSynonym(n, v, int(src)) for n, v, src in r.synonyms] if synonyms else [],
        )
        for r in broker.group_configs.describe(group_id, keys)
    ]


def broker_config_entries(
    broker: Broker, keys: list[str] | None, docs: bool, synonyms: bool = False, default_resource: bool = False
) -> list[ConfigEntry]:
    """A broker's configs with their source (Kafka's precedence: this broker's dynamic value, the
    cluster's dynamic default, the static config, the default); the default resource ("") lists
    only the dynamic defaults, as Kafka."""
    config = broker.config
    out = []
    for name, d in sorted(BROKER_CONFIGS.items()):
        if keys is not None and name not in keys:
            continue
        if default_resource and name not in config.dynamic_default:
            continue
        if (
            name in DYNAMIC_ONLY_BROKER_CONFIGS
            and name not in config.dynamic_broker
            and name not in config.dynamic_default
        ):
            continue  # Kafka lists the replication throttles only once set
        layers = [
            (config.dynamic_broker, ConfigSource.DYNAMIC_BROKER_CONFIG),
            (config.dynamic_default, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
            (config.explicit, ConfigSource.STATIC_BROKER_CONFIG),
        ]
        if default_resource:
            layers = layers[1:2]
        found = [(layer[name], source) for layer, source in layers if name in layer]
        value = found[0][0] if found else d.default
        source = found[0][1] if found else ConfigSource.DEFAULT_CONFIG
        if name == "port":
            value = broker.port
        elif name == "log.dirs":
            value = str(broker.log_dir)
        elif name == "cluster.id":
            value = broker.cluster_id
        secret = d.type == ConfigType.PASSWORD
        syn = (
            [
                rs.DescribeConfigsSynonym(name, None if secret else format_value(d, v), int(src))
                # the default resource lists only its own layer (Kafka's answer)
                for v, src in (found if default_resource else [*found, (d.default, ConfigSource.DEFAULT_CONFIG)])
            ]
            if synonyms
            else []
        )
        out.append(
            ConfigEntry(
                name=name,
                # passwords (keystores, JAAS) are never sent: Kafka answers null and is_sensitive
                value=None if secret else format_value(d, value),
                read_only=name not in DYNAMIC_BROKER_CONFIGS,
                config_source=int(source),
                config_type=int(d.type),
                documentation=d.doc if docs else "",
                synonyms=syn,
            )
        )
    if not default_resource:
        out += _listener_keystore_entries(broker, keys, synonyms)
    return out


def _listener_keystore_entries(broker: Broker, keys: list[str] | None, synonyms: bool) -> list[ConfigEntry]:
    """This broker's dynamic listener keystore configs (KIP-226), as Kafka 4.3.1 lists them: source
    DYNAMIC_BROKER_CONFIG, passwords null and sensitive."""
    out = []
    for name, value in sorted(broker.dynamic_config.current(str(broker.node_id)).items()):
        m = LISTENER_KEYSTORE.fullmatch(name)
        if m is None or (keys is not None and name not in keys):
            continue
        secret = m.group(2) in LISTENER_KEYSTORE_SENSITIVE
        shown = None if secret else value
        source = int(ConfigSource.DYNAMIC_BROKER_CONFIG)
        out.append(
            ConfigEntry(
                name=name,
                value=shown,
                read_only=False,
                config_source=source,
                config_type=int(ConfigType.PASSWORD if secret else ConfigType.STRING),
                documentation="",
                synonyms=[rs.DescribeConfigsSynonym(name, shown, source)] if synonyms else [],
            )
        )
    return out


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeConfigsRequest) -> rs.DescribeConfigsResponse:
    results = []
    for res in request.resources:
        keys = res.configuration_keys
        # DESCRIBE_CONFIGS on the topic, or on the cluster for broker resources
        if res.resource_type == TOPIC_RESOURCE:
            denied = authorize(ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, res.resource_name)
        elif res.resource_type == GROUP_RESOURCE:
            denied = authorize(ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.GROUP, res.resource_name)
        else:
            denied = authorize(ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER)
        if denied:
            results.append(
                rs.DescribeConfigsResult(
                    error_code=denied,
                    error_message=None,
                    resource_type=res.resource_type,
                    resource_name=res.resource_name,
                    configs=[],
                )
            )
            continue
        if res.resource_type == TOPIC_RESOURCE:
            topic = broker.topics.get(res.resource_name)
            if topic is None:
                results.append(
                    rs.DescribeConfigsResult(
                        error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                        error_message=f"Topic {res.resource_name} does not exist",
                        resource_type=res.resource_type,
                        resource_name=res.resource_name,
                        configs=[],
                    )
                )
                continue
            entries = topic_config_entries(
                broker, topic.configs, keys, request.include_synonyms, request.include_documentation
            )
        elif res.resource_type == BROKER_RESOURCE:
            if res.resource_name not in ("", str(broker.node_id)):
                results.append(
                    rs.DescribeConfigsResult(
                        error_code=ErrorCode.INVALID_REQUEST,
                        error_message=f"Unexpected broker id, expected {broker.node_id}",
                        resource_type=res.resource_type,
                        resource_name=res.resource_name,
                        configs=[],
                    )
                )
                continue
            entries = broker_config_entries(
                broker,
                keys,
                request.include_documentation,
                request.include_synonyms,
                default_resource=res.resource_name == "",
            )
        elif res.resource_type == BROKER_LOGGER_RESOURCE:
            entries = []
        elif res.resource_type == GROUP_RESOURCE:
            if not res.resource_name:
                results.append(
                    rs.DescribeConfigsResult(
                        error_code=ErrorCode.INVALID_REQUEST,
                        error_message="Group name must not be empty",
                        resource_type=res.resource_type,
                        resource_name=res.resource_name,
                        configs=[],
                    )
                )
                continue
            entries = group_config_entries(
                broker, res.resource_name, keys, request.include_synonyms, request.include_documentation
            )
        else:
            results.append(
                rs.DescribeConfigsResult(
                    error_code=ErrorCode.INVALID_REQUEST,
                    error_message=f"Unsupported resource type {res.resource_type}",
                    resource_type=res.resource_type,
                    resource_name=res.resource_name,
                    configs=[],
                )
            )
            continue
        results.append(
            rs.DescribeConfigsResult(
                error_code=ErrorCode.NONE,
                error_message=None,
                resource_type=res.resource_type,
                resource_name=res.resource_name,
                configs=[
                    rs.DescribeConfigsResourceResult(
                        name=e.name,
                        value=e.value,
                        read_only=e.read_only,
                        config_source=e.config_source,
                        is_default=e.config_source == ConfigSource.DEFAULT_CONFIG,
                        is_sensitive=e.config_type == ConfigType.PASSWORD,
                        synonyms=e.synonyms,
                        config_type=e.config_type,
                        documentation=e.documentation or None,
                    )
                    for e in entries
                ],
            )
        )
    return rs.DescribeConfigsResponse(throttle_time_ms=0, results=results)
