"""EndTxn (API 26): commit or abort the producer's transaction.

Answered once PrepareCommit/PrepareAbort is durable in __transaction_state; the markers are then
written to every partition of the transaction (and retried) by the coordinator.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import end_txn_request as rq
from kafka_wire.protocol.messages import end_txn_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 26


def handle(
    broker: Broker, ctx: RequestContext, request: rq.EndTxnRequest
) -> rs.EndTxnResponse | asyncio.Future[rs.EndTxnResponse]:
    coordinator = coordinator_of(broker)
    if denied := authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id):
        return rs.EndTxnResponse(error_code=denied)
    code, pid, epoch = coordinator.end_txn(
        request.transactional_id, request.producer_id, request.producer_epoch, request.committed
    )
    if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 2:
        code = ErrorCode.INVALID_PRODUCER_EPOCH

    def build(c: ErrorCode) -> rs.EndTxnResponse:
        if c != ErrorCode.NONE:
            return rs.EndTxnResponse(error_code=c)
        return rs.EndTxnResponse(error_code=c, producer_id=pid, producer_epoch=epoch)

    # cluster mode: answered once the decision is replicated
    return coordinator.reply(request.transactional_id, code, build)
