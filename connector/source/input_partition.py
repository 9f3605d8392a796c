"""What the driver plans and pickles for the source's tasks: `KafkaInputPartition` (one task's
offset range) with its `ReadSpec` (client settings and read options), and `KafkaInputPartitionGroup`
(one task reading several ranges in turn, option `maxPartitions`).

Kept apart from the read path (`connector.source.partition_reader`: Fetch loop, Arrow decode) so that the
driver never imports the decoder: Spark starts a fresh Python process for every streaming query's
reader (pyspark's python_streaming_source_runner) and its imports are part of every query's start,
before the first trigger (the decoder's pyarrow.compute, crc32c and pandas, which pyarrow loads
at the decoder's first `pa.array`, cost ~1 s there). Spark pickles `KafkaInputPartition` by module
path: it must stay importable here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql.datasource import InputPartition

from connector.client_config import ClientConfig
from connector.options import SourceOptions
from offsets.ranges import OffsetRange, split_ranges


@dataclass(frozen=True)
class ReadSpec:
    """What an executor needs besides the offset range; the same for every task of a query."""

    client: ClientConfig
    include_headers: bool
    fail_on_data_loss: bool
    poll_timeout_ms: int
    retries: int
    retry_interval_ms: int


class KafkaInputPartition(InputPartition):
    """One task: offsets [from_offset, until_offset) of one topic-partition."""

    def __init__(self, topic: str, partition: int, from_offset: int, until_offset: int, spec: ReadSpec) -> None:
        super().__init__((topic, partition, from_offset, until_offset))
        self.topic = topic
        self.partition = partition
        self.from_offset = from_offset
        self.until_offset = until_offset
        self.spec = spec

    def __repr__(self) -> str:
        return f"KafkaInputPartition({self.topic}-{self.partition} [{self.from_offset}, {self.until_offset}))"


class KafkaInputPartitionGroup(InputPartition):
    """One task reading several offset ranges one after the other (option `maxPartitions`).

    Each range is still read whole and in offset order by this one task; only the number of tasks
    changes. Fewer, larger tasks cut Spark's per-task cost of a Python data source (JVM → Python worker →
    Arrow → JVM, and one task wave per `spark.default.parallelism` tasks) at the price of less
    parallelism within a micro-batch.
    """

    def __init__(self, parts: tuple[KafkaInputPartition, ...]) -> None:
        super().__init__(tuple((p.topic, p.partition, p.from_offset, p.until_offset) for p in parts))
        self.parts = parts

    def __repr__(self) -> str:
        return f"KafkaInputPartitionGroup({', '.join(repr(p) for p in self.parts)})"


def group_ranges(ranges: list[OffsetRange], max_groups: int | None) -> list[list[OffsetRange]]:
    """`ranges` in at most `max_groups` groups of about equal offset count (largest range first into
    the group with the fewest offsets so far); each group sorted by topic, partition and offset.
    Without a bound, or with no more ranges than the bound, every range is its own group."""
    if max_groups is None or len(ranges) <= max_groups:
        return [[r] for r in ranges]
    groups: list[list[OffsetRange]] = [[] for _ in range(max_groups)]
    loads = [0] * max_groups
    for r in sorted(ranges, key=lambda r: (-r.size, r.topic, r.partition, r.from_offset)):
        i = min(range(max_groups), key=lambda g: (loads[g], g))
        groups[i].append(r)
        loads[i] += r.size
    return [sorted(g, key=lambda r: (r.topic, r.partition, r.from_offset)) for g in groups if g]


def read_spec_from(opts: SourceOptions) -> ReadSpec:
    return ReadSpec(
        client=opts.client,
        include_headers=opts.include_headers,
        fail_on_data_loss=opts.fail_on_data_loss,
        poll_timeout_ms=opts.poll_timeout_ms,
        retries=opts.fetch_offset_num_retries,
        retry_interval_ms=opts.fetch_offset_retry_interval_ms,
    )


def make_partitions(
    ranges: list[OffsetRange], opts: SourceOptions, spec: ReadSpec | None = None
) -> list[KafkaInputPartition | KafkaInputPartitionGroup]:
    """One task per non-empty range (split by minPartitions / maxRecordsPerPartition, as Spark's Kafka
    source), or with `maxPartitions` at most that many tasks, each reading one or more ranges."""
    spec = spec or read_spec_from(opts)
    pieces = split_ranges(ranges, opts.min_partitions, opts.max_records_per_partition)
    out: list[KafkaInputPartition | KafkaInputPartitionGroup] = []
    for group in group_ranges(pieces, opts.max_partitions):
        parts = tuple(KafkaInputPartition(r.topic, r.partition, r.from_offset, r.until_offset, spec) for r in group)
        out.append(parts[0] if len(parts) == 1 else KafkaInputPartitionGroup(parts))
    return out


__all__ = [
    "KafkaInputPartition",
    "KafkaInputPartitionGroup",
    "ReadSpec",
    "group_ranges",
    "make_partitions",
    "read_spec_from",
]
