"""KIP-848 under ACLs (ours only: the Apache fixture runs without an authorizer): a consumer-protocol
member needs READ on its group, and DESCRIBE on every topic it subscribes to by name, as Kafka asks."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AclOperation, NewTopic, ResourceType

from broker_embedded import EmbeddedBroker
from tests.integration.test_security_acls import acl, admin, conf, grant

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(
        tmp_path_factory.mktemp("kip848-acl"),
        secure=True,
        acls=True,
        num_partitions=1,
        **{"group.coordinator.rebalance.protocols": "classic,consumer"},
    ) as b:
        yield b


def _first_error(c: Consumer, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            m = c.poll(0.2)
        except KafkaException as e:
            return str(e.args[0].name())
        if m is not None and m.error():
            return str(m.error().name())
        if m is not None:
            return None
    return "TIMEOUT"


def test_subscribing_needs_describe_on_the_topic(broker: EmbeddedBroker) -> None:
    a = admin(broker)
    for f in a.create_topics([NewTopic("kip848-secret", 1, 1)]).values():
        f.result(30)
    p = Producer(conf(broker, "admin"))
    p.produce("kip848-secret", b"x")
    assert p.flush(30) == 0
    grant(broker, acl(ResourceType.GROUP, "kip848-acl-group", AclOperation.READ))
    alice = {"group.id": "kip848-acl-group", "group.protocol": "consumer", "auto.offset.reset": "earliest"}
    c = Consumer(conf(broker, "alice", **alice))
    try:
        c.subscribe(["kip848-secret"])
        assert _first_error(c, 20) == "TOPIC_AUTHORIZATION_FAILED"
    finally:
        c.close()
    grant(
        broker,
        acl(ResourceType.TOPIC, "kip848-secret", AclOperation.DESCRIBE),
        acl(ResourceType.TOPIC, "kip848-secret", AclOperation.READ),
    )
    c = Consumer(conf(broker, "alice", **alice))
    try:
        c.subscribe(["kip848-secret"])
        assert _first_error(c, 30) is None  # a record arrived
    finally:
        c.close()


def test_a_regex_resolves_only_to_topics_the_member_may_describe(broker: EmbeddedBroker) -> None:
    a = admin(broker)
    for f in a.create_topics([NewTopic(t, 1, 1) for t in ("kip848rx-open", "kip848rx-closed")]).values():
        f.result(30)
    p = Producer(conf(broker, "admin"))
    for t in ("kip848rx-open", "kip848rx-closed"):
        p.produce(t, t.encode())
    assert p.flush(30) == 0
    grant(
        broker,
        acl(ResourceType.GROUP, "kip848-rx-group", AclOperation.READ),
        acl(ResourceType.TOPIC, "kip848rx-open", AclOperation.DESCRIBE),
        acl(ResourceType.TOPIC, "kip848rx-open", AclOperation.READ),
    )
    c = Consumer(conf(broker, "alice", **{"group.id": "kip848-rx-group", "group.protocol": "consumer",
                                          "auto.offset.reset": "earliest"}))  # fmt: skip
    got: list[str] = []
    errors: list[str] = []
    try:
        c.subscribe(["^kip848rx-.*"])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not got:
            m = c.poll(0.2)
            if m is not None and m.error():
                errors.append(m.error().name())
            elif m is not None:
                got.append(m.topic())
        # a moment more: nothing of the closed topic arrives, and no authorization error either
        end = time.monotonic() + 3
        while time.monotonic() < end:
            m = c.poll(0.2)
            if m is not None and m.error():
                errors.append(m.error().name())
            elif m is not None:
                got.append(m.topic())
        assigned = sorted(tp.topic for tp in c.assignment())
        # the broker's own view: librdkafka alone would also ignore a topic id it cannot name
        assert broker.broker is not None
        group = broker.broker.group_coordinator.consumer_groups.groups["kip848-rx-group"]
        resolved = sorted(t.topic_name for t in group.subscribed_metadata.values())
    finally:
        c.close()
    assert got == ["kip848rx-open"] and assigned == ["kip848rx-open"], (got, assigned, errors)
    assert resolved == ["kip848rx-open"]
    assert "TOPIC_AUTHORIZATION_FAILED" not in errors
