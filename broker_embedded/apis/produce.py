"""Produce (API 0): the replica manager validates each partition's record batch and appends it to
the leader's log (`ReplicaManager.append_records`: acks, DelayedProduce for acks=all).

Authorization first, as Kafka's KafkaApis: WRITE on the transactional id (if any) and on each
topic; refused topics never reach the replica manager and join its answer with their error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.network.server import RequestRejected
from broker_embedded.quotas.enforce import throttle_produce
from broker_embedded.security.access import AclOperation, ResourceType, authorize, with_response
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import produce_request as rq
from kafka_wire.protocol.messages import produce_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 0


def handle(broker: Broker, ctx: RequestContext, request: rq.ProduceRequest) -> Any:
    # producer_byte_rate: throttle_time_ms and a muted connection once the answer is ready
    return throttle_produce(broker.client_quotas, ctx, _produce(broker, ctx, request))


def _produce(broker: Broker, ctx: RequestContext, request: rq.ProduceRequest) -> Any:
    txn_denied = ErrorCode.NONE
    if request.transactional_id is not None:
        txn_denied = authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    allowed: list[rq.TopicProduceData] = []
    refused: list[rs.TopicProduceResponse] = []
    for t in request.topic_data:
        name = t.name
        if ctx.api_version >= 13:
            meta = broker.topics.by_id.get(t.topic_id)
            name = meta.name if meta is not None else None
        code = txn_denied or (authorize(ctx, AclOperation.WRITE, ResourceType.TOPIC, name) if name else ErrorCode.NONE)
        if code == ErrorCode.NONE:
            allowed.append(t)
            continue
        refused.append(
            rs.TopicProduceResponse(
                name=t.name,
                topic_id=t.topic_id,
                partition_responses=[
                    rs.PartitionProduceResponse(
                        index=p.index, error_code=code, base_offset=-1, log_append_time_ms=-1, log_start_offset=-1
                    )
                    for p in t.partition_data
                ],
            )
        )
    if not refused:
        return broker.replica_manager.append_records(request, ctx.api_version)
    if request.acks == 0:
        # no response to carry the error: close, as Kafka does for a failed acks=0 produce
        raise RequestRejected("acks=0 produce to a topic the principal may not write")
    request.topic_data = allowed
    result = broker.replica_manager.append_records(request, ctx.api_version)
    return with_response(result, lambda response: response.responses.extend(refused))
