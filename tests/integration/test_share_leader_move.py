"""Share-partition state survives a SIGKILL of the share-partition's leader in EmbeddedCluster(3)
(KIP-932, Kafka's DefaultStatePersister, the default of ``group.share.persister.class.name``): the leader writes its
state through the share coordinator (RPCs 83-85), and the new leader reads it back. Acknowledged
records are not delivered again, released ones come back with delivery count 2, and records
released at ``share.delivery.count.limit`` (2) are archived."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
from confluent_kafka import AcknowledgeType, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from kafka_wire.client import BrokerConnection
from kafka_wire.protocol.messages import metadata_request
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from tests.integration.test_share_cluster import StateClient, _wait_state_topic_in_sync
from tests.integration.test_share_groups import _produce

AVAILABLE = 0
NO_FENCE = 2**31 - 1  # a read that is never fenced by the stored leader epoch


def _share_group(bootstrap: str, group: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entries = [
        ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("share.delivery.count.limit", "2", incremental_operation=AlterConfigOpType.SET),
    ]
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=entries)
    admin.incremental_alter_configs([resource])[resource].result(30)


def _consume(bootstrap: str, group: str, topic: str, until: Any, ack: Any) -> dict[int, int]:
    """value -> delivery count of what a new explicit-mode ShareConsumer gets until until(got)."""
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "share.acknowledgement.mode": "explicit"})
    c.subscribe([topic])
    got: dict[int, int] = {}
    deadline = time.monotonic() + 45
    try:
        while not until(got):
            assert time.monotonic() < deadline, f"only {got}"
            for m in c.poll(0.5):
                if m.error() is not None:
                    continue  # a retriable error while the leader moves
                value, count = m.value(), m.delivery_count()
                assert value is not None and count is not None
                got[int(value)] = count
                c.acknowledge(m, ack(int(value)))
            c.commit_sync(30)
    finally:
        c.close()
    return got


def _wait_persisted(client: StateClient, start: int, batch: tuple[int, int, int, int]) -> None:
    deadline = time.monotonic() + 30
    while True:
        (code, _, start_offset, batches), _ = client.read(NO_FENCE)
        if code == 0 and start_offset == start and batch in batches:
            return
        assert time.monotonic() < deadline, f"coordinator state {start_offset} {batches}"
        time.sleep(0.2)


@pytest.mark.slow
def test_share_state_survives_a_leader_kill(tmp_path: Any) -> None:
    # Kafka's DefaultStatePersister is the default (group.share.persister.class.name)
    with cluster(3, log_dir=tmp_path / "c", **{"share.coordinator.state.topic.num.partitions": 3}) as c:
        topic, group = f"slm-{uuid.uuid4().hex[:8]}", f"slm-g-{uuid.uuid4().hex[:8]}"
        create_topic(c.bootstrap_servers, topic, 1, 3)
        wait_full_isr(c, topic)
        _share_group(c.bootstrap_servers, group)
        _produce(c.bootstrap_servers, topic, range(10))

        first = _consume(
            c.bootstrap_servers,
            group,
            topic,
            lambda got: len(got) == 10,
            lambda v: AcknowledgeType.ACCEPT if v < 5 else AcknowledgeType.RELEASE,
        )
        assert first == dict.fromkeys(range(10), 1)

        client = StateClient(c, group, _topic_id(c.bootstrap_servers, topic))
        _wait_persisted(client, 5, (5, 9, AVAILABLE, 1))
        _wait_state_topic_in_sync(c.bootstrap_servers)

        leader = c.leader(topic, 0)
        c.kill(leader)
        client.down.add(leader)
        c.wait_for(lambda: c.leader(topic, 0) not in (-1, leader), timeout=30, what="a new leader")
        live = ",".join(c.bootstrap(i) for i in c.live_brokers() if i != leader)

        # 0-4 accepted: never again; 5-9 released once: delivery count 2; 8 and 9 released again: archived
        second = _consume(
            live,
            group,
            topic,
            lambda got: len(got) == 5,
            lambda v: AcknowledgeType.RELEASE if v >= 8 else AcknowledgeType.ACCEPT,
        )
        assert second == {5: 2, 6: 2, 7: 2, 8: 2, 9: 2}
        _produce(live, topic, range(10, 11))
        third = _consume(live, group, topic, lambda got: 10 in got, lambda v: AcknowledgeType.ACCEPT)
        assert third == {10: 1}
        # the group coordinator's and the leader's SIGKILL under a producer, on ours and on Apache
        # Kafka's cluster: test_share_cluster_admin.py::test_share_consumers_through_coordinator_and_leader_kills


def _topic_id(bootstrap: str, topic: str) -> bytes:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=30) as conn:
        body = metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)])
        return bytes(conn.request(3, body, 12).topics[0].topic_id)
