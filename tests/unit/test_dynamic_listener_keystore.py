"""Dynamic listener keystores (issue 30, KIP-226) without a network: the stored layer reloads the
live server context (a new handshake presents the new certificate, one begun before keeps the old),
a changed subject or a cluster-default keystore is refused, and the stored layer is read back after a
restart. The wire behaviour against Apache Kafka is tests/peers/test_dynamic_listener_keystore.py."""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.dynamic_config import DynamicBrokerConfig, listener_keystores
from broker_embedded.security import certs
from broker_embedded.security.manager import SecurityManager
from kafka_wire.errors import KafkaError

PASSWORD = "pw-1"
PREFIX = "listener.name.ssl."


def _client_context() -> ssl.SSLContext:
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client.check_hostname = False
    client.verify_mode = ssl.CERT_NONE
    return client


def _memory_handshake(client: ssl.SSLContext, server: ssl.SSLContext) -> ssl.SSLObject | None:
    """The client side of a completed handshake between the two contexts over memory BIOs; None if
    either side refused it."""
    c_in, c_out, s_in, s_out = ssl.MemoryBIO(), ssl.MemoryBIO(), ssl.MemoryBIO(), ssl.MemoryBIO()
    c = client.wrap_bio(c_in, c_out)
    s = server.wrap_bio(s_in, s_out, server_side=True)
    done = [False, False]
    for _ in range(20):
        for i, side in enumerate((c, s)):
            if not done[i]:
                try:
                    side.do_handshake()
                    done[i] = True
                except ssl.SSLWantReadError:
                    pass
                except ssl.SSLError:
                    return None
        s_in.write(c_out.read())
        c_in.write(s_out.read())
        if all(done):
            return c
    return None


def _handshake(server: ssl.SSLContext) -> ssl.SSLObject:
    """A client's completed handshake with `server` over memory BIOs."""
    obj = _memory_handshake(_client_context(), server)
    assert obj is not None, "no handshake"
    return obj


def _serial(obj: ssl.SSLObject) -> int:
    from cryptography import x509

    der = obj.getpeercert(binary_form=True)
    assert der is not None
    return x509.load_der_x509_certificate(der).serial_number


def _store(tmp: Path, ca: certs.Certificate, name: str, dn: str | None = None) -> tuple[str, int]:
    cert = certs.make_server_cert(ca, hosts=("127.0.0.1",), dn=dn)
    files = certs.write_stores(tmp / name, name, cert, ca, PASSWORD)
    return str(files.keystore_p12), cert.cert.serial_number


@pytest.fixture
def pki(tmp_path: Path) -> tuple[Path, certs.Certificate, str, int]:
    ca = certs.make_ca()
    location, serial = _store(tmp_path, ca, "static")
    return tmp_path, ca, location, serial


def _broker(tmp: Path, location: str) -> tuple[SecurityManager, DynamicBrokerConfig]:
    config = BrokerConfig(
        {
            "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
            "ssl.keystore.type": "PKCS12",
            "ssl.keystore.location": location,
            "ssl.keystore.password": PASSWORD,
        }
    )
    security = SecurityManager(config, None)
    dynamic = DynamicBrokerConfig(config, 1, tmp / DynamicBrokerConfig.FILE_NAME)
    dynamic.load()
    dynamic.keystore_validator = security.validate_keystores
    dynamic.keystore_reloader = security.reload_keystores
    stored = listener_keystores(dynamic.current("1"))
    if stored:
        security.reload_keystores(stored)  # as BrokerRunner does at start
    return security, dynamic


def _ctx(security: SecurityManager) -> ssl.SSLContext:
    ctx = security.ssl_context("SSL")
    assert ctx is not None
    return ctx


def _keystore(location: str) -> dict[str, str]:
    return {
        PREFIX + "ssl.keystore.location": location,
        PREFIX + "ssl.keystore.type": "PKCS12",
        PREFIX + "ssl.keystore.password": PASSWORD,
    }


def test_rotation_reload_refusals_and_restart(pki: tuple[Path, certs.Certificate, str, int]) -> None:
    tmp, ca, static, static_serial = pki
    security, dynamic = _broker(tmp, static)
    ctx = security.ssl_context("SSL")
    assert ctx is not None
    before = _handshake(ctx)
    assert _serial(before) == static_serial

    rotated, rotated_serial = _store(tmp, ca, "rotated")
    with pytest.raises(KafkaError, match="^Cannot update these configs at default cluster level, broker id must"):
        dynamic.set_layer("", _keystore(rotated))
    other, _ = _store(tmp, ca, "other", dn="CN=someone else")
    with pytest.raises(
        KafkaError, match=r"Keystore DistinguishedName does not match:  existing=\{alias=pykafka, DN=CN=127"
    ):
        dynamic.set_layer("1", _keystore(other))
    dynamic.set_layer("1", {PREFIX + "ssl.keystore.location": rotated}, validate_only=True)  # the static password
    assert _serial(_handshake(ctx)) == static_serial  # validate_only applies nothing

    dynamic.set_layer("1", _keystore(rotated))
    assert _serial(_handshake(_ctx(security))) == rotated_serial  # the context in force: new handshakes
    assert _serial(before) == static_serial  # the session made before keeps its certificate

    # a restart reads the stored layer back and serves the rotated certificate from the start
    security2, _ = _broker(tmp, static)
    assert _serial(_handshake(_ctx(security2))) == rotated_serial

    # removing the dynamic keystore brings back the static one
    dynamic.set_layer("1", {})
    assert _serial(_handshake(_ctx(security))) == static_serial


def _mtls_handshake(server: ssl.SSLContext, client_cert: certs.Certificate, tmp: Path) -> ssl.SSLObject | None:
    """The client side of a handshake with `server` presenting `client_cert` (mTLS); None if refused."""
    client = _client_context()
    cert_path, key_path = tmp / "client-cert.pem", tmp / "client-key.pem"
    certs.write_pem_cert(cert_path, client_cert)
    certs.write_pem_key(key_path, client_cert, PASSWORD)
    client.load_cert_chain(str(cert_path), str(key_path), password=PASSWORD)
    return _memory_handshake(client, server)


def test_truststore_same_path_reload_and_unprefixed_refusal(pki: tuple[Path, certs.Certificate, str, int]) -> None:
    tmp, ca, static, _ = pki
    trust = certs.write_pkcs12_truststore(tmp / "trust.p12", PASSWORD, ca)
    config = BrokerConfig(
        {
            "listeners": "PLAINTEXT://127.0.0.1:0,SSL://127.0.0.1:0",
            "ssl.keystore.type": "PKCS12",
            "ssl.keystore.location": static,
            "ssl.keystore.password": PASSWORD,
            "ssl.truststore.type": "PKCS12",
            "ssl.truststore.location": str(trust),
            "ssl.truststore.password": PASSWORD,
            "listener.name.ssl.ssl.client.auth": "required",
        }
    )
    security = SecurityManager(config, None)
    dynamic = DynamicBrokerConfig(config, 1, tmp / DynamicBrokerConfig.FILE_NAME)
    dynamic.keystore_validator = security.validate_keystores
    dynamic.keystore_reloader = security.reload_keystores

    # un-prefixed SSL store configs are refused, as Kafka 4.3.1 does
    with pytest.raises(KafkaError, match=r"^These security configs can be dynamically updated only per-listener"):
        dynamic.set_layer("1", {"ssl.keystore.location": static})

    # a client certificate of a CA the listener does not trust yet: refused until the truststore
    # names that CA; then new handshakes accept it
    other_ca = certs.make_ca("CN=second CA")
    stranger = certs.make_client_cert(other_ca, "CN=stranger")
    member = certs.make_client_cert(ca, "CN=member")
    assert _mtls_handshake(_ctx(security), stranger, tmp) is None
    both = certs.write_pkcs12_truststore(tmp / "both.p12", PASSWORD, ca, other_ca)
    dynamic.set_layer(
        "1",
        {
            PREFIX + "ssl.truststore.location": str(both),
            PREFIX + "ssl.truststore.type": "PKCS12",
            PREFIX + "ssl.truststore.password": PASSWORD,
        },
    )
    assert _mtls_handshake(_ctx(security), stranger, tmp) is not None

    def served_serial() -> int:
        client = _mtls_handshake(_ctx(security), member, tmp)
        assert client is not None
        return _serial(client)

    # the same keystore path rewritten in place, then the same configs set again: reloaded
    path = tmp / "same-path.p12"
    first = certs.make_server_cert(ca, hosts=("127.0.0.1",))
    certs.write_pkcs12_keystore(path, first, PASSWORD)
    layer = {**dynamic.current("1"), **_keystore(str(path))}
    dynamic.set_layer("1", layer)
    assert served_serial() == first.cert.serial_number
    second = certs.make_server_cert(ca, hosts=("127.0.0.1",))
    certs.write_pkcs12_keystore(path, second, PASSWORD)
    dynamic.set_layer("1", dict(layer))
    assert served_serial() == second.cert.serial_number
    # rewritten with a certificate that lost a SAN: the update with the same values is accepted (as
    # Kafka, only changed configs are validated), the reload refuses the file, nothing changes
    lost = certs.make_server_cert(ca, hosts=("localhost",), dn="CN=127.0.0.1")
    certs.write_pkcs12_keystore(path, lost, PASSWORD)
    dynamic.set_layer("1", dict(layer))
    assert served_serial() == second.cert.serial_number
    # that certificate under another path (a changed config) is refused with Kafka's message
    moved = tmp / "lost-san.p12"
    certs.write_pkcs12_keystore(moved, lost, PASSWORD)
    with pytest.raises(
        KafkaError,
        match=r"Keystore SubjectAltNames do not match:  existing=\{alias=pykafka, SAN=\[\[7, 127\.0\.0\.1\]\]\}, "
        r"new=\{alias=pykafka, SAN=\[\[2, localhost\]\]\}",
    ):
        dynamic.set_layer("1", {**layer, PREFIX + "ssl.keystore.location": str(moved)})
    assert served_serial() == second.cert.serial_number
