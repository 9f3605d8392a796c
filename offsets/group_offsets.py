"""Offsets JSON of a group-mode stream: plain `{"topic": {"partition": next_offset}}` plus a group mark.

In group mode a micro-batch's end offsets name only the partitions the member owned when it
planned the batch, and a partition the member has just been given does not start where the
previous batch ended (it starts where the group's committed offset is: the Delta table, the
broker, or `startingOffsets`). Spark's offset log stores only each batch's *end* offsets, and a
batch replayed after a driver crash is planned again from (previous end, logged end) alone, so
the start of every newly assigned partition must be inside the logged end offsets. It travels in
one extra top-level key that can never be a topic name (Kafka topic names are `[a-zA-Z0-9._-]`):

    {"@group": {"generation": 7, "member": "q1-...", "starts": {"events": {"3": 1200}}},
     "events": {"0": 1530, "3": 1290}}

`starts` holds the first offset of the partitions that do not continue from the previous batch;
the others start at the previous batch's end. `generation`/`member` say who planned the batch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from offsets.spec import PartitionOffsets, format_partition_offsets, from_offset_json

GROUP_KEY = "@group"


@dataclass(frozen=True)
class GroupMark:
    """Who planned a group-mode batch, and where its newly assigned partitions start."""

    generation: int
    member_id: str
    starts: PartitionOffsets = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "generation": self.generation,
            "member": self.member_id,
            "starts": format_partition_offsets(self.starts),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> GroupMark:
        return cls(int(obj["generation"]), str(obj["member"]), from_offset_json(obj.get("starts") or {}))


def encode_group_offsets(offsets: PartitionOffsets, mark: GroupMark) -> dict[str, Any]:
    """Offsets plus the mark, keys sorted as `json.dumps(sort_keys=True)` sorts them (Spark compares
    offsets as JSON text, so equal offsets must give equal text)."""
    out: dict[str, Any] = dict(format_partition_offsets(offsets))
    out[GROUP_KEY] = mark.to_json()
    return dict(sorted(out.items()))


def decode_group_offsets(obj: dict[str, Any] | None) -> tuple[PartitionOffsets, GroupMark | None]:
    """(offsets, mark); the mark is None for offsets written without group mode."""
    obj = obj or {}
    raw = obj.get(GROUP_KEY)
    return from_offset_json(obj), GroupMark.from_json(raw) if raw is not None else None


def batch_starts(previous_end: dict[str, Any] | None, end: dict[str, Any]) -> PartitionOffsets:
    """Where each partition of a batch (previous end → end) starts: the mark's start for newly
    assigned partitions, the previous end for the others. A partition with neither is a
    corrupt offset log: KeyError names it."""
    before, _ = decode_group_offsets(previous_end)
    until, mark = decode_group_offsets(end)
    starts = mark.starts if mark is not None else {}
    out: PartitionOffsets = {}
    for tp in until:
        if tp in starts:
            out[tp] = starts[tp]
        elif tp in before:
            out[tp] = before[tp]
        else:
            raise KeyError(f"{tp[0]}-{tp[1]}: no start offset in the batch's offsets {end!r}")
    return out


__all__ = ["GROUP_KEY", "GroupMark", "batch_starts", "decode_group_offsets", "encode_group_offsets"]
