"""WriteShareGroupState (API 85): a share-partition leader writes what acknowledgements, releases and lock
timeouts changed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.apis.initialize_share_group_state import serve_state_rpc
from broker_embedded.group.share_state_host import respond
from broker_embedded.share.state import ShareGroupStateKey
from broker_embedded.share.state_service import ShareStateService, StateResult
from kafka_wire.protocol.messages import write_share_group_state_request as rq
from kafka_wire.protocol.messages import write_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 85


def handle(broker: Broker, ctx: RequestContext, request: rq.WriteShareGroupStateRequest) -> Any:
    def call(service: ShareStateService, key: ShareGroupStateKey, p: Any) -> StateResult:
        batches = [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p.state_batches]
        return service.write(key, p.state_epoch, p.leader_epoch, p.start_offset, batches, p.delivery_complete_count)

    flat, results = serve_state_rpc(
        broker, ctx, request.group_id, request.topics, "write share group state", call, writes=True
    )

    def build(done: list[StateResult]) -> rs.WriteShareGroupStateResponse:
        by_topic: dict[int, Any] = {}
        out = []
        for (t, p), r in zip(flat, done, strict=True):
            if id(t) not in by_topic:
                by_topic[id(t)] = rs.WriteStateResult(topic_id=t.topic_id, partitions=[])
                out.append(by_topic[id(t)])
            by_topic[id(t)].partitions.append(
                rs.PartitionResult(partition=p.partition, error_code=r.error, error_message=r.message)
            )
        return rs.WriteShareGroupStateResponse(results=out)

    return respond(results, build)
