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


def _handshake(server: ssl.SSLContext) -> ssl.SSLObject:
    """A client's completed handshake with `server` over memory BIOs."""
    client = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    client.check_hostname = False
    client.verify_mode = ssl.CERT_NONE
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
        s_in.write(c_out.read())
        c_in.write(s_out.read())
        if all(done):
            return c
    raise AssertionError("no handshake")


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
    assert _serial(_handshake(ctx)) == rotated_serial  # the same live context: new handshakes
    assert _serial(before) == static_serial  # the session made before keeps its certificate

    # a restart reads the stored layer back and serves the rotated certificate from the start
    security2, _ = _broker(tmp, static)
    ctx2 = security2.ssl_context("SSL")
    assert ctx2 is not None
    assert _serial(_handshake(ctx2)) == rotated_serial

    # removing the dynamic keystore brings back the static one
    dynamic.set_layer("1", {})
    assert _serial(_handshake(ctx)) == static_serial
