"""offsets.retention.minutes: committed offsets of an Empty group expire, durably."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from confluent_kafka import Consumer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker
from tests.integration.clients_util import listed_groups, wait_until


def _committed(bootstrap: str, group: str, topic: str) -> int:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        return c.committed([TopicPartition(topic, 0)], timeout=10)[0].offset
    finally:
        c.close()


@pytest.mark.timeout(60)
def test_offsets_of_an_empty_group_expire_after_retention(tmp_path: Path) -> None:
    topic, group = "retained", "idle-group"
    with EmbeddedBroker(log_dir=tmp_path, **{"offsets.retention.minutes": 1}) as b:
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        admin.create_topics([NewTopic(topic, num_partitions=1)])[topic].result(10)
        c = Consumer({"bootstrap.servers": b.bootstrap_servers, "group.id": group, "enable.auto.commit": False})
        c.commit(offsets=[TopicPartition(topic, 0, 42)], asynchronous=False)
        c.close()
        assert _committed(b.bootstrap_servers, group, topic) == 42
        now_ms = time.time_ns() // 1_000_000
        # not yet: the commit is younger than the retention
        assert b.call(lambda br: br.group_coordinator.expire_offsets(now_ms + 30_000)) == 0
        assert _committed(b.bootstrap_servers, group, topic) == 42
        # a minute later the Empty group's offset is gone, and so is the group
        assert b.call(lambda br: br.group_coordinator.expire_offsets(now_ms + 61_000)) == 1
        assert _committed(b.bootstrap_servers, group, topic) < 0
        assert group not in b.call(lambda br: set(br.group_coordinator.groups))
    # the expiry was written as tombstones: it survives a restart
    with EmbeddedBroker(log_dir=tmp_path) as b:
        assert _committed(b.bootstrap_servers, group, topic) < 0


@pytest.mark.timeout(60)
def test_offsets_of_an_active_group_do_not_expire(tmp_path: Path) -> None:
    topic, group = "active", "busy-group"
    with EmbeddedBroker(log_dir=tmp_path, **{"offsets.retention.minutes": 1}) as b:
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        admin.create_topics([NewTopic(topic, num_partitions=1)])[topic].result(10)
        c = Consumer(
            {
                "bootstrap.servers": b.bootstrap_servers,
                "group.id": group,
                "enable.auto.commit": False,
                "auto.offset.reset": "earliest",
            }
        )
        c.subscribe([topic])
        deadline = time.time() + 20
        while not c.assignment() and time.time() < deadline:
            c.poll(0.1)
        c.commit(offsets=[TopicPartition(topic, 0, 7)], asynchronous=False)
        far_future = time.time_ns() // 1_000_000 + 3_600_000
        assert b.call(lambda br: br.group_coordinator.expire_offsets(far_future)) == 0
        c.close()


@pytest.mark.timeout(60)
def test_an_empty_group_without_offsets_stays_until_the_check_then_goes(tmp_path: Path) -> None:
    """offsets.retention.check.interval.ms (10 min by default) paces the cleanup: a group whose member left
    without committing is listed as Empty until the check runs, then deleted for good (a tombstone)."""
    topic, group = "no-commits", "left-without-committing"
    with EmbeddedBroker(log_dir=tmp_path) as b:
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        admin.create_topics([NewTopic(topic, num_partitions=1)])[topic].result(10)
        c = Consumer({"bootstrap.servers": b.bootstrap_servers, "group.id": group, "enable.auto.commit": False})
        c.subscribe([topic])
        wait_until(lambda: (c.poll(0.1), c.assignment())[1], 20, what="an assignment")
        c.close()
        described = admin.describe_consumer_groups([group])[group].result(10)
        assert described.state.name == "EMPTY" and not described.members
        assert b.call(lambda br: br.group_coordinator.expire_offsets()) == 0  # no offsets expired...
        assert group not in b.call(lambda br: set(br.group_coordinator.groups))  # ...but the group went
        assert group not in listed_groups(admin)
    with EmbeddedBroker(log_dir=tmp_path) as b:
        admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
        assert group not in listed_groups(admin)
