"""InitializeShareGroupState (API 83): the share coordinator starts (or restarts) a share-partition's state."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.share_state_host import cluster_share_state, respond, serve
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.share.cluster_state import ClusterShareState
from broker_embedded.share.persister import SHARE_STATE_TOPIC, parse_coordinator_key, partition_for
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import initialize_share_group_state_request as rq
from kafka_wire.protocol.messages import initialize_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.controller.controller_client import ControllerClient
    from broker_embedded.network.server import RequestContext

API_KEY = 83


def handle(broker: Broker, ctx: RequestContext, request: rq.InitializeShareGroupStateRequest) -> Any:
    flat, results = serve_state_rpc(
        broker,
        ctx,
        request.group_id,
        request.topics,
        "initialize share group state",
        lambda service, key, p: service.initialize(key, p.state_epoch, p.start_offset),
        writes=True,
    )

    def build(done: list[StateResult]) -> rs.InitializeShareGroupStateResponse:
        by_topic: dict[int, Any] = {}
        out = []
        for (t, p), r in zip(flat, done, strict=True):
            if id(t) not in by_topic:
                by_topic[id(t)] = rs.InitializeStateResult(topic_id=t.topic_id, partitions=[])
                out.append(by_topic[id(t)])
            by_topic[id(t)].partitions.append(
                rs.PartitionResult(partition=p.partition, error_code=r.error, error_message=r.message)
            )
        return rs.InitializeShareGroupStateResponse(results=out)

    return respond(results, build)


def cluster_state_of(broker: Broker) -> ClusterShareState | None:
    """This broker's share coordinator in a cluster (created on first use), None on a single broker."""

    def create(client: ControllerClient) -> ClusterShareState:
        return ClusterShareState(
            broker.node_id,
            broker.topics,
            broker.partition,
            client,
            broker.replica_manager.produce_purgatory,
            broker.config.get,
        )

    return cluster_share_state(broker.share_coordinator, broker.controller_client, create)


# call(service, key, partition entry of the request) -> that partition's result
PartitionCall = Callable[[ShareStateService, ShareGroupStateKey, Any], StateResult]


def serve_state_rpc(
    broker: Broker,
    ctx: RequestContext,
    group_id: str,
    topics: list[Any],
    operation: str,
    call: PartitionCall,
    writes: bool,
) -> tuple[list[tuple[Any, Any]], Any]:
    """What RPCs 83-87 share: the request's (topic, partition) entries in order, and their results (a
    list, or in a cluster a future of one once writes are replicated)."""
    flat = [(t, p) for t in topics for p in t.partitions]
    keys = [ShareGroupStateKey(group_id, str(uuid.UUID(bytes=bytes(t.topic_id))), p.partition) for t, p in flat]
    # an inter-broker RPC: CLUSTER_ACTION on the cluster, as Kafka checks it
    denied = authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER)
    if denied:
        return flat, [StateResult(ErrorCode(denied)) for _ in keys]
    results = serve(
        broker.share_coordinator,
        cluster_state_of(broker),
        operation,
        keys,
        lambda service, i: call(service, keys[i], flat[i][1]),
        writes,
    )
    return flat, results


def share_coordinator_lookup(
    broker: Broker, key: str, listener: str | None = None
) -> tuple[ErrorCode, str | None, tuple[int, str, int]]:
    """FindCoordinator key type 2: (error, message, (node id, host, port)) of the share coordinator of
    "groupId:topicId:partition", the leader of its ``__share_group_state`` partition (Kafka's rule).
    A malformed key is INVALID_REQUEST with an empty message, as Kafka answers it."""
    none = (-1, "", -1)
    parsed = parse_coordinator_key(key)
    if parsed is None:
        return ErrorCode.INVALID_REQUEST, "", none
    client = broker.controller_client
    if client is None:
        return ErrorCode.NONE, None, (broker.node_id, broker.host, broker.port)
    image = client.image
    topic = image.topics.get(SHARE_STATE_TOPIC) if image is not None else None
    if image is None or topic is None:
        state = cluster_state_of(broker)
        if state is not None:
            state.ensure_topic()  # asked of the controller; the client retries meanwhile
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{SHARE_STATE_TOPIC} is being created", none
    part = topic.partitions[partition_for(parsed, len(topic.partitions))]
    leader = image.brokers.get(part.leader)
    if leader is None or leader.fenced:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{SHARE_STATE_TOPIC}-{part.partition} has no leader", none
    host, port = leader.address(listener)
    return ErrorCode.NONE, None, (leader.node_id, host, port)
