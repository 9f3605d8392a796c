"""SASL on the broker: the mechanisms (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER) as sans-IO servers,
and the per-connection authenticator state machine (Kafka's SaslServerAuthenticator).

A SASL listener accepts only ApiVersions, SaslHandshake and SaslAuthenticate until the client is
authenticated. SaslHandshake v0 is followed by raw length-prefixed tokens (no request header);
v1 by SaslAuthenticate requests. With `connections.max.reauth.ms` > 0 (KIP-368) a session has a
lifetime; the client re-authenticates with a new handshake on the same connection, and a
connection past its lifetime is closed on its next other request.
"""

from __future__ import annotations

import base64
import hmac
import importlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from broker_embedded.config import ConfigError
from broker_embedded.security.scram import MECHANISMS as SCRAM_MECHANISMS
from broker_embedded.security.scram import ScramCredentialStore, ScramServer

API_VERSIONS = 18
SASL_HANDSHAKE = 17
SASL_AUTHENTICATE = 36
AUTH_APIS = frozenset({API_VERSIONS, SASL_HANDSHAKE, SASL_AUTHENTICATE})

UNSECURED_VALIDATOR = (
    "org.apache.kafka.common.security.oauthbearer.internals.unsecured.OAuthBearerUnsecuredValidatorCallbackHandler"
)


class AuthenticationFailed(Exception):
    """The client's credentials were refused (SASL_AUTHENTICATION_FAILED; the connection closes)."""


# ---- JAAS ----------------------------------------------------------------------------------------

_JAAS_OPTION = re.compile(r'([A-Za-z0-9_.\-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;]+)')


def parse_jaas_options(jaas: str | None) -> dict[str, str]:
    """`LoginModule required key="value" ...;` → its options (PLAIN users are `user_<name>`)."""
    if not jaas:
        return {}
    body = jaas.strip().rstrip(";")
    parts = body.split(None, 2)
    if len(parts) < 2 or parts[1] not in ("required", "requisite", "sufficient", "optional"):
        raise ConfigError("sasl.jaas.config must be '<LoginModule> required <options>;'")
    options: dict[str, str] = {}
    for m in _JAAS_OPTION.finditer(parts[2] if len(parts) > 2 else ""):
        value = m.group(2)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        options[m.group(1)] = value
    return options


# ---- mechanisms ----------------------------------------------------------------------------------


class MechanismServer(Protocol):
    def evaluate(self, token: bytes) -> tuple[bytes, bool]:
        """(challenge, complete); raises AuthenticationFailed / ValueError on refusal."""
        ...


@dataclass
class PlainServer:
    users: dict[str, str]
    username: str | None = None

    def evaluate(self, token: bytes) -> tuple[bytes, bool]:
        parts = token.split(b"\x00")
        if len(parts) != 3:
            raise AuthenticationFailed("Invalid SASL/PLAIN response: expected 3 tokens")
        authzid, user, password = (p.decode("utf-8", "replace") for p in parts)
        if not user:
            raise AuthenticationFailed("Authentication failed: username not specified")
        if authzid and authzid != user:
            raise AuthenticationFailed(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        expected = self.users.get(user)
        # compare even for unknown users so timing does not reveal which users exist
        ok = hmac.compare_digest(password.encode(), (expected if expected is not None else "\x00" * 16).encode())
        if expected is None or not ok:
            raise AuthenticationFailed("Authentication failed: Invalid username or password")
        self.username = user
        return b"", True


@dataclass(frozen=True)
class OAuthToken:
    principal: str
    lifetime_ms: int  # absolute expiry, epoch ms
    scopes: frozenset[str] = frozenset()


class OAuthBearerValidator(Protocol):
    """A pluggable validator (`sasl.server.callback.handler.class` = `module.Class` or `module:Class`),
    constructed with the listener's OAUTHBEARER JAAS options."""

    def validate(self, token: str) -> OAuthToken: ...


def _b64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


class UnsecuredJwsValidator:
    """Kafka's OAuthBearerUnsecuredValidatorCallbackHandler: alg none, principal claim (`sub`),
    `exp` required, optional required scopes; for tests and development only."""

    def __init__(self, options: dict[str, str]) -> None:
        self.principal_claim = options.get("unsecuredValidatorPrincipalClaimName", "sub")
        self.scope_claim = options.get("unsecuredValidatorScopeClaimName", "scope")
        self.required_scope = frozenset(options.get("unsecuredValidatorRequiredScope", "").replace(",", " ").split())
        self.skew_ms = int(options.get("unsecuredValidatorAllowableClockSkewMs", "0"))

    def validate(self, token: str) -> OAuthToken:
        parts = token.split(".")
        if len(parts) != 3:
            raise ValueError("token is not a JWS compact serialization (header.payload.signature)")
        try:
            header = json.loads(_b64url(parts[0]))
            payload = json.loads(_b64url(parts[1]))
        except (ValueError, UnicodeDecodeError):
            raise ValueError("token header or payload is not base64url JSON") from None
        if header.get("alg") != "none" or parts[2]:
            raise ValueError("unsecured tokens must have alg none and no signature")
        principal = payload.get(self.principal_claim)
        if not isinstance(principal, str) or not principal:
            raise ValueError(f"no principal claim {self.principal_claim!r}")
        exp = payload.get("exp")
        if not isinstance(exp, int | float):
            raise ValueError("no exp claim")
        now_ms = time.time() * 1000
        if exp * 1000 + self.skew_ms <= now_ms:
            raise ValueError("token expired")
        iat = payload.get("iat")
        if isinstance(iat, int | float) and iat * 1000 - self.skew_ms > now_ms:
            raise ValueError("token issued in the future")
        raw_scope = payload.get(self.scope_claim, [])
        scopes = frozenset(raw_scope.split() if isinstance(raw_scope, str) else map(str, raw_scope))
        missing = self.required_scope - scopes
        if missing:
            raise ValueError(f"token lacks the required scope {sorted(missing)}")
        return OAuthToken(principal, int(exp * 1000), scopes)


def load_validator(class_name: str | None, options: dict[str, str]) -> OAuthBearerValidator:
    if not class_name or class_name == UNSECURED_VALIDATOR:
        return UnsecuredJwsValidator(options)
    module, sep, name = class_name.partition(":")
    if not sep:
        module, _, name = class_name.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as e:
        raise ConfigError(f"sasl.server.callback.handler.class {class_name!r} cannot be loaded: {e}") from None
    return cls(options)


@dataclass
class OAuthBearerServer:
    validator: OAuthBearerValidator
    token: OAuthToken | None = None
    _error_sent: bool = False

    def evaluate(self, message: bytes) -> tuple[bytes, bool]:
        if self._error_sent:
            # RFC 7628: the client acknowledges our error with %x01 and we fail the exchange
            raise AuthenticationFailed("Authentication failed: invalid OAUTHBEARER token")
        text = message.decode("utf-8", "replace")
        gs2, sep, rest = text.partition("\x01")
        if not sep or not gs2.startswith("n,"):
            raise AuthenticationFailed("Invalid OAUTHBEARER client first message")
        kv = dict(p.split("=", 1) for p in rest.split("\x01") if "=" in p)
        auth = kv.get("auth", "")
        if not auth.lower().startswith("bearer "):
            raise AuthenticationFailed("Invalid OAUTHBEARER client first message: no bearer token")
        try:
            self.token = self.validator.validate(auth[7:].strip())
        except ValueError:
            self._error_sent = True
            return json.dumps({"status": "invalid_token"}).encode(), False
        authzid = gs2[2:].split(",", 1)[0]
        if authzid.startswith("a=") and authzid[2:] != self.token.principal:
            raise AuthenticationFailed("Authentication failed: authorization id differs from the token's principal")
        return b"", True


# ---- the per-connection authenticator ------------------------------------------------------------


@dataclass
class SaslListenerConfig:
    """What one SASL listener accepts (built once per listener by the security manager)."""

    mechanisms: list[str]
    plain_users: dict[str, str] = field(default_factory=dict, repr=False)
    scram: ScramCredentialStore | None = field(default=None, repr=False)
    oauth_validator: OAuthBearerValidator | None = None
    max_reauth_ms: int = 0
    # listener.name.<l>.<mechanism>.connections.max.reauth.ms (Kafka's per-mechanism override)
    max_reauth_ms_by_mechanism: dict[str, int] = field(default_factory=dict)

    def new_server(self, mechanism: str) -> MechanismServer:
        if mechanism == "PLAIN":
            return PlainServer(self.plain_users)
        if mechanism in SCRAM_MECHANISMS:
            assert self.scram is not None
            return ScramServer(mechanism, self.scram)
        if mechanism == "OAUTHBEARER":
            assert self.oauth_validator is not None
            return OAuthBearerServer(self.oauth_validator)
        raise ValueError(mechanism)


class SaslAuthenticator:
    """Kafka's SaslServerAuthenticator for one connection, sans-IO."""

    HANDSHAKE, AUTHENTICATE, COMPLETE, FAILED = "HANDSHAKE", "AUTHENTICATE", "COMPLETE", "FAILED"

    def __init__(self, config: SaslListenerConfig, clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.state = self.HANDSHAKE
        self.mechanism: str | None = None
        self.server: MechanismServer | None = None
        self.raw_tokens = False  # SaslHandshake v0: tokens arrive without a request header
        self.principal: str | None = None
        self.expires_at: float | None = None  # monotonic seconds; None: no lifetime
        self.reauthenticating = False

    @property
    def authenticated(self) -> bool:
        return self.principal is not None

    def allows(self, api_key: int) -> bool:
        """May a request of `api_key` be served now (before authentication only the SASL APIs)?"""
        return (self.authenticated and not self.reauthenticating and self.state == self.COMPLETE) or (
            api_key in AUTH_APIS
        )

    def session_expired(self) -> bool:
        return self.expires_at is not None and self.clock() >= self.expires_at

    def handshake(self, mechanism: str, version: int) -> bool:
        """SaslHandshake: True if `mechanism` is enabled (then SaslAuthenticate or raw tokens follow)."""
        if self.state == self.COMPLETE:
            if version < 1:
                return False
            self.reauthenticating = True  # KIP-368: the same connection authenticates again
        if mechanism not in self.config.mechanisms:
            return False
        if self.reauthenticating and mechanism != self.mechanism:
            return False
        self.mechanism = mechanism
        self.server = self.config.new_server(mechanism)
        self.state = self.AUTHENTICATE
        self.raw_tokens = version == 0
        return True

    def authenticate(self, token: bytes) -> tuple[bytes, int]:
        """One SaslAuthenticate exchange: (challenge, session lifetime ms when complete, else 0).

        Raises AuthenticationFailed; the caller answers SASL_AUTHENTICATION_FAILED and closes."""
        if self.state != self.AUTHENTICATE or self.server is None:
            raise IllegalSaslState("SaslAuthenticate received in state " + self.state)
        try:
            challenge, done = self.server.evaluate(token)
        except AuthenticationFailed:
            self.state = self.FAILED
            raise
        except ValueError:
            self.state = self.FAILED
            raise AuthenticationFailed(
                f"Authentication failed during authentication due to invalid credentials with SASL mechanism "
                f"{self.mechanism}"
            ) from None
        if not done:
            return challenge, 0
        principal = "User:" + self._authenticated_name()
        if self.reauthenticating and principal != self.principal:
            self.state = self.FAILED
            raise AuthenticationFailed("Cannot change principals during re-authentication")
        self.principal = principal
        self.state = self.COMPLETE
        self.reauthenticating = False
        self.raw_tokens = False
        lifetime = self._lifetime_ms()
        self.expires_at = self.clock() + lifetime / 1000 if lifetime > 0 else None
        return challenge, lifetime

    def _authenticated_name(self) -> str:
        server = self.server
        if isinstance(server, PlainServer | ScramServer) and server.username:
            return server.username
        if isinstance(server, OAuthBearerServer) and server.token is not None:
            return server.token.principal
        raise AuthenticationFailed("no authenticated name")

    def _lifetime_ms(self) -> int:
        max_reauth = self.config.max_reauth_ms_by_mechanism.get(self.mechanism or "", self.config.max_reauth_ms)
        if max_reauth <= 0:
            return 0
        lifetime = max_reauth
        if isinstance(self.server, OAuthBearerServer) and self.server.token is not None:
            # the session ends no later than the token (KIP-368)
            lifetime = min(lifetime, max(0, self.server.token.lifetime_ms - int(time.time() * 1000)))
        return lifetime


class IllegalSaslState(Exception):
    """A SASL request out of order (ILLEGAL_SASL_STATE)."""


__all__ = [
    "AUTH_APIS",
    "AuthenticationFailed",
    "IllegalSaslState",
    "OAuthBearerValidator",
    "OAuthToken",
    "SaslAuthenticator",
    "SaslListenerConfig",
    "UnsecuredJwsValidator",
    "load_validator",
    "parse_jaas_options",
]
