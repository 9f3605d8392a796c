"""SharePartitionManager: the share-partitions of the partitions this broker leads (KIP-932).

One ``SharePartition`` per (share group, topic, partition), created on the first ShareFetch for it
with its start offset from ``share.auto.offset.reset``. A fetch reads the log from the
share-partition's next fetch offset, acquires what it may for the member (the core decides:
in-flight limit, delivery counts, aborted transactions under read_committed) and returns only the
record batches that hold acquired offsets. Acknowledgements go to the core unchanged.

Parked share fetches (``DelayedShareFetch``) watch the partition's fetch key (a produce wakes
them) and ``share_key`` (an acknowledgement, release or lock expiry that made records available).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.records import iter_batches

from .partition import (
    DEFAULT_DELIVERY_COUNT_LIMIT,
    DEFAULT_MAX_IN_FLIGHT_RECORDS,
    DEFAULT_RECORD_LOCK_DURATION_MS,
    AcknowledgementBatch,
    AcquiredRecords,
    AutoOffsetReset,
    PartitionConfig,
    SharePartition,
    SharePartitionError,
    parse_auto_offset_reset,
)
from .persister import SharePersister
from .remote_persister import RemotePersister, StatePending
from .state import ShareGroupStateKey, ShareSnapshotValue

if TYPE_CHECKING:
    from broker_embedded.partition import Partition
    from broker_embedded.purgatory.timing_wheel import Timer

ShareKey = tuple[str, str, int]  # (group id, topic, partition)


def share_key(topic: str, partition: int) -> Hashable:
    """Purgatory key of the share fetches parked on a partition."""
    return ("share", topic, partition)


@dataclass(frozen=True, slots=True)
class Batch:
    start: int  # byte position in the read data
    end: int
    base_offset: int
    last_offset: int
    producer_id: int
    transactional: bool
    control: bool


def batches(data: bytes | memoryview) -> list[Batch]:
    """The whole record batches of a log read (a trailing partial batch is left out)."""
    return [
        Batch(
            pos,
            pos + h.batch_length + 12,
            h.base_offset,
            h.last_offset,
            h.producer_id,
            h.is_transactional,
            h.is_control,
        )
        for pos, h in iter_batches(data, allow_partial_tail=True)
    ]


def aborted_ranges(read: list[Batch], aborted: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Offsets of aborted transactional data in `read`: (producer id, first offset) of the log's
    aborted transactions as the consumer applies them (until that producer's control batch)."""
    first_by_pid: dict[int, list[int]] = {}
    for pid, first in sorted(aborted, key=lambda a: a[1]):
        first_by_pid.setdefault(pid, []).append(first)
    active: set[int] = set()
    out: list[tuple[int, int]] = []
    for b in read:
        starts = first_by_pid.get(b.producer_id)
        if starts and starts[0] <= b.base_offset:
            starts.pop(0)
            active.add(b.producer_id)
        if b.control:
            if b.producer_id in active:
                out.append((b.base_offset, b.last_offset))  # the abort marker itself
                active.discard(b.producer_id)
            continue
        if b.transactional and b.producer_id in active:
            out.append((b.base_offset, b.last_offset))
    return out


@dataclass(slots=True)
class PartitionFetch:
    """One partition's share of a ShareFetch answer."""

    error: ErrorCode = ErrorCode.NONE
    error_message: str | None = None
    records: bytes = b""
    acquired: list[AcquiredRecords] = field(default_factory=list)
    leader: tuple[int, int] = (-1, -1)


@dataclass(frozen=True, slots=True)
class ShareSettings:
    """One share group's settings (Kafka's group configs ``share.*``; defaults as Kafka's)."""

    record_lock_duration_ms: int = DEFAULT_RECORD_LOCK_DURATION_MS
    delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT
    max_in_flight_records: int = DEFAULT_MAX_IN_FLIGHT_RECORDS
    auto_offset_reset: str = "latest"
    isolation_level: str = "read_uncommitted"
    renew_acknowledge_enable: bool = True


@dataclass(frozen=True, slots=True)
class OffsetSummary:
    """One share-partition's offsets as DescribeShareGroupOffsets reports them (the persisted view
    when state is persisted, else the live share-partition)."""

    start_offset: int
    leader_epoch: int
    delivery_complete_count: int  # -1: unknown


# group id -> its settings (the group configs over the broker defaults)
SettingsLookup = Callable[[str], ShareSettings]


class SharePartitionManager:
    def __init__(
        self,
        timer: Timer,
        partition_of: Callable[[str, int], Partition | None],
        settings: SettingsLookup,
        wake: Callable[[Hashable], Any],
        node_id: int,
        persister: SharePersister | RemotePersister | None = None,
    ) -> None:
        self.timer = timer
        self.partition_of = partition_of
        self.settings = settings
        self.wake = wake
        self.node_id = node_id
        # None: share-partition state lives in memory only
        self.persister = persister
        self._state_keys: dict[ShareKey, ShareGroupStateKey] = {}
        # without a persister: start offsets set by AlterShareGroupOffsets for share-partitions
        # not created yet (the next fetch starts there), keyed by (group, topic id, partition)
        self._reset_starts: dict[tuple[str, bytes, int], int] = {}
        self.share_partitions: dict[ShareKey, SharePartition] = {}
        self._lock = threading.Lock()
        # a member's records were released (its session ended): the group's owner may drop them after
        self.on_released: Callable[[str], None] | None = None

    def read_committed(self, group_id: str) -> bool:
        return self.settings(group_id).isolation_level == "read_committed"

    def _get_or_create(self, group_id: str, topic: str, index: int, partition: Partition) -> SharePartition:
        key = (group_id, topic, index)
        remote = isinstance(self.persister, RemotePersister)
        with self._lock:
            sp = self.share_partitions.get(key)
            if sp is not None and remote and self._stale(key, sp, partition):
                # a newer leader epoch here, or the coordinator fenced our writes: read it again
                self.share_partitions.pop(key, None)
                sp.close()
                sp = None
            if sp is not None:
                return sp
            settings = self.settings(group_id)
            reset, duration_ms = parse_auto_offset_reset(settings.auto_offset_reset)
            read_committed = settings.isolation_level == "read_committed"

            def offset_for_timestamp(ts: int) -> int:
                found = partition.offset_for_timestamp(ts, read_committed)
                return found[0] if found is not None else partition.high_watermark

            start = SharePartition.initial_start_offset(
                reset,
                partition.log_start_offset,
                partition.last_stable_offset if read_committed else partition.high_watermark,
                duration_ms=duration_ms,
                now_ms=int(time.time() * 1000) if reset is AutoOffsetReset.BY_DURATION else None,
                offset_for_timestamp=offset_for_timestamp,
            )
            # the group's settings now (apply_settings follows later changes)
            config: PartitionConfig = {
                "record_lock_duration_ms": settings.record_lock_duration_ms,
                "delivery_count_limit": settings.delivery_count_limit,
                "max_in_flight_records": settings.max_in_flight_records,
                "renew_acknowledge_enable": settings.renew_acknowledge_enable,
            }
            state_key = ShareGroupStateKey(group_id, str(uuid.UUID(bytes=bytes(partition.topic_id))), index)
            # RemotePersister: StatePending while the coordinator is asked (nothing is created yet)
            state = self.persister.read(state_key, partition.leader_epoch) if self.persister is not None else None
            reset_start = self._reset_starts.pop((group_id, bytes(partition.topic_id), index), None)
            if reset_start is not None and reset_start >= 0:
                start = reset_start
            if state is not None and state.start_offset >= 0:
                sp = SharePartition.from_state(self.timer, state, **config)
                if remote:
                    sp.leader_epoch = max(sp.leader_epoch, partition.leader_epoch)
            else:
                sp = SharePartition(self.timer, start, leader_epoch=partition.leader_epoch, **config)
                if self.persister is not None:
                    now = int(time.time() * 1000)
                    self.persister.initialize(state_key, sp.snapshot(now, now))

            def on_available() -> None:
                self._persist(key, sp)
                self.wake(share_key(topic, index))

            sp.on_available = on_available
            self._state_keys[key] = state_key
            self.share_partitions[key] = sp
            return sp

    def _stale(self, key: ShareKey, sp: SharePartition, partition: Partition) -> bool:
        assert isinstance(self.persister, RemotePersister)
        state_key = self._state_keys.get(key)
        return sp.leader_epoch < partition.leader_epoch or (
            state_key is not None and state_key in self.persister.fenced
        )

    def _persist(self, key: ShareKey, sp: SharePartition) -> None:
        """Write what the share-partition changed (Kafka answers after WriteShareGroupState)."""
        updates = sp.drain_updates()
        if updates and self.persister is not None:
            self.persister.write(self._state_keys[key], updates)

    def _leader(self, topic: str, index: int) -> tuple[Partition | None, PartitionFetch | None]:
        partition = self.partition_of(topic, index)
        if partition is None:
            return None, PartitionFetch(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        if not partition.is_leader:
            leader = (partition.leader_id, partition.leader_epoch)
            return None, PartitionFetch(ErrorCode.NOT_LEADER_OR_FOLLOWER, leader=leader)
        return partition, None

    # ---- fetch --------------------------------------------------------------------------------

    def fetch(
        self, group_id: str, member_id: str, topic: str, index: int, max_records: int, max_bytes: int
    ) -> PartitionFetch:
        """Acquire records of one partition for a member (nothing acquired: empty records)."""
        partition, refused = self._leader(topic, index)
        if partition is None:
            assert refused is not None
            return refused
        out = PartitionFetch(leader=(self.node_id, partition.leader_epoch))
        try:
            sp = self._get_or_create(group_id, topic, index, partition)
            if partition.log_start_offset > sp.start_offset:
                sp.update_log_start_offset(partition.log_start_offset)
                self._persist((group_id, topic, index), sp)
            if max_records < 1 or not sp.can_acquire_records():
                return out
            read_committed = self.read_committed(group_id)
            offset = sp.next_fetch_offset()
            if offset >= partition.high_watermark:
                return out  # nothing to acquire yet (also a start offset altered past the log end)
            data = partition.read(offset, max(max_bytes, 1), min_one_batch=True, read_committed=read_committed)
            if not data.records:
                return out
            read = [b for b in batches(data.records) if b.last_offset >= offset]
            if not read:
                return out
            aborted: list[tuple[int, int]] = []
            if read_committed:
                txns = partition.log.collect_aborted_transactions(read[0].base_offset, data.last_stable_offset)
                aborted = aborted_ranges(read, [(a.producer_id, a.first_offset) for a in txns])
            out.acquired = sp.acquire(member_id, offset, read[-1].last_offset, max_records, aborted)
            self._persist((group_id, topic, index), sp)
        except StatePending:
            return out  # the share coordinator is being read: nothing acquired yet
        except SharePartitionError as e:
            return PartitionFetch(ErrorCode(e.code), str(e), leader=out.leader)
        except KafkaError as e:
            return PartitionFetch(e.code, str(e), leader=out.leader)
        if out.acquired:
            view = memoryview(data.records)
            chunks = [
                bytes(view[b.start : b.end])
                for b in read
                if any(a.first_offset <= b.last_offset and b.base_offset <= a.last_offset for a in out.acquired)
            ]
            out.records = b"".join(chunks)
        return out

    # ---- acknowledge --------------------------------------------------------------------------

    def acknowledge(
        self, group_id: str, member_id: str, topic: str, index: int, batches_: Sequence[AcknowledgementBatch]
    ) -> tuple[ErrorCode, str | None]:
        partition, refused = self._leader(topic, index)
        if partition is None:
            assert refused is not None
            return refused.error, None
        with self._lock:
            sp = self.share_partitions.get((group_id, topic, index))
        if sp is None:
            # nothing was ever acquired here for this group
            return ErrorCode.INVALID_RECORD_STATE, "The record state is invalid: nothing acquired."
        try:
            sp.acknowledge(member_id, batches_)
        except SharePartitionError as e:
            return ErrorCode(e.code), str(e)
        self._persist((group_id, topic, index), sp)
        self.wake(share_key(topic, index))
        return ErrorCode.NONE, None

    def release_member(self, group_id: str, member_id: str, only: Sequence[tuple[str, int]] | None = None) -> None:
        """The member left, or its share session ended: its acquired records go back."""
        with self._lock:
            owned = [(k, sp) for k, sp in self.share_partitions.items() if k[0] == group_id]
        wanted = set(only) if only is not None else None
        for (_, topic, index), sp in owned:
            if wanted is not None and (topic, index) not in wanted:
                continue
            if sp.release_acquired_records(member_id):
                self._persist((group_id, topic, index), sp)
                self.wake(share_key(topic, index))
        if self.on_released is not None:
            self.on_released(group_id)

    def apply_settings(self, group_id: str) -> None:
        """The group's configs changed: its live share-partitions take the new lock duration (for
        later acquisitions), delivery count limit and in-flight limit (Kafka applies them live)."""
        settings = self.settings(group_id)
        with self._lock:
            live = [sp for k, sp in self.share_partitions.items() if k[0] == group_id]
        for sp in live:
            sp.record_lock_duration_ms = settings.record_lock_duration_ms
            sp.delivery_count_limit = settings.delivery_count_limit
            sp.max_in_flight_records = settings.max_in_flight_records
            sp.renew_acknowledge_enable = settings.renew_acknowledge_enable

    def get(self, group_id: str, topic: str, index: int) -> SharePartition | None:
        with self._lock:
            return self.share_partitions.get((group_id, topic, index))

    # ---- admin (DescribeShareGroupOffsets, AlterShareGroupOffsets, DeleteShareGroupOffsets) -----

    def summaries(self, group_id: str) -> dict[tuple[bytes, int], OffsetSummary]:
        """(topic id, partition) -> offsets of each share-partition of the group with state."""
        out: dict[tuple[bytes, int], OffsetSummary] = {}
        if isinstance(self.persister, SharePersister):
            for key in self.persister.keys(group_id):
                state = self.persister.read(key)
                if state is not None:
                    tid = uuid.UUID(key.topic_id).bytes
                    out[(tid, key.partition)] = OffsetSummary(
                        state.start_offset, max(state.leader_epoch, 0), state.delivery_complete_count
                    )
            return out
        with self._lock:
            live = [(k, sp) for k, sp in self.share_partitions.items() if k[0] == group_id]
            pending = [(k, start) for k, start in self._reset_starts.items() if k[0] == group_id]
        for (_, tid, index), start in pending:
            out[(tid, index)] = OffsetSummary(start, 0, 0)
        for live_key, sp in live:
            tid = uuid.UUID(self._state_keys[live_key].topic_id).bytes
            out[(tid, live_key[2])] = OffsetSummary(sp.start_offset, sp.leader_epoch, sp.delivery_complete_count)
        return out

    def _drop(self, group_id: str, topic: str, index: int) -> None:
        with self._lock:
            sp = self.share_partitions.pop((group_id, topic, index), None)
            state_key = self._state_keys.pop((group_id, topic, index), None)
        if sp is not None:
            sp.close()
        if state_key is not None and isinstance(self.persister, RemotePersister):
            self.persister.forget(state_key)

    def drop_group(self, group_id: str) -> None:
        """The group has no share session here any more (Kafka's onGroupEmpty): its share-partitions
        leave the cache, after their last changes were queued, and a later fetch reads the state
        again from the share coordinator (deleted or altered meanwhile by the group's admin)."""
        with self._lock:
            keys = [k for k in self.share_partitions if k[0] == group_id]
        for k in keys:
            sp = self.get(*k)
            if sp is not None:
                self._persist(k, sp)
            self._drop(*k)

    def reset_start_offset(self, group_id: str, topic: str, topic_id: bytes, index: int, start: int) -> None:
        """AlterShareGroupOffsets (the group is empty): the share-partition starts over at `start`,
        nothing in flight, with a new state epoch (Kafka re-initializes its state)."""
        self._drop(group_id, topic, index)
        if not isinstance(self.persister, SharePersister):
            with self._lock:
                self._reset_starts[(group_id, topic_id, index)] = start
            if self.persister is not None:
                # the coordinator's state starts over there too (with a newer state epoch)
                self.persister.reset(ShareGroupStateKey(group_id, str(uuid.UUID(bytes=topic_id)), index), start)
            return
        key = ShareGroupStateKey(group_id, str(uuid.UUID(bytes=topic_id)), index)
        old = self.persister.read(key)
        now = int(time.time() * 1000)
        snapshot = ShareSnapshotValue(
            snapshot_epoch=0 if old is None else old.snapshot_epoch + 1,
            state_epoch=0 if old is None else old.state_epoch + 1,
            leader_epoch=0 if old is None else max(old.leader_epoch, 0),
            start_offset=start,
            create_timestamp=now,
            write_timestamp=now,
            state_batches=(),
            delivery_complete_count=0,
        )
        self.persister.initialize(key, snapshot)

    def delete_state(self, group_id: str, topic: str | None, topic_id: bytes | None) -> None:
        """DeleteShareGroupOffsets of one topic (None: every topic, DeleteGroups): the state is gone
        and the next fetch starts from share.auto.offset.reset again."""
        with self._lock:
            dropped = [k for k in self.share_partitions if k[0] == group_id and (topic is None or k[1] == topic)]
            resets = [r for r in self._reset_starts if r[0] == group_id and (topic_id is None or r[1] == topic_id)]
            for reset_key in resets:
                del self._reset_starts[reset_key]
        for k in dropped:
            self._drop(*k)
        if self.persister is not None:
            wanted = None if topic_id is None else str(uuid.UUID(bytes=topic_id))
            for key in self.persister.keys(group_id):
                if wanted is None or key.topic_id == wanted:
                    self.persister.delete(key)
