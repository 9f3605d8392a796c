"""Tiered storage configs through a real admin client: Kafka's names and defaults in DescribeConfigs,
and the refusals (INVALID_CONFIG with a clear message): tiering without the broker switch, compacted
topics, local retention above total retention, disabling without deleting the remote data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, ConfigResource, NewTopic

from broker_embedded import EmbeddedBroker
from broker_embedded.config import BrokerConfig, ConfigError
from kafka_wire.errors import ErrorCode

pytestmark = pytest.mark.timeout(60)


def create(admin: AdminClient, name: str, configs: dict[str, str]) -> None:
    admin.create_topics([NewTopic(name, 1, 1, config=configs)])[name].result(10)


def refused(admin: AdminClient, name: str, configs: dict[str, str]) -> str:
    with pytest.raises(KafkaException) as e:
        create(admin, name, configs)
    err = e.value.args[0]
    assert err.code() == ErrorCode.INVALID_CONFIG, err
    return str(err.str())


def alter(admin: AdminClient, name: str, configs: dict[str, str]) -> None:
    res = ConfigResource(ConfigResource.Type.TOPIC, name, set_config=configs)
    admin.alter_configs([res])[res].result(10)


def describe(admin: AdminClient, name: str) -> dict[str, Any]:
    res = ConfigResource(ConfigResource.Type.TOPIC, name)
    return {k: v.value for k, v in admin.describe_configs([res])[res].result(10).items()}


def test_broker_switch_off_refuses_tiered_topics(tmp_path: Path) -> None:
    with EmbeddedBroker(tmp_path) as b:
        assert b.call(lambda br: br.remote_log_manager) is None
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        msg = refused(admin, "t", {"remote.storage.enable": "true"})
        assert "Tiered Storage functionality is disabled in the broker" in msg
        create(admin, "plain", {})
        d = describe(admin, "plain")
        assert (d["remote.storage.enable"], d["local.retention.ms"], d["local.retention.bytes"]) == (
            "false",
            "-2",
            "-2",
        )
        res = ConfigResource(ConfigResource.Type.TOPIC, "plain", set_config={"remote.storage.enable": "true"})
        with pytest.raises(KafkaException) as e:
            admin.alter_configs([res])[res].result(10)
        assert e.value.args[0].code() == ErrorCode.INVALID_CONFIG


def test_tiered_topic_validation(tmp_path: Path) -> None:
    configs = {"remote.log.storage.system.enable": True, "rsm.config.dir": str(tmp_path / "remote")}
    with EmbeddedBroker(tmp_path / "logs", **configs) as b:
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        msg = refused(admin, "c", {"remote.storage.enable": "true", "cleanup.policy": "compact"})
        assert "compacted" in msg
        refused(admin, "c2", {"remote.storage.enable": "true", "cleanup.policy": "compact,delete"})
        msg = refused(
            admin, "r", {"remote.storage.enable": "true", "retention.ms": "1000", "local.retention.ms": "2000"}
        )
        assert "local.retention.ms" in msg and "retention.ms" in msg
        msg = refused(
            admin, "r2", {"remote.storage.enable": "true", "retention.bytes": "1000", "local.retention.bytes": "5000"}
        )
        assert "local.retention.bytes" in msg
        refused(admin, "r3", {"remote.storage.enable": "true", "retention.ms": "1000", "local.retention.ms": "-1"})
        refused(admin, "r4", {"remote.storage.enable": "true", "local.retention.ms": "-3"})

        create(admin, "ok", {"remote.storage.enable": "true", "retention.ms": "100000", "local.retention.ms": "1000"})
        d = describe(admin, "ok")
        assert (d["remote.storage.enable"], d["local.retention.ms"], d["remote.log.copy.disable"]) == (
            "true",
            "1000",
            "false",
        )
        # a tiered topic cannot become compacted
        res = ConfigResource(
            ConfigResource.Type.TOPIC, "ok", set_config={"remote.storage.enable": "true", "cleanup.policy": "compact"}
        )
        with pytest.raises(KafkaException) as e:
            admin.alter_configs([res])[res].result(10)
        assert e.value.args[0].code() == ErrorCode.INVALID_CONFIG
        # switching tiering off needs remote.log.delete.on.disable=true
        res = ConfigResource(ConfigResource.Type.TOPIC, "ok", set_config={"remote.storage.enable": "false"})
        with pytest.raises(KafkaException) as e:
            admin.alter_configs([res])[res].result(10)
        assert "remote.log.delete.on.disable" in e.value.args[0].str()
        alter(admin, "ok", {"remote.storage.enable": "false", "remote.log.delete.on.disable": "true"})
        assert describe(admin, "ok")["remote.storage.enable"] == "false"


def test_broker_config_names_and_defaults(tmp_path: Path) -> None:
    c = BrokerConfig()
    assert c["remote.log.storage.system.enable"] is False
    assert c["remote.log.manager.task.interval.ms"] == 30000
    assert c["remote.log.reader.threads"] == 10
    assert c["remote.fetch.max.wait.ms"] == 500
    assert c["remote.log.storage.manager.impl.prefix"] == "rsm.config."
    assert c["log.local.retention.ms"] == -2
    with pytest.raises(ConfigError):
        BrokerConfig({"remote.log.manager.task.retry.jitter": "0.9"})
    with pytest.raises(ConfigError):
        BrokerConfig({"remote.log.reader.threads": "0"})
    # a plugin class that does not exist stops the broker from starting with a clear error
    with pytest.raises(ValueError, match="cannot load"):
        EmbeddedBroker(
            tmp_path,
            **{"remote.log.storage.system.enable": True, "remote.log.storage.manager.class.name": "no.such.Storage"},
        ).start()
