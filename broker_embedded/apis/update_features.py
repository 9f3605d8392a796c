"""UpdateFeatures (API 57): change finalized feature levels (kafka-features upgrade / downgrade /
disable), decided as Kafka's controller does (``broker_embedded.features``).

In a cluster the request is forwarded to the controller, which stores the levels and pushes them in
its image; a single broker decides and stores them itself. Needs ALTER on the CLUSTER. The answer is
one top-level error for the whole request; versions 0-1 also list every feature (with no error) on
success, as Kafka's QuorumController does; version 2 has no per-feature results.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from broker_embedded.features import SAFE_DOWNGRADE, UPGRADE
from broker_embedded.security.access import AclOperation, ResourceType, authorize
from broker_embedded.versions import SUPPORTED_FEATURES, finalized_features
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import update_features_request as rq
from kafka_wire.protocol.messages import update_features_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 57


def _updates(request: rq.UpdateFeaturesRequest, version: int) -> list[tuple[str, int, int]]:
    out = []
    for u in request.feature_updates:
        kind = u.upgrade_type if version >= 1 else (SAFE_DOWNGRADE if u.allow_downgrade else UPGRADE)
        out.append((u.feature, int(u.max_version_level), int(kind)))
    return out


def _response(
    request: rq.UpdateFeaturesRequest, version: int, code: int, message: str | None
) -> rs.UpdateFeaturesResponse:
    results = []
    if code == ErrorCode.NONE and version <= 1:
        results = [
            rs.UpdatableFeatureResult(feature=u.feature, error_code=0, error_message=None)
            for u in request.feature_updates
        ]
    return rs.UpdateFeaturesResponse(throttle_time_ms=0, error_code=code, error_message=message, results=results)


def handle(broker: Broker, ctx: RequestContext, request: rq.UpdateFeaturesRequest) -> Any:
    version = ctx.api_version
    denied = authorize(ctx, AclOperation.ALTER, ResourceType.CLUSTER)
    if denied:
        return _response(request, version, denied, None)
    updates = _updates(request, version)
    if broker.controller_client is not None:
        return asyncio.ensure_future(_handle_cluster(broker, request, version, updates))
    code, message = broker.feature_levels.update(
        updates,
        bool(request.validate_only),
        finalized_features(broker.config["group.coordinator.rebalance.protocols"]),
        SUPPORTED_FEATURES,
        broker.node_id,
    )
    return _response(request, version, code, message)


async def _handle_cluster(
    broker: Broker, request: rq.UpdateFeaturesRequest, version: int, updates: list[tuple[str, int, int]]
) -> rs.UpdateFeaturesResponse:
    assert broker.controller_client is not None
    try:
        msg = await broker.controller_client.request(
            "update_features",
            timeout=max(request.timeout_ms, 1000) / 1000,
            updates=[list(u) for u in updates],
            validate_only=bool(request.validate_only),
        )
    except KafkaError as e:
        return _response(request, version, e.code, str(e))
    return _response(request, version, int(msg["result_error"]), msg.get("result_message"))
