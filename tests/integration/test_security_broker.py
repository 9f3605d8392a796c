"""Issue 13, broker side, at the protocol level: SASL states and errors, KIP-368 session expiry and
re-authentication, SaslHandshake v0 raw tokens, TLS refusals (untrusted client certificate,
host name mismatch) and the mTLS principal (ssl.principal.mapping.rules).

One broker for the module, one listener per behaviour.
"""

from __future__ import annotations

import socket
import ssl
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import scramp

from broker_embedded import EmbeddedBroker
from broker_embedded.security import certs
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol import decode_response, encode_request
from kafka_wire.protocol.messages import (
    api_versions_request,
    metadata_request,
    sasl_authenticate_request,
    sasl_handshake_request,
)
from tests.integration.wire_util import wait_closed

PW = "store-pw-1"
REAUTH_MS = 2000  # long enough that the windows below keep ~1 s of slack on a loaded machine
JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret" user_bob="bob-pw";'


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    d = tmp_path_factory.mktemp("pki")
    ca = certs.make_ca()
    other_ca = certs.make_ca("CN=another CA")
    return {
        "ca": ca,
        "server": certs.write_stores(d / "server", "server", certs.make_server_cert(ca), ca, PW),
        "badhost": certs.write_stores(d / "badhost", "bad", certs.make_server_cert(ca, ("otherhost",)), ca, PW),
        "alice": certs.write_stores(d / "alice", "alice", certs.make_client_cert(ca, "CN=alice,OU=eng,O=acme"), ca, PW),
        "stranger": certs.write_stores(
            d / "stranger", "stranger", certs.make_client_cert(other_ca, "CN=stranger"), other_ca, PW
        ),
    }


@pytest.fixture(scope="module")
def broker(pki: dict[str, Any]) -> Iterator[EmbeddedBroker]:
    server, bad = pki["server"], pki["badhost"]
    configs = {
        "listeners": "SASL_PLAINTEXT://127.0.0.1:0,REAUTH://127.0.0.1:0,MTLS://127.0.0.1:0,BADHOST://127.0.0.1:0",
        "listener.security.protocol.map": "SASL_PLAINTEXT:SASL_PLAINTEXT,REAUTH:SASL_PLAINTEXT,MTLS:SSL,BADHOST:SSL",
        "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256",
        "sasl.jaas.config": JAAS,
        "listener.name.reauth.connections.max.reauth.ms": REAUTH_MS,
        # PEM keystore (key encrypted with ssl.key.password) and PKCS12 truststore on MTLS
        "listener.name.mtls.ssl.keystore.type": "PEM",
        "listener.name.mtls.ssl.keystore.location": str(server.keystore_pem),
        "listener.name.mtls.ssl.key.password": PW,
        "listener.name.mtls.ssl.truststore.type": "PKCS12",
        "listener.name.mtls.ssl.truststore.location": str(server.truststore_p12),
        "listener.name.mtls.ssl.truststore.password": PW,
        "listener.name.mtls.ssl.client.auth": "required",
        "listener.name.mtls.ssl.principal.mapping.rules": "RULE:^CN=(.*?),OU=(.*?),.*$/$1@$2/L,DEFAULT",
        "listener.name.badhost.ssl.keystore.type": "PKCS12",
        "listener.name.badhost.ssl.keystore.location": str(bad.keystore_p12),
        "listener.name.badhost.ssl.keystore.password": PW,
    }
    with EmbeddedBroker(**configs) as b:
        b.security.add_scram_user("carol", "carol-pw", ("SCRAM-SHA-256",))
        yield b


class Wire:
    """A blocking Kafka connection speaking raw requests (and raw SASL tokens)."""

    def __init__(self, bootstrap: str, tls: ssl.SSLContext | None = None, server_hostname: str | None = None) -> None:
        host, port = bootstrap.rsplit(":", 1)
        raw = socket.create_connection((host, int(port)), timeout=5)
        self.sock: socket.socket = tls.wrap_socket(raw, server_hostname=server_hostname or host) if tls else raw
        self.cid = 0

    def _read_frame(self) -> bytes:
        size = struct.unpack(">i", self._read(4))[0]
        return self._read(size)

    def _read(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("closed by the broker")
            buf += chunk
        return buf

    def request(self, api_key: int, version: int, body: Any) -> Any:
        self.cid += 1
        self.sock.sendall(encode_request(api_key, version, self.cid, "t", body))
        cid, resp = decode_response(api_key, version, self._read_frame())
        assert cid == self.cid
        return resp

    def send_only(self, api_key: int, version: int, body: Any) -> None:
        self.cid += 1
        self.sock.sendall(encode_request(api_key, version, self.cid, "t", body))

    def raw_token(self, token: bytes) -> bytes:
        self.sock.sendall(struct.pack(">i", len(token)) + token)
        return self._read_frame()

    def handshake(self, mechanism: str, version: int = 1) -> Any:
        return self.request(17, version, sasl_handshake_request.SaslHandshakeRequest(mechanism=mechanism))

    def authenticate(self, token: bytes, version: int = 2) -> Any:
        return self.request(36, version, sasl_authenticate_request.SaslAuthenticateRequest(auth_bytes=token))

    def metadata(self) -> Any:
        return self.request(3, 12, metadata_request.MetadataRequest(topics=[]))

    def plain(self, user: str, password: str) -> Any:
        assert self.handshake("PLAIN").error_code == ErrorCode.NONE
        return self.authenticate(f"\x00{user}\x00{password}".encode())

    def close(self) -> None:
        self.sock.close()


# ---- SASL ----------------------------------------------------------------------------------------


def test_bad_password_is_sasl_authentication_failed_then_closed(broker: EmbeddedBroker) -> None:
    w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
    resp = w.plain("alice", "wrong")
    assert resp.error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert "alice-secret" not in (resp.error_message or "") and "wrong" not in (resp.error_message or "")
    wait_closed(w.sock)


def test_scram_bad_password_and_good_one(broker: EmbeddedBroker) -> None:
    for password, expected in (("nope", ErrorCode.SASL_AUTHENTICATION_FAILED), ("carol-pw", ErrorCode.NONE)):
        w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
        assert w.handshake("SCRAM-SHA-256").error_code == ErrorCode.NONE
        client = scramp.ScramClient(["SCRAM-SHA-256"], "carol", password)
        first = w.authenticate(client.get_client_first().encode())
        assert first.error_code == ErrorCode.NONE
        client.set_server_first(bytes(first.auth_bytes).decode())
        final = w.authenticate(client.get_client_final().encode())
        assert final.error_code == expected
        if expected == ErrorCode.NONE:
            client.set_server_final(bytes(final.auth_bytes).decode())  # the broker proves the credential
            assert w.metadata().brokers
        w.close()


def test_only_auth_apis_before_authentication(broker: EmbeddedBroker) -> None:
    w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
    versions = w.request(
        18, 3, api_versions_request.ApiVersionsRequest(client_software_name="t", client_software_version="1")
    )
    assert {17, 36} <= {k.api_key for k in versions.api_keys}
    # SaslAuthenticate before a handshake: ILLEGAL_SASL_STATE
    assert w.authenticate(b"\x00alice\x00alice-secret").error_code == ErrorCode.ILLEGAL_SASL_STATE
    w.close()
    w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
    unsupported = w.handshake("GSSAPI")
    assert unsupported.error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM
    assert set(unsupported.mechanisms) == {"PLAIN", "SCRAM-SHA-256"}
    # any other API before authentication closes the connection (Kafka's IllegalSaslStateException)
    w.send_only(3, 12, metadata_request.MetadataRequest(topics=[]))
    assert wait_closed(w.sock) == b""


def test_v0_handshake_then_raw_tokens(broker: EmbeddedBroker) -> None:
    w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
    assert w.handshake("PLAIN", version=0).error_code == ErrorCode.NONE
    assert w.raw_token(b"\x00bob\x00bob-pw") == b""  # PLAIN's empty server token, length-framed
    assert w.metadata().brokers
    w.close()
    w = Wire(broker.bootstrap("SASL_PLAINTEXT"))
    w.handshake("PLAIN", version=0)
    token = b"\x00bob\x00wrong"
    w.sock.sendall(struct.pack(">i", len(token)) + token)
    assert wait_closed(w.sock) == b""  # v0 has no error response: the broker closes


def test_session_lifetime_and_expiry_kip_368(broker: EmbeddedBroker) -> None:
    w = Wire(broker.bootstrap("REAUTH"))
    resp = w.plain("alice", "alice-secret")
    assert resp.error_code == ErrorCode.NONE and resp.session_lifetime_ms == REAUTH_MS
    assert w.metadata().brokers
    time.sleep(REAUTH_MS / 1000 + 0.2)
    # past its lifetime without re-authenticating: the next request closes the connection
    w.send_only(3, 12, metadata_request.MetadataRequest(topics=[]))
    assert wait_closed(w.sock) == b""


def test_reauthentication_extends_the_session(broker: EmbeddedBroker) -> None:
    w = Wire(broker.bootstrap("REAUTH"))
    assert w.plain("alice", "alice-secret").error_code == ErrorCode.NONE
    first_ends_by = time.monotonic() + REAUTH_MS / 1000  # the broker started the session before this
    time.sleep(REAUTH_MS / 2000)
    reauth_sent = time.monotonic()
    again = w.plain("alice", "alice-secret")  # KIP-368: handshake v1 + authenticate on the same connection
    assert again.error_code == ErrorCode.NONE and again.session_lifetime_ms == REAUTH_MS
    # past the first session's end (deadlines, not summed sleeps), inside the second's
    time.sleep(max(0.0, first_ends_by + 0.15 - time.monotonic()))
    assert time.monotonic() < reauth_sent + REAUTH_MS / 1000, "the machine stalled past the second session"
    assert w.metadata().brokers
    # another principal may not take the connection over
    assert w.plain("bob", "bob-pw").error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    wait_closed(w.sock)


def test_librdkafka_reauthenticates_and_keeps_producing(broker: EmbeddedBroker) -> None:
    from confluent_kafka import Producer

    errors: list[Any] = []
    p = Producer(
        {
            "bootstrap.servers": broker.bootstrap("REAUTH"),
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.username": "alice",
            "sasl.password": "alice-secret",
            "error_cb": errors.append,
        }
    )
    p.produce("reauth-topic", b"x")
    assert p.flush(5) == 0
    first = _connection_ids(broker, "REAUTH")
    deadline = time.monotonic() + 3 * REAUTH_MS / 1000
    sent = 0
    while time.monotonic() < deadline:
        p.produce("reauth-topic", b"x")
        sent += 1
        assert p.flush(5) == 0
        time.sleep(0.1)
    assert sent > 10 and not errors, errors
    # the same connections, re-authenticated in place (not closed at expiry and reopened)
    assert _connection_ids(broker, "REAUTH") <= first


def _connection_ids(broker: EmbeddedBroker, listener: str) -> set[int]:
    def read(_b: Any) -> set[int]:
        server = broker._runner.server  # type: ignore[union-attr]
        return {c.connection_id for c in server.connections if c.session.listener_name == listener}

    return broker.call(read)  # type: ignore[no-any-return]


# ---- TLS -----------------------------------------------------------------------------------------


def _client_ctx(pki: dict[str, Any], who: str | None) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cafile=str(pki["server"].ca_pem))
    if who is not None:
        files = pki[who]
        ctx.load_cert_chain(files.cert_pem, files.key_pem, password=PW)
    return ctx


def _principals(broker: EmbeddedBroker, listener: str) -> set[str]:
    def read(_b: Any) -> set[str]:
        server = broker._runner.server  # type: ignore[union-attr]
        return {c.session.principal for c in server.connections if c.session.listener_name == listener}

    return broker.call(read)  # type: ignore[no-any-return]


def test_mtls_principal_from_mapping_rules(broker: EmbeddedBroker, pki: dict[str, Any]) -> None:
    w = Wire(broker.bootstrap("MTLS"), _client_ctx(pki, "alice"))
    assert w.metadata().brokers
    assert _principals(broker, "MTLS") == {"User:alice@eng"}
    w.close()


@pytest.mark.parametrize(
    ("who", "alert"),
    [("stranger", "ALERT_UNKNOWN_CA"), (None, "ALERT_CERTIFICATE_REQUIRED")],
    ids=["untrusted-certificate", "no-certificate"],
)
def test_mtls_refuses_untrusted_or_missing_client_certificates(
    broker: EmbeddedBroker, pki: dict[str, Any], who: str | None, alert: str
) -> None:
    """The refusal is a TLS alert naming the reason, as from Kafka's broker, not a bare disconnect
    (which clients retry until their timeout)."""
    with pytest.raises(ssl.SSLError, match=alert):
        w = Wire(broker.bootstrap("MTLS"), _client_ctx(pki, who))
        w.metadata()  # TLS 1.3 reports the refused certificate on the first read
    _wait_no_handshakes(broker)


def _wait_no_handshakes(broker: EmbeddedBroker) -> None:
    """The broker forgets a refused or timed-out handshake once its socket is closed (a moment after
    the client saw the alert or the close)."""
    server = broker._runner.server  # type: ignore[union-attr]
    deadline = time.monotonic() + 5
    while server.handshakes and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not server.handshakes


def test_tls_close_notify_is_answered(broker: EmbeddedBroker, pki: dict[str, Any]) -> None:
    """A client that ends TLS with close_notify gets the broker's at once: asyncio's TLS clients
    (aiokafka) wait for it up to 30 s before they call the connection closed."""
    w = Wire(broker.bootstrap("MTLS"), _client_ctx(pki, "alice"))
    assert w.metadata().brokers
    assert isinstance(w.sock, ssl.SSLSocket)
    w.sock.settimeout(5)
    t0 = time.monotonic()
    w.sock.unwrap().close()  # sends close_notify, returns once the broker's arrives
    assert time.monotonic() - t0 < 2


def test_tls_large_and_many_records_round_trip(broker: EmbeddedBroker, pki: dict[str, Any]) -> None:
    """Frames larger than a TLS record (and than the broker's direct-receive threshold) and many small
    ones, both ways through the broker's TLS layer, with an mTLS principal."""
    from confluent_kafka import Consumer, Producer

    files = pki["alice"]
    common = {
        "bootstrap.servers": broker.bootstrap("MTLS"),
        "security.protocol": "SSL",
        "ssl.ca.location": str(pki["server"].ca_pem),
        "ssl.certificate.location": str(files.cert_pem),
        "ssl.key.location": str(files.key_pem),
        "ssl.key.password": PW,
    }
    topic = "tls-round-trip"
    big = [bytes([i]) * (900 * 1024 + i) for i in range(3)]  # under max.message.bytes (1 MiB)
    small = [b"small-%d" % i for i in range(2000)]
    p = Producer({**common, "linger.ms": 5})
    failed: list[Any] = []
    for v in big + small:
        p.produce(topic, v, partition=0, on_delivery=lambda err, _m: failed.append(err) if err else None)
    assert p.flush(30) == 0
    assert not failed
    c = Consumer({**common, "group.id": "tls-rt", "auto.offset.reset": "earliest", "fetch.max.bytes": 64 << 20})
    c.subscribe([topic])
    got: list[bytes] = []
    deadline = time.monotonic() + 30
    while len(got) < len(big) + len(small) and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            got.append(m.value())
    c.close()
    assert got == big + small


def test_tls_client_that_never_handshakes_is_dropped(broker: EmbeddedBroker, monkeypatch: pytest.MonkeyPatch) -> None:
    from broker_embedded.network import tls

    monkeypatch.setattr(tls, "HANDSHAKE_TIMEOUT_S", 0.5)
    host, port = broker.bootstrap("MTLS").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=5) as s:
        t0 = time.monotonic()
        assert s.recv(1) == b""  # closed by the broker
        assert 0.4 < time.monotonic() - t0 < 4
    _wait_no_handshakes(broker)


def test_host_name_mismatch_is_refused_by_clients(broker: EmbeddedBroker, pki: dict[str, Any], tmp_path: Path) -> None:
    from confluent_kafka import Producer

    # Python's ssl: the certificate names only "otherhost"
    with pytest.raises(ssl.SSLCertVerificationError, match="match|mismatch"):
        Wire(broker.bootstrap("BADHOST"), _client_ctx(pki, None))
    # librdkafka verifies the host name by default (ssl.endpoint.identification.algorithm=https)
    errors: list[Any] = []
    p = Producer(
        {
            "bootstrap.servers": broker.bootstrap("BADHOST"),
            "security.protocol": "SSL",
            "ssl.ca.location": str(pki["server"].ca_pem),
            "error_cb": errors.append,
            "message.timeout.ms": 1500,
        }
    )
    reports: list[Any] = []
    p.produce("t", b"x", on_delivery=lambda err, _m: reports.append(err))
    p.flush(5)
    assert len(reports) == 1 and reports[0] is not None  # never delivered
    assert any("certificate" in str(e).lower() or "ssl" in str(e).lower() for e in errors), errors
    # the same listener is fine for a client that does not check host names (one-way TLS only)
    p2 = Producer(
        {
            "bootstrap.servers": broker.bootstrap("BADHOST"),
            "security.protocol": "SSL",
            "ssl.ca.location": str(pki["server"].ca_pem),
            "ssl.endpoint.identification.algorithm": "none",
        }
    )
    p2.produce("badhost-topic", b"x")
    assert p2.flush(10) == 0


def test_listener_config_errors() -> None:
    from broker_embedded.config import ConfigError

    with pytest.raises(ConfigError, match="listener.security.protocol.map"):
        EmbeddedBroker(listeners="FOO://127.0.0.1:0").start()
    with pytest.raises(ConfigError, match="ssl.keystore.location"):
        EmbeddedBroker(listeners="SSL://127.0.0.1:0").start()
    with pytest.raises(ConfigError, match="sasl.enabled.mechanisms"):
        EmbeddedBroker(listeners="SASL_PLAINTEXT://127.0.0.1:0", sasl_enabled_mechanisms="GSSAPI").start()


def test_cli_secure_and_add_scram(tmp_path: Path) -> None:
    import json

    from confluent_kafka import Producer

    from tests.integration.wire_util import BrokerProcess

    secure_dir = tmp_path / "secure"
    proc = BrokerProcess("--secure", str(secure_dir), "--add-scram", "SCRAM-SHA-256=[name=zed,password=zed-pw]")
    proc.start()
    try:
        assert len(proc.stdout_lines) == 1  # the settings are in files, never on stdout
        info = json.loads((secure_dir / "secure.json").read_text())
        assert (secure_dir / "secure.json").stat().st_mode & 0o077 == 0
        assert info["users"]["alice"] not in proc.read_stderr()
        props = (secure_dir / "alice-SCRAM-SHA-512.properties").read_text()
        assert "sasl.jaas.config=" in props and "ssl.truststore.location=" in props
        for user, password, mechanism in (
            ("zed", "zed-pw", "SCRAM-SHA-256"),
            ("alice", info["users"]["alice"], "PLAIN"),
        ):
            reports: list[Any] = []
            p = Producer(
                {
                    "bootstrap.servers": proc.bootstrap,
                    "security.protocol": "SASL_SSL",
                    "ssl.ca.location": info["ca_pem"],
                    "sasl.mechanism": mechanism,
                    "sasl.username": user,
                    "sasl.password": password,
                }
            )
            p.produce("cli-topic", b"x", on_delivery=lambda err, _m, r=reports: r.append(err))
            p.flush(15)
            assert reports == [None], (user, reports)
    finally:
        proc.terminate()
