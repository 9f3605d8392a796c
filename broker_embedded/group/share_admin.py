"""Share-group administration (KIP-932): the group coordinator's side of DescribeShareGroupOffsets
(90), AlterShareGroupOffsets (91), DeleteShareGroupOffsets (92) and of ListGroups / DeleteGroups
for share groups, as Apache Kafka 4.3.1 answers them (checked on the wire against it).

* Offsets of a share group are its share-partitions' start offsets (SPSO) and lag
  (high watermark - SPSO - delivery-complete records >= SPSO), as the share coordinator holds them.
* Alter and delete need an empty group (NON_EMPTY_GROUP, "The group is not empty."). Alter of an
  unknown group creates it empty (Kafka does); Kafka does not check the offset itself (-1 means
  "from share.auto.offset.reset again", past the end gives a negative lag). An unknown topic is
  UNKNOWN_TOPIC_OR_PARTITION per partition (alter) or per topic (delete).
* Deleting a share group (DeleteGroups) needs it empty (NON_EMPTY_GROUP) and drops all its state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kafka_wire.errors import ErrorCode

if TYPE_CHECKING:
    from broker_embedded.group.share_coordinator import ShareCoordinator
    from broker_embedded.share.manager import OffsetSummary

NO_TOPIC_ID = bytes(16)
UNKNOWN_TOPIC_MESSAGE = "This server does not host this topic-partition."
NOT_EMPTY_MESSAGE = "The group is not empty."

# topic name -> (topic id, partition count), None when the topic does not exist
TopicLookup = Callable[[str], "tuple[bytes, int] | None"]
# (topic name, partition) -> the partition's high watermark here, None when not known here
HighWatermark = Callable[[str, int], "int | None"]


@dataclass(frozen=True, slots=True)
class PartitionOffsets:
    partition: int
    start_offset: int  # -1: no state
    leader_epoch: int
    lag: int  # -1: unknown
    error: ErrorCode = ErrorCode.NONE  # the share coordinator could not be read (a cluster)


@dataclass(frozen=True, slots=True)
class TopicOffsets:
    name: str
    topic_id: bytes
    partitions: list[PartitionOffsets]


@dataclass(frozen=True, slots=True)
class TopicResult:
    name: str
    topic_id: bytes
    error: ErrorCode
    message: str | None
    partitions: list[tuple[int, ErrorCode, str | None]]


class ShareGroupAdmin:
    def __init__(
        self,
        share: ShareCoordinator,
        topic_lookup: TopicLookup | None = None,
        high_watermark: HighWatermark | None = None,
    ) -> None:
        self.share = share
        self.topic_lookup = topic_lookup or share._topic_lookup
        self.high_watermark = high_watermark or self._local_high_watermark

    def _local_high_watermark(self, topic: str, index: int) -> int | None:
        partition = self.share.partition_of(topic, index)
        return None if partition is None else partition.high_watermark

    # ---- groups -----------------------------------------------------------------------------

    def is_share_group(self, group_id: str) -> bool:
        return self.share.groups.get(group_id) is not None

    def listed(self) -> list[tuple[str, str]]:
        """(group id, state) of every share group."""
        self.share.groups.expire(self.share.clock())
        with self.share.groups._lock:
            return [(g.group_id, g.state) for g in self.share.groups.groups.values()]

    def _empty_or_error(self, group_id: str) -> ErrorCode:
        self.share.groups.expire(self.share.clock())
        group = self.share.groups.get(group_id)
        if group is None:
            return ErrorCode.GROUP_ID_NOT_FOUND
        return ErrorCode.NON_EMPTY_GROUP if group.members else ErrorCode.NONE

    def delete_group(self, group_id: str) -> ErrorCode:
        """DeleteGroups of a share group: only an empty one; its share-partition state goes too."""
        self.share.groups.expire(self.share.clock())
        with self.share.groups._lock:
            group = self.share.groups.groups.get(group_id)
            if group is None or group.members:
                return ErrorCode.NON_EMPTY_GROUP if group is not None else ErrorCode.GROUP_ID_NOT_FOUND
            self.share.groups.delete(group_id)  # its records' tombstones too
        self.share.partitions.delete_state(group_id, None, None)
        return ErrorCode.NONE

    # ---- offsets ----------------------------------------------------------------------------

    def _offsets(self, name: str, index: int, summary: OffsetSummary | None) -> PartitionOffsets:
        if summary is None:
            return PartitionOffsets(index, -1, 0, -1)
        start = summary.start_offset
        hw = self.high_watermark(name, index)
        lag = -1 if start < 0 or hw is None else hw - start - max(summary.delivery_complete_count, 0)
        return PartitionOffsets(index, start, summary.leader_epoch, lag)

    def describe_offsets(self, group_id: str, topics: Sequence[tuple[str, Sequence[int]]] | None) -> list[TopicOffsets]:
        """DescribeShareGroupOffsets of one group; `topics` None: every share-partition with state."""
        summaries = self.share.partitions.summaries(group_id)
        if topics is None:
            names = {}
            for tid in {tid for tid, _ in summaries}:
                meta = self.share.topics.by_id.get(tid)
                if meta is not None:
                    names[tid] = meta.name
            by_topic: dict[bytes, list[int]] = {}
            for tid, index in summaries:
                if tid in names:
                    by_topic.setdefault(tid, []).append(index)
            return [
                TopicOffsets(
                    names[tid],
                    tid,
                    [self._offsets(names[tid], i, summaries[(tid, i)]) for i in sorted(indexes)],
                )
                for tid, indexes in sorted(by_topic.items(), key=lambda kv: names[kv[0]])
            ]
        out = []
        for name, partitions in topics:
            found = self.topic_lookup(name)
            tid = found[0] if found is not None else NO_TOPIC_ID
            out.append(
                TopicOffsets(
                    name, tid, [self._offsets(name, i, summaries.get((tid, i)) if found else None) for i in partitions]
                )
            )
        return out

    def alter_offsets(
        self, group_id: str, topics: Sequence[tuple[str, Sequence[tuple[int, int]]]]
    ) -> tuple[ErrorCode, str | None, list[TopicResult]]:
        """AlterShareGroupOffsets: (group error, message, per-topic results)."""
        code = self._empty_or_error(group_id)
        if code == ErrorCode.GROUP_ID_NOT_FOUND:
            if self.share.groups.other_group_exists is not None and self.share.groups.other_group_exists(group_id):
                return ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.", []
            self.share.groups.create_empty(group_id)
        elif code != ErrorCode.NONE:
            return code, NOT_EMPTY_MESSAGE, []
        results = []
        for name, partitions in topics:
            found = self.topic_lookup(name)
            if found is None:
                results.append(
                    TopicResult(
                        name,
                        NO_TOPIC_ID,
                        ErrorCode.NONE,
                        None,
                        [(i, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE) for i, _ in partitions],
                    )
                )
                continue
            tid, count = found
            done: list[tuple[int, ErrorCode, str | None]] = []
            for index, start in partitions:
                if not 0 <= index < count:
                    done.append((index, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE))
                    continue
                self.share.partitions.reset_start_offset(group_id, name, tid, index, start)
                done.append((index, ErrorCode.NONE, None))
            results.append(TopicResult(name, tid, ErrorCode.NONE, None, done))
        # Kafka answers the unknown topics first
        results.sort(key=lambda r: r.topic_id != NO_TOPIC_ID)
        return ErrorCode.NONE, None, results

    def delete_offsets(self, group_id: str, topics: Sequence[str]) -> tuple[ErrorCode, str | None, list[TopicResult]]:
        """DeleteShareGroupOffsets: (group error, message, per-topic results)."""
        code = self._empty_or_error(group_id)
        if code == ErrorCode.GROUP_ID_NOT_FOUND:
            return code, f"Group {group_id} not found.", []
        if code != ErrorCode.NONE:
            return code, NOT_EMPTY_MESSAGE, []
        results = []
        for name in dict.fromkeys(topics):  # a topic named twice is answered once, as Kafka does
            found = self.topic_lookup(name)
            if found is None:
                results.append(
                    TopicResult(name, NO_TOPIC_ID, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_MESSAGE, [])
                )
                continue
            self.share.partitions.delete_state(group_id, name, found[0])
            results.append(TopicResult(name, found[0], ErrorCode.NONE, None, []))
        return ErrorCode.NONE, None, results
