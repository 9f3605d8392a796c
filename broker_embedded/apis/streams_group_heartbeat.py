"""StreamsGroupHeartbeat (API 88): join, heartbeat and leave of a streams group (KIP-1071).

The operation lives in ``broker_embedded.group.streams_coordinator``; this module converts the wire
structs and, as Kafka's KafkaApis does, creates the internal topics (repartition and changelog) the
coordinator found missing, when the member may create them (CREATE on the cluster or the topic).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from broker_embedded.features import streams_protocol_enabled
from broker_embedded.group.streams_coordinator import StreamsHeartbeatInput
from broker_embedded.group.streams_group import TasksTuple, tasks_from_record
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import streams_group_heartbeat_request as rq
from kafka_wire.protocol.messages import streams_group_heartbeat_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 88

log = logging.getLogger(__name__)

# what Apache Kafka 4.3.1 answers (warm-up tasks are not assigned by its sticky assignor)
ACCEPTABLE_RECOVERY_LAG = 0
TASK_OFFSET_INTERVAL_MS = 0


def _tasks(items: list[Any] | None) -> dict[str, frozenset[int]]:
    return tasks_from_record([{"subtopology_id": t.subtopology_id, "partitions": t.partitions} for t in items or []])


def _topic_info(info: Any) -> dict[str, Any]:
    return {
        "name": info.name,
        "partitions": info.partitions,
        "replication_factor": info.replication_factor,
        "topic_configs": [{"key": kv.key, "value": kv.value} for kv in info.topic_configs or []],
    }


def topology_value(t: rq.Topology) -> dict[str, Any]:
    """The request's topology in the layout of the StreamsGroupTopology record."""
    return {
        "epoch": t.epoch,
        "subtopologies": [
            {
                "subtopology_id": s.subtopology_id,
                "source_topics": list(s.source_topics or []),
                "source_topic_regex": list(s.source_topic_regex or []),
                "state_changelog_topics": [_topic_info(i) for i in s.state_changelog_topics or []],
                "repartition_sink_topics": list(s.repartition_sink_topics or []),
                "repartition_source_topics": [_topic_info(i) for i in s.repartition_source_topics or []],
                "copartition_groups": [
                    {
                        "source_topics": list(c.source_topics or []),
                        "source_topic_regex": list(c.source_topic_regex or []),
                        "repartition_source_topics": list(c.repartition_source_topics or []),
                    }
                    for c in s.copartition_groups or []
                ],
            }
            for s in t.subtopologies or []
        ],
    }


def _wire_tasks(tasks: dict[str, frozenset[int]]) -> list[rs.TaskIds]:
    return [rs.TaskIds(subtopology_id=s, partitions=sorted(ps)) for s, ps in sorted(tasks.items()) if ps]


def handle(broker: Broker, ctx: RequestContext, request: rq.StreamsGroupHeartbeatRequest) -> Any:
    def error(code: ErrorCode, message: str | None = None) -> rs.StreamsGroupHeartbeatResponse:
        return rs.StreamsGroupHeartbeatResponse(error_code=code, error_message=message, member_epoch=0, status=None)

    if not streams_protocol_enabled(broker):  # streams.version 0 (or "streams" not configured), before the ACLs
        return rs.StreamsGroupHeartbeatResponse(error_code=ErrorCode.UNSUPPORTED_VERSION, status=None)
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return error(denied)
    topology = topology_value(request.topology) if request.topology is not None else None
    if topology is not None:
        for s in topology["subtopologies"]:
            for topic in s["source_topics"]:
                if authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topic):
                    return error(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    owned = None
    if request.active_tasks is not None:  # Kafka: a join must send ActiveTasks (empty), not null
        owned = TasksTuple(_tasks(request.active_tasks), _tasks(request.standby_tasks), _tasks(request.warmup_tasks))
    coordinator = broker.group_coordinator
    gid = request.group_id
    if coordinator.consumer_groups.has_members(gid) or (gid in coordinator.groups and coordinator.groups[gid].members):
        return error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {gid} is not a streams group.")
    req = StreamsHeartbeatInput(
        group_id=gid,
        member_id=request.member_id,
        member_epoch=request.member_epoch,
        instance_id=request.instance_id,
        rack_id=request.rack_id,
        rebalance_timeout_ms=request.rebalance_timeout_ms,
        topology=topology,
        owned=owned,
        process_id=request.process_id,
        user_endpoint=(
            {"host": request.user_endpoint.host, "port": request.user_endpoint.port}
            if request.user_endpoint is not None
            else None
        ),
        client_tags={kv.key: kv.value for kv in request.client_tags} if request.client_tags is not None else None,
        shutdown_application=bool(request.shutdown_application),
        endpoint_information_epoch=request.endpoint_information_epoch,
        client_id=ctx.header.client_id or "",
        client_host="/" + ctx.peer.rsplit(":", 1)[0],
    )
    streams = coordinator.streams_groups
    try:
        out = streams.heartbeat(req)
    except KafkaError as e:
        log.debug("StreamsGroupHeartbeat of %s in %s: %s", request.member_id, gid, e)
        return error(e.code, str(e))
    status = [rs.Status(status_code=c, status_detail=d) for c, d in out.status]
    for name, (partitions, rf, configs) in out.topics_to_create.items():
        if authorize(ctx, AclOperation.CREATE, ResourceType.TOPIC, name, or_cluster=True):
            continue  # Kafka reports the topics it may not create in the status detail; the member waits
        _create_later(broker, name, partitions, rf, configs)
    response = rs.StreamsGroupHeartbeatResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        member_id=out.member_id,
        member_epoch=out.member_epoch,
        heartbeat_interval_ms=streams.heartbeat_interval_ms(gid) if out.member_epoch >= 0 else 0,
        acceptable_recovery_lag=ACCEPTABLE_RECOVERY_LAG,
        task_offset_interval_ms=TASK_OFFSET_INTERVAL_MS,
        status=status,
        active_tasks=_wire_tasks(out.tasks.active) if out.tasks is not None else None,
        standby_tasks=_wire_tasks(out.tasks.standby) if out.tasks is not None else None,
        warmup_tasks=_wire_tasks(out.tasks.warmup) if out.tasks is not None else None,
        endpoint_information_epoch=out.endpoint_information_epoch,
        partitions_by_user_endpoint=_endpoints(out.partitions_by_user_endpoint),
    )
    wait = coordinator.replication_wait(gid) if out.records else None
    if wait is None:
        return response
    return asyncio.ensure_future(_after_replication(wait, response))


def _endpoints(endpoints: list[Any] | None) -> list[rs.EndpointToPartitions] | None:
    if endpoints is None:
        return None

    def topic_partitions(by_topic: dict[str, list[int]]) -> list[rs.TopicPartition]:
        return [rs.TopicPartition(topic=t, partitions=ps) for t, ps in by_topic.items()]

    return [
        rs.EndpointToPartitions(
            user_endpoint=rs.Endpoint(host=host, port=port),
            active_partitions=topic_partitions(active),
            standby_partitions=topic_partitions(standby),
        )
        for host, port, active, standby in endpoints
    ]


def _create_later(broker: Broker, name: str, partitions: int, rf: int, configs: dict[str, str]) -> None:
    async def create() -> None:
        try:
            await broker.create_topic_async(name, max(partitions, 1), rf if rf > 0 else -1, dict(configs))
        except KafkaError as e:
            if e.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                log.warning("could not create internal topic %s: %s", name, e)

    asyncio.ensure_future(create())


async def _after_replication(
    wait: asyncio.Future[ErrorCode], response: rs.StreamsGroupHeartbeatResponse
) -> rs.StreamsGroupHeartbeatResponse:
    code = await wait
    if code != ErrorCode.NONE:
        return rs.StreamsGroupHeartbeatResponse(error_code=code, member_epoch=0, status=None)
    return response
