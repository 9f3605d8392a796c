"""maxOffsetsPerTrigger: split a per-batch offset budget across partitions by backlog.

Like Spark's Kafka source, each partition gets a share proportional to its backlog and a partition
with a backlog is never starved (it gets at least one offset). Unlike a plain floor of each share,
the shares here sum to the limit exactly (largest-remainder rounding), so a batch reads
`maxOffsetsPerTrigger` offsets whenever that much is available. The one case where the sum exceeds
the limit is when more partitions have a backlog than the limit allows offsets: then each of them
gets one, starvation being worse than a slightly larger batch (Spark rounds up the same way).

Integer arithmetic throughout: no float rounding, no overflow with 64-bit offsets.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from offsets.spec import PartitionOffsets

K = TypeVar("K", bound=Hashable)


def split_limit(limit: int, backlogs: Mapping[K, int]) -> dict[K, int]:
    """How many offsets each key may read this batch, given its backlog (<= 0 means none).

    Guarantees, for keys with a positive backlog b_k (n of them, total T):
    0 < share_k <= b_k; if T <= limit, share_k = b_k; otherwise, if n <= limit the shares sum to
    exactly `limit`, else every share is 1. Keys without a backlog get 0.
    """
    if limit < 0:
        raise ValueError(f"limit must be >= 0, got {limit}")
    keys = [k for k, b in backlogs.items() if b > 0]
    out: dict[K, int] = {k: 0 for k in backlogs}
    total = sum(backlogs[k] for k in keys)
    if total <= limit:
        for k in keys:
            out[k] = backlogs[k]
        return out
    if len(keys) >= limit:
        for k in keys:
            out[k] = 1
        return out
    # limit < total: every exact share limit*b/total is < b, so floor(share) + 1 <= b
    rem: dict[K, int] = {}
    order = {k: i for i, k in enumerate(keys)}
    for k in keys:
        q, r = divmod(limit * backlogs[k], total)
        out[k] = max(1, q)
        rem[k] = r if q >= 1 else -1  # bumped to 1: already above its share
    remaining = limit - sum(out[k] for k in keys)
    if remaining > 0:
        # the largest fractional parts get one more each; one pass suffices because the floors
        # lose less than one offset per key
        for k in sorted(keys, key=lambda k: (-rem[k], order[k])):
            if remaining == 0:
                break
            if out[k] < backlogs[k]:
                out[k] += 1
                remaining -= 1
    while remaining < 0:
        # the min-one bumps overshot: take back from the biggest shares (they stay >= 1)
        for k in sorted(keys, key=lambda k: (-out[k], order[k])):
            if remaining == 0:
                break
            if out[k] > 1:
                out[k] -= 1
                remaining += 1
    return out


def rate_limit(limit: int, start: PartitionOffsets, latest: PartitionOffsets) -> PartitionOffsets:
    """End offsets for one batch reading at most `limit` offsets from `start` towards `latest`.

    Every partition of `latest` must be in `start` (new partitions: pass their earliest offset).
    A partition whose latest offset is at or below its start (no backlog, or offsets that went
    back) ends at its latest offset, as Spark's source does; data loss is reported elsewhere.
    """
    missing = [tp for tp in latest if tp not in start]
    if missing:
        raise KeyError(f"no start offset for {missing}")
    backlogs = {tp: latest[tp] - start[tp] for tp in latest}
    shares = split_limit(limit, backlogs)
    return {tp: (start[tp] + shares[tp]) if backlogs[tp] > 0 else latest[tp] for tp in latest}


__all__ = ["rate_limit", "split_limit"]
