"""What the transaction coordinator's offset commits (TxnOffsetCommit, KIP-98 / KIP-447) need of
the classic group coordinator, as one small door: the group's fencing of a commit, the offsets of
undecided transactions, and their decision by the transaction's marker.

The pending offsets are the groups' state (as in Kafka's OffsetMetadataManager): a transaction's
commit materializes an offset only if its record is later than the committed offset's record, so a
plain offset record written after it, or another transaction's later record committed first, takes
precedence; an offset tombstone (OffsetDelete, DeleteGroups, a deleted topic) drops them.
``txn.offsets`` validates and writes the transactional batch, then hands the offsets here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from broker_embedded.group.offsets_topic import OffsetKey, OffsetValue, encode_offset_key, encode_offset_value
from broker_embedded.group.state import GroupMetadata, GroupState, OffsetAndMetadata
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.group.metadata_manager import GroupMetadataManager, OpenTxnOffsets

log = logging.getLogger(__name__)

TP = tuple[str, int]


class PendingOffset(NamedTuple):
    """An offset of an undecided transaction and the position of its record in the group's
    __consumer_offsets partition (Kafka's recordOffset: the later record wins at the marker)."""

    offset: OffsetAndMetadata | None  # None: superseded by a later record (the partition stays
    # unstable until the marker, which then leaves the later offset in place)
    record_offset: int


# producer id -> group -> partition -> offset
PendingOffsets = dict[int, dict[str, dict[TP, PendingOffset]]]


class GroupTxnOffsets:
    def __init__(self, groups: dict[str, GroupMetadata], storage: GroupMetadataManager) -> None:
        self.groups = groups
        self.storage = storage
        self.pending: PendingOffsets = {}
        # the groups of member epochs (KIP-848 consumer, KIP-1071 streams coordinators): each has
        # `groups` and validate_offset_request(group, member, epoch, commit); set by the coordinator
        self.member_groups: list[Any] = []

    def add_replayed(self, open_txns: OpenTxnOffsets) -> None:
        """Offset records of transactions still open when a partition was loaded, with their
        positions (a value of None: superseded by a later record)."""
        for producer_id, entries in open_txns.items():
            by_group = self.pending.setdefault(producer_id, {})
            for key, ov, record_offset in entries:
                self._simple_group(key.group)
                om = None
                if ov is not None:
                    om = OffsetAndMetadata(ov.offset, ov.leader_epoch, ov.metadata, ov.commit_timestamp)
                by_group.setdefault(key.group, {})[(key.topic, key.partition)] = PendingOffset(om, record_offset)

    def add_pending(self, producer_id: int, group_id: str, offsets: dict[TP, PendingOffset]) -> None:
        """Offsets of `producer_id`'s open transaction, written to the group's offsets partition."""
        self._simple_group(group_id)
        self.pending.setdefault(producer_id, {}).setdefault(group_id, {}).update(offsets)

    def _simple_group(self, group_id: str) -> GroupMetadata:
        """The group that holds the offsets, created Empty (a "simple" group) when absent: Kafka
        creates it for a transactional offset commit as for a plain one, live and when replaying
        the record, so it can be described, listed, have its offsets deleted, or be deleted."""
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = GroupMetadata(group_id, state_timestamp_ms=time.time_ns() // 1_000_000)
        return group

    def pending_partitions(self, group_id: str) -> set[TP]:
        """The group's partitions with offsets of an undecided transaction: an OffsetFetch that
        requires stable offsets (KIP-447) answers UNSTABLE_OFFSET_COMMIT for them until the
        marker decides them."""
        return {tp for groups in self.pending.values() for tp in groups.get(group_id, ())}

    def pending_groups(self) -> set[str]:
        """The groups with offsets of an undecided transaction."""
        return {g for groups in self.pending.values() for g in groups}

    def on_plain_write(self, group_id: str, partitions: Iterable[TP], tombstone: bool) -> None:
        """Plain offset records of `partitions` were written after every pending offset of the
        group: a commit wins over them at the marker (Kafka keeps the offset of the later record),
        a tombstone removes them (Kafka's replay of an offset tombstone)."""
        parts = set(partitions)
        for producer_id in list(self.pending):
            groups = self.pending[producer_id]
            offsets = groups.get(group_id)
            if not offsets:
                continue
            for tp in parts & offsets.keys():
                if tombstone:
                    del offsets[tp]
                else:
                    offsets[tp] = offsets[tp]._replace(offset=None)
            if not offsets:
                del groups[group_id]
            if not groups:
                del self.pending[producer_id]

    def unload(self, partition: int) -> None:
        """__consumer_offsets-`partition` is no longer led here: its next leader reads the pending
        offsets of its groups back from the log."""
        for producer_id in list(self.pending):
            groups = self.pending[producer_id]
            for group_id in [g for g in groups if self.storage.partition_for(g) == partition]:
                del groups[group_id]
            if not groups:
                del self.pending[producer_id]

    def on_marker(self, partition: int, producer_id: int, commit: bool) -> None:
        """A marker reached __consumer_offsets-`partition`: decide this producer's offsets there."""
        groups = self.pending.get(producer_id)
        if not groups:
            return
        for group_id in [g for g in groups if self.storage.partition_for(g) == partition]:
            offsets = groups.pop(group_id)
            decided = {tp: p.offset for tp, p in offsets.items() if p.offset is not None}
            if commit and decided:
                self.materialize(group_id, decided)
                self._supersede_earlier(group_id, {tp: offsets[tp].record_offset for tp in decided})
        if not groups:
            del self.pending[producer_id]

    def _supersede_earlier(self, group_id: str, committed_at: dict[TP, int]) -> None:
        """A transaction's offsets were committed from records at `committed_at`: other open
        transactions' offsets of those partitions written before them will not be materialized
        (Kafka's marker replay skips a record older than the committed offset's); later ones will."""
        for groups in self.pending.values():
            offsets = groups.get(group_id)
            if not offsets:
                continue
            for tp, at in committed_at.items():
                pending = offsets.get(tp)
                if pending is not None and pending.record_offset < at:
                    offsets[tp] = pending._replace(offset=None)

    def commit_error(
        self,
        group_id: str,
        generation_id: int,
        member_id: str,
        group_instance_id: str | None,
        partitions: Iterable[TP] = (),
    ) -> ErrorCode:
        """KIP-447: a member's transactional commit is fenced by the group's generation, as
        OffsetCommit is; a member of a consumer or streams group by its member epoch (Kafka's
        validateOffsetCommit with isTransactional: ILLEGAL_GENERATION, not STALE_MEMBER_EPOCH; a
        commit without member information is allowed). An older epoch of a consumer-group member is
        taken if it has held all `partitions` since (KIP-1251, as OffsetCommit)."""
        for coordinator in self.member_groups:
            if group_id in coordinator.groups:
                if not member_id and generation_id < 0:
                    return ErrorCode.NONE
                code = coordinator.validate_offset_request(group_id, member_id, generation_id, True)
                judge = getattr(coordinator, "commit_partition_errors", None)
                if code in (ErrorCode.STALE_MEMBER_EPOCH, ErrorCode.ILLEGAL_GENERATION) and judge is not None:
                    judged = judge(group_id, member_id, generation_id, list(partitions))
                    if judged and all(c == ErrorCode.NONE for c in judged.values()):
                        return ErrorCode.NONE
                return ErrorCode.ILLEGAL_GENERATION if code == ErrorCode.STALE_MEMBER_EPOCH else code
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.ILLEGAL_GENERATION if member_id or generation_id >= 0 else ErrorCode.NONE
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if group_instance_id is not None and group.is_static_member_fenced(member_id, group_instance_id):
            return ErrorCode.FENCED_INSTANCE_ID
        if member_id and member_id not in group.members:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if generation_id >= 0 and generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        return ErrorCode.NONE

    def materialize(self, group_id: str, offsets: dict[TP, OffsetAndMetadata]) -> None:
        """A COMMIT marker decided `offsets`: serve them from the group and append them again as
        plain offset records, so the group's log replay sees only decided offsets."""
        self._simple_group(group_id).offsets.update(offsets)
        try:
            self.storage.append(
                group_id,
                [
                    (
                        encode_offset_key(OffsetKey(group_id, t, i)),
                        encode_offset_value(OffsetValue(om.offset, om.leader_epoch, om.metadata, om.commit_timestamp)),
                    )
                    for (t, i), om in offsets.items()
                ],
            )
        except KafkaError as e:
            # the offsets are decided and served; only their plain copy is missing
            log.warning("materializing transactional offsets of group %s failed: %s", group_id, e)
