"""Offset specs and ranges for the Spark source: earliest/latest/JSON/timestamp starting and ending
points, the `{"topic": {"partition": next_offset}}` JSON form, offset-range splitting
(minPartitions, maxRecordsPerPartition), the maxOffsetsPerTrigger split, and lag.

Pure logic: no I/O, no Spark, no broker. Depends on the standard library and `kafka_wire.types`.
One module with I/O is imported explicitly, never from here: `offsets.delta_store` (offsets in a
Delta table's app transactions, needs `deltalake`). A consumer group's lag and owners per
partition is `connector.group_lag` (it needs the client stack and `consumer_group`).
`offsets.group_offsets` is the group-mode offsets JSON.
"""

from offsets.group_offsets import GROUP_KEY, GroupMark, batch_starts, decode_group_offsets, encode_group_offsets
from offsets.lag import LagStats, compute_lag
from offsets.ranges import OffsetRange, split_ranges
from offsets.rate_limit import rate_limit
from offsets.spec import (
    EARLIEST,
    LATEST,
    EarliestSpec,
    GlobalTimestampSpec,
    LatestSpec,
    OffsetSpec,
    OffsetSpecError,
    PartitionOffsets,
    SpecificOffsetsSpec,
    SpecificTimestampsSpec,
    TopicPartition,
    format_partition_offsets,
    parse_assign,
    parse_offset_spec,
    parse_partition_offsets,
    parse_timestamp_spec,
    tp_str,
)

__all__ = [
    "EARLIEST",
    "GROUP_KEY",
    "LATEST",
    "EarliestSpec",
    "GlobalTimestampSpec",
    "GroupMark",
    "LagStats",
    "LatestSpec",
    "OffsetRange",
    "OffsetSpec",
    "OffsetSpecError",
    "PartitionOffsets",
    "SpecificOffsetsSpec",
    "SpecificTimestampsSpec",
    "TopicPartition",
    "batch_starts",
    "compute_lag",
    "decode_group_offsets",
    "encode_group_offsets",
    "format_partition_offsets",
    "parse_assign",
    "parse_offset_spec",
    "parse_partition_offsets",
    "parse_timestamp_spec",
    "rate_limit",
    "split_ranges",
    "tp_str",
]
