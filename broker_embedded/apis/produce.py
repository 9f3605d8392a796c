"""Produce (API 0): the replica manager validates each partition's record batch and appends it to
the leader's log (`ReplicaManager.append_records`: acks, DelayedProduce for acks=all)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kafka_wire.protocol.messages import produce_request as rq

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 0


def handle(broker: Broker, ctx: RequestContext, request: rq.ProduceRequest) -> Any:
    return broker.replica_manager.append_records(request, ctx.api_version)
