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
  (`groupMode` with `kafka.group.id`, `connector.source.group_mode`) the stream reader is a member of the
  consumer group, plans only the partitions it owns and commits finished batches to the group.

Offsets are `{"topic": {"partition": next_offset}}` with keys sorted as strings (plus a `@group`
mark in group mode, see `offsets.group_offsets`).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pyspark.sql.datasource import DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    ReadMinRows,
    SupportsTriggerAvailableNow,
)

from connector.kafka_client import (
    KafkaClient,
)
from connector.options import (
    SourceOptionError,
    SourceOptions,
    batch_ending,
    batch_starting,
    stream_starting,
)
from connector.source.input_partition import (
    KafkaInputPartition,
    KafkaInputPartitionGroup,
    ReadSpec,
    make_partitions,
    read_spec_from,
)
from connector.source.offsets import (
    DataLossError,
    OffsetFetcher,
    OffsetResolutionError,
    report_data_loss,
    resolve_offsets,
    subscribed_partitions,
)
from connector.source.trigger_delay import TriggerDelay
from offsets.group_offsets import GROUP_KEY, GroupMark, batch_starts, decode_group_offsets, encode_group_offsets
from offsets.lag import LagStats, compute_lag
from offsets.ranges import OffsetRange
from offsets.rate_limit import rate_limit
from offsets.spec import (
    GlobalTimestampSpec,
    PartitionOffsets,
    SpecificOffsetsSpec,
    SpecificTimestampsSpec,
    TopicPartition,
    format_partition_offsets,
    from_offset_json,
    tp_str,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from connector.offset_mirror import FinishedBatchCommits
    from connector.source.group_mode import GroupSession

log = logging.getLogger("connector.source")

# The stream reader runs in a Python process Spark starts for each query (pyspark's
# python_streaming_source_runner), and what this module imports is paid at every query start,
# before the first trigger. So the driver side imports only what planning needs: the executor's
# read path (`connector.source.partition_reader`: decoder, pyarrow.compute, crc32c, and pandas, which
# pyarrow loads at the decoder's first `pa.array`), group mode and the group-offset mirror are
# imported where they are used.


def read_partition(part: KafkaInputPartition | KafkaInputPartitionGroup) -> Iterator[pa.RecordBatch]:
    """`connector.source.partition_reader.read_partition`, imported on first use (executors only)."""
    from connector.source.partition_reader import read_partition as read

    return read(part)


# --------------------------------------------------------------------------------------------
# Batch
# --------------------------------------------------------------------------------------------


class PyKafkaBatchReader(DataSourceReader):
    def __init__(self, opts: SourceOptions) -> None:
        self.opts = opts

    def partitions(self) -> list[InputPartition]:
        opts = self.opts
        client = KafkaClient(opts.client)
        try:
            fetcher = OffsetFetcher(client, opts.fetch_offset_num_retries, opts.fetch_offset_retry_interval_ms)
            tps = subscribed_partitions(
                client, opts.subscription, True, opts.fetch_offset_num_retries, opts.fetch_offset_retry_interval_ms
            )
            start = resolve_offsets(fetcher, batch_starting(opts), tps, _starting_option(opts))
            end = resolve_offsets(fetcher, batch_ending(opts), tps, _ending_option(opts))
            _check_ending_within_log(fetcher, opts, end)
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
            parts = [KafkaInputPartition("", 0, 0, 0, read_spec_from(opts))]
        return parts

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, (KafkaInputPartition, KafkaInputPartitionGroup))
        return read_partition(partition)


def _check_ending_within_log(fetcher: OffsetFetcher, opts: SourceOptions, end: PartitionOffsets) -> None:
    """Ending offsets given as numbers must not be past the partition's latest offset: the read would
    wait `kafkaConsumer.pollTimeoutMs` (2 min by default) for records that do not exist yet."""
    if not isinstance(opts.ending, SpecificOffsetsSpec):
        return
    explicit = sorted(tp for tp, o in opts.ending.offsets.items() if o >= 0 and tp in end)
    if not explicit:
        return
    latest = fetcher.latest(explicit)
    past = [tp for tp in explicit if end[tp] > latest[tp]]
    if past:
        isolation = " (the last stable offset: kafka.isolation.level is read_committed)" if _committed(opts) else ""
        raise OffsetResolutionError(
            "Invalid value for option 'endingOffsets': "
            + "; ".join(f"{tp_str(tp)} ends at {end[tp]} but its latest offset is {latest[tp]}" for tp in past)
            + f"{isolation}. A batch read cannot end past the data in the partition: use -1 (latest) or an "
            "offset not above the latest"
        )


def _committed(opts: SourceOptions) -> bool:
    from connector.client_config import READ_COMMITTED

    return opts.client.isolation_level == READ_COMMITTED


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
        self._trigger_delay = TriggerDelay(opts.max_trigger_delay_ms)  # minOffsetsPerTrigger + maxTriggerDelay
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
            from connector.source.group_mode import GroupSession

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
        # a new query: a topic of `subscribe` must exist (Spark's source fails there too); once the
        # query runs, a deleted topic is data loss (latestOffset, failOnDataLoss)
        o = self.opts
        tps = subscribed_partitions(self.client, o.subscription, True, o.fetch_offset_num_retries,
                                    o.fetch_offset_retry_interval_ms)  # fmt: skip
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
            # _group_session() above created the session
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
            from connector.offset_mirror import FinishedBatchCommits

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
                assert isinstance(spec, SpecificTimestampsSpec)  # `named` is set only for the two specific specs
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
                    # group mode: opts.group is set
                    f"{tp_str(tp)} resumes at offset {off} for group {self.opts.group.group_id!r} "  # type: ignore[union-attr]
                    f"but the earliest available offset is {earliest[tp]}.",
                    fail,
                )
                off = earliest[tp]
            elif off > latest[tp]:
                report_data_loss(
                    # group mode: opts.group is set
                    f"{tp_str(tp)} resumes at offset {off} for group {self.opts.group.group_id!r} "  # type: ignore[union-attr]
                    f"but the latest offset is {latest[tp]} (was the topic recreated?).",
                    fail,
                )
                off = latest[tp]
            out[tp] = off
        return out

    def _group_latest_offset(self, start: dict, limit: ReadLimit) -> dict:
        # a revocation (consumer protocol) waits for this planning to end: no batch names a
        # partition after its release
        with self._group_session().planning():
            return self._group_plan(start, limit)

    def _group_plan(self, start: dict, limit: ReadLimit) -> dict:
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
        available = sum(max(0, latest[tp] - begin[tp]) for tp in latest)
        return self._trigger_delay.delays(available, min_rows)

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
        # shows up as `latestOffset` in the query progress: connector.source.lag derives the lag from it
        return format_partition_offsets(self._latest) if self._latest is not None else None

    # --- planning ------------------------------------------------------------------------------
    def partitions(self, start: dict, end: dict) -> list[InputPartition]:
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
            from connector.source.group_mode import write_plan_log

            write_plan_log(
                g.plan_log,
                {
                    "time": time.time(),
                    "pid": os.getpid(),
                    "group": g.group_id,
                    "generation": generation,
                    "member": member,
                    # the consumer protocol's member ids do not start with the client id
                    "client": self.opts.client.client_id,
                    "ranges": [[r.topic, r.partition, r.from_offset, r.until_offset] for r in ranges],
                },
            )
        return list(make_partitions(ranges, self.opts))

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        assert isinstance(partition, (KafkaInputPartition, KafkaInputPartitionGroup))
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
    "KafkaInputPartitionGroup",
    "OffsetResolutionError",
    "PyKafkaBatchReader",
    "PyKafkaStreamReader",
    "ReadSpec",
    "read_partition",
    "resolve_offsets",
    "subscribed_partitions",
]
