"""Vote (52, KIP-595; `PreVote` KIP-996): served on the controller listener by the Raft driver
(`broker_embedded/raft/driver.py`), not by the broker's handler table (ControllerApis, not KafkaApis: the
broker's ApiVersions does not change). This module maps the core's dataclasses to and from Kafka 4.3.1's
VoteRequest/VoteResponse v0-2 (codecs generated into `raft/codecs`)."""

from __future__ import annotations

from typing import Any

from broker_embedded.raft import messages as raft
from broker_embedded.raft.codecs import vote_request as rq
from broker_embedded.raft.codecs import vote_response as rs
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 52


def _none(leader_id: int) -> int | None:
    return None if leader_id < 0 else leader_id


def to_wire_request(msg: raft.VoteRequest, voter_id: int, cluster_id: str | None) -> rq.VoteRequest:
    part = rq.PartitionData(
        partition_index=METADATA_PARTITION,
        replica_epoch=msg.candidate_epoch,
        replica_id=msg.candidate_id,
        last_offset_epoch=msg.last_offset_epoch,
        last_offset=msg.last_offset,
        pre_vote=msg.pre_vote,
    )
    return rq.VoteRequest(
        cluster_id=cluster_id, voter_id=voter_id, topics=[rq.TopicData(topic_name=METADATA_TOPIC, partitions=[part])]
    )


def from_wire_request(body: rq.VoteRequest, correlation_id: int) -> raft.VoteRequest:
    p = _only_partition(body.topics)
    return raft.VoteRequest(
        correlation_id, p.replica_id, p.replica_epoch, p.last_offset_epoch, p.last_offset, pre_vote=bool(p.pre_vote)
    )


def to_wire_response(msg: raft.VoteResponse) -> rs.VoteResponse:
    part = rs.PartitionData(
        partition_index=METADATA_PARTITION,
        error_code=int(msg.error),
        leader_id=-1 if msg.leader_id is None else msg.leader_id,
        leader_epoch=msg.leader_epoch,
        vote_granted=msg.vote_granted,
    )
    return rs.VoteResponse(error_code=0, topics=[rs.TopicData(topic_name=METADATA_TOPIC, partitions=[part])])


def from_wire_response(body: rs.VoteResponse, correlation_id: int, pre_vote: bool) -> raft.VoteResponse:
    """`pre_vote` is not on the wire: the answer belongs to the request the driver sent."""
    if body.error_code:
        return raft.VoteResponse(correlation_id, ErrorCode(body.error_code), None, -1, False, pre_vote)
    p = _only_partition(body.topics)
    return raft.VoteResponse(
        correlation_id, ErrorCode(p.error_code), _none(p.leader_id), p.leader_epoch, bool(p.vote_granted), pre_vote
    )


def _only_partition(topics: list[Any]) -> Any:
    """KRaft RPCs carry exactly one topic (__cluster_metadata) with one partition (0)."""
    if len(topics) != 1 or len(topics[0].partitions) != 1:
        raise ValueError("a KRaft request names exactly one partition")
    t = topics[0]
    name = getattr(t, "topic_name", None) or getattr(t, "name", None)
    if name is not None and name != METADATA_TOPIC:
        raise ValueError(f"unknown Raft topic {name!r}")
    return t.partitions[0]
