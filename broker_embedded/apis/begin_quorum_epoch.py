"""BeginQuorumEpoch (53, KIP-595): a new leader tells the voters its epoch. Served on the controller
listener by the Raft driver; this module maps the core's dataclasses to Kafka 4.3.1's v0-1 messages."""

from __future__ import annotations

from broker_embedded.apis.vote import _none, _only_partition
from broker_embedded.raft import messages as raft
from broker_embedded.raft.codecs import begin_quorum_epoch_request as rq
from broker_embedded.raft.codecs import begin_quorum_epoch_response as rs
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 53


def to_wire_request(
    msg: raft.BeginQuorumEpochRequest, voter_id: int, cluster_id: str | None, endpoint: tuple[str, int] | None = None
) -> rq.BeginQuorumEpochRequest:
    part = rq.PartitionData(partition_index=METADATA_PARTITION, leader_id=msg.leader_id, leader_epoch=msg.leader_epoch)
    endpoints = [rq.LeaderEndpoint(name="CONTROLLER", host=endpoint[0], port=endpoint[1])] if endpoint else []
    return rq.BeginQuorumEpochRequest(
        cluster_id=cluster_id,
        voter_id=voter_id,
        topics=[rq.TopicData(topic_name=METADATA_TOPIC, partitions=[part])],
        leader_endpoints=endpoints,
    )


def from_wire_request(body: rq.BeginQuorumEpochRequest, correlation_id: int) -> raft.BeginQuorumEpochRequest:
    p = _only_partition(body.topics)
    return raft.BeginQuorumEpochRequest(correlation_id, p.leader_id, p.leader_epoch)


def to_wire_response(msg: raft.BeginQuorumEpochResponse) -> rs.BeginQuorumEpochResponse:
    part = rs.PartitionData(
        partition_index=METADATA_PARTITION,
        error_code=int(msg.error),
        leader_id=-1 if msg.leader_id is None else msg.leader_id,
        leader_epoch=msg.leader_epoch,
    )
    return rs.BeginQuorumEpochResponse(
        error_code=0, topics=[rs.TopicData(topic_name=METADATA_TOPIC, partitions=[part])]
    )


def from_wire_response(body: rs.BeginQuorumEpochResponse, correlation_id: int) -> raft.BeginQuorumEpochResponse:
    if body.error_code:
        return raft.BeginQuorumEpochResponse(correlation_id, ErrorCode(body.error_code), None, -1)
    p = _only_partition(body.topics)
    return raft.BeginQuorumEpochResponse(correlation_id, ErrorCode(p.error_code), _none(p.leader_id), p.leader_epoch)
