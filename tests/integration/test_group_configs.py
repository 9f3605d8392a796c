"""Group configs (ConfigResource GROUP, type 32; KIP-848/932): the same scenario against ours and Apache
Kafka 4.3.1 with Kafka's kafka-configs tool and confluent-kafka's AdminClient; same answers, the
out-of-bounds values refused with Kafka's messages, and the consumer-protocol heartbeat interval
taken from the group's config."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from confluent_kafka import KafkaException
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh
from kafka_wire.protocol.messages import find_coordinator_request as fcr
from kafka_wire.protocol.messages import incremental_alter_configs_request as iac
from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.wire_util import connect

pytestmark = pytest.mark.slow

GROUP_CONFIG_NAMES = {
    "consumer.session.timeout.ms",
    "consumer.heartbeat.interval.ms",
    "consumer.assignment.interval.ms",
    "share.session.timeout.ms",
    "share.heartbeat.interval.ms",
    "share.record.lock.duration.ms",
    "share.delivery.count.limit",
    "share.partition.max.record.locks",
    "share.auto.offset.reset",
    "share.isolation.level",
    "share.renew.acknowledge.enable",
    "share.assignment.interval.ms",
    "streams.session.timeout.ms",
    "streams.heartbeat.interval.ms",
    "streams.num.standby.replicas",
    "streams.initial.rebalance.delay.ms",
    "streams.assignment.interval.ms",
}


def _group() -> str:
    return f"gcfg-{uuid.uuid4().hex[:8]}"


def _describe(admin: AdminClient, group: str) -> dict[str, tuple[str, int]]:
    fut = admin.describe_configs([ConfigResource(ConfigResource.Type.GROUP, group)])
    (cfg,) = (f.result(30) for f in fut.values())
    return {name: (e.value, e.source) for name, e in cfg.items()}


def _alter(admin: AdminClient, group: str, **values: str) -> None:
    entries = [
        ConfigEntry(k.replace("_", "."), v, incremental_operation=AlterConfigOpType.SET) for k, v in values.items()
    ]
    resource = ConfigResource(ConfigResource.Type.GROUP, group, incremental_configs=entries)
    fut = admin.incremental_alter_configs([resource])
    for f in fut.values():
        f.result(30)


def test_admin_client_describe_alter_and_bounds(broker: Any) -> None:
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    group = _group()
    # any group id answers the broker defaults, source DEFAULT_CONFIG (5)
    before = _describe(admin, group)
    assert set(before) == GROUP_CONFIG_NAMES
    assert before["consumer.session.timeout.ms"] == ("45000", 5)
    assert before["share.delivery.count.limit"] == ("5", 5)
    assert before["share.auto.offset.reset"] == ("latest", 5)

    _alter(admin, group, consumer_session_timeout_ms="50000", share_delivery_count_limit="3")
    after = _describe(admin, group)
    assert after["consumer.session.timeout.ms"] == ("50000", 8)  # DYNAMIC_GROUP_CONFIG
    assert after["share.delivery.count.limit"] == ("3", 8)
    assert after["consumer.heartbeat.interval.ms"] == ("5000", 5)

    refused = {
        "consumer.heartbeat.interval.ms": (
            "2000",
            "consumer.heartbeat.interval.ms must be greater than or equal to group.consumer.min.heartbeat.interval.ms",
        ),
        "share.delivery.count.limit": (
            "11",
            "share.delivery.count.limit must be less than or equal to group.share.max.delivery.count.limit",
        ),
        "share.record.lock.duration.ms": (
            "14000",
            "share.record.lock.duration.ms must be greater than or equal to group.share.min.record.lock.duration.ms",
        ),
        "share.partition.max.record.locks": (
            "50",
            "Invalid value 50 for configuration share.partition.max.record.locks: Value must be at least 100",
        ),
        "share.isolation.level": (
            "READ_COMMITTED",
            "Invalid value READ_COMMITTED for configuration share.isolation.level: String must be one of: "
            "read_committed, read_uncommitted",
        ),
        "consumer.nope": ("1", "Unknown group config name: consumer.nope"),
    }
    for name, (value, message) in refused.items():
        with pytest.raises(KafkaException) as e:
            _alter(admin, group, **{name: value})
        err = e.value.args[0]
        assert (err.code(), err.str()) == (ErrorCode.INVALID_CONFIG, message), name
    assert _describe(admin, group) == after  # nothing changed


def test_wire_edge_cases(broker: Any) -> None:
    """Kafka's broker-side checks: the default group, duplicate keys, a null SET, APPEND on a non-list."""
    with connect(broker.bootstrap_servers) as conn:

        def alter(name: str, *ops: tuple[str, int, str | None]) -> tuple[int, str | None]:
            configs = [iac.AlterableConfig(name=n, config_operation=o, value=v) for n, o, v in ops]
            resource = iac.AlterConfigsResource(resource_type=32, resource_name=name, configs=configs)
            body = iac.IncrementalAlterConfigsRequest(resources=[resource], validate_only=True)
            r = conn.request(44, body, version=1).responses[0]
            return r.error_code, r.error_message

        group = _group()
        assert alter("", ("consumer.session.timeout.ms", 0, "46000")) == (
            ErrorCode.INVALID_REQUEST,
            "Default group resources are not allowed.",
        )
        twice = (("consumer.heartbeat.interval.ms", 0, "6000"), ("consumer.heartbeat.interval.ms", 0, "7000"))
        assert alter(group, *twice) == (
            ErrorCode.INVALID_REQUEST,
            "Error due to duplicate config keys",
        )
        assert alter(group, ("consumer.session.timeout.ms", 0, None)) == (
            ErrorCode.INVALID_REQUEST,
            "Null value not supported for : consumer.session.timeout.ms",
        )
        assert alter(group, ("consumer.session.timeout.ms", 2, "1")) == (
            ErrorCode.INVALID_CONFIG,
            "Can't APPEND to key consumer.session.timeout.ms because its type is not LIST.",
        )
        assert alter(group, ("share.auto.offset.reset", 0, "by_duration:PT1H")) == (ErrorCode.NONE, None)
        assert alter(group, ("share.auto.offset.reset", 0, "by_duration:-PT1H"))[0] == ErrorCode.INVALID_CONFIG


def test_kafka_configs_tool(broker: Any, java_client: Any) -> None:
    bs = broker.bootstrap_servers
    group = _group()
    admin = AdminClient({"bootstrap.servers": bs})
    _alter(admin, group, consumer_session_timeout_ms="50000")
    bad = java_client.configs(
        bs, "--alter", "--entity-type", "groups", "--entity-name", group,
        "--add-config", "consumer.heartbeat.interval.ms=2000", check=False,
    )  # fmt: skip
    assert bad.returncode != 0
    assert (
        "InvalidConfigurationException: consumer.heartbeat.interval.ms must be greater than or equal to "
        "group.consumer.min.heartbeat.interval.ms" in bad.stderr
    )
    shown = java_client.configs(bs, "--describe", "--entity-type", "groups", "--entity-name", group)
    assert shown.stdout.strip().splitlines() == [
        f"Dynamic configs for group {group} are:",
        "  consumer.session.timeout.ms=50000 sensitive=false synonyms={DYNAMIC_GROUP_CONFIG:"
        "consumer.session.timeout.ms=50000, DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}",
    ]


def test_heartbeat_interval_from_the_group_config(broker: Any) -> None:
    """A consumer-protocol member is told the group's consumer.heartbeat.interval.ms."""
    bs = broker.bootstrap_servers
    group = _group()
    _alter(AdminClient({"bootstrap.servers": bs}), group, consumer_heartbeat_interval_ms="7000")
    with connect(bs) as conn:
        conn.request(10, fcr.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), version=4)
        join = cgh.ConsumerGroupHeartbeatRequest(
            group_id=group,
            member_id=uuid.uuid4().hex,
            member_epoch=0,
            rebalance_timeout_ms=30000,
            subscribed_topic_names=["gcfg-none"],
            topic_partitions=[],
        )
        deadline = time.monotonic() + 30
        while (r := conn.request(68, join, version=1)).error_code != ErrorCode.NONE:
            assert ErrorCode(r.error_code).name in (
                "COORDINATOR_NOT_AVAILABLE",
                "COORDINATOR_LOAD_IN_PROGRESS",
                "NOT_COORDINATOR",
            ), r
            assert time.monotonic() < deadline
            time.sleep(0.2)
        assert r.heartbeat_interval_ms == 7000
        leave = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=r.member_id, member_epoch=-1)
        assert conn.request(68, leave, version=1).error_code == ErrorCode.NONE


def test_restart_keeps_group_configs(tmp_path: Any) -> None:
    """Ours only: the overrides survive a restart (Apache keeps them in its metadata log)."""
    from broker_embedded import EmbeddedBroker

    group = _group()
    with EmbeddedBroker(log_dir=str(tmp_path)) as b:
        _alter(AdminClient({"bootstrap.servers": b.bootstrap_servers}), group, share_record_lock_duration_ms="20000")
    with EmbeddedBroker(log_dir=str(tmp_path)) as b:
        got = _describe(AdminClient({"bootstrap.servers": b.bootstrap_servers}), group)
        assert got["share.record.lock.duration.ms"] == ("20000", 8)
        assert b.broker.group_configs.get(group).share_record_lock_duration_ms == 20000
