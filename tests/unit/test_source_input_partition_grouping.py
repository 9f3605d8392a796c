"""Option `maxPartitions`: at most N tasks per batch read / micro-batch, Kafka partitions' ranges grouped.

Spark's Kafka source makes one task per topic-partition (more with minPartitions); each task of a Python
data source also pays a JVM → Python worker → Arrow → JVM round of its own, so `maxPartitions` lets one
task read several ranges in turn. Without the option the tasks are Spark's, one per range.
"""

from __future__ import annotations

import pickle
from collections.abc import Generator, Iterator
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connector.option_names import SourceOptionError
from connector.options import parse_source_options
from connector.source import partition_reader
from connector.source.input_partition import (
    KafkaInputPartition,
    KafkaInputPartitionGroup,
    group_ranges,
    make_partitions,
)
from offsets.ranges import OffsetRange

BASE = {"kafka.bootstrap.servers": "127.0.0.1:9092", "subscribe": "t"}


def _ranges(*sizes: int) -> list[OffsetRange]:
    return [OffsetRange("t", p, 100, 100 + n) for p, n in enumerate(sizes)]


def test_without_the_option_every_range_is_a_task() -> None:
    parts = make_partitions(_ranges(10, 20, 30, 40), parse_source_options(BASE))
    assert [type(p) for p in parts] == [KafkaInputPartition] * 4
    assert [(p.partition, p.from_offset, p.until_offset) for p in parts] == [  # type: ignore[union-attr]
        (0, 100, 110),
        (1, 100, 120),
        (2, 100, 130),
        (3, 100, 140),
    ]


def test_four_ranges_in_two_tasks_balanced_by_offsets() -> None:
    opts = parse_source_options({**BASE, "maxPartitions": "2"})
    parts = make_partitions(_ranges(10, 20, 30, 40), opts)
    assert all(isinstance(p, KafkaInputPartitionGroup) for p in parts)
    groups = [[(m.partition, m.from_offset, m.until_offset) for m in p.parts] for p in parts]  # type: ignore[union-attr]
    # largest first into the emptier task: 40 | 30, then 20 → the 30s, 10 → the 40s: 50 offsets each
    assert groups == [[(0, 100, 110), (3, 100, 140)], [(1, 100, 120), (2, 100, 130)]]


def test_a_task_with_one_range_stays_a_plain_partition() -> None:
    opts = parse_source_options({**BASE, "maxPartitions": "3"})
    parts = make_partitions(_ranges(10, 10, 10, 10), opts)
    assert sorted(type(p).__name__ for p in parts) == ["KafkaInputPartition", "KafkaInputPartition",
                                                       "KafkaInputPartitionGroup"]  # fmt: skip
    # more tasks allowed than ranges: nothing changes
    opts = parse_source_options({**BASE, "maxPartitions": "8"})
    assert [type(p) for p in make_partitions(_ranges(5, 5), opts)] == [KafkaInputPartition] * 2


def test_min_partitions_splits_first_then_max_partitions_groups() -> None:
    opts = parse_source_options({**BASE, "minPartitions": "4", "maxPartitions": "4"})
    parts = make_partitions(_ranges(100, 0), opts)  # one non-empty range split in 4, the empty one dropped
    assert [(p.from_offset, p.until_offset) for p in parts] == [  # type: ignore[union-attr]
        (100, 125),
        (125, 150),
        (150, 175),
        (175, 200),
    ]


def test_a_group_pickles_with_its_spec_once() -> None:
    opts = parse_source_options({**BASE, "maxPartitions": "1"})
    (group,) = make_partitions(_ranges(3, 4, 5), opts)
    assert isinstance(group, KafkaInputPartitionGroup)
    back = pickle.loads(pickle.dumps(group))
    assert isinstance(back, KafkaInputPartitionGroup)
    assert [repr(p) for p in back.parts] == [repr(p) for p in group.parts]
    assert back.parts[0].spec is back.parts[2].spec  # one ReadSpec per task, as in the driver
    assert back.value == (("t", 0, 100, 103), ("t", 1, 100, 104), ("t", 2, 100, 105))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 1000), min_size=1, max_size=40), st.integers(1, 12))
def test_groups_cover_every_range_once_within_the_bound(sizes: list[int], bound: int) -> None:
    ranges = _ranges(*sizes)
    groups = group_ranges(ranges, bound)
    assert len(groups) == min(bound, len(ranges))
    key = lambda r: (r.topic, r.partition, r.from_offset)  # noqa: E731
    assert sorted((r for g in groups for r in g), key=key) == sorted(ranges, key=key)
    for g in groups:
        assert g == sorted(g, key=key)
    loads = [sum(r.size for r in g) for g in groups]
    # greedy largest-first: no task has more than one range's worth of offsets over another
    assert max(loads) - min(loads) <= max(sizes)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"maxPartitions": "0"}, "Invalid value '0' for option 'maxPartitions': expected a positive integer"),
        ({"maxPartitions": "two"}, "Invalid value 'two' for option 'maxPartitions'"),
        (
            {"maxPartitions": "2", "minPartitions": "3"},
            "The value of option 'minPartitions' (3) must not exceed the value of option 'maxPartitions' (2)",
        ),
        (
            {"maxPartitions": "2", "maxRecordsPerPartition": "100"},
            "Options 'maxPartitions' and 'maxRecordsPerPartition' cannot be used together",
        ),
        ({"maxPartition": "2"}, "did you mean 'maxPartitions'? It accepts a positive integer"),
    ],
)
def test_bad_values_are_refused(options: dict[str, str], message: str) -> None:
    with pytest.raises(SourceOptionError) as e:
        parse_source_options({**BASE, **options})
    assert message in str(e.value)


def test_a_group_is_read_range_by_range_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    closed: list[str] = []

    def fake_range(part: KafkaInputPartition) -> Iterator[str]:
        try:
            for o in range(part.from_offset, part.until_offset):
                reads.append(f"{part.partition}@{o}")
                yield f"{part.partition}@{o}"
        finally:
            closed.append(str(part.partition))

    monkeypatch.setattr(partition_reader, "_read_range", fake_range)
    opts = parse_source_options({**BASE, "maxPartitions": "1"})
    (group,) = make_partitions([OffsetRange("t", 2, 0, 2), OffsetRange("t", 0, 5, 7)], opts)
    out = list(partition_reader.read_partition(group))
    assert out == ["0@5", "0@6", "2@0", "2@1"]
    # Spark stops consuming early (a limit, a failed task): the range being read is closed at once
    closed.clear()
    it = cast(Generator[Any, None, None], partition_reader.read_partition(group))
    assert next(it) == "0@5"
    it.close()
    assert closed == ["0"]
