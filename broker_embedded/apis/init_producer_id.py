"""InitProducerId (API 22): producer ids for idempotent producers.

Transactional ids need the transaction coordinator, which this broker does not have yet: such
requests get COORDINATOR_NOT_AVAILABLE rather than a producer id that would pretend to fence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import init_producer_id_request as rq
from kafka_wire.protocol.messages import init_producer_id_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 22


def handle(broker: Broker, ctx: RequestContext, request: rq.InitProducerIdRequest) -> rs.InitProducerIdResponse:
    if request.transactional_id is not None:
        if request.transaction_timeout_ms > broker.config["transaction.max.timeout.ms"] or (
            request.transaction_timeout_ms <= 0
        ):
            return rs.InitProducerIdResponse(error_code=ErrorCode.INVALID_TRANSACTION_TIMEOUT)
        return rs.InitProducerIdResponse(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE)
    # An idempotent producer asking to bump its epoch (KIP-360) simply gets a fresh id: the
    # new id has no sequence history, which is what the bump is meant to achieve.
    try:
        producer_id = broker.producer_ids.generate()
    except KafkaError as e:  # cluster mode: no producer id block from the controller yet (retriable)
        return rs.InitProducerIdResponse(throttle_time_ms=0, error_code=e.code)
    return rs.InitProducerIdResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        producer_id=producer_id,
        producer_epoch=0,
    )
