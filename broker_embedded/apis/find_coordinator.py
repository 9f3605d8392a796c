"""FindCoordinator (API 10): this broker coordinates every group. Transaction coordinators do not
exist yet, so key type 1 gets COORDINATOR_NOT_AVAILABLE."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import find_coordinator_request as rq
from kafka_wire.protocol.messages import find_coordinator_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 10
GROUP_KEY_TYPE = 0


def _lookup(broker: Broker, key: str, key_type: int) -> tuple[ErrorCode, str | None]:
    if key_type != GROUP_KEY_TYPE:
        return (
            ErrorCode.COORDINATOR_NOT_AVAILABLE,
            "transaction coordinators are not available on this broker",
        )
    if not key:
        return ErrorCode.INVALID_REQUEST, "group id is empty"
    try:
        broker.group_coordinator.ensure_offsets_topic()
    except KafkaError as e:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, str(e)
    return ErrorCode.NONE, None


def handle(broker: Broker, ctx: RequestContext, request: rq.FindCoordinatorRequest) -> rs.FindCoordinatorResponse:
    if ctx.api_version >= 4:
        coordinators = []
        for key in request.coordinator_keys:
            code, message = _lookup(broker, key, request.key_type)
            ok = code == ErrorCode.NONE
            coordinators.append(
                rs.Coordinator(
                    key=key,
                    node_id=broker.node_id if ok else -1,
                    host=broker.host if ok else "",
                    port=broker.port if ok else -1,
                    error_code=code,
                    error_message=message,
                )
            )
        return rs.FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
    code, message = _lookup(broker, request.key, request.key_type)
    ok = code == ErrorCode.NONE
    return rs.FindCoordinatorResponse(
        throttle_time_ms=0,
        error_code=code,
        error_message=message,
        node_id=broker.node_id if ok else -1,
        host=broker.host if ok else "",
        port=broker.port if ok else -1,
    )
