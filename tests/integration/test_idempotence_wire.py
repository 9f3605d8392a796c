"""Idempotent produce on the wire: InitProducerId, then hand-built batches carrying producer id,
epoch and base sequence (Produce v9+). Duplicates are acknowledged with their original offsets and
written once, gaps and fenced epochs are refused, and all of it survives a clean restart and a
kill -9 of a CLI broker.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from broker_embedded import EmbeddedBroker
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.records import build_batch
from tests.integration import wire_util as w

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(num_partitions=1) as b:
        yield b


@pytest.fixture
def conn(broker: EmbeddedBroker) -> Iterator[BrokerConnection]:
    with w.connect(broker.bootstrap_servers) as c:
        yield c


@pytest.fixture
def topic(conn: BrokerConnection) -> str:
    name = f"idem-{uuid.uuid4().hex[:10]}"
    w.create_topic(conn, name, 2)
    return name


def idem_batch(pid: int, epoch: int, seq: int, n: int = 2, tag: str = "r") -> bytes:
    ts = int(time.time() * 1000)
    recs = [(ts, f"{tag}-k{seq + i}".encode(), f"{tag}-e{epoch}-s{seq + i}".encode(), []) for i in range(n)]
    return build_batch(recs, producer_id=pid, producer_epoch=epoch, base_sequence=seq)


def produce_ok(conn: BrokerConnection, topic: str, batch: bytes, partition: int = 0, version: int = 9) -> int:
    r = w.produce(conn, topic, partition, batch, version=version)
    assert r.error_code == ErrorCode.NONE, (ErrorCode(r.error_code).name, r.error_message)
    return int(r.base_offset)


def produce_err(conn: BrokerConnection, topic: str, batch: bytes, partition: int = 0, version: int = 9) -> Any:
    before = w.list_offset(conn, topic, partition)
    r = w.produce(conn, topic, partition, batch, version=version)
    assert w.list_offset(conn, topic, partition) == before, "a refused batch was appended"
    return r


# --------------------------------------------------------------------------------------------
# sequence rules on one running broker
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [9, 12])
def test_in_order_sequences_and_duplicates(conn: BrokerConnection, topic: str, version: int) -> None:
    pid, epoch = w.init_producer_id(conn)
    assert pid >= 0 and epoch == 0
    b0, b1, b2 = idem_batch(pid, 0, 0, 3), idem_batch(pid, 0, 3, 2), idem_batch(pid, 0, 5, 4)
    assert produce_ok(conn, topic, b0, version=version) == 0
    assert produce_ok(conn, topic, b1, version=version) == 3
    assert produce_ok(conn, topic, b2, version=version) == 5
    assert w.list_offset(conn, topic, 0) == 9
    # the retry of a batch that was written: acknowledged with its ORIGINAL offset, not rewritten
    for batch, original in ((b2, 5), (b1, 3), (b0, 0), (b2, 5)):
        assert produce_ok(conn, topic, batch, version=version) == original
    assert w.list_offset(conn, topic, 0) == 9
    # the next batch continues where the producer left off
    assert produce_ok(conn, topic, idem_batch(pid, 0, 9, 1), version=version) == 9
    values = [r.value for r in w.fetch_records(conn, topic, 0)]
    assert values == [f"r-e0-s{i}".encode() for i in range(10)]
    assert len(set(values)) == len(values)


def test_a_consumer_sees_each_record_once(broker: EmbeddedBroker, conn: BrokerConnection, topic: str) -> None:
    pid, _ = w.init_producer_id(conn)
    batches = [idem_batch(pid, 0, s * 3, 3, tag="c") for s in range(6)]
    for i, b in enumerate(batches):
        produce_ok(conn, topic, b)
        produce_ok(conn, topic, b)  # every batch retried once right away...
        if i >= 2:
            produce_ok(conn, topic, batches[i - 2])  # ...and an older one later
    assert w.list_offset(conn, topic, 0) == 18
    got = w.consume_all(broker.bootstrap_servers, topic, [0], expected=18)
    assert [(o, v) for _, o, _, v in got] == [(i, f"c-e0-s{i}".encode()) for i in range(18)]


def test_sequence_gap_is_out_of_order(conn: BrokerConnection, topic: str) -> None:
    pid, _ = w.init_producer_id(conn)
    produce_ok(conn, topic, idem_batch(pid, 0, 0, 2))
    r = produce_err(conn, topic, idem_batch(pid, 0, 5, 2))  # expected 2
    assert r.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    r = produce_err(conn, topic, idem_batch(pid, 0, 1, 2))  # overlaps the last batch, but is not it
    assert r.error_code in (ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, ErrorCode.DUPLICATE_SEQUENCE_NUMBER)
    # the gap left no trace: the right sequence is still accepted
    assert produce_ok(conn, topic, idem_batch(pid, 0, 2, 2)) == 2


def test_first_batch_of_unknown_producer_may_start_anywhere(conn: BrokerConnection, topic: str) -> None:
    # Kafka accepts any sequence from a producer it has no state for (e.g. after expiry)
    pid, _ = w.init_producer_id(conn)
    assert produce_ok(conn, topic, idem_batch(pid, 0, 42, 2)) == 0
    assert produce_ok(conn, topic, idem_batch(pid, 0, 44, 1)) == 2


def test_sequences_are_per_partition(conn: BrokerConnection, topic: str) -> None:
    pid, _ = w.init_producer_id(conn)
    assert produce_ok(conn, topic, idem_batch(pid, 0, 0, 2), partition=0) == 0
    assert produce_ok(conn, topic, idem_batch(pid, 0, 0, 3), partition=1) == 0
    assert produce_ok(conn, topic, idem_batch(pid, 0, 2, 1), partition=0) == 2
    assert produce_ok(conn, topic, idem_batch(pid, 0, 3, 1), partition=1) == 3
    r = produce_err(conn, topic, idem_batch(pid, 0, 4, 1), partition=0)  # partition 0 expects 3
    assert r.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER


def test_older_epoch_is_fenced_and_bump_starts_at_zero(conn: BrokerConnection, topic: str) -> None:
    pid, _ = w.init_producer_id(conn)
    assert produce_ok(conn, topic, idem_batch(pid, 1, 0, 2)) == 0
    assert produce_ok(conn, topic, idem_batch(pid, 1, 2, 2)) == 2
    # a zombie with the older epoch
    r = produce_err(conn, topic, idem_batch(pid, 0, 0, 2))
    assert r.error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    r = produce_err(conn, topic, idem_batch(pid, 0, 4, 2))
    assert r.error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    # a bump must restart the sequence at 0
    r = produce_err(conn, topic, idem_batch(pid, 2, 4, 1))
    assert r.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    bumped = idem_batch(pid, 2, 0, 3)
    assert produce_ok(conn, topic, bumped) == 4
    assert produce_ok(conn, topic, bumped) == 4  # duplicate in the new epoch
    assert produce_ok(conn, topic, idem_batch(pid, 2, 3, 1)) == 7
    # and now epoch 1 is the zombie
    r = produce_err(conn, topic, idem_batch(pid, 1, 4, 1))
    assert r.error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    # a retry of an epoch-1 batch is no longer a duplicate either: it is fenced
    r = produce_err(conn, topic, idem_batch(pid, 1, 2, 2))
    assert r.error_code == ErrorCode.INVALID_PRODUCER_EPOCH
    assert w.list_offset(conn, topic, 0) == 8


def test_duplicates_of_last_five_batches(conn: BrokerConnection, topic: str) -> None:
    pid, _ = w.init_producer_id(conn)
    batches = [idem_batch(pid, 0, 2 * i, 2) for i in range(8)]
    offsets = [produce_ok(conn, topic, b) for b in batches]
    assert offsets == [2 * i for i in range(8)]
    for i in (7, 3, 5, 4, 6, 3):  # any of the last five, in any order
        assert produce_ok(conn, topic, batches[i]) == offsets[i]
    assert w.list_offset(conn, topic, 0) == 16
    # older than the last five: no longer recognisable, refused (never appended again)
    for i in (0, 1, 2):
        r = produce_err(conn, topic, batches[i])
        assert r.error_code in (ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, ErrorCode.DUPLICATE_SEQUENCE_NUMBER)
    assert produce_ok(conn, topic, idem_batch(pid, 0, 16, 1)) == 16


def test_producer_ids_are_unique(conn: BrokerConnection, broker: EmbeddedBroker) -> None:
    ids = {w.init_producer_id(conn)[0] for _ in range(20)}
    with w.connect(broker.bootstrap_servers) as other:
        ids |= {w.init_producer_id(other)[0] for _ in range(5)}
    assert len(ids) == 25


# --------------------------------------------------------------------------------------------
# across restarts
# --------------------------------------------------------------------------------------------


def _write_history(conn: BrokerConnection, topic: str, pid: int, n_batches: int = 7) -> list[tuple[bytes, int]]:
    out = []
    for i in range(n_batches):
        b = idem_batch(pid, 0, 3 * i, 3, tag="p")
        out.append((b, produce_ok(conn, topic, b)))
    return out


def _check_history_after_restart(
    conn: BrokerConnection, topic: str, pid: int, history: list[tuple[bytes, int]]
) -> None:
    leo = history[-1][1] + 3
    assert w.list_offset(conn, topic, 0) == leo
    last, last_offset = history[-1]
    assert produce_ok(conn, topic, last) == last_offset, "the retry of the last batch was not a duplicate"
    for b, off in history[-5:]:
        assert produce_ok(conn, topic, b) == off
    assert w.list_offset(conn, topic, 0) == leo
    # the producer continues where it was
    assert produce_ok(conn, topic, idem_batch(pid, 0, 3 * len(history), 1, tag="p")) == leo
    r = produce_err(conn, topic, idem_batch(pid, 0, 3 * len(history) + 5, 1, tag="p"))
    assert r.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
    values = [r.value for r in w.fetch_records(conn, topic, 0)]
    assert len(values) == leo + 1 == len(set(values))


def test_duplicate_detection_survives_clean_restart(tmp_path: Path) -> None:
    topic = "idem-restart"
    with EmbeddedBroker(log_dir=tmp_path) as b, w.connect(b.bootstrap_servers) as c:
        w.create_topic(c, topic, 1)
        pid, _ = w.init_producer_id(c)
        history = _write_history(c, topic, pid)
        pid2, _ = w.init_producer_id(c)
    assert (tmp_path / ".kafka_cleanshutdown").exists()
    with EmbeddedBroker(log_dir=tmp_path) as b, w.connect(b.bootstrap_servers) as c:
        _check_history_after_restart(c, topic, pid, history)
        pid3, _ = w.init_producer_id(c)
        assert pid3 not in (pid, pid2) and pid3 > pid2


def test_duplicate_detection_survives_kill9(tmp_path: Path) -> None:
    topic = "idem-crash"
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, topic, 1)
            pid, _ = w.init_producer_id(c)
            history = _write_history(c, topic, pid)
            pid2, _ = w.init_producer_id(c)
        proc.kill9()
    assert not (tmp_path / ".kafka_cleanshutdown").exists()
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            _check_history_after_restart(c, topic, pid, history)
            pid3, _ = w.init_producer_id(c)
            assert pid3 not in (pid, pid2) and pid3 > pid2
        # a second crash right after: still duplicates (now including the batch written after the first)
        proc.kill9()
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            leo = w.list_offset(c, topic, 0)
            assert leo == history[-1][1] + 4
            again = idem_batch(pid, 0, 3 * len(history), 1, tag="p")
            assert produce_ok(c, topic, again) == leo - 1
            assert w.list_offset(c, topic, 0) == leo
            pid4, _ = w.init_producer_id(c)
            assert pid4 not in (pid, pid2, pid3)
        assert proc.terminate() == 0


def test_crash_with_rolled_segments_keeps_producer_state(tmp_path: Path) -> None:
    """Tiny segments: the state comes back from a producer snapshot (taken at each roll) plus replay."""
    topic = "idem-rolled"
    batches: list[tuple[bytes, int]] = []
    with w.BrokerProcess("--override", "log.segment.bytes=1024", log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, topic, 1)
            pid, _ = w.init_producer_id(c)
            for i in range(40):
                b = idem_batch(pid, 0, 2 * i, 2, tag="roll")
                batches.append((b, produce_ok(c, topic, b)))
        proc.kill9()
    pdir = w.partition_dir(tmp_path, topic, 0)
    assert len(list(pdir.glob("*.log"))) > 3, "the segments did not roll"
    assert list(pdir.glob("*.snapshot")), "no producer snapshot was taken at the rolls"
    with w.BrokerProcess("--override", "log.segment.bytes=1024", log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, topic, 0) == 80
            for b, off in batches[-5:]:
                assert produce_ok(c, topic, b) == off
            assert w.list_offset(c, topic, 0) == 80
            assert produce_ok(c, topic, idem_batch(pid, 0, 80, 1, tag="roll")) == 80
            r = produce_err(c, topic, idem_batch(pid, 0, 90, 1, tag="roll"))
            assert r.error_code == ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
        assert proc.terminate() == 0


def test_torn_tail_forgets_the_lost_batch(tmp_path: Path) -> None:
    """A batch cut off by recovery was never durable: its retry is appended again, not taken
    for a duplicate (which would acknowledge records that are gone)."""
    topic = "idem-torn"
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            w.create_topic(c, topic, 1)
            pid, _ = w.init_producer_id(c)
            batches = [idem_batch(pid, 0, 3 * i, 3, tag="torn") for i in range(5)]
            offsets = [produce_ok(c, topic, b) for b in batches]
        proc.kill9()
    seg = w.last_segment(tmp_path, topic, 0)
    seg.write_bytes(seg.read_bytes()[:-7])  # the last batch is torn
    with w.BrokerProcess(log_dir=tmp_path) as proc:
        assert proc.bootstrap
        with w.connect(proc.bootstrap) as c:
            assert w.list_offset(c, topic, 0) == 12
            # the batch before the lost one is still a duplicate
            assert produce_ok(c, topic, batches[3]) == offsets[3]
            assert w.list_offset(c, topic, 0) == 12
            # the lost one is written again (same place, since nothing came after it)
            assert produce_ok(c, topic, batches[4]) == 12
            assert w.list_offset(c, topic, 0) == 15, "the retry of a lost batch was taken for a duplicate"
            assert produce_ok(c, topic, batches[4]) == 12  # and now it is a duplicate
            values = [r.value for r in w.fetch_records(c, topic, 0)]
            assert values == [f"torn-e0-s{i}".encode() for i in range(15)]
        assert proc.terminate() == 0
