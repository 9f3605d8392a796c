"""FindCoordinator, OffsetCommit and OffsetFetch bodies for every version we speak (sans-IO).

Shared by `KafkaClient` (standalone commits, offset reads, `group_lag`) and the group membership
client, so the version switches (batched FindCoordinator v4+, batched OffsetFetch v8+) live once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import find_coordinator_request, offset_commit_request, offset_fetch_request
from kafka_wire.types import TopicPartition

API_OFFSET_COMMIT = 8
API_OFFSET_FETCH = 9
API_FIND_COORDINATOR = 10

GROUP_KEY = 0
TRANSACTION_KEY = 1

# Answers after which the coordinator must be looked up again (KafkaConsumer's coordinator errors)
COORDINATOR_ERRORS = frozenset(
    {ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS}
)


def find_coordinator_body(version: int, key: str, key_type: int = GROUP_KEY) -> Any:
    rq = find_coordinator_request
    if version >= 4:  # batched form (KIP-699)
        return rq.FindCoordinatorRequest(key_type=key_type, coordinator_keys=[key])
    return rq.FindCoordinatorRequest(key=key, key_type=key_type)


def find_coordinator_result(version: int, resp: Any) -> tuple[ErrorCode, int, str, int]:
    """(error, node id, host, port) of a FindCoordinator response for one key."""
    if version >= 4:
        if not resp.coordinators:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, -1, "", -1
        c = resp.coordinators[0]
        return _code(c.error_code), c.node_id, c.host, c.port
    return _code(resp.error_code), resp.node_id, resp.host, resp.port


def offset_commit_body(
    version: int,
    group_id: str,
    offsets: Mapping[TopicPartition, tuple[int, str, int]],
    generation_id: int = -1,
    member_id: str = "",
    group_instance_id: str | None = None,
) -> Any:
    """`offsets`: partition -> (next offset, metadata, leader epoch)."""
    rq = offset_commit_request
    topics: dict[str, list[Any]] = {}
    for (topic, partition), (offset, metadata, epoch) in sorted(offsets.items()):
        topics.setdefault(topic, []).append(
            rq.OffsetCommitRequestPartition(
                partition_index=partition,
                committed_offset=offset,
                committed_leader_epoch=epoch,
                committed_metadata=metadata,
            )
        )
    return rq.OffsetCommitRequest(
        group_id=group_id,
        generation_id_or_member_epoch=generation_id,
        member_id=member_id,
        group_instance_id=group_instance_id,
        topics=[rq.OffsetCommitRequestTopic(name=t, partitions=ps) for t, ps in topics.items()],
    )


def offset_commit_errors(resp: Any) -> dict[tuple[str, int], ErrorCode]:
    return {(t.name, p.partition_index): _code(p.error_code) for t in resp.topics for p in t.partitions}


def offset_fetch_body(version: int, group_id: str, partitions: Sequence[tuple[str, int]] | None) -> Any:
    """OffsetFetch of `partitions` (None: every partition the group has committed)."""
    rq = offset_fetch_request
    if partitions is None:
        topics = None
    else:
        by_topic: dict[str, list[int]] = {}
        for t, p in sorted(partitions):
            by_topic.setdefault(t, []).append(p)
    if version >= 8:
        gtopics = (
            None
            if partitions is None
            else [rq.OffsetFetchRequestTopics(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
        )
        return rq.OffsetFetchRequest(groups=[rq.OffsetFetchRequestGroup(group_id=group_id, topics=gtopics)])
    if partitions is not None:
        topics = [rq.OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()]
    return rq.OffsetFetchRequest(group_id=group_id, topics=topics)


def offset_fetch_result(resp: Any) -> tuple[ErrorCode, dict[tuple[str, int], tuple[ErrorCode, int, str, int]]]:
    """(group error, partition -> (error, next offset or -1, metadata, leader epoch))."""
    if getattr(resp, "groups", None):
        code, topics = resp.groups[0].error_code, resp.groups[0].topics
    else:
        code, topics = resp.error_code, resp.topics
    out: dict[tuple[str, int], tuple[ErrorCode, int, str, int]] = {}
    for t in topics or ():
        for p in t.partitions or ():
            out[(t.name, p.partition_index)] = (
                _code(p.error_code),
                p.committed_offset,
                p.metadata or "",
                getattr(p, "committed_leader_epoch", -1),
            )
    return _code(code), out


def _code(value: int) -> ErrorCode:
    try:
        return ErrorCode(value)
    except ValueError:
        return ErrorCode.UNKNOWN_SERVER_ERROR


__all__ = [
    "API_FIND_COORDINATOR",
    "API_OFFSET_COMMIT",
    "API_OFFSET_FETCH",
    "COORDINATOR_ERRORS",
    "find_coordinator_body",
    "find_coordinator_result",
    "offset_commit_body",
    "offset_commit_errors",
    "offset_fetch_body",
    "offset_fetch_result",
]
