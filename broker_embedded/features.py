"""Finalized feature levels changed by UpdateFeatures (API 57), as Kafka's FeatureControlManager
decides them; ApiVersions v3+ reports them (kafka-features describe).

The default levels come from `versions.finalized_features` (what this broker runs with); an
UpdateFeatures that succeeds stores its levels over them, and level 0 takes a feature out of the
finalized list. One bad update fails the whole request (Kafka's "The update failed for all
features since the following feature had an error: ..."), with Kafka's messages:
- upgrade type 0: "The controller does not support the given upgrade type."
- a level below 0: "A feature version cannot be less than 0."
- a level outside the supported range: "Local controller N only supports versions a-b" (or
  "... does not support this feature." for an unknown feature);
- a lower level with upgrade type UPGRADE: "Can't downgrade the version of this feature without
  setting the upgrade type to either safe or unsafe downgrade."; a higher one with a downgrade
  type: "Can't downgrade to a newer version.";
- metadata.version: a downgrade is refused ("Unsupported metadata.version downgrade from a to b.
  Refusing to perform the requested downgrade because it might delete metadata information.", as
  Kafka 4.3.1 answers), since this broker does not know which metadata versions changed the records.
A single broker stores the levels in `<log dir>/features.json`; in a cluster the controller does
and its image carries them (section "features").
- dependencies, as Kafka 4.3.1's Feature.validateVersion checks them against the levels the request
  would leave: a level >= 1 needs metadata.version 4 (3.3-IV0) and each level's own dependencies
  ("eligible.leader.replicas.version could not be set to 1 because it depends on metadata.version
  level 23"), each wrapped as "Invalid update version ..." like the other reasons.

The levels are acted on as Kafka's KafkaApis does (`group_protocol_enabled` and its kin): with
group.version 0 the consumer group protocol's APIs (68, 69) answer UNSUPPORTED_VERSION before any
ACL check, with streams.version 0 the streams group APIs (88, 89), with share.version 0 the share
group APIs (76-79, 90-92); ApiVersions still lists those APIs, as Apache Kafka's does.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from broker_embedded.versions import finalized_features
from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    from broker_embedded.broker import Broker

UPGRADE = 1
SAFE_DOWNGRADE = 2
UNSAFE_DOWNGRADE = 3
METADATA_VERSION = "metadata.version"
GROUP_VERSION = "group.version"
SHARE_VERSION = "share.version"
STREAMS_VERSION = "streams.version"
UNSUPPORTED = "The version of API is not supported."  # Kafka's UnsupportedVersionException text (Errors)

# Kafka 4.3.1's Feature.validateVersion: every level >= 1 needs metadata.version 4 (IBP_3_3_IV0) to write
# its FeatureLevelRecord, and each FeatureVersion's dependencies() (only eligible.leader.replicas.version
# 1 has one in 4.3.1: metadata.version 4.0-IV1; group/share/streams/transaction.version have none).
FEATURE_RECORDS_METADATA_LEVEL = (4, "3.3-IV0")
DEPENDENCIES: dict[tuple[str, int], dict[str, int]] = {
    ("eligible.leader.replicas.version", 1): {METADATA_VERSION: 23},
}


def _range(lo: int, hi: int) -> str:
    """Kafka's VersionRange.toString."""
    return str(lo) if lo == hi else f"{lo}-{hi}"


class FeatureLevels:
    FILE_NAME = "features.json"

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.levels: dict[str, int] = {}  # set by UpdateFeatures, over the defaults
        self.epoch = 0  # bumped on every change (Kafka: the metadata offset of the change)

    def finalized(self, defaults: Mapping[str, int]) -> dict[str, int]:
        """The finalized levels: the defaults with the updates over them, level 0 left out."""
        merged = {**defaults, **self.levels}
        return {name: level for name, level in merged.items() if level > 0}

    def check(
        self,
        updates: list[tuple[str, int, int]],
        defaults: Mapping[str, int],
        supported: Mapping[str, tuple[int, int]],
        node_id: int,
    ) -> tuple[int, str | None]:
        """(error code, message) of an UpdateFeatures request [(feature, level, upgrade type)]."""
        current = {**defaults, **self.levels}
        # Kafka checks dependencies against the levels the whole request would leave
        proposed = {**current, **{name: level for name, level, _ in updates}}
        for name, level, kind in updates:
            message = self._reason(name, level, kind, current.get(name, 0), supported, node_id)
            if message is None and name != METADATA_VERSION:
                message = dependency_error(name, level, proposed)
            if message is not None:
                return int(ErrorCode.INVALID_UPDATE_VERSION), message
        return int(ErrorCode.NONE), None

    @staticmethod
    def _reason(
        name: str, level: int, kind: int, current: int, supported: Mapping[str, tuple[int, int]], node_id: int
    ) -> str | None:
        def invalid(why: str) -> str:
            return f"Invalid update version {level} for feature {name}. {why}"

        if kind not in (UPGRADE, SAFE_DOWNGRADE, UNSAFE_DOWNGRADE):
            return invalid("The controller does not support the given upgrade type.")
        if level < 0:
            return invalid("A feature version cannot be less than 0.")
        lo, hi = supported.get(name, (0, 0))
        if not lo <= level <= hi:
            if hi == 0:
                return invalid(f"Local controller {node_id} does not support this feature.")
            return invalid(f"Local controller {node_id} only supports versions {_range(lo, hi)}")
        if level < current and kind == UPGRADE:
            return invalid(
                "Can't downgrade the version of this feature without setting the upgrade type to "
                "either safe or unsafe downgrade."
            )
        if level > current and kind != UPGRADE:
            return invalid("Can't downgrade to a newer version.")
        if name == METADATA_VERSION and level < current:
            what = f"Unsupported metadata.version downgrade from {current} to {level}."
            if kind == UNSAFE_DOWNGRADE:
                return f"{what} Unsafe metadata downgrade is not supported in this version."
            return f"{what} Refusing to perform the requested downgrade because it might delete metadata information."
        return None

    def update(
        self,
        updates: list[tuple[str, int, int]],
        validate_only: bool,
        defaults: Mapping[str, int],
        supported: Mapping[str, tuple[int, int]],
        node_id: int,
    ) -> tuple[int, str | None]:
        """Check, then (unless validate_only) apply and save; (error code, top-level message)."""
        code, message = self.check(updates, defaults, supported, node_id)
        if code != ErrorCode.NONE:
            return code, f"The update failed for all features since the following feature had an error: {message}"
        if not validate_only and updates:
            for name, level, _ in updates:
                self.levels[name] = level
            self.epoch += 1
            self.save()
        return code, None

    def to_json(self) -> dict[str, Any]:
        return {"levels": dict(sorted(self.levels.items())), "epoch": self.epoch}

    def load_json(self, data: Mapping[str, Any] | None) -> None:
        data = data or {}
        self.levels = {str(k): int(v) for k, v in (data.get("levels") or {}).items()}
        self.epoch = int(data.get("epoch", 0))

    def load(self) -> None:
        if self.path is not None and self.path.exists():
            self.load_json(json.loads(self.path.read_text()))

    def save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump(self.to_json(), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)


def dependency_error(name: str, level: int, proposed: Mapping[str, int]) -> str | None:
    """Kafka's Feature.validateVersion for `name` at `level` among the `proposed` levels, as the
    "Invalid update version" reason FeatureControlManager answers (None: the dependencies hold)."""
    why = None
    mv = proposed.get(METADATA_VERSION)
    min_level, min_release = FEATURE_RECORDS_METADATA_LEVEL
    if level >= 1 and (mv is None or mv < min_level):
        why = f"{name} could not be set to {level} because it depends on {METADATA_VERSION}={min_level} ({min_release})"
    else:
        for dependency, needed in DEPENDENCIES.get((name, level), {}).items():
            have = proposed.get(dependency)
            if have is None or have < needed:
                why = f"{name} could not be set to {level} because it depends on {dependency} level {needed}"
                break
    return None if why is None else f"Invalid update version {level} for feature {name}. {why}"


def finalized_level(broker: Broker, name: str) -> int:
    """The level of `name` this broker runs at: UpdateFeatures' levels over the configured defaults (0:
    not finalized)."""
    defaults = finalized_features(broker.config["group.coordinator.rebalance.protocols"])
    return broker.feature_levels.finalized(defaults).get(name, 0)


def _protocol_configured(broker: Broker, protocol: str) -> bool:
    configured = str(broker.config["group.coordinator.rebalance.protocols"])
    return protocol in {p.strip().lower() for p in configured.split(",")}


def group_protocol_enabled(broker: Broker) -> bool:
    """KafkaApis.isConsumerGroupProtocolEnabled: "consumer" configured and group.version >= 1."""
    return _protocol_configured(broker, "consumer") and finalized_level(broker, GROUP_VERSION) >= 1


def streams_protocol_enabled(broker: Broker) -> bool:
    """KafkaApis.isStreamsGroupProtocolEnabled: "streams" configured and streams.version >= 1."""
    return _protocol_configured(broker, "streams") and finalized_level(broker, STREAMS_VERSION) >= 1


def share_groups_enabled(broker: Broker) -> bool:
    """KafkaApis.isShareGroupProtocolEnabled: share.version >= 1 (no config switch in 4.3.1)."""
    return finalized_level(broker, SHARE_VERSION) >= 1
