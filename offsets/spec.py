"""Starting/ending offset specs, as Spark's Kafka source options spell them.

* `startingOffsets` / `endingOffsets`: ``earliest``, ``latest`` or JSON
  ``{"topicA": {"0": 23, "1": -1}, "topicB": {"0": -2}}`` where -2 means earliest and -1 latest.
* `startingOffsetsByTimestamp` / `endingOffsetsByTimestamp`: JSON ``{"topicA": {"0": 1700000000000}}``
  (milliseconds since the epoch); `startingTimestamp` / `endingTimestamp`: one timestamp for every
  partition.
* `assign`: JSON ``{"topicA": [0, 1], "topicB": [2, 4]}``.

The offsets a streaming query checkpoints use the same JSON shape with *next* offsets:
`format_partition_offsets` builds it with topics and partitions as string keys in sorted order,
so equal offsets always serialize to the same text (Spark compares offsets as JSON text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kafka_wire.errors import PykafkaError
from kafka_wire.types import TopicPartition, tp_str

PartitionOffsets = dict[TopicPartition, int]

EARLIEST = -2
LATEST = -1

STRATEGIES = ("error", "latest")


class OffsetSpecError(PykafkaError, ValueError):
    """A malformed offset/timestamp/assignment option; the message names the option."""


@dataclass(frozen=True)
class EarliestSpec:
    def __repr__(self) -> str:
        return "earliest"


@dataclass(frozen=True)
class LatestSpec:
    def __repr__(self) -> str:
        return "latest"


@dataclass(frozen=True)
class SpecificOffsetsSpec:
    """Per-partition offsets; -2 (earliest) and -1 (latest) are resolved against the broker."""

    offsets: PartitionOffsets = field(default_factory=dict)


@dataclass(frozen=True)
class SpecificTimestampsSpec:
    """Per-partition timestamps (ms): the earliest offset whose timestamp is >= the given one."""

    timestamps: PartitionOffsets = field(default_factory=dict)
    strategy: str = "error"


@dataclass(frozen=True)
class GlobalTimestampSpec:
    """One timestamp (ms) for every partition."""

    timestamp: int
    strategy: str = "error"


OffsetSpec = EarliestSpec | LatestSpec | SpecificOffsetsSpec | SpecificTimestampsSpec | GlobalTimestampSpec
EARLIEST_SPEC = EarliestSpec()
LATEST_SPEC = LatestSpec()

_OFFSETS_EXAMPLE = '{"topicA":{"0":23,"1":-1},"topicB":{"0":-2}}'
_TIMESTAMPS_EXAMPLE = '{"topicA":{"0":1700000000000,"1":1700000000000}}'
_ASSIGN_EXAMPLE = '{"topicA":[0,1],"topicB":[2,4]}'


def _load_json(option: str, text: str, example: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as e:
        raise OffsetSpecError(
            f"Invalid value {text!r} for option '{option}': not valid JSON ({e}); expected e.g. {example}"
        ) from None


def _as_int(option: str, text: str, v: Any, what: str, example: str) -> int:
    # JSON booleans are ints in Python: refuse them, and floats, explicitly
    if isinstance(v, bool) or not isinstance(v, int):
        raise OffsetSpecError(
            f"Invalid value {text!r} for option '{option}': {what} must be an integer, got {v!r}; "
            f"expected e.g. {example}"
        )
    return v


def parse_partition_offsets(option: str, text: str, *, example: str = _OFFSETS_EXAMPLE) -> PartitionOffsets:
    """`{"topic": {"partition": number}}` → {(topic, partition): number}."""
    obj = _load_json(option, text, example)
    if not isinstance(obj, dict) or not obj:
        raise OffsetSpecError(
            f"Invalid value {text!r} for option '{option}': expected a non-empty JSON object like {example}"
        )
    out: PartitionOffsets = {}
    for topic, parts in obj.items():
        if not topic:
            raise OffsetSpecError(f"Invalid value {text!r} for option '{option}': empty topic name")
        if not isinstance(parts, dict):
            raise OffsetSpecError(
                f"Invalid value {text!r} for option '{option}': the value for topic {topic!r} must be an "
                f"object of partition to number; expected e.g. {example}"
            )
        for p, n in parts.items():
            try:
                partition = int(p)
            except ValueError:
                partition = -1
            if partition < 0 or str(partition) != p.strip():
                raise OffsetSpecError(
                    f"Invalid value {text!r} for option '{option}': partition {p!r} of topic {topic!r} is not "
                    f"a non-negative integer; expected e.g. {example}"
                )
            value = _as_int(option, text, n, f"the value for {topic}-{partition}", example)
            out[TopicPartition(topic, partition)] = value
    return out


def parse_offset_spec(option: str, text: str | None, default: OffsetSpec) -> OffsetSpec:
    """`earliest` | `latest` | JSON offsets (with -2/-1) → a spec; None → `default`."""
    if text is None:
        return default
    t = text.strip()
    if t.lower() == "earliest":
        return EARLIEST_SPEC
    if t.lower() == "latest":
        return LATEST_SPEC
    if not t.startswith("{"):
        raise OffsetSpecError(
            f"Invalid value {text!r} for option '{option}': expected 'earliest', 'latest' or a JSON object "
            f"of partition offsets like {_OFFSETS_EXAMPLE} (-2 = earliest, -1 = latest)"
        )
    offsets = parse_partition_offsets(option, t)
    for tp, o in offsets.items():
        if o < EARLIEST:
            raise OffsetSpecError(
                f"Invalid value {text!r} for option '{option}': offset {o} for {tp_str(tp)} is negative; "
                "use -2 for earliest or -1 for latest"
            )
    return SpecificOffsetsSpec(offsets)


def parse_timestamp_spec(option: str, text: str, strategy: str) -> SpecificTimestampsSpec:
    stamps = parse_partition_offsets(option, text, example=_TIMESTAMPS_EXAMPLE)
    for tp, ts in stamps.items():
        if ts < 0:
            raise OffsetSpecError(
                f"Invalid value {text!r} for option '{option}': timestamp {ts} for {tp_str(tp)} is negative"
            )
    return SpecificTimestampsSpec(stamps, strategy)


def parse_global_timestamp(option: str, text: str, strategy: str) -> GlobalTimestampSpec:
    try:
        ts = int(text.strip())
    except ValueError:
        ts = -1
    if ts < 0:
        raise OffsetSpecError(
            f"Invalid value {text!r} for option '{option}': expected a timestamp in milliseconds since the "
            "epoch (a non-negative integer)"
        )
    return GlobalTimestampSpec(ts, strategy)


def parse_assign(text: str) -> dict[str, list[int]]:
    """`assign` option: `{"topicA": [0, 1]}` → {"topicA": [0, 1]}."""
    obj = _load_json("assign", text, _ASSIGN_EXAMPLE)
    if not isinstance(obj, dict) or not obj:
        raise OffsetSpecError(
            f"Invalid value {text!r} for option 'assign': expected a non-empty JSON object of topic to "
            f"partition list like {_ASSIGN_EXAMPLE}"
        )
    out: dict[str, list[int]] = {}
    for topic, parts in obj.items():
        if not topic or not isinstance(parts, list) or not parts:
            raise OffsetSpecError(
                f"Invalid value {text!r} for option 'assign': topic {topic!r} must map to a non-empty list of "
                f"partitions, e.g. {_ASSIGN_EXAMPLE}"
            )
        ps: list[int] = []
        for p in parts:
            if isinstance(p, bool) or not isinstance(p, int) or p < 0:
                raise OffsetSpecError(
                    f"Invalid value {text!r} for option 'assign': partition {p!r} of topic {topic!r} is not a "
                    "non-negative integer"
                )
            ps.append(p)
        out[topic] = sorted(set(ps))
    return out


def format_partition_offsets(offsets: PartitionOffsets) -> dict[str, dict[str, int]]:
    """{(topic, partition): offset} → `{"topic": {"partition": offset}}`, keys sorted as strings.

    Sorted the way `json.dumps(sort_keys=True)` sorts, so the JSON text of equal offsets is equal
    however the dict was built or reloaded.
    """
    by_topic: dict[str, dict[str, int]] = {}
    for (topic, partition), off in offsets.items():
        by_topic.setdefault(topic, {})[str(partition)] = int(off)
    return {t: dict(sorted(by_topic[t].items())) for t in sorted(by_topic)}


def from_offset_json(obj: dict[str, Any]) -> PartitionOffsets:
    """The inverse of `format_partition_offsets` (offsets read back from a checkpoint).

    Keys starting with `@` are not topics (Kafka topic names are `[a-zA-Z0-9._-]`): group mode keeps
    its mark there (`offsets.group_offsets`), and they are skipped here.
    """
    out: PartitionOffsets = {}
    for topic, parts in obj.items():
        if topic.startswith("@"):
            continue
        for p, off in parts.items():
            out[TopicPartition(topic, int(p))] = int(off)
    return out


__all__ = [
    "EARLIEST",
    "EARLIEST_SPEC",
    "LATEST",
    "LATEST_SPEC",
    "STRATEGIES",
    "EarliestSpec",
    "GlobalTimestampSpec",
    "LatestSpec",
    "OffsetSpec",
    "OffsetSpecError",
    "PartitionOffsets",
    "SpecificOffsetsSpec",
    "SpecificTimestampsSpec",
    "TopicPartition",
    "format_partition_offsets",
    "from_offset_json",
    "parse_assign",
    "parse_global_timestamp",
    "parse_offset_spec",
    "parse_partition_offsets",
    "parse_timestamp_spec",
    "tp_str",
]
