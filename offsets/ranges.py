"""Offset ranges [from, until) per topic-partition and how they become Spark tasks.

A range is bounded by offsets, not by a record count: compacted topics and transaction markers
leave gaps, so a range of 10 offsets may hold fewer than 10 records.

`split_ranges` mirrors what Spark's Kafka source does with `maxRecordsPerPartition` (no task
covers more than N offsets) and `minPartitions` (at least that many tasks, big ranges split in
proportion to their size), and drops empty ranges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from offsets.spec import TopicPartition


@dataclass(frozen=True, slots=True)
class OffsetRange:
    topic: str
    partition: int
    from_offset: int
    until_offset: int

    @property
    def tp(self) -> TopicPartition:
        return TopicPartition(self.topic, self.partition)

    @property
    def size(self) -> int:
        return max(0, self.until_offset - self.from_offset)


def _divide(r: OffsetRange, parts: int) -> list[OffsetRange]:
    if parts <= 1:
        return [r]
    q, extra = divmod(r.size, parts)
    out = []
    at = r.from_offset
    for i in range(parts):
        n = q + (1 if i < extra else 0)
        out.append(OffsetRange(r.topic, r.partition, at, at + n))
        at += n
    return out


def split_ranges(
    ranges: Iterable[OffsetRange],
    min_partitions: int | None = None,
    max_records_per_partition: int | None = None,
) -> list[OffsetRange]:
    """Non-empty ranges split into tasks; the pieces of one range stay adjacent and in order."""
    nonempty = [r for r in ranges if r.size > 0]
    parts = [1] * len(nonempty)
    if max_records_per_partition:
        parts = [max(1, -(-r.size // max_records_per_partition)) for r in nonempty]
    if min_partitions and sum(parts) < min_partitions:
        total = sum(r.size for r in nonempty)
        for i, r in enumerate(nonempty):
            # round(size / (total / minPartitions)), in integers
            share = (2 * r.size * min_partitions + total) // (2 * total)
            parts[i] = max(parts[i], share)
    out: list[OffsetRange] = []
    for r, n in zip(nonempty, parts, strict=True):
        out.extend(_divide(r, min(n, r.size)))
    return out


__all__ = ["OffsetRange", "split_ranges"]
