"""FindCoordinator (API 10). Single node: this broker coordinates every group. Cluster mode: the
coordinator of a group is the leader of the group's `__consumer_offsets` partition (Kafka's rule), as
the controller's image says. Key type 1 (TRANSACTION): likewise the leader of the transactional
id's `__transaction_state` partition. Key type 2 (share, KIP-932): see ``initialize_share_group_state``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker_embedded.apis.initialize_share_group_state import share_coordinator_lookup
from broker_embedded.group.offsets_topic import OFFSETS_TOPIC, partition_for_group
from broker_embedded.security.access import AclOperation, ResourceType, advertised_address, authorize
from broker_embedded.txn.log_records import TRANSACTION_STATE_TOPIC
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import find_coordinator_request as rq
from kafka_wire.protocol.messages import find_coordinator_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 10
GROUP_KEY_TYPE = 0
TRANSACTION_KEY_TYPE = 1
SHARE_KEY_TYPE = 2  # KIP-932: the share coordinator of "groupId:topicId:partition" (v6+)


def _lookup(
    broker: Broker, key: str, key_type: int, listener: str | None = None
) -> tuple[ErrorCode, str | None, tuple[int, str, int]]:
    """(error, message, (node id, host, port) of the coordinator)."""
    none = (-1, "", -1)
    if key_type == SHARE_KEY_TYPE:
        return share_coordinator_lookup(broker, key, listener)
    if key_type not in (GROUP_KEY_TYPE, TRANSACTION_KEY_TYPE):
        return ErrorCode.INVALID_REQUEST, f"unknown coordinator key type {key_type}", none
    internal = OFFSETS_TOPIC if key_type == GROUP_KEY_TYPE else TRANSACTION_STATE_TOPIC
    if not key:
        return (
            ErrorCode.INVALID_REQUEST,
            f"{'group' if key_type == GROUP_KEY_TYPE else 'transactional'} id is empty",
            none,
        )
    try:
        if key_type == GROUP_KEY_TYPE:
            broker.group_coordinator.ensure_offsets_topic()
        else:
            broker.txn_coordinator.ensure_topic()
    except KafkaError as e:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, str(e), none
    client = broker.controller_client
    if client is None:
        return ErrorCode.NONE, None, (broker.node_id, broker.host, broker.port)
    image = client.image
    assert image is not None
    topic = image.topics.get(internal)
    if topic is None:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{internal} is being created", none
    state = topic.partitions[partition_for_group(key, len(topic.partitions))]
    leader = image.brokers.get(state.leader)
    if leader is None or leader.fenced:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{internal}-{state.partition} has no leader", none
    host, port = leader.address(listener)  # the listener the client connected on
    return ErrorCode.NONE, None, (leader.node_id, host, port)


def _authorized_lookup(
    broker: Broker, ctx: RequestContext, key: str, key_type: int
) -> tuple[ErrorCode, str | None, tuple[int, str, int]]:
    # DESCRIBE on the group or the transactional id (Kafka's check before any lookup)
    if key_type == SHARE_KEY_TYPE:
        # an inter-broker lookup (share-partition leader -> share coordinator), v6+ only
        if ctx.api_version < 6:
            return ErrorCode.INVALID_REQUEST, "", (-1, "", -1)
        if denied := authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER):
            return denied, None, (-1, "", -1)
    resource = ResourceType.TRANSACTIONAL_ID if key_type == TRANSACTION_KEY_TYPE else ResourceType.GROUP
    if key_type != SHARE_KEY_TYPE and (denied := authorize(ctx, AclOperation.DESCRIBE, resource, key)):
        return denied, None, (-1, "", -1)
    code, message, (node_id, host, port) = _lookup(
        broker, key, key_type, ctx.session.listener_name if ctx.session is not None else None
    )
    if code == ErrorCode.NONE and broker.controller_client is None:
        host, port = advertised_address(ctx, (host, port))  # this broker, on the client's listener
    return code, message, (node_id, host, port)


def handle(broker: Broker, ctx: RequestContext, request: rq.FindCoordinatorRequest) -> rs.FindCoordinatorResponse:
    if ctx.api_version >= 4:
        coordinators = []
        for key in request.coordinator_keys:
            code, message, (node_id, host, port) = _authorized_lookup(broker, ctx, key, request.key_type)
            coordinators.append(
                rs.Coordinator(
                    key=key,
                    node_id=node_id,
                    host=host,
                    port=port,
                    error_code=code,
                    error_message=message,
                )
            )
        return rs.FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
    code, message, (node_id, host, port) = _authorized_lookup(broker, ctx, request.key, request.key_type)
    return rs.FindCoordinatorResponse(
        throttle_time_ms=0, error_code=code, error_message=message, node_id=node_id, host=host, port=port
    )
