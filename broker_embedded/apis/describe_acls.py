"""DescribeAcls (API 29): the ACL bindings matching a filter (DESCRIBE on the cluster)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import (
    AclBinding,
    AclFilter,
    AclOperation,
    AclPermissionType,
    PatternType,
    ResourceType,
)
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_acls_request as rq
from kafka_wire.protocol.messages import describe_acls_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 29


def acl_filter(f: rq.DescribeAclsRequest) -> AclFilter:
    """A DescribeAcls request or a DeleteAcls filter (same fields) as a filter; ValueError if unknown enums."""
    return AclFilter(
        ResourceType(f.resource_type_filter),
        f.resource_name_filter,
        PatternType(f.pattern_type_filter),
        f.principal_filter,
        f.host_filter,
        AclOperation(f.operation),
        AclPermissionType(f.permission_type),
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeAclsRequest) -> rs.DescribeAclsResponse:
    security = ctx.session.security if ctx.session is not None else None
    authorizer = security.authorizer if security is not None else None
    if authorizer is None:
        return rs.DescribeAclsResponse(
            error_code=ErrorCode.SECURITY_DISABLED, error_message="No Authorizer is configured on the broker"
        )
    denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER)
    if denied:
        return rs.DescribeAclsResponse(error_code=denied, error_message=None)
    try:
        f = acl_filter(request)
    except ValueError as e:
        return rs.DescribeAclsResponse(error_code=ErrorCode.INVALID_REQUEST, error_message=str(e))
    groups: dict[tuple[int, str, int], list[AclBinding]] = {}
    for b in authorizer.describe(f):
        groups.setdefault((b.resource_type, b.resource_name, b.pattern_type), []).append(b)
    resources = [
        rs.DescribeAclsResource(
            resource_type=rt,
            resource_name=name,
            pattern_type=pt,
            acls=[
                rs.AclDescription(
                    principal=b.principal, host=b.host, operation=b.operation, permission_type=b.permission
                )
                for b in bindings
            ],
        )
        for (rt, name, pt), bindings in groups.items()
    ]
    return rs.DescribeAclsResponse(error_code=ErrorCode.NONE, error_message=None, resources=resources)
