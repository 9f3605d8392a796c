"""DescribeTransactions (API 65): the coordinator's view of transactional ids (KIP-664)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_transactions_request as rq
from kafka_wire.protocol.messages import describe_transactions_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 65


def handle(
    broker: Broker, ctx: RequestContext, request: rq.DescribeTransactionsRequest
) -> rs.DescribeTransactionsResponse:
    coordinator = coordinator_of(broker)
    states = []
    for tid in request.transactional_ids:
        if denied := authorize(ctx, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, tid):
            states.append(
                rs.TransactionState(error_code=denied, transactional_id=tid, producer_id=-1, producer_epoch=-1)
            )
            continue
        code, meta = coordinator.describe(tid)
        if meta is None or code != ErrorCode.NONE:
            states.append(rs.TransactionState(error_code=code, transactional_id=tid, producer_id=-1, producer_epoch=-1))
            continue
        by_topic: dict[str, list[int]] = {}
        for topic, index in sorted(meta.partitions):
            by_topic.setdefault(topic, []).append(index)
        states.append(
            rs.TransactionState(
                error_code=ErrorCode.NONE,
                transactional_id=tid,
                transaction_state=meta.state.display_name,
                transaction_timeout_ms=meta.txn_timeout_ms,
                transaction_start_time_ms=meta.txn_start_timestamp,
                producer_id=meta.producer_id,
                producer_epoch=meta.producer_epoch,
                topics=[rs.TopicData(topic=t, partitions=ps) for t, ps in by_topic.items()],
            )
        )
    return rs.DescribeTransactionsResponse(transaction_states=states)
