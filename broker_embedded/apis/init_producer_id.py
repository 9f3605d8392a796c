"""InitProducerId (API 22): producer ids for idempotent and transactional producers.

With a transactional id the transaction coordinator (``broker_embedded.txn``) answers: a new id, or
the id's producer id with its epoch bumped, which fences any older producer of the same
transactional id (its open transaction is aborted first).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import init_producer_id_request as rq
from kafka_wire.protocol.messages import init_producer_id_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 22


def handle(
    broker: Broker, ctx: RequestContext, request: rq.InitProducerIdRequest
) -> rs.InitProducerIdResponse | asyncio.Future[rs.InitProducerIdResponse]:
    # WRITE on the transactional id; an idempotent producer: IDEMPOTENT_WRITE on the cluster or
    # WRITE on some topic (KIP-679)
    if request.transactional_id is not None:
        denied = authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    elif authorize(ctx, AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER):
        denied = authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, None)
        denied = ErrorCode.CLUSTER_AUTHORIZATION_FAILED if denied else ErrorCode.NONE
    else:
        denied = ErrorCode.NONE
    if denied:
        return rs.InitProducerIdResponse(error_code=denied, producer_id=-1, producer_epoch=-1)
    if request.transactional_id is not None:
        coordinator = coordinator_of(broker)
        code, pid, epoch = coordinator.init_producer_id(
            request.transactional_id,
            request.transaction_timeout_ms,
            request.producer_id if ctx.api_version >= 3 else -1,
            request.producer_epoch if ctx.api_version >= 3 else -1,
        )
        if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 4:
            code = ErrorCode.INVALID_PRODUCER_EPOCH  # PRODUCER_FENCED is new in v4 (KIP-588)

        def build(c: ErrorCode) -> rs.InitProducerIdResponse:
            if c != ErrorCode.NONE:
                return rs.InitProducerIdResponse(error_code=c, producer_id=-1, producer_epoch=-1)
            return rs.InitProducerIdResponse(error_code=c, producer_id=pid, producer_epoch=epoch)

        # cluster mode: answered once the new epoch is replicated (a new coordinator knows it)
        return coordinator.reply(request.transactional_id, code, build)
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
