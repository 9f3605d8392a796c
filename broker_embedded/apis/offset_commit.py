"""OffsetCommit (API 8): generation- and member-fenced commits, durable in __consumer_offsets; v10
names topics by id."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from broker_embedded.group.state import OffsetAndMetadata
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import offset_commit_request as rq
from kafka_wire.protocol.messages import offset_commit_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 8
_STALE = (ErrorCode.STALE_MEMBER_EPOCH, ErrorCode.ILLEGAL_GENERATION)


def handle(broker: Broker, ctx: RequestContext, request: rq.OffsetCommitRequest) -> Any:
    now = time.time_ns() // 1_000_000
    if ctx.api_version >= 10:
        # v10 names topics by id only (KIP-848): resolved here, as Kafka's KafkaApis does; a topic whose
        # id is unknown keeps the empty name and is answered UNKNOWN_TOPIC_ID
        for t in request.topics:
            meta = broker.topics.by_id.get(t.topic_id)
            t.name = meta.name if meta is not None else ""
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _response({(t.name, p.partition_index): denied for t in request.topics for p in t.partitions}, request)
    offsets: dict[tuple[str, int], OffsetAndMetadata] = {}
    unknown: set[tuple[str, int]] = set()
    refused: dict[tuple[str, int], ErrorCode] = {}
    for t in request.topics:
        if not t.name:  # only v10 leaves a topic unnamed (an unknown id)
            refused.update({(t.name, p.partition_index): ErrorCode.UNKNOWN_TOPIC_ID for p in t.partitions})
            continue
        if topic_denied := authorize(ctx, AclOperation.READ, ResourceType.TOPIC, t.name):
            refused.update({(t.name, p.partition_index): topic_denied for p in t.partitions})
            continue
        for p in t.partitions:
            tp = (t.name, p.partition_index)
            topic = broker.topics.get(t.name)
            if topic is None or not 0 <= p.partition_index < topic.num_partitions:
                unknown.add(tp)
                continue
            offsets[tp] = OffsetAndMetadata(
                p.committed_offset, p.committed_leader_epoch, p.committed_metadata or "", now
            )
    instance_id = request.group_instance_id if ctx.api_version >= 7 else None
    generation, member_id = request.generation_id_or_member_epoch, request.member_id or ""
    consumer_groups: Any = broker.group_coordinator.consumer_groups
    if request.group_id in broker.group_coordinator.streams_groups.groups:
        consumer_groups = broker.group_coordinator.streams_groups  # KIP-1071: the same epoch checks
    member_error = ErrorCode.NONE
    per_partition: dict[tuple[str, int], ErrorCode] | None = None
    if request.group_id in consumer_groups.groups:
        # a consumer group (KIP-848): the member's epoch fences the commit (v9+ carries it); the
        # offsets themselves are stored as for any group, outside the classic membership checks
        member_error = consumer_groups.validate_offset_request(request.group_id, member_id, generation, commit=True)
        if member_error == ErrorCode.NONE and member_id and ctx.api_version < 9:
            member_error = ErrorCode.UNSUPPORTED_VERSION
        judge = getattr(consumer_groups, "commit_partition_errors", None)  # consumer groups (KIP-1251)
        if member_error in _STALE and ctx.api_version >= 9 and judge is not None:
            per_partition = judge(request.group_id, member_id, generation, offsets)
        generation, member_id, instance_id = -1, "", None
    codes: dict[tuple[str, int], ErrorCode]
    try:
        if per_partition is not None and all(code == ErrorCode.NONE for code in per_partition.values()):
            # every partition held since the commit's epoch: taken. One that is not fails the whole
            # request (Kafka's validator throws out of the per-partition loop, nothing is written)
            codes = broker.group_coordinator.commit_offsets(request.group_id, -1, "", None, offsets)
        elif member_error != ErrorCode.NONE:
            codes = dict.fromkeys(offsets, member_error)
        else:
            codes = broker.group_coordinator.commit_offsets(
                request.group_id, generation, member_id, instance_id, offsets
            )
    except KafkaError as e:
        codes = dict.fromkeys(offsets, e.code)
    for tp in unknown:
        codes[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    codes.update(refused)
    if any(c == ErrorCode.NONE for c in codes.values()):
        # cluster mode: answered once the commit is replicated to the offsets partition's ISR
        wait = broker.group_coordinator.replication_wait(request.group_id)
        if wait is not None:
            return asyncio.ensure_future(_after_replication(wait, codes, request))
    return _response(codes, request)


async def _after_replication(
    wait: asyncio.Future[ErrorCode], codes: dict[tuple[str, int], ErrorCode], request: rq.OffsetCommitRequest
) -> rs.OffsetCommitResponse:
    code = await wait
    if code != ErrorCode.NONE:
        codes = {tp: (code if c == ErrorCode.NONE else c) for tp, c in codes.items()}
    return _response(codes, request)


def _response(codes: dict[tuple[str, int], ErrorCode], request: rq.OffsetCommitRequest) -> rs.OffsetCommitResponse:
    return rs.OffsetCommitResponse(
        throttle_time_ms=0,
        topics=[
            rs.OffsetCommitResponseTopic(
                name=t.name,
                topic_id=t.topic_id,  # v10 answers by id (the encoder writes the one the version has)
                partitions=[
                    rs.OffsetCommitResponsePartition(
                        partition_index=p.partition_index, error_code=codes[(t.name, p.partition_index)]
                    )
                    for p in t.partitions
                ],
            )
            for t in request.topics
        ],
    )
