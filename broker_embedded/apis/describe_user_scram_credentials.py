"""DescribeUserScramCredentials (API 50): each user's SCRAM mechanisms and iterations, never keys."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import AclOperation, ResourceType
from broker_embedded.security.scram import MECHANISMS
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_user_scram_credentials_request as rq
from kafka_wire.protocol.messages import describe_user_scram_credentials_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 50


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DescribeUserScramCredentialsRequest
) -> rs.DescribeUserScramCredentialsResponse:
    security = ctx.session.security if ctx.session is not None else None
    denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER)
    if denied or security is None:
        return rs.DescribeUserScramCredentialsResponse(
            error_code=denied or ErrorCode.UNKNOWN_SERVER_ERROR, error_message=None
        )
    store = security.scram
    names = [u.name for u in request.users] if request.users else sorted(store.users)
    counts = Counter(names)
    results: list[rs.DescribeUserScramCredentialsResult] = []
    for name in dict.fromkeys(names):
        creds = store.users.get(name)
        infos: list[rs.CredentialInfo]
        if counts[name] > 1:
            err, msg, infos = (
                ErrorCode.DUPLICATE_RESOURCE,
                "Cannot describe SCRAM credentials for the same user twice",
                [],
            )
        elif not creds:
            err, msg, infos = (
                ErrorCode.RESOURCE_NOT_FOUND,
                "Attempt to describe a user credential that does not exist",
                [],
            )
        else:
            err, msg = ErrorCode.NONE, None
            infos = [
                rs.CredentialInfo(mechanism=MECHANISMS[m], iterations=c.iterations) for m, c in sorted(creds.items())
            ]
        results.append(
            rs.DescribeUserScramCredentialsResult(user=name, error_code=err, error_message=msg, credential_infos=infos)
        )
    return rs.DescribeUserScramCredentialsResponse(error_code=ErrorCode.NONE, error_message=None, results=results)
