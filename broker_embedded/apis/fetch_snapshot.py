"""FetchSnapshot (59, KIP-630): a replica whose fetch offset is below the leader's log start copies the
leader's snapshot in chunks. Served on the controller listener by the Raft driver; this module maps the
core's dataclasses to Kafka 4.3.1's v0-1 messages."""

from __future__ import annotations

from broker_embedded.apis.vote import _none, _only_partition
from broker_embedded.raft import messages as raft
from broker_embedded.raft.codecs import fetch_snapshot_request as rq
from broker_embedded.raft.codecs import fetch_snapshot_response as rs
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC
from kafka_wire.errors import ErrorCode

RAFT_API_KEY = 59


def to_wire_request(msg: raft.FetchSnapshotRequest, cluster_id: str | None) -> rq.FetchSnapshotRequest:
    part = rq.PartitionSnapshot(
        partition=METADATA_PARTITION,
        current_leader_epoch=msg.current_leader_epoch,
        snapshot_id=rq.SnapshotId(end_offset=msg.snapshot_id.offset, epoch=msg.snapshot_id.epoch),
        position=msg.position,
    )
    return rq.FetchSnapshotRequest(
        cluster_id=cluster_id,
        replica_id=msg.replica_id,
        max_bytes=msg.max_bytes,
        topics=[rq.TopicSnapshot(name=METADATA_TOPIC, partitions=[part])],
    )


def from_wire_request(body: rq.FetchSnapshotRequest, correlation_id: int) -> raft.FetchSnapshotRequest:
    p = _only_partition(body.topics)
    snap = raft.OffsetAndEpoch(p.snapshot_id.end_offset, p.snapshot_id.epoch)
    return raft.FetchSnapshotRequest(
        correlation_id, body.replica_id, p.current_leader_epoch, snap, p.position, body.max_bytes
    )


def to_wire_response(msg: raft.FetchSnapshotResponse) -> rs.FetchSnapshotResponse:
    snap = msg.snapshot_id or raft.OffsetAndEpoch(-1, -1)
    part = rs.PartitionSnapshot(
        index=METADATA_PARTITION,
        error_code=int(msg.error),
        snapshot_id=rs.SnapshotId(end_offset=snap.offset, epoch=snap.epoch),
        current_leader=rs.LeaderIdAndEpoch(
            leader_id=-1 if msg.leader_id is None else msg.leader_id, leader_epoch=msg.leader_epoch
        ),
        size=msg.size,
        position=msg.position,
        unaligned_records=msg.unaligned_records,
    )
    return rs.FetchSnapshotResponse(error_code=0, topics=[rs.TopicSnapshot(name=METADATA_TOPIC, partitions=[part])])


def from_wire_response(body: rs.FetchSnapshotResponse, correlation_id: int) -> raft.FetchSnapshotResponse:
    if body.error_code:
        return raft.FetchSnapshotResponse(correlation_id, ErrorCode(body.error_code), None, -1)
    p = _only_partition(body.topics)
    snap = None if p.snapshot_id.end_offset < 0 else raft.OffsetAndEpoch(p.snapshot_id.end_offset, p.snapshot_id.epoch)
    leader = p.current_leader
    return raft.FetchSnapshotResponse(
        correlation_id,
        ErrorCode(p.error_code),
        _none(leader.leader_id),
        leader.leader_epoch,
        snap,
        p.size,
        p.position,
        bytes(p.unaligned_records or b""),
    )
