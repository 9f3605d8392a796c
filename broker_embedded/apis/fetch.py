"""Fetch (API 1): the replica manager reads each partition for a consumer or a follower, and parks
long polls in the fetch purgatory (`ReplicaManager.fetch_messages`, DelayedFetch).

Authorization first, as Kafka's KafkaApis: a follower needs CLUSTER_ACTION on the cluster, a
consumer READ on each topic; refused partitions answer TOPIC_AUTHORIZATION_FAILED."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.quotas.enforce import cap_fetch_max_bytes, throttle_fetch
from broker_embedded.replication.fetch_read import fetch_replica_id
from broker_embedded.security.access import AclOperation, ResourceType, authorize, with_response
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import fetch_request as rq
from kafka_wire.protocol.messages import fetch_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 1


def handle(broker: Broker, ctx: RequestContext, request: rq.FetchRequest) -> Any:
    if fetch_replica_id(request) >= 0:
        return _fetch(broker, ctx, request, follower=True)
    # a consumer's consumer_byte_rate: max_bytes capped to one quota window, throttle on the answer
    cap_fetch_max_bytes(broker.client_quotas, ctx, request)
    return throttle_fetch(broker.client_quotas, ctx, _fetch(broker, ctx, request, follower=False))


def _fetch(broker: Broker, ctx: RequestContext, request: rq.FetchRequest, follower: bool) -> Any:
    cluster_denied = follower and authorize(ctx, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER) != ErrorCode.NONE
    allowed: list[rq.FetchTopic] = []
    refused: list[rs.FetchableTopicResponse] = []
    for t in request.topics:
        name = t.topic
        if ctx.api_version >= 13:
            meta = broker.topics.by_id.get(t.topic_id)
            name = meta.name if meta is not None else None
        denied = cluster_denied or (
            not follower and name and authorize(ctx, AclOperation.READ, ResourceType.TOPIC, name) != ErrorCode.NONE
        )
        if not denied:
            allowed.append(t)
            continue
        refused.append(
            rs.FetchableTopicResponse(
                topic=t.topic,
                topic_id=t.topic_id,
                partitions=[
                    rs.PartitionData(
                        partition_index=p.partition,
                        error_code=ErrorCode.TOPIC_AUTHORIZATION_FAILED,
                        high_watermark=-1,
                        last_stable_offset=-1,
                        log_start_offset=-1,
                        records=b"",  # librdkafka refuses a null record set
                    )
                    for p in t.partitions
                ],
            )
        )
    if not refused:
        return broker.replica_manager.fetch_messages(request, ctx.api_version)
    request.topics = allowed
    result = broker.replica_manager.fetch_messages(request, ctx.api_version)
    return with_response(result, lambda response: response.responses.extend(refused))
