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
and its image carries them (section "features"). The levels are reported, not acted on: a
group.version of 0 does not turn the consumer group protocol off here.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kafka_wire.errors import ErrorCode

UPGRADE = 1
SAFE_DOWNGRADE = 2
UNSAFE_DOWNGRADE = 3
METADATA_VERSION = "metadata.version"


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
        for name, level, kind in updates:
            message = self._reason(name, level, kind, current.get(name, 0), supported, node_id)
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
