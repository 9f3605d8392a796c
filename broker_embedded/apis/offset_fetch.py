"""OffsetFetch (API 9): committed offsets of one group (v1–7) or several (v8+); v10 names topics by id."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.state import OffsetAndMetadata
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.txn.coordinator import coordinator_of
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import offset_fetch_request as rq
from kafka_wire.protocol.messages import offset_fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 9


def _fetch(
    broker: Broker, group_id: str, topics: list[tuple[str, list[int]]] | None
) -> dict[str, list[tuple[int, OffsetAndMetadata | None]]]:
    wanted = None if topics is None else [(t, p) for t, parts in topics for p in parts]
    found = broker.group_coordinator.fetch_offsets(group_id, wanted)
    by_topic: dict[str, list[tuple[int, OffsetAndMetadata | None]]] = {}
    for (t, p), om in found.items():
        by_topic.setdefault(t, []).append((p, om))
    return by_topic


def _partition_result(partition_cls: Any, p: int, om: OffsetAndMetadata | None, unstable: bool) -> Any:
    if unstable:
        # KIP-447: the offset a pending transaction may still replace is not final; the client
        # retries until the transaction's marker decides it (Kafka answers the same)
        return partition_cls(
            partition_index=p,
            committed_offset=-1,
            committed_leader_epoch=-1,
            metadata="",
            error_code=ErrorCode.UNSTABLE_OFFSET_COMMIT,
        )
    return partition_cls(
        partition_index=p,
        committed_offset=om.offset if om else -1,
        committed_leader_epoch=om.leader_epoch if om else -1,
        metadata=om.metadata if om else "",
        error_code=ErrorCode.NONE,
    )


def _topic_results(
    broker: Broker,
    group_id: str,
    requested: list[Any] | None,
    require_stable: bool,
    topic_cls: Any,
    partition_cls: Any,
    by_id: bool = False,
) -> list[Any]:
    """Committed offsets as response topics (v1–7 and v8+ differ only in the class names; v10 names
    topics by id: `by_id`)."""
    unknown_ids: list[Any] = []
    if by_id and requested is not None:
        # an id this broker does not know is answered UNKNOWN_TOPIC_ID, partition by partition (Kafka)
        known = []
        for t in requested:
            meta = broker.topics.by_id.get(t.topic_id)
            if meta is None:
                unknown_ids.append(t)
            else:
                t.name = meta.name
                known.append(t)
        requested = known
    topics = None if requested is None else [(t.name, list(t.partition_indexes)) for t in requested]
    unstable = coordinator_of(broker).offsets.pending_partitions(group_id) if require_stable else set()
    results = []
    for t, parts in _fetch(broker, group_id, topics).items():
        topic_id = b""
        if by_id:
            meta = broker.topics.get(t)
            if meta is None:
                continue  # offsets of a topic that no longer exists: no id to answer them under
            topic_id = meta.topic_id
        result = topic_cls(
            name=t,
            partitions=[
                _partition_result(partition_cls, p, om, (t, p) in unstable)
                for p, om in sorted(parts, key=lambda x: x[0])
            ],
        )
        if topic_id:
            result.topic_id = topic_id
        results.append(result)
    for t in unknown_ids:
        results.append(
            topic_cls(
                name="",
                topic_id=t.topic_id,
                partitions=[
                    partition_cls(
                        partition_index=p,
                        committed_offset=-1,
                        committed_leader_epoch=-1,
                        metadata="",
                        error_code=ErrorCode.UNKNOWN_TOPIC_ID,
                    )
                    for p in t.partition_indexes
                ],
            )
        )
    return results


def handle(broker: Broker, ctx: RequestContext, request: rq.OffsetFetchRequest) -> rs.OffsetFetchResponse:
    response = _handle(broker, ctx, request)
    # topics the principal may not describe: left out of "all topics", refused when asked by name
    groups = response.groups if ctx.api_version >= 8 else [response]
    asked_all = [g.topics is None for g in request.groups] if ctx.api_version >= 8 else [request.topics is None]
    for group, everything in zip(groups, asked_all, strict=True):
        kept = []
        for t in group.topics:
            if not t.name:  # v10: an unknown topic id, already answered UNKNOWN_TOPIC_ID
                kept.append(t)
                continue
            if authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name):
                if everything:
                    continue
                for p in t.partitions:
                    p.committed_offset, p.error_code = -1, ErrorCode.TOPIC_AUTHORIZATION_FAILED
            kept.append(t)
        group.topics = kept
    return response


def _coordinator_error(broker: Broker, ctx: RequestContext) -> Callable[[str], ErrorCode]:
    def error(group_id: str) -> ErrorCode:
        # DESCRIBE on the group first, then cluster mode's NOT_COORDINATOR for another broker's group
        denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id)
        return denied or broker.group_coordinator.coordinator_error(group_id)

    return error


def _member_error(broker: Broker, group: Any) -> ErrorCode:
    """v9+: a member of a consumer group (KIP-848) fetches with its current member epoch."""
    groups: Any = broker.group_coordinator.consumer_groups
    if group.group_id in broker.group_coordinator.streams_groups.groups:
        groups = broker.group_coordinator.streams_groups  # KIP-1071: the same epoch checks
    return groups.validate_offset_request(group.group_id, group.member_id or "", group.member_epoch, commit=False)


def _handle(broker: Broker, ctx: RequestContext, request: rq.OffsetFetchRequest) -> rs.OffsetFetchResponse:
    coordinator_error = _coordinator_error(broker, ctx)
    if ctx.api_version >= 8:
        groups = [
            rs.OffsetFetchResponseGroup(
                group_id=g.group_id,
                error_code=code,
                topics=_topic_results(
                    broker,
                    g.group_id,
                    g.topics,
                    request.require_stable,
                    rs.OffsetFetchResponseTopics,
                    rs.OffsetFetchResponsePartitions,
                    by_id=ctx.api_version >= 10,
                )
                if code == ErrorCode.NONE
                else [],
            )
            for g in request.groups
            for code in [coordinator_error(g.group_id) or _member_error(broker, g)]
        ]
        return rs.OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    if (code := coordinator_error(request.group_id)) != ErrorCode.NONE:
        return rs.OffsetFetchResponse(throttle_time_ms=0, error_code=code, topics=[])
    return rs.OffsetFetchResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        topics=_topic_results(
            broker,
            request.group_id,
            request.topics,
            ctx.api_version >= 7 and request.require_stable,
            rs.OffsetFetchResponseTopic,
            rs.OffsetFetchResponsePartition,
        ),
    )
