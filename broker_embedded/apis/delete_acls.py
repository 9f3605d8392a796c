"""DeleteAcls (API 31): remove the ACL bindings matching each filter (ALTER on the cluster)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.apis.describe_acls import acl_filter
from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import AclBinding, AclFilter, AclOperation, ResourceType, acl_filter_to_json
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import delete_acls_request as rq
from kafka_wire.protocol.messages import delete_acls_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 31


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DeleteAclsRequest
) -> rs.DeleteAclsResponse | asyncio.Future[rs.DeleteAclsResponse]:
    security = ctx.session.security if ctx.session is not None else None
    authorizer = security.authorizer if security is not None else None
    if authorizer is None:
        err, msg = ErrorCode.SECURITY_DISABLED, "No Authorizer is configured on the broker"
        return rs.DeleteAclsResponse(
            filter_results=[rs.DeleteAclsFilterResult(error_code=err, error_message=msg)] * len(request.filters)
        )
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    results: list[rs.DeleteAclsFilterResult] = []
    filters: list[tuple[rs.DeleteAclsFilterResult, AclFilter]] = []
    for raw in request.filters:
        if denied:
            results.append(rs.DeleteAclsFilterResult(error_code=denied, error_message=None))
            continue
        try:
            f = acl_filter(raw)
        except ValueError as e:
            results.append(rs.DeleteAclsFilterResult(error_code=ErrorCode.INVALID_REQUEST, error_message=str(e)))
            continue
        result = rs.DeleteAclsFilterResult(error_code=ErrorCode.NONE, error_message=None, matching_acls=[])
        results.append(result)
        filters.append((result, f))
    response = rs.DeleteAclsResponse(filter_results=results)
    if broker.controller_client is None or not filters:
        for result, f in filters:
            result.matching_acls = [_matching(b) for b in authorizer.delete(f)]
        return response
    controller = broker.controller_client

    async def on_controller() -> rs.DeleteAclsResponse:
        # cluster mode: the controller deletes; the image brings the change to every broker
        try:
            reply = await controller.request("delete_acls", filters=[acl_filter_to_json(f) for _, f in filters])
        except KafkaError as e:
            for result, _ in filters:
                result.error_code, result.error_message = e.code, str(e)
            return response
        for (result, _), deleted in zip(filters, reply["deleted"], strict=True):
            result.matching_acls = [_matching(AclBinding.from_json(b)) for b in deleted]
        return response

    return asyncio.ensure_future(on_controller())


def _matching(b: AclBinding) -> rs.DeleteAclsMatchingAcl:
    return rs.DeleteAclsMatchingAcl(
        error_code=ErrorCode.NONE,
        error_message=None,
        resource_type=b.resource_type,
        resource_name=b.resource_name,
        pattern_type=b.pattern_type,
        principal=b.principal,
        host=b.host,
        operation=b.operation,
        permission_type=b.permission,
    )
