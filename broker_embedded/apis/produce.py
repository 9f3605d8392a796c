"""Produce (API 0): validate each partition's record batch and append it to the leader's log.

acks=0/1 answer after the local append; acks=all (-1) waits in a DelayedProduce until the high
watermark passes the appended batch (immediately when the ISR is this broker alone)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.delayed_produce import DelayedProduce, ProducePartitionStatus
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


def _not_leader(broker: Broker, topic: str, index: int, message: str | None = None) -> rs.PartitionProduceResponse:
    """NOT_LEADER_OR_FOLLOWER with the current leader (v10+ tagged field) when it is known."""
    r = _partition_error(index, ErrorCode.NOT_LEADER_OR_FOLLOWER, message)
    leader = broker.replica_manager.current_leader(topic, index)
    if leader is not None:
        r.current_leader = rs.LeaderIdAndEpoch(leader_id=leader[0], leader_epoch=leader[1])
    return r


def handle(broker: Broker, ctx: RequestContext, request: rq.ProduceRequest) -> Any:
    acks = request.acks
    responses: list[rs.TopicProduceResponse] = []
    pending: list[ProducePartitionStatus] = []
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
                if broker.replica_manager.current_leader(name, pdata.index) is not None:
                    # a partition of the cluster that this broker does not host
                    out.partition_responses.append(_not_leader(broker, name, pdata.index))
                    continue
                code = ErrorCode.UNKNOWN_TOPIC_ID if ctx.api_version >= 13 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                out.partition_responses.append(_partition_error(pdata.index, code))
                continue
            if pdata.records is None or len(pdata.records) == 0:
                out.partition_responses.append(
                    _partition_error(pdata.index, ErrorCode.INVALID_RECORD, "Produce request has no records")
                )
                continue
            try:
                result = partition.append_records_as_leader(pdata.records, acks)
            except KafkaError as e:
                if e.code == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                    out.partition_responses.append(_not_leader(broker, name, pdata.index, str(e)))
                else:
                    out.partition_responses.append(_partition_error(pdata.index, e.code, str(e)))
                continue
            response = rs.PartitionProduceResponse(
                index=pdata.index,
                error_code=ErrorCode.NONE,
                base_offset=result.base_offset,
                log_append_time_ms=result.log_append_time_ms,
                log_start_offset=result.log_start_offset,
            )
            out.partition_responses.append(response)
            if acks == -1:
                status = ProducePartitionStatus(
                    name, pdata.index, result.last_offset + 1, partition.leader_epoch, response
                )
                error = partition.check_enough_replicas_reach_offset(status.required_offset, status.leader_epoch)
                if error is None:
                    pending.append(status)
                elif error != ErrorCode.NONE:
                    response.error_code = error
        responses.append(out)
    if acks == 0:
        # No response to carry an error: like Kafka, close the connection so the client learns
        # that something failed (and refreshes its metadata).
        if any(p.error_code != ErrorCode.NONE for t in responses for p in t.partition_responses):
            raise RequestRejected("acks=0 produce failed for some partition: closing the connection")
        return None
    if pending:
        # acks=all: wait until the ISR has the records (a single node's ISR already has them)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[rs.ProduceResponse] = loop.create_future()

        def respond() -> rs.ProduceResponse:
            return _response(broker, responses)

        op = DelayedProduce(broker, request.timeout_ms, pending, respond, future)
        keys = [("produce", s.topic, s.partition) for s in pending]
        broker.replica_manager.produce_purgatory.try_complete_else_watch(op, keys)
        return future
    return _response(broker, responses)


def _response(broker: Broker, responses: list[rs.TopicProduceResponse]) -> rs.ProduceResponse:
    """The response, with the endpoints of leaders named in NOT_LEADER_OR_FOLLOWER answers (v10+)."""
    leaders = {
        p.current_leader.leader_id
        for t in responses
        for p in t.partition_responses
        if p.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER and p.current_leader.leader_id >= 0
    }
    endpoints = []
    for node_id in sorted(leaders):
        ep = broker.replica_manager.endpoints.get(node_id)
        if ep is not None:
            endpoints.append(rs.NodeEndpoint(node_id=ep.node_id, host=ep.host, port=ep.port, rack=ep.rack))
    return rs.ProduceResponse(responses=responses, throttle_time_ms=0, node_endpoints=endpoints)
