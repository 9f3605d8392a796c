"""AlterPartitionReassignments (API 45): move partition replicas between brokers, or cancel a move.

The controller owns the plan (``broker_embedded.controller.reassignment``): in a cluster the request
is forwarded to it and answered with its per-partition results. A single broker is every
partition's only replica: a target of just itself is accepted (nothing to move), any other broker is
not registered, and a cancel finds no reassignment in progress, as on Apache Kafka's single node.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.controller.reassignment import NO_REASSIGNMENT_IN_PROGRESS_MESSAGE, Results
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import alter_partition_reassignments_request as rq
from kafka_wire.protocol.messages import alter_partition_reassignments_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 45

Wanted = list[tuple[str, list[tuple[int, list[int] | None]]]]


def _response(
    request: rq.AlterPartitionReassignmentsRequest, results: Results, error: int = 0, message: str | None = None
) -> rs.AlterPartitionReassignmentsResponse:
    return rs.AlterPartitionReassignmentsResponse(
        throttle_time_ms=0,
        allow_replication_factor_change=request.allow_replication_factor_change,
        error_code=error,
        error_message=message,
        responses=[
            rs.ReassignableTopicResponse(
                name=topic,
                partitions=[
                    rs.ReassignablePartitionResponse(partition_index=p, error_code=code, error_message=msg)
                    for p, code, msg in parts
                ],
            )
            for topic, parts in results.items()
        ],
    )


def _wanted(request: rq.AlterPartitionReassignmentsRequest) -> Wanted:
    return [
        (t.name, [(p.partition_index, None if p.replicas is None else list(p.replicas)) for p in t.partitions])
        for t in request.topics
    ]


def _all_failed(wanted: Wanted, code: int, message: str | None) -> Results:
    out: Results = {}
    for t, ps in wanted:
        out.setdefault(t, []).extend((p, code, message) for p, _ in ps)
    return out


def handle(broker: Broker, ctx: RequestContext, request: rq.AlterPartitionReassignmentsRequest) -> Any:
    wanted = _wanted(request)
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    if denied:
        return _response(request, _all_failed(wanted, denied, None), denied)
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request, wanted))
    return _response(request, _local(broker, wanted, request.allow_replication_factor_change))


async def _handle_cluster(
    broker: Broker, request: rq.AlterPartitionReassignmentsRequest, wanted: Wanted
) -> rs.AlterPartitionReassignmentsResponse:
    assert broker.controller_client is not None
    try:
        msg = await broker.controller_client.request(
            "alter_partition_reassignments",
            timeout=max(request.timeout_ms, 1000) / 1000,
            topics=wanted,
            allow_replication_factor_change=bool(request.allow_replication_factor_change),
        )
    except KafkaError as e:
        return _response(request, _all_failed(wanted, e.code, str(e)), e.code, str(e))
    results: Results = {
        t: [(int(p), int(code), message) for p, code, message in parts] for t, parts in msg["results"].items()
    }
    return _response(request, results)


def _local(broker: Broker, wanted: Wanted, allow_rf_change: bool) -> Results:
    """One broker: its own id is the only registered broker and every partition's replica list."""
    results: Results = {}
    me = broker.node_id
    for name, parts in wanted:
        topic = broker.topics.get(name)
        out = results.setdefault(name, [])
        for index, target in parts:
            code, message = ErrorCode.NONE, None
            if topic is None:
                code, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find a topic named {name}."
            elif not 0 <= index < topic.num_partitions:
                code, message = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Unable to find partition {name}:{index}."
            elif target is None:
                code, message = ErrorCode.NO_REASSIGNMENT_IN_PROGRESS, NO_REASSIGNMENT_IN_PROGRESS_MESSAGE
            elif not target:
                code = ErrorCode.INVALID_REPLICA_ASSIGNMENT
                message = "The manual partition assignment includes an empty replica list."
            else:
                ordered = sorted(target)
                stranger = next((b for b in ordered if b != me), None)
                if stranger is not None:
                    code = ErrorCode.INVALID_REPLICA_ASSIGNMENT
                    message = (
                        f"The manual partition assignment includes broker {stranger}, but no such broker is registered."
                    )
                elif len(ordered) > 1:
                    code = ErrorCode.INVALID_REPLICA_ASSIGNMENT
                    message = f"The manual partition assignment includes the broker {me} more than once."
            out.append((index, int(code), message))
    return results
