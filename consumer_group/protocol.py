"""Kafka's ConsumerProtocol: the bytes inside JoinGroup metadata and SyncGroup assignments.

The broker treats these as opaque; members of one group must agree on them, so we write exactly
what the Java client and librdkafka write: a 2-byte big-endian version, then the
ConsumerProtocolSubscription / ConsumerProtocolAssignment struct of that version (non-flexible
encoding). Decoding accepts versions newer than ours the way Kafka does: newer versions only
append fields, so the highest version we know reads the prefix and the rest is ignored.

Assignor-specific user data lives here too:
- eager `sticky`: StickyAssignorUserData v1 (previous assignment + generation, v0 without it),
  because an eager member revokes everything before rejoining and so reports no owned partitions;
- `cooperative-sticky`: an int32 generation (for peers that only read subscription v0/v1).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass

from consumer_group.structs import TopicPartition
from kafka_wire.errors import ProtocolDecodeError
from kafka_wire.protocol.messages import consumer_protocol_assignment as cpa
from kafka_wire.protocol.messages import consumer_protocol_subscription as cps
from kafka_wire.protocol.primitives import enc_array_len, enc_string, read_array_len, read_string

CONSUMER_PROTOCOL_TYPE = "consumer"
SUBSCRIPTION_VERSIONS = cps.VALID_VERSIONS
ASSIGNMENT_VERSIONS = cpa.VALID_VERSIONS
HIGHEST_SUBSCRIPTION_VERSION = SUBSCRIPTION_VERSIONS[1]
HIGHEST_ASSIGNMENT_VERSION = ASSIGNMENT_VERSIONS[1]

_i16 = struct.Struct(">h")
_i32 = struct.Struct(">i")


@dataclass(frozen=True, slots=True)
class Subscription:
    """A decoded ConsumerProtocolSubscription (fields absent from `version` keep their defaults)."""

    topics: tuple[str, ...]
    user_data: bytes | None = None
    owned_partitions: tuple[TopicPartition, ...] = ()
    generation_id: int = -1
    rack_id: str | None = None
    version: int = HIGHEST_SUBSCRIPTION_VERSION


@dataclass(frozen=True, slots=True)
class Assignment:
    """A decoded ConsumerProtocolAssignment."""

    partitions: tuple[TopicPartition, ...] = ()
    user_data: bytes | None = None
    version: int = 0


def group_by_topic(partitions: Iterable[TopicPartition]) -> list[tuple[str, list[int]]]:
    """Sorted (topic, sorted partitions) pairs: the wire layout of a partition set."""
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return [(t, sorted(ps)) for t, ps in sorted(by_topic.items())]


def _flatten(pairs: Iterable[object] | None) -> tuple[TopicPartition, ...]:
    if not pairs:
        return ()
    out = []
    for tp in pairs:
        # generated TopicPartition structs of the v0 and v1+ schemas both have these fields
        topic = tp.topic  # type: ignore[attr-defined]
        # generated TopicPartition structs of the v0 and v1+ schemas both have these fields
        for p in tp.partitions or ():  # type: ignore[attr-defined]
            out.append(TopicPartition(topic, p))
    return tuple(out)


def _read_version(data: bytes | bytearray | memoryview, what: str) -> int:
    if len(data) < 2:
        raise ProtocolDecodeError(f"{what} is shorter than its version prefix")
    (version,) = _i16.unpack_from(data, 0)
    if version < 0:
        raise ProtocolDecodeError(f"{what} has negative version {version}")
    return version


def encode_subscription(sub: Subscription, version: int = HIGHEST_SUBSCRIPTION_VERSION) -> bytes:
    lo, hi = SUBSCRIPTION_VERSIONS
    if not lo <= version <= hi:
        raise ValueError(f"ConsumerProtocolSubscription version {version} outside {lo}..{hi}")
    msg = cps.ConsumerProtocolSubscription(
        topics=list(sub.topics),
        user_data=sub.user_data,
        owned_partitions=[cps.TopicPartition(t, ps) for t, ps in group_by_topic(sub.owned_partitions)],
        generation_id=sub.generation_id,
        rack_id=sub.rack_id,
    )
    out: list[bytes] = [_i16.pack(version)]
    cps.ENCODERS[version](msg, out)
    return b"".join(out)


def decode_subscription(data: bytes | bytearray | memoryview) -> Subscription:
    version = _read_version(data, "subscription")
    try:
        msg, _ = cps.DECODERS[min(version, HIGHEST_SUBSCRIPTION_VERSION)](data, 2)
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolDecodeError(f"malformed subscription: {e}") from e
    return Subscription(
        topics=tuple(msg.topics or ()),
        user_data=msg.user_data,
        owned_partitions=_flatten(msg.owned_partitions),
        generation_id=msg.generation_id,
        rack_id=msg.rack_id,
        version=version,
    )


def encode_assignment(assignment: Assignment, version: int = HIGHEST_ASSIGNMENT_VERSION) -> bytes:
    lo, hi = ASSIGNMENT_VERSIONS
    if not lo <= version <= hi:
        raise ValueError(f"ConsumerProtocolAssignment version {version} outside {lo}..{hi}")
    msg = cpa.ConsumerProtocolAssignment(
        assigned_partitions=[cpa.TopicPartition(t, ps) for t, ps in group_by_topic(assignment.partitions)],
        user_data=assignment.user_data,
    )
    out: list[bytes] = [_i16.pack(version)]
    cpa.ENCODERS[version](msg, out)
    return b"".join(out)


def decode_assignment(data: bytes | bytearray | memoryview | None) -> Assignment:
    # an empty SyncGroup assignment means "nothing for you" (Kafka sends it to members the
    # leader left out, and to everyone when the leader skipped assignment)
    if not data:
        return Assignment()
    version = _read_version(data, "assignment")
    try:
        msg, _ = cpa.DECODERS[min(version, HIGHEST_ASSIGNMENT_VERSION)](data, 2)
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolDecodeError(f"malformed assignment: {e}") from e
    return Assignment(partitions=_flatten(msg.assigned_partitions), user_data=msg.user_data, version=version)


# ---------------------------------------------------------------------------------------------
# assignor user data
# ---------------------------------------------------------------------------------------------


def encode_sticky_user_data(partitions: Iterable[TopicPartition], generation_id: int | None) -> bytes:
    """StickyAssignorUserData: v1 (with generation) unless `generation_id` is None (v0)."""
    pairs = group_by_topic(partitions)
    out = [enc_array_len(pairs)]
    for topic, ps in pairs:
        out.append(enc_string(topic))
        out.append(_i32.pack(len(ps)))
        out.append(struct.pack(f">{len(ps)}i", *ps))
    if generation_id is not None:
        out.append(_i32.pack(generation_id))
    return b"".join(out)


def decode_sticky_user_data(data: bytes | None) -> tuple[tuple[TopicPartition, ...], int]:
    """(previous assignment, generation or -1) from StickyAssignorUserData v0/v1.

    Java writes the struct bare; kafka-python 3.x prefixes an int16 version. We read the bare
    form and fall back to the prefixed one when the bare parse fails.
    """
    if not data:
        return (), -1
    try:
        return _decode_sticky_user_data(data, 0)
    except ProtocolDecodeError:
        if len(data) >= 2 and data[0] == 0 and data[1] in (0, 1):
            return _decode_sticky_user_data(data, 2)
        raise


def _decode_sticky_user_data(data: bytes, pos: int) -> tuple[tuple[TopicPartition, ...], int]:
    try:
        n, pos = read_array_len(data, pos)
        out: list[TopicPartition] = []
        for _ in range(max(n, 0)):
            topic, pos = read_string(data, pos)
            m, pos = read_array_len(data, pos)
            ps = struct.unpack_from(f">{max(m, 0)}i", data, pos)
            pos += 4 * max(m, 0)
            out.extend(TopicPartition(topic or "", p) for p in ps)
        if len(data) == pos:
            generation = -1  # v0
        elif len(data) == pos + 4:
            generation = _i32.unpack_from(data, pos)[0]
        else:
            raise ProtocolDecodeError("trailing bytes after sticky assignor user data")
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise ProtocolDecodeError(f"malformed sticky assignor user data: {e}") from e
    return tuple(out), generation


def encode_cooperative_user_data(generation_id: int) -> bytes:
    return _i32.pack(generation_id)


def decode_cooperative_user_data(data: bytes | None) -> int:
    if not data or len(data) < 4:
        return -1
    return int(_i32.unpack_from(data, 0)[0])


__all__ = [
    "ASSIGNMENT_VERSIONS",
    "CONSUMER_PROTOCOL_TYPE",
    "HIGHEST_ASSIGNMENT_VERSION",
    "HIGHEST_SUBSCRIPTION_VERSION",
    "SUBSCRIPTION_VERSIONS",
    "Assignment",
    "Subscription",
    "decode_assignment",
    "decode_cooperative_user_data",
    "decode_sticky_user_data",
    "decode_subscription",
    "encode_assignment",
    "encode_cooperative_user_data",
    "encode_sticky_user_data",
    "group_by_topic",
]
