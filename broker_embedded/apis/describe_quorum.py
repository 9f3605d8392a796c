"""DescribeQuorum (55, KIP-595/KIP-853): the leader's view of the quorum, what `kafka-metadata-quorum
describe --status/--replication` prints. Served on the controller listener by the Raft driver (Kafka
answers it on the controller; a broker would forward it). Maps the core's QuorumDescription to Kafka
4.3.1's v0-2 response; a non-leader answers NOT_LEADER_OR_FOLLOWER as KafkaRaftClient does."""

from __future__ import annotations

from broker_embedded.raft.quorum import QuorumDescription, ReplicaDescription
from broker_embedded.raft.wire import METADATA_PARTITION, METADATA_TOPIC
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_quorum_request as rq
from kafka_wire.protocol.messages import describe_quorum_response as rs

RAFT_API_KEY = 55


def is_metadata_partition(body: rq.DescribeQuorumRequest) -> bool:
    return (
        len(body.topics) == 1
        and body.topics[0].topic_name == METADATA_TOPIC
        and [p.partition_index for p in body.topics[0].partitions] == [METADATA_PARTITION]
    )


def to_wire_response(
    desc: QuorumDescription | None,
    error: ErrorCode = ErrorCode.NONE,
    *,
    wall_offset_ms: int = 0,
    endpoints: dict[int, tuple[str, int]] | None = None,
    version: int = 2,
) -> rs.DescribeQuorumResponse:
    """`wall_offset_ms` turns the core's monotonic timestamps into the wall-clock ms Kafka reports.
    `endpoints` (v2's Nodes): each voter's CONTROLLER listener."""
    if desc is None or error:
        part = rs.PartitionData(
            partition_index=METADATA_PARTITION, error_code=int(error or ErrorCode.UNKNOWN_SERVER_ERROR)
        )
        part.error_message = None
        return rs.DescribeQuorumResponse(
            error_code=0, error_message=None, topics=[rs.TopicData(topic_name=METADATA_TOPIC, partitions=[part])]
        )

    def row(r: ReplicaDescription) -> rs.ReplicaState:
        def wall(t: int) -> int:
            return -1 if t < 0 else t + wall_offset_ms

        return rs.ReplicaState(
            replica_id=r.replica_id,
            log_end_offset=r.log_end_offset,
            last_fetch_timestamp=wall(r.last_fetch_timestamp),
            last_caught_up_timestamp=wall(r.last_caught_up_timestamp),
        )

    part = rs.PartitionData(
        partition_index=METADATA_PARTITION,
        error_code=0,
        error_message=None,
        leader_id=desc.leader_id,
        leader_epoch=desc.leader_epoch,
        high_watermark=desc.high_watermark,
        current_voters=[row(r) for r in desc.current_voters],
        observers=[row(r) for r in desc.observers],
    )
    nodes = [
        rs.Node(node_id=node_id, listeners=[rs.Listener(name="CONTROLLER", host=host, port=port)])
        for node_id, (host, port) in sorted((endpoints or {}).items())
    ]
    return rs.DescribeQuorumResponse(
        error_code=0,
        error_message=None,
        topics=[rs.TopicData(topic_name=METADATA_TOPIC, partitions=[part])],
        nodes=nodes if version >= 2 else [],
    )
