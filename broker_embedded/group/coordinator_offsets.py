"""Committed offsets and group deletion of the classic group coordinator (split out of coordinator.py).

`GroupOffsets` is a mixin of `GroupCoordinator`: OffsetCommit, OffsetFetch, OffsetDelete,
DeleteGroups and offset expiry, all written to ``__consumer_offsets`` through `self.storage` before
they take effect in memory.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.offsets_topic import (
    GroupKey,
    OffsetKey,
    OffsetValue,
    encode_group_key,
    encode_offset_key,
    encode_offset_value,
)
from broker_embedded.group.state import (
    OFFSET_METADATA_MAX_BYTES,
    GroupMetadata,
    GroupState,
    MemberMetadata,
    OffsetAndMetadata,
)
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.group.consumer_coordinator import ConsumerGroupCoordinator
    from broker_embedded.group.metadata_manager import GroupMetadataManager
    from broker_embedded.group.streams_coordinator import StreamsGroupCoordinator
    from broker_embedded.group.txn_offsets import GroupTxnOffsets

UNKNOWN_MEMBER_ID = ""

log = logging.getLogger(__name__)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class GroupOffsets:
    """The offsets half of the classic coordinator; the attributes below are set by GroupCoordinator."""

    config: Any
    groups: dict[str, GroupMetadata]
    storage: GroupMetadataManager
    consumer_groups: ConsumerGroupCoordinator
    streams_groups: StreamsGroupCoordinator
    txn_offsets: GroupTxnOffsets

    coordinator_error: Callable[[str | None], ErrorCode]
    _validate_group_id: Callable[[str | None], None]
    _schedule_heartbeat_expiry: Callable[[GroupMetadata, MemberMetadata], None]

    def commit_offsets(
        self,
        group_id: str,
        generation_id: int,
        member_id: str,
        instance_id: str | None,
        offsets: dict[tuple[str, int], OffsetAndMetadata],
    ) -> dict[tuple[str, int], ErrorCode]:
        self._validate_group_id(group_id)
        if (code := self.coordinator_error(group_id)) != ErrorCode.NONE:
            return dict.fromkeys(offsets, code)
        group = self.groups.get(group_id)
        codes: dict[tuple[str, int], ErrorCode] = {}
        if generation_id < 0 and member_id == UNKNOWN_MEMBER_ID:
            # a "simple" commit from outside the group protocol (admin tools, assign() users)
            if group is not None and not group.is_(GroupState.EMPTY):
                return dict.fromkeys(offsets, ErrorCode.UNKNOWN_MEMBER_ID)
            if group is None:
                group = self.groups[group_id] = GroupMetadata(group_id, state_timestamp_ms=_now_ms())
        else:
            if group is None or group.state == GroupState.DEAD:
                return dict.fromkeys(
                    offsets,
                    ErrorCode.ILLEGAL_GENERATION if group is None else ErrorCode.COORDINATOR_NOT_AVAILABLE,
                )
            member = group.members.get(member_id)
            if group.is_static_member_fenced(member_id, instance_id):
                return dict.fromkeys(offsets, ErrorCode.FENCED_INSTANCE_ID)
            if member is None:
                return dict.fromkeys(offsets, ErrorCode.UNKNOWN_MEMBER_ID)
            if generation_id != group.generation_id:
                return dict.fromkeys(offsets, ErrorCode.ILLEGAL_GENERATION)
            if group.state == GroupState.COMPLETING_REBALANCE:
                # the assignment of this generation is not known yet: commits would race it
                return dict.fromkeys(offsets, ErrorCode.REBALANCE_IN_PROGRESS)
            self._schedule_heartbeat_expiry(group, member)
        records: list[tuple[bytes, bytes | None]] = []
        accepted: dict[tuple[str, int], OffsetAndMetadata] = {}
        for tp, om in offsets.items():
            if len(om.metadata.encode()) > OFFSET_METADATA_MAX_BYTES:
                codes[tp] = ErrorCode.OFFSET_METADATA_TOO_LARGE
                continue
            records.append(
                (
                    encode_offset_key(OffsetKey(group_id, tp[0], tp[1])),
                    encode_offset_value(OffsetValue(om.offset, om.leader_epoch, om.metadata, om.commit_timestamp)),
                )
            )
            accepted[tp] = om
        if records:
            try:
                self.storage.append(group_id, records)
            except KafkaError as e:
                for tp in accepted:
                    codes[tp] = e.code
                return codes
        group.offsets.update(accepted)
        # written after any open transaction's offsets of these partitions: this commit stays
        self.txn_offsets.on_plain_write(group_id, accepted, tombstone=False)
        for tp in accepted:
            codes[tp] = ErrorCode.NONE
        return codes

    def fetch_offsets(
        self, group_id: str, partitions: list[tuple[str, int]] | None
    ) -> dict[tuple[str, int], OffsetAndMetadata | None]:
        group = self.groups.get(group_id)
        if partitions is None:
            return dict(group.offsets) if group else {}
        if group is None:
            return dict.fromkeys(partitions)
        return {tp: group.offsets.get(tp) for tp in partitions}

    def delete_offsets(
        self, group_id: str, partitions: list[tuple[str, int]]
    ) -> tuple[ErrorCode, dict[tuple[str, int], ErrorCode]]:
        if (code := self.coordinator_error(group_id)) != ErrorCode.NONE:
            return code, {}
        group = self.groups.get(group_id)
        if group is None or group.state == GroupState.DEAD:
            return ErrorCode.GROUP_ID_NOT_FOUND, {}
        subscribed = group.subscribed_topics() if group.state != GroupState.EMPTY else set()
        pending = self.txn_offsets.pending_partitions(group_id)
        codes: dict[tuple[str, int], ErrorCode] = {}
        tombstones: list[tuple[bytes, bytes | None]] = []
        for tp in partitions:
            if subscribed is None or tp[0] in (subscribed or set()):
                codes[tp] = ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC
                continue
            # an open transaction's offset is deleted too (Kafka: a tombstone drops it)
            if tp in group.offsets or tp in pending:
                tombstones.append((encode_offset_key(OffsetKey(group_id, tp[0], tp[1])), None))
            codes[tp] = ErrorCode.NONE
        if tombstones:
            self.storage.append(group_id, tombstones)
        deleted = [tp for tp, code in codes.items() if code == ErrorCode.NONE]
        for tp in deleted:
            group.offsets.pop(tp, None)
        self.txn_offsets.on_plain_write(group_id, deleted, tombstone=True)
        return ErrorCode.NONE, codes

    def delete_groups(self, group_ids: list[str]) -> dict[str, ErrorCode]:
        out: dict[str, ErrorCode] = {}
        for group_id in group_ids:
            if not group_id:
                out[group_id] = ErrorCode.INVALID_GROUP_ID
                continue
            if (code := self.coordinator_error(group_id)) != ErrorCode.NONE:
                out[group_id] = code
                continue
            if group_id in self.streams_groups.groups:
                # a streams group (KIP-1071): as a consumer group
                if self.streams_groups.has_members(group_id):
                    out[group_id] = ErrorCode.NON_EMPTY_GROUP
                    continue
                self.streams_groups.delete_group(group_id)
                if group_id not in self.groups:
                    out[group_id] = ErrorCode.NONE
                    continue
            if group_id in self.consumer_groups.groups:
                # a consumer group (KIP-848): deleted when empty, its offsets below with it
                if self.consumer_groups.has_members(group_id):
                    out[group_id] = ErrorCode.NON_EMPTY_GROUP
                    continue
                self.consumer_groups.delete_group(group_id)
                if group_id not in self.groups:
                    out[group_id] = ErrorCode.NONE
                    continue
            group = self.groups.get(group_id)
            if group is None or group.state == GroupState.DEAD:
                out[group_id] = ErrorCode.GROUP_ID_NOT_FOUND
                continue
            if group.state != GroupState.EMPTY:
                out[group_id] = ErrorCode.NON_EMPTY_GROUP
                continue
            # the offsets of open transactions go with the committed ones (Kafka's deleteAllOffsets)
            partitions = set(group.offsets) | self.txn_offsets.pending_partitions(group_id)
            records: list[tuple[bytes, bytes | None]] = [
                (encode_offset_key(OffsetKey(group_id, t, p)), None) for (t, p) in sorted(partitions)
            ]
            records.append((encode_group_key(GroupKey(group_id)), None))
            self.storage.append(group_id, records)
            self.txn_offsets.on_plain_write(group_id, partitions, tombstone=True)
            group.transition_to(GroupState.DEAD, _now_ms())
            del self.groups[group_id]
            out[group_id] = ErrorCode.NONE
        return out

    def on_topics_deleted(self, topics: Iterable[str]) -> int:
        """Kafka's onPartitionsDeleted: every group this coordinator holds forgets its committed offsets
        of the deleted topics, tombstoned in __consumer_offsets first -- a topic created again under the
        same name starts with no committed offset, so no group resumes it at the old topic's position.
        Returns how many offsets were deleted."""
        deleted = set(topics)
        removed = 0
        # groups with committed offsets, and those with only an open transaction's offsets
        group_ids = set(self.groups) | self.txn_offsets.pending_groups()
        for group_id in sorted(group_ids):
            group = self.groups.get(group_id)
            committed = [tp for tp in group.offsets if tp[0] in deleted] if group is not None else []
            pending = [tp for tp in self.txn_offsets.pending_partitions(group_id) if tp[0] in deleted]
            gone = sorted(set(committed) | set(pending))
            if not gone:
                continue
            try:
                self.storage.append(group_id, [(encode_offset_key(OffsetKey(group_id, t, p)), None) for t, p in gone])
            except KafkaError as e:
                # the offsets partition is no longer led here: its next leader loads the offsets and
                # serves them until they expire (left, as a failed OffsetDelete would leave them)
                log.warning("could not delete the offsets of %s in group %s: %s", sorted(deleted), group_id, e)
                continue
            if group is not None:
                for tp in committed:
                    del group.offsets[tp]
            self.txn_offsets.on_plain_write(group_id, gone, tombstone=True)
            removed += len(gone)
        if removed:
            log.info("deleted %d committed offsets of deleted topics %s", removed, sorted(deleted))
        return removed

    def expire_offsets(self, now_ms: int | None = None) -> int:
        """Kafka's cleanupGroupMetadata, run every offsets.retention.check.interval.ms: the offsets of
        an Empty group expire offsets.retention.minutes after their commit, and an Empty group left
        with no offsets (nor an open transaction's offsets) is deleted -- also one that never had any,
        such as a group whose members left without committing. Returns how many offsets expired."""
        now = _now_ms() if now_ms is None else now_ms
        retention_ms = self.config["offsets.retention.minutes"] * 60_000
        removed = 0
        candidates = set(self.groups) | set(self.consumer_groups.groups) | set(self.streams_groups.groups)
        for group_id in sorted(candidates):
            if self.consumer_groups.has_members(group_id) or self.streams_groups.has_members(group_id):
                continue
            group = self.groups.get(group_id)
            if group is not None and (group.state != GroupState.EMPTY or group.members):
                continue
            # an offset with an open transaction's offset beside it waits for the transaction (Kafka)
            pending = self.txn_offsets.pending_partitions(group_id)
            offsets = group.offsets if group is not None else {}
            expired = [
                tp for tp, om in offsets.items() if om.commit_timestamp + retention_ms <= now and tp not in pending
            ]
            try:
                if expired:
                    self.storage.append(
                        group_id, [(encode_offset_key(OffsetKey(group_id, t, p)), None) for t, p in expired]
                    )
                    for tp in expired:
                        del offsets[tp]
                    removed += len(expired)
                if offsets or pending:
                    continue
                # the group goes with its last offset (Kafka's maybeDeleteGroup: only an empty group)
                self.streams_groups.delete_group(group_id)
                self.consumer_groups.delete_group(group_id)
                if group is not None:
                    self.storage.append(group_id, [(encode_group_key(GroupKey(group_id)), None)])
                    group.transition_to(GroupState.DEAD, now)
                    del self.groups[group_id]
            except KafkaError as e:
                # the offsets partition is no longer led here: its next leader runs this check
                log.warning("could not clean up group %s: %s", group_id, e)
        return removed
