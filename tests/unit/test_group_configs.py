"""Group configs (group/group_configs.py): defaults from the broker, Kafka's validation order and
messages, the capped effective values, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.config import BrokerConfig, ConfigError, ConfigSource
from broker_embedded.group.group_configs import DELETE, GROUP_CONFIGS, SET, GroupConfigStore


def test_seventeen_configs_with_broker_defaults() -> None:
    store = GroupConfigStore(BrokerConfig({"group.consumer.session.timeout.ms": 50000}))
    assert len(GROUP_CONFIGS) == 17
    cfg = store.get("any")
    assert cfg.consumer_session_timeout_ms == 50000
    assert (cfg.share_delivery_count_limit, cfg.share_record_lock_duration_ms) == (5, 30000)
    assert (cfg.share_auto_offset_reset, cfg.share_isolation_level, cfg.share_renew_acknowledge_enable) == (
        "latest",
        "read_uncommitted",
        True,
    )
    r = store.resolve("any", "consumer.session.timeout.ms")
    assert r.source == ConfigSource.STATIC_BROKER_CONFIG
    assert r.synonyms == [
        ("group.consumer.session.timeout.ms", "50000", ConfigSource.STATIC_BROKER_CONFIG),
        ("group.consumer.session.timeout.ms", "45000", ConfigSource.DEFAULT_CONFIG),
    ]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"nope": "1", "share.delivery.count.limit": "1"}, "Unknown group config name: nope"),
        (
            {"share.delivery.count.limit": "1"},
            "Invalid value 1 for configuration share.delivery.count.limit: Value must be at least 2",
        ),
        (
            {"share.delivery.count.limit": "11", "consumer.session.timeout.ms": "1000"},
            "consumer.session.timeout.ms must be greater than or equal to group.consumer.min.session.timeout.ms",
        ),
        (
            {"share.record.lock.duration.ms": "61000"},
            "share.record.lock.duration.ms must be less than or equal to group.share.max.record.lock.duration.ms",
        ),
        (
            {"consumer.session.timeout.ms": "x"},
            "Invalid value x for configuration consumer.session.timeout.ms: Not a number of type INT",
        ),
        (
            {"share.renew.acknowledge.enable": "maybe"},
            "Invalid value maybe for configuration share.renew.acknowledge.enable: Expected value to be either "
            "true or false",
        ),
    ],
)
def test_validation_order_and_messages(raw: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as e:
        GroupConfigStore(BrokerConfig()).validate(raw)
    assert str(e.value) == message


def test_session_must_exceed_heartbeat_with_widened_bounds() -> None:
    store = GroupConfigStore(BrokerConfig({"group.consumer.min.session.timeout.ms": 1000}))
    with pytest.raises(ConfigError, match="consumer.session.timeout.ms must be greater than consumer.heartbeat"):
        store.validate({"consumer.session.timeout.ms": "5000"})


def test_incremental_ops_persistence_and_capping(tmp_path: Path) -> None:
    path = tmp_path / GroupConfigStore.FILE_NAME
    store = GroupConfigStore(BrokerConfig(), path)
    changed: list[set[str]] = []
    store.listeners.append(changed.append)
    raw = store.incremental(
        "g", [("share.delivery.count.limit", SET, " 3 "), ("share.auto.offset.reset", SET, "earliest")]
    )
    store.set("g", raw)
    assert store.get("g").share_delivery_count_limit == 3 and changed == [{"g"}]
    store.set("g", store.incremental("g", [("share.auto.offset.reset", DELETE, None), ("nope", DELETE, None)]))
    assert store.to_json() == {"g": {"share.delivery.count.limit": "3"}}
    with pytest.raises(ConfigError, match="Can't APPEND to key"):
        store.incremental("g", [("share.delivery.count.limit", 2, "1")])
    # a restart with narrower bounds keeps the stored value but caps the effective one (Kafka 4.3)
    again = GroupConfigStore(BrokerConfig({"group.share.min.delivery.count.limit": 4}), path)
    again.load()
    assert again.resolve("g", "share.delivery.count.limit").value == 3
    assert again.get("g").share_delivery_count_limit == 4
    store.set("g", {})
    assert store.to_json() == {} and GroupConfigStore(BrokerConfig(), path).get("g").share_delivery_count_limit == 5
