"""The one question handlers ask: may this request's principal do `operation` on a resource?

    err = authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, topic)   # ErrorCode.NONE if allowed

With no authorizer configured everything is allowed (Kafka's default). The error is Kafka's for
the resource type: TOPIC_/GROUP_/CLUSTER_/TRANSACTIONAL_ID_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    ctx: RequestContext,
    operation: AclOperation,
    resource_type: ResourceType,
    name: str | None = CLUSTER_NAME,
    *,
    or_cluster: bool = False,
) -> ErrorCode:
    """NONE if allowed, else the resource type's AUTHORIZATION_FAILED. `name=None`: some resource of
    the type (Kafka's authorizeByResourceType); `or_cluster`: the same operation on the cluster also
    allows it (CREATE of topics)."""
    session = ctx.session
    if session is None or session.security is None or session.security.authorizer is None:
        return ErrorCode.NONE
    authorizer = session.security.authorizer
    principal, host = session.principal, session.host
    if or_cluster and authorizer.authorize(principal, host, operation, ResourceType.CLUSTER, CLUSTER_NAME):
        return ErrorCode.NONE
    if name is None:
        ok = authorizer.authorize_any(principal, host, operation, resource_type)
    else:
        ok = authorizer.authorize(principal, host, operation, resource_type, name)
    return ErrorCode.NONE if ok else DENIED.get(resource_type, ErrorCode.CLUSTER_AUTHORIZATION_FAILED)


def advertised_address(ctx: RequestContext, default: tuple[str, int]) -> tuple[str, int]:
    """This broker's address on the listener the client connected on (advertised.listeners)."""
    session = ctx.session
    if session is None or session.security is None:
        return default
    return session.security.advertised.get(session.listener_name, default)


def with_response(result: Any, amend: Callable[[Any], None]) -> Any:
    """Apply `amend` to a handler's result, whether a response or a future of one (the partitions
    refused before the replica manager saw the request join its answer)."""
    if result is None or not isinstance(result, asyncio.Future):
        if result is not None:
            amend(result)
        return result
    out: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def done(f: asyncio.Future[Any]) -> None:
        if out.done():
            return
        if f.cancelled():
            out.cancel()
        elif f.exception() is not None:
            # f.exception() is not None: checked on the line above
            out.set_exception(f.exception())  # type: ignore[arg-type]
        else:
            response = f.result()
            amend(response)
            out.set_result(response)

    result.add_done_callback(done)
    return out


def allowed(ctx: RequestContext, operation: AclOperation, resource_type: ResourceType, name: str) -> bool:
    """`authorize` as a boolean (Metadata hides what the principal may not describe)."""
    return authorize(ctx, operation, resource_type, name) == ErrorCode.NONE


__all__ = ["AclOperation", "ResourceType", "advertised_address", "allowed", "authorize", "with_response"]
