"""The SASL client: SaslHandshake v1 then SaslAuthenticate frames (KIP-152), and re-authentication.

Mechanisms: PLAIN (RFC 4616), SCRAM-SHA-256/512 (RFC 5802/7677, through `scramp`, which also
checks the broker's final signature), OAUTHBEARER (RFC 7628 client response with a bearer token:
Kafka's unsecured `alg: none` token built from the JAAS options, or a token fetched from
`sasl.oauthbearer.token.endpoint.url` with the OAuth client-credentials grant and cached until
shortly before it expires).

`authenticate` returns the session lifetime the broker granted (SaslAuthenticate v1+,
`connections.max.reauth.ms`, KIP-368); the connection re-authenticates on the same socket before
it ends, between requests. Failures raise `AuthenticationError` carrying the broker's message,
which never contains the client's secrets, and nothing here logs one.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any

from kafka_wire.client.security import AuthenticationError, SecurityConfig
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import sasl_authenticate_request, sasl_handshake_request

if TYPE_CHECKING:
    from kafka_wire.client.connection import BrokerConnection

API_SASL_HANDSHAKE = 17
API_SASL_AUTHENTICATE = 36


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def unsecured_token(sub: str, scope: str | None = None, lifetime_s: int = 3600) -> str:
    """Kafka's unsecured OAUTHBEARER token (OAuthBearerUnsecuredLoginCallbackHandler): alg none."""
    # whole seconds, rounded down: a broker that reads `iat` to the millisecond must never see it
    # in its future (a token is used within the same millisecond it is made)
    now = int(time.time())
    claims: dict[str, Any] = {"sub": sub, "iat": now, "exp": now + lifetime_s}
    if scope:
        claims["scope"] = scope.split()
    header = _b64url(json.dumps({"alg": "none"}).encode())
    return f"{header}.{_b64url(json.dumps(claims).encode())}."


_tokens: dict[tuple[str, str, str, str], tuple[str, float]] = {}  # (url, id, secret, scope) -> (token, expires)
_tokens_lock = threading.Lock()


def fetch_token(url: str, client_id: str, client_secret: str, scope: str | None, timeout: float) -> str:
    """An access token from `url` (OAuth 2 client-credentials grant), reused until 80 % of its life."""
    key = (url, client_id, client_secret, scope or "")
    with _tokens_lock:
        cached = _tokens.get(key)
        if cached and time.monotonic() < cached[1]:
            return cached[0]
    form = {"grant_type": "client_credentials"}
    if scope:
        form["scope"] = scope
    basic = base64.b64encode(
        f"{urllib.parse.quote(client_id, safe='')}:{urllib.parse.quote(client_secret, safe='')}".encode()
    ).decode()
    req = urllib.request.Request(
        url,
        data=urllib.parse.urlencode(form).encode(),
        headers={
            "Authorization": f"Basic {basic}",
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - a configured https/http URL
            body = json.loads(resp.read())
    except Exception as e:  # noqa: BLE001 - HTTP, network and JSON errors; the request holds secrets, e does not
        raise AuthenticationError(
            f"cannot get an OAUTHBEARER token from sasl.oauthbearer.token.endpoint.url={url}: "
            f"{type(e).__name__}: {getattr(e, 'reason', '') or getattr(e, 'code', '') or ''}"
        ) from None
    token = body.get("access_token") if isinstance(body, dict) else None
    if not isinstance(token, str) or not token:
        raise AuthenticationError(f"the token endpoint {url} answered without an access_token")
    life = body.get("expires_in", 3600)
    expires = time.monotonic() + 0.8 * (float(life) if isinstance(life, (int, float)) else 3600.0)
    with _tokens_lock:
        _tokens[key] = (token, expires)
    return token


def _oauth_token(security: SecurityConfig, timeout: float) -> str:
    jaas = security.jaas
    assert jaas is not None
    sub = jaas.get("unsecuredLoginStringClaim_sub")
    if sub is not None:
        life = jaas.get("unsecuredLoginLifetimeSeconds")
        return unsecured_token(sub, jaas.get("unsecuredLoginListClaim_scope"), int(life) if life else 3600)
    assert security.oauth_token_endpoint_url is not None
    return fetch_token(
        security.oauth_token_endpoint_url, jaas.get("clientId") or "", jaas.get("clientSecret") or "",
        jaas.get("scope"), timeout,
    )  # fmt: skip


class _Exchange:
    """One SASL conversation over SaslAuthenticate frames."""

    def __init__(self, conn: BrokerConnection, mechanism: str) -> None:
        self.conn = conn
        self.mechanism = mechanism
        self.version = conn.best_version(API_SASL_AUTHENTICATE)
        self.session_lifetime_ms = 0

    def step(self, data: bytes, *, final_error_ok: bool = False) -> tuple[int, bytes, str]:
        resp = self.conn.request(
            API_SASL_AUTHENTICATE, sasl_authenticate_request.SaslAuthenticateRequest(auth_bytes=data), self.version
        )
        self.session_lifetime_ms = getattr(resp, "session_lifetime_ms", 0) or 0
        code = resp.error_code
        if code != ErrorCode.NONE and not final_error_ok:
            raise self.failed(code, resp.error_message)
        return code, bytes(resp.auth_bytes or b""), resp.error_message or ""

    def failed(self, code: int, message: str | None) -> AuthenticationError:
        try:
            name = ErrorCode(code).name
        except ValueError:
            name = f"error {code}"
        return AuthenticationError(
            f"SASL {self.mechanism} authentication with {self.conn.host}:{self.conn.port} failed: {name}"
            + (f": {message}" if message else ""),
            ErrorCode(code) if code in ErrorCode._value2member_map_ else ErrorCode.SASL_AUTHENTICATION_FAILED,
        )


def authenticate(conn: BrokerConnection, security: SecurityConfig, timeout: float) -> int:
    """Run SaslHandshake and the mechanism's SaslAuthenticate exchange on `conn`; returns the
    session lifetime in ms the broker granted (0: none, no re-authentication needed)."""
    mechanism = security.sasl_mechanism
    jaas = security.jaas
    assert jaas is not None
    resp = conn.request(
        API_SASL_HANDSHAKE,
        sasl_handshake_request.SaslHandshakeRequest(mechanism=mechanism),
        min(1, conn.best_version(API_SASL_HANDSHAKE)),
    )
    if resp.error_code != ErrorCode.NONE:
        code = ErrorCode(resp.error_code)
        if code == ErrorCode.ILLEGAL_SASL_STATE:
            raise AuthenticationError(
                f"{conn.host}:{conn.port} refused SaslHandshake for {mechanism} ({code.name}): the listener does "
                f"not take SASL; check security.protocol ({security.protocol}) against the broker's listener",
                code,
            )
        raise AuthenticationError(
            f"SASL mechanism {mechanism} is not enabled on {conn.host}:{conn.port} ({code.name}); the broker "
            f"offers: {', '.join(resp.mechanisms or []) or 'none'}",
            code,
        )
    ex = _Exchange(conn, mechanism)
    if mechanism == "PLAIN":
        user, password = jaas.get("username") or "", jaas.get("password") or ""
        ex.step(b"\0" + user.encode() + b"\0" + password.encode())
    elif mechanism.startswith("SCRAM-"):
        import scramp

        client = scramp.ScramClient([mechanism], jaas.get("username") or "", jaas.get("password") or "")
        _, server_first, _ = ex.step(client.get_client_first().encode())
        try:
            client.set_server_first(server_first.decode())
            final = client.get_client_final()
        except scramp.ScramException as e:
            raise AuthenticationError(f"SASL {mechanism} with {conn.host}:{conn.port}: {e}") from None
        _, server_final, _ = ex.step(final.encode())
        try:
            client.set_server_final(server_final.decode())
        except scramp.ScramException:
            raise AuthenticationError(
                f"SASL {mechanism} with {conn.host}:{conn.port}: the broker's final signature does not match "
                "(it does not know this user's credentials)"
            ) from None
    elif mechanism == "OAUTHBEARER":
        token = _oauth_token(security, timeout)
        err_code, challenge, message = ex.step(f"n,,\x01auth=Bearer {token}\x01\x01".encode(), final_error_ok=True)
        if err_code == ErrorCode.NONE and challenge:
            # RFC 7628 3.2.3: the broker sent an error challenge; answer with %x01 to end the exchange
            err_code, _, message = ex.step(b"\x01", final_error_ok=True)
            if err_code == ErrorCode.NONE:
                err_code = ErrorCode.SASL_AUTHENTICATION_FAILED
            message = f"{message} {challenge.decode(errors='replace')}".strip()
        if err_code != ErrorCode.NONE:
            raise ex.failed(err_code, message)
    else:  # pragma: no cover - SecurityConfig refuses other mechanisms
        raise AuthenticationError(f"unsupported SASL mechanism {mechanism}", ErrorCode.UNSUPPORTED_SASL_MECHANISM)
    return ex.session_lifetime_ms


__all__ = ["authenticate", "fetch_token", "unsecured_token"]
