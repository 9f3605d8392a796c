"""OffsetFetch (API 9): committed offsets of one group (v1–7) or several (v8+)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.group.state import OffsetAndMetadata
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


def _topic_results(
    broker: Broker, group_id: str, requested: list[Any] | None, topic_cls: Any, partition_cls: Any
) -> list[Any]:
    """Committed offsets as response topics (v1–7 and v8+ differ only in the class names)."""
    topics = None if requested is None else [(t.name, list(t.partition_indexes)) for t in requested]
    return [
        topic_cls(
            name=t,
            partitions=[
                partition_cls(
                    partition_index=p,
                    committed_offset=om.offset if om else -1,
                    committed_leader_epoch=om.leader_epoch if om else -1,
                    metadata=om.metadata if om else "",
                    error_code=ErrorCode.NONE,
                )
                for p, om in sorted(parts, key=lambda x: x[0])
            ],
        )
        for t, parts in _fetch(broker, group_id, topics).items()
    ]


def handle(broker: Broker, ctx: RequestContext, request: rq.OffsetFetchRequest) -> rs.OffsetFetchResponse:
    coordinator_error = broker.group_coordinator.coordinator_error  # cluster mode: NOT_COORDINATOR elsewhere
    if ctx.api_version >= 8:
        groups = [
            rs.OffsetFetchResponseGroup(
                group_id=g.group_id,
                error_code=code,
                topics=_topic_results(
                    broker, g.group_id, g.topics, rs.OffsetFetchResponseTopics, rs.OffsetFetchResponsePartitions
                )
                if code == ErrorCode.NONE
                else [],
            )
            for g in request.groups
            for code in [coordinator_error(g.group_id)]
        ]
        return rs.OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    if (code := coordinator_error(request.group_id)) != ErrorCode.NONE:
        return rs.OffsetFetchResponse(throttle_time_ms=0, error_code=code, topics=[])
    return rs.OffsetFetchResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        topics=_topic_results(
            broker, request.group_id, request.topics, rs.OffsetFetchResponseTopic, rs.OffsetFetchResponsePartition
        ),
    )
