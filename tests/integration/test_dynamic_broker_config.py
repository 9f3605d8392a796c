"""Dynamic broker configs (issue 30): kafka-configs --entity-type brokers on ours and Apache Kafka
4.3.1, a changed default applied to topics at once, and a cluster's defaults on every broker.

Apache's broker is the session's: every config set here is removed before the test ends.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from kafka_wire.protocol.messages import describe_configs_request as dcq
from kafka_wire.protocol.messages import incremental_alter_configs_request as iaq
from peers import jvm
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import cluster

DYNAMIC_BROKER_CONFIG, DYNAMIC_DEFAULT_BROKER_CONFIG = 2, 3
BROKER, TOPIC = 4, 2


def _configs(java_client: Any, bootstrap: str, *args: str) -> tuple[int, str]:
    out = java_client.run(jvm.CONFIGS, "--bootstrap-server", bootstrap, *args, check=False)
    return out.returncode, (out.stdout + out.stderr)


def _node(bootstrap: str) -> str:
    return str(sorted(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10).brokers)[0])


def _describe(bootstrap: str, resource_type: int, name: str, key: str) -> tuple[str | None, int, bool]:
    """(value, source, read_only) of one config."""
    conn = w.connect(bootstrap)
    try:
        req = dcq.DescribeConfigsRequest(
            resources=[
                dcq.DescribeConfigsResource(resource_type=resource_type, resource_name=name, configuration_keys=[key])
            ],
            include_synonyms=True,
        )
        (result,) = conn.request(32, req, 4).results
        assert result.error_code == 0, result.error_message
        (entry,) = [c for c in result.configs if c.name == key]
        return entry.value, entry.config_source, entry.read_only
    finally:
        conn.close()


def _incremental(bootstrap: str, name: str, key: str, value: str | None) -> tuple[int, str | None]:
    """IncrementalAlterConfigs SET (or DELETE with None) of one config of BROKER resource `name`
    ("" = the cluster default, which librdkafka cannot name)."""
    conn = w.connect(bootstrap)
    try:
        op = iaq.AlterableConfig(name=key, config_operation=0 if value is not None else 1, value=value)
        req = iaq.IncrementalAlterConfigsRequest(
            resources=[iaq.AlterConfigsResource(resource_type=BROKER, resource_name=name, configs=[op])]
        )
        (r,) = conn.request(44, req, 1).responses
        return r.error_code, r.error_message
    finally:
        conn.close()


@pytest.mark.slow  # Kafka's own tool, a JVM per command
def test_kafka_configs_brokers(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    node = _node(bootstrap)
    mine = ("--entity-type", "brokers", "--entity-name", node)
    try:
        assert _incremental(bootstrap, "", "log.retention.ms", "7200000") == (0, None)
        assert _configs(java_client, bootstrap, "--alter", *mine, "--add-config", "message.max.bytes=2000000") == (
            0,
            f"Completed updating config for broker {node}.\n",
        )
        # a read-only config (kafka-configs shows the broker's message: InvalidRequestException ...)
        assert _incremental(bootstrap, node, "log.dirs", "/tmp/elsewhere") == (
            42,
            "Cannot update these configs dynamically: [log.dirs]",
        )
        code, out = _configs(java_client, bootstrap, "--describe", *mine)
        assert code == 0 and out == (
            f"Dynamic configs for broker {node} are:\n  message.max.bytes=2000000 sensitive=false "
            "synonyms={DYNAMIC_BROKER_CONFIG:message.max.bytes=2000000, DEFAULT_CONFIG:message.max.bytes=1048588}\n"
        )
        # DescribeConfigs: the source and writability of each layer
        assert _describe(bootstrap, BROKER, node, "message.max.bytes") == ("2000000", DYNAMIC_BROKER_CONFIG, False)
        assert _describe(bootstrap, BROKER, node, "log.retention.ms") == (
            "7200000",
            DYNAMIC_DEFAULT_BROKER_CONFIG,
            False,
        )
        assert _describe(bootstrap, BROKER, "", "log.retention.ms") == ("7200000", DYNAMIC_DEFAULT_BROKER_CONFIG, False)
        assert _describe(bootstrap, BROKER, node, "log.dirs")[2] is True
        # another broker's id is refused by this one (Kafka's broker-side check)
        other = str(int(node) + 7)
        assert _incremental(bootstrap, other, "message.max.bytes", "2000") == (
            42,
            f"Unexpected broker id, expected {node}, but received {other}",
        )
    finally:
        _incremental(bootstrap, node, "message.max.bytes", None)
        _incremental(bootstrap, "", "log.retention.ms", None)
    assert _describe(bootstrap, BROKER, node, "message.max.bytes")[1:] == (5, False)


def test_dynamic_default_applies_to_topics_without_a_restart(either_broker: Any) -> None:
    """A cluster default message.max.bytes of 2000 refuses a 5000-byte record on an existing topic;
    the topic's max.message.bytes shows it as DYNAMIC_DEFAULT_BROKER_CONFIG; deleting it restores
    the old limit."""
    bootstrap = either_broker.bootstrap_servers
    topic = f"dyn-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)

    def alter(value: str | None) -> None:
        assert _incremental(bootstrap, "", "message.max.bytes", value) == (0, None)

    def produce() -> str | None:
        p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "retries": 0})
        errors: list[str] = []
        p.produce(topic, b"x" * 5000, on_delivery=lambda err, msg: errors.append(err.name() if err else "OK"))
        p.flush(30)
        return errors[0] if errors else None

    try:
        alter("2000")
        wait_until(
            lambda: (
                _describe(bootstrap, TOPIC, topic, "max.message.bytes")
                == ("2000", DYNAMIC_DEFAULT_BROKER_CONFIG, False)
            ),
            timeout=15,
            what="the topic sees the dynamic default",
        )
        assert produce() == "MSG_SIZE_TOO_LARGE"
    finally:
        alter(None)
    wait_until(
        lambda: _describe(bootstrap, TOPIC, topic, "max.message.bytes")[0] == "1048588", timeout=15, what="restored"
    )
    assert produce() == "OK"


def test_dynamic_defaults_reach_every_broker_of_a_cluster() -> None:
    with cluster(3) as c:
        topic = f"dync-{uuid.uuid4().hex[:8]}"
        admin = AdminClient({"bootstrap.servers": c.bootstrap(1)})
        admin.create_topics([NewTopic(topic, 3, 3)])[topic].result(30)
        assert _incremental(c.bootstrap(1), "", "log.retention.ms", "3600000") == (0, None)
        for broker_id in (1, 2, 3):
            wait_until(
                lambda b=broker_id: (
                    _describe(c.bootstrap(b), TOPIC, topic, "retention.ms")
                    == ("3600000", DYNAMIC_DEFAULT_BROKER_CONFIG, False)
                ),
                timeout=20,
                what=f"broker {broker_id} resolves the topic with the cluster default",
            )
        # a broker's own value wins over the default, and only there
        assert _incremental(c.bootstrap(2), "2", "log.retention.ms", "1800000") == (0, None)
        wait_until(
            lambda: (
                _describe(c.bootstrap(2), BROKER, "2", "log.retention.ms") == ("1800000", DYNAMIC_BROKER_CONFIG, False)
            ),
            timeout=20,
            what="broker 2's own value",
        )
        assert _describe(c.bootstrap(3), BROKER, "3", "log.retention.ms") == (
            "3600000",
            DYNAMIC_DEFAULT_BROKER_CONFIG,
            False,
        )


CLEANER_CONFIGS = (
    "log.cleaner.threads",
    "log.cleaner.io.max.bytes.per.second",
    "log.cleaner.dedupe.buffer.size",
    "log.cleaner.io.buffer.size",
    "log.cleaner.io.buffer.load.factor",
    "log.cleaner.backoff.ms",
)


def test_log_cleaner_configs(either_broker: Any) -> None:
    """The log cleaner's configs are dynamic per broker: DescribeConfigs lists their defaults, a
    change shows as DYNAMIC_BROKER_CONFIG, log.cleaner.threads refuses more than double (or less than
    half) the running count with Kafka's message, and ours resizes its cleaner pool."""
    bootstrap = either_broker.bootstrap_servers
    node = _node(bootstrap)
    defaults = {name: _describe(bootstrap, BROKER, node, name) for name in CLEANER_CONFIGS}
    assert defaults == {
        "log.cleaner.threads": ("1", 5, False),
        "log.cleaner.io.max.bytes.per.second": ("1.7976931348623157E308", 5, False),
        "log.cleaner.dedupe.buffer.size": ("134217728", 5, False),
        "log.cleaner.io.buffer.size": ("524288", 5, False),
        "log.cleaner.io.buffer.load.factor": ("0.9", 5, False),
        "log.cleaner.backoff.ms": ("15000", 5, False),
    }
    changed = {
        "log.cleaner.threads": "2",
        "log.cleaner.io.max.bytes.per.second": "1000000.0",
        "log.cleaner.dedupe.buffer.size": "67108864",
        "log.cleaner.backoff.ms": "5000",
    }
    try:
        assert _incremental(bootstrap, node, "log.cleaner.threads", "3") == (
            42,
            "Invalid value org.apache.kafka.common.config.ConfigException: Log cleaner threads cannot be increased"
            " to more than double the current value 1 for configuration Invalid dynamic configuration",
        )
        for name, value in changed.items():
            assert _incremental(bootstrap, node, name, value) == (0, None), name
        wait_until(
            lambda: all(
                _describe(bootstrap, BROKER, node, n) == (v, DYNAMIC_BROKER_CONFIG, False) for n, v in changed.items()
            ),
            timeout=15,
            what="the cleaner configs shown as DYNAMIC_BROKER_CONFIG",
        )
        if not isinstance(either_broker, jvm.ApacheKafka):
            assert either_broker.broker.cleaner_pool.threads == 2
            assert either_broker.broker.cleaner_pool.throttler.desired_rate_per_sec == 1e6
    finally:
        for name in changed:
            _incremental(bootstrap, node, name, None)
    wait_until(
        lambda: all(_describe(bootstrap, BROKER, node, n) == defaults[n] for n in changed),
        timeout=15,
        what="the cleaner configs back at their defaults",
    )
