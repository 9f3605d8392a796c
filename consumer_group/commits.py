"""OffsetCommit / OffsetFetch of a group member, sans-IO: request bodies and what an answer means.

Shared by both protocols' drivers (`GroupMember.commit` / `committed`): a commit carries the
classic generation or the KIP-848 member epoch in the same field (generation_id_or_member_epoch).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any

from consumer_group.classic_member import COORDINATOR_ERRORS, FENCING_ERRORS, CoordinatorLost, error_code
from consumer_group.structs import Generation, GroupError, OffsetAndMetadata, TopicPartition
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import offset_commit_request, offset_fetch_request

ByTopic = dict[str, list[tuple[int, OffsetAndMetadata]]]


class CommitVerdict(enum.Enum):
    OK = "ok"
    FENCED = "fenced"  # ILLEGAL_GENERATION / UNKNOWN_MEMBER_ID / FENCED_INSTANCE_ID
    STALE_EPOCH = "stale member epoch"  # consumer protocol: the epoch moved on
    REBALANCING = "rebalancing"
    COORDINATOR = "coordinator"  # find the coordinator again and retry
    FAILED = "failed"


def offsets_by_topic(offsets: Mapping[TopicPartition, int | OffsetAndMetadata]) -> ByTopic:
    by_topic: ByTopic = {}
    for tp, value in sorted(offsets.items()):
        om = value if isinstance(value, OffsetAndMetadata) else OffsetAndMetadata(int(value))
        by_topic.setdefault(tp.topic, []).append((tp.partition, om))
    return by_topic


def commit_request(group_id: str, gen: Generation, by_topic: ByTopic) -> offset_commit_request.OffsetCommitRequest:
    rq = offset_commit_request
    return rq.OffsetCommitRequest(
        group_id=group_id,
        generation_id_or_member_epoch=gen.generation_id,
        member_id=gen.member_id,
        group_instance_id=gen.group_instance_id,
        retention_time_ms=-1,
        topics=[
            rq.OffsetCommitRequestTopic(
                name=topic,
                partitions=[
                    rq.OffsetCommitRequestPartition(
                        partition_index=p,
                        committed_offset=om.offset,
                        committed_leader_epoch=om.leader_epoch,
                        committed_metadata=om.metadata,
                    )
                    for p, om in parts
                ],
            )
            for topic, parts in by_topic.items()
        ],
    )


def commit_verdict(resp: Any) -> tuple[CommitVerdict, ErrorCode, TopicPartition | None]:
    """The answer's meaning, its deciding code and (for FAILED) the partition it names."""
    errors: dict[TopicPartition, ErrorCode] = {}
    for t in resp.topics or ():
        for p in t.partitions or ():
            if p.error_code != ErrorCode.NONE:
                errors[TopicPartition(t.name, p.partition_index)] = error_code(p.error_code)
    if not errors:
        return CommitVerdict.OK, ErrorCode.NONE, None
    codes = set(errors.values())
    if codes & FENCING_ERRORS:
        return CommitVerdict.FENCED, min(codes & FENCING_ERRORS), None
    if ErrorCode.STALE_MEMBER_EPOCH in codes:
        return CommitVerdict.STALE_EPOCH, ErrorCode.STALE_MEMBER_EPOCH, None
    if ErrorCode.REBALANCE_IN_PROGRESS in codes:
        return CommitVerdict.REBALANCING, ErrorCode.REBALANCE_IN_PROGRESS, None
    if codes & COORDINATOR_ERRORS:
        return CommitVerdict.COORDINATOR, min(codes & COORDINATOR_ERRORS), None
    tp, code = sorted(errors.items())[0]
    return CommitVerdict.FAILED, code, tp


def fetch_request(group_id: str, by_topic: dict[str, list[int]], version: int) -> Any:
    rq = offset_fetch_request
    if version >= 8:
        return rq.OffsetFetchRequest(
            groups=[
                rq.OffsetFetchRequestGroup(
                    group_id=group_id,
                    topics=[rq.OffsetFetchRequestTopics(name=t, partition_indexes=ps) for t, ps in by_topic.items()],
                )
            ],
            require_stable=True,
        )
    return rq.OffsetFetchRequest(
        group_id=group_id,
        topics=[rq.OffsetFetchRequestTopic(name=t, partition_indexes=ps) for t, ps in by_topic.items()],
        require_stable=True,
    )


def fetch_result(resp: Any) -> dict[TopicPartition, OffsetAndMetadata] | None:
    """The committed offsets (absent where none), None to retry (a pending transactional commit,
    KIP-447); raises `CoordinatorLost` or `GroupError`."""
    if resp.groups:
        group = resp.groups[0]
        top_error, topics = error_code(group.error_code), group.topics
    else:
        top_error, topics = error_code(resp.error_code), resp.topics
    if top_error in COORDINATOR_ERRORS:
        raise CoordinatorLost(top_error.name)
    if top_error == ErrorCode.UNSTABLE_OFFSET_COMMIT:
        return None
    if top_error != ErrorCode.NONE:
        raise GroupError(f"OffsetFetch failed: {top_error.name}", top_error)
    result: dict[TopicPartition, OffsetAndMetadata] = {}
    for t in topics or ():
        for p in t.partitions or ():
            code = error_code(p.error_code)
            if code == ErrorCode.UNSTABLE_OFFSET_COMMIT:
                return None
            if code in COORDINATOR_ERRORS:
                raise CoordinatorLost(code.name)
            if code not in (ErrorCode.NONE, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION):
                raise GroupError(f"OffsetFetch failed for {t.name}-{p.partition_index}: {code.name}", code)
            if code == ErrorCode.NONE and p.committed_offset >= 0:
                tp = TopicPartition(t.name, p.partition_index)
                result[tp] = OffsetAndMetadata(p.committed_offset, p.metadata or "", p.committed_leader_epoch)
    return result


__all__ = ["CommitVerdict", "commit_request", "commit_verdict", "fetch_request", "fetch_result", "offsets_by_topic"]
