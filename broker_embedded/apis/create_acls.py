"""CreateAcls (API 30): add ACL bindings (ALTER on the cluster; SECURITY_DISABLED without an authorizer)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import (
    AclBinding,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourceType,
    validate_binding,
)
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import create_acls_request as rq
from kafka_wire.protocol.messages import create_acls_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 30


def _binding(c: rq.AclCreation) -> AclBinding | str:
    try:
        return AclBinding(
            ResourceType(c.resource_type),
            c.resource_name,
            PatternType(c.resource_pattern_type),
            c.principal,
            c.host,
            AclOperation(c.operation),
            AclPermissionType(c.permission_type),
        )
    except ValueError as e:
        return str(e)


def handle(
    broker: Broker, ctx: RequestContext, request: rq.CreateAclsRequest
) -> rs.CreateAclsResponse | asyncio.Future[rs.CreateAclsResponse]:
    security = ctx.session.security if ctx.session is not None else None
    authorizer = security.authorizer if security is not None else None
    if authorizer is None:
        err, msg = ErrorCode.SECURITY_DISABLED, "No Authorizer is configured on the broker"
        return rs.CreateAclsResponse(
            results=[rs.AclCreationResult(error_code=err, error_message=msg)] * len(request.creations)
        )
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    results: list[rs.AclCreationResult] = []
    valid: list[AclBinding] = []
    for c in request.creations:
        if denied:
            results.append(rs.AclCreationResult(error_code=denied, error_message=None))
            continue
        b = _binding(c)
        why = b if isinstance(b, str) else validate_binding(b)
        if why is not None:
            results.append(rs.AclCreationResult(error_code=ErrorCode.INVALID_REQUEST, error_message=why))
            continue
        assert isinstance(b, AclBinding)
        valid.append(b)
        results.append(rs.AclCreationResult(error_code=ErrorCode.NONE, error_message=None))
    response = rs.CreateAclsResponse(results=results)
    if not valid:
        return response
    if broker.controller_client is None:
        authorizer.create(valid)
        return response
    controller = broker.controller_client

    async def on_controller() -> rs.CreateAclsResponse:
        # cluster mode: ACLs are controller metadata; the image brings them to every broker
        try:
            await controller.request("create_acls", acls=[b.to_json() for b in valid])
        except KafkaError as e:
            for r in results:
                if r.error_code == ErrorCode.NONE:
                    r.error_code, r.error_message = e.code, str(e)
        return response

    return asyncio.ensure_future(on_controller())
