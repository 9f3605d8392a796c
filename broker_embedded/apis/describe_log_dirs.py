"""DescribeLogDirs (API 35): this broker's log dirs, with each partition's size and offset lag.

Kafka's admin client sends it to every broker it describes; each answers for its own dirs
(ReplicaManager.describeLogDirs). The dir description comes from ``LogManager.describe``, or
``LogDirs.describe_dirs`` for a broker with several ``log.dirs``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.log.log_dirs import LogDirs
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_log_dirs_request as rq
from kafka_wire.protocol.messages import describe_log_dirs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.log.manager import LogDirDescription
    from broker_embedded.network.server import RequestContext

API_KEY = 35


def handle(broker: Broker, ctx: RequestContext, request: rq.DescribeLogDirsRequest) -> rs.DescribeLogDirsResponse:
    # DESCRIBE on the cluster, else the whole answer is refused (top-level error from v3)
    denied = authorize(ctx, AclOperation.DESCRIBE, ResourceType.CLUSTER)
    if denied:
        return rs.DescribeLogDirsResponse(throttle_time_ms=0, error_code=denied, results=[])
    # null topics: every partition; an empty list: none (Kafka's DescribeLogDirsRequest semantics)
    wanted = None if request.topics is None else {t.topic: t.partitions for t in request.topics}
    dirs = broker.log_manager
    # several log.dirs (JBOD): every dir, offline ones with KAFKA_STORAGE_ERROR, future replicas flagged
    descriptions = dirs.describe_dirs(wanted) if isinstance(dirs, LogDirs) else [dirs.describe(wanted)]
    return rs.DescribeLogDirsResponse(
        throttle_time_ms=0, error_code=ErrorCode.NONE, results=[_result(d) for d in descriptions]
    )


def _result(d: LogDirDescription) -> rs.DescribeLogDirsResult:
    if d.offline_reason is not None:
        # Kafka's describeLogDirs answers an offline dir with its path and the error only: total and
        # usable bytes keep the message's default, -1 (KIP-827's "unknown")
        return rs.DescribeLogDirsResult(
            error_code=ErrorCode.KAFKA_STORAGE_ERROR, log_dir=d.path, topics=[], total_bytes=-1, usable_bytes=-1
        )
    by_topic: dict[str, list[rs.DescribeLogDirsPartition]] = {}
    for (topic, partition), (size, lag, future) in sorted(d.partitions.items()):
        by_topic.setdefault(topic, []).append(
            rs.DescribeLogDirsPartition(
                partition_index=partition, partition_size=size, offset_lag=lag, is_future_key=future
            )
        )
    return rs.DescribeLogDirsResult(
        error_code=ErrorCode.NONE,
        log_dir=d.path,
        topics=[rs.DescribeLogDirsTopic(name=t, partitions=ps) for t, ps in by_topic.items()],
        total_bytes=d.total_bytes,
        usable_bytes=d.usable_bytes,
    )
