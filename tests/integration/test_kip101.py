"""The two KIP-101 scenarios: truncating a follower to its high watermark loses or forks data after
leader changes; truncating by leader epoch (OffsetForLeaderEpoch) keeps the replicas identical.

Two brokers (A = 0, B = 1) in this process, partition states applied by hand (a fake controller).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from broker_embedded.broker import Broker
from broker_embedded.log.checkpoint import REPLICATION_OFFSET_CHECKPOINT, OffsetCheckpointFile
from kafka_wire.errors import ErrorCode

from .replication_util import InProcessCluster, batch, produce, wait_for

pytestmark = pytest.mark.timeout(60)

T = "kip101"
A, B = 0, 1


def _checkpointed_hw(c: InProcessCluster, node: int) -> int:
    return OffsetCheckpointFile(c.log_dir(node) / REPLICATION_OFFSET_CHECKPOINT).read()[(T, 0)]


def _truncation_done(c: InProcessCluster, node: int) -> bool:
    def check(br: Broker) -> bool:
        f = br.replica_manager.fetcher_for(T, 0)
        s = f.state(T, 0) if f is not None else None
        return s is not None and not s.truncating

    return bool(c.on(node, check))


@pytest.fixture
def slow_hw_cluster(tmp_path: Path) -> Iterator[InProcessCluster]:
    # a follower learns the HW one fetch later; a long fetch wait keeps it stale long enough
    with InProcessCluster(tmp_path, 2, **{"replica.fetch.wait.max.ms": 3000, "replica.lag.time.max.ms": 10000}) as c:
        yield c


def test_scenario_1_hw_truncation_would_lose_a_committed_record(slow_hw_cluster: InProcessCluster) -> None:
    c = slow_hw_cluster
    c.create_topic(T, [[A, B]], {"min.insync.replicas": 1})
    with c.conn(A) as conn:
        for i in range(2):
            r = produce(conn, T, 0, batch(1, prefix="m", start=i), acks=-1)
            assert r.error_code == ErrorCode.NONE
    # m1 is committed: the leader's HW passed it, so it was acknowledged to the producer
    assert c.offsets(A, T) == (2, 2)
    # the follower has m1 but has not learned the HW that covers it yet
    assert c.offsets(B, T) == (2, 1)

    # B restarts: with the HW rule it would truncate to 1 and lose m1
    c.stop(B)
    assert _checkpointed_hw(c, B) == 1
    c.start(B)
    wait_for(lambda: _truncation_done(c, B), what="B's truncation phase")
    # the leader said epoch 0 ends at 2 (its LEO): nothing to cut. (B refetching m1 right away
    # would hide a loss here; KIP-101's A dies first, so B must never have truncated at all.)
    fetcher = c.on(B, lambda br: br.replica_manager.fetcher_for(T, 0))
    assert fetcher is not None and fetcher.truncations == 0
    assert c.offsets(B, T)[0] == 2

    # A dies before B fetched again; B becomes leader: m1 is still there
    c.stop(A)
    c.elect(T, 0, B, isr=[B])
    assert [v for _, v in c.values(B, T)] == [b"m0", b"m1"]
    with c.conn(B) as conn:
        assert produce(conn, T, 0, batch(1, prefix="m", start=2), acks=-1).error_code == ErrorCode.NONE

    # A comes back as a follower of epoch 1: identical logs
    c.start(A)
    wait_for(lambda: c.offsets(A, T)[0] == 3, what="A catches up")
    assert c.log_batches(A, T) == c.log_batches(B, T)
    assert [v for _, v in c.values(A, T)] == [b"m0", b"m1", b"m2"]


def test_scenario_2_replicas_would_diverge_after_a_double_failure(tmp_path: Path) -> None:
    with InProcessCluster(tmp_path, 2) as c:
        c.create_topic(T, [[A, B]], {"min.insync.replicas": 1})
        with c.conn(A) as conn:
            for i in range(2):
                r = produce(conn, T, 0, batch(1, prefix="m", start=i), acks=-1)
                assert r.error_code == ErrorCode.NONE
        wait_for(lambda: c.offsets(B, T) == (2, 2), what="B has m0, m1 and the HW")

        # power failure: both die; B had not flushed m1 and loses it
        c.stop(A)
        c.stop(B)
        assert _checkpointed_hw(c, A) == 2
        c.start(B, before_states=lambda br: br.partition(T, 0).log.truncate_to(1))  # type: ignore[union-attr]
        assert c.offsets(B, T)[0] == 1

        # B comes back first and leads epoch 1, writing m2 at offset 1
        c.elect(T, 0, B, isr=[B])
        with c.conn(B) as conn:
            r = produce(conn, T, 0, batch(1, prefix="m", start=2), acks=-1)
            assert r.error_code == ErrorCode.NONE and r.base_offset == 1

        # A returns with LEO 2 and HW 2: the HW rule truncates nothing and would fetch from 2,
        # leaving m1 (epoch 0) on A where B has m2 (epoch 1) at offset 1. By epoch, A asks B for
        # the end of epoch 0 (= 1, where epoch 1 starts) and cuts m1 off.
        c.start(A)
        wait_for(lambda: _truncation_done(c, A), what="A's truncation phase")
        wait_for(lambda: c.offsets(A, T)[0] == 2, what="A fetched m2")
        assert c.log_batches(A, T) == c.log_batches(B, T)
        assert [v for _, v in c.values(A, T)] == [b"m0", b"m2"]
        assert [(off, epoch) for off, epoch, _ in c.log_batches(A, T)] == [(0, 0), (1, 1)]
        fetcher = c.on(A, lambda br: br.replica_manager.fetcher_for(T, 0))
        assert fetcher is not None and fetcher.truncations == 1
