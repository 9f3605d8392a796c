"""Share-partition state kept in ``__share_group_state`` on a single broker (Kafka's share
coordinator and default persister, without the RPCs 83-86 between brokers).

``initialize`` writes the first ShareSnapshot of a share-partition, ``write`` its ShareUpdates
(after acknowledgements, releases, lock timeouts, log-start moves); every
``share.coordinator.snapshot.update.records.per.snapshot`` updates a new snapshot replaces them, as
Kafka's coordinator does. Records go through ``Partition.append_as_coordinator``. ``load`` replays
the topic into the ``ShareStateStore`` at start, so a restarted broker rebuilds each share-partition
with ``SharePartition.from_state``: acknowledged records stay done, released ones keep their
delivery counts; acquisitions that were never acknowledged come back AVAILABLE (as on Kafka).

The topic does not grow without bound, as in Kafka 4.3.1 (its ShareCoordinatorService /
ShareCoordinatorOffsetsManager): each state partition tracks the offset of every key's latest
snapshot (a tombstone's once, then the key is forgotten); everything below the smallest of them is
redundant. Every ``share.coordinator.state.topic.prune.interval.ms`` the partition's log start
offset is moved there (DeleteRecords on the coordinator's own partition, bounded by the high
watermark), and every ``share.coordinator.cold.partition.snapshot.interval.ms`` a key whose latest
snapshot is that old gets a new one (unless every key of the partition already had such a snapshot:
the partition is quiet), so an idle key does not hold the prune point back. Kafka runs both on
timers; here they run when a write to the partition finds them due (only writes grow a partition),
on the injected clock.
"""

from __future__ import annotations

import base64
import dataclasses
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kafka_wire.errors import CorruptRecordError, KafkaError
from kafka_wire.records import build_batch, decode_batch, iter_batches

from .records import SNAPSHOT, UPDATE, decode_key, decode_value, encode_key, encode_value
from .state import ShareGroupState, ShareGroupStateKey, ShareSnapshotValue, ShareStateStore, ShareUpdateValue

if TYPE_CHECKING:
    from broker_embedded.partition import Partition
    from broker_embedded.topic_registry import TopicMetadata, TopicRegistry

log = logging.getLogger(__name__)

SHARE_STATE_TOPIC = "__share_group_state"
DEFAULT_NUM_PARTITIONS = 50  # share.coordinator.state.topic.num.partitions
DEFAULT_SNAPSHOT_EVERY = 500  # share.coordinator.snapshot.update.records.per.snapshot
DEFAULT_PRUNE_INTERVAL_MS = 5 * 60 * 1000  # share.coordinator.state.topic.prune.interval.ms
DEFAULT_COLD_SNAPSHOT_INTERVAL_MS = 5 * 60 * 1000  # share.coordinator.cold.partition.snapshot.interval.ms


def _wall_clock_ms() -> int:
    return int(time.time() * 1000)


def java_string_hash(s: str) -> int:
    """Java's String.hashCode (over UTF-16 code units)."""
    units = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h


def partition_for(key: ShareGroupStateKey, num_partitions: int) -> int:
    """Kafka's SharePartitionKey coordinator key "group:topicId:partition" (base64 topic id)."""
    tid = base64.urlsafe_b64encode(uuid.UUID(key.topic_id).bytes).decode().rstrip("=")
    h = java_string_hash(f"{key.group_id}:{tid}:{key.partition}")
    return (h & 0x7FFFFFFF) % num_partitions


def parse_coordinator_key(text: str) -> ShareGroupStateKey | None:
    """FindCoordinator key type 2, "groupId:topicId:partition" (base64 topic id); None if malformed."""
    parts = text.rsplit(":", 2)
    if len(parts) != 3 or not parts[0]:
        return None
    try:
        raw = base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4))
        partition = int(parts[2])
    except ValueError:
        return None
    if len(raw) != 16 or partition < 0:
        return None
    return ShareGroupStateKey(parts[0], str(uuid.UUID(bytes=raw)), partition)


class SharePersister:
    def __init__(
        self,
        topics: TopicRegistry,
        partition_of: Callable[[str, int], Partition | None],
        create_topic: Callable[[str, int, int, dict[str, Any]], TopicMetadata],
        num_partitions: int = DEFAULT_NUM_PARTITIONS,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        prune_interval_ms: int = DEFAULT_PRUNE_INTERVAL_MS,
        cold_snapshot_interval_ms: int = DEFAULT_COLD_SNAPSHOT_INTERVAL_MS,
        clock_ms: Callable[[], int] = _wall_clock_ms,
    ) -> None:
        self.topics = topics
        self.partition_of = partition_of
        self.create_topic = create_topic
        self.num_partitions = num_partitions
        self.snapshot_every = max(1, snapshot_every)
        self.prune_interval_ms = prune_interval_ms
        self.cold_snapshot_interval_ms = cold_snapshot_interval_ms
        self.clock_ms = clock_ms
        self.store = ShareStateStore()
        self._updates: dict[ShareGroupStateKey, int] = {}
        # state partition -> key -> offset of its latest snapshot (Kafka's ShareCoordinatorOffsetsManager)
        self._snapshot_offsets: dict[int, dict[ShareGroupStateKey, int]] = {}
        # state partition -> the offset below which every record is redundant
        self._redundant: dict[int, int] = {}
        # state partition -> when its prune / cold snapshot last ran (its first write starts the clock)
        self._pruned_at: dict[int, int] = {}
        self._cold_at: dict[int, int] = {}
        self._lock = threading.RLock()

    # ---- start ----------------------------------------------------------------------------------

    def load(self) -> int:
        """Replay ``__share_group_state`` (a single broker's start); the number of records read."""
        meta = self.topics.get(SHARE_STATE_TOPIC)
        if meta is None:
            return 0
        return sum(self.load_partition(index) for index in range(meta.num_partitions))

    def unload_partition(self, index: int) -> None:
        """Cluster mode: this broker no longer leads the state partition; forget its keys."""
        with self._lock:
            for key in [k for k in self.store.keys() if partition_for(k, self.num_partitions) == index]:
                self.store.replay(key, None)
                self._updates.pop(key, None)
            for tracked in (self._snapshot_offsets, self._redundant, self._pruned_at, self._cold_at):
                tracked.pop(index, None)

    def load_partition(self, index: int) -> int:
        """Replay one partition of ``__share_group_state`` into the store; the number of records read."""
        count = 0
        with self._lock:
            p = self.partition_of(SHARE_STATE_TOPIC, index)
            if p is None:
                return 0
            position, end = p.log.log_start_offset, p.log.log_end_offset
            while position < end:
                data = p.log.read(position, 1 << 20, max_offset=end, min_one_batch=True)
                if not data.records:
                    break
                buf = bytes(data.records)
                last = position
                for pos, h in iter_batches(buf):
                    last = max(last, h.last_offset)
                    if h.is_control:
                        continue
                    for rec in decode_batch(buf, pos, verify_crc=False)[1]:
                        if rec.offset < position or rec.key is None:
                            continue
                        try:
                            kind, key = decode_key(rec.key)
                            value = decode_value(kind, rec.value) if rec.value is not None else None
                            if kind == UPDATE and self.store.read(key) is None:
                                # its snapshot was pruned: a later snapshot of the key (kept, as every
                                # key's latest is) holds this update's state already
                                continue
                            self.store.replay(key, value)
                            if kind == SNAPSHOT:
                                self._snapshot_written(index, key, rec.offset, value is None)
                            count += 1
                        except (CorruptRecordError, ValueError) as e:
                            log.warning(
                                "share state record at %s-%d@%d skipped: %s", SHARE_STATE_TOPIC, index, rec.offset, e
                            )
                position = max(position + 1, last + 1)
        return count

    # ---- reads and writes ----------------------------------------------------------------------

    def read(self, key: ShareGroupStateKey, leader_epoch: int = -1) -> ShareGroupState | None:
        """The stored state (the leader epoch matters to ``RemotePersister`` only)."""
        with self._lock:
            state = self.store.read(key)
            return dataclasses.replace(state) if state is not None else None

    def initialize(self, key: ShareGroupStateKey, snapshot: ShareSnapshotValue) -> None:
        with self._lock:
            self._append(key, SNAPSHOT, snapshot)
            self.store.replay(key, snapshot)
            self._updates[key] = 0
            self._maintain(partition_for(key, self.num_partitions))

    def write(self, key: ShareGroupStateKey, updates: list[ShareUpdateValue]) -> None:
        with self._lock:
            state = self.store.read(key)
            if state is None:
                return  # not initialized here (cannot happen on a single broker)
            for update in updates:
                # the coordinator owns the snapshot epoch: the leader's copy may lag a re-snapshot
                update = dataclasses.replace(update, snapshot_epoch=state.snapshot_epoch)
                self._append(key, UPDATE, update)
                self.store.replay(key, update)
                self._updates[key] = self._updates.get(key, 0) + 1
            if self._updates.get(key, 0) >= self.snapshot_every:
                # a write's snapshot is a fresh one (created now); only a cold key's re-written
                # snapshot keeps its creation time (snapshot_cold_keys tells them apart by that)
                now = self.clock_ms()
                snapshot = dataclasses.replace(self.store.snapshot(key, now), create_timestamp=now)
                self._append(key, SNAPSHOT, snapshot)
                self.store.replay(key, snapshot)
                self._updates[key] = 0
            self._maintain(partition_for(key, self.num_partitions))

    def delete(self, key: ShareGroupStateKey) -> None:
        """DeleteShareGroupState: a tombstone for the key (offsets deleted, group deleted)."""
        with self._lock:
            if self.store.read(key) is None:
                return
            self._append(key, SNAPSHOT, None)
            self.store.replay(key, None)
            self._updates.pop(key, None)
            self._maintain(partition_for(key, self.num_partitions))

    def keys(self, group_id: str) -> list[ShareGroupStateKey]:
        with self._lock:
            return [k for k in self.store.keys() if k.group_id == group_id]

    # ---- pruning (Kafka's ShareCoordinatorOffsetsManager, performRecordPruning, snapshotColdPartitions) ----

    def _snapshot_written(self, index: int, key: ShareGroupStateKey, offset: int, tombstone: bool) -> None:
        """A snapshot (or a tombstone) of `key` is at `offset`: every record of the partition below the
        smallest latest-snapshot offset of its keys is redundant. A deleted key holds nothing back."""
        offsets = self._snapshot_offsets.setdefault(index, {})
        offsets[key] = offset
        self._redundant[index] = min(offsets.values())
        if tombstone:
            del offsets[key]

    def redundant_offset(self, index: int) -> int | None:
        """Offset of state partition `index` below which every record is redundant (None: none yet)."""
        with self._lock:
            offset = self._redundant.get(index)
            return offset if offset is not None and offset > 0 else None

    def _maintain(self, index: int) -> None:
        now = self.clock_ms()
        if now - self._cold_at.setdefault(index, now) >= self.cold_snapshot_interval_ms:
            self._cold_at[index] = now
            self.snapshot_cold_keys(index)
        if now - self._pruned_at.setdefault(index, now) >= self.prune_interval_ms:
            self._pruned_at[index] = now
            self.prune(index)

    def snapshot_cold_keys(self, index: int) -> int:
        """A new snapshot of each key of partition `index` whose latest snapshot is at least
        ``cold_snapshot_interval_ms`` old, unless every key's latest snapshot already is such a
        re-written one (a quiet partition: nothing to gain); the number written."""
        with self._lock:
            now = self.clock_ms()
            keys = [k for k in self.store.keys() if partition_for(k, self.num_partitions) == index]
            states = {k: self.store.read(k) for k in keys}
            if all(s is None or s.create_timestamp != s.write_timestamp for s in states.values()):
                return 0
            written = 0
            for key, state in states.items():
                if state is None or now - state.write_timestamp < self.cold_snapshot_interval_ms:
                    continue
                snapshot = self.store.snapshot(key, now)
                self._append(key, SNAPSHOT, snapshot)
                self.store.replay(key, snapshot)
                self._updates[key] = 0
                written += 1
            return written

    def prune(self, index: int) -> int | None:
        """Move the log start offset of state partition `index` up to its redundant offset (bounded
        by the high watermark; the leader only); the new log start offset, None if it did not move."""
        with self._lock:
            redundant = self.redundant_offset(index)
            p = self.partition_of(SHARE_STATE_TOPIC, index)
            if redundant is None or p is None or not p.is_leader:
                return None
            target = min(redundant, p.high_watermark)
            if target <= p.log_start_offset:
                return None
            try:
                return p.delete_records_before(target)
            except KafkaError as e:  # e.g. leadership just moved: the next prune tries again
                log.debug("%s-%d not pruned: %s", SHARE_STATE_TOPIC, index, e)
                return None

    def _append(self, key: ShareGroupStateKey, kind: int, value: ShareSnapshotValue | ShareUpdateValue | None) -> None:
        if self.topics.get(SHARE_STATE_TOPIC) is None:
            # delete policy as Kafka's (compaction would keep only the last update of a key); the
            # share coordinator prunes what is redundant itself (prune above)
            configs = {"cleanup.policy": "delete", "retention.ms": "-1", "retention.bytes": "-1"}
            self.create_topic(SHARE_STATE_TOPIC, self.num_partitions, 1, configs)
        index = partition_for(key, self.num_partitions)
        p = self.partition_of(SHARE_STATE_TOPIC, index)
        if p is None:
            raise RuntimeError(f"{SHARE_STATE_TOPIC}-{index} is not hosted here")
        now = self.clock_ms()
        encoded = encode_value(value) if value is not None else None
        batch = bytearray(build_batch([(now, encode_key(kind, key), encoded, [])]))
        info = p.append_as_coordinator(batch)
        if kind == SNAPSHOT and info is not None:  # (None: a test's stand-in partition)
            self._snapshot_written(index, key, info.last_offset, value is None)
