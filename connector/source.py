"""The pykafka Spark source: batch reader, micro-batch stream reader and the executor-side read.

Where things run (see `reference/research/spark_sources.md` §1.3):

* `PyKafkaBatchReader.partitions()` and everything in `PyKafkaStreamReader` except `read()` run on
  the driver; the stream reader lives in one long-lived Python process per query, so it keeps a
  `KafkaClient` (metadata + ListOffsets) and the last latest offsets on `self`.
* `read(partition)` runs in executor Python workers on a pickled copy of the reader that never
  sees the driver's state: everything it needs travels in the `KafkaInputPartition` (bootstrap
  servers and client settings, topic, partition, [from, until) offsets, read options) and it
  fetches with a per-process cached client.
* `commit()` and `stop()` may never be called (Spark kills the driver worker): nothing relies on
  them; offsets live in the query's checkpoint. The source commits to Kafka only when asked: with
  `commitOffsetsToGroup` each finished batch's end offsets go to that group without membership
  (`connector.offset_mirror.FinishedBatchCommits`, for Kafka's lag tooling); in group mode
  (`groupMode` with `kafka.group.id`, `connector.group_mode`) the stream reader is a member of the
  consumer group, plans only the partitions it owns and commits finished batches to the group.

Offsets are `{"topic": {"partition": next_offset}}` with keys sorted as strings (plus a `@group`
mark in group mode, see `offsets.group_offsets`).
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pyarrow as pa
from pyspark.sql.datasource import DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)

from connector.arrow import VectorDecodeError, index_to_record_batch, to_record_batch
from connector.group_mode import GroupSession, write_plan_log
from connector.kafka_client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    READ_COMMITTED,
    ClientConfig,
    KafkaClient,
    KafkaClientError,
    PendingFetch,
    drop_shared_client,
    shared_client,
)
from connector.offset_mirror import FinishedBatchCommits
from connector.options import (
    SourceOptionError,
    SourceOptions,
    Subscription,
    batch_ending,
    batch_starting,
    stream_starting,
)
from kafka_wire.client.bootstrap import format_addrs
from kafka_wire.columnar import decode_columns, scan_records
from kafka_wire.errors import ErrorCode
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
    PartitionOffsets,
    SpecificOffsetsSpec,
    SpecificTimestampsSpec,
    TopicPartition,
    format_partition_offsets,
    from_offset_json,
    tp_str,
)

log = logging.getLogger("connector.source")

_LOSS_HINT_FAIL = (
    " Some data may have been lost because they are not available in Kafka any more: either the data was "
    "aged out by retention, or the topic was deleted before all of it was processed. If you do not want the "
    "query to fail in such cases, set the source option 'failOnDataLoss' to 'false'."
)
_LOSS_HINT_WARN = (
    " Some data may have been lost because they are not available in Kafka any more: either the data was "
    "aged out by retention, or the topic was deleted before all of it was processed. If you want the query "
    "to fail in such cases, set the source option 'failOnDataLoss' to 'true'."
)


class DataLossError(RuntimeError):
    """Offsets the query should read are gone (Spark raises IllegalStateException)."""


class OffsetResolutionError(RuntimeError):
    """Starting/ending offsets cannot be resolved (no match for a timestamp, unknown partitions, ...)."""


def report_data_loss(message: str, fail: bool) -> None:
    if fail:
        raise DataLossError(message + _LOSS_HINT_FAIL)
    log.warning("%s%s", message, _LOSS_HINT_WARN)


# --------------------------------------------------------------------------------------------
# Driver side: partitions of a subscription, offset specs → offsets
# --------------------------------------------------------------------------------------------


def subscribed_partitions(client: KafkaClient, sub: Subscription) -> list[TopicPartition]:
    """The partitions a subscription names right now, sorted."""
    if sub.kind == "subscribe":
        md = client.metadata(sub.topics)
        return sorted((t, p) for t in sub.topics if t in md.topics for p in md.topics[t].partitions)
    if sub.kind == "subscribePattern":
        rx = re.compile(sub.pattern)
        md = client.metadata(None)
        # internal topics are left out, as Kafka consumers do (exclude.internal.topics=true)
        return sorted(
            (t, p) for t, info in md.topics.items() if not info.internal and rx.fullmatch(t) for p in info.partitions
        )
    topics = sorted({t for t, _ in sub.assignment})
    md = client.metadata(topics)
    missing = [tp for tp in sub.assignment if tp[0] not in md.topics or tp[1] not in md.topics[tp[0]].partitions]
    if missing:
        raise OffsetResolutionError(
            f"Partitions {', '.join(tp_str(tp) for tp in missing)} given in option 'assign' do not exist"
        )
    return sorted(sub.assignment)


@dataclass
class OffsetFetcher:
    """ListOffsets with the source's retry options (`fetchOffset.numRetries` / `.retryIntervalMs`)."""

    client: KafkaClient
    retries: int
    interval_ms: int

    def by_timestamp(self, requests: dict[TopicPartition, int]) -> dict[TopicPartition, tuple[int, int]]:
        if not requests:
            return {}
        return self.client.list_offsets(requests, retries=self.retries, retry_interval_ms=self.interval_ms)

    def earliest(self, tps: list[TopicPartition]) -> PartitionOffsets:
        return {tp: o for tp, (o, _) in self.by_timestamp(dict.fromkeys(tps, EARLIEST_TIMESTAMP)).items()}

    def latest(self, tps: list[TopicPartition]) -> PartitionOffsets:
        return {tp: o for tp, (o, _) in self.by_timestamp(dict.fromkeys(tps, LATEST_TIMESTAMP)).items()}


def _require_all(option: str, given: set[TopicPartition], assigned: list[TopicPartition]) -> None:
    if given != set(assigned):
        raise OffsetResolutionError(
            f"If option '{option}' contains specific offsets or timestamps, it must name every partition of the "
            f"subscription (use -1 for latest, -2 for earliest). Specified: "
            f"{sorted(tp_str(tp) for tp in given)}; assigned: {sorted(tp_str(tp) for tp in assigned)}"
        )


def resolve_offsets(
    fetcher: OffsetFetcher, spec: OffsetSpec, tps: list[TopicPartition], option: str
) -> PartitionOffsets:
    """Concrete offsets for `tps` from a spec (-2/-1 and timestamps looked up on the broker)."""
    if not tps:
        return {}
    if isinstance(spec, EarliestSpec):
        return fetcher.earliest(tps)
    if isinstance(spec, LatestSpec):
        return fetcher.latest(tps)
    if isinstance(spec, SpecificOffsetsSpec):
        _require_all(option, set(spec.offsets), tps)
        out = {tp: spec.offsets[tp] for tp in tps}
        earliest = fetcher.earliest([tp for tp, o in out.items() if o == EARLIEST])
        latest = fetcher.latest([tp for tp, o in out.items() if o == LATEST])
        return {tp: earliest.get(tp, latest.get(tp, o)) for tp, o in out.items()}
    if isinstance(spec, SpecificTimestampsSpec):
        _require_all(option, set(spec.timestamps), tps)
        stamps = {tp: spec.timestamps[tp] for tp in tps}
        strategy = spec.strategy
    else:
        assert isinstance(spec, GlobalTimestampSpec)
        stamps = dict.fromkeys(tps, spec.timestamp)
        strategy = spec.strategy
    found = fetcher.by_timestamp(stamps)
    out = {}
    unmatched = [tp for tp in tps if found[tp][0] < 0]
    latest = fetcher.latest(unmatched) if unmatched else {}
    for tp in tps:
        offset = found[tp][0]
        if offset >= 0:
            out[tp] = offset
        elif strategy == "latest":
            out[tp] = latest[tp]
        else:
            raise OffsetResolutionError(
                f"No offset matched from request of topic-partition {tp_str(tp)} and timestamp {stamps[tp]} "
                f"(option '{option}'). Set 'startingOffsetsByTimestampStrategy' to 'latest' to start from the "
                "latest offset in that case."
            )
    return out


# --------------------------------------------------------------------------------------------
# Input partitions and the executor-side read
# --------------------------------------------------------------------------------------------


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


def _read_spec(opts: SourceOptions) -> ReadSpec:
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
    spec = spec or _read_spec(opts)
    pieces = split_ranges(ranges, opts.min_partitions, opts.max_records_per_partition)
    return [KafkaInputPartition(r.topic, r.partition, r.from_offset, r.until_offset, spec) for r in pieces]


_RETRY_SLEEP_S = 0.1
# Below this many records the Arrow-kernel decoder's fixed cost (tens of kernel calls) exceeds
# the all-Python decoder's per-record cost.
_VECTOR_MIN_RECORDS = 256


def _in_place(records: bytes | memoryview) -> tuple[bytes | memoryview, int, int | None]:
    """(buffer, start, stop) for scan_records: a memoryview slice of a `bytes` frame (what the
    codecs hand out) becomes the frame plus bounds, so 8 MB of records are not copied once more."""
    if isinstance(records, memoryview) and isinstance(records.obj, bytes) and records.contiguous:
        start = pa.py_buffer(records).address - pa.py_buffer(records.obj).address
        if 0 <= start and start + records.nbytes <= len(records.obj):
            return records.obj, start, start + records.nbytes
    return records, 0, None


def records_to_arrow(
    records: bytes | memoryview,
    topic: str,
    partition: int,
    from_offset: int,
    until_offset: int,
    *,
    verify_crc: bool,
    aborted: list[tuple[int, int]] | None,
    include_headers: bool,
    on_scanned: Callable[[int], None] | None = None,
) -> tuple[pa.RecordBatch | None, int]:
    """Records of one Fetch response with from <= offset < until as Arrow, and where to fetch next.

    The bulk path scans record boundaries in Python and decodes everything else with Arrow
    kernels; small responses, and anything the bulk path finds inconsistent, go through the
    exact all-Python decoder (which raises CorruptRecordError on corrupt data).
    """
    frame, start, stop = _in_place(records)
    idx = scan_records(frame, verify_crc=verify_crc, aborted=aborted, start=start, stop=stop)
    if on_scanned is not None:
        on_scanned(idx.next_offset)
    if len(idx) >= _VECTOR_MIN_RECORDS:
        try:
            return (
                index_to_record_batch(
                    idx, topic, partition, from_offset, until_offset, include_headers=include_headers
                ),
                idx.next_offset,
            )
        except VectorDecodeError as e:
            log.warning("vectorized decode of %s-%d failed (%s): decoding record by record", topic, partition, e)
    cols = decode_columns(records, verify_crc=False, aborted=aborted, headers=include_headers)
    i0 = cols.index_of(from_offset)
    i1 = cols.index_of(until_offset)
    if i1 <= i0:
        return None, cols.next_offset
    return to_record_batch(cols, topic, partition, i0, i1, include_headers=include_headers), cols.next_offset


def read_partition(part: KafkaInputPartition) -> Iterator[pa.RecordBatch]:
    """Fetch [from, until) of one partition from its leader and yield Arrow batches (executor side).

    Offsets are a range, not a count: gaps (compaction, transaction markers, aborted records
    under read_committed) are skipped; the read ends at the first offset >= until.
    """
    spec = part.spec
    if part.from_offset >= part.until_offset:
        return
    client = shared_client(spec.client)
    tp = (part.topic, part.partition)
    offset, until = part.from_offset, part.until_offset
    committed = spec.client.isolation_level == READ_COMMITTED
    last_progress = time.monotonic()
    # One Fetch in flight ahead: as soon as a response's records are indexed (which gives the next
    # offset) the next Fetch goes out, so the broker works while this response is decoded and
    # while Spark consumes the batch.
    pending: PendingFetch | None = None
    pending_offset = -1
    last_error = ErrorCode.NONE
    client.tried = set()

    def prefetch(next_offset: int) -> None:
        nonlocal pending, pending_offset
        if offset < next_offset < until:
            sent = client.fetch_send(tp, next_offset, spec.client.fetch_max_wait_ms)
            if isinstance(sent, PendingFetch):
                pending, pending_offset = sent, next_offset

    try:
        while offset < until:
            waited_ms = (time.monotonic() - last_progress) * 1000
            if waited_ms > spec.poll_timeout_ms:
                cause = "" if last_error == ErrorCode.NONE else f"; last error: {last_error.name}"
                raise TimeoutError(
                    f"Cannot fetch records of {tp_str(tp)} in [{offset}, {until}) within "
                    f"kafkaConsumer.pollTimeoutMs={spec.poll_timeout_ms} ms (brokers tried: "
                    f"{format_addrs(sorted(client.tried))}{cause})"
                )
            if pending is not None and pending_offset == offset:
                res = client.fetch_receive(pending)
            else:
                if pending is not None:
                    client.fetch_discard(pending)
                wait = int(min(spec.client.fetch_max_wait_ms, spec.poll_timeout_ms - waited_ms + 1))
                res = client.fetch(tp, offset, max_wait_ms=wait)
            pending = None
            if res.error != ErrorCode.NONE:
                last_error = res.error
            if res.error == ErrorCode.OFFSET_OUT_OF_RANGE:
                moved_to = _out_of_range(client, spec, tp, offset, until)
                if moved_to == offset:  # valid again: retried within pollTimeoutMs, not forever
                    time.sleep(_RETRY_SLEEP_S)
                else:
                    offset, last_progress = moved_to, time.monotonic()
                continue
            if res.error in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_ID):
                md = client.metadata([tp[0]])
                if tp[0] not in md.topics or tp[1] not in md.topics[tp[0]].partitions:
                    report_data_loss(
                        f"Cannot fetch {tp_str(tp)} [{offset}, {until}): the topic or partition no longer exists.",
                        spec.fail_on_data_loss,
                    )
                    return
                time.sleep(_RETRY_SLEEP_S)
                continue
            if res.error != ErrorCode.NONE:
                if res.error.name in _FATAL_FETCH:
                    raise KafkaClientError(
                        f"Fetch of {tp_str(tp)} at offset {offset} failed: {res.error.name}", res.error
                    )
                time.sleep(_RETRY_SLEEP_S)  # retriable: leader moving, broker restarting...
                continue
            records = res.records if res.records is not None else b""
            batch, next_offset = records_to_arrow(
                records,
                part.topic,
                part.partition,
                offset,
                until,
                verify_crc=spec.client.check_crcs,
                aborted=res.aborted if committed else None,
                include_headers=spec.include_headers,
                on_scanned=prefetch,
            )
            if next_offset <= offset:
                # nothing at or after `offset` yet; if the log already reaches `until`, the rest of
                # the range is offsets that hold no records (compacted away, or markers)
                visible = res.last_stable_offset if committed and res.last_stable_offset >= 0 else res.high_watermark
                if visible >= until:
                    return
                if res.log_start_offset > offset:
                    moved_to = _out_of_range(client, spec, tp, offset, until)
                    if moved_to != offset:
                        offset, last_progress = moved_to, time.monotonic()
                continue
            offset = next_offset
            last_progress = time.monotonic()
            if batch is not None:
                yield batch
    except (OSError, KafkaClientError):
        # a broken connection must not poison the worker's next task
        pending = None
        drop_shared_client(spec.client)
        raise
    finally:
        if pending is not None:
            # the read ended early (error, or Spark stopped consuming): keep the connection in sync
            try:
                client.fetch_discard(pending)
            except Exception:
                drop_shared_client(spec.client)


_FATAL_FETCH = {
    "TOPIC_AUTHORIZATION_FAILED",
    "CLUSTER_AUTHORIZATION_FAILED",
    "CORRUPT_MESSAGE",
    "UNSUPPORTED_VERSION",
    "UNSUPPORTED_COMPRESSION_TYPE",
    "INVALID_REQUEST",
}


def _out_of_range(client: KafkaClient, spec: ReadSpec, tp: TopicPartition, offset: int, until: int) -> int:
    """Where to continue after OFFSET_OUT_OF_RANGE at `offset`; `until` ends the read. Returns
    `offset` itself when the partition's current leader has it after all (retry there)."""
    client.invalidate(tp[0])  # the answer may have come from a replica that is no longer the leader
    fetcher = OffsetFetcher(client, spec.retries, spec.retry_interval_ms)
    earliest = fetcher.earliest([tp])[tp]
    latest = fetcher.latest([tp])[tp]
    if offset < earliest:
        report_data_loss(
            f"Cannot fetch offset {offset} of {tp_str(tp)}: the earliest available offset is {earliest}; "
            f"offsets [{offset}, {min(earliest, until)}) are skipped.",
            spec.fail_on_data_loss,
        )
        return min(earliest, until)
    if offset < latest:
        # In range by the current leader's ListOffsets: the out-of-range answer came from a broker
        # in the middle of a leader change (e.g. a restarted replica truncated to its high watermark
        # before it learned it is no longer the leader). Not data loss: fetch the same offset again,
        # as Spark's Kafka source does when the offset is inside [earliest, latest).
        log.info("%s: offset %d out of range at a broker, but in [%d, %d) now: retrying", tp_str(tp), offset,
                 earliest, latest)  # fmt: skip
        return offset
    report_data_loss(
        f"Cannot fetch offset {offset} of {tp_str(tp)}: it is beyond the latest offset {latest} (was the topic "
        f"recreated?); offsets [{offset}, {until}) are skipped.",
        spec.fail_on_data_loss,
    )
    return until


# --------------------------------------------------------------------------------------------
# Batch
# --------------------------------------------------------------------------------------------


class PyKafkaBatchReader(DataSourceReader):
    def __init__(self, opts: SourceOptions) -> None:
        self.opts = opts

    def partitions(self) -> list[InputPartition]:  # type: ignore[override]
        opts = self.opts
        client = KafkaClient(opts.client)
        try:
            fetcher = OffsetFetcher(client, opts.fetch_offset_num_retries, opts.fetch_offset_retry_interval_ms)
            tps = subscribed_partitions(client, opts.subscription)
            start = resolve_offsets(fetcher, batch_starting(opts), tps, _starting_option(opts))
            end = resolve_offsets(fetcher, batch_ending(opts), tps, _ending_option(opts))
        finally:
            client.close()
        ranges = []
        for tp in tps:
            if start[tp] > end[tp]:
                raise OffsetResolutionError(
                    f"The starting offset {start[tp]} of {tp_str(tp)} is after its ending offset {end[tp]}: check "
                    "the starting/ending options of this batch query"
                )
            ranges.append(OffsetRange(tp[0], tp[1], start[tp], end[tp]))
        parts: list[InputPartition] = list(make_partitions(ranges, opts))
        log.info(
            "batch read of %s: %d task(s) over %d partition(s)", opts.subscription.describe(), len(parts), len(tps)
        )
        if not parts:
            # Spark needs at least one task to produce an (empty) result
            parts = [KafkaInputPartition("", 0, 0, 0, _read_spec(opts))]
        return parts

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:  # type: ignore[override]
        assert isinstance(partition, KafkaInputPartition)
        return read_partition(partition)


def _starting_option(opts: SourceOptions) -> str:
    s = opts.starting
    if isinstance(s, GlobalTimestampSpec):
        return "startingTimestamp"
    if isinstance(s, SpecificTimestampsSpec):
        return "startingOffsetsByTimestamp"
    return "startingOffsets"


def _ending_option(opts: SourceOptions) -> str:
    e = opts.ending
    if isinstance(e, GlobalTimestampSpec):
        return "endingTimestamp"
    if isinstance(e, SpecificTimestampsSpec):
        return "endingOffsetsByTimestamp"
    return "endingOffsets"


# --------------------------------------------------------------------------------------------
# Streaming
# --------------------------------------------------------------------------------------------


class PyKafkaStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """Micro-batch reader with admission control (maxOffsetsPerTrigger) and real AvailableNow."""

    def __init__(self, opts: SourceOptions) -> None:
        self.opts = opts
        self._client: KafkaClient | None = None
        self._group: GroupSession | None = None  # group mode: started by the first planning call
        self._group_waited = False  # the first batch waits for the first assignment, later ones never
        self._commits: FinishedBatchCommits | None = None  # commitOffsetsToGroup (driver process only)
        self._latest: PartitionOffsets | None = None  # latest offsets seen by the last latestOffset()
        self._target: PartitionOffsets | None = None  # AvailableNow: never read past these
        self._last_trigger_ms = 0.0  # minOffsetsPerTrigger / maxTriggerDelay bookkeeping
        self.last_lag: LagStats | None = None
        self.lag_history: list[LagStats] = []

    # the driver-side process keeps the client; a pickled copy (executors) starts without one
    def __getstate__(self) -> dict[str, object]:
        state = self.__dict__.copy()
        state["_client"] = None
        state["_group"] = None
        state["_commits"] = None
        return state

    @property
    def client(self) -> KafkaClient:
        if self._client is None or self._client.closed:
            self._client = KafkaClient(self.opts.client)
        return self._client

    @property
    def fetcher(self) -> OffsetFetcher:
        return OffsetFetcher(self.client, self.opts.fetch_offset_num_retries, self.opts.fetch_offset_retry_interval_ms)

    def _partitions_now(self) -> list[TopicPartition]:
        return subscribed_partitions(self.client, self.opts.subscription)

    def _group_session(self) -> GroupSession:
        if self._group is None or self._group.closed:
            topics = sorted({t for t, _ in self._partitions_now()})
            self._group = GroupSession(self.opts, topics).start()
        return self._group

    # --- offsets --------------------------------------------------------------------------
    def initialOffset(self) -> dict:
        if self.opts.group is not None:
            # group mode: no partition is ours before the group assigns it; each one's start is
            # resolved when it is assigned (and recorded in that batch's end offsets)
            self._group_session()
            return {}
        tps = self._partitions_now()
        offsets = resolve_offsets(self.fetcher, stream_starting(self.opts), tps, _starting_option(self.opts))
        log.info("initial offsets of %s: %s", self.opts.subscription.describe(), offsets)
        return format_partition_offsets(offsets)

    def getDefaultReadLimit(self) -> ReadLimit:
        if self.opts.max_offsets_per_trigger is not None:
            return ReadMaxRows(self.opts.max_offsets_per_trigger)
        if self.opts.min_offsets_per_trigger is not None:
            return ReadMinRows(self.opts.min_offsets_per_trigger)
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        if self.opts.group is not None:
            # the run drains what this member owns (batch by batch) up to the latest offsets of now
            g = self.opts.group
            view = self._group_session().view(wait_s=g.join_timeout_ms / 1000, settle_s=g.session_timeout_ms / 1000)
            self._group_waited = True
            self._group.raise_if_failed()  # type: ignore[union-attr]
            if not view.assigned:
                raise TimeoutError(
                    f"Trigger.AvailableNow: no assignment from consumer group {g.group_id!r} within "
                    f"kafka.default.api.timeout.ms={g.join_timeout_ms} ms"
                )
        tps = self._partitions_now()
        self._target = self.fetcher.latest(tps)
        log.info("Trigger.AvailableNow: reading up to %s", self._target)

    def _latest_now(self) -> PartitionOffsets:
        tps = self._partitions_now()
        latest = self.fetcher.latest(tps)
        if self._target is not None:
            # AvailableNow: partitions that appeared since are not read, the others not past the target
            latest = {tp: min(o, self._target[tp]) for tp, o in latest.items() if tp in self._target}
        return latest

    def _commit_finished(self, offsets: PartitionOffsets) -> None:
        """commitOffsetsToGroup: `offsets` end a batch Spark committed to the sink (or are the initial ones)."""
        if self.opts.commit_group is None:
            return
        if self._commits is None:
            self._commits = FinishedBatchCommits(
                self.opts.commit_group, self.opts.client, self.opts.checkpoint_location
            )
        self._commits.finished(offsets)

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        if self.opts.group is not None:
            return self._group_latest_offset(start, limit)
        if GROUP_KEY in (start or {}):
            # a checkpoint of a query that ran in group mode before `kafka.group.id` stopped switching it on
            raise SourceOptionError(
                "This query's checkpoint was written in group mode (its offsets carry a '@group' mark), but group "
                "mode is off: 'kafka.group.id' alone no longer switches it on. Add option 'groupMode' = 'true' "
                "(keeping 'kafka.group.id') to continue in group mode, or start the query with a new checkpoint "
                "to read every partition"
            )
        fail = self.opts.fail_on_data_loss
        current = from_offset_json(start or {})
        # Spark plans the next batch only after the previous one is committed to the sink: `start` is final
        self._commit_finished(current)
        latest = self._latest_now()
        gone = sorted(tp for tp in current if tp not in latest)
        if gone:
            report_data_loss(f"Partitions {', '.join(tp_str(tp) for tp in gone)} are gone.", fail)
        new = [tp for tp in latest if tp not in current]
        begin = dict(current)
        if new:
            begin.update(self.fetcher.earliest(new))
        begin = {tp: begin[tp] for tp in latest}
        self._latest = latest

        min_rows = None
        max_rows = None
        if isinstance(limit, ReadMaxRows):
            max_rows = limit.max_rows
            min_rows = self.opts.min_offsets_per_trigger
        elif isinstance(limit, ReadMinRows):
            min_rows = limit.min_rows
        if self._target is not None:
            min_rows = None  # AvailableNow must drain, never wait for more data
        if min_rows is not None and self._delay_batch(min_rows, begin, latest):
            log.debug("fewer than minOffsetsPerTrigger=%d new offsets: delaying the batch", min_rows)
            self._record_lag(current, latest)
            return start
        end = rate_limit(max_rows, begin, latest) if max_rows is not None else dict(latest)
        self._record_lag(end, latest)
        return format_partition_offsets(end)

    # --- group mode -------------------------------------------------------------------------------
    def _group_starting(self, tps: list[TopicPartition]) -> PartitionOffsets:
        """`startingOffsets` for partitions the group has no offset for (the last fallback)."""
        spec = stream_starting(self.opts)
        option = _starting_option(self.opts)
        named: PartitionOffsets | None = None
        if isinstance(spec, SpecificOffsetsSpec):
            named = spec.offsets
        elif isinstance(spec, SpecificTimestampsSpec):
            named = spec.timestamps
        if named is not None:
            missing = [tp for tp in tps if tp not in named]
            if missing:
                raise OffsetResolutionError(
                    f"Option '{option}' names no starting point for {', '.join(tp_str(tp) for tp in missing)}, which "
                    "the consumer group assigned to this query and for which the group has no committed offset: in "
                    "group mode name every partition of the subscription, or use 'earliest'/'latest'"
                )
            if isinstance(spec, SpecificOffsetsSpec):
                spec = SpecificOffsetsSpec({tp: named[tp] for tp in tps})
            else:
                spec = SpecificTimestampsSpec({tp: named[tp] for tp in tps}, spec.strategy)
        return resolve_offsets(self.fetcher, spec, tps, option)

    def _check_resume(self, starts: PartitionOffsets, latest: PartitionOffsets) -> PartitionOffsets:
        """Resume offsets outside the log (retention, or a recreated topic) are data loss."""
        if not starts:
            return starts
        fail = self.opts.fail_on_data_loss
        earliest = self.fetcher.earliest(sorted(starts))
        out = {}
        for tp, off in starts.items():
            if off < earliest[tp]:
                report_data_loss(
                    f"{tp_str(tp)} resumes at offset {off} for group {self.opts.group.group_id!r} "  # type: ignore[union-attr]
                    f"but the earliest available offset is {earliest[tp]}.",
                    fail,
                )
                off = earliest[tp]
            elif off > latest[tp]:
                report_data_loss(
                    f"{tp_str(tp)} resumes at offset {off} for group {self.opts.group.group_id!r} "  # type: ignore[union-attr]
                    f"but the latest offset is {latest[tp]} (was the topic recreated?).",
                    fail,
                )
                off = latest[tp]
            out[tp] = off
        return out

    def _group_latest_offset(self, start: dict, limit: ReadLimit) -> dict:
        """End offsets of the next batch over the partitions this member owns now.

        A partition owned without a break since the previous batch continues at that batch's end; a
        partition just gained (or every partition, in a new reader process) starts where the group's
        committed offset is, and that start goes into the returned offsets (`@group` mark) so a
        replay of the batch after a driver crash reads the same range.
        """
        g = self.opts.group
        assert g is not None
        session = self._group_session()
        subscribed = self._partitions_now()
        if self.opts.subscription.kind == "subscribePattern":
            session.update_subscription(sorted({t for t, _ in subscribed}))
        if self._group_waited:
            view = session.view()
        else:  # the query's first batch: wait for partitions (no empty first batch for a joining query)
            view = session.view(wait_s=g.join_timeout_ms / 1000, settle_s=g.session_timeout_ms / 1000)
            self._group_waited = True
        session.raise_if_failed()
        if not view.assigned:
            log.warning("group %s: no assignment yet; no batch planned", g.group_id)
            return start
        previous, _ = decode_group_offsets(start)
        # Spark asks for batch N+1 only once batch N is committed to the sink: its end is final
        session.commit_finished(previous)
        existing = set(subscribed)
        owned = sorted(tp for tp in view.owned if tp in existing)
        continuing = {tp: previous[tp] for tp in owned if tp in view.continuous and tp in previous}
        needs = [tp for tp in owned if tp not in continuing]
        log_end = self.fetcher.latest(owned) if owned else {}
        starts: PartitionOffsets = {}
        if needs:
            try:
                resumed = session.resume_offsets(needs, self._group_starting)
            except OffsetResolutionError:
                raise
            except Exception as e:  # transient (coordinator moving, table unreachable): retry next trigger
                log.warning("group %s: cannot resolve resume offsets of %s yet: %s", g.group_id, needs, e)
                resumed = {}
            for tp in sorted(resumed):
                log.info("group %s: %s resumes at %d (from %s)", g.group_id, tp_str(tp), *resumed[tp])
            starts = self._check_resume({tp: o for tp, (o, _) in resumed.items()}, log_end)
        begin = {**continuing, **starts}
        latest = {tp: log_end[tp] for tp in begin}
        if self._target is not None:
            # AvailableNow: not past the offsets of the run's start (another member may have written
            # a gained partition beyond them already: then its range is empty)
            latest = {tp: max(begin[tp], min(o, self._target.get(tp, o))) for tp, o in latest.items()}
        self._latest = latest

        max_rows = limit.max_rows if isinstance(limit, ReadMaxRows) else None
        min_rows = None
        if isinstance(limit, ReadMaxRows):
            min_rows = self.opts.min_offsets_per_trigger
        elif isinstance(limit, ReadMinRows):
            min_rows = limit.min_rows
        if self._target is not None or starts or set(begin) != set(previous):
            min_rows = None  # AvailableNow drains; an ownership change is planned at once
        if min_rows is not None and self._delay_batch(min_rows, begin, latest):
            self._record_lag(previous, latest)
            return start
        end = rate_limit(max_rows, begin, latest) if max_rows is not None else dict(latest)
        self._record_lag(end, latest)
        if not starts and end == previous:
            return start  # nothing new: the same offsets, no batch
        session.planned(end)
        return encode_group_offsets(end, GroupMark(view.generation, view.member_id, starts))

    def _delay_batch(self, min_rows: int, begin: PartitionOffsets, latest: PartitionOffsets) -> bool:
        now = time.time() * 1000
        if now - self._last_trigger_ms >= self.opts.max_trigger_delay_ms:
            self._last_trigger_ms = now
            return False
        available = sum(max(0, latest[tp] - begin[tp]) for tp in latest)
        if available < min_rows:
            return True
        self._last_trigger_ms = now
        return False

    def _record_lag(self, end: PartitionOffsets, latest: PartitionOffsets) -> None:
        stats = compute_lag(end, latest)
        if stats is None:
            return
        self.last_lag = stats
        self.lag_history.append(stats)
        del self.lag_history[:-100]
        log.info(
            "pykafka source %s offsets behind latest: min=%d max=%d avg=%.1f",
            self.opts.subscription.describe(),
            stats.min,
            stats.max,
            stats.avg,
        )

    def reportLatestOffset(self) -> dict | None:
        # shows up as `latestOffset` in the query progress: connector.lag derives the lag from it
        return format_partition_offsets(self._latest) if self._latest is not None else None

    # --- planning ------------------------------------------------------------------------------
    def partitions(self, start: dict, end: dict) -> list[InputPartition]:  # type: ignore[override]
        if self.opts.group is not None or GROUP_KEY in (end or {}):
            return self._group_partitions(start, end)
        fail = self.opts.fail_on_data_loss
        begin = from_offset_json(start or {})
        self._commit_finished(begin)  # a batch replayed after a restart: its start ends a committed batch
        until = from_offset_json(end or {})
        new = [tp for tp in until if tp not in begin]
        if new:
            earliest = self.fetcher.earliest(new)
            for tp in new:
                if earliest[tp] != 0:
                    report_data_loss(f"Added partition {tp_str(tp)} starts from {earliest[tp]} instead of 0.", fail)
                begin[tp] = earliest[tp]
        ranges = []
        for tp in sorted(until):
            if until[tp] < begin[tp]:
                report_data_loss(f"Partition {tp_str(tp)}'s offset was changed from {begin[tp]} to {until[tp]}.", fail)
                continue
            ranges.append(OffsetRange(tp[0], tp[1], begin[tp], until[tp]))
        return list(make_partitions(ranges, self.opts))

    def _group_partitions(self, start: dict, end: dict) -> list[InputPartition]:
        """A group-mode batch: only what its end offsets name, from the starts recorded there.

        Pure function of (start, end): a batch replayed after a driver crash, in a process that
        may not own those partitions any more, reads the same ranges; the Delta sink drops what
        the table already holds.
        """
        try:
            begin = batch_starts(start, end)
        except KeyError as e:
            raise OffsetResolutionError(f"Group-mode offsets of this batch are inconsistent: {e}") from None
        until, mark = decode_group_offsets(end)
        ranges = []
        for tp in sorted(until):
            if until[tp] < begin[tp]:
                report_data_loss(
                    f"Partition {tp_str(tp)}'s offset was changed from {begin[tp]} to {until[tp]}.",
                    self.opts.fail_on_data_loss,
                )
                continue
            ranges.append(OffsetRange(tp[0], tp[1], begin[tp], until[tp]))
        g = self.opts.group
        generation = mark.generation if mark is not None else -1
        member = mark.member_id if mark is not None else ""
        log.info(
            "group %s generation %d member %s plans %s",
            g.group_id if g else "?",
            generation,
            member,
            [f"{r.topic}-{r.partition}[{r.from_offset},{r.until_offset})" for r in ranges],
        )
        if g is not None and g.plan_log:
            write_plan_log(
                g.plan_log,
                {
                    "time": time.time(),
                    "pid": os.getpid(),
                    "group": g.group_id,
                    "generation": generation,
                    "member": member,
                    "ranges": [[r.topic, r.partition, r.from_offset, r.until_offset] for r in ranges],
                },
            )
        return list(make_partitions(ranges, self.opts))

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:  # type: ignore[override]
        assert isinstance(partition, KafkaInputPartition)
        return read_partition(partition)

    def commit(self, end: dict) -> None:
        # offsets live in the checkpoint (Spark may never call this); in group mode the finished
        # batch's offsets also go to the group, for Kafka tooling (latestOffset commits them too)
        if self._group is not None:
            self._group.commit_finished(from_offset_json(end or {}))
        elif GROUP_KEY not in (end or {}):
            self._commit_finished(from_offset_json(end or {}))
        log.debug("batch ending at %s committed", end)

    def stop(self) -> None:
        if self._commits is not None:
            self._commits.close()
            self._commits = None
        if self._group is not None:
            self._group.close()
            self._group = None
        if self._client is not None:
            self._client.close()
            self._client = None


__all__ = [
    "DataLossError",
    "KafkaInputPartition",
    "OffsetResolutionError",
    "PyKafkaBatchReader",
    "PyKafkaStreamReader",
    "ReadSpec",
    "read_partition",
    "resolve_offsets",
    "subscribed_partitions",
]
