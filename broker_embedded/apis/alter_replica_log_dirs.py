"""AlterReplicaLogDirs (API 34): move replicas between the log dirs of this broker (JBOD).

Kafka's admin client sends it to the broker hosting the replicas (`kafka-reassign-partitions`
with "log_dirs" in its JSON does); each partition answers on its own, as in Kafka's
ReplicaManager.alterReplicaLogDirs: NONE once the move has started (or the replica is already
there), LOG_DIR_NOT_FOUND for a dir not in `log.dirs`, KAFKA_STORAGE_ERROR for an offline dir,
REPLICA_NOT_AVAILABLE for a replica not (yet) hosted here — its dir is remembered and used when it
is created. The copy and swap run in `broker_embedded.log.log_dirs`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from broker_embedded.log.log_dirs import LogDirs
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import alter_replica_log_dirs_request as rq
from kafka_wire.protocol.messages import alter_replica_log_dirs_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 34


def handle(
    broker: Broker, ctx: RequestContext, request: rq.AlterReplicaLogDirsRequest
) -> rs.AlterReplicaLogDirsResponse:
    # ALTER on the cluster, else every partition is refused (Kafka's KafkaApis)
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    results: dict[str, list[rs.AlterReplicaLogDirPartitionResult]] = {}
    for d in request.dirs:
        for t in d.topics:
            for p in t.partitions:
                code = denied or _alter(broker, t.name, p, d.path)
                results.setdefault(t.name, []).append(
                    rs.AlterReplicaLogDirPartitionResult(partition_index=p, error_code=code)
                )
    return rs.AlterReplicaLogDirsResponse(
        throttle_time_ms=0,
        results=[rs.AlterReplicaLogDirTopicResult(topic_name=t, partitions=ps) for t, ps in results.items()],
    )


def _alter(broker: Broker, topic: str, partition: int, path: str) -> int:
    hosted = (topic, partition) in broker.replica_manager.partitions
    dirs = broker.log_manager
    if isinstance(dirs, LogDirs):
        return dirs.alter_replica_log_dir(topic, partition, path, hosted)
    # one log dir: a replica can only stay where it is
    if Path(path).absolute() != dirs.log_dir.absolute():
        return ErrorCode.LOG_DIR_NOT_FOUND
    if not dirs.dir_state.online:
        return ErrorCode.KAFKA_STORAGE_ERROR
    return ErrorCode.NONE if hosted else ErrorCode.REPLICA_NOT_AVAILABLE
