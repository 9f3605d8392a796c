"""Offset specs and ranges for the Spark source: earliest/latest/JSON/timestamp starting and ending
points, the `{"topic": {"partition": next_offset}}` JSON form, offset-range splitting
(minPartitions, maxRecordsPerPartition), the maxOffsetsPerTrigger split, and lag.

Pure logic: no I/O, no Spark, no broker. Depends on nothing but the standard library.
"""

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
    "LATEST",
    "EarliestSpec",
    "GlobalTimestampSpec",
    "LagStats",
    "LatestSpec",
    "OffsetRange",
    "OffsetSpec",
    "OffsetSpecError",
    "PartitionOffsets",
    "SpecificOffsetsSpec",
    "SpecificTimestampsSpec",
    "TopicPartition",
    "compute_lag",
    "format_partition_offsets",
    "parse_assign",
    "parse_offset_spec",
    "parse_partition_offsets",
    "parse_timestamp_spec",
    "rate_limit",
    "split_ranges",
    "tp_str",
]
