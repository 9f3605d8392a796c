"""Produce (API 0): validate each partition's record batch and append it to the leader's log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.network.server import RequestRejected
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import produce_request as rq
from kafka_wire.protocol.messages import produce_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 0


def _partition_error(index: int, code: ErrorCode, message: str | None = None) -> rs.PartitionProduceResponse:
    return rs.PartitionProduceResponse(
        index=index,
        error_code=code,
        base_offset=-1,
        log_append_time_ms=-1,
        log_start_offset=-1,
        error_message=message,
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.ProduceRequest) -> Any:
    acks = request.acks
    responses: list[rs.TopicProduceResponse] = []
    for topic_data in request.topic_data:
        name = topic_data.name
        if ctx.api_version >= 13:
            meta = broker.topics.by_id.get(topic_data.topic_id)
            name = meta.name if meta else ""
        out = rs.TopicProduceResponse(name=topic_data.name, topic_id=topic_data.topic_id)
        for pdata in topic_data.partition_data:
            if acks not in (-1, 0, 1):
                out.partition_responses.append(_partition_error(pdata.index, ErrorCode.INVALID_REQUIRED_ACKS))
                continue
            partition = broker.partition(name, pdata.index)
            if partition is None:
                code = ErrorCode.UNKNOWN_TOPIC_ID if ctx.api_version >= 13 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                out.partition_responses.append(_partition_error(pdata.index, code))
                continue
            if pdata.records is None or len(pdata.records) == 0:
                out.partition_responses.append(
                    _partition_error(pdata.index, ErrorCode.INVALID_RECORD, "Produce request has no records")
                )
                continue
            try:
                result = partition.append_records_as_leader(pdata.records)
            except KafkaError as e:
                out.partition_responses.append(_partition_error(pdata.index, e.code, str(e)))
                continue
            out.partition_responses.append(
                rs.PartitionProduceResponse(
                    index=pdata.index,
                    error_code=ErrorCode.NONE,
                    base_offset=result.base_offset,
                    log_append_time_ms=result.log_append_time_ms,
                    log_start_offset=result.log_start_offset,
                )
            )
        responses.append(out)
    if acks == 0:
        # No response to carry an error: like Kafka, close the connection so the client learns
        # that something failed (and refreshes its metadata).
        if any(p.error_code != ErrorCode.NONE for t in responses for p in t.partition_responses):
            raise RequestRejected("acks=0 produce failed for some partition: closing the connection")
        return None
    # Single node: the ISR is this broker, so acks=all is satisfied as soon as the append is.
    return rs.ProduceResponse(responses=responses, throttle_time_ms=0)
