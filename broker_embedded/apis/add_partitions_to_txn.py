"""AddPartitionsToTxn (API 24): partitions join a producer's transaction.

v0-3 come from producers (one transaction); v4+ are the batched broker-side form (KIP-890), where
a partition leader may only ask (`verify_only`) whether the partitions are in the transaction.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import add_partitions_to_txn_request as rq
from kafka_wire.protocol.messages import add_partitions_to_txn_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 24


def _refusals(
    ctx: RequestContext, transactional_id: str, partitions: list[tuple[str, int]]
) -> dict[tuple[str, int], ErrorCode]:
    """Kafka's checks: WRITE on the transactional id, then WRITE on each topic; when any partition is
    refused the others are OPERATION_NOT_ATTEMPTED. Empty: everything allowed."""
    if denied := authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
        return dict.fromkeys(partitions, denied)
    refused = {tp: code for tp in partitions if (code := authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, tp[0]))}
    if not refused:
        return {}
    return {tp: refused.get(tp, ErrorCode.OPERATION_NOT_ATTEMPTED) for tp in partitions}


def _topic_results(
    codes: dict[tuple[str, int], ErrorCode], fenced_code: ErrorCode
) -> list[rs.AddPartitionsToTxnTopicResult]:
    by_topic: dict[str, list[rs.AddPartitionsToTxnPartitionResult]] = {}
    for (topic, index), code in codes.items():
        if code == ErrorCode.PRODUCER_FENCED:
            code = fenced_code
        by_topic.setdefault(topic, []).append(
            rs.AddPartitionsToTxnPartitionResult(partition_index=index, partition_error_code=code)
        )
    return [rs.AddPartitionsToTxnTopicResult(name=t, results_by_partition=r) for t, r in by_topic.items()]


def handle(
    broker: Broker, ctx: RequestContext, request: rq.AddPartitionsToTxnRequest
) -> rs.AddPartitionsToTxnResponse | asyncio.Future[rs.AddPartitionsToTxnResponse]:
    coordinator = coordinator_of(broker)
    if ctx.api_version <= 3:
        partitions = [(t.name, p) for t in request.v3_and_below_topics for p in t.partitions]
        if refused := _refusals(ctx, request.v3_and_below_transactional_id, partitions):
            return rs.AddPartitionsToTxnResponse(results_by_topic_v3_and_below=_topic_results(refused, ErrorCode.NONE))
        codes = coordinator.add_partitions(
            request.v3_and_below_transactional_id,
            request.v3_and_below_producer_id,
            request.v3_and_below_producer_epoch,
            partitions,
        )
        # clients before KIP-588 know only INVALID_PRODUCER_EPOCH for a fenced producer

        def build(c: ErrorCode) -> rs.AddPartitionsToTxnResponse:
            final: dict[tuple[str, int], ErrorCode] = codes if c == ErrorCode.NONE else dict.fromkeys(codes, c)
            return rs.AddPartitionsToTxnResponse(
                results_by_topic_v3_and_below=_topic_results(final, ErrorCode.INVALID_PRODUCER_EPOCH)
            )

        if any(c != ErrorCode.NONE for c in codes.values()):
            return build(ErrorCode.NONE)
        # cluster mode: answered once the partitions' addition is replicated
        return coordinator.reply(request.v3_and_below_transactional_id, ErrorCode.NONE, build)
    results = []
    for txn in request.transactions:
        partitions = [(t.name, p) for t in txn.topics for p in t.partitions]
        codes = _refusals(ctx, txn.transactional_id, partitions) or coordinator.add_partitions(
            txn.transactional_id, txn.producer_id, txn.producer_epoch, partitions, verify_only=txn.verify_only
        )
        results.append(
            rs.AddPartitionsToTxnResult(
                transactional_id=txn.transactional_id,
                topic_results=_topic_results(codes, ErrorCode.INVALID_PRODUCER_EPOCH),
            )
        )
    return rs.AddPartitionsToTxnResponse(results_by_transaction=results)
