"""``__share_group_state`` does not grow without bound (Kafka 4.3.1's share coordinator): each state
partition's log start offset moves up to the smallest latest-snapshot offset of its keys every
``share.coordinator.state.topic.prune.interval.ms``, and a key idle for
``share.coordinator.cold.partition.snapshot.interval.ms`` gets a new snapshot so it does not hold
the prune point back. On real logs (small segments) and a fake clock."""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.log import Log
from broker_embedded.log.config import LogConfig
from broker_embedded.partition import Partition
from broker_embedded.share.persister import SHARE_STATE_TOPIC, SharePersister, partition_for
from broker_embedded.share.state import (
    PersisterStateBatch,
    RecordState,
    ShareGroupStateKey,
    ShareSnapshotValue,
    ShareUpdateValue,
)
from tests.unit.test_replication_partition import FakeReplicaManager

NUM_PARTITIONS = 2
MINUTE = 60_000


class _Topics:
    def get(self, name: str) -> Any:
        return object() if name == SHARE_STATE_TOPIC else None


def _persister(tmp_path: Path, now: list[int]) -> tuple[SharePersister, dict[int, Partition]]:
    host = FakeReplicaManager(0, BrokerConfig({"broker.id": 0}))
    partitions: dict[int, Partition] = {}

    def partition_of(topic: str, index: int) -> Partition:
        assert topic == SHARE_STATE_TOPIC
        if index not in partitions:
            log = Log(tmp_path / f"{SHARE_STATE_TOPIC}-{index}", LogConfig(segment_bytes=2048))
            partitions[index] = Partition(SHARE_STATE_TOPIC, index, b"\x02" * 16, log, host)  # type: ignore[arg-type]
        return partitions[index]

    persister = SharePersister(
        _Topics(),  # type: ignore[arg-type]
        partition_of,
        lambda *_: None,  # type: ignore[arg-type,return-value]
        num_partitions=NUM_PARTITIONS,
        snapshot_every=10,
        prune_interval_ms=5 * MINUTE,
        cold_snapshot_interval_ms=5 * MINUTE,
        clock_ms=lambda: now[0],
    )
    return persister, partitions


def _keys_of(index: int, n: int) -> list[ShareGroupStateKey]:
    """`n` keys whose state lives in state partition `index`."""
    out: list[ShareGroupStateKey] = []
    while len(out) < n:
        key = ShareGroupStateKey(f"g{uuid.uuid4().hex[:6]}", str(uuid.uuid4()), 0)
        if partition_for(key, NUM_PARTITIONS) == index:
            out.append(key)
    return out


def _snapshot(now: int) -> ShareSnapshotValue:
    return ShareSnapshotValue(0, 0, 0, 0, now, now, (), 0)


def _accept(offset: int) -> ShareUpdateValue:
    return ShareUpdateValue(0, 0, offset + 1, (PersisterStateBatch(offset, offset, RecordState.ACKNOWLEDGED, 1),), 0)


def test_the_state_topic_stays_bounded_while_an_idle_key_is_snapshotted_again(tmp_path: Path) -> None:
    now = [1_000_000]
    persister, partitions = _persister(tmp_path, now)
    busy, idle = _keys_of(0, 2)
    persister.initialize(idle, _snapshot(now[0]))  # then never written again
    persister.initialize(busy, _snapshot(now[0]))
    p = partitions[0]
    retained: list[int] = []
    for i in range(3000):  # one acknowledgement a second for 50 minutes
        now[0] += 1000
        persister.write(busy, [_accept(i)])
        retained.append(p.log.log_end_offset - p.log.log_start_offset)
    # 3000 updates and 300 snapshots written, but the log keeps only what came after the oldest
    # latest snapshot: at most two prune intervals of writes (plus the cold snapshots)
    assert p.log.log_end_offset > 3300
    assert max(retained[-1000:]) <= 2 * 300 + 20, max(retained[-1000:])
    assert p.log.log_start_offset > 2500
    assert p.log.size < 150_000  # segments wholly below the log start offset are deleted
    # the idle key was snapshotted again (cold) and both keys still read back after a reload
    idle_state = persister.read(idle)
    assert idle_state is not None and idle_state.snapshot_epoch >= 1 and idle_state.write_timestamp > 1_000_000
    state_before = persister.read(busy)
    persister.unload_partition(0)
    assert persister.read(busy) is None
    persister.load_partition(0)
    assert persister.read(busy) == state_before and persister.read(idle) is not None


def test_pruning_follows_kafkas_redundant_offset(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Below the smallest latest-snapshot offset of the partition's keys; a deleted key holds
    nothing back; nothing is pruned before the interval, nor in a partition without snapshots;
    a quiet partition (every key already re-snapshotted) gets no more cold snapshots."""
    now = [1_000_000]
    persister, partitions = _persister(tmp_path, now)
    a, b = _keys_of(1, 2)
    persister.initialize(a, _snapshot(now[0]))  # offset 0
    persister.initialize(b, _snapshot(now[0]))  # offset 1
    for i in range(10):  # a's 10th update brings its second snapshot (offset 12)
        persister.write(a, [_accept(i)])
    p = partitions[1]
    assert persister.redundant_offset(1) == 1  # b's only snapshot
    assert persister.prune(1) == 1 and p.log.log_start_offset == 1
    # a's updates 2-11 lost their base snapshot (0): a reload skips them quietly, a's later snapshot
    # (12) holds their state
    state_a = persister.read(a)
    with caplog.at_level(logging.WARNING, logger="broker_embedded.share.persister"):
        persister.unload_partition(1)
        assert persister.load_partition(1) == 2  # b's snapshot and a's
    assert not caplog.records and persister.read(a) == state_a and persister.redundant_offset(1) == 1
    persister.delete(b)  # a tombstone at 13: b no longer holds the prune point
    assert persister.redundant_offset(1) == 12
    assert persister.prune(1) == 12
    assert persister.redundant_offset(0) is None and persister.prune(0) is None
    # the interval: writes before it never prune, the first write after it does
    persister.write(a, [_accept(10)])
    now[0] += 5 * MINUTE - 1
    persister.write(a, [_accept(11)])
    assert p.log.log_start_offset == 12
    # cold snapshots: a's latest snapshot is now older than the interval; the write after the
    # interval snapshots it again (offset 17) and the prune moves there
    now[0] += 1
    persister.write(a, [_accept(12)])
    assert persister.read(a).snapshot_epoch == 2  # type: ignore[union-attr]
    assert p.log.log_start_offset == persister.redundant_offset(1) == 17
    now[0] += 5 * MINUTE
    assert persister.snapshot_cold_keys(1) == 0  # quiet: every key already re-snapshotted
