"""A failed log dir in EmbeddedCluster(3) (JBOD, KIP-858): leadership moves off it.

Each broker has two log dirs, the first a small tmpfs. The partition's leader has its dir filled up (ENOSPC,
a real failure); the broker takes that dir's replicas offline and reports them to the controller, which takes
the replica out of the ISR and elects another in-sync replica. An idempotent acks=all confluent-kafka producer
streams throughout: it keeps going without an error, and every acknowledged record is read back in order.
"""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from kafka_wire.errors import ErrorCode
from tests.integration import wire_util as w
from tests.integration.cluster_util import StreamingProducer, cluster, create_topic, wait_full_isr
from tests.integration.disk_util import fill_until_full, mount_tmpfs, unmount


def test_leadership_moves_off_a_failed_log_dir() -> None:
    c = cluster(3, controllers=1, log_dirs_per_broker=2)  # no standby needed
    mounted: list[Path] = []
    try:
        for b in c.broker_ids:
            d = c.broker_log_dirs(b)[0]
            if not mount_tmpfs(d, "8m"):
                pytest.skip("failing a log dir for real needs a tmpfs mount (root)")
            mounted.append(d)
        with c:
            bootstrap = c.bootstrap_servers
            topic = f"jbod-{uuid.uuid4().hex[:8]}"
            create_topic(bootstrap, topic, partitions=1, rf=3)
            wait_full_isr(c, topic)
            leader = c.leader(topic, 0)
            assert (c.broker_log_dirs(leader)[0] / f"{topic}-0").is_dir()  # the first dir: fewest partitions
            producer = StreamingProducer(bootstrap, topic).start()
            try:
                producer.wait_for_acks(300, 30)
                fill_until_full(c.broker_log_dirs(leader)[0])
                c.wait_for(
                    lambda: c.leader(topic, 0) not in (leader, -1) and leader not in c.isr(topic, 0),
                    timeout=30,
                    what="a new leader, the failed replica out of the ISR",
                )
                moved_at = producer.count()
                producer.wait_for_acks(moved_at + 300, 30)  # still writing, to the new leader
            finally:
                producer.stop()
            assert producer.errors == []
            acked = producer.acked_in_log_order()
            got = [v for _, _, _, v in w.consume_all(bootstrap, topic, [0], len(acked), timeout=30)]
            assert got == acked, (len(got), len(acked))
            # Metadata on every broker: the failed replica is listed offline (KIP-858)
            for b in c.broker_ids:
                conn = w.connect(f"127.0.0.1:{c.ports[b]}")
                try:
                    (p,) = w.metadata(conn, [topic]).topics[0].partitions
                finally:
                    conn.close()
                assert p.error_code == ErrorCode.NONE and p.leader_id not in (leader, -1)
                assert leader in p.replica_nodes and leader not in p.isr_nodes and list(p.offline_replicas) == [leader]
    finally:
        for d in mounted:
            unmount(d)
        shutil.rmtree(c.log_dir, ignore_errors=True)
