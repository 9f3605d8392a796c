"""Client security settings without a broker: JAAS parsing, option validation, trust/key store
loading (JKS, PKCS12, PEM), the Java -> librdkafka translation, and secrets kept out of reprs/errors."""

from __future__ import annotations

import pickle
import ssl
from pathlib import Path

import pytest

from broker_embedded.security import certs
from kafka_wire.client.config import ClientConfig
from kafka_wire.client.jaas import JaasConfigError, parse_jaas
from kafka_wire.client.librdkafka import LibrdkafkaOptionError, redact, to_librdkafka
from kafka_wire.client.security import SecurityConfig, SecurityConfigError
from kafka_wire.client.stores import StoreError, key_material, trusted_certs_pem

PW = "store-pw-123"
SCRAM = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="{}";'


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> tuple[certs.StoreFiles, certs.Certificate]:
    ca = certs.make_ca()
    client = certs.make_client_cert(ca, "CN=client")
    return certs.write_stores(tmp_path_factory.mktemp("pki"), "client", client, ca, PW), client


# ---- JAAS -------------------------------------------------------------------------------------------


def test_jaas_quoted_escaped_and_bare_values() -> None:
    j = parse_jaas(
        'org.apache.kafka.common.security.scram.ScramLoginModule required username="al ice" '
        'password="p\\"w;d=x" tokenauth=true ;'
    )
    assert j.kind == "SCRAM" and j.flag == "required"
    assert j.get("username") == "al ice" and j.get("password") == 'p"w;d=x' and j.get("tokenauth") == "true"
    assert 'p\\"w' not in repr(j) and 'p"w' not in repr(j) and "[hidden]" in repr(j)


def test_jaas_oauthbearer_options() -> None:
    j = parse_jaas(
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
        'clientId="app" clientSecret="s3cr3t" scope="a b";'
    )
    assert j.kind == "OAUTHBEARER" and j.get("clientId") == "app" and j.get("scope") == "a b"
    assert "s3cr3t" not in repr(j)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("", "expected"),
        ('org.apache.kafka.common.security.plain.PlainLoginModule required username="a"', "expected"),
        ('org.apache.kafka.common.security.plain.PlainLoginModule mandatory username="a";', "control flag"),
        ('org.apache.kafka.common.security.plain.PlainLoginModule required username "a";', "name=value"),
        ("com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;", "not supported"),
        (
            'org.apache.kafka.common.security.plain.PlainLoginModule required a="1"; '
            'org.apache.kafka.common.security.plain.PlainLoginModule required b="2";',
            "exactly one login module",
        ),
        ('org.apache.kafka.common.security.plain.PlainLoginModule required password="unterminated;', "parse"),
    ],
)
def test_jaas_errors_name_the_option_and_hide_values(text: str, match: str) -> None:
    with pytest.raises(JaasConfigError, match=match) as e:
        parse_jaas(text, "kafka.sasl.jaas.config")
    assert "kafka.sasl.jaas.config" in str(e.value)
    assert "unterminated" not in str(e.value)


# ---- option validation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"security.protocol": "TLS"}, "'kafka.security.protocol': expected one of"),
        ({"security.protocol": "SASL_SSL"}, "'kafka.sasl.mechanism'.*GSSAPI"),
        ({"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512"}, "'kafka.sasl.jaas.config' must be set"),
        (
            {"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN", "sasl.jaas.config": SCRAM.format("x")},
            "does not fit kafka.sasl.mechanism=PLAIN",
        ),
        (
            {
                "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism": "SCRAM-SHA-256",
                "sasl.jaas.config": 'org.apache.kafka.common.security.scram.ScramLoginModule required username="a";',
            },
            'needs username="..." password',
        ),
        (
            {
                "security.protocol": "SASL_SSL",
                "sasl.mechanism": "OAUTHBEARER",
                "sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
                'clientId="a" clientSecret="b";',
            },
            "sasl.oauthbearer.token.endpoint.url",
        ),
        ({"ssl.endpoint.identification.algorithm": "dns"}, "expected 'https'"),
        ({"security.protocol": "SSL", "ssl.truststore.location": "/nonexistent/ts.jks"}, "ssl.truststore.location"),
    ],
)
def test_invalid_options_are_named(params: dict[str, str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        ClientConfig.from_kafka_params({"bootstrap.servers": "h:1", **params}, "c")


def test_valid_sasl_config_is_hashable_picklable_and_redacted() -> None:
    c = ClientConfig.from_kafka_params(
        {
            "bootstrap.servers": "h:1",
            "security.protocol": "sasl_ssl",
            "sasl.mechanism": "scram-sha-512",
            "sasl.jaas.config": SCRAM.format("pa$$-word"),
            "ssl.endpoint.identification.algorithm": "",
        },
        "c",
    )
    assert c.security.protocol == "SASL_SSL" and c.security.sasl_mechanism == "SCRAM-SHA-512"
    assert c.security.uses_ssl and c.security.uses_sasl and not c.security.check_hostname
    assert pickle.loads(pickle.dumps(c)) == c and hash(c) == hash(pickle.loads(pickle.dumps(c)))
    assert "pa$$-word" not in repr(c) and "pa$$-word" not in str(c.security)
    assert ClientConfig.from_kafka_params({"bootstrap.servers": "h:1"}, "c").security.protocol == "PLAINTEXT"


# ---- stores -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["JKS", "PKCS12", "PEM"])
def test_truststores_of_every_type(pki: tuple[certs.StoreFiles, certs.Certificate], kind: str) -> None:
    files, _ = pki
    pem = trusted_certs_pem(str(files.truststore(kind)), PW, kind, None)
    assert pem is not None and pem.count("BEGIN CERTIFICATE") == 1
    ctx = ssl.create_default_context(cadata=pem)
    assert ctx.get_ca_certs()[0]["subject"] == ((("commonName", "pykafka test CA"),),)


@pytest.mark.parametrize("kind", ["JKS", "PKCS12", "PEM"])
def test_keystores_of_every_type(pki: tuple[certs.StoreFiles, certs.Certificate], kind: str) -> None:
    files, cert = pki
    km = key_material(str(files.keystore(kind)), PW, kind, PW, None, None)
    assert km is not None and km.chain_pem.count("BEGIN CERTIFICATE") == 2  # leaf + CA
    assert "ENCRYPTED PRIVATE KEY" in km.key_pem and PW not in repr(km) and km.key_password not in repr(km)
    # the chain's first certificate is the client's
    assert cert.cert_pem().decode().split("-----END CERTIFICATE-----")[0] in km.chain_pem


@pytest.mark.parametrize(
    ("kind", "option"),
    [("JKS", "ssl.truststore.password"), ("PKCS12", "ssl.truststore.password")],
)
def test_wrong_store_password_names_the_option(
    pki: tuple[certs.StoreFiles, certs.Certificate], kind: str, option: str
) -> None:
    files, _ = pki
    with pytest.raises(StoreError, match=option) as e:
        trusted_certs_pem(str(files.truststore(kind)), "wrong-pw-xyz", kind, None)
    assert "wrong-pw-xyz" not in str(e.value)


def test_wrong_key_password_and_wrong_type(pki: tuple[certs.StoreFiles, certs.Certificate]) -> None:
    files, _ = pki
    with pytest.raises(StoreError, match="ssl.key.password"):
        key_material(str(files.keystore("PEM")), None, "PEM", "not-it", None, None)
    with pytest.raises(StoreError, match="ssl.keystore.password"):
        key_material(str(files.keystore("PKCS12")), "not-it", "PKCS12", None, None, None)
    with pytest.raises(StoreError, match="ssl.keystore.password"):
        key_material(str(files.keystore("PKCS12")), PW, "JKS", None, None, None)  # a PKCS12 file read as JKS
    with pytest.raises(StoreError, match="ssl.truststore.type"):
        trusted_certs_pem(str(files.truststore("JKS")), PW, "BKS", None)
    with pytest.raises(StoreError, match="go together"):
        key_material(None, None, None, None, files.cert_pem.read_text(), None)


def test_ssl_context_for_mtls(pki: tuple[certs.StoreFiles, certs.Certificate]) -> None:
    files, _ = pki
    sec = SecurityConfig.from_params(
        {
            "security.protocol": "SSL",
            "ssl.truststore.location": str(files.truststore_jks),
            "ssl.truststore.password": PW,
            "ssl.keystore.location": str(files.keystore_jks),
            "ssl.keystore.password": PW,
        },
        prefix="",
    )
    ctx = sec.ssl_context()
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    assert sec.ssl_context() is ctx  # once per configuration and process
    assert PW not in repr(sec)
    with pytest.raises(SecurityConfigError, match="ssl.keystore.password"):
        SecurityConfig.from_params(
            {"security.protocol": "SSL", "ssl.keystore.location": str(files.keystore_jks), "ssl.keystore.password": "x"}
        )


# ---- librdkafka translation -------------------------------------------------------------------------


def test_librdkafka_jks_stores_become_in_memory_pem(pki: tuple[certs.StoreFiles, certs.Certificate]) -> None:
    files, _ = pki
    conf, _ = to_librdkafka(
        {
            "security.protocol": "ssl",
            "ssl.truststore.location": str(files.truststore_jks),
            "ssl.truststore.password": PW,
            "ssl.keystore.location": str(files.keystore_jks),
            "ssl.keystore.password": PW,
            "ssl.endpoint.identification.algorithm": "",
        }
    )
    assert conf["security.protocol"] == "SSL"
    assert conf["ssl.ca.pem"].startswith("-----BEGIN CERTIFICATE-----")
    assert "BEGIN CERTIFICATE" in conf["ssl.certificate.pem"] and "ENCRYPTED" in conf["ssl.key.pem"]
    assert conf["ssl.endpoint.identification.algorithm"] == "none"
    assert not any(k.startswith(("ssl.truststore", "ssl.keystore")) for k in conf)
    assert PW not in str(redact(conf)) and conf["ssl.key.password"] not in str(redact(conf))
    from confluent_kafka import Producer  # librdkafka accepts every translated setting

    Producer({**conf, "bootstrap.servers": "127.0.0.1:1"}).flush(0)


def test_librdkafka_pkcs12_keystore_is_passed_through(pki: tuple[certs.StoreFiles, certs.Certificate]) -> None:
    files, _ = pki
    conf, _ = to_librdkafka(
        {"ssl.keystore.location": str(files.keystore_p12), "ssl.keystore.type": "PKCS12", "ssl.keystore.password": PW}
    )
    assert conf == {"ssl.keystore.location": str(files.keystore_p12), "ssl.keystore.password": PW}
    with pytest.raises(LibrdkafkaOptionError, match="kafka.ssl.keystore.password"):
        to_librdkafka({"ssl.keystore.location": str(files.keystore_p12), "ssl.keystore.password": "no"})


def test_librdkafka_sasl_translation() -> None:
    conf, _ = to_librdkafka(
        {
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
            'unsecuredLoginStringClaim_sub="admin";',
        }
    )
    assert conf["enable.sasl.oauthbearer.unsecure.jwt"] == "true"
    assert conf["sasl.oauthbearer.config"] == "principal=admin"
    conf, _ = to_librdkafka(
        {
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.oauthbearer.token.endpoint.url": "https://idp/token",
            "sasl.login.callback.handler.class": "org.apache.kafka.common.security.oauthbearer."
            "OAuthBearerLoginCallbackHandler",
            "sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required "
            'clientId="app" clientSecret="sec" scope="kafka";',
        }
    )
    assert conf["sasl.oauthbearer.method"] == "oidc" and conf["sasl.oauthbearer.client.secret"] == "sec"
    assert conf["sasl.oauthbearer.token.endpoint.url"] == "https://idp/token"
    assert redact(conf)["sasl.oauthbearer.client.secret"] == "[hidden]"
    with pytest.raises(LibrdkafkaOptionError, match="sasl.login.callback.handler.class"):
        to_librdkafka({"sasl.login.callback.handler.class": "com.example.MyHandler"})


def test_sink_config_repr_hides_secrets(pki: tuple[certs.StoreFiles, certs.Certificate], tmp_path: Path) -> None:
    from connector.sink.writer import parse_sink_options

    files, _ = pki
    cfg = parse_sink_options(
        {
            "kafka.bootstrap.servers": "127.0.0.1:1",
            "kafka.security.protocol": "SASL_SSL",
            "kafka.sasl.mechanism": "SCRAM-SHA-512",
            "kafka.sasl.jaas.config": SCRAM.format("sink-pw-987"),
            "kafka.ssl.truststore.location": str(files.truststore_jks),
            "kafka.ssl.truststore.password": PW,
            "topic": "t",
        }
    )
    assert cfg.producer_dict()["sasl.password"] == "sink-pw-987"
    assert "sink-pw-987" not in repr(cfg) and PW not in repr(cfg)


def test_delta_sink_mirror_security_is_validated_and_hidden(pki: tuple[certs.StoreFiles, certs.Certificate]) -> None:
    from connector.delta.errors import DeltaSinkOptionError
    from connector.delta.options import parse_delta_options

    files, _ = pki
    base = {
        "path": "/tmp/unused-table",
        "offsetsowner": "owner",
        "kafka.bootstrap.servers": "h:1",
        "kafka.security.protocol": "SASL_SSL",
        "kafka.sasl.mechanism": "SCRAM-SHA-512",
        "kafka.sasl.jaas.config": SCRAM.format("delta-pw-555"),
        "kafka.ssl.truststore.location": str(files.truststore_jks),
    }
    with pytest.raises(DeltaSinkOptionError, match="kafka.ssl.truststore.password") as e:
        parse_delta_options({**base, "kafka.ssl.truststore.password": "bad-store-pw"}, streaming=False)
    assert "bad-store-pw" not in str(e.value)
    opts = parse_delta_options({**base, "kafka.ssl.truststore.password": PW}, streaming=False)
    assert dict(opts.mirror_config)["security.protocol"] == "SASL_SSL"
    assert "delta-pw-555" not in repr(opts) and PW not in repr(opts)
