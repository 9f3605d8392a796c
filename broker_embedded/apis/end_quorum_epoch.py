"""EndQuorumEpoch (54, KIP-595): a resigning leader asks the voters to elect a successor soon, its
preferred successors first. Served on the controller listener by the Raft driver; this module maps the
core's dataclasses to Kafka 4.3.1's v0-1 messages (v0: PreferredSuccessors ids, v1: PreferredCandidates)."""

from __future__ import annotations

from broker_embedded.apis.vote import _none, _only_partition
from broker_embedded.raft import messages as raft
from broker_embedded.raft.codecs import end_quorum_epoch_request as rq
from broker_embedded.raft.codecs import end_quorum_epoch_response as rs
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 54


def to_wire_request(
    msg: raft.EndQuorumEpochRequest, cluster_id: str | None, version: int = 1
) -> rq.EndQuorumEpochRequest:
    part = rq.PartitionData(partition_index=METADATA_PARTITION, leader_id=msg.leader_id, leader_epoch=msg.leader_epoch)
    if version == 0:
        part.preferred_successors = list(msg.preferred_successors)
    else:
        part.preferred_candidates = [rq.ReplicaInfo(candidate_id=c) for c in msg.preferred_successors]
    return rq.EndQuorumEpochRequest(
        cluster_id=cluster_id, topics=[rq.TopicData(topic_name=METADATA_TOPIC, partitions=[part])]
    )


def from_wire_request(body: rq.EndQuorumEpochRequest, correlation_id: int, version: int) -> raft.EndQuorumEpochRequest:
    p = _only_partition(body.topics)
    successors = p.preferred_successors if version == 0 else [c.candidate_id for c in p.preferred_candidates]
    return raft.EndQuorumEpochRequest(correlation_id, p.leader_id, p.leader_epoch, tuple(successors))


def to_wire_response(msg: raft.EndQuorumEpochResponse) -> rs.EndQuorumEpochResponse:
    part = rs.PartitionData(
        partition_index=METADATA_PARTITION,
        error_code=int(msg.error),
        leader_id=-1 if msg.leader_id is None else msg.leader_id,
        leader_epoch=msg.leader_epoch,
    )
    return rs.EndQuorumEpochResponse(error_code=0, topics=[rs.TopicData(topic_name=METADATA_TOPIC, partitions=[part])])


def from_wire_response(body: rs.EndQuorumEpochResponse, correlation_id: int) -> raft.EndQuorumEpochResponse:
    if body.error_code:
        return raft.EndQuorumEpochResponse(correlation_id, ErrorCode(body.error_code), None, -1)
    p = _only_partition(body.topics)
    return raft.EndQuorumEpochResponse(correlation_id, ErrorCode(p.error_code), _none(p.leader_id), p.leader_epoch)
