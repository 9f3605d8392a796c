"""The client stack (kafka_wire.client, consumer_group, the librdkafka translation) against a
secured Apache Kafka and our secured EmbeddedBroker (the same tests, parametrized): SASL_SSL with
SCRAM-SHA-512/256, PLAIN and OAUTHBEARER, SSL with a required client certificate (mTLS),
StandardAuthorizer ACLs. One JVM for the module (`secured_apache_kafka`)."""

from __future__ import annotations

import base64
import http.server
import json
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from kafka_wire.client.config import ClientConfig
from kafka_wire.client.connection import BrokerConnection, ConnectionClosedError
from kafka_wire.client.kafka_client import ClientAuthenticationError, KafkaClient, KafkaClientError
from kafka_wire.client.librdkafka import OAUTH_CALLBACK_HANDLER, to_librdkafka
from kafka_wire.client.sasl import unsecured_token
from kafka_wire.client.security import SecurityConfig
from kafka_wire.errors import ErrorCode
from kafka_wire.types import TopicPartition
from tests.peers.fixtures import (  # noqa: F401 - the fixture
    REAUTH_MS,
    STORE_PASSWORD,
    USERS,
    SecuredKafka,
    secured_apache_kafka,
    secured_our_broker,
)

pytestmark = pytest.mark.timeout(120)


def client(params: dict[str, str], **over: Any) -> KafkaClient:
    config = ClientConfig.from_kafka_params(params, "secured-test", prefix="")
    if over:
        import dataclasses

        config = dataclasses.replace(config, **over)
    return KafkaClient(config)


def produce(params: dict[str, str], topic: str, n: int) -> None:
    """n records with confluent-kafka (librdkafka) through the one Java -> librdkafka translation."""
    from confluent_kafka import Producer

    conf, _ = to_librdkafka(params, prefix="")
    p = Producer({**conf, "linger.ms": 1})
    for i in range(n):
        p.produce(topic, f"v{i}".encode(), f"k{i}".encode())
    assert p.flush(30) == 0


@pytest.fixture(scope="module", params=["apache", "ours"])
def kafka(request: pytest.FixtureRequest) -> SecuredKafka:
    """The same client tests against Apache Kafka and against our broker, secured alike."""
    name = "secured_apache_kafka" if request.param == "apache" else "secured_our_broker"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


def new_topic(kafka: SecuredKafka, partitions: int = 2) -> str:
    from confluent_kafka.admin import AdminClient, NewTopic

    name = f"sec-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": kafka.plaintext})  # ANONYMOUS: a super user
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)
    return name


# ---- each mechanism and store type: produce with librdkafka, read back with our client ---------


@pytest.mark.parametrize(
    ("mechanism", "truststore"),
    [("SCRAM-SHA-512", "JKS"), ("SCRAM-SHA-256", "PEM"), ("PLAIN", "PKCS12")],
)
def test_sasl_ssl_round_trip(kafka: SecuredKafka, mechanism: str, truststore: str) -> None:
    topic = new_topic(kafka)
    params = kafka.scram_params(mechanism=mechanism, truststore_type=truststore)
    produce(params, topic, 20)
    c = client(params)
    try:
        md = c.metadata([topic])
        assert sorted(md.topics[topic].partitions) == [0, 1]
        latest = c.list_offsets({TopicPartition(topic, p): -1 for p in (0, 1)})
        assert sum(off for off, _ in latest.values()) == 20
        fetched = [c.fetch(TopicPartition(topic, p), 0) for p in (0, 1)]
        assert all(f.error == ErrorCode.NONE and f.records for f in fetched if f.high_watermark > 0)
        assert sum(f.high_watermark for f in fetched) == 20
        c.commit_offsets("sec-group", {TopicPartition(topic, 0): 1})
        assert c.fetch_offsets("sec-group")[TopicPartition(topic, 0)][0] == 1
        conn = next(iter(c._conns.values()))
        assert conn.sock.version() in ("TLSv1.2", "TLSv1.3")
    finally:
        c.close()


def test_oauthbearer_unsecured_token(kafka: SecuredKafka) -> None:
    topic = new_topic(kafka)
    params = kafka.oauth_params("admin")
    produce(params, topic, 5)  # librdkafka: enable.sasl.oauthbearer.unsecure.jwt
    c = client(params)
    try:
        assert sum(off for off, _ in c.list_offsets({TopicPartition(topic, p): -1 for p in (0, 1)}).values()) == 5
    finally:
        c.close()


def test_unsecured_token_is_valid_the_moment_it_is_made(kafka: SecuredKafka) -> None:
    """A fresh token per connection: with a fractional `iat`, Kafka's validator saw it in its future
    one time in three (measured: 111 of 300 connections refused); 40 connections in a row all pass."""
    security = ClientConfig.from_kafka_params(kafka.oauth_params(), "t", prefix="").security
    host, port = kafka.sasl_ssl().rsplit(":", 1)
    for _ in range(40):
        BrokerConnection(host, int(port), security=security, timeout=10).close()


class _TokenEndpoint(http.server.BaseHTTPRequestHandler):
    """An OAuth token endpoint (client-credentials grant) issuing Kafka's unsecured tokens."""

    calls: list[str] = []

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        expected = "Basic " + base64.b64encode(b"pykafka-app:app-secret").decode()
        type(self).calls.append(body)
        if self.headers.get("Authorization") != expected or "grant_type=client_credentials" not in body:
            self.send_response(401)
            self.end_headers()
            return
        data = json.dumps({"access_token": unsecured_token("admin"), "token_type": "bearer", "expires_in": 600})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(data.encode())

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def token_endpoint() -> Iterator[str]:
    server = http.server.HTTPServer(("127.0.0.1", 0), _TokenEndpoint)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/token"
    finally:
        server.shutdown()
        server.server_close()


def test_oauthbearer_token_endpoint(kafka: SecuredKafka, token_endpoint: str) -> None:
    def params(secret: str) -> dict[str, str]:
        return {
            **kafka.oauth_params(),
            "sasl.oauthbearer.token.endpoint.url": token_endpoint,
            "sasl.login.callback.handler.class": OAUTH_CALLBACK_HANDLER,
            "sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
            f'clientId="pykafka-app" clientSecret="{secret}" scope="kafka";',
        }

    c = client(params("app-secret"))
    try:
        assert c.metadata().brokers
    finally:
        c.close()
    assert any("scope=kafka" in call for call in _TokenEndpoint.calls)
    bad = client(params("wrong-app-secret"))
    with pytest.raises(ClientAuthenticationError) as e:
        bad.metadata()
    assert (
        "token.endpoint.url" in str(e.value)
        and "Unauthorized" in str(e.value)
        and "wrong-app-secret" not in str(e.value)
    )


@pytest.mark.parametrize(("keystore", "truststore"), [("PKCS12", "PKCS12"), ("JKS", "JKS"), ("PEM", "PEM")])
def test_mtls_round_trip(kafka: SecuredKafka, keystore: str, truststore: str) -> None:
    topic = new_topic(kafka)
    params = kafka.mtls_params(keystore, truststore)
    produce(params, topic, 10)  # JKS key/trust stores reach librdkafka as in-memory PEM
    c = client(params)
    try:
        assert sum(off for off, _ in c.list_offsets({TopicPartition(topic, p): -1 for p in (0, 1)}).values()) == 10
    finally:
        c.close()


def test_mtls_pem_strings(kafka: SecuredKafka) -> None:
    """ssl.truststore.certificates / ssl.keystore.certificate.chain / ssl.keystore.key (KIP-651)."""
    params = {
        "bootstrap.servers": kafka.ssl(),
        "security.protocol": "SSL",
        "ssl.truststore.type": "PEM",
        "ssl.truststore.certificates": kafka.client.ca_pem.read_text(),
        "ssl.keystore.type": "PEM",
        "ssl.keystore.certificate.chain": kafka.client.cert_pem.read_text(),
        "ssl.keystore.key": kafka.client.key_pem.read_text(),
        "ssl.key.password": STORE_PASSWORD,
    }
    c = client(params)
    try:
        assert c.metadata().brokers
    finally:
        c.close()
    topic = new_topic(kafka)
    produce(params, topic, 3)


# ---- KIP-368 re-authentication ------------------------------------------------------------------


def test_reauthentication_before_the_session_expires(kafka: SecuredKafka) -> None:
    """The broker grants SCRAM-SHA-512 sessions of REAUTH_MS; a connection that re-authenticates
    keeps working past it on the same socket, one that does not is closed by the broker."""
    security = ClientConfig.from_kafka_params(kafka.scram_params(), "t", prefix="").security
    host, port = kafka.sasl_ssl().rsplit(":", 1)
    good = BrokerConnection(host, int(port), security=security, timeout=10)
    stale = BrokerConnection(host, int(port), security=security, timeout=10)
    try:
        assert good.reauthenticate_at is not None
        lifetime_left = good.reauthenticate_at - time.monotonic()
        assert 0.8 * REAUTH_MS / 1000 <= lifetime_left <= 0.96 * REAUTH_MS / 1000
        stale.reauthenticate_at = None  # as a client without KIP-368
        sock = good.sock
        time.sleep(REAUTH_MS / 1000 + 0.5)
        from kafka_wire.protocol.messages import metadata_request

        md = good.request(3, metadata_request.MetadataRequest(topics=[], allow_auto_topic_creation=False), 9)
        assert md.brokers and good.sock is sock  # re-authenticated in place
        assert good.reauthenticate_at is not None and good.reauthenticate_at > time.monotonic()
        with pytest.raises((ConnectionClosedError, OSError)):
            stale.request(3, metadata_request.MetadataRequest(topics=[], allow_auto_topic_creation=False), 9)
    finally:
        good.close()
        stale.close()


# ---- failures: fast, named, never retried, no secret shown ----------------------------------------


def test_wrong_password_fails_fast_without_retrying(kafka: SecuredKafka) -> None:
    params = kafka.scram_params(password="not-the-password")
    c = client(params)  # default.api.timeout.ms 60 s: an authentication failure must not use it
    t0 = time.monotonic()
    with pytest.raises(KafkaClientError) as e:
        c.list_offsets({TopicPartition("anything", 0): -1})
    assert time.monotonic() - t0 < 5
    assert e.value.code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert "SASL_AUTHENTICATION_FAILED" in str(e.value)
    assert "not-the-password" not in str(e.value) and "not-the-password" not in repr(c.config)
    c.close()


def test_sasl_against_a_plaintext_listener(kafka: SecuredKafka) -> None:
    """SASL_PLAINTEXT against a listener without SASL: the broker refuses SaslHandshake; the call
    fails at once naming the mechanism, not after default.api.timeout.ms."""
    params = {**kafka.scram_params(), "bootstrap.servers": kafka.plaintext, "security.protocol": "SASL_PLAINTEXT"}
    c = client(params, default_api_timeout_ms=20_000)
    t0 = time.monotonic()
    with pytest.raises(KafkaClientError) as e:
        c.metadata()
    assert time.monotonic() - t0 < 10
    assert "SCRAM-SHA-512" in str(e.value) and "ILLEGAL_SASL_STATE" in str(e.value)
    c.close()


def test_untrusted_broker_certificate(kafka: SecuredKafka) -> None:
    params = {**kafka.scram_params(), "ssl.truststore.location": str(kafka.untrusted.truststore("JKS"))}
    c = client(params)
    t0 = time.monotonic()
    with pytest.raises(ClientAuthenticationError, match="certificate verify failed"):
        c.metadata()
    assert time.monotonic() - t0 < 5
    c.close()


def test_tls_against_a_plaintext_listener_says_so(kafka: SecuredKafka) -> None:
    """The broker drops a ClientHello it reads as an oversized request: a disconnect during the
    handshake, retried like Java's clients do, and named as such when the time is up."""
    params = {**kafka.scram_params(), "bootstrap.servers": kafka.plaintext}
    c = client(params, default_api_timeout_ms=1_500)
    with pytest.raises(KafkaClientError, match="closed during TLS"):
        c.metadata()
    c.close()


def test_host_name_mismatch_and_opt_out(kafka: SecuredKafka) -> None:
    """The broker's certificate names 127.0.0.1 only: dialling localhost fails the https check
    (ssl.endpoint.identification.algorithm's default) and passes with it set to ''."""
    params = {**kafka.scram_params(), "bootstrap.servers": kafka.sasl_ssl("localhost")}
    c = client(params)
    with pytest.raises(ClientAuthenticationError, match="(?i)hostname|host name|IP address mismatch|doesn't match"):
        c.metadata()
    c.close()
    c = client({**params, "ssl.endpoint.identification.algorithm": ""})
    try:
        assert c.metadata().brokers
    finally:
        c.close()


def test_mtls_without_client_certificate_is_refused(kafka: SecuredKafka, request: pytest.FixtureRequest) -> None:
    """Both brokers fail the handshake with a TLS alert (certificate required): the client fails at
    once, where a bare disconnect would be retried until default.api.timeout.ms."""
    params = {"bootstrap.servers": kafka.ssl(), "security.protocol": "SSL", **kafka.trust("PEM")}
    c = client(params, default_api_timeout_ms=20_000)
    t0 = time.monotonic()
    with pytest.raises(KafkaClientError) as e:
        c.metadata()
    assert time.monotonic() - t0 < 10, "a refused handshake is not retried until default.api.timeout.ms"
    assert "SSL" in str(e.value)
    c.close()


def test_missing_acls_name_the_topic_and_the_group(kafka: SecuredKafka) -> None:
    from confluent_kafka.admin import (
        AclBinding,
        AclOperation,
        AclPermissionType,
        AdminClient,
        ResourcePatternType,
        ResourceType,
    )

    topic = new_topic(kafka)
    bob = client(kafka.scram_params("bob"))
    t0 = time.monotonic()
    with pytest.raises(KafkaClientError) as e:
        bob.list_offsets({TopicPartition(topic, 0): -1})
    assert e.value.code == ErrorCode.TOPIC_AUTHORIZATION_FAILED and topic in str(e.value)
    assert time.monotonic() - t0 < 5
    admin = AdminClient({"bootstrap.servers": kafka.plaintext})
    binding = AclBinding(
        ResourceType.TOPIC, topic, ResourcePatternType.LITERAL, "User:bob", "*", AclOperation.ALL,
        AclPermissionType.ALLOW,
    )  # fmt: skip
    for fut in admin.create_acls([binding]).values():
        fut.result(30)
    deadline = time.monotonic() + 15
    while True:  # ACLs reach the authorizer through the metadata log
        try:
            bob.list_offsets({TopicPartition(topic, 0): -1})
            break
        except KafkaClientError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    with pytest.raises(KafkaClientError) as e:
        bob.commit_offsets("bobs-group", {TopicPartition(topic, 0): 0})
    assert e.value.code == ErrorCode.GROUP_AUTHORIZATION_FAILED and "bobs-group" in str(e.value)
    bob.close()


# ---- consumer_group membership over SASL_SSL -------------------------------------------------------


def test_group_member_over_sasl_ssl(kafka: SecuredKafka) -> None:
    from consumer_group import GroupMember

    topic = new_topic(kafka)
    security = ClientConfig.from_kafka_params(kafka.scram_params(), "t", prefix="").security
    member = GroupMember(kafka.sasl_ssl(), f"g-{topic}", [topic], security=security, session_timeout_ms=10_000,
                         heartbeat_interval_ms=1_000).start()  # fmt: skip
    try:
        assert member.wait_for_assignment(30) == {(topic, 0), (topic, 1)}
    finally:
        member.close()
    bad = SecurityConfig.from_params(kafka.scram_params(password="nope"), prefix="")
    member = GroupMember(kafka.sasl_ssl(), f"g2-{topic}", [topic], security=bad).start()
    try:
        with pytest.raises(Exception, match="SASL_AUTHENTICATION_FAILED"):
            member.wait_for_assignment(15)
    finally:
        member.close(timeout=5)


def test_secrets_never_in_reprs(kafka: SecuredKafka) -> None:
    for params in (kafka.scram_params(), kafka.mtls_params("JKS", "JKS")):
        config = ClientConfig.from_kafka_params(params, "t", prefix="")
        text = repr(config) + str(config.security)
        for secret in (*USERS.values(), STORE_PASSWORD):
            assert secret not in text


# ---- the pykafka CLI with --command-config ----------------------------------------------------------


def test_cli_with_command_config(kafka: SecuredKafka, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """`pykafka --command-config FILE` (Kafka tools' flag): the admin, producer, consumer (librdkafka
    through the translation) and the client stack (groups describe) all connect with it."""
    from pykafka_cli.kafka import CLIENT_PROPERTIES
    from pykafka_cli.main import main

    topic = new_topic(kafka)
    params = kafka.scram_params(truststore_type="JKS")
    bootstrap = params.pop("bootstrap.servers")
    props = tmp_path / "client.properties"
    props.write_text("# SCRAM over TLS\n" + "".join(f"{k}={v}\n" for k, v in params.items()))
    data = tmp_path / "records.txt"
    data.write_text("a\nb\nc\n")

    def run(*argv: str, config: Any = props) -> tuple[int, str, str]:
        capsys.readouterr()
        rc = main(["-b", bootstrap, "--command-config", str(config), *argv])
        out, err = capsys.readouterr()
        return rc, out, err

    try:
        assert run("produce", topic, str(data))[0] == 0
        rc, out, err = run("consume", topic, "-e", "-G", f"cli-{topic}", "--json")
        assert rc == 0, err
        assert sorted(json.loads(line)["value"] for line in out.splitlines() if line) == ["a", "b", "c"]
        rc, out, err = run("groups", "describe", f"cli-{topic}", "--json")
        assert rc == 0 and topic in out, err
        bad = tmp_path / "bad.properties"
        bad.write_text(props.read_text().replace(USERS["alice"], "not-alice-pw"))
        rc, _, err = run("groups", "describe", f"cli-{topic}", config=bad)
        assert rc == 1 and "SASL_AUTHENTICATION_FAILED" in err and "not-alice-pw" not in err
    finally:
        CLIENT_PROPERTIES.clear()
