"""ApiVersions (API 18): the release profile in `broker_embedded.versions` (KIP-511 fallback is in
`Broker.dispatch`, since an unsupported version cannot be decoded)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from broker_embedded.versions import FINALIZED_FEATURES_EPOCH, SUPPORTED_FEATURES, finalized_features
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import api_versions_request as rq
from kafka_wire.protocol.messages import api_versions_response as rs

if TYPE_CHECKING:
    from broker_embedded.broker import Broker
    from broker_embedded.network.server import RequestContext

API_KEY = 18
# fullmatched, as Kafka's Matcher.matches(): "$" alone also matches before a trailing newline
_SOFTWARE = re.compile(r"[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?")


def handle(broker: Broker, ctx: RequestContext, request: rq.ApiVersionsRequest) -> rs.ApiVersionsResponse:
    keys = [rs.ApiVersion(api_key=k, min_version=lo, max_version=hi) for k, (lo, hi) in broker.advertised.items()]
    if ctx.api_version >= 3:
        name, version = request.client_software_name, request.client_software_version
        if not (name and version and _SOFTWARE.fullmatch(name) and _SOFTWARE.fullmatch(version)):
            return rs.ApiVersionsResponse(error_code=ErrorCode.INVALID_REQUEST, api_keys=keys)
    response = rs.ApiVersionsResponse(error_code=ErrorCode.NONE, api_keys=keys, throttle_time_ms=0)
    if ctx.api_version >= 3:
        _add_features(broker, ctx.api_version, response)
    return response


def _add_features(broker: Broker, version: int, response: rs.ApiVersionsResponse) -> None:
    # KIP-1022: before v4 a supported range starting at 0 is left out (older clients cannot take it)
    response.supported_features = [
        rs.SupportedFeatureKey(name=name, min_version=lo, max_version=hi)
        for name, (lo, hi) in SUPPORTED_FEATURES.items()
        if version >= 4 or lo > 0
    ]
    # UpdateFeatures changes the levels over the defaults (broker_embedded/features.py)
    levels = broker.feature_levels
    response.finalized_features_epoch = FINALIZED_FEATURES_EPOCH + levels.epoch
    response.finalized_features = [
        rs.FinalizedFeatureKey(name=name, max_version_level=level, min_version_level=level)
        for name, level in levels.finalized(
            finalized_features(broker.config["group.coordinator.rebalance.protocols"])
        ).items()
    ]
