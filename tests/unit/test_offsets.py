"""offsets/: spec parsing, the offset JSON form, range splitting, the maxOffsetsPerTrigger split, lag."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from offsets import (
    EarliestSpec,
    LatestSpec,
    OffsetRange,
    OffsetSpecError,
    SpecificOffsetsSpec,
    compute_lag,
    format_partition_offsets,
    parse_assign,
    parse_offset_spec,
    parse_timestamp_spec,
    rate_limit,
    split_ranges,
)
from offsets.rate_limit import split_limit
from offsets.spec import LATEST_SPEC, from_offset_json, parse_global_timestamp

# --- specs ----------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["earliest", " EARLIEST ", "Earliest"])
def test_earliest(text: str) -> None:
    assert isinstance(parse_offset_spec("startingOffsets", text, LATEST_SPEC), EarliestSpec)


def test_latest_and_default() -> None:
    assert isinstance(parse_offset_spec("startingOffsets", "latest", EarliestSpec()), LatestSpec)
    assert parse_offset_spec("startingOffsets", None, LATEST_SPEC) is LATEST_SPEC


def test_json_offsets_with_special_values() -> None:
    spec = parse_offset_spec("startingOffsets", '{"a":{"0":23,"1":-1},"b":{"0":-2}}', LATEST_SPEC)
    assert spec == SpecificOffsetsSpec({("a", 0): 23, ("a", 1): -1, ("b", 0): -2})


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("latestt", "expected 'earliest', 'latest'"),
        ("{not json", "not valid JSON"),
        ("{}", "non-empty JSON object"),
        ('{"a": [0, 1]}', "object of partition to number"),
        ('{"a": {"x": 1}}', "not a non-negative integer"),
        ('{"a": {"-1": 1}}', "not a non-negative integer"),
        ('{"a": {"0": "5"}}', "must be an integer"),
        ('{"a": {"0": 1.5}}', "must be an integer"),
        ('{"a": {"0": true}}', "must be an integer"),
        ('{"a": {"0": -3}}', "use -2 for earliest or -1 for latest"),
    ],
)
def test_bad_offset_json(text: str, fragment: str) -> None:
    with pytest.raises(OffsetSpecError, match="startingOffsets") as e:
        parse_offset_spec("startingOffsets", text, LATEST_SPEC)
    assert fragment in str(e.value)


def test_timestamps() -> None:
    spec = parse_timestamp_spec("startingOffsetsByTimestamp", '{"a": {"0": 1000, "2": 5}}', "latest")
    assert spec.timestamps == {("a", 0): 1000, ("a", 2): 5} and spec.strategy == "latest"
    with pytest.raises(OffsetSpecError, match="negative"):
        parse_timestamp_spec("startingOffsetsByTimestamp", '{"a": {"0": -1}}', "error")
    assert parse_global_timestamp("startingTimestamp", " 123 ", "error").timestamp == 123
    with pytest.raises(OffsetSpecError, match="startingTimestamp"):
        parse_global_timestamp("startingTimestamp", "yesterday", "error")


def test_assign() -> None:
    assert parse_assign('{"b": [2, 0, 2], "a": [1]}') == {"b": [0, 2], "a": [1]}
    for bad in ("[]", '{"a": []}', '{"a": [-1]}', '{"a": ["0"]}', '{"a": 0}', "nope"):
        with pytest.raises(OffsetSpecError, match="'assign'"):
            parse_assign(bad)


def test_offset_json_sorted_string_keys() -> None:
    offsets = {("b", 10): 5, ("b", 2): 7, ("a", 0): 1}
    out = format_partition_offsets(offsets)
    assert json.dumps(out) == json.dumps(out, sort_keys=True) == '{"a": {"0": 1}, "b": {"10": 5, "2": 7}}'
    # a round trip through the checkpoint's JSON gives the same text
    assert json.dumps(format_partition_offsets(from_offset_json(json.loads(json.dumps(out))))) == json.dumps(out)


# --- ranges -----------------------------------------------------------------------------------


def test_split_drops_empty_and_keeps_small() -> None:
    ranges = [OffsetRange("t", 0, 5, 5), OffsetRange("t", 1, 0, 10)]
    assert split_ranges(ranges) == [OffsetRange("t", 1, 0, 10)]


def test_min_partitions_splits_big_ranges() -> None:
    ranges = [OffsetRange("t", 0, 0, 100), OffsetRange("t", 1, 0, 10)]
    out = split_ranges(ranges, min_partitions=5)
    assert [r for r in out if r.partition == 1] == [OffsetRange("t", 1, 0, 10)]
    assert len(out) >= 5
    assert [(r.from_offset, r.until_offset) for r in out if r.partition == 0] == [
        (0, 20), (20, 40), (40, 60), (60, 80), (80, 100)
    ]  # fmt: skip


def test_max_records_per_partition() -> None:
    out = split_ranges([OffsetRange("t", 0, 10, 35)], max_records_per_partition=10)
    assert [(r.from_offset, r.until_offset) for r in out] == [(10, 19), (19, 27), (27, 35)]


@given(
    sizes=st.lists(st.integers(0, 10_000), min_size=1, max_size=12),
    min_partitions=st.none() | st.integers(1, 50),
    max_records=st.none() | st.integers(1, 5_000),
)
@settings(max_examples=200, deadline=None)
def test_split_covers_ranges_exactly(sizes: list[int], min_partitions: int | None, max_records: int | None) -> None:
    ranges = [OffsetRange("t", i, 1000 * i, 1000 * i + s) for i, s in enumerate(sizes)]
    out = split_ranges(ranges, min_partitions, max_records)
    for r in ranges:
        pieces = [p for p in out if p.partition == r.partition]
        if r.size == 0:
            assert not pieces
            continue
        assert pieces[0].from_offset == r.from_offset and pieces[-1].until_offset == r.until_offset
        assert all(a.until_offset == b.from_offset for a, b in zip(pieces, pieces[1:], strict=False))
        assert all(p.size > 0 for p in pieces)
        if max_records:
            assert all(p.size <= max_records for p in pieces)
    nonempty = sum(1 for s in sizes if s)
    if min_partitions and nonempty and sum(sizes) >= min_partitions:
        # Spark's rule rounds each range's share, so allow one task less per range
        assert len(out) >= min(min_partitions, sum(sizes)) - nonempty


# --- maxOffsetsPerTrigger ----------------------------------------------------------------------


def test_rate_limit_proportional_no_starvation() -> None:
    start = {("t", 0): 0, ("t", 1): 0, ("t", 2): 100}
    latest = {("t", 0): 1000, ("t", 1): 1, ("t", 2): 100}
    end = rate_limit(10, start, latest)
    assert end[("t", 1)] == 1  # tiny backlog still gets an offset
    assert end[("t", 2)] == 100  # no backlog
    assert end[("t", 0)] == 9  # the rest; the total is exactly the limit


def test_rate_limit_all_available_when_under_limit() -> None:
    start = {("t", 0): 5, ("t", 1): 0}
    latest = {("t", 0): 8, ("t", 1): 2}
    assert rate_limit(100, start, latest) == latest


def test_rate_limit_offsets_going_back_end_at_latest() -> None:
    assert rate_limit(5, {("t", 0): 50}, {("t", 0): 30}) == {("t", 0): 30}


def test_rate_limit_needs_start_for_every_partition() -> None:
    with pytest.raises(KeyError):
        rate_limit(5, {}, {("t", 0): 30})


@given(
    backlogs=st.dictionaries(st.integers(0, 40), st.integers(-5, 10**12), min_size=1, max_size=40),
    limit=st.integers(1, 10**9),
)
@settings(max_examples=500, deadline=None)
def test_split_limit_properties(backlogs: dict[int, int], limit: int) -> None:
    shares = split_limit(limit, backlogs)
    positive = {k: b for k, b in backlogs.items() if b > 0}
    total = sum(positive.values())
    for k, b in backlogs.items():
        if b <= 0:
            assert shares[k] == 0
        else:
            assert 1 <= shares[k] <= b  # never starved, never beyond the backlog
    if total <= limit:
        assert all(shares[k] == b for k, b in positive.items())
    elif len(positive) <= limit:
        assert sum(shares.values()) == limit  # sums to the limit exactly
    else:
        assert all(shares[k] == 1 for k in positive)


@given(
    sizes=st.lists(st.integers(1, 10**6), min_size=2, max_size=10),
    limit=st.integers(10, 10**5),
)
@settings(max_examples=200, deadline=None)
def test_split_limit_is_proportional(sizes: list[int], limit: int) -> None:
    backlogs = dict(enumerate(sizes))
    total = sum(sizes)
    shares = split_limit(limit, backlogs)
    if total > limit and len(sizes) <= limit:
        for k, b in backlogs.items():
            ideal = limit * b / total
            # within one offset of the exact share, except the minimum-one bump (and its payback)
            assert shares[k] >= min(b, int(ideal)) - len(sizes)
            assert shares[k] <= max(1, int(ideal) + 1)


# --- lag --------------------------------------------------------------------------------------


def test_lag() -> None:
    stats = compute_lag({("t", 0): 5, ("t", 1): 10, ("u", 0): 0}, {("t", 0): 5, ("t", 1): 30, ("u", 0): 4})
    assert stats is not None
    assert (stats.min, stats.max, stats.total) == (0, 20, 24)
    assert stats.avg == 8.0
    assert stats.per_partition == {"t-0": 0, "t-1": 20, "u-0": 4}
    assert stats.as_metrics() == {
        "minOffsetsBehindLatest": "0",
        "maxOffsetsBehindLatest": "20",
        "avgOffsetsBehindLatest": "8.0",
    }
    assert compute_lag({("t", 0): 1}, {}) is None
