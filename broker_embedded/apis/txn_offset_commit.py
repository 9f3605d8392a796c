"""TxnOffsetCommit (API 28): a transactional producer commits a group's offsets inside its
transaction; they become visible when the transaction commits (``txn/offsets.py``)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from broker_embedded.group.state import OffsetAndMetadata
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import txn_offset_commit_request as rq
from kafka_wire.protocol.messages import txn_offset_commit_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 28


def handle(
    broker: Broker, ctx: RequestContext, request: rq.TxnOffsetCommitRequest
) -> rs.TxnOffsetCommitResponse | asyncio.Future[rs.TxnOffsetCommitResponse]:
    coordinator = coordinator_of(broker)
    now = time.time_ns() // 1_000_000
    offsets = {
        (t.name, p.partition_index): OffsetAndMetadata(
            p.committed_offset,
            p.committed_leader_epoch if ctx.api_version >= 2 else -1,
            p.committed_metadata or "",
            now,
        )
        for t in request.topics
        for p in t.partitions
    }
    # WRITE on the transactional id, READ on the group, READ on each topic
    denied = authorize(ctx, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id)
    denied = denied or authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id)
    refused = {tp: denied for tp in offsets} if denied else {}
    for t in request.topics:
        if not denied and (code := authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.name)):
            refused.update({(t.name, p.partition_index): code for p in t.partitions})
    for tp in offsets.keys() - refused.keys():
        # as OffsetCommit: no offsets for a topic or partition that does not exist (Kafka's KafkaApis)
        topic = broker.topics.get(tp[0])
        if topic is None or not 0 <= tp[1] < topic.num_partitions:
            refused[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    offsets = {tp: om for tp, om in offsets.items() if tp not in refused}
    codes = (
        {}
        if not offsets
        else coordinator.offsets.commit(
            coordinator,
            request.transactional_id,
            request.group_id,
            request.producer_id,
            request.producer_epoch,
            request.generation_id if ctx.api_version >= 3 else -1,
            request.member_id if ctx.api_version >= 3 else "",
            request.group_instance_id if ctx.api_version >= 3 else None,
            offsets,
        )
    )
    codes = {**codes, **refused}

    def build(replicated: ErrorCode) -> rs.TxnOffsetCommitResponse:
        by_topic: dict[str, list[rs.TxnOffsetCommitResponsePartition]] = {}
        for (topic, index), code in codes.items():
            if code == ErrorCode.NONE:
                code = replicated
            if code == ErrorCode.PRODUCER_FENCED and ctx.api_version < 3:
                code = ErrorCode.INVALID_PRODUCER_EPOCH
            by_topic.setdefault(topic, []).append(
                rs.TxnOffsetCommitResponsePartition(partition_index=index, error_code=code)
            )
        return rs.TxnOffsetCommitResponse(
            topics=[rs.TxnOffsetCommitResponseTopic(name=t, partitions=ps) for t, ps in by_topic.items()]
        )

    # cluster mode: answered once the offsets partition's ISR has the records (acks=-1, as Kafka)
    wait = (
        broker.group_coordinator.replication_wait(request.group_id)
        if any(c == ErrorCode.NONE for c in codes.values())
        else None
    )
    if wait is None:
        return build(ErrorCode.NONE)
    out: asyncio.Future[rs.TxnOffsetCommitResponse] = asyncio.get_running_loop().create_future()

    def complete(f: asyncio.Future[ErrorCode]) -> None:
        if not out.done():
            out.set_result(build(f.result()))

    wait.add_done_callback(complete)
    return out
