"""Partition roles without a network: leader HW from the (maximal) ISR, follower tracking
(lastCaughtUpTime), ISR shrink/expand candidates, min.insync.replicas, DelayedProduce completion,
and the follower's truncation rules (KIP-101/279, HW fallback, OFFSET_OUT_OF_RANGE reset)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.log import Log
from broker_embedded.partition import Partition
from broker_embedded.purgatory import DelayedOperationPurgatory
from broker_embedded.replication.delayed_produce import DelayedProduce, ProducePartitionStatus
from broker_embedded.replication.fetcher import PartitionFetchState, ReplicaFetcher
from broker_embedded.replication.state import PartitionState
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import list_offsets_response as lors
from kafka_wire.protocol.messages import produce_response as prs
from kafka_wire.records import build_batch

TID = b"\x01" * 16


class FakeReplicaManager:
    """The partition's host (`partition.PartitionHost`): purgatories, mode, ISR change requests."""

    def __init__(self, node_id: int, config: BrokerConfig) -> None:
        self.produce_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Produce")
        self.fetch_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Fetch")
        self.isr_requests: list[tuple[int, ...]] = []
        self.node_id = node_id
        self.config = config
        self.cluster_mode = False
        self.remote_log_manager = None

    def request_isr_change(self, p: Partition, new_isr: tuple[int, ...]) -> None:
        self.isr_requests.append(new_isr)
        p.pending_isr = new_isr


class FakeBroker:
    def __init__(self, node_id: int = 0, **configs: Any) -> None:
        self.node_id = node_id
        self.config = BrokerConfig({"broker.id": node_id, **configs})
        self.replica_manager = FakeReplicaManager(node_id, self.config)
        self.partitions: dict[tuple[str, int], Partition] = {}

    def partition(self, topic: str, index: int) -> Partition | None:
        return self.partitions.get((topic, index))


def _partition(tmp_path: Path, node_id: int = 0, name: str = "t-0") -> tuple[Partition, FakeBroker]:
    broker = FakeBroker(node_id)
    log = Log(tmp_path / name)
    p = Partition("t", 0, TID, log, broker.replica_manager)
    broker.partitions[("t", 0)] = p
    return p, broker


def _state(leader: int, epoch: int, isr: tuple[int, ...], pe: int = 0, replicas: tuple[int, ...] = (0, 1, 2)) -> Any:
    return PartitionState("t", 0, TID, leader, epoch, isr, replicas, pe)


def _records(n: int) -> memoryview:
    return memoryview(bytearray(build_batch([(int(time.time() * 1000), None, b"v", []) for _ in range(n)])))


def test_single_node_defaults(tmp_path: Path) -> None:
    p, _ = _partition(tmp_path)
    assert p.is_leader and p.isr == (0,) and p.replicas == (0,) and not p.replicated
    r = p.append_records_as_leader(_records(3), required_acks=-1)
    assert (r.base_offset, r.last_offset) == (0, 2)
    assert p.high_watermark == 3  # the ISR is this broker alone
    assert p.check_enough_replicas_reach_offset(3, 0) == ErrorCode.NONE


def test_leader_high_watermark_is_min_leo_of_maximal_isr(tmp_path: Path) -> None:
    p, broker = _partition(tmp_path)
    now = 1_000_000
    assert p.make_leader(_state(0, 1, (0, 1, 2)), now)
    assert p.log.leader_epoch_cache.entries == [(1, 0)]
    p.append_records_as_leader(_records(5))
    assert p.high_watermark == 0  # followers' LEOs unknown
    p.update_follower_fetch_state(1, 5, 0, 5, now)
    assert p.high_watermark == 0
    p.update_follower_fetch_state(2, 3, 0, 5, now)
    assert p.high_watermark == 3
    p.update_follower_fetch_state(2, 5, 0, 5, now)
    assert p.high_watermark == 5
    # a pending shrink still waits for the leaving member; a pending expansion for the joiner
    p.append_records_as_leader(_records(2))
    p.pending_isr = (0, 1)
    p.update_follower_fetch_state(1, 7, 0, 7, now)
    assert p.high_watermark == 5
    p.apply_isr_state(_state(0, 1, (0, 1), pe=1))
    assert p.high_watermark == 7
    # never back: a new leadership keeps the HW
    p.make_leader(_state(0, 2, (0, 1, 2), pe=2), now)
    assert p.high_watermark == 7 and p.remote_replicas[1].log_end_offset == -1
    assert p.leader_epoch_start_offset == 7 and p.log.leader_epoch_cache.entries == [(1, 0), (2, 7)]
    assert broker.replica_manager.isr_requests == []  # expansion needs a joiner outside the ISR


def test_last_caught_up_time_rule(tmp_path: Path) -> None:
    p, _ = _partition(tmp_path)
    t0 = 1_000_000
    p.make_leader(_state(0, 0, (0, 1, 2)), t0)
    p.append_records_as_leader(_records(10))
    lag = 1000
    # follower 1 fetches at the leader's LEO: caught up now; follower 2 keeps fetching behind
    p.update_follower_fetch_state(1, 10, 0, 10, t0 + 100)
    p.update_follower_fetch_state(2, 4, 0, 10, t0 + 100)
    p.update_follower_fetch_state(2, 8, 0, 10, t0 + 900)  # behind the LEO at its previous fetch
    assert p.out_of_sync_replicas(t0 + 1000, lag) == []  # ISR members start caught up (reset at t0)
    assert p.out_of_sync_replicas(t0 + 1001, lag) == [2]
    # an idle partition: a caught-up follower is never out of sync, however old its catch-up
    assert 1 not in p.out_of_sync_replicas(t0 + 10_000, lag)
    # reaching the LEO the leader had at its previous fetch counts as caught up at that fetch
    p.append_records_as_leader(_records(2))
    p.update_follower_fetch_state(2, 10, 0, 12, t0 + 1050)
    assert p.remote_replicas[2].last_caught_up_time_ms == t0 + 900
    assert 2 not in p.out_of_sync_replicas(t0 + 1500, lag)
    assert 2 in p.out_of_sync_replicas(t0 + 1901, lag)
    # ...and follower 1, caught up at t0 + 100 but behind the new LEO, is out after the lag
    assert p.out_of_sync_replicas(t0 + 1101, lag) == [1]


def test_isr_expansion_needs_high_watermark_and_epoch_start(tmp_path: Path) -> None:
    p, broker = _partition(tmp_path)
    now = 1_000_000
    p.append_records_as_leader(_records(4))  # epoch 0 data, before the replicated state
    p.make_leader(_state(0, 1, (0, 1)), now)
    p.update_follower_fetch_state(1, 4, 0, 4, now)
    assert p.high_watermark == 4
    p.append_records_as_leader(_records(2))
    p.update_follower_fetch_state(1, 6, 0, 6, now)
    assert p.high_watermark == 6
    p.update_follower_fetch_state(2, 5, 0, 6, now)  # below the HW: not yet
    assert broker.replica_manager.isr_requests == []
    p.update_follower_fetch_state(2, 6, 0, 6, now)
    assert broker.replica_manager.isr_requests == [(0, 1, 2)]
    assert p.maximal_isr == (0, 1, 2) and p.isr == (0, 1)


def test_min_insync_and_not_leader(tmp_path: Path) -> None:
    p, _ = _partition(tmp_path)
    p.min_insync_replicas = 2
    p.make_leader(_state(0, 0, (0,)), 0)
    with pytest.raises(KafkaError) as e:
        p.append_records_as_leader(_records(1), required_acks=-1)
    assert e.value.code == ErrorCode.NOT_ENOUGH_REPLICAS
    assert p.log.log_end_offset == 0
    p.append_records_as_leader(_records(1), required_acks=1)
    assert p.check_enough_replicas_reach_offset(1, 0) == ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND
    assert p.check_enough_replicas_reach_offset(1, 5) == ErrorCode.NOT_LEADER_OR_FOLLOWER
    p.make_follower(_state(1, 1, (0, 1)))
    assert not p.is_leader
    with pytest.raises(KafkaError) as e:
        p.append_records_as_leader(_records(1), required_acks=1)
    assert e.value.code == ErrorCode.NOT_LEADER_OR_FOLLOWER
    assert p.check_enough_replicas_reach_offset(1, 0) == ErrorCode.NOT_LEADER_OR_FOLLOWER


def test_delayed_produce_completes_when_high_watermark_passes(tmp_path: Path) -> None:
    p, broker = _partition(tmp_path)
    p.make_leader(_state(0, 0, (0, 1)), 0)
    r = p.append_records_as_leader(_records(3), required_acks=-1)
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        response = prs.PartitionProduceResponse(index=0, base_offset=r.base_offset)
        status = ProducePartitionStatus("t", 0, r.last_offset + 1, 0, response)
        op = DelayedProduce(broker, 30_000, [status], lambda: "answered", future)  # type: ignore[arg-type]
        purgatory = broker.replica_manager.produce_purgatory
        assert not purgatory.try_complete_else_watch(op, [p.produce_key])
        p.update_follower_fetch_state(1, 2, 0, 3, 0)
        assert not op.is_completed
        p.update_follower_fetch_state(1, 3, 0, 3, 0)  # HW 3: the fetch completed the produce
        assert op.is_completed and response.error_code == ErrorCode.NONE
        loop.run_until_complete(asyncio.sleep(0))
        assert future.result() == "answered"
    finally:
        loop.close()


# --- follower truncation ----------------------------------------------------------------


def _follower(tmp_path: Path, epochs: list[tuple[int, int]], hw: int) -> tuple[ReplicaFetcher, PartitionFetchState]:
    """A follower whose log holds `count` records written in each (epoch, count)."""
    p, broker = _partition(tmp_path, node_id=1)
    for epoch, count in epochs:
        for _ in range(count):  # one record per batch: truncation cuts whole batches
            p.log.append_as_leader(bytearray(build_batch([(1, None, b"x", [])])), epoch)
    p.make_follower(_state(0, 9, (0, 1)))
    p.log.update_high_watermark(hw)
    fetcher = ReplicaFetcher(broker.replica_manager, 0)  # type: ignore[arg-type]
    return fetcher, PartitionFetchState(p, 9, p.log.log_end_offset)


def test_truncation_by_leader_epoch(tmp_path: Path) -> None:
    # follower: epoch 1 at [0, 3), epoch 2 at [3, 6); the leader says epoch 2 ended at 4
    f, s = _follower(tmp_path, [(1, 3), (2, 3)], hw=2)
    f._truncate_by_epoch(s, 2, 4)
    assert (s.partition.log.log_end_offset, s.truncating, s.fetch_offset) == (4, False, 4)
    # the leader's end offset beyond ours truncates nothing
    f._truncate_by_epoch(s, 2, 10)
    assert s.partition.log.log_end_offset == 4 and f.truncations == 1


def test_truncation_when_follower_lacks_the_leaders_epoch(tmp_path: Path) -> None:
    # follower epochs 1 and 3; the leader answers epoch 2 (which we never saw): cut to the end of
    # our epoch below it (1 ends at 3, where 3 starts) and ask again (not completed)
    f, s = _follower(tmp_path, [(1, 3), (3, 3)], hw=1)
    f._truncate_by_epoch(s, 2, 5)
    assert (s.partition.log.log_end_offset, s.truncating) == (3, True)
    assert s.partition.log.latest_epoch == 1
    f._truncate_by_epoch(s, 1, 3)
    assert (s.partition.log.log_end_offset, s.truncating) == (3, False)


def test_truncation_falls_back_to_high_watermark(tmp_path: Path) -> None:
    # the leader knows no epoch <= ours (UNDEFINED): KIP-101 falls back to the high watermark
    f, s = _follower(tmp_path, [(4, 5)], hw=2)
    f._truncate_by_epoch(s, -1, -1)
    assert (s.partition.log.log_end_offset, s.truncating, s.fetch_offset) == (2, False, 2)
    # the leader answers an end offset without an epoch (old format): truncate to it
    f2, s2 = _follower(tmp_path / "b", [(4, 5)], hw=0)
    f2._truncate_by_epoch(s2, -1, 3)
    assert s2.partition.log.log_end_offset == 3


class FakeConn:
    def __init__(self, offsets: dict[int, int]) -> None:
        self.offsets = offsets
        self.asked: list[int] = []

    def best_version(self, api_key: int) -> int:
        return 7

    async def request(self, api_key: int, body: Any, version: int, timeout_s: float) -> Any:
        ts = body.topics[0].partitions[0].timestamp
        self.asked.append(ts)
        part = lors.ListOffsetsPartitionResponse(partition_index=0, error_code=0, offset=self.offsets[ts])
        return lors.ListOffsetsResponse(topics=[lors.ListOffsetsTopicResponse(name="t", partitions=[part])])


def test_offset_out_of_range_reset(tmp_path: Path) -> None:
    # an unclean leader shorter than us: truncate to its LEO
    f, s = _follower(tmp_path, [(1, 6)], hw=2)
    f.states[("t", 0)] = s
    asyncio.run(f._handle_out_of_range(FakeConn({-1: 4, -4: 0}), ("t", 0), s))  # type: ignore[arg-type]
    assert (s.partition.log.log_end_offset, s.fetch_offset, s.truncating) == (4, 4, False)
    # we are below the leader's log start: restart empty there
    f2, s2 = _follower(tmp_path / "b", [(1, 2)], hw=2)
    f2.states[("t", 0)] = s2
    conn = FakeConn({-1: 50, -4: 20})
    asyncio.run(f2._handle_out_of_range(conn, ("t", 0), s2))  # type: ignore[arg-type]
    log = s2.partition.log
    assert (log.log_start_offset, log.log_end_offset, s2.fetch_offset) == (20, 20, 20)
    assert conn.asked == [-1, -4]


def test_fenced_stops_and_other_errors_back_off(tmp_path: Path) -> None:
    f, s = _follower(tmp_path, [(1, 1)], hw=1)
    f._on_error(("t", 0), s, ErrorCode.UNKNOWN_LEADER_EPOCH, "test")
    assert not s.failed and s.delayed_until > time.monotonic()
    f._on_error(("t", 0), s, ErrorCode.FENCED_LEADER_EPOCH, "test")
    assert s.failed and not s.ready(time.monotonic() + 100)


def test_replica_fetch_wait_must_not_exceed_lag_time(tmp_path: Path) -> None:
    from broker_embedded import EmbeddedBroker
    from broker_embedded.config import ConfigError

    with pytest.raises(ConfigError, match="replica.fetch.wait.max.ms=5000 must be at most replica.lag.time.max.ms"):
        EmbeddedBroker(log_dir=tmp_path, **{"replica.fetch.wait.max.ms": 5000, "replica.lag.time.max.ms": 1000}).start()


def test_empty_epoch_of_a_former_leader_is_dropped_on_truncation(tmp_path: Path) -> None:
    # leader at epoch 5 that wrote nothing (5 starts at its LEO), then follower of epoch 6 whose
    # leader never saw 5: the leader answers (4, LEO); nothing to cut, but epoch 5 must go, or the
    # last fetched epoch (5) would diverge from the leader on every fetch
    f, s = _follower(tmp_path, [(4, 3)], hw=3)
    p = s.partition
    p.make_leader(_state(1, 5, (1, 0)), 0)
    assert p.log.leader_epoch_cache.entries == [(4, 0), (5, 3)]
    p.make_follower(_state(0, 6, (0, 1)))
    f._truncate_by_epoch(s, 4, 3)
    assert p.log.leader_epoch_cache.entries == [(4, 0)] and p.log.latest_epoch == 4
    assert (p.log.log_end_offset, s.truncating, f.truncations) == (3, False, 0)


def test_append_as_coordinator_is_the_one_door_for_coordinator_writes(tmp_path: Path) -> None:
    """Issue 28: group/txn coordinators append through Partition.append_as_coordinator: the
    leader's epoch stamped, the log's errors unchanged for each caller to map, the HW step after."""
    from broker_embedded.log.errors import InvalidProducerEpochError
    from kafka_wire.records import NO_SEQUENCE, build_control_batch

    p, _ = _partition(tmp_path)
    info = p.append_as_coordinator(bytearray(build_batch([(1, b"k", b"v", [])])))
    assert (info.first_offset, p.high_watermark) == (0, 1)  # a single node's ISR is itself
    txn = build_batch(
        [(1, b"k", b"v", [])], producer_id=7, producer_epoch=3, base_sequence=NO_SEQUENCE, is_transactional=True
    )
    p.append_as_coordinator(bytearray(txn))
    p.append_as_coordinator(bytearray(build_control_batch(7, 3, True, 0, 1)))
    assert p.high_watermark == 3
    with pytest.raises(InvalidProducerEpochError):  # a stale marker (the markers' caller maps it)
        p.append_as_coordinator(bytearray(build_control_batch(7, 2, True, 0, 1)))
    assert p.log.log_end_offset == 3

    now = 1_000_000
    assert p.make_leader(_state(0, 4, (0, 1), replicas=(0, 1)), now)
    p.append_as_coordinator(bytearray(build_batch([(1, b"k", b"v", [])])))
    assert p.log.log_end_offset == 4 and p.high_watermark == 3  # waits for the ISR, as acks=-1 writes do
    batch = bytes(p.log.read(3, 1 << 20).records)
    assert int.from_bytes(batch[12:16], "big") == 4  # partitionLeaderEpoch: this leader's epoch
    p.update_follower_fetch_state(1, 4, 0, 4, now)
    assert p.high_watermark == 4
