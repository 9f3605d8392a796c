"""Dynamic broker configs (broker_embedded/dynamic_config.py): Kafka's refusals, layer precedence
and sources, topic resolution, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.config import BrokerConfig, ConfigSource, resolve_topic_config
from broker_embedded.dynamic_config import DYNAMIC_BROKER_CONFIGS, DynamicBrokerConfig, validate_broker_configs
from kafka_wire.errors import ErrorCode, KafkaError


def test_refusals_are_kafkas() -> None:
    with pytest.raises(KafkaError) as e:
        validate_broker_configs({"log.dirs": "/x", "broker.id": "3", "message.max.bytes": "5"})
    assert e.value.code == ErrorCode.INVALID_REQUEST
    assert str(e.value) == "Cannot update these configs dynamically: [log.dirs, broker.id]"
    with pytest.raises(KafkaError) as e:
        validate_broker_configs({"message.max.bytes": "lots"})
    assert e.value.code == ErrorCode.INVALID_REQUEST and "message.max.bytes" in str(e.value)
    # names this broker does not know are kept (Kafka keeps them), not applied
    assert validate_broker_configs({"some.plugin.config": "x"}) == {}
    assert validate_broker_configs({"log.retention.hours": "2"}) == {"log.retention.ms": 7_200_000}
    assert {
        "message.max.bytes",
        "log.retention.ms",
        "min.insync.replicas",
    } <= DYNAMIC_BROKER_CONFIGS
    assert "log.dirs" not in DYNAMIC_BROKER_CONFIGS


def test_layers_precedence_topics_and_persistence(tmp_path: Path) -> None:
    config = BrokerConfig({"log.retention.ms": 1000})
    path = tmp_path / DynamicBrokerConfig.FILE_NAME
    dynamic = DynamicBrokerConfig(config, 1, path)
    changes: list[int] = []
    dynamic.listeners.append(lambda: changes.append(1))

    def retention() -> tuple[int, ConfigSource]:
        r = resolve_topic_config(config, {}, "retention.ms")
        return r.value, r.source

    assert retention() == (1000, ConfigSource.STATIC_BROKER_CONFIG)
    dynamic.set_layer("", {"log.retention.ms": "2000"})
    assert config["log.retention.ms"] == 2000 and retention() == (2000, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
    dynamic.set_layer("1", {"log.retention.ms": "3000"})
    assert retention() == (3000, ConfigSource.DYNAMIC_BROKER_CONFIG)
    dynamic.set_layer("2", {"log.retention.ms": "4000"})  # another broker's layer: not ours
    assert retention() == (3000, ConfigSource.DYNAMIC_BROKER_CONFIG)
    dynamic.set_layer("1", {"log.retention.ms": "9"}, validate_only=True)
    assert retention()[0] == 3000
    assert len(changes) == 3
    reloaded_config = BrokerConfig({})
    reloaded = DynamicBrokerConfig(reloaded_config, 1, path)
    reloaded.load()
    assert reloaded.layers == dynamic.layers and reloaded_config["log.retention.ms"] == 3000
    dynamic.set_layer("1", {})
    assert retention() == (2000, ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG)
