"""What the transaction coordinator's offset commits (TxnOffsetCommit, KIP-98 / KIP-447) need of
the classic group coordinator, as one small door: the group's fencing of a commit, the decided
offsets materialized in the group, and the offsets read back without their marker. The pending
offsets themselves live in ``txn.offsets``; the group's state stays behind this door.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.offsets_topic import OffsetKey, OffsetValue, encode_offset_key, encode_offset_value
from broker_embedded.group.state import GroupMetadata, GroupState, OffsetAndMetadata
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.group.metadata_manager import GroupMetadataManager, OpenTxnOffsets

log = logging.getLogger(__name__)

TP = tuple[str, int]
# producer id -> group -> partition -> offset
PendingOffsets = dict[int, dict[str, dict[TP, OffsetAndMetadata]]]


class GroupTxnOffsets:
    def __init__(self, groups: dict[str, GroupMetadata], storage: GroupMetadataManager) -> None:
        self.groups = groups
        self.storage = storage
        # transactional offsets read back without their transaction's marker: the transaction
        # coordinator takes them over (txn.offsets)
        self.open: PendingOffsets = {}
        # the groups of member epochs (KIP-848 consumer, KIP-1071 streams coordinators): each has
        # `groups` and validate_offset_request(group, member, epoch, commit); set by the coordinator
        self.member_groups: list[Any] = []

    def add_replayed(self, open_txns: OpenTxnOffsets) -> None:
        """Offset records of transactions still open when a partition was loaded."""
        for producer_id, entries in open_txns.items():
            by_group = self.open.setdefault(producer_id, {})
            for key, ov in entries:
                if ov is not None:
                    by_group.setdefault(key.group, {})[(key.topic, key.partition)] = OffsetAndMetadata(
                        ov.offset, ov.leader_epoch, ov.metadata, ov.commit_timestamp
                    )

    def take_open(self) -> PendingOffsets:
        """Hand over (and forget here) the offsets read back for transactions still open."""
        taken, self.open = self.open, {}
        return taken

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
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = GroupMetadata(group_id, state_timestamp_ms=time.time_ns() // 1_000_000)
        group.offsets.update(offsets)
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
