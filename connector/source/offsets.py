"""The source's driver side of offsets: the partitions a subscription names, offset specs resolved
to offsets by ListOffsets (with the source's retry options), and data loss reported as Spark does.

Used by the stream and batch readers (`connector.source.reader`), the executor-side read when a fetch
offset is out of range (`connector.source.partition_reader`) and the lag view (`connector.source.lag`).
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from connector.kafka_client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    KafkaClient,
)
from connector.options import (
    Subscription,
)
from kafka_wire.errors import PykafkaError
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


class DataLossError(PykafkaError, RuntimeError):
    """Offsets the query should read are gone (Spark raises IllegalStateException)."""


class OffsetResolutionError(PykafkaError, RuntimeError):
    """Starting/ending offsets cannot be resolved (no match for a timestamp, unknown partitions, ...)."""


def report_data_loss(message: str, fail: bool) -> None:
    if fail:
        raise DataLossError(message + _LOSS_HINT_FAIL)
    log.warning("%s%s", message, _LOSS_HINT_WARN)


# --------------------------------------------------------------------------------------------
# Driver side: partitions of a subscription, offset specs → offsets
# --------------------------------------------------------------------------------------------


class UnknownTopicError(OffsetResolutionError):
    """A topic named in option 'subscribe' does not exist when the read starts (Spark's Kafka source
    fails with UnknownTopicOrPartitionException there; a topic deleted later is data loss instead)."""


def subscribed_partitions(
    client: KafkaClient, sub: Subscription, require_topics: bool = False, retries: int = 0, retry_interval_ms: int = 0
) -> list[TopicPartition]:
    """The partitions a subscription names right now, sorted.

    `require_topics`: a topic of `subscribe` that does not exist is an error (UnknownTopicError),
    asked again `retries` times `retry_interval_ms` apart (a topic created just before the read may
    not be in every broker's metadata yet), as Spark's source retries its describeTopics. Without it
    (a running stream, lag views) a missing topic names no partitions: the stream reports the loss.
    """
    if sub.kind == "subscribe":
        md = client.metadata(sub.topics)
        attempt = 0
        while require_topics and any(t not in md.topics for t in sub.topics):
            if attempt >= retries:
                missing = [t for t in sub.topics if t not in md.topics]
                raise UnknownTopicError(
                    f"UNKNOWN_TOPIC_OR_PARTITION: topic(s) {', '.join(repr(t) for t in missing)} given in option "
                    f"'subscribe' do not exist (bootstrap.servers={client.config.bootstrap_servers}); check the "
                    "name, or create the topic before starting the read"
                )
            attempt += 1
            time.sleep(retry_interval_ms / 1000)
            md = client.metadata(sub.topics)
        return sorted(TopicPartition(t, p) for t in sub.topics if t in md.topics for p in md.topics[t].partitions)
    if sub.kind == "subscribePattern":
        rx = re.compile(sub.pattern)
        md = client.metadata(None)
        # internal topics are left out, as Kafka consumers do (exclude.internal.topics=true)
        return sorted(
            TopicPartition(t, p)
            for t, info in md.topics.items()
            if not info.internal and rx.fullmatch(t)
            for p in info.partitions
        )
    topics = sorted({t for t, _ in sub.assignment})
    md = client.metadata(topics)
    absent = [tp for tp in sub.assignment if tp[0] not in md.topics or tp[1] not in md.topics[tp[0]].partitions]
    if absent:
        raise OffsetResolutionError(
            f"Partitions {', '.join(tp_str(tp) for tp in absent)} given in option 'assign' do not exist"
        )
    return sorted(TopicPartition(t, p) for t, p in sub.assignment)


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
