"""SASL mechanisms and the per-connection authenticator (sans-IO), SCRAM credentials against an
independent SCRAM client (scramp's), principal mapping rules and JAAS options."""

from __future__ import annotations

import base64
import hashlib
import json
import time

import pytest
import scramp

from broker_embedded.config import ConfigError
from broker_embedded.security.sasl import (
    AuthenticationFailed,
    IllegalSaslState,
    SaslAuthenticator,
    SaslListenerConfig,
    UnsecuredJwsValidator,
    load_validator,
    parse_jaas_options,
)
from broker_embedded.security.scram import (
    ScramCredentialStore,
    credential_from_password,
    credential_from_salted_password,
)
from broker_embedded.security.tls import SslPrincipalMapper

MECHS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]


def listener(max_reauth_ms: int = 0) -> SaslListenerConfig:
    store = ScramCredentialStore()
    for m in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
        store.upsert("alice", m, credential_from_password(m, "alice-secret"))
    return SaslListenerConfig(
        MECHS,
        plain_users={"alice": "alice-secret"},
        scram=store,
        oauth_validator=UnsecuredJwsValidator({"unsecuredValidatorRequiredScope": "kafka"}),
        max_reauth_ms=max_reauth_ms,
    )


def scram_exchange(auth: SaslAuthenticator, mechanism: str, user: str, password: str) -> int:
    client = scramp.ScramClient([mechanism], user, password)
    first, _ = auth.authenticate(client.get_client_first().encode())
    client.set_server_first(first.decode())
    final, lifetime = auth.authenticate(client.get_client_final().encode())
    client.set_server_final(final.decode())  # the server proved it knows the credential too
    return lifetime


def jws(claims: dict[str, object], alg: str = "none") -> str:
    def enc(d: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()

    return f"{enc({'alg': alg})}.{enc(claims)}."


def oauth_message(token: str) -> bytes:
    return f"n,,\x01auth=Bearer {token}\x01\x01".encode()


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_round_trip_with_an_independent_client(mechanism: str) -> None:
    auth = SaslAuthenticator(listener())
    assert auth.handshake(mechanism, 1)
    assert scram_exchange(auth, mechanism, "alice", "alice-secret") == 0
    assert auth.principal == "User:alice"
    assert auth.allows(3)


@pytest.mark.parametrize("user,password", [("alice", "wrong"), ("mallory", "alice-secret")])
def test_scram_refuses_bad_credentials(user: str, password: str) -> None:
    auth = SaslAuthenticator(listener())
    auth.handshake("SCRAM-SHA-256", 1)
    with pytest.raises(AuthenticationFailed, match="invalid credentials"):
        scram_exchange(auth, "SCRAM-SHA-256", user, password)
    assert auth.state == auth.FAILED and not auth.authenticated and not auth.allows(3)


def test_credential_from_salted_password_matches_kafka_math() -> None:
    # AlterUserScramCredentials carries Hi(password, salt, i); the stored keys must verify the same
    salt, iterations = b"0123456789abcdef", 4096
    salted = hashlib.pbkdf2_hmac("sha512", b"pw", salt, iterations)
    assert credential_from_salted_password("SCRAM-SHA-512", salt, salted, iterations) == credential_from_password(
        "SCRAM-SHA-512", "pw", iterations, salt
    )
    assert "stored" not in repr(credential_from_password("SCRAM-SHA-256", "pw"))


def test_plain() -> None:
    auth = SaslAuthenticator(listener())
    assert auth.handshake("PLAIN", 1)
    assert auth.authenticate(b"\x00alice\x00alice-secret") == (b"", 0)
    assert auth.principal == "User:alice"
    for bad in (b"\x00alice\x00nope", b"\x00bob\x00alice-secret", b"bob\x00alice\x00alice-secret", b"alice"):
        a = SaslAuthenticator(listener())
        a.handshake("PLAIN", 1)
        with pytest.raises(AuthenticationFailed):
            a.authenticate(bad)


def test_oauthbearer_unsecured_tokens() -> None:
    auth = SaslAuthenticator(listener(max_reauth_ms=60_000))
    assert auth.handshake("OAUTHBEARER", 1)
    exp = time.time() + 30
    _, lifetime = auth.authenticate(oauth_message(jws({"sub": "svc", "exp": exp, "scope": "kafka other"})))
    assert auth.principal == "User:svc"
    assert 25_000 < lifetime <= 30_000  # the token expires before connections.max.reauth.ms


@pytest.mark.parametrize(
    "claims,alg",
    [
        ({"sub": "svc", "exp": time.time() - 5, "scope": "kafka"}, "none"),  # expired
        ({"sub": "svc", "exp": time.time() + 60}, "none"),  # lacks the required scope
        ({"exp": time.time() + 60, "scope": "kafka"}, "none"),  # no principal
        ({"sub": "svc", "exp": time.time() + 60, "scope": "kafka"}, "HS256"),  # signed: not unsecured
    ],
)
def test_oauthbearer_refusals_follow_rfc7628(claims: dict[str, object], alg: str) -> None:
    auth = SaslAuthenticator(listener())
    auth.handshake("OAUTHBEARER", 1)
    challenge, _ = auth.authenticate(oauth_message(jws(claims, alg)))
    assert json.loads(challenge)["status"] == "invalid_token"  # the error goes out as a challenge
    with pytest.raises(AuthenticationFailed):
        auth.authenticate(b"\x01")  # the client's acknowledgement ends the exchange
    assert not auth.authenticated


def test_validator_by_class_name() -> None:
    v = load_validator("broker_embedded.security.sasl:UnsecuredJwsValidator", {})
    assert isinstance(v, UnsecuredJwsValidator)
    with pytest.raises(ConfigError, match="cannot be loaded"):
        load_validator("no.such.Validator", {})


def test_state_machine_and_reauthentication() -> None:
    now = [100.0]
    auth = SaslAuthenticator(listener(max_reauth_ms=1000), clock=lambda: now[0])
    assert not auth.allows(3) and auth.allows(18) and auth.allows(17)
    with pytest.raises(IllegalSaslState):
        auth.authenticate(b"\x00alice\x00alice-secret")  # before the handshake
    assert not auth.handshake("GSSAPI", 1)
    assert auth.handshake("PLAIN", 1)
    assert auth.authenticate(b"\x00alice\x00alice-secret")[1] == 1000
    assert not auth.session_expired()
    now[0] += 1.5
    assert auth.session_expired()
    # KIP-368: a v1 handshake on the authenticated connection re-authenticates, same mechanism only
    assert not auth.handshake("SCRAM-SHA-256", 1)
    assert auth.handshake("PLAIN", 1)
    auth.authenticate(b"\x00alice\x00alice-secret")
    assert not auth.session_expired()
    # a different principal cannot take over the connection
    assert auth.handshake("PLAIN", 1)
    listener_cfg = auth.config
    listener_cfg.plain_users["bob"] = "bob-secret"
    with pytest.raises(AuthenticationFailed, match="change principals"):
        auth.authenticate(b"\x00bob\x00bob-secret")


def test_v0_handshake_switches_to_raw_tokens() -> None:
    auth = SaslAuthenticator(listener())
    assert auth.handshake("PLAIN", 0)
    assert auth.raw_tokens
    auth.authenticate(b"\x00alice\x00alice-secret")
    assert not auth.raw_tokens and auth.authenticated


@pytest.mark.parametrize(
    "rules,dn,name",
    [
        ("DEFAULT", "CN=alice,OU=eng,O=acme", "CN=alice,OU=eng,O=acme"),
        ("RULE:^CN=(.*?),OU=(.*?),O=.*$/$1@$2/L,DEFAULT", "CN=Alice,OU=ENG,O=acme", "alice@eng"),
        ("RULE:^CN=(.*?),.*$/$1/U", "CN=alice,OU=eng", "ALICE"),
        ("RULE:^OU=ops$/ops/,DEFAULT", "CN=x,OU=eng", "CN=x,OU=eng"),  # falls through to DEFAULT
    ],
)
def test_ssl_principal_mapping_rules(rules: str, dn: str, name: str) -> None:
    assert SslPrincipalMapper(rules).name(dn) == name


def test_ssl_principal_mapping_rules_errors() -> None:
    with pytest.raises(ValueError, match="no ssl.principal.mapping.rules"):
        SslPrincipalMapper("RULE:^OU=ops$/ops/").name("CN=x")
    with pytest.raises(ConfigError):
        SslPrincipalMapper("RULE:broken")


def test_jaas_options() -> None:
    opts = parse_jaas_options(
        'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="a\\"b" user_admin="s3;cret" user_alice=plain;'
    )
    assert opts == {"username": "admin", "password": 'a"b', "user_admin": "s3;cret", "user_alice": "plain"}
    with pytest.raises(ConfigError):
        parse_jaas_options("user_admin=x")


def test_reauth_lifetime_per_mechanism() -> None:
    cfg = listener(max_reauth_ms=0)
    cfg.max_reauth_ms_by_mechanism["SCRAM-SHA-512"] = 4000
    plain = SaslAuthenticator(cfg)
    plain.handshake("PLAIN", 1)
    assert plain.authenticate(b"\x00alice\x00alice-secret")[1] == 0  # no lifetime for PLAIN
    scram = SaslAuthenticator(cfg)
    scram.handshake("SCRAM-SHA-512", 1)
    assert scram_exchange(scram, "SCRAM-SHA-512", "alice", "alice-secret") == 4000
