"""ListOffsets (API 2): earliest, latest, max timestamp, earliest local, or by timestamp.

Only the leader answers (NOT_LEADER_OR_FOLLOWER elsewhere), except for the debugging replica id -2.
A follower (replica id >= 0) gets the log end offset as "latest"; consumers the HW or LSO."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import list_offsets_request as rq
from kafka_wire.protocol.messages import list_offsets_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext
    from broker_embedded.partition import Partition

API_KEY = 2
READ_COMMITTED = 1
CONSUMER_REPLICA_ID = -1
DEBUGGING_REPLICA_ID = -2


def handle(broker: Broker, ctx: RequestContext, request: rq.ListOffsetsRequest) -> Any:
    topics = []
    rlm = broker.remote_log_manager
    remote_lookups: list[tuple[rs.ListOffsetsPartitionResponse, Partition, int, bool]] = []
    read_committed = request.isolation_level == READ_COMMITTED
    from_replica = request.replica_id != CONSUMER_REPLICA_ID
    only_leader = request.replica_id != DEBUGGING_REPLICA_ID
    for t in request.topics:
        parts = []
        if denied := authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, t.name):
            parts = [
                rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=denied)
                for p in t.partitions
            ]
            topics.append(rs.ListOffsetsTopicResponse(name=t.name, partitions=parts))
            continue
        for p in t.partitions:
            partition = broker.partition(t.name, p.partition_index)
            if partition is None and broker.replica_manager.current_leader(t.name, p.partition_index) is not None:
                # a partition of the cluster that this broker does not host
                parts.append(
                    rs.ListOffsetsPartitionResponse(
                        partition_index=p.partition_index, error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER
                    )
                )
                continue
            if partition is None:
                parts.append(
                    rs.ListOffsetsPartitionResponse(
                        partition_index=p.partition_index, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    )
                )
                continue
            try:
                partition.check_leader_epoch(p.current_leader_epoch)
                if only_leader:
                    partition.check_leader()
                # before the remote-tier branch too: an offline dir answers no offset at all
                partition.check_log_dir_online("list offsets of")
                if rlm is not None and not from_replica and rlm.needs_remote_timestamp_lookup(partition, p.timestamp):
                    # tiered storage: the first record at that time may be remote; look off the loop
                    placeholder = rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, offset=-1)
                    parts.append(placeholder)
                    remote_lookups.append((placeholder, partition, p.timestamp, read_committed))
                    continue
                found = partition.offset_for_timestamp(p.timestamp, read_committed and not from_replica, from_replica)
            except KafkaError as e:
                parts.append(rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, error_code=e.code))
                continue
            if found is None:
                # no record at or after the timestamp: Kafka answers offset -1, timestamp -1
                parts.append(rs.ListOffsetsPartitionResponse(partition_index=p.partition_index, offset=-1))
                continue
            offset, timestamp, epoch = found
            parts.append(
                rs.ListOffsetsPartitionResponse(
                    partition_index=p.partition_index,
                    error_code=ErrorCode.NONE,
                    timestamp=timestamp,
                    offset=offset,
                    leader_epoch=epoch,
                )
            )
        topics.append(rs.ListOffsetsTopicResponse(name=t.name, partitions=parts))
    response = rs.ListOffsetsResponse(throttle_time_ms=0, topics=topics)
    if remote_lookups:
        return asyncio.ensure_future(_with_remote_lookups(broker, response, remote_lookups))
    return response


async def _with_remote_lookups(
    broker: Broker,
    response: rs.ListOffsetsResponse,
    lookups: list[tuple[rs.ListOffsetsPartitionResponse, Partition, int, bool]],
) -> rs.ListOffsetsResponse:
    """Timestamp lookups in the remote tier's time indexes (reader pool, remote.fetch.max.wait.ms);
    when the remote tier has no such record, the local log answers."""
    rlm = broker.remote_log_manager
    assert rlm is not None

    async def one(out: rs.ListOffsetsPartitionResponse, partition: Partition, ts: int, committed: bool) -> None:
        try:
            found = await rlm.offset_for_timestamp_async(partition, ts)
            if found is None:
                found = partition.offset_for_timestamp(ts, committed)
        except KafkaError as e:
            out.error_code = e.code
            return
        if found is not None:
            out.offset, out.timestamp, out.leader_epoch = found

    await asyncio.gather(*(one(*lookup) for lookup in lookups))
    return response
