"""Transactions on the remote tier: committed and aborted transactions are tiered, then a
read_committed consumer reading from offset 0 (remote, through the reader's read-ahead, then local)
gets exactly the committed records, in order, and a read_uncommitted one gets every record."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from confluent_kafka import Producer, TopicPartition

from broker_embedded import EmbeddedBroker
from tests.integration import wire_util as w
from tests.integration.clients_util import ck_consumer
from tests.integration.test_tiered_fetch import TOPIC_CONFIGS, broker_configs, wait_tiered

pytestmark = pytest.mark.timeout(90)


def _read(bootstrap: str, isolation: str, n: int, timeout: float = 30) -> list[bytes]:
    c = ck_consumer(bootstrap, **{"isolation.level": isolation})
    try:
        c.assign([TopicPartition("tx", 0, 0)])
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            msgs = c.consume(1000, 0.2)
            for m in msgs:
                assert m.error() is None, m.error()
                out.append(m.value())
            if msgs:
                quiet_since = time.monotonic()
            elif len(out) >= n and time.monotonic() - quiet_since > 1.0:
                break  # nothing more comes: a duplicate would have shown by now
        return out
    finally:
        c.close()


def test_read_committed_skips_aborted_transactions_read_from_the_remote_tier(tmp_path: Path) -> None:
    configs = broker_configs(tmp_path, **{"transaction.state.log.num.partitions": 1})
    with EmbeddedBroker(tmp_path / "logs", **configs) as b:
        conn = w.connect(b.bootstrap_servers)
        w.create_topic(conn, "tx", 1, TOPIC_CONFIGS)
        p = Producer({"bootstrap.servers": b.bootstrap_servers, "transactional.id": "tiered-tx", "linger.ms": 5})
        p.init_transactions(30)
        committed: list[bytes] = []
        every: list[bytes] = []
        for t in range(24):  # every third transaction aborted, each a few batches
            p.begin_transaction()
            values = [f"t{t:02d}-r{i:03d}-".encode() + b"x" * 200 for i in range(60)]
            for v in values:
                p.produce("tx", value=v, partition=0)
            p.flush(30)
            every += values
            if t % 3 == 1:
                p.abort_transaction(30)
            else:
                p.commit_transaction(30)
                committed += values
        # a last committed record keeps the rest readable up to the LSO
        p.begin_transaction()
        p.produce("tx", value=b"last", partition=0)
        p.commit_transaction(30)
        committed.append(b"last")
        every.append(b"last")
        st = wait_tiered(b, "tx", len(every) // 2)  # (offsets count the markers too)
        assert st["remote_segments"] > 3

        assert _read(b.bootstrap_servers, "read_committed", len(committed)) == committed
        assert _read(b.bootstrap_servers, "read_uncommitted", len(every)) == every
