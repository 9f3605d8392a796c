"""ReadShareGroupState (API 84): a share-partition leader reads the state it starts from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from broker_embedded.apis.initialize_share_group_state import serve_state_rpc
from broker_embedded.group.share_state_host import respond
from broker_embedded.share.state_service import StateResult
from kafka_wire.protocol.messages import read_share_group_state_request as rq
from kafka_wire.protocol.messages import read_share_group_state_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 84


def handle(broker: Broker, ctx: RequestContext, request: rq.ReadShareGroupStateRequest) -> Any:
    flat, results = serve_state_rpc(
        broker,
        ctx,
        request.group_id,
        request.topics,
        "read share group state",
        lambda service, key, p: service.read(key, p.leader_epoch),
        writes=False,
    )

    def build(done: list[StateResult]) -> rs.ReadShareGroupStateResponse:
        by_topic: dict[int, Any] = {}
        out = []
        for (t, p), r in zip(flat, done, strict=True):
            if id(t) not in by_topic:
                by_topic[id(t)] = rs.ReadStateResult(topic_id=t.topic_id, partitions=[])
                out.append(by_topic[id(t)])
            by_topic[id(t)].partitions.append(
                rs.PartitionResult(
                    partition=p.partition,
                    error_code=r.error,
                    error_message=r.message,
                    state_epoch=r.state_epoch,
                    start_offset=r.start_offset,
                    state_batches=[
                        rs.StateBatch(
                            first_offset=b.first_offset,
                            last_offset=b.last_offset,
                            delivery_state=int(b.delivery_state),
                            delivery_count=b.delivery_count,
                        )
                        for b in r.batches
                    ],
                )
            )
        return rs.ReadShareGroupStateResponse(results=out)

    return respond(results, build)
