"""Feature levels (issue 30): UpdateFeatures' dependency checks with Kafka 4.3.1's messages
(Feature.validateVersion, wrapped by FeatureControlManager) and the predicates the group, streams and
share group APIs act on (KafkaApis.isConsumerGroupProtocolEnabled and its kin)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

from broker_embedded.features import (
    SAFE_DOWNGRADE,
    UPGRADE,
    FeatureLevels,
    dependency_error,
    finalized_level,
    group_protocol_enabled,
    share_groups_enabled,
    streams_protocol_enabled,
)
from broker_embedded.versions import SUPPORTED_FEATURES, finalized_features

ELR = "eligible.leader.replicas.version"
FAILED = "The update failed for all features since the following feature had an error: "


def test_dependencies_use_the_levels_the_request_would_leave() -> None:
    supported = {**SUPPORTED_FEATURES, ELR: (0, 1), "metadata.version": (1, 25)}
    levels = FeatureLevels()
    defaults = {"metadata.version": 22, "group.version": 1}  # 4.0-IV0: below ELR 1's 4.0-IV1 (23)
    code, message = levels.update([(ELR, 1, UPGRADE)], True, defaults, supported, 1)
    assert (code, message) == (
        95,
        FAILED + "Invalid update version 1 for feature eligible.leader.replicas.version. "
        "eligible.leader.replicas.version could not be set to 1 because it depends on metadata.version level 23",
    )
    # the same request raising metadata.version too passes: the check sees the proposed levels
    assert levels.update([(ELR, 1, UPGRADE), ("metadata.version", 23, UPGRADE)], True, defaults, supported, 1) == (
        0,
        None,
    )
    assert levels.levels == {}  # validate_only stored nothing
    # level 0 has no dependencies; any level >= 1 needs metadata.version 4 (3.3-IV0) for its record
    assert dependency_error(ELR, 0, {"metadata.version": 1}) is None
    assert dependency_error("group.version", 1, {"metadata.version": 3}) == (
        "Invalid update version 1 for feature group.version. "
        "group.version could not be set to 1 because it depends on metadata.version=4 (3.3-IV0)"
    )
    assert dependency_error("group.version", 1, {"metadata.version": 4}) is None
    # what this broker supports has no dependency it could miss: every update below stays valid
    ours = finalized_features()
    for name, (lo, hi) in SUPPORTED_FEATURES.items():
        for level in range(max(lo, 1), hi + 1):
            assert dependency_error(name, level, ours) is None


def broker(protocols: str, levels: FeatureLevels) -> Any:
    return SimpleNamespace(config={"group.coordinator.rebalance.protocols": protocols}, feature_levels=levels)


def test_group_streams_and_share_apis_follow_their_feature_levels(tmp_path: Path) -> None:
    levels = FeatureLevels(tmp_path / FeatureLevels.FILE_NAME)
    b = broker("classic,consumer,streams", levels)
    assert group_protocol_enabled(b) and streams_protocol_enabled(b) and share_groups_enabled(b)
    defaults = finalized_features("classic,consumer,streams")
    for name in ("group.version", "streams.version", "share.version"):
        assert levels.update([(name, 0, SAFE_DOWNGRADE)], False, defaults, SUPPORTED_FEATURES, 1) == (0, None)
    assert finalized_level(b, "group.version") == 0
    assert not group_protocol_enabled(b) and not streams_protocol_enabled(b) and not share_groups_enabled(b)
    # persisted: a restarted broker keeps them off
    reloaded = FeatureLevels(tmp_path / FeatureLevels.FILE_NAME)
    reloaded.load()
    assert not group_protocol_enabled(broker("classic,consumer,streams", reloaded))
    # back up: on again
    for name in ("group.version", "streams.version", "share.version"):
        assert levels.update([(name, 1, UPGRADE)], False, defaults, SUPPORTED_FEATURES, 1) == (0, None)
    assert group_protocol_enabled(b) and streams_protocol_enabled(b) and share_groups_enabled(b)
    # the config switch counts too, as in Kafka: group.version 1 alone does not enable an unconfigured protocol
    classic = broker("classic", levels)
    assert not group_protocol_enabled(classic) and not streams_protocol_enabled(classic)
    assert share_groups_enabled(classic)  # share groups have no config switch in 4.3.1
