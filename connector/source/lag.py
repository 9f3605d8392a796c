"""Consumer lag of pykafka queries, as the user sees it: per batch, per partition, over HTTP.

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

    listener = LagListener(prometheus_port=0)     # also serves /metrics on 127.0.0.1 (Prometheus text)
    listener.metrics_url                   # http://127.0.0.1:<port>/metrics

Kafka's own tooling sees a query's lag when the source option `commitOffsetsToGroup` names a group
(`connector.offset_mirror.FinishedBatchCommits`); a batch read (`spark.read`) has no hook that runs
after its job succeeded, so it commits with `pin_ending_offsets` + `commit_batch_offsets` here.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pyspark.sql.streaming import StreamingQueryListener

from offsets.lag import LagStats, compute_lag
from offsets.spec import PartitionOffsets, TopicPartition, format_partition_offsets, from_offset_json

log = logging.getLogger("connector.source.lag")


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


def _partition_offsets(progress: Any) -> dict[TopicPartition, tuple[int, int]]:
    """(batch end offset, latest offset) per partition of the pykafka sources of one progress."""
    out: dict[TopicPartition, tuple[int, int]] = {}
    for src in _get(progress, "sources") or []:
        end = _kafka_offsets(_get(src, "endOffset"))
        latest = _kafka_offsets(_get(src, "latestOffset"))
        if end is None or latest is None:
            continue
        for tp, off in end.items():
            if tp in latest:
                out[tp] = (off, latest[tp])
    return out


def _label(value: object) -> str:
    # Prometheus text format: backslash, double quote and newline are escaped in label values
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


_METRICS = (
    ("pykafka_source_lag", "Offsets between a partition's latest offset and the end of the query's last batch."),
    ("pykafka_source_end_offset", "End offset (next offset to read) of the query's last batch, per partition."),
    ("pykafka_source_latest_offset", "The partition's latest offset when the query's last batch was planned."),
)


class LagListener(StreamingQueryListener):
    """Records the lag of every batch of every query (by query id), and logs it.

    `history(query_id)` → [(batch id, LagStats)], `latest(query_id)` → the last LagStats,
    `partition_lag(query_id)` → {(topic, partition): lag} after the last batch. Query ids may be
    given as `query.id` (str) or UUID.

    With `prometheus_port` (0: a free port) it serves the last batch of every running query as
    Prometheus text at `metrics_url` (`http://127.0.0.1:<port>/metrics`, bound to `host`):
    `pykafka_source_lag`, `pykafka_source_end_offset`, `pykafka_source_latest_offset` with labels
    `query` (id), `name` (queryName), `topic`, `partition`, and `pykafka_source_batch_id`. A
    terminated query's series are dropped (a stale lag must not keep an alert firing). `close()`
    stops the server (a daemon thread: it never holds the process).
    """

    def __init__(self, max_batches: int = 1000, prometheus_port: int | None = None, host: str = "127.0.0.1") -> None:
        self._lock = threading.Lock()
        self._history: dict[str, list[tuple[int, LagStats]]] = {}
        self._max = max_batches
        # query id -> (name, batch id, {tp: (end, latest)}) of the last batch
        self._last: dict[str, tuple[str, int, dict[TopicPartition, tuple[int, int]]]] = {}
        self._server: ThreadingHTTPServer | None = None
        if prometheus_port is not None:
            self._serve(host, prometheus_port)

    # --- the /metrics endpoint ---------------------------------------------------------------
    def _serve(self, host: str, port: int) -> None:
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                if self.path.split("?", 1)[0] != "/metrics":
                    self.send_error(404, "only /metrics is served")
                    return
                body = listener.prometheus_text().encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - http.server's name
                log.debug("metrics: " + format, *args)

        self._server = ThreadingHTTPServer((host, port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="pykafka-lag-metrics", daemon=True).start()
        log.info("pykafka lag metrics at %s", self.metrics_url)

    @property
    def metrics_url(self) -> str | None:
        if self._server is None:
            return None
        host, port = self._server.server_address[:2]
        # an AF_INET server: its host is a str
        return f"http://{host}:{port}/metrics"  # type: ignore[str-bytes-safe]

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def prometheus_text(self) -> str:
        """The last batch of every query in Prometheus' text exposition format (version 0.0.4)."""
        with self._lock:
            last = dict(self._last)
        lines: list[str] = []
        for i, (metric, help_text) in enumerate(_METRICS):
            lines += [f"# HELP {metric} {help_text}", f"# TYPE {metric} gauge"]
            for qid, (name, _batch, parts) in sorted(last.items()):
                for (topic, partition), (end, latest) in sorted(parts.items()):
                    value = (max(0, latest - end), end, latest)[i]
                    labels = (
                        f'query="{_label(qid)}",name="{_label(name)}",topic="{_label(topic)}",partition="{partition}"'
                    )
                    lines.append(f"{metric}{{{labels}}} {value}")
        lines += ["# HELP pykafka_source_batch_id Id of the query's last reported batch.",
                  "# TYPE pykafka_source_batch_id gauge"]  # fmt: skip
        for qid, (name, batch, _parts) in sorted(last.items()):
            lines.append(f'pykafka_source_batch_id{{query="{_label(qid)}",name="{_label(name)}"}} {batch}')
        return "\n".join(lines) + "\n"

    # --- StreamingQueryListener --------------------------------------------------------------
    def onQueryStarted(self, event: Any) -> None:
        pass

    def onQueryProgress(self, event: Any) -> None:
        progress = event.progress
        stats = lag_from_progress(progress)
        if stats is None:
            return
        qid = str(_get(progress, "id"))
        batch = int(_get(progress, "batchId") or 0)
        parts = _partition_offsets(progress)
        with self._lock:
            hist = self._history.setdefault(qid, [])
            hist.append((batch, stats))
            del hist[: -self._max]
            self._last[qid] = (str(_get(progress, "name") or ""), batch, parts)
        log.info("query %s batch %d: offsets behind latest min=%d max=%d avg=%.1f", qid, batch, stats.min,
                 stats.max, stats.avg)  # fmt: skip

    def onQueryIdle(self, event: Any) -> None:
        pass

    def onQueryTerminated(self, event: Any) -> None:
        with self._lock:
            self._last.pop(str(_get(event, "id")), None)

    # --- reading it back -----------------------------------------------------------------------
    def history(self, query_id: Any) -> list[tuple[int, LagStats]]:
        with self._lock:
            return list(self._history.get(str(query_id), []))

    def latest(self, query_id: Any) -> LagStats | None:
        hist = self.history(query_id)
        return hist[-1][1] if hist else None

    def partition_lag(self, query_id: Any) -> dict[TopicPartition, int]:
        with self._lock:
            last = self._last.get(str(query_id))
        if last is None:
            return {}
        return {tp: max(0, latest - end) for tp, (end, latest) in sorted(last[2].items())}


# --- batch reads: commit after the job ----------------------------------------------------------
_ENDING_KEYS = ("endingoffsets", "endingtimestamp", "endingoffsetsbytimestamp")


def pin_ending_offsets(options: Mapping[str, str]) -> dict[str, str]:
    """`options` of a `spark.read.format("pykafka")` with the ending options replaced by the concrete
    `endingOffsets` they resolve to now (`latest` by default), so the job reads exactly up to
    offsets `commit_batch_offsets` can commit after the job succeeded."""
    from connector.options import batch_ending, parse_source_options, validate_batch
    from connector.source.reader import (
        KafkaClient,
        OffsetFetcher,
        _ending_option,
        resolve_offsets,
        subscribed_partitions,
    )

    opts = parse_source_options(options)
    validate_batch(opts)
    client = KafkaClient(opts.client)
    try:
        fetcher = OffsetFetcher(client, opts.fetch_offset_num_retries, opts.fetch_offset_retry_interval_ms)
        tps = subscribed_partitions(client, opts.subscription)
        end = resolve_offsets(fetcher, batch_ending(opts), tps, _ending_option(opts))
    finally:
        client.close()
    out = {k: v for k, v in options.items() if str(k).lower() not in _ENDING_KEYS}
    out["endingOffsets"] = json.dumps(format_partition_offsets(end))
    return out


def commit_batch_offsets(options: Mapping[str, str], group: str, *, timeout_ms: int = 30_000) -> PartitionOffsets:
    """After a batch job over `options` succeeded, commit its end offsets to consumer `group` (without
    membership, as `commitOffsetsToGroup` does for streams). `options` must pin `endingOffsets` to
    concrete offsets (`pin_ending_offsets`): "latest" after the job is not what the job read.

    Returns the committed offsets; raises `connector.offset_mirror.GroupHasMembersError` when the group
    has live members, `SourceOptionError` for unpinned options.
    """
    from connector.offset_mirror import GroupOffsetCommitter, commit_metadata
    from connector.options import SourceOptionError, parse_source_options
    from offsets.spec import SpecificOffsetsSpec

    if not isinstance(options, Mapping):
        raise TypeError(
            "commit_batch_offsets takes the options of the batch read (a dict), not a DataFrame: Spark does not "
            "keep a Python data source's resolved offsets on the DataFrame; pin them with pin_ending_offsets"
        )
    if not group or not group.strip():
        raise SourceOptionError(f"Invalid consumer group {group!r} for commit_batch_offsets: expected a group id")
    opts = parse_source_options(options)
    end = opts.ending
    if not isinstance(end, SpecificOffsetsSpec) or any(o < 0 for o in end.offsets.values()):
        raise SourceOptionError(
            "commit_batch_offsets needs option 'endingOffsets' pinned to concrete offsets (no 'latest', -1 or -2): "
            "build the read's options with connector.source.lag.pin_ending_offsets(options), run the job with them, "
            "then commit"
        )
    committer = GroupOffsetCommitter(group.strip(), opts.client, timeout_ms)
    try:
        committer.commit(end.offsets, commit_metadata(read="batch"))
    finally:
        committer.close()
    return dict(end.offsets)


__all__ = [
    "LagListener",
    "commit_batch_offsets",
    "lag_from_progress",
    "pin_ending_offsets",
    "source_lag",
]
