"""What the driver plans and pickles for the source's tasks: `KafkaInputPartition` (one task's
offset range) with its `ReadSpec` (client settings and read options).

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
) -> list[KafkaInputPartition]:
    spec = spec or read_spec_from(opts)
    pieces = split_ranges(ranges, opts.min_partitions, opts.max_records_per_partition)
    return [KafkaInputPartition(r.topic, r.partition, r.from_offset, r.until_offset, spec) for r in pieces]


__all__ = ["KafkaInputPartition", "ReadSpec", "make_partitions", "read_spec_from"]
