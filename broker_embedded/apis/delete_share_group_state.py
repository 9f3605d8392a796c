"""DeleteShareGroupState (API 86): the state of a share-partition goes (offsets or group deleted)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.apis.initialize_share_group_state import serve_state_rpc
from broker_embedded.group.share_state_host import respond
from broker_embedded.share.state_service import StateResult
from kafka_wire.protocol.messages import delete_share_group_state_request as rq
from kafka_wire.protocol.messages import delete_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 86


def handle(broker: Broker, ctx: RequestContext, request: rq.DeleteShareGroupStateRequest) -> Any:
    flat, results = serve_state_rpc(
        broker,
        ctx,
        request.group_id,
        request.topics,
        "delete share group state",
        lambda service, key, p: service.delete(key),
        writes=True,
    )

    def build(done: list[StateResult]) -> rs.DeleteShareGroupStateResponse:
        by_topic: dict[int, Any] = {}
        out = []
        for (t, p), r in zip(flat, done, strict=True):
            if id(t) not in by_topic:
                by_topic[id(t)] = rs.DeleteStateResult(topic_id=t.topic_id, partitions=[])
                out.append(by_topic[id(t)])
            by_topic[id(t)].partitions.append(
                rs.PartitionResult(partition=p.partition, error_code=r.error, error_message=r.message)
            )
        return rs.DeleteShareGroupStateResponse(results=out)

    return respond(results, build)
