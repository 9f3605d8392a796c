"""DescribeClientQuotas (API 48): the quota entities matching a filter (user, client-id, ip; exact,
default or any name; strict), as Kafka's ClientQuotasImage.describe; DESCRIBE_CONFIGS on the cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.quotas.store import QuotaRequestError
from broker_embedded.security.access import authorize
from broker_embedded.security.authorizer import AclOperation, ResourceType
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_client_quotas_request as rq
from kafka_wire.protocol.messages import describe_client_quotas_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 48


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DescribeClientQuotasRequest
) -> rs.DescribeClientQuotasResponse:
    denied = authorize(ctx, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER)
    if denied:
        return rs.DescribeClientQuotasResponse(error_code=denied, error_message=None, entries=None)
    try:
        found = broker.client_quotas.store.describe(
            [(c.entity_type, c.match_type, c.match) for c in request.components], bool(request.strict)
        )
    except QuotaRequestError as e:
        return rs.DescribeClientQuotasResponse(error_code=e.code, error_message=e.message, entries=None)
    return rs.DescribeClientQuotasResponse(
        error_code=ErrorCode.NONE,
        error_message=None,
        entries=[
            rs.EntryData(
                entity=[rs.EntityData(entity_type=t, entity_name=n) for t, n in entity],
                values=[rs.ValueData(key=k, value=v) for k, v in sorted(values.items())],
            )
            for entity, values in found
        ],
    )
