"""Consumer lag of pykafka streaming queries, as the user sees it.

Spark's Kafka source puts `minOffsetsBehindLatest` / `maxOffsetsBehindLatest` /
`avgOffsetsBehindLatest` into `progress.sources[i].metrics`. Python sources cannot fill metrics,
but the pykafka stream reader implements `reportLatestOffset()`, so each progress carries both the
batch's `endOffset` and the broker's `latestOffset`: the lag is their difference, computed here in
the user's process (the driver-side reader also logs it, in another process).

    listener = LagListener()
    spark.streams.addListener(listener)
    ...
    listener.latest(query.id).max          # offsets behind latest after the last batch
    source_lag(query)                      # same, from query.lastProgress, no listener needed
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from typing import Any

from pyspark.sql.streaming import StreamingQueryListener

from offsets.lag import LagStats, compute_lag
from offsets.spec import PartitionOffsets, from_offset_json

log = logging.getLogger("connector.lag")


def _get(obj: Any, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _kafka_offsets(raw: Any) -> PartitionOffsets | None:
    """Offsets JSON of the pykafka shape `{"topic": {"partition": n}}`, else None."""
    if raw is None:
        return None
    try:
        obj = json.loads(raw) if isinstance(raw, str) else raw
        if not isinstance(obj, dict) or not all(isinstance(v, dict) for v in obj.values()):
            return None
        return from_offset_json(obj)
    except (ValueError, TypeError, AttributeError):
        return None


def lag_from_progress(progress: Any, source_index: int | None = None) -> LagStats | None:
    """Lag of the pykafka sources of one `StreamingQueryProgress` (object or dict form).

    With several Kafka-shaped sources their partitions are pooled, unless `source_index` picks
    one. None when no source reports both an end and a latest offset.
    """
    sources = _get(progress, "sources") or []
    end: PartitionOffsets = {}
    latest: PartitionOffsets = {}
    for i, src in enumerate(sources):
        if source_index is not None and i != source_index:
            continue
        e = _kafka_offsets(_get(src, "endOffset"))
        la = _kafka_offsets(_get(src, "latestOffset"))
        if e is None or la is None:
            continue
        end.update(e)
        latest.update(la)
    return compute_lag(end, latest)


def source_lag(query: Any, source_index: int | None = None) -> LagStats | None:
    """Lag after the last completed batch of a running/stopped `StreamingQuery`."""
    progress = query.lastProgress
    if progress is None:
        return None
    return lag_from_progress(progress, source_index)


class LagListener(StreamingQueryListener):
    """Records the lag of every batch of every query (by query id), and logs it.

    `history(query_id)` → [(batch id, LagStats)], `latest(query_id)` → the last LagStats.
    Query ids may be given as `query.id` (str) or UUID.
    """

    def __init__(self, max_batches: int = 1000) -> None:
        self._lock = threading.Lock()
        self._history: dict[str, list[tuple[int, LagStats]]] = {}
        self._max = max_batches

    def onQueryStarted(self, event: Any) -> None:
        pass

    def onQueryProgress(self, event: Any) -> None:
        progress = event.progress
        stats = lag_from_progress(progress)
        if stats is None:
            return
        qid = str(_get(progress, "id"))
        batch = int(_get(progress, "batchId") or 0)
        with self._lock:
            hist = self._history.setdefault(qid, [])
            hist.append((batch, stats))
            del hist[: -self._max]
        log.info("query %s batch %d: offsets behind latest min=%d max=%d avg=%.1f", qid, batch, stats.min,
                 stats.max, stats.avg)  # fmt: skip

    def onQueryIdle(self, event: Any) -> None:
        pass

    def onQueryTerminated(self, event: Any) -> None:
        pass

    def history(self, query_id: Any) -> list[tuple[int, LagStats]]:
        with self._lock:
            return list(self._history.get(str(query_id), []))

    def latest(self, query_id: Any) -> LagStats | None:
        hist = self.history(query_id)
        return hist[-1][1] if hist else None


__all__ = ["LagListener", "lag_from_progress", "source_lag"]
