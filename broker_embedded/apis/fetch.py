"""Fetch (API 1): the replica manager reads each partition for a consumer or a follower, and parks
long polls in the fetch purgatory (`ReplicaManager.fetch_messages`, DelayedFetch)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kafka_wire.protocol.messages import fetch_request as rq

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 1


def handle(broker: Broker, ctx: RequestContext, request: rq.FetchRequest) -> Any:
    return broker.replica_manager.fetch_messages(request, ctx.api_version)
