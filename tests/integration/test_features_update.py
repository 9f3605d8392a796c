"""kafka-features upgrade / downgrade (UpdateFeatures, API 57) and the finalized features of
ApiVersions (what kafka-features describe prints) on our broker and Apache Kafka 4.3.1 (issue 30):
the tool's answer for an unknown feature, a real group.version downgrade (level 0 leaves the
finalized list, the epoch moves) and the upgrade back; on the wire the same answers for
validate-only updates, a downgrade asked as an upgrade, an unknown upgrade type, an unsupported
level, a negative level and a refused metadata.version downgrade."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kafka_wire.protocol.messages import api_versions_request as avq
from kafka_wire.protocol.messages import update_features_request as ufq
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until

FEATURES = "org.apache.kafka.tools.FeatureCommand"


def _run(java_client: Any, bootstrap: str, *args: str) -> tuple[int, str]:
    out = java_client.run(FEATURES, "--bootstrap-server", bootstrap, *args, check=False)
    text = (out.stdout + out.stderr).strip()
    # the controller's node id and the supported range's top differ between the brokers
    text = re.sub(r"Local controller \d+", "Local controller N", text)
    return out.returncode, text


def _finalized(bootstrap: str) -> tuple[dict[str, int], int]:
    """ApiVersions v4's finalized levels and epoch (what kafka-features describe prints)."""
    conn = w.connect(bootstrap)
    try:
        r = conn.request(18, avq.ApiVersionsRequest(client_software_name="t", client_software_version="1"), 4)
        return {f.name: f.max_version_level for f in r.finalized_features}, r.finalized_features_epoch
    finally:
        conn.close()


@pytest.mark.slow  # three JVM tool runs per broker
def test_kafka_features_upgrade_downgrade(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    before, epoch = _finalized(bootstrap)
    assert before["group.version"] == 1, before
    assert _run(java_client, bootstrap, "upgrade", "--feature", "foo.version=1") == (
        1,
        "Could not upgrade foo.version to 1. The update failed for all features since the following feature had an "
        "error: Invalid update version 1 for feature foo.version. Local controller N does not support this feature.\n"
        "1 out of 1 operation(s) failed.",
    )
    try:
        assert _run(java_client, bootstrap, "downgrade", "--feature", "group.version=0") == (
            0,
            "group.version was downgraded to 0.",
        )

        def downgraded() -> bool:
            after, after_epoch = _finalized(bootstrap)
            return "group.version" not in after and after_epoch > epoch  # level 0 leaves the finalized list

        wait_until(downgraded, 10, 0.1, "group.version 0 finalized")
    finally:
        restored = _run(java_client, bootstrap, "upgrade", "--feature", "group.version=1")
    assert restored == (0, "group.version was upgraded to 1."), restored


def test_update_features_wire(either_broker: Any) -> None:
    """v2 answers without per-feature results; v1 lists them on success; a downgrade asked as an
    upgrade is INVALID_UPDATE_VERSION (95) for the whole request; validate_only changes nothing."""
    conn = w.connect(either_broker.bootstrap_servers)
    try:

        def update(version: int, *updates: tuple[str, int, int], validate_only: bool = True) -> Any:
            req = ufq.UpdateFeaturesRequest(
                feature_updates=[
                    ufq.FeatureUpdateKey(feature=f, max_version_level=lvl, upgrade_type=t) for f, lvl, t in updates
                ],
                validate_only=validate_only,
            )
            return conn.request(57, req, version)

        ok = update(2, ("group.version", 1, 1))
        assert (ok.error_code, ok.error_message, ok.results) == (0, None, [])
        ok1 = update(1, ("group.version", 1, 1))
        assert ok1.error_code == 0 and [(r.feature, r.error_code) for r in ok1.results] == [("group.version", 0)]
        bad = update(2, ("group.version", 1, 1), ("group.version", 0, 1))
        assert bad.error_code == 95 and bad.results == [], bad
        assert bad.error_message == (
            "The update failed for all features since the following feature had an error: Invalid update version 0 "
            "for feature group.version. Can't downgrade the version of this feature without setting the upgrade "
            "type to either safe or unsafe downgrade."
        )
        newer = update(2, ("group.version", 1, 2))
        assert newer.error_code == 0, newer  # the same level as a safe downgrade is no change
        unknown_type = update(2, ("group.version", 1, 0))
        assert unknown_type.error_code == 95 and "does not support the given upgrade type" in unknown_type.error_message
        failed_all = "The update failed for all features since the following feature had an error: "
        too_high = update(2, ("group.version", 9, 1))
        assert too_high.error_code == 95 and re.fullmatch(
            re.escape(failed_all) + r"Invalid update version 9 for feature group.version. Local controller \d+ only "
            r"supports versions 0-1",
            too_high.error_message,
        ), too_high
        mv = update(2, ("metadata.version", 21, 2))  # a safe downgrade to 3.9's level
        assert mv.error_code == 95 and re.fullmatch(
            re.escape(failed_all) + r"Unsupported metadata.version downgrade from \d+ to 21\. Refusing to perform the "
            r"requested downgrade because it might delete metadata information\.",
            mv.error_message,
        ), mv
        below = update(2, ("group.version", -1, 2))
        assert below.error_code == 95 and below.error_message.endswith("A feature version cannot be less than 0.")
    finally:
        conn.close()
