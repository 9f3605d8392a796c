"""The one question handlers ask: may this request's principal do `operation` on a resource?

    err = authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, topic)   # ErrorCode.NONE if allowed

With no authorizer configured everything is allowed (Kafka's default). The error is Kafka's for
the resource type: TOPIC_/GROUP_/CLUSTER_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.authorizer import CLUSTER_NAME, AclOperation, ResourceType
from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    from broker_embedded.network.server import RequestContext

DENIED: dict[ResourceType, ErrorCode] = {
    ResourceType.TOPIC: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    ResourceType.GROUP: ErrorCode.GROUP_AUTHORIZATION_FAILED,
    ResourceType.CLUSTER: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
    ResourceType.TRANSACTIONAL_ID: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    ResourceType.DELEGATION_TOKEN: ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED,
}


def authorize(
    ctx: RequestContext, operation: AclOperation, resource_type: ResourceType, name: str = CLUSTER_NAME
) -> ErrorCode:
    session = ctx.session
    if session is None or session.security is None or session.security.authorizer is None:
        return ErrorCode.NONE
    if session.security.authorizer.authorize(session.principal, session.host, operation, resource_type, name):
        return ErrorCode.NONE
    return DENIED.get(resource_type, ErrorCode.CLUSTER_AUTHORIZATION_FAILED)


def allowed(ctx: RequestContext, operation: AclOperation, resource_type: ResourceType, name: str) -> bool:
    """`authorize` as a boolean (Metadata hides what the principal may not describe)."""
    return authorize(ctx, operation, resource_type, name) == ErrorCode.NONE


__all__ = ["AclOperation", "ResourceType", "allowed", "authorize"]
