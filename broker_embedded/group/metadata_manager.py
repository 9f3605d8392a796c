"""`__consumer_offsets`, the group coordinator's storage (Kafka's GroupMetadataManager).

Owns everything about the offsets topic: creating it, which of its partitions holds a group,
whether this broker may serve that group (cluster mode: it leads and has loaded the partition),
appending a group's records durably before they are acknowledged, waiting for them to be
replicated, and reading a partition back at startup or on election. The coordinator
(`group.coordinator`) keeps the groups in memory and decides what to write.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from broker_embedded.group.offsets_topic import (
    OFFSETS_TOPIC,
    GroupKey,
    GroupValue,
    MemberValue,
    OffsetKey,
    OffsetValue,
    decode_group_value,
    decode_key,
    decode_offset_value,
    encode_group_key,
    encode_group_value,
    partition_for_group,
)
from broker_embedded.group.state import GroupMetadata, GroupState
from broker_embedded.log.errors import KafkaStorageError
from broker_embedded.purgatory import DelayedOperationPurgatory
from broker_embedded.replication.coordinator_wait import wait_until_replicated
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import ControlRecordType, build_batch, decode_batch, decode_control_record, iter_batches

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ClusterImage
    from broker_embedded.partition import Partition
    from broker_embedded.topic_registry import TopicMetadata, TopicRegistry


class CoordinatorReplicas(Protocol):
    """The coordinator's view of the replica manager: the __consumer_offsets partitions hosted
    here, and the produce purgatory its replication waits park in (woken by the HW)."""

    def partition(self, topic: str, index: int) -> Partition | None: ...

    @property
    def produce_purgatory(self) -> DelayedOperationPurgatory[Any]: ...


CreateTopic = Callable[[str, int, int, dict[str, Any]], "TopicMetadata"]

# What a replay of offsets partitions found: the last value per key (None: a tombstone)
ReplayedOffsets = dict[OffsetKey, OffsetValue | None]
ReplayedGroups = dict[str, GroupValue | None]
# transactional offset commits whose transaction had no marker yet: producer id -> records with
# their log positions (a value of None: a record written after it takes precedence)
OpenTxnOffsets = dict[int, list[tuple[OffsetKey, OffsetValue | None, int]]]


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class GroupMetadataManager:
    OFFSETS_COMMIT_TIMEOUT_MS = 5000  # Kafka's offsets.commit.timeout.ms

    def __init__(
        self,
        config: Any,
        topics: TopicRegistry,
        replicas: CoordinatorReplicas,
        create_topic: CreateTopic,
        cluster_image: Callable[[], ClusterImage | None] | None = None,
    ) -> None:
        self.config = config
        self.node_id: int = config["broker.id"]
        self.topics = topics
        self.replicas = replicas
        self.create_topic = create_topic
        self.cluster_image = cluster_image
        # cluster mode: the __consumer_offsets partitions this broker leads and has loaded, with
        # the leader epoch they were loaded at (a group is served only by its partition's leader)
        self.loaded_partitions: dict[int, int] = {}

    @property
    def num_offsets_partitions(self) -> int:
        topic = self.topics.get(OFFSETS_TOPIC)
        return topic.num_partitions if topic else self.config["offsets.topic.num.partitions"]

    def ensure_offsets_topic(self) -> None:
        if self.topics.get(OFFSETS_TOPIC) is None:
            self.create_topic(
                OFFSETS_TOPIC,
                self.config["offsets.topic.num.partitions"],
                1,
                {"cleanup.policy": "compact", "segment.bytes": str(100 * 1024 * 1024)},
            )

    def partition_for(self, group_id: str) -> int:
        return partition_for_group(group_id, self.num_offsets_partitions)

    def coordinator_error(self, group_id: str | None) -> ErrorCode:
        """Cluster mode: NOT_COORDINATOR unless this broker leads (and has loaded) the group's
        __consumer_offsets partition; clients then look the coordinator up again."""
        if self.cluster_image is None or not group_id:
            return ErrorCode.NONE
        image = self.cluster_image()
        topic = image.topics.get(OFFSETS_TOPIC) if image is not None else None
        if topic is None:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        index = partition_for_group(group_id, len(topic.partitions))
        state = topic.partitions[index]
        if state.leader != self.node_id:
            return ErrorCode.NOT_COORDINATOR
        if self.loaded_partitions.get(index) != state.leader_epoch:
            return ErrorCode.COORDINATOR_LOAD_IN_PROGRESS
        return ErrorCode.NONE

    def led_partitions(self, image: Any) -> dict[int, int]:
        """The offsets partitions `image` says this broker leads, with their leader epochs."""
        topic = image.topics.get(OFFSETS_TOPIC)
        if topic is None:
            return {}
        return {p.partition: p.leader_epoch for p in topic.partitions if p.leader == self.node_id}

    def replication_wait(self, group_id: str) -> asyncio.Future[ErrorCode] | None:
        """Cluster mode: a future that resolves when the group's offsets partition's high watermark
        covers everything appended so far (Kafka's coordinator commits offsets with acks=-1), or None
        when nothing needs waiting for. Resolves to NONE, NOT_COORDINATOR if leadership moved, or
        COORDINATOR_NOT_AVAILABLE after offsets.commit.timeout.ms."""
        if self.cluster_image is None:
            return None
        p = self.replicas.partition(OFFSETS_TOPIC, self.partition_for(group_id))
        if p is None:
            return None
        return wait_until_replicated(p, self.replicas.produce_purgatory, self.OFFSETS_COMMIT_TIMEOUT_MS)

    def append(self, group_id: str, records: list[tuple[bytes, bytes | None]]) -> None:
        """Write records for one group to its __consumer_offsets partition (durable before acking)."""
        self.ensure_offsets_topic()
        p = self.replicas.partition(OFFSETS_TOPIC, self.partition_for(group_id))
        if p is None:
            raise KafkaError("offsets topic partition missing", ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if (code := self.coordinator_error(group_id)) != ErrorCode.NONE:
            raise KafkaError(f"this broker is not the coordinator of group {group_id}", code)
        now = _now_ms()
        batch = bytearray(build_batch([(now, k, v, []) for k, v in records]))
        try:
            # replicated like any partition: the leader's high watermark follows its ISR (a
            # single node's ISR is itself, so there the HW is the LEO)
            p.append_as_coordinator(batch)
        except KafkaStorageError as e:
            # Kafka's GroupMetadataManager answers a storage error of the offsets log with
            # NOT_COORDINATOR: the client looks the coordinator up again and retries
            raise KafkaError(str(e), ErrorCode.NOT_COORDINATOR) from None

    def store_group(self, group: GroupMetadata) -> None:
        """The group's metadata record (members, generation, assignment); a tombstone when Dead."""
        if group.state == GroupState.DEAD:
            self.append(group.group_id, [(encode_group_key(GroupKey(group.group_id)), None)])
            return
        value = GroupValue(
            protocol_type=group.protocol_type or "",
            generation=group.generation_id,
            protocol=group.protocol_name,
            leader=group.leader_id,
            current_state_timestamp=group.state_timestamp_ms,
            members=[
                MemberValue(
                    m.member_id,
                    m.group_instance_id,
                    m.client_id,
                    m.client_host,
                    m.rebalance_timeout_ms,
                    m.session_timeout_ms,
                    m.metadata_for(group.protocol_name) if group.protocol_name else b"",
                    m.assignment,
                )
                for m in group.members.values()
            ],
        )
        self.append(group.group_id, [(encode_group_key(GroupKey(group.group_id)), encode_group_value(value))])

    def replay(
        self,
        partitions: list[int] | None = None,
        other: Callable[[bytes, bytes | None], object] | None = None,
    ) -> tuple[ReplayedOffsets, ReplayedGroups, OpenTxnOffsets] | None:
        """Read __consumer_offsets back: the last record per key wins (None: a tombstone).

        Transactional offset commits count at their transaction's COMMIT marker (an ABORT drops
        them); those still without a marker come back apart, for the transaction coordinator to
        decide when it finishes the transaction.

        `partitions` None means every partition, at a single node's startup; in cluster mode
        that is nothing (None returned), partitions are read when this broker is elected.
        `other` is handed every other record in log order (the KIP-848 consumer group records).
        """
        topic = self.topics.get(OFFSETS_TOPIC)
        if topic is None:
            return None
        if partitions is None and self.config["controller.quorum.bootstrap.servers"]:
            return None
        groups: ReplayedGroups = {}
        offsets: ReplayedOffsets = {}
        # the log offset of the record each entry of `offsets` came from: a transactional commit
        # only replaces an offset committed before it (Kafka's completePendingTxnOffsetCommit)
        written_at: dict[OffsetKey, int] = {}
        # the log offset of the last plain tombstone of each key: it drops open transactions'
        # offsets written before it (Kafka's replay of an offset tombstone)
        tombstoned_at: dict[OffsetKey, int] = {}
        # the raw value a COMMIT marker materialized per key: the coordinator appends it again as
        # a plain record right after the marker (`GroupTxnOffsets.materialize`); that copy keeps
        # the transactional record's position, or it would wrongly outrank a later open record
        copy_expected: dict[OffsetKey, bytes | None] = {}
        open_txns: OpenTxnOffsets = {}
        for index in range(topic.num_partitions) if partitions is None else partitions:
            p = self.replicas.partition(OFFSETS_TOPIC, index)
            if p is None:
                continue
            # TxnOffsetCommit records per producer id, waiting for their transaction's marker
            pending: dict[int, list[tuple[OffsetKey, OffsetValue | None, int, bytes | None]]] = {}
            position = p.log.log_start_offset
            end = p.log.log_end_offset
            while position < end:
                data = p.log.read(position, 1 << 20, max_offset=end, min_one_batch=True)
                if not data.records:
                    break
                last = position
                buf = bytes(data.records)
                for pos, h in iter_batches(buf):
                    last = max(last, h.last_offset)
                    records = [r for r in decode_batch(buf, pos, verify_crc=False)[1] if r.offset >= position]
                    if h.is_control:
                        if records:
                            ctype, _epoch = decode_control_record(records[0])
                            done = pending.pop(h.producer_id, [])
                            if ctype == ControlRecordType.COMMIT:
                                for key, value, at, raw in done:
                                    if written_at.get(key, -1) < at:
                                        offsets[key], written_at[key] = value, at
                                        copy_expected[key] = raw
                        continue
                    for rec in records:
                        if rec.key is None:
                            continue
                        decoded = decode_key(rec.key)
                        if isinstance(decoded, OffsetKey):
                            value = decode_offset_value(rec.value) if rec.value is not None else None
                            if h.is_transactional:
                                # counts only once its COMMIT marker is read; an ABORT drops it
                                entry = (decoded, value, rec.offset, rec.value)
                                pending.setdefault(h.producer_id, []).append(entry)
                            elif copy_expected.pop(decoded, None) == rec.value and value is not None:
                                offsets[decoded] = value  # the materialized copy: same value and position
                            else:
                                offsets[decoded], written_at[decoded] = value, rec.offset
                                if value is None:
                                    tombstoned_at[decoded] = rec.offset
                        elif isinstance(decoded, GroupKey) and not h.is_transactional:
                            groups[decoded.group] = decode_group_value(rec.value) if rec.value is not None else None
                        elif decoded is None and other is not None and not h.is_transactional:
                            other(rec.key, rec.value)
                position = max(position + 1, last + 1)
            for producer_id, entries in pending.items():
                # still undecided: a later tombstone dropped an entry, a later plain commit
                # supersedes it (None: its partition stays unstable, the marker keeps the commit)
                open_txns.setdefault(producer_id, []).extend(
                    (key, None if written_at.get(key, -1) > at else value, at)
                    for key, value, at, _raw in entries
                    if tombstoned_at.get(key, -1) < at
                )
        return offsets, groups, open_txns
