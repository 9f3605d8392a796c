"""The fetch read path: reading a Fetch request's partitions from their logs (Kafka's
ReplicaManager.readFromLog).

A consumer reads up to the high watermark (or the LSO under read_committed), a follower (replica id >= 0)
up to the leader's log end offset; a diverging last fetched epoch is answered at once (KIP-595 style).
Used by the replica manager's `fetch_messages` and by `delayed_fetch.DelayedFetch`, which re-reads
while it is parked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.partition import Partition
    from broker_embedded.replication.state import BrokerEndpoint


class ReplicaView(Protocol):
    """What a fetch reads through (the replica manager): hosted partitions, the leaders of the
    others, and the brokers' endpoints for NOT_LEADER_OR_FOLLOWER answers."""

    @property
    def endpoints(self) -> Mapping[int, BrokerEndpoint]: ...

    def partition(self, topic: str, index: int) -> Partition | None: ...

    def current_leader(self, topic: str, partition: int) -> tuple[int, int] | None: ...

    def leader_throttle(self, partition: Partition, replica_id: int) -> tuple[bool, bool]:
        """(listed, hold): leader.replication.throttled.replicas names this replica of the
        partition; and the follower is out of the ISR while the leader quota is exceeded."""
        ...

    def record_leader_throttled(self, size: int) -> None: ...


READ_COMMITTED = 1


@dataclass(slots=True)
class FetchPartitionStatus:
    topic: str
    topic_id: bytes
    request: rq.FetchPartition


@dataclass(slots=True)
class FollowerRead:
    """What a follower's fetch tells the leader about that follower (applied once per request)."""

    partition: Partition
    fetch_offset: int
    log_start_offset: int
    leader_log_end_offset: int


@dataclass
class FetchResult:
    topics: dict[tuple[str, bytes], list[rs.PartitionData]] = field(default_factory=dict)
    total_bytes: int = 0
    has_error: bool = False
    follower_reads: list[FollowerRead] = field(default_factory=list)
    leaders: set[int] = field(default_factory=set)  # named in NOT_LEADER_OR_FOLLOWER answers
    # tiered storage: (placeholder PartitionData, RemoteFetchInfo) to fill from the remote tier
    remote_fetches: list[tuple[rs.PartitionData, Any]] = field(default_factory=list)

    def to_response(
        self,
        use_ids: bool,
        extra: list[rs.FetchableTopicResponse],
        endpoints: Mapping[int, BrokerEndpoint] | None = None,
    ) -> rs.FetchResponse:
        responses = [
            rs.FetchableTopicResponse(topic="" if use_ids else name, topic_id=topic_id, partitions=parts)
            for (name, topic_id), parts in self.topics.items()
        ]
        nodes = []
        if endpoints is not None:
            for node_id in sorted(self.leaders):
                ep = endpoints.get(node_id)
                if ep is not None:
                    nodes.append(rs.NodeEndpoint(node_id=ep.node_id, host=ep.host, port=ep.port, rack=ep.rack))
        return rs.FetchResponse(
            throttle_time_ms=0,
            error_code=ErrorCode.NONE,
            session_id=0,
            responses=responses + extra,
            node_endpoints=nodes,
        )


def fetch_replica_id(request: rq.FetchRequest) -> int:
    """The fetching replica: replica_id up to v14, ReplicaState from v15 (-1 = a consumer)."""
    return max(request.replica_id, request.replica_state.replica_id)


def read_partitions(
    replicas: ReplicaView, statuses: list[FetchPartitionStatus], request: rq.FetchRequest, replica_id: int = -1
) -> FetchResult:
    result = FetchResult()
    remaining = request.max_bytes if request.max_bytes > 0 else 0x7FFFFFFF
    from_follower = replica_id >= 0
    read_committed = request.isolation_level == READ_COMMITTED and not from_follower
    for s in statuses:
        fp = s.request
        key = (s.topic, s.topic_id)
        parts = result.topics.get(key)
        if parts is None:
            parts = result.topics[key] = []
        partition = replicas.partition(s.topic, fp.partition)
        if partition is None:
            leader = replicas.current_leader(s.topic, fp.partition)
            if leader is not None:
                # a partition of the cluster that this broker does not host
                parts.append(_not_leader(fp.partition, leader, result))
            else:
                by_id = s.topic_id != b"\x00" * 16
                code = ErrorCode.UNKNOWN_TOPIC_ID if by_id else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                # error partitions still carry empty (not null) records: librdkafka rejects a null set
                parts.append(
                    rs.PartitionData(partition_index=fp.partition, error_code=code, high_watermark=-1, records=b"")
                )
            result.has_error = True
            continue
        throttled = False
        leader_leo = partition.log.log_end_offset  # before the read: the follower's caught-up mark
        try:
            partition.check_leader_epoch(fp.current_leader_epoch)
            partition.check_leader()
            if from_follower:
                if fp.last_fetched_epoch >= 0:
                    diverging = _diverging_epoch(partition, fp)
                    if diverging is not None:
                        parts.append(diverging)
                        result.has_error = True  # answer at once: the follower must truncate first
                        continue
            # replication throttle (Kafka's shouldLeaderThrottle): a catching-up follower gets no
            # records while the leader quota is exceeded
            throttled, hold = replicas.leader_throttle(partition, replica_id) if from_follower else (False, False)
            # At least one whole batch for the first partition with data, so a batch bigger
            # than the limits never stalls a consumer (KIP-74).
            data = partition.read(
                fp.fetch_offset,
                max_bytes=0 if hold else min(fp.partition_max_bytes, remaining),
                min_one_batch=result.total_bytes == 0 and not hold,
                read_committed=read_committed,
                from_follower=from_follower,
            )
        except KafkaError as e:
            if e.code == ErrorCode.NOT_LEADER_OR_FOLLOWER:
                parts.append(_not_leader(fp.partition, (partition.leader_id, partition.leader_epoch), result))
            else:
                parts.append(
                    rs.PartitionData(
                        partition_index=fp.partition,
                        error_code=e.code,
                        high_watermark=partition.high_watermark,
                        last_stable_offset=partition.last_stable_offset,
                        log_start_offset=partition.log_start_offset,
                        records=b"",
                    )
                )
            result.has_error = True
            continue
        if from_follower:
            result.follower_reads.append(FollowerRead(partition, fp.fetch_offset, fp.log_start_offset, leader_leo))
        if data.remote is not None:
            # below the local log start offset: read from the remote tier off the event loop;
            # the byte allowance is reserved so the response stays within max_bytes
            remaining = max(0, remaining - data.remote.max_bytes)
            pd = rs.PartitionData(
                partition_index=fp.partition,
                error_code=ErrorCode.NONE,
                high_watermark=data.high_watermark,
                last_stable_offset=data.last_stable_offset,
                log_start_offset=data.log_start_offset,
                aborted_transactions=[] if read_committed else None,
                preferred_read_replica=-1,
                records=b"",
            )
            parts.append(pd)
            result.remote_fetches.append((pd, data.remote))
            continue
        size = len(data.records) if data.records is not None else 0
        if throttled and size:
            replicas.record_leader_throttled(size)  # bytes of throttled replicas count against the quota
        remaining = max(0, remaining - size)
        result.total_bytes += size
        aborted = None
        if read_committed:
            # the transactions aborted within what is returned: the consumer drops their records
            aborted = [
                rs.AbortedTransaction(producer_id=a.producer_id, first_offset=a.first_offset)
                for a in (
                    partition.log.collect_aborted_transactions(fp.fetch_offset, data.last_stable_offset) if size else ()
                )
            ]
        parts.append(
            rs.PartitionData(
                partition_index=fp.partition,
                error_code=ErrorCode.NONE,
                high_watermark=data.high_watermark,
                last_stable_offset=data.last_stable_offset,
                log_start_offset=data.log_start_offset,
                aborted_transactions=aborted,
                preferred_read_replica=-1,
                records=data.records if size else b"",
            )
        )
    return result


def _not_leader(index: int, leader: tuple[int, int], result: FetchResult) -> rs.PartitionData:
    """NOT_LEADER_OR_FOLLOWER, naming the current leader (v12+ tagged field, v16+ endpoints)."""
    if leader[0] >= 0:
        result.leaders.add(leader[0])
    return rs.PartitionData(
        partition_index=index,
        error_code=ErrorCode.NOT_LEADER_OR_FOLLOWER,
        high_watermark=-1,
        current_leader=rs.LeaderIdAndEpoch(leader_id=leader[0], leader_epoch=leader[1]),
        records=b"",
    )


def _diverging_epoch(partition: Partition, fp: rq.FetchPartition) -> rs.PartitionData | None:
    """The follower's last fetched epoch ends before its fetch offset on this leader (or is
    unknown here): answer the epoch and end offset to truncate to instead of records."""
    epoch, end_offset = partition.log.end_offset_for_epoch(fp.last_fetched_epoch)
    if epoch < 0 or (epoch >= fp.last_fetched_epoch and end_offset >= fp.fetch_offset):
        return None  # consistent, or nothing known to compare with (the read checks the range)
    return rs.PartitionData(
        partition_index=fp.partition,
        error_code=ErrorCode.NONE,
        high_watermark=partition.high_watermark,
        last_stable_offset=partition.last_stable_offset,
        log_start_offset=partition.log_start_offset,
        diverging_epoch=rs.EpochEndOffset(epoch=epoch, end_offset=end_offset),
        records=b"",
    )
