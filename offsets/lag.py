"""Consumer lag of a streaming query: how many offsets each partition is behind its latest one.

Spark's Kafka source reports `minOffsetsBehindLatest` / `maxOffsetsBehindLatest` /
`avgOffsetsBehindLatest` in its progress metrics; a Python source cannot fill those, so the
pykafka source logs the same numbers and `connector.source.lag` recomputes them from the progress's
`endOffset` and `latestOffset`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from offsets.spec import PartitionOffsets, tp_str


@dataclass(frozen=True)
class LagStats:
    """Offsets behind latest over the partitions of one batch's end offsets."""

    min: int
    max: int
    avg: float
    total: int
    per_partition: dict[str, int] = field(default_factory=dict)  # "topic-partition" -> lag

    def as_metrics(self) -> dict[str, str]:
        """Spark Kafka source metric names and formatting (strings, as in StreamingQueryProgress)."""
        return {
            "minOffsetsBehindLatest": str(self.min),
            "maxOffsetsBehindLatest": str(self.max),
            "avgOffsetsBehindLatest": str(float(self.avg)),
        }


def compute_lag(end: PartitionOffsets, latest: PartitionOffsets) -> LagStats | None:
    """Lag of `end` (a batch's end offsets) against `latest`; None when they share no partition."""
    lags = {tp: max(0, latest[tp] - off) for tp, off in end.items() if tp in latest}
    if not lags:
        return None
    values = list(lags.values())
    return LagStats(
        min=min(values),
        max=max(values),
        avg=sum(values) / len(values),
        total=sum(values),
        per_partition={tp_str(tp): lag for tp, lag in sorted(lags.items())},
    )


__all__ = ["LagStats", "compute_lag"]
