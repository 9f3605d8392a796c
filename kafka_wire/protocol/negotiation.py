"""API version negotiation (KIP-35), sans-IO: what an ApiVersions response says a peer supports,
and the newest version both sides speak. Shared by the blocking client connection and the
broker's asyncio connection to a partition leader."""

from __future__ import annotations

from typing import Any

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import REQUESTS

API_VERSIONS_KEY = 18
API_VERSIONS_VERSION = 3  # flexible, and carries the client's software name and version (KIP-511)

ApiVersionRanges = dict[int, tuple[int, int]]


def supported_versions(resp: Any) -> ApiVersionRanges:
    """api key -> (min, max) from an ApiVersions response; its error raised as a KafkaError."""
    if resp.error_code != ErrorCode.NONE:
        raise KafkaError("ApiVersions failed", ErrorCode(resp.error_code))
    return {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}


def best_version(theirs_by_key: ApiVersionRanges, api_key: int, peer: str = "broker") -> int:
    """The newest version of `api_key` both this codec and the peer support, else
    UNSUPPORTED_VERSION."""
    ours = REQUESTS[api_key].VALID_VERSIONS
    theirs = theirs_by_key.get(api_key)
    if theirs is None:
        raise KafkaError(f"{peer} does not support API {api_key}", ErrorCode.UNSUPPORTED_VERSION)
    v = min(ours[1], theirs[1])
    if v < max(ours[0], theirs[0]):
        raise KafkaError(f"no common version for API {api_key}", ErrorCode.UNSUPPORTED_VERSION)
    return v
