"""ListTransactions (API 66): the transactional ids this broker coordinates, filtered by state,
producer id and (v1, KIP-994) how long their transaction has been open."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from broker_embedded.txn.state import TransactionState
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import list_transactions_request as rq
from kafka_wire.protocol.messages import list_transactions_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 66


def handle(broker: Broker, ctx: RequestContext, request: rq.ListTransactionsRequest) -> rs.ListTransactionsResponse:
    coordinator = coordinator_of(broker)
    unknown = [s for s in request.state_filters if TransactionState.from_name(s) is None]
    wanted = {TransactionState.from_name(s) for s in request.state_filters} - {None}
    pids = set(request.producer_id_filters)
    now = time.time_ns() // 1_000_000
    duration = request.duration_filter if ctx.api_version >= 1 else -1
    out = []
    for tid, meta in sorted(coordinator.txns.items()):
        if coordinator.coordinator_error(tid) != ErrorCode.NONE:
            continue
        if authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, tid):
            continue  # only the transactions the principal may describe
        if request.state_filters and meta.state not in wanted:
            continue
        if pids and meta.producer_id not in pids:
            continue
        if duration >= 0 and (meta.txn_start_timestamp < 0 or now - meta.txn_start_timestamp < duration):
            continue
        out.append(
            rs.TransactionState(
                transactional_id=tid, producer_id=meta.producer_id, transaction_state=meta.state.display_name
            )
        )
    return rs.ListTransactionsResponse(error_code=ErrorCode.NONE, unknown_state_filters=unknown, transaction_states=out)
