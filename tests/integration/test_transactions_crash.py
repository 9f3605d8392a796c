"""Transactions survive a SIGKILL of the broker (`python -m broker_embedded` in a child process).

Killed between AddPartitionsToTxn and EndTxn: after the restart the coordinator (reloaded from
__transaction_state) aborts the open transaction when it times out, the LSO moves past it and a
read_committed consumer sees exactly the committed transactions. Killed while a producer commits
transaction after transaction over 4 partitions: every transaction the client saw committed is
complete, the one in flight is complete or absent, never partial.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import KafkaException, Producer
from confluent_kafka.admin import AdminClient, NewTopic

from tests.integration.test_transactions import read_all

pytestmark = [pytest.mark.timeout(180), pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class BrokerChild:
    """One broker process on a fixed port and log dir, killed with SIGKILL and started again."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.port = _free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def bootstrap_servers(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> None:
        argv = [
            sys.executable, "-m", "broker_embedded",
            "--port", str(self.port), "--log-dir", str(self.log_dir),
            "--override", "transaction.state.log.num.partitions=4",
            "--override", "offsets.topic.num.partitions=4",
            "--override", "transaction.abort.timed.out.transaction.cleanup.interval.ms=200",
        ]  # fmt: skip
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if line.startswith("bootstrap.servers="):
                return
            if not line and self.proc.poll() is not None:
                raise RuntimeError(f"broker exited with {self.proc.returncode}")
        raise TimeoutError("broker did not start")

    def kill9(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill9()


@pytest.fixture
def child(tmp_path: Path) -> Any:
    b = BrokerChild(tmp_path / "logs")
    b.start()
    yield b
    b.stop()


def _create(bootstrap: str, topic: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(topic, partitions, 1)]).values():
        f.result(30)


def wait_lso_at_end(bootstrap: str, topic: str, partitions: int, timeout: float = 30.0) -> None:
    """Poll until no transaction is open on `topic`: each partition's last stable offset (ListOffsets
    read_committed) has reached its high watermark."""
    from tests.integration import wire_util as w

    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            with w.connect(bootstrap) as conn:
                last = [
                    (w.list_offset(conn, topic, i, isolation_level=1), w.list_offset(conn, topic, i))
                    for i in range(partitions)
                ]
        except (AssertionError, OSError) as e:  # the restarted broker may still be loading
            last = e
        else:
            if all(lso == hw for lso, hw in last):
                return
        time.sleep(0.1)
    raise AssertionError(f"a transaction on {topic} is still open after {timeout}s: (LSO, HW) {last}")


def test_kill_between_add_partitions_and_end_txn(child: BrokerChild) -> None:
    topic, tid = f"crash-{uuid.uuid4().hex[:6]}", f"tid-{uuid.uuid4().hex[:6]}"
    _create(child.bootstrap_servers, topic, 2)
    p = Producer(
        {"bootstrap.servers": child.bootstrap_servers, "transactional.id": tid, "transaction.timeout.ms": 2000}
    )
    p.init_transactions(30)
    p.begin_transaction()
    for i in range(10):
        p.produce(topic, value=b"ok-%d" % i, partition=i % 2)
    p.commit_transaction(30)
    p.begin_transaction()
    for i in range(10):
        p.produce(topic, value=b"open-%d" % i, partition=i % 2)
    p.flush(30)  # AddPartitionsToTxn done, records in the logs, no EndTxn
    child.kill9()
    del p
    child.start()
    # the reloaded coordinator aborts the open transaction after its timeout; the LSO moves on
    wait_lso_at_end(child.bootstrap_servers, topic, 2)
    seen = read_all(child.bootstrap_servers, topic, "read_committed", 2)
    assert sorted(seen) == sorted(b"ok-%d" % i for i in range(10))
    # the same transactional id works again and its next transaction is visible
    p2 = Producer({"bootstrap.servers": child.bootstrap_servers, "transactional.id": tid})
    p2.init_transactions(30)
    p2.begin_transaction()
    p2.produce(topic, value=b"after", partition=0)
    p2.commit_transaction(30)
    seen = read_all(child.bootstrap_servers, topic, "read_committed", 2)
    assert sorted(seen) == sorted([b"ok-%d" % i for i in range(10)] + [b"after"])


def test_kill_during_commits_leaves_no_partial_transaction(child: BrokerChild) -> None:
    topic, tid = f"crash2-{uuid.uuid4().hex[:6]}", f"tid-{uuid.uuid4().hex[:6]}"
    partitions, per_txn = 4, 8
    _create(child.bootstrap_servers, topic, partitions)
    committed: list[int] = []
    stop = threading.Event()

    def run() -> None:
        p = Producer(
            {
                "bootstrap.servers": child.bootstrap_servers,
                "transactional.id": tid,
                "transaction.timeout.ms": 2000,
                "message.timeout.ms": 2000,
            }
        )
        p.init_transactions(30)
        n = 0
        try:
            while not stop.is_set():
                p.begin_transaction()
                for i in range(per_txn):
                    p.produce(topic, value=b"%d-%d" % (n, i), partition=i % partitions)
                p.commit_transaction(10)
                committed.append(n)
                n += 1
        except KafkaException:
            pass  # the broker is gone mid-transaction

    t = threading.Thread(target=run, daemon=True)
    t.start()
    deadline = time.monotonic() + 30
    while len(committed) < 15 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(committed) >= 15, "the producer did not get going"
    child.kill9()  # at whatever point of a transaction the producer is
    stop.set()
    t.join(30)
    child.start()
    # an open transaction times out (2 s) and is aborted by the reloaded coordinator
    wait_lso_at_end(child.bootstrap_servers, topic, partitions)
    seen = read_all(child.bootstrap_servers, topic, "read_committed", partitions)
    counts = Counter(int(v.split(b"-")[0]) for v in seen)
    partial = {n: c for n, c in counts.items() if c != per_txn}
    assert not partial, f"partial transactions visible: {partial}"
    missing = [n for n in committed if n not in counts]
    assert not missing, f"committed transactions lost: {missing}"
    assert max(counts) <= len(committed)  # at most the one in flight beyond those acknowledged
