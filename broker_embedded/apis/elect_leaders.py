"""ElectLeaders (API 43): preferred (0) and unclean (1) leader elections.

The controller owns leadership: in a cluster the request is forwarded to it (as CreateTopics is)
and answered with its per-partition results (``broker_embedded.controller.election``). A single
broker leads every partition as its only, preferred replica: each known partition answers
ELECTION_NOT_NEEDED, as Apache Kafka's single node does.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.controller.election import MESSAGES, PREFERRED, UNCLEAN
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import elect_leaders_request as rq
from kafka_wire.protocol.messages import elect_leaders_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 43

Results = dict[str, list[tuple[int, int, str | None]]]


def _wanted(request: rq.ElectLeadersRequest) -> dict[str, list[int]] | None:
    """topic -> partitions asked for (duplicates merged), or None: every partition."""
    if request.topic_partitions is None:
        return None
    out: dict[str, list[int]] = {}
    for t in request.topic_partitions:
        ps = out.setdefault(t.topic, [])
        ps.extend(p for p in t.partitions if p not in ps)
    return out


def _response(results: Results, error: int = ErrorCode.NONE) -> rs.ElectLeadersResponse:
    return rs.ElectLeadersResponse(
        throttle_time_ms=0,
        error_code=error,
        replica_election_results=[
            rs.ReplicaElectionResult(
                topic=topic,
                partition_result=[
                    rs.PartitionResult(partition_id=p, error_code=code, error_message=message)
                    for p, code, message in parts
                ],
            )
            for topic, parts in results.items()
        ],
    )


def _all_failed(wanted: dict[str, list[int]] | None, code: int, message: str | None) -> Results:
    return {t: [(p, code, message) for p in ps] for t, ps in (wanted or {}).items()}


def handle(broker: Broker, ctx: RequestContext, request: rq.ElectLeadersRequest) -> Any:
    wanted = _wanted(request)
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    if denied:
        return _response(_all_failed(wanted, denied, None), denied)
    if request.election_type not in (PREFERRED, UNCLEAN):
        message = f"Unknown election type {request.election_type}"
        return _response(_all_failed(wanted, ErrorCode.INVALID_REQUEST, message), ErrorCode.INVALID_REQUEST)
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request, wanted))
    return _response(_local(broker, wanted))


async def _handle_cluster(
    broker: Broker, request: rq.ElectLeadersRequest, wanted: dict[str, list[int]] | None
) -> rs.ElectLeadersResponse:
    assert broker.controller_client is not None
    if wanted is not None and not wanted:
        return _response({})
    try:
        msg = await broker.controller_client.request(
            "elect_leaders",
            timeout=max(request.timeout_ms, 1000) / 1000,
            election_type=request.election_type,
            partitions=wanted,
        )
    except KafkaError as e:
        return _response(_all_failed(wanted, e.code, str(e)), e.code)
    results: Results = {
        t: [(int(p), int(code), message) for p, code, message in parts] for t, parts in msg["results"].items()
    }
    return _response(results)


def _local(broker: Broker, wanted: dict[str, list[int]] | None) -> Results:
    """One broker: it is every partition's only replica and its leader."""
    if wanted is None:
        return {}  # every partition answers ELECTION_NOT_NEEDED, which the all-partitions answer leaves out
    not_needed = ErrorCode.ELECTION_NOT_NEEDED
    results: Results = {}
    for name, indexes in wanted.items():
        topic = broker.topics.get(name)
        out = results.setdefault(name, [])
        for p in indexes:
            if topic is None:
                out.append((p, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such topic as {name}"))
            elif not 0 <= p < topic.num_partitions:
                out.append((p, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"No such partition as {name}-{p}"))
            else:
                out.append((p, not_needed, MESSAGES[not_needed]))
    return results
