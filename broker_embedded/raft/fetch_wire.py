"""Fetch (1) as KRaft speaks it (KIP-595, KIP-630): a replica fetches `__cluster_metadata` partition 0 by
topic id, naming itself in ReplicaState (v15+) and its last fetched epoch; the answer carries the high
watermark, the leader (CurrentLeader), a DivergingEpoch to truncate to, or the SnapshotId to fetch first.
Maps the core's FetchRequest/FetchResponse to Kafka 4.3.1's v18 messages (v18 adds the fetcher's HighWatermark,
KIP-1166)."""

from __future__ import annotations

from typing import Any

from broker_embedded.raft import messages as raft
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC_ID, decode_entries, encode_entries
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs

NO_HIGH_WATERMARK = (1 << 63) - 1  # Fetch v18's HighWatermark default (Long.MAX_VALUE): not sent


def to_wire_request(msg: raft.FetchRequest, cluster_id: str | None, max_wait_ms: int) -> rq.FetchRequest:
    part = rq.FetchPartition(
        partition=METADATA_PARTITION,
        current_leader_epoch=msg.current_leader_epoch,
        fetch_offset=msg.fetch_offset,
        last_fetched_epoch=msg.last_fetched_epoch,
        partition_max_bytes=1 << 20,
        high_watermark=NO_HIGH_WATERMARK if msg.high_watermark is None else msg.high_watermark,  # v18, KIP-1166
    )
    return rq.FetchRequest(
        cluster_id=cluster_id,
        replica_state=rq.ReplicaState(replica_id=msg.replica_id, replica_epoch=-1),
        max_wait_ms=max_wait_ms,
        min_bytes=0,
        topics=[rq.FetchTopic(topic_id=METADATA_TOPIC_ID, partitions=[part])],
    )


def from_wire_request(body: rq.FetchRequest, correlation_id: int, max_records: int) -> raft.FetchRequest:
    p = _only_partition(body.topics)
    replica_id = body.replica_state.replica_id if body.replica_state.replica_id >= 0 else body.replica_id
    hw = None if p.high_watermark == NO_HIGH_WATERMARK else p.high_watermark
    return raft.FetchRequest(
        correlation_id, replica_id, p.current_leader_epoch, p.fetch_offset, p.last_fetched_epoch, max_records, hw
    )


def to_wire_response(msg: raft.FetchResponse) -> rs.FetchResponse:
    part = rs.PartitionData(
        partition_index=METADATA_PARTITION,
        error_code=int(msg.error),
        high_watermark=msg.high_watermark,
        log_start_offset=msg.log_start_offset,
        current_leader=rs.LeaderIdAndEpoch(
            leader_id=-1 if msg.leader_id is None else msg.leader_id, leader_epoch=msg.leader_epoch
        ),
        records=encode_entries(msg.records),
    )
    if msg.diverging_epoch is not None:
        part.diverging_epoch = rs.EpochEndOffset(epoch=msg.diverging_epoch.epoch, end_offset=msg.diverging_epoch.offset)
    if msg.snapshot_id is not None:
        part.snapshot_id = rs.SnapshotId(end_offset=msg.snapshot_id.offset, epoch=msg.snapshot_id.epoch)
    return rs.FetchResponse(
        error_code=0, responses=[rs.FetchableTopicResponse(topic_id=METADATA_TOPIC_ID, partitions=[part])]
    )


def from_wire_response(body: rs.FetchResponse, correlation_id: int) -> raft.FetchResponse:
    if body.error_code:
        return raft.FetchResponse(correlation_id, ErrorCode(body.error_code), None, -1)
    p = _only_partition(body.responses)
    leader = p.current_leader or rs.LeaderIdAndEpoch()
    div = p.diverging_epoch
    snap = p.snapshot_id
    return raft.FetchResponse(
        correlation_id,
        ErrorCode(p.error_code),
        None if leader.leader_id < 0 else leader.leader_id,
        leader.leader_epoch,
        high_watermark=p.high_watermark,
        log_start_offset=p.log_start_offset,
        records=decode_entries(p.records),
        diverging_epoch=None if div is None or div.epoch < 0 else raft.OffsetAndEpoch(div.end_offset, div.epoch),
        snapshot_id=None if snap is None or snap.end_offset < 0 else raft.OffsetAndEpoch(snap.end_offset, snap.epoch),
    )


def _only_partition(topics: list[Any]) -> Any:
    if len(topics) != 1 or len(topics[0].partitions) != 1 or bytes(topics[0].topic_id) != METADATA_TOPIC_ID:
        raise ValueError("a KRaft fetch names __cluster_metadata partition 0 by its topic id")
    return topics[0].partitions[0]
