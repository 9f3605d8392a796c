"""Transactional offset commits (TxnOffsetCommit, KIP-98 / KIP-447).

The offsets are written to the group's ``__consumer_offsets`` partition as a transactional batch
of the producer (durable, and covered by the transaction's marker) and kept pending by the group
coordinator (``group.txn_offsets``) with their records' positions, invisible to OffsetFetch, until
the marker arrives: COMMIT materializes those no later record has replaced (and appends them again
as plain offset records so the group's log replay sees only decided offsets), ABORT drops them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from broker_embedded.group.offsets_topic import (
    OFFSETS_TOPIC,
    OffsetKey,
    OffsetValue,
    encode_offset_key,
    encode_offset_value,
)
from broker_embedded.group.state import OFFSET_METADATA_MAX_BYTES, OffsetAndMetadata
from broker_embedded.group.txn_offsets import PendingOffset
from broker_embedded.log.errors import KafkaStorageError
from broker_embedded.txn.state import TransactionState
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import NO_SEQUENCE, RecordLike, build_batch

if TYPE_CHECKING:
    from broker_embedded.txn.coordinator import TransactionCoordinator
    from broker_embedded.txn.host import TxnHost

TP = tuple[str, int]


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class PendingTxnOffsets:
    """TxnOffsetCommit's checks and its transactional batch; the offsets then wait in the group
    coordinator for the transaction's marker."""

    def __init__(self, broker: TxnHost) -> None:
        self.broker = broker

    def pending_partitions(self, group_id: str) -> set[TP]:
        """The group's partitions with offsets of an undecided transaction (KIP-447's unstable
        offsets), on every broker that has taken the group over."""
        return self.broker.group_coordinator.txn_offsets.pending_partitions(group_id)

    def commit(
        self,
        coordinator: TransactionCoordinator,
        transactional_id: str,
        group_id: str,
        producer_id: int,
        producer_epoch: int,
        generation_id: int,
        member_id: str,
        group_instance_id: str | None,
        offsets: dict[TP, OffsetAndMetadata],
    ) -> dict[TP, ErrorCode]:
        gc = self.broker.group_coordinator
        if not group_id:
            return dict.fromkeys(offsets, ErrorCode.INVALID_GROUP_ID)
        if (code := gc.coordinator_error(group_id)) != ErrorCode.NONE:
            return dict.fromkeys(offsets, code)
        code = self._check_transaction(coordinator, transactional_id, group_id, producer_id, producer_epoch)
        if code != ErrorCode.NONE:
            return dict.fromkeys(offsets, code)
        code = gc.txn_offsets.commit_error(group_id, generation_id, member_id, group_instance_id, offsets)
        if code != ErrorCode.NONE:
            return dict.fromkeys(offsets, code)
        p = self.broker.partition(OFFSETS_TOPIC, gc.partition_for(group_id))
        if p is None:
            return dict.fromkeys(offsets, ErrorCode.COORDINATOR_NOT_AVAILABLE)
        entry = p.log.producer_state.last_entry(producer_id)
        if entry is not None and entry.producer_epoch > producer_epoch:
            return dict.fromkeys(offsets, ErrorCode.PRODUCER_FENCED)
        codes: dict[TP, ErrorCode] = {}
        accepted: dict[TP, OffsetAndMetadata] = {}
        # each record's position in the log (the batch's first offset + its index), which decides
        # between this and another transaction's or a plain record of the same partition
        positions: dict[TP, PendingOffset] = {}
        records: list[RecordLike] = []
        now = _now_ms()
        for tp, om in offsets.items():
            if len(om.metadata.encode()) > OFFSET_METADATA_MAX_BYTES:
                codes[tp] = ErrorCode.OFFSET_METADATA_TOO_LARGE
                continue
            records.append(
                (
                    now,
                    encode_offset_key(OffsetKey(group_id, tp[0], tp[1])),
                    encode_offset_value(OffsetValue(om.offset, om.leader_epoch, om.metadata, om.commit_timestamp)),
                    [],
                )
            )
            accepted[tp] = om
        if records:
            batch = bytearray(
                build_batch(
                    records,
                    producer_id=producer_id,
                    producer_epoch=producer_epoch,
                    base_sequence=NO_SEQUENCE,
                    is_transactional=True,
                )
            )
            try:
                info = p.append_as_coordinator(batch)
            except KafkaStorageError:
                # as OffsetCommit: a storage error of the offsets log sends the client to look
                # the coordinator up again
                return dict.fromkeys(offsets, ErrorCode.NOT_COORDINATOR)
            except KafkaError as e:
                return dict.fromkeys(offsets, e.code)
            for index, (tp, om) in enumerate(accepted.items()):
                positions[tp] = PendingOffset(om, info.first_offset + index)
        gc.txn_offsets.add_pending(producer_id, group_id, positions)
        codes.update(dict.fromkeys(accepted, ErrorCode.NONE))
        return codes

    def _check_transaction(
        self,
        coordinator: TransactionCoordinator,
        transactional_id: str,
        group_id: str,
        producer_id: int,
        producer_epoch: int,
    ) -> ErrorCode:
        """When this broker also coordinates the transaction, the commit must belong to its open
        transaction and that transaction must hold the group's offsets partition."""
        if coordinator.coordinator_error(transactional_id) != ErrorCode.NONE:
            return ErrorCode.NONE  # another broker's transaction: the producer state fences
        meta = coordinator.txns.get(transactional_id)
        if meta is None or meta.producer_id != producer_id:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING
        if meta.producer_epoch != producer_epoch:
            return ErrorCode.PRODUCER_FENCED
        tp = (OFFSETS_TOPIC, self.broker.group_coordinator.partition_for(group_id))
        if meta.state is not TransactionState.ONGOING or tp not in meta.partitions:
            return ErrorCode.INVALID_TXN_STATE
        return ErrorCode.NONE

    def on_marker(self, partition: int, producer_id: int, commit: bool) -> None:
        """A marker reached __consumer_offsets-`partition`: the group coordinator decides this
        producer's offsets there."""
        self.broker.group_coordinator.txn_offsets.on_marker(partition, producer_id, commit)
