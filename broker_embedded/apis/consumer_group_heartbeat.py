"""ConsumerGroupHeartbeat (API 68): join, heartbeat and leave of the consumer group protocol (KIP-848).

The operation and its records live in ``broker_embedded.group`` (consumer_heartbeat,
consumer_coordinator); this module only converts the wire structs. Version 0 lets the coordinator
pick the member id; version 1 (KIP-1082) requires the member to bring its own.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from broker_embedded.features import group_protocol_enabled
from broker_embedded.group.consumer_heartbeat import HeartbeatInput
from broker_embedded.group.consumer_migration import CONSUMER_PROTOCOL_TYPE, hand_over_classic_group, upgrade_enabled
from broker_embedded.group.consumer_records import Assignment
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as rq
from kafka_wire.protocol.messages import consumer_group_heartbeat_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 68

log = logging.getLogger(__name__)


def wire_assignment(assignment: Assignment) -> rs.Assignment:
    return rs.Assignment(
        topic_partitions=[
            rs.TopicPartitions(topic_id=t, partitions=sorted(ps)) for t, ps in sorted(assignment.items()) if ps
        ]
    )


def handle(broker: Broker, ctx: RequestContext, request: rq.ConsumerGroupHeartbeatRequest) -> Any:
    def error(code: ErrorCode, message: str | None = None) -> rs.ConsumerGroupHeartbeatResponse:
        return rs.ConsumerGroupHeartbeatResponse(error_code=code, error_message=message, member_epoch=-1)

    if not group_protocol_enabled(broker):  # group.version 0 (or "consumer" not configured), before the ACLs
        return rs.ConsumerGroupHeartbeatResponse(error_code=ErrorCode.UNSUPPORTED_VERSION)
    if denied := authorize(ctx, AclOperation.READ, ResourceType.GROUP, request.group_id):
        return error(denied)
    # as Kafka's KafkaApis: a member may subscribe by name only to topics it may describe
    for topic in request.subscribed_topic_names or []:
        if authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topic):
            return error(ErrorCode.TOPIC_AUTHORIZATION_FAILED)
    member_id = request.member_id
    if ctx.api_version == 0 and request.member_epoch == 0 and not member_id:
        member_id = str(uuid.uuid4())
    owned: Assignment | None = None
    if request.topic_partitions is not None:
        owned = {bytes(tp.topic_id): frozenset(tp.partitions) for tp in request.topic_partitions}
    req = HeartbeatInput(
        group_id=request.group_id,
        member_id=member_id,
        member_epoch=request.member_epoch,
        instance_id=request.instance_id,
        rack_id=request.rack_id,
        rebalance_timeout_ms=request.rebalance_timeout_ms,
        subscribed_topic_names=list(request.subscribed_topic_names)
        if request.subscribed_topic_names is not None
        else None,
        subscribed_topic_regex=request.subscribed_topic_regex if ctx.api_version >= 1 else None,
        server_assignor=request.server_assignor,
        topic_partitions=owned,
        client_id=ctx.header.client_id or "",
        client_host="/" + ctx.peer.rsplit(":", 1)[0],
    )
    coordinator = broker.group_coordinator
    if request.group_id in coordinator.streams_groups.groups:  # as Kafka 4.3.1 answers
        return error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {request.group_id} is not a consumer group.")
    classic = coordinator.groups.get(request.group_id)
    if classic is not None and classic.members:
        # online upgrade (group/consumer_migration.py): a joining member converts a live classic group
        # of the consumer embedded protocol, when group.consumer.migration.policy allows it
        not_consumer = error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {request.group_id} is not a consumer group.")
        if (
            request.member_epoch != 0
            or not upgrade_enabled(broker.config["group.consumer.migration.policy"])
            or classic.protocol_type != CONSUMER_PROTOCOL_TYPE
        ):
            return not_consumer
        if (code := coordinator.coordinator_error(request.group_id)) != ErrorCode.NONE:
            return error(code, None)
        try:
            coordinator.consumer_groups.upgrade(classic)
        except KafkaError as e:
            return error(e.code, str(e))
        hand_over_classic_group(coordinator, classic)
    try:
        out = coordinator.consumer_groups.heartbeat(
            req, ctx.api_version, lambda topic: not authorize(ctx, AclOperation.DESCRIBE, ResourceType.TOPIC, topic)
        )
    except KafkaError as e:
        log.debug("ConsumerGroupHeartbeat of %s in %s: %s", member_id, request.group_id, e)
        return error(e.code, str(e))
    response = rs.ConsumerGroupHeartbeatResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        member_id=out.member_id,
        member_epoch=out.member_epoch,
        heartbeat_interval_ms=coordinator.consumer_groups.group_heartbeat_interval_ms(request.group_id),
        assignment=wire_assignment(out.assignment) if out.assignment is not None else None,
    )
    # cluster mode: answered once the records are replicated, as Kafka's coordinator does
    wait = coordinator.replication_wait(request.group_id) if out.records else None
    if wait is None:
        return response
    return asyncio.ensure_future(_after_replication(wait, response))


async def _after_replication(
    wait: asyncio.Future[ErrorCode], response: rs.ConsumerGroupHeartbeatResponse
) -> rs.ConsumerGroupHeartbeatResponse:
    code = await wait
    if code != ErrorCode.NONE:
        return rs.ConsumerGroupHeartbeatResponse(error_code=code, member_epoch=-1)
    return response
