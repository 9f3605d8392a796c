"""API version negotiation shared by the client connection and the replica fetcher's connection."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import REQUESTS
from kafka_wire.protocol.negotiation import best_version, supported_versions

FETCH = 1


def test_newest_common_version() -> None:
    lo, hi = REQUESTS[FETCH].VALID_VERSIONS
    assert best_version({FETCH: (0, hi + 5)}, FETCH) == hi  # ours is the limit
    assert best_version({FETCH: (lo, hi - 1)}, FETCH) == hi - 1  # theirs is


def test_unsupported_and_disjoint_ranges() -> None:
    hi = REQUESTS[FETCH].VALID_VERSIONS[1]
    with pytest.raises(KafkaError, match="the leader does not support API 1") as e:
        best_version({}, FETCH, "the leader")
    assert e.value.code == ErrorCode.UNSUPPORTED_VERSION
    with pytest.raises(KafkaError, match="no common version") as e:
        best_version({FETCH: (hi + 1, hi + 3)}, FETCH)
    assert e.value.code == ErrorCode.UNSUPPORTED_VERSION


def test_supported_versions_reads_ranges_or_raises_the_error() -> None:
    keys = [SimpleNamespace(api_key=1, min_version=4, max_version=17)]
    assert supported_versions(SimpleNamespace(error_code=0, api_keys=keys)) == {1: (4, 17)}
    with pytest.raises(KafkaError) as e:
        supported_versions(SimpleNamespace(error_code=int(ErrorCode.UNSUPPORTED_VERSION), api_keys=[]))
    assert e.value.code == ErrorCode.UNSUPPORTED_VERSION
