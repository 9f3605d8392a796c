"""SaslHandshake (API 17): the client names its SASL mechanism.

v0: raw SASL tokens follow (framed by length only); v1: SaslAuthenticate requests follow. On an
authenticated connection a v1 handshake starts re-authentication (KIP-368).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import sasl_handshake_request as rq
from kafka_wire.protocol.messages import sasl_handshake_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 17


def handle(broker: Broker, ctx: RequestContext, request: rq.SaslHandshakeRequest) -> rs.SaslHandshakeResponse:
    auth = ctx.session.authenticator if ctx.session is not None else None
    if auth is None:
        # not a SASL listener: nothing to authenticate (Kafka answers ILLEGAL_SASL_STATE)
        return rs.SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])
    mechanisms = list(auth.config.mechanisms)
    if auth.state == auth.AUTHENTICATE:
        return rs.SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=mechanisms)
    if request.mechanism not in mechanisms:
        return rs.SaslHandshakeResponse(error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=mechanisms)
    if not auth.handshake(request.mechanism, ctx.api_version):
        # re-authentication needs v1 and the same mechanism
        return rs.SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=mechanisms)
    return rs.SaslHandshakeResponse(error_code=ErrorCode.NONE, mechanisms=mechanisms)
