"""Transactions on a 3-broker EmbeddedCluster: markers reach partition leaders on other brokers
over WriteTxnMarkers, __transaction_state is replicated, and killing (-9) the transaction
coordinator's broker loses no committed transaction and shows no partial one: the new leader of
the id's state partition takes over, finishes or aborts what was open, and fences nothing that
should live."""

from __future__ import annotations

import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator

import pytest
from confluent_kafka import KafkaException, Producer

from broker_embedded import EmbeddedCluster
from broker_embedded.group.offsets_topic import partition_for_group
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from tests.integration.test_transactions import read_all

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


@pytest.fixture()
def c() -> Iterator[EmbeddedCluster]:
    with cluster(
        3,
        **{
            "min.insync.replicas": 2,
            "transaction.state.log.num.partitions": 4,
            "transaction.abort.timed.out.transaction.cleanup.interval.ms": 200,
        },
    ) as c:
        yield c


def test_transactions_survive_a_killed_coordinator(c: EmbeddedCluster) -> None:
    topic, tid = "ctxn", f"tid-{uuid.uuid4().hex[:6]}"
    partitions, per_txn = 6, 12
    create_topic(c.bootstrap_servers, topic, partitions=partitions, rf=3)
    wait_full_isr(c, topic, partitions)
    committed: list[int] = []
    stop = threading.Event()
    conf = {
        "bootstrap.servers": c.bootstrap_servers,
        "transactional.id": tid,
        "transaction.timeout.ms": 3000,
        "message.timeout.ms": 3000,
        "acks": "all",
    }

    def run() -> None:
        p = Producer(conf)
        p.init_transactions(60)
        n = 0
        try:
            while not stop.is_set():
                p.begin_transaction()
                for i in range(per_txn):
                    p.produce(topic, value=b"%d-%d" % (n, i), partition=i % partitions)
                if n % 4 == 3:
                    p.flush(10)
                    p.abort_transaction(10)
                else:
                    p.commit_transaction(10)
                    committed.append(n)
                n += 1
        except KafkaException:
            pass

    t = threading.Thread(target=run, daemon=True)
    t.start()
    deadline = time.monotonic() + 60
    while len(committed) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(committed) >= 6, "the producer did not get going"
    n_state = c.partition_count("__transaction_state")
    index = partition_for_group(tid, n_state)
    coordinator = c.leader("__transaction_state", index)
    c.kill(coordinator)
    stop.set()
    t.join(60)
    c.wait_for(
        lambda: c.leader("__transaction_state", index) not in (-1, coordinator),
        timeout=20,
        what="a new transaction coordinator",
    )
    # the same id works on the new coordinator (fencing whatever the old producer left open)
    p2 = Producer({**conf, "message.timeout.ms": 3000})
    p2.init_transactions(60)
    p2.begin_transaction()
    for i in range(per_txn):
        p2.produce(topic, value=b"999-%d" % i, partition=i % partitions)
    p2.commit_transaction(30)
    seen = read_all(c.bootstrap_servers, topic, "read_committed", partitions, settle=3)
    counts = Counter(int(v.split(b"-")[0]) for v in seen)
    assert counts.pop(999) == per_txn
    partial = {n: k for n, k in counts.items() if k != per_txn}
    assert not partial, f"partial transactions visible: {partial}"
    assert not [n for n in committed if n not in counts], "a committed transaction was lost"
    assert not [n for n in counts if n % 4 == 3], "an aborted transaction is visible"


def test_send_offsets_to_transaction_in_a_cluster(c: EmbeddedCluster) -> None:
    """Consume-transform-produce where the group coordinator, the transaction coordinator and the
    partition leaders are spread over three brokers (markers and TxnOffsetCommit replicated)."""
    from tests.integration.test_transactions import consume_transform_produce

    src, dst = f"src-{uuid.uuid4().hex[:6]}", f"dst-{uuid.uuid4().hex[:6]}"
    for name in (src, dst):
        create_topic(c.bootstrap_servers, name, partitions=1, rf=3)
        wait_full_isr(c, name, 1)
    consume_transform_produce(c, src, dst)
