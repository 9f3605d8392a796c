"""AddOffsetsToTxn (API 25): the group's __consumer_offsets partition joins the transaction, so
the producer's TxnOffsetCommit for that group is decided by the transaction's marker."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import add_offsets_to_txn_request as rq
from kafka_wire.protocol.messages import add_offsets_to_txn_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 25


def handle(
    broker: Broker, ctx: RequestContext, request: rq.AddOffsetsToTxnRequest
) -> rs.AddOffsetsToTxnResponse | asyncio.Future[rs.AddOffsetsToTxnResponse]:
    coordinator = coordinator_of(broker)
    denied = authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    if denied := denied or authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return rs.AddOffsetsToTxnResponse(error_code=denied)
    code = coordinator.add_offsets(
        request.transactional_id, request.producer_id, request.producer_epoch, request.group_id
    )
    if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 2:
        code = ErrorCode.INVALID_PRODUCER_EPOCH
    return coordinator.reply(request.transactional_id, code, lambda c: rs.AddOffsetsToTxnResponse(error_code=c))
