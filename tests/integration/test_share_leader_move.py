"""Share-partition state survives a SIGKILL of the share-partition's leader in EmbeddedCluster(3)
(KIP-932, Kafka's DefaultStatePersister, the default of ``group.share.persister.class.name``): the leader writes its
state through the share coordinator (RPCs 83-85), and the new leader reads it back. Acknowledged
records are not delivered again, released ones come back with delivery count 2, and records
released at ``share.delivery.count.limit`` (2) are archived."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from confluent_kafka import AcknowledgeType, KafkaException, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from kafka_wire.client import BrokerConnection
from kafka_wire.protocol.messages import find_coordinator_request, metadata_request
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

        c.start(leader)
        _failover_under_load(c)


class _Member(threading.Thread):
    """An explicit-mode ShareConsumer that accepts every record it gets, until stopped."""

    def __init__(self, bootstrap: str, group: str, topic: str) -> None:
        super().__init__(daemon=True)
        self.deliveries: list[tuple[int, int]] = []  # (value, delivery count)
        self.stopping = threading.Event()
        self.c = ShareConsumer(
            {"bootstrap.servers": bootstrap, "group.id": group, "share.acknowledgement.mode": "explicit"}
        )
        self.c.subscribe([topic])

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                for m in self.c.poll(0.3):
                    if m.error() is not None:
                        continue  # a retriable error while a broker is down
                    value, count = m.value(), m.delivery_count()
                    assert value is not None and count is not None
                    self.deliveries.append((int(value), count))
                    self.c.acknowledge(m, AcknowledgeType.ACCEPT)
                try:
                    self.c.commit_sync(10)
                except KafkaException:
                    pass  # the acknowledgement is lost with its broker: the record comes again
        finally:
            self.c.close()


def _group_coordinator(bootstrap: str, group: str) -> int:
    deadline = time.monotonic() + 30
    with BrokerConnection.from_bootstrap(bootstrap, timeout=30) as conn:
        while True:
            body = find_coordinator_request.FindCoordinatorRequest(key_type=0, coordinator_keys=[group])
            found = conn.request(10, body, 4).coordinators[0]
            if found.error_code == 0:
                return int(found.node_id)
            assert time.monotonic() < deadline, f"no coordinator for {group}"
            time.sleep(0.1)


def _failover_under_load(c: Any) -> None:
    """Two ShareConsumers consume under a producer while (a) the group coordinator's broker and then
    (b) the share-partition's leader are SIGKILLed: every produced record is delivered, and the
    share-partition's start offset ends past all of them (each acknowledged; a record delivered
    twice only on a later delivery, its first acceptance lost with a broker)."""
    c.wait_for(lambda: len(c.live_brokers()) == 3, timeout=30, what="3 brokers")
    bootstrap = ",".join(c.bootstrap(i) for i in c.broker_ids)
    topic = f"slf-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1, 3)
    wait_full_isr(c, topic)
    leader = c.leader(topic, 0)
    group, coordinator = "", leader
    while coordinator == leader:  # a group whose coordinator is not the partition's leader
        group = f"slf-g-{uuid.uuid4().hex[:8]}"
        coordinator = _group_coordinator(bootstrap, group)
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entry = ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=[entry])
    admin.incremental_alter_configs([resource])[resource].result(30)
    _wait_state_topic_in_sync(bootstrap)

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 5})
    acked: list[int] = []
    sent = [0]  # the next value

    def on_delivery(err: Any, msg: Any) -> None:
        assert err is None, err
        acked.append(int(msg.value()))

    members = [_Member(bootstrap, group, topic) for _ in range(2)]
    for m in members:
        m.start()

    def delivered() -> set[int]:
        return {v for m in members for v, _ in m.deliveries}

    def produce_until(more: int) -> None:
        """Produce at a steady pace until the consumers got `more` new records."""
        start, deadline = len(delivered()), time.monotonic() + 45
        while len(delivered()) < start + more:
            assert time.monotonic() < deadline, f"stuck at {len(delivered())} delivered"
            for _ in range(5):
                producer.produce(topic, str(sent[0]).encode(), partition=0, on_delivery=on_delivery)
                sent[0] += 1
            producer.poll(0.02)

    try:
        produce_until(50)
        c.kill(coordinator)  # (a) the group coordinator's broker
        others = ",".join(c.bootstrap(i) for i in c.broker_ids if i != coordinator)
        c.wait_for(lambda: _group_coordinator(others, group) != coordinator, timeout=30, what="a new coordinator")
        produce_until(100)
        c.start(coordinator)
        c.wait_for(lambda: len(c.live_brokers()) == 3, timeout=30, what="the coordinator's broker back")
        wait_full_isr(c, topic)
        leader = c.leader(topic, 0)
        c.kill(leader)  # (b) the share-partition's leader
        produce_until(100)
        assert producer.flush(60) == 0
        total = sent[0]
        assert sorted(acked) == list(range(total))
        deadline = time.monotonic() + 45
        while delivered() != set(range(total)):
            assert time.monotonic() < deadline, f"{total - len(delivered())} of {total} records never delivered"
            time.sleep(0.2)
    finally:
        for m in members:
            m.stopping.set()
        for m in members:
            m.join(30)
    deliveries = [d for m in members for d in m.deliveries]
    assert set(v for v, _ in deliveries) == set(range(total))
    assert len(set(deliveries)) == len(deliveries), "a record delivered twice on the same delivery"
    # every record acknowledged: the share-partition's start offset moves past them all
    client = StateClient(c, group, _topic_id(bootstrap, topic))
    client.down.add(leader)
    deadline = time.monotonic() + 30
    while True:
        (code, _, start_offset, batches), _ = client.read(NO_FENCE)
        if code == 0 and start_offset == total:
            break
        assert time.monotonic() < deadline, f"start offset {start_offset} of {total}: {batches}"
        time.sleep(0.2)


def _topic_id(bootstrap: str, topic: str) -> bytes:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=30) as conn:
        body = metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)])
        return bytes(conn.request(3, body, 12).topics[0].topic_id)
