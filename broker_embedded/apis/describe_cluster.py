"""DescribeCluster (API 60)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import advertised_address
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_cluster_request as rq
from kafka_wire.protocol.messages import describe_cluster_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 60
BROKERS_ENDPOINT = 1


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeClusterRequest) -> rs.DescribeClusterResponse:
    if ctx.api_version >= 1 and request.endpoint_type != BROKERS_ENDPOINT:
        return rs.DescribeClusterResponse(
            error_code=ErrorCode.MISMATCHED_ENDPOINT_TYPE,
            error_message=f"This endpoint serves type 1 (brokers), not {request.endpoint_type}",
            cluster_id=broker.cluster_id,
        )
    if broker.controller_client is not None and broker.controller_client.image is not None:
        live = broker.controller_client.image.live_brokers()
        return rs.DescribeClusterResponse(
            throttle_time_ms=0,
            error_code=ErrorCode.NONE,
            error_message=None,
            endpoint_type=BROKERS_ENDPOINT,
            cluster_id=broker.cluster_id,
            # the controller process is not reachable by clients: a live broker forwards admin to it
            controller_id=live[0].node_id if live else -1,
            brokers=[
                rs.DescribeClusterBroker(broker_id=b.node_id, host=host, port=port, rack=b.rack)
                for b in live
                for host, port in [b.address(ctx.session.listener_name if ctx.session is not None else None)]
            ],
            cluster_authorized_operations=-2147483648,
        )
    return rs.DescribeClusterResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        error_message=None,
        endpoint_type=BROKERS_ENDPOINT,
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        brokers=[
            rs.DescribeClusterBroker(broker_id=broker.node_id, host=host, port=port, rack=None)
            for host, port in [advertised_address(ctx, (broker.host, broker.port))]
        ],
        cluster_authorized_operations=-2147483648,
    )
