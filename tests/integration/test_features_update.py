"""kafka-features upgrade / downgrade (UpdateFeatures, API 57) and the finalized features of
ApiVersions (what kafka-features describe prints) on our broker and Apache Kafka 4.3.1 (issue 30):
the tool's answer for an unknown feature, a real group.version downgrade (level 0 leaves the
finalized list, the epoch moves) and the upgrade back; on the wire the same answers for
validate-only updates, a downgrade asked as an upgrade, an unknown upgrade type, an unsupported
level, a negative level and a refused metadata.version downgrade. The levels are acted on: with
group.version 0 ConsumerGroupHeartbeat/Describe answer UNSUPPORTED_VERSION (and a join works again
after the upgrade), with share.version / streams.version 0 the share and streams group APIs do."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest

from kafka_wire.protocol.messages import alter_share_group_offsets_request as asoq
from kafka_wire.protocol.messages import api_versions_request as avq
from kafka_wire.protocol.messages import consumer_group_describe_request as cgd
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh
from kafka_wire.protocol.messages import delete_share_group_offsets_request as dsoq
from kafka_wire.protocol.messages import describe_share_group_offsets_request as dsgo
from kafka_wire.protocol.messages import find_coordinator_request as fcq
from kafka_wire.protocol.messages import share_acknowledge_request as saq
from kafka_wire.protocol.messages import share_fetch_request as sfq
from kafka_wire.protocol.messages import share_group_describe_request as sgd
from kafka_wire.protocol.messages import share_group_heartbeat_request as sgh
from kafka_wire.protocol.messages import streams_group_describe_request as stgd
from kafka_wire.protocol.messages import streams_group_heartbeat_request as stgh
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


UNSUPPORTED = 35


def _consumer_group_apis(bootstrap: str, group: str) -> tuple[Any, Any]:
    """(ConsumerGroupHeartbeat v0 join, ConsumerGroupDescribe v0) answers for `group`."""
    conn = w.connect(bootstrap)
    try:
        # as a client does first: on a fresh Apache broker this creates __consumer_offsets (else NOT_COORDINATOR)
        conn.request(10, fcq.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4)
        join = cgh.ConsumerGroupHeartbeatRequest(
            group_id=group,
            member_epoch=0,
            rebalance_timeout_ms=30000,
            subscribed_topic_names=["features-t"],
            topic_partitions=[],
        )
        heartbeat = conn.request(68, join, 0)
        describe = conn.request(69, cgd.ConsumerGroupDescribeRequest(group_ids=[group]), 0)
        if heartbeat.error_code == 0:  # joined: leave again (the session broker is shared)
            leave = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=heartbeat.member_id, member_epoch=-1)
            conn.request(68, leave, 0)
        return heartbeat, describe
    finally:
        conn.close()


@pytest.mark.slow  # three JVM tool runs per broker
def test_kafka_features_upgrade_downgrade(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    group = f"features-{uuid.uuid4().hex[:8]}"
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
        # acted on, as Kafka's KafkaApis: the consumer group protocol's APIs answer UNSUPPORTED_VERSION
        heartbeat, describe = _consumer_group_apis(bootstrap, group)
        assert (heartbeat.error_code, heartbeat.error_message, heartbeat.member_id) == (UNSUPPORTED, None, None)
        assert [(g.group_id, g.error_code, g.error_message) for g in describe.groups] == [(group, UNSUPPORTED, None)]
    finally:
        restored = _run(java_client, bootstrap, "upgrade", "--feature", "group.version=1")
    assert restored == (0, "group.version was upgraded to 1."), restored
    # a member joins again once group.version 1 is finalized (Apache applies it through its metadata log)
    wait_until(lambda: _consumer_group_apis(bootstrap, group)[0].error_code == 0, 10, 0.1, "a consumer-protocol join")


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


def _share_and_streams_apis(bootstrap: str, describe_only: bool = False) -> list[tuple[int, Any, Any]]:
    """(api key, error code, error message) of each share / streams group API, one group each (the
    heartbeats and the fetch only when the APIs are off: they would join a group otherwise)."""
    conn = w.connect(bootstrap)
    try:
        out: list[tuple[int, Any, Any]] = []
        if not describe_only:
            r = conn.request(76, sgh.ShareGroupHeartbeatRequest(group_id="gate-s", subscribed_topic_names=["t"]), 1)
            out.append((76, r.error_code, r.error_message))
        r = conn.request(77, sgd.ShareGroupDescribeRequest(group_ids=["gate-s"]), 1)
        out += [(77, g.error_code, g.error_message) for g in r.groups]
        if not describe_only:
            fetch = sfq.ShareFetchRequest(group_id="gate-s", member_id=uuid.uuid4().hex[:22], topics=[])
            r = conn.request(78, fetch, 1)
            out.append((78, r.error_code, r.error_message))
            ack = saq.ShareAcknowledgeRequest(group_id="gate-s", member_id=uuid.uuid4().hex[:22], topics=[])
            r = conn.request(79, ack, 1)
            out.append((79, r.error_code, r.error_message))
            r = conn.request(91, asoq.AlterShareGroupOffsetsRequest(group_id="gate-s", topics=[]), 0)
            out.append((91, r.error_code, r.error_message))
            r = conn.request(92, dsoq.DeleteShareGroupOffsetsRequest(group_id="gate-s", topics=[]), 0)
            out.append((92, r.error_code, r.error_message))
            hb = stgh.StreamsGroupHeartbeatRequest(group_id="gate-st", member_id="m", member_epoch=0)
            r = conn.request(88, hb, 0)
            out.append((88, r.error_code, r.error_message))
        offsets = dsgo.DescribeShareGroupOffsetsRequest(
            groups=[dsgo.DescribeShareGroupOffsetsRequestGroup(group_id="gate-s", topics=None)]
        )
        r = conn.request(90, offsets, 0)
        out += [(90, g.error_code, g.error_message) for g in r.groups]
        r = conn.request(89, stgd.StreamsGroupDescribeRequest(group_ids=["gate-st"]), 0)
        out += [(89, g.error_code, g.error_message) for g in r.groups]
        return out
    finally:
        conn.close()


def test_share_and_streams_version_0_turn_their_apis_off(either_broker: Any) -> None:
    """share.version / streams.version 0 (a real downgrade, restored in a finally): the share group APIs
    and the streams group APIs answer UNSUPPORTED_VERSION before any other check, as Kafka 4.3.1 does;
    ApiVersions keeps listing them."""
    bootstrap = either_broker.bootstrap_servers
    before, _ = _finalized(bootstrap)
    assert before.get("share.version") == 1 and before.get("streams.version") == 1, before
    conn = w.connect(bootstrap)

    def update(level: int, kind: int) -> Any:
        updates = [
            ufq.FeatureUpdateKey(feature=f, max_version_level=level, upgrade_type=kind)
            for f in ("share.version", "streams.version")
        ]
        return conn.request(57, ufq.UpdateFeaturesRequest(feature_updates=updates, validate_only=False), 1)

    try:
        assert update(0, 2).error_code == 0
        wait_until(lambda: "share.version" not in _finalized(bootstrap)[0], 10, 0.1, "share.version 0 finalized")
        wait_until(lambda: "streams.version" not in _finalized(bootstrap)[0], 10, 0.1, "streams.version 0")
        assert _share_and_streams_apis(bootstrap) == [
            (76, UNSUPPORTED, None),
            (77, UNSUPPORTED, None),
            (78, UNSUPPORTED, None),
            (79, UNSUPPORTED, None),
            (91, UNSUPPORTED, "The version of API is not supported."),
            (92, UNSUPPORTED, "The version of API is not supported."),
            (88, UNSUPPORTED, None),
            (90, UNSUPPORTED, None),
            (89, UNSUPPORTED, None),
        ]
        versions = conn.request(18, avq.ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
        keys = {k.api_key for k in versions.api_keys}
        assert {76, 77, 78, 79, 88, 89, 90, 91, 92} <= keys
    finally:
        restored = update(1, 1)
        conn.close()
    assert restored.error_code == 0, restored
    wait_until(
        lambda: {"share.version", "streams.version"} <= set(_finalized(bootstrap)[0]), 10, 0.1, "levels restored"
    )
    # on again: the gate is off (a describe of an unknown group is no longer UNSUPPORTED_VERSION)
    assert all(code != UNSUPPORTED for _, code, _ in _share_and_streams_apis(bootstrap, describe_only=True))
