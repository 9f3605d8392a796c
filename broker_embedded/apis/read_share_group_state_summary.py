"""ReadShareGroupStateSummary (API 87): start offset and delivery-complete count (share-group offsets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.apis.initialize_share_group_state import serve_state_rpc
from broker_embedded.group.share_state_host import respond
from broker_embedded.share.state_service import StateResult
from kafka_wire.protocol.messages import read_share_group_state_summary_request as rq
from kafka_wire.protocol.messages import read_share_group_state_summary_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 87


def handle(broker: Broker, ctx: RequestContext, request: rq.ReadShareGroupStateSummaryRequest) -> Any:
    flat, results = serve_state_rpc(
        broker,
        ctx,
        request.group_id,
        request.topics,
        "read share group state summary",
        lambda service, key, p: service.summary(key, p.leader_epoch),
        writes=False,
    )

    def build(done: list[StateResult]) -> rs.ReadShareGroupStateSummaryResponse:
        by_topic: dict[int, Any] = {}
        out = []
        for (t, p), r in zip(flat, done, strict=True):
            if id(t) not in by_topic:
                by_topic[id(t)] = rs.ReadStateSummaryResult(topic_id=t.topic_id, partitions=[])
                out.append(by_topic[id(t)])
            by_topic[id(t)].partitions.append(
                rs.PartitionResult(
                    partition=p.partition,
                    error_code=r.error,
                    error_message=r.message,
                    state_epoch=r.state_epoch,
                    leader_epoch=r.leader_epoch,
                    start_offset=r.start_offset,
                    delivery_complete_count=r.delivery_complete_count,
                )
            )
        return rs.ReadShareGroupStateSummaryResponse(results=out)

    return respond(results, build)
