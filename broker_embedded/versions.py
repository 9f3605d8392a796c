"""The release profile this broker advertises in ApiVersions.

One coherent set, like kfake's ``--as-version``: the API ranges of Apache Kafka 4.0, cut to the
APIs implemented here and to the versions our generated codecs know. Clients infer the broker's
release from marker versions (kafka-python: ListOffsets v10 ⇒ 4.0), so a mixed set would make them
guess wrong.
"""

from __future__ import annotations

from kafka_wire.protocol.messages import REQUEST_VERSIONS, RESPONSE_VERSIONS

RELEASE = "4.0"

# Apache Kafka 4.0's advertised ranges (api key -> (min, max)).
KAFKA_4_0: dict[int, tuple[int, int]] = {
    0: (0, 12), 1: (4, 17), 2: (1, 10), 3: (0, 13), 8: (2, 9), 9: (1, 9), 10: (0, 6), 11: (2, 9),
    12: (0, 4), 13: (0, 5), 14: (0, 5), 15: (0, 6), 16: (0, 5), 17: (0, 1), 18: (0, 4), 19: (2, 7),
    20: (1, 6), 21: (0, 2), 22: (0, 5), 23: (2, 4), 24: (0, 5), 25: (0, 4), 26: (0, 5), 27: (1, 1),
    28: (0, 5), 29: (1, 3), 30: (1, 3), 31: (1, 3), 32: (1, 4), 33: (0, 2), 34: (1, 2), 35: (1, 4),
    36: (0, 2), 37: (0, 3), 42: (0, 2), 43: (0, 2), 44: (0, 1), 45: (0, 0), 46: (0, 0), 47: (0, 0),
    48: (0, 1), 49: (0, 1), 50: (0, 0), 51: (0, 0), 55: (0, 2), 57: (0, 2), 60: (0, 2), 61: (0, 0),
    65: (0, 0), 66: (0, 1), 74: (0, 0), 75: (0, 0),
}  # fmt: skip


# OffsetCommit and OffsetFetch v10 name topics by id (KIP-848's follow-up), as Apache Kafka 4.3.1
# advertises them. kafka-python's release inference does not look at these two APIs.
TOPIC_ID_OFFSETS: dict[int, tuple[int, int]] = {8: (2, 10), 9: (1, 10)}

# The consumer group protocol's APIs (KIP-848), as Kafka 4.0 advertises them: only when
# group.coordinator.rebalance.protocols includes "consumer" (Kafka's switch for the protocol).
CONSUMER_PROTOCOL: dict[int, tuple[int, int]] = {68: (0, 1), 69: (0, 1)}

# Streams groups (KIP-1071), as Apache Kafka 4.3.1 advertises them: only when
# group.coordinator.rebalance.protocols includes "streams" (feature streams.version=1).
STREAMS_PROTOCOL: dict[int, tuple[int, int]] = {88: (0, 0), 89: (0, 0)}

# Share groups (KIP-932) as Apache Kafka 4.3.1 advertises them: ShareGroupHeartbeat,
# ShareGroupDescribe, ShareFetch, ShareAcknowledge (single broker; RPCs 83-86 not yet).
# DescribeShareGroupOffsets / AlterShareGroupOffsets / DeleteShareGroupOffsets (kafka-share-groups).
SHARE_GROUPS: dict[int, tuple[int, int]] = {
    76: (1, 1),
    77: (1, 1),
    78: (1, 2),
    79: (1, 2),
    83: (0, 0),  # Initialize/Read/Write/DeleteShareGroupState, ReadShareGroupStateSummary (the share
    84: (0, 0),  # coordinator's RPCs; served where the broker holds __share_group_state itself)
    85: (0, 1),
    86: (0, 0),
    87: (0, 1),
    90: (0, 1),
    91: (0, 0),
    92: (0, 0),
}


# Feature levels (ApiVersions v3+, KIP-584) of Kafka 4.0 (`kafka-features.sh version-mapping
# --release-version 4.0`), cut to what this broker implements: metadata.version 3.3-IV3 (7) to
# 4.0-IV3 (25); group.version 1 = the KIP-848 consumer protocol, finalized only when it is enabled.
# Not listed until real here: kraft.version (no Raft quorum), transaction.version 2 (KIP-890 part 2:
# a client seeing it finalized skips AddPartitionsToTxn), eligible.leader.replicas.
SUPPORTED_FEATURES: dict[str, tuple[int, int]] = {
    "metadata.version": (7, 25),
    "group.version": (0, 1),
    "streams.version": (0, 1),
    "share.version": (0, 1),  # share groups (KIP-932), finalized as on Apache Kafka 4.3.1
}
FINALIZED_FEATURES_EPOCH = 0  # the base epoch; each UpdateFeatures change adds one (broker_embedded/features.py)


def finalized_features(rebalance_protocols: str = "classic,consumer,streams") -> dict[str, int]:
    """Finalized feature levels for `rebalance_protocols` (group.coordinator.rebalance.protocols)."""
    out = {"metadata.version": SUPPORTED_FEATURES["metadata.version"][1], "share.version": 1}
    if "consumer" in {p.strip().lower() for p in rebalance_protocols.split(",")}:
        out["group.version"] = 1
    if "streams" in {p.strip().lower() for p in rebalance_protocols.split(",")}:
        out["streams.version"] = 1
    return out


def advertised_versions(
    implemented: set[int], rebalance_protocols: str = "classic,consumer,streams"
) -> dict[int, tuple[int, int]]:
    """Ranges to advertise: the profile ∩ implemented APIs ∩ codec ranges (request and response).

    The codec ranges come from the generated tables (the modules' ``VALID_VERSIONS``), so this runs
    at start without importing a codec. `rebalance_protocols`: group.coordinator.rebalance.protocols.
    """
    profile = dict(KAFKA_4_0) | SHARE_GROUPS | TOPIC_ID_OFFSETS
    if "consumer" in {p.strip().lower() for p in rebalance_protocols.split(",")}:
        profile.update(CONSUMER_PROTOCOL)
    if "streams" in {p.strip().lower() for p in rebalance_protocols.split(",")}:
        profile.update(STREAMS_PROTOCOL)
    out: dict[int, tuple[int, int]] = {}
    for key in sorted(implemented):
        if key not in profile or key not in REQUEST_VERSIONS or key not in RESPONSE_VERSIONS:
            continue
        lo, hi = profile[key]
        rq, rs = REQUEST_VERSIONS[key], RESPONSE_VERSIONS[key]
        lo = max(lo, rq[0], rs[0])
        hi = min(hi, rq[1], rs[1])
        if lo <= hi:
            out[key] = (lo, hi)
    return out
