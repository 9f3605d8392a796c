"""Issue 13, broker side: ACLs enforced by real clients' requests against
`EmbeddedBroker(secure=True, acls=True)` (StandardAuthorizer, `admin` super user): the right
AUTHORIZATION_FAILED code per resource, Metadata hiding topics, deny winning, prefixed grants, mTLS
principals, persistence across a restart.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclPermissionType,
    AdminClient,
    ConfigResource,
    NewTopic,
    ResourcePatternType,
    ResourceType,
    ScramCredentialInfo,
    ScramMechanism,
    UserScramCredentialUpsertion,
)

from broker_embedded import EmbeddedBroker

LIT, PRE = ResourcePatternType.LITERAL, ResourcePatternType.PREFIXED
ALLOW, DENY = AclPermissionType.ALLOW, AclPermissionType.DENY


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(tmp_path_factory.mktemp("acl-broker"), secure=True, acls=True, num_partitions=1) as b:
        yield b


def conf(b: EmbeddedBroker, user: str, **extra: Any) -> dict[str, Any]:
    assert b.secure is not None
    return {**b.secure.librdkafka(b.bootstrap("SASL_SSL"), "SASL_SSL", "SCRAM-SHA-512", user=user), **extra}


def admin(b: EmbeddedBroker, user: str = "admin") -> AdminClient:
    return AdminClient(conf(b, user))


def grant(b: EmbeddedBroker, *bindings: AclBinding) -> None:
    a = admin(b)  # the client must outlive its futures
    for f in a.create_acls(list(bindings)).values():
        f.result(10)


def acl(rt: ResourceType, name: str, op: AclOperation, who: str = "User:alice", perm: AclPermissionType = ALLOW,
        pattern: ResourcePatternType = LIT) -> AclBinding:  # fmt: skip
    return AclBinding(rt, name, pattern, who, "*", op, perm)


def name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def create_topic(b: EmbeddedBroker, topic: str) -> None:
    a = admin(b)
    a.create_topics([NewTopic(topic, 1, 1)])[topic].result(15)


def produce_error(b: EmbeddedBroker, user: str, topic: str, **extra: Any) -> KafkaError | None:
    reports: list[Any] = []
    p = Producer(conf(b, user, **{"message.timeout.ms": 5000, **extra}))
    p.produce(topic, b"x", on_delivery=lambda err, _m: reports.append(err))
    p.flush(10)
    assert len(reports) == 1
    return reports[0]  # type: ignore[no-any-return]


def consume(b: EmbeddedBroker, user: str, topic: str, group: str, n: int = 1) -> list[bytes] | KafkaError:
    c = Consumer(conf(b, user, **{"group.id": group, "auto.offset.reset": "earliest"}))
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + 15
    try:
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.3)
            if m is None:
                continue
            if m.error() is not None:
                if m.error().code() in (KafkaError._PARTITION_EOF,):
                    continue
                return m.error()  # type: ignore[no-any-return]
            got.append(m.value())
    finally:
        c.close()
    return got


def test_produce_needs_write_on_the_topic(broker: EmbeddedBroker) -> None:
    topic = name("orders")
    create_topic(broker, topic)
    err = produce_error(broker, "alice", topic)
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    grant(broker, acl(ResourceType.TOPIC, "orders-", AclOperation.WRITE, pattern=PRE))
    assert produce_error(broker, "alice", topic) is None
    # WRITE implies DESCRIBE, not READ
    grant(broker, acl(ResourceType.GROUP, "g-", AclOperation.READ, pattern=PRE))
    got = consume(broker, "alice", topic, name("g"))
    assert isinstance(got, KafkaError) and got.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED


def test_consume_needs_read_on_topic_and_group(broker: EmbeddedBroker) -> None:
    topic = name("feed")
    create_topic(broker, topic)
    assert produce_error(broker, "admin", topic) is None
    grant(broker, acl(ResourceType.TOPIC, topic, AclOperation.READ, who="User:bob"))
    got = consume(broker, "bob", topic, name("bobs"))
    assert isinstance(got, KafkaError) and got.code() == KafkaError.GROUP_AUTHORIZATION_FAILED
    group = name("bobs")
    grant(broker, acl(ResourceType.GROUP, group, AclOperation.READ, who="User:bob"))
    assert consume(broker, "bob", topic, group) == [b"x"]


def test_deny_wins_over_a_wildcard_allow(broker: EmbeddedBroker) -> None:
    topic = name("vault")
    create_topic(broker, topic)
    grant(
        broker,
        acl(ResourceType.TOPIC, "*", AclOperation.ALL, who="User:carol"),
        acl(ResourceType.TOPIC, topic, AclOperation.WRITE, who="User:carol", perm=DENY),
    )
    _add_scram_user(broker, "carol", "carol-pw")
    err = produce_error(broker, "alice", topic, **{"sasl.username": "carol", "sasl.password": "carol-pw"})
    assert err is not None and err.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    other = name("open")
    create_topic(broker, other)
    assert produce_error(broker, "alice", other, **{"sasl.username": "carol", "sasl.password": "carol-pw"}) is None


def _add_scram_user(b: EmbeddedBroker, user: str, password: str) -> None:
    a = admin(b)
    futures = a.alter_user_scram_credentials(
        [UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password.encode())]
    )
    futures[user].result(10)


def test_metadata_hides_topics_the_principal_may_not_describe(broker: EmbeddedBroker) -> None:
    visible, hidden = name("pub"), name("hidden")
    create_topic(broker, visible)
    create_topic(broker, hidden)
    grant(broker, acl(ResourceType.TOPIC, visible, AclOperation.DESCRIBE, who="User:bob"))
    bob = admin(broker, "bob")
    topics = bob.list_topics(timeout=10).topics
    assert visible in topics and hidden not in topics
    # asked by name: TOPIC_AUTHORIZATION_FAILED, not UNKNOWN_TOPIC (the name does not leak either way)
    md = bob.list_topics(hidden, timeout=10)
    assert md.topics[hidden].error is not None
    assert md.topics[hidden].error.code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    assert hidden in admin(broker, "admin").list_topics(timeout=10).topics  # super user sees all


def test_denied_admin_operations_name_their_resource(broker: EmbeddedBroker) -> None:
    a = admin(broker, "alice")
    topic = name("nope")
    with pytest.raises(KafkaException) as e:
        a.create_topics([NewTopic(topic, 1, 1)])[topic].result(10)
    assert e.value.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    existing = name("keep")
    create_topic(broker, existing)
    with pytest.raises(KafkaException) as e:
        a.delete_topics([existing])[existing].result(10)
    assert e.value.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    with pytest.raises(KafkaException) as e:
        a.describe_configs([ConfigResource(ConfigResource.Type.TOPIC, existing)])[
            ConfigResource(ConfigResource.Type.TOPIC, existing)
        ].result(10)
    assert e.value.args[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    binding = acl(ResourceType.TOPIC, "x", AclOperation.READ)
    with pytest.raises(KafkaException) as e:
        a.create_acls([binding])[binding].result(10)
    assert e.value.args[0].code() == KafkaError.CLUSTER_AUTHORIZATION_FAILED
    # DescribeAcls: librdkafka drops the top-level error (an empty list); kafka-python raises it
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        KafkaAdminClient,
        ResourcePatternFilter,
    )
    from kafka.admin import ResourceType as KpResourceType
    from kafka.errors import ClusterAuthorizationFailedError

    assert broker.secure is not None
    kp = KafkaAdminClient(
        bootstrap_servers=broker.bootstrap("SASL_SSL"),
        security_protocol="SASL_SSL",
        ssl_cafile=str(broker.secure.ca_pem),
        sasl_mechanism="SCRAM-SHA-256",
        sasl_plain_username="alice",
        sasl_plain_password=broker.secure.users["alice"],
    )
    try:
        everything = ResourcePatternFilter(KpResourceType.ANY, None, ACLResourcePatternType.ANY)
        with pytest.raises(ClusterAuthorizationFailedError):
            kp.describe_acls(ACLFilter(None, "*", ACLOperation.ANY, ACLPermissionType.ANY, everything))
    finally:
        kp.close()
    with pytest.raises(KafkaException) as e:
        _add_scram_user_as(broker, "alice", "mallory")
    assert e.value.args[0].code() == KafkaError.CLUSTER_AUTHORIZATION_FAILED
    # with CREATE on the cluster alice may create topics
    grant(broker, acl(ResourceType.BROKER, "kafka-cluster", AclOperation.CREATE))  # confluent: BROKER = CLUSTER
    a.create_topics([NewTopic(topic, 1, 1)])[topic].result(10)


def _add_scram_user_as(b: EmbeddedBroker, who: str, user: str) -> None:
    a = admin(b, who)
    futures = a.alter_user_scram_credentials(
        [UserScramCredentialUpsertion(user, ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), b"pw")]
    )
    futures[user].result(10)


def test_transactional_id_needs_write(broker: EmbeddedBroker) -> None:
    p = Producer(conf(broker, "bob", **{"transactional.id": name("tx")}))
    with pytest.raises(KafkaException) as e:
        p.init_transactions(10)
    assert e.value.args[0].code() == KafkaError.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


def test_idempotent_producer_needs_write_on_a_topic_or_idempotent_write(broker: EmbeddedBroker) -> None:
    topic = name("idem")
    create_topic(broker, topic)
    errors: list[Any] = []
    err = produce_error(broker, "bob", topic, **{"enable.idempotence": True, "error_cb": errors.append})
    assert err is not None
    grant(broker, acl(ResourceType.TOPIC, topic, AclOperation.WRITE, who="User:bob"))
    assert produce_error(broker, "bob", topic, **{"enable.idempotence": True}) is None


def test_mtls_principal_is_authorized_by_its_dn(broker: EmbeddedBroker) -> None:
    assert broker.secure is not None
    topic = name("certs")
    create_topic(broker, topic)
    mtls = broker.secure.librdkafka(broker.bootstrap("SSL"), "SSL", user="bob", mtls=True)
    reports: list[Any] = []
    p = Producer({**mtls, "message.timeout.ms": 5000})
    p.produce(topic, b"x", on_delivery=lambda err, _m: reports.append(err))
    p.flush(10)
    assert reports[0] is not None and reports[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED
    grant(broker, acl(ResourceType.TOPIC, topic, AclOperation.WRITE, who="User:CN=bob"))
    p2 = Producer({**mtls, "message.timeout.ms": 5000})  # librdkafka remembers the refusal per topic
    p2.produce(topic, b"y", on_delivery=lambda err, _m: reports.append(err))
    p2.flush(10)
    assert reports[1] is None


def test_acls_persist_across_a_restart(broker: EmbeddedBroker) -> None:
    marker = acl(ResourceType.TOPIC, name("persist"), AclOperation.READ, who="User:dave")
    grant(broker, marker)
    broker.stop()
    broker.start()
    a = admin(broker)  # the client must outlive its futures
    wanted = AclBindingFilter(ResourceType.TOPIC, marker.name, ResourcePatternType.LITERAL, None, None,
                              AclOperation.ANY, AclPermissionType.ANY)  # fmt: skip
    found = a.describe_acls(wanted).result(10)
    assert [(b.principal, b.operation) for b in found] == [("User:dave", AclOperation.READ)]


def test_transactional_producer_with_its_acls(broker: EmbeddedBroker) -> None:
    topic, txn = name("txn-topic"), name("txn")
    create_topic(broker, topic)
    grant(
        broker,
        acl(ResourceType.TRANSACTIONAL_ID, txn, AclOperation.WRITE, who="User:bob"),
        acl(ResourceType.TOPIC, topic, AclOperation.WRITE, who="User:bob"),
    )
    p = Producer(conf(broker, "bob", **{"transactional.id": txn}))
    p.init_transactions(15)
    p.begin_transaction()
    p.produce(topic, b"committed")
    p.commit_transaction(15)
    # a topic outside bob's ACLs fails the transaction with TOPIC_AUTHORIZATION_FAILED
    other = name("txn-other")
    create_topic(broker, other)
    p.begin_transaction()
    reports: list[Any] = []
    p.produce(other, b"refused", on_delivery=lambda err, _m: reports.append(err))
    with pytest.raises(KafkaException):
        p.commit_transaction(15)
    assert reports and reports[0].code() == KafkaError.TOPIC_AUTHORIZATION_FAILED, reports
    p.abort_transaction(15)
    c = Consumer(conf(broker, "admin", **{"group.id": name("g"), "isolation.level": "read_committed"}))
    c.assign([TopicPartition(topic, 0, 0)])
    got = []
    deadline = time.monotonic() + 15
    while not got and time.monotonic() < deadline:
        m = c.poll(0.3)
        if m is not None and m.error() is None:
            got.append(m.value())
    c.close()
    assert got == [b"committed"]


def test_kafka_python_admin_acls_and_scram_users(broker: EmbeddedBroker) -> None:
    from kafka.admin import (
        ACL,
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        KafkaAdminClient,
        ResourcePattern,
        ResourcePatternFilter,
        UserScramCredentialUpsertion,
    )
    from kafka.admin import ResourceType as KpResourceType
    from kafka.admin import ScramMechanism as KpScram

    assert broker.secure is not None
    kp = KafkaAdminClient(
        bootstrap_servers=broker.bootstrap("SASL_SSL"),
        security_protocol="SASL_SSL",
        ssl_cafile=str(broker.secure.ca_pem),
        sasl_mechanism="SCRAM-SHA-512",
        sasl_plain_username="admin",
        sasl_plain_password=broker.secure.users["admin"],
    )
    topic = name("kp-acl")
    try:
        pattern = ResourcePattern(KpResourceType.TOPIC, topic, ACLResourcePatternType.LITERAL)
        binding = ACL("User:frank", "*", ACLOperation.READ, ACLPermissionType.ALLOW, pattern)
        created = kp.create_acls([binding])
        assert not created["failed"], created
        match = ACLFilter(
            "User:frank", None, ACLOperation.ANY, ACLPermissionType.ANY,  # not the wildcard ACLs of others
            ResourcePatternFilter(KpResourceType.TOPIC, topic, ACLResourcePatternType.MATCH),
        )  # fmt: skip
        acls, _ = kp.describe_acls(match)
        assert [(a.principal, a.operation) for a in acls] == [("User:frank", ACLOperation.READ)]
        deleted = kp.delete_acls([match])
        assert len(deleted[0][1]) == 1
        assert kp.describe_acls(match)[0] == []
        # a SCRAM user created by kafka-python's admin authenticates
        errors = kp.alter_user_scram_credentials(
            [UserScramCredentialUpsertion("grace", KpScram.SCRAM_SHA_256, "grace-pw", iterations=4096)]
        )
        assert errors == {"grace": None}, errors
    finally:
        kp.close()
    create_topic(broker, topic)
    grant(broker, acl(ResourceType.TOPIC, topic, AclOperation.WRITE, who="User:grace"))
    assert (
        produce_error(
            broker,
            "alice",
            topic,
            **{"sasl.mechanism": "SCRAM-SHA-256", "sasl.username": "grace", "sasl.password": "grace-pw"},
        )  # fmt: skip
        is None
    )
