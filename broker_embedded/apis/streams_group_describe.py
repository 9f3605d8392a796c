"""StreamsGroupDescribe (API 89): epochs, the configured topology, members and their assignments (KIP-1071)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.features import streams_protocol_enabled
from broker_embedded.group.streams_group import StreamsGroup, TasksTuple, configure_topology
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import streams_group_describe_request as rq
from kafka_wire.protocol.messages import streams_group_describe_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 89


def _assignment(t: TasksTuple) -> rs.Assignment:
    def ids(tasks: dict[str, frozenset[int]]) -> list[rs.TaskIds]:
        return [rs.TaskIds(subtopology_id=s, partitions=sorted(ps)) for s, ps in sorted(tasks.items()) if ps]

    return rs.Assignment(active_tasks=ids(t.active), standby_tasks=ids(t.standby), warmup_tasks=ids(t.warmup))


def _topology(broker: Broker, group: StreamsGroup) -> rs.Topology | None:
    if group.topology is None:
        return None
    counts = {}
    for s in group.topology["subtopologies"]:
        for n in [
            *s["source_topics"],
            *(i["name"] for i in s["repartition_source_topics"] + s["state_changelog_topics"]),
        ]:
            topic = broker.topics.get(n)
            if topic is not None:
                counts[n] = topic.num_partitions
    configured = configure_topology(group.topology, counts)
    # ready: the partition counts as configured; otherwise the topology as registered (Kafka 4.3.1)
    fixed: dict[str, dict[str, int]] = {}
    for c in configured.subtopologies or []:
        fixed[c.subtopology_id] = {**c.repartition_source_topics, **c.state_changelog_topics}

    def infos(sub_id: str, items: list[dict]) -> list[rs.TopicInfo]:
        return [
            rs.TopicInfo(
                name=i["name"],
                partitions=fixed.get(sub_id, {}).get(i["name"], i["partitions"]),
                replication_factor=i["replication_factor"],
                topic_configs=[rs.KeyValue(key=kv["key"], value=kv["value"]) for kv in i["topic_configs"]],
            )
            for i in items
        ]

    subtopologies = [
        rs.Subtopology(
            subtopology_id=s["subtopology_id"],
            source_topics=s["source_topics"],
            repartition_sink_topics=s["repartition_sink_topics"],
            state_changelog_topics=infos(s["subtopology_id"], s["state_changelog_topics"]),
            repartition_source_topics=infos(s["subtopology_id"], s["repartition_source_topics"]),
        )
        for s in sorted(group.topology["subtopologies"], key=lambda x: x["subtopology_id"])
    ]
    return rs.Topology(epoch=group.topology_epoch, subtopologies=subtopologies)


def handle(
    broker: Broker, ctx: RequestContext, request: rq.StreamsGroupDescribeRequest
) -> rs.StreamsGroupDescribeResponse:
    if not streams_protocol_enabled(broker):  # streams.version 0: every group UNSUPPORTED_VERSION, as Kafka answers
        return rs.StreamsGroupDescribeResponse(
            groups=[rs.DescribedGroup(group_id=g, error_code=ErrorCode.UNSUPPORTED_VERSION) for g in request.group_ids]
        )
    coordinator = broker.group_coordinator
    out = []
    for group_id in request.group_ids or []:
        code = authorize(ctx, AclOperation.DESCRIBE, ResourceType.GROUP, group_id)
        code = code or coordinator.coordinator_error(group_id)
        if code != ErrorCode.NONE:
            out.append(rs.DescribedGroup(error_code=code, group_id=group_id, members=[]))
            continue
        group = coordinator.streams_groups.groups.get(group_id)
        if group is None:
            other = group_id in coordinator.consumer_groups.groups or group_id in coordinator.groups
            message = f"Group {group_id} is not a streams group." if other else f"Group {group_id} not found."
            out.append(
                rs.DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                    error_message=message,
                    group_id=group_id,
                    group_state="",
                    members=[],
                )
            )
            continue
        members = [
            rs.Member(
                member_id=m.member_id,
                member_epoch=m.member_epoch,
                instance_id=m.instance_id,
                rack_id=m.rack_id,
                client_id=m.client_id,
                client_host=m.client_host,
                topology_epoch=m.topology_epoch,
                process_id=m.process_id,
                user_endpoint=rs.Endpoint(host=m.user_endpoint["host"], port=m.user_endpoint["port"])
                if m.user_endpoint
                else None,
                client_tags=[rs.KeyValue(key=k, value=v) for k, v in sorted(m.client_tags.items())],
                task_offsets=[],
                task_end_offsets=[],
                assignment=_assignment(m.assigned),
                target_assignment=_assignment(group.targets.get(m.member_id, TasksTuple())),
                is_classic=False,
            )
            for m in group.members.values()
        ]
        out.append(
            rs.DescribedGroup(
                error_code=ErrorCode.NONE,
                group_id=group_id,
                group_state=group.state(),
                group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch,
                topology=_topology(broker, group),
                members=members,
                authorized_operations=-2147483648,
            )
        )
    return rs.StreamsGroupDescribeResponse(throttle_time_ms=0, groups=out)
