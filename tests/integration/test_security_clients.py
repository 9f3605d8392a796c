"""Issue 13, broker side: real clients against `EmbeddedBroker(secure=True)` over every SASL
mechanism and TLS mode -- produce, consume in a group, admin (topics, ACLs, SCRAM users).

One broker for the module (listeners SASL_SSL, SSL with client certificates requested,
SASL_PLAINTEXT); each case uses its own topic and group.
"""

from __future__ import annotations

import asyncio
import base64
import json
import ssl
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from broker_embedded.security.secure_setup import SecureSetup

N = 5

# (listener, mechanism or None, mTLS)
MODES = [
    ("SASL_SSL", "PLAIN", False),
    ("SASL_SSL", "SCRAM-SHA-256", False),
    ("SASL_SSL", "SCRAM-SHA-512", False),
    ("SASL_SSL", "OAUTHBEARER", False),
    ("SSL", None, False),
    ("SSL", None, True),
    ("SASL_PLAINTEXT", "SCRAM-SHA-256", False),
]
MODE_IDS = [f"{lst}-{mech or ('mtls' if mtls else 'one-way')}" for lst, mech, mtls in MODES]


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(secure=True, num_partitions=1) as b:
        yield b


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def unsecured_jws(sub: str, lifetime_s: float = 3600) -> str:
    def enc(d: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()

    now = time.time()
    return f"{enc({'alg': 'none'})}.{enc({'sub': sub, 'iat': now, 'exp': now + lifetime_s})}."


# ---- confluent-kafka (librdkafka) ----------------------------------------------------------------


def confluent_roundtrip(conf: dict[str, Any], topic: str) -> list[bytes]:
    from confluent_kafka import Consumer, Producer

    p = Producer(conf)
    for i in range(N):
        p.produce(topic, f"v{i}".encode())
    assert p.flush(15) == 0
    c = Consumer({**conf, "group.id": _name("g"), "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + 20
    try:
        while len(got) < N and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m.value())
        c.commit(asynchronous=False)
    finally:
        c.close()
    return got


@pytest.mark.parametrize("listener,mechanism,mtls", MODES, ids=MODE_IDS)
def test_confluent_kafka(broker: EmbeddedBroker, listener: str, mechanism: str | None, mtls: bool) -> None:
    s = broker.secure
    assert s is not None
    conf = s.librdkafka(broker.bootstrap(listener), listener, mechanism, user="alice", mtls=mtls)
    assert confluent_roundtrip(conf, _name("cf")) == [f"v{i}".encode() for i in range(N)]


# ---- kafka-python --------------------------------------------------------------------------------


def _kafka_python_token(sub: str) -> Any:
    from kafka.net.sasl.oauth import AbstractTokenProvider

    class Token(AbstractTokenProvider):  # type: ignore[misc]
        def token(self) -> str:
            return unsecured_jws(sub)

    return Token()


def kafka_python_conf(
    s: SecureSetup, bootstrap: str, listener: str, mechanism: str | None, mtls: bool
) -> dict[str, Any]:
    conf: dict[str, Any] = {"bootstrap_servers": bootstrap, "security_protocol": listener}
    if "SSL" in listener:
        conf["ssl_cafile"] = str(s.ca_pem)
    if mtls:
        files = s.clients["alice"]
        conf.update(ssl_certfile=str(files.cert_pem), ssl_keyfile=str(files.key_pem), ssl_password=s.store_password)
    if mechanism == "OAUTHBEARER":
        conf.update(sasl_mechanism=mechanism, sasl_oauth_token_provider=_kafka_python_token("alice"))
    elif mechanism:
        conf.update(sasl_mechanism=mechanism, sasl_plain_username="alice", sasl_plain_password=s.users["alice"])
    return conf


@pytest.mark.parametrize("listener,mechanism,mtls", MODES, ids=MODE_IDS)
def test_kafka_python(broker: EmbeddedBroker, listener: str, mechanism: str | None, mtls: bool) -> None:
    from kafka import KafkaConsumer, KafkaProducer

    s = broker.secure
    assert s is not None
    conf = kafka_python_conf(s, broker.bootstrap(listener), listener, mechanism, mtls)
    topic = _name("kp")
    p = KafkaProducer(**conf)
    try:
        for i in range(N):
            p.send(topic, f"v{i}".encode()).get(15)
    finally:
        p.close()
    c = KafkaConsumer(topic, group_id=_name("g"), auto_offset_reset="earliest", consumer_timeout_ms=15000, **conf)
    try:
        got = []
        for m in c:
            got.append(m.value)
            if len(got) == N:
                break
        c.commit()
    finally:
        c.close()
    assert got == [f"v{i}".encode() for i in range(N)]


# ---- aiokafka ------------------------------------------------------------------------------------


async def _aiokafka_roundtrip(
    s: SecureSetup, bootstrap: str, listener: str, mechanism: str | None, mtls: bool
) -> list[bytes]:
    from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
    from aiokafka.abc import AbstractTokenProvider
    from aiokafka.helpers import create_ssl_context

    class Token(AbstractTokenProvider):
        async def token(self) -> str:
            return unsecured_jws("alice")

    conf: dict[str, Any] = {"bootstrap_servers": bootstrap, "security_protocol": listener}
    if "SSL" in listener:
        files = s.clients["alice"]
        conf["ssl_context"] = (
            create_ssl_context(
                cafile=str(s.ca_pem),
                certfile=str(files.cert_pem),
                keyfile=str(files.key_pem),
                password=s.store_password,
            )
            if mtls
            else create_ssl_context(cafile=str(s.ca_pem))
        )
    if mechanism == "OAUTHBEARER":
        conf.update(sasl_mechanism=mechanism, sasl_oauth_token_provider=Token())
    elif mechanism:
        conf.update(sasl_mechanism=mechanism, sasl_plain_username="alice", sasl_plain_password=s.users["alice"])
    topic = _name("ak")
    producer = AIOKafkaProducer(**conf)
    await producer.start()
    try:
        for i in range(N):
            await producer.send_and_wait(topic, f"v{i}".encode())
    finally:
        await producer.stop()
    consumer = AIOKafkaConsumer(topic, group_id=_name("g"), auto_offset_reset="earliest", **conf)
    await consumer.start()
    got: list[bytes] = []
    try:
        async with asyncio.timeout(20):
            async for m in consumer:
                got.append(m.value)
                if len(got) == N:
                    break
        await consumer.commit()
    finally:
        await consumer.stop()
    return got


@pytest.mark.parametrize("listener,mechanism,mtls", MODES, ids=MODE_IDS)
def test_aiokafka(broker: EmbeddedBroker, listener: str, mechanism: str | None, mtls: bool) -> None:
    s = broker.secure
    assert s is not None
    got = asyncio.run(_aiokafka_roundtrip(s, broker.bootstrap(listener), listener, mechanism, mtls))
    assert got == [f"v{i}".encode() for i in range(N)]


# ---- admin over SASL_SSL -------------------------------------------------------------------------


def test_confluent_admin_scram_users_and_topics(broker: EmbeddedBroker) -> None:
    from confluent_kafka import KafkaException, Producer
    from confluent_kafka.admin import (
        AdminClient,
        NewTopic,
        ScramCredentialInfo,
        ScramMechanism,
        UserScramCredentialDeletion,
        UserScramCredentialUpsertion,
    )

    s = broker.secure
    assert s is not None
    admin = AdminClient(s.librdkafka(broker.bootstrap("SASL_SSL"), "SASL_SSL", "SCRAM-SHA-512", user="admin"))
    topic = _name("admin")
    admin.create_topics([NewTopic(topic, 2, 1)])[topic].result(15)
    assert len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == 2

    # a new SCRAM user, created over the wire, can authenticate; the store reports only iterations
    futures = admin.alter_user_scram_credentials(
        [UserScramCredentialUpsertion("carol", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), b"carol-pw")]
    )
    futures["carol"].result(10)
    described = admin.describe_user_scram_credentials(["carol"])["carol"].result(10)
    infos = described.scram_credential_infos
    assert [(i.mechanism, i.iterations) for i in infos] == [(ScramMechanism.SCRAM_SHA_256, 8192)]
    conf = {
        **s.librdkafka(broker.bootstrap("SASL_SSL"), "SASL_SSL", "SCRAM-SHA-256", user="alice"),
        "sasl.username": "carol",
        "sasl.password": "carol-pw",
    }
    p = Producer(conf)
    p.produce(topic, b"by carol")
    assert p.flush(15) == 0

    # too few iterations is UNACCEPTABLE_CREDENTIAL; deleting a missing credential RESOURCE_NOT_FOUND
    bad = admin.alter_user_scram_credentials(
        [UserScramCredentialUpsertion("dave", ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 1000), b"pw")]
    )
    with pytest.raises(KafkaException, match="UNACCEPTABLE_CREDENTIAL|[Ii]terations"):
        bad["dave"].result(10)
    missing = admin.alter_user_scram_credentials([UserScramCredentialDeletion("dave", ScramMechanism.SCRAM_SHA_512)])
    with pytest.raises(KafkaException, match="RESOURCE_NOT_FOUND|not exist"):
        missing["dave"].result(10)
    admin.alter_user_scram_credentials([UserScramCredentialDeletion("carol", ScramMechanism.SCRAM_SHA_256)])[
        "carol"
    ].result(10)
    errors: list[Any] = []
    p2 = Producer({**conf, "error_cb": errors.append})
    p2.produce(topic, b"carol is gone")
    p2.flush(3)
    assert any("Authentication" in str(e) or "SASL" in str(e) for e in errors), errors


def test_acl_admin_round_trip_without_authorizer_is_security_disabled(broker: EmbeddedBroker) -> None:
    from confluent_kafka import KafkaException
    from confluent_kafka.admin import (
        AclBinding,
        AclOperation,
        AclPermissionType,
        AdminClient,
        ResourcePatternType,
        ResourceType,
    )

    s = broker.secure
    assert s is not None
    admin = AdminClient(s.librdkafka(broker.bootstrap("SASL_SSL"), "SASL_SSL", "PLAIN", user="admin"))
    binding = AclBinding(
        ResourceType.TOPIC,
        "t",
        ResourcePatternType.LITERAL,
        "User:bob",
        "*",
        AclOperation.READ,
        AclPermissionType.ALLOW,
    )
    with pytest.raises(KafkaException, match="SECURITY_DISABLED|[Aa]uthorizer"):
        admin.create_acls([binding])[binding].result(10)


def test_kafka_python_admin_creates_topics_over_mtls(broker: EmbeddedBroker) -> None:
    from kafka.admin import KafkaAdminClient, NewTopic

    s = broker.secure
    assert s is not None
    conf = kafka_python_conf(s, broker.bootstrap("SSL"), "SSL", None, True)
    admin = KafkaAdminClient(**conf)
    try:
        topic = _name("kpadmin")
        admin.create_topics([NewTopic(topic, 3, 1)])
        assert topic in admin.list_topics()
    finally:
        admin.close()


def test_ssl_context_sanity(broker: EmbeddedBroker) -> None:
    """The SSL listener negotiates TLS 1.2+ and presents the broker certificate signed by the CA."""
    import socket

    s = broker.secure
    assert s is not None
    host, port = broker.bootstrap("SSL").rsplit(":", 1)
    ctx = ssl.create_default_context(cafile=str(s.ca_pem))
    with (
        socket.create_connection((host, int(port)), timeout=5) as raw,
        ctx.wrap_socket(raw, server_hostname=host) as tls,
    ):
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
        subject = dict(x[0] for x in tls.getpeercert()["subject"])
        assert subject["commonName"] == "127.0.0.1"


def test_aiokafka_admin_creates_topics_over_sasl_ssl(broker: EmbeddedBroker) -> None:
    from aiokafka.admin import AIOKafkaAdminClient, NewTopic
    from aiokafka.helpers import create_ssl_context

    s = broker.secure
    assert s is not None
    topic = _name("akadmin")

    async def run() -> list[str]:
        admin = AIOKafkaAdminClient(
            bootstrap_servers=broker.bootstrap("SASL_SSL"),
            security_protocol="SASL_SSL",
            ssl_context=create_ssl_context(cafile=str(s.ca_pem)),
            sasl_mechanism="SCRAM-SHA-256",
            sasl_plain_username="admin",
            sasl_plain_password=s.users["admin"],
        )
        await admin.start()
        try:
            await admin.create_topics([NewTopic(topic, 2, 1)])
            return list(await admin.list_topics())
        finally:
            await admin.close()

    assert topic in asyncio.run(run())
