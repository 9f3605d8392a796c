"""SaslAuthenticate (API 36): one SASL token exchange after a v1 SaslHandshake.

A refused credential answers SASL_AUTHENTICATION_FAILED and the network server then closes the
connection. v1+ carries the session lifetime (KIP-368, `connections.max.reauth.ms`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.sasl import AuthenticationFailed, IllegalSaslState
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import sasl_authenticate_request as rq
from kafka_wire.protocol.messages import sasl_authenticate_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 36


def handle(broker: Broker, ctx: RequestContext, request: rq.SaslAuthenticateRequest) -> rs.SaslAuthenticateResponse:
    session = ctx.session
    auth = session.authenticator if session is not None else None
    if auth is None or session is None:
        return rs.SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE,
            error_message="SaslAuthenticate on a listener without SASL",
            auth_bytes=b"",
        )
    if auth.raw_tokens:
        return rs.SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE,
            error_message="SaslAuthenticate after a v0 SaslHandshake",
            auth_bytes=b"",
        )
    try:
        challenge, lifetime_ms = auth.authenticate(bytes(request.auth_bytes))
    except IllegalSaslState as e:
        return rs.SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE, error_message=str(e), auth_bytes=b""
        )
    except AuthenticationFailed as e:
        return rs.SaslAuthenticateResponse(
            error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=str(e), auth_bytes=b""
        )
    if auth.principal is not None:
        session.principal = auth.principal
    return rs.SaslAuthenticateResponse(
        error_code=ErrorCode.NONE, error_message=None, auth_bytes=challenge, session_lifetime_ms=lifetime_ms
    )
