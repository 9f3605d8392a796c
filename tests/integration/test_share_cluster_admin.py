"""Share-group admin in a 3-broker cluster (KIP-932), differential: EmbeddedCluster(3) and Apache Kafka
4.3.1's 3-node cluster, a 3-partition topic whose partitions are led by different brokers, so the group
coordinator's broker leads at most one of them.

* A member's leave releases its acquired records at once on a share-partition leader that is not the
  group coordinator's broker: member a (explicit acknowledgement) accepts what it gets until a poll
  brings records of such a partition and closes holding those; member b gets them with delivery
  count 2, well inside the acquisition lock (60 s), and every other record not accepted with count 1.
* The group coordinator answers DescribeShareGroupOffsets (90) from the share coordinators' state for
  every partition, whichever broker leads it: after b accepted everything, lag 0 on each; after
  AlterShareGroupOffsets (91), the altered start offsets and their lag on each partition.
* DeleteShareGroupOffsets (92) reaches every partition's state: described after, nothing left (-1);
  a new member then starts from share.auto.offset.reset again and gets every record with delivery
  count 1 (no leader kept the deleted state). DeleteGroups of the emptied group, then it is gone.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import AcknowledgeType, KafkaException, Producer, ShareConsumer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import alter_share_group_offsets_request as alter_rq
from kafka_wire.protocol.messages import delete_groups_request, list_groups_request, metadata_request
from kafka_wire.protocol.messages import delete_share_group_offsets_request as delete_rq
from kafka_wire.protocol.messages import describe_share_group_offsets_request as describe_rq
from kafka_wire.protocol.messages import find_coordinator_request as fc
from tests.integration.cluster_util import cluster, create_topic
from tests.integration.test_share_cluster import _wait_state_topic_in_sync

PARTITIONS, PER_PARTITION = 3, 4
DESCRIBE, ALTER, DELETE, DELETE_GROUPS, LIST_GROUPS = 90, 91, 92, 42, 16
LOCK_MS = 60_000  # group.share.max.record.lock.duration.ms: a release is never a lock expiry here


@pytest.fixture(scope="module", params=["ours", "apache"])
def any_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        with cluster(3) as c:
            yield c
        return
    yield request.getfixturevalue("apache_kafka_cluster")


def _group_configs(bootstrap: str, group: str) -> None:
    """earliest, and a lock long enough that only a release makes records available again."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    entries = [
        ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("share.record.lock.duration.ms", str(LOCK_MS), incremental_operation=AlterConfigOpType.SET),
    ]
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=entries)
    admin.incremental_alter_configs([resource])[resource].result(30)


def _produce(bootstrap: str, topic: str) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for partition in range(PARTITIONS):
        for i in range(PER_PARTITION):
            p.produce(topic, f"{partition}-{i}".encode(), partition=partition)
    assert p.flush(30) == 0


def _leaders(bootstrap: str, topic: str) -> dict[int, int]:
    with BrokerConnection.from_bootstrap(bootstrap, timeout=30) as conn:
        deadline = time.monotonic() + 30
        while True:
            body = metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)])
            t = conn.request(3, body, 12).topics[0]
            leaders = {p.partition_index: p.leader_id for p in t.partitions}
            if t.error_code == ErrorCode.NONE and len(leaders) == PARTITIONS and min(leaders.values()) >= 0:
                return leaders
            assert time.monotonic() < deadline, f"{topic} never fully led: {t}"
            time.sleep(0.2)


def _coordinator(bootstrap: str, group: str) -> tuple[int, str]:
    """(node id, bootstrap) of the group's coordinator, once loaded."""
    with BrokerConnection.from_bootstrap(bootstrap, timeout=30) as conn:
        deadline = time.monotonic() + 30
        while True:
            found = conn.request(10, fc.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4).coordinators[0]
            if found.error_code == ErrorCode.NONE:
                return found.node_id, f"{found.host}:{found.port}"
            assert time.monotonic() < deadline, f"no coordinator for {group}: {found}"
            time.sleep(0.2)


def _poll_all(c: ShareConsumer, want: int, timeout: float) -> dict[str, int]:
    """value -> delivery count of the next `want` records (fails on a duplicate or past the deadline)."""
    got: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while len(got) < want:
        assert time.monotonic() < deadline, f"{len(got)}/{want} records: {sorted(got)}"
        for m in c.poll(0.5):
            assert m.error() is None, m.error()
            value = m.value().decode()
            assert value not in got, f"{value} delivered twice"
            got[value] = m.delivery_count()
    return got


def _describe(conn: BrokerConnection, group: str, topic: str | None) -> dict[tuple[str, int], tuple[int, int, int]]:
    wanted = (
        None
        if topic is None
        else [describe_rq.DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=list(range(PARTITIONS)))]
    )
    body = describe_rq.DescribeShareGroupOffsetsRequest(
        groups=[describe_rq.DescribeShareGroupOffsetsRequestGroup(group_id=group, topics=wanted)]
    )
    g = conn.request(DESCRIBE, body, 1).groups[0]
    assert g.error_code == ErrorCode.NONE, g
    return {
        (t.topic_name, p.partition_index): (p.start_offset, p.lag, p.error_code) for t in g.topics for p in t.partitions
    }


def _until(what: str, check: Any, timeout: float = 30) -> Any:
    """Poll `check` until it returns something truthy (the coordinator learns of a leave by heartbeat)."""
    deadline = time.monotonic() + timeout
    while not (result := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.2)
    return result


def test_share_admin_and_leave_across_brokers(any_cluster: Any) -> None:
    c = any_cluster
    bs = c.bootstrap_servers
    topic, group = f"shca-{uuid.uuid4().hex[:8]}", f"shca-g-{uuid.uuid4().hex[:8]}"
    create_topic(bs, topic, PARTITIONS, 3)
    leaders = _leaders(bs, topic)
    node, coordinator = _coordinator(bs, group)
    # partitions led away from the group coordinator's broker: what was local before
    assert len(set(leaders.values())) >= 2 and [p for p, n in leaders.items() if n != node], (leaders, node)
    _group_configs(bs, group)
    _produce(bs, topic)
    everything = {f"{p}-{i}" for p in range(PARTITIONS) for i in range(PER_PARTITION)}

    # a accepts what it gets until a poll brings records of a partition led away from the group
    # coordinator; it leaves holding those (the client refuses another poll before they are acknowledged)
    remote = {p for p, n in leaders.items() if n != node}
    a = ShareConsumer({"bootstrap.servers": bs, "group.id": group, "share.acknowledgement.mode": "explicit"})
    a.subscribe([topic])
    accepted: set[str] = set()
    held: set[str] = set()
    try:
        deadline = time.monotonic() + 45
        while not held:
            assert time.monotonic() < deadline, f"no record of partitions {remote}: accepted {sorted(accepted)}"
            batch = [m for m in a.poll(0.5) if m.error() is None]
            if any(m.partition() in remote for m in batch):
                held = {m.value().decode() for m in batch}
                continue
            for m in batch:
                a.acknowledge(m, AcknowledgeType.ACCEPT)
                accepted.add(m.value().decode())
    finally:
        a.close()
    left = time.monotonic()
    # b gets the held records at once (released by their leaders), each a second time, and the rest
    expected = {v: 2 if v in held else 1 for v in everything - accepted}
    b = ShareConsumer({"bootstrap.servers": bs, "group.id": group})
    b.subscribe([topic])
    try:
        assert _poll_all(b, len(expected), 45) == expected
        assert time.monotonic() - left < LOCK_MS / 1000 - 10
        b.poll(0.5)  # implicit acknowledgement of the last batch
    finally:
        b.close()

    every = {(topic, p) for p in range(PARTITIONS)}
    with BrokerConnection.from_bootstrap(coordinator, timeout=30) as conn:
        # all accepted: each partition described, wherever it is led, with nothing left to deliver
        done = _until("every partition's lag 0", lambda: (d := _describe(conn, group, None)) and _lags(d) == 0 and d)
        assert set(done) == every and all(start <= PER_PARTITION for start, _, _ in done.values()), done

        # the group is empty once b's leave reached the coordinator: alter each partition's start
        starts = {0: 1, 1: 3, 2: 0}
        body = alter_rq.AlterShareGroupOffsetsRequest(
            group_id=group,
            topics=[
                alter_rq.AlterShareGroupOffsetsRequestTopic(
                    topic_name=topic,
                    partitions=[
                        alter_rq.AlterShareGroupOffsetsRequestPartition(partition_index=p, start_offset=s)
                        for p, s in starts.items()
                    ],
                )
            ],
        )
        altered = _until("the group empty for alter", lambda: (r := conn.request(ALTER, body, 0)).error_code == 0 and r)
        assert [(p.partition_index, p.error_code) for t in altered.responses for p in t.partitions] == [
            (p, 0) for p in starts
        ]
        expected = {(topic, p): (s, PER_PARTITION - s, 0) for p, s in starts.items()}
        assert _describe(conn, group, None) == expected
        assert _describe(conn, group, topic) == expected

        # delete the topic's offsets: no state left on any partition
        deleting = delete_rq.DeleteShareGroupOffsetsRequest(
            group_id=group, topics=[delete_rq.DeleteShareGroupOffsetsRequestTopic(topic_name=topic)]
        )
        deleted = conn.request(DELETE, deleting, 0)
        assert deleted.error_code == ErrorCode.NONE and [(t.topic_name, t.error_code) for t in deleted.responses] == [
            (topic, ErrorCode.NONE)
        ], deleted
        assert _describe(conn, group, None) == {}
        assert _describe(conn, group, topic) == {(topic, p): (-1, -1, 0) for p in range(PARTITIONS)}

    # a new member starts over from earliest: every record once more, first delivery
    again = ShareConsumer({"bootstrap.servers": bs, "group.id": group})
    again.subscribe([topic])
    try:
        assert _poll_all(again, len(everything), 45) == dict.fromkeys(everything, 1)
        again.poll(0.5)
    finally:
        again.close()

    with BrokerConnection.from_bootstrap(coordinator, timeout=30) as conn:
        deleting_group = delete_groups_request.DeleteGroupsRequest(groups_names=[group])
        _until(
            "the group deleted once empty",
            lambda: conn.request(DELETE_GROUPS, deleting_group, 2).results[0].error_code == ErrorCode.NONE,
        )
        listed = conn.request(LIST_GROUPS, list_groups_request.ListGroupsRequest(types_filter=["share"]), 5)
        assert group not in [g.group_id for g in listed.groups]
        assert _describe(conn, group, topic) == {(topic, p): (-1, -1, 0) for p in range(PARTITIONS)}


def _lags(described: dict[tuple[str, int], tuple[int, int, int]]) -> int:
    """The summed lag (-1 while any partition is unknown)."""
    if any(lag < 0 for _, lag, _ in described.values()):
        return -1
    return sum(lag for _, lag, _ in described.values())


# ---- failover under a producer, on both clusters ------------------------------------------------


def _ids(c: Any) -> list[int]:
    return list(c.broker_ids) if hasattr(c, "broker_ids") else list(range(c.nodes))


def _partition_view(bootstrap: str, topic: str) -> tuple[int, int, int]:
    """(live brokers, leader, ISR size) of partition 0, as Metadata answers (-1s while unknown)."""
    try:
        with BrokerConnection.from_bootstrap(bootstrap, timeout=10) as conn:
            body = metadata_request.MetadataRequest(topics=[metadata_request.MetadataRequestTopic(name=topic)])
            md = conn.request(3, body, 12)
    except OSError:
        return -1, -1, -1
    t = md.topics[0]
    if t.error_code != ErrorCode.NONE or not t.partitions:
        return len(md.brokers), -1, -1
    p = t.partitions[0]
    return len(md.brokers), p.leader_id, len(p.isr_nodes)


def _restart(c: Any, node: int, bootstrap: str, topic: str) -> None:
    """Restart a killed node and wait until the partition has its whole ISR again."""
    c.start(node)
    _until(f"node {node} back in the ISR", lambda: _partition_view(bootstrap, topic)[::2] == (3, 3), 90)


class _Member(threading.Thread):
    """An explicit-mode ShareConsumer that accepts every record: its deliveries, and the values whose
    acceptance the share-partition leader confirmed (commit_sync answered without error)."""

    def __init__(self, bootstrap: str, group: str, topic: str) -> None:
        super().__init__(daemon=True)
        self.deliveries: list[tuple[int, int, float]] = []  # (value, delivery count, when)
        self.confirmed: dict[int, float] = {}  # value -> when its acceptance was confirmed
        self.stopping = threading.Event()
        self.c = ShareConsumer(
            {"bootstrap.servers": bootstrap, "group.id": group, "share.acknowledgement.mode": "explicit"}
        )
        self.c.subscribe([topic])

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                batch = []
                for m in self.c.poll(0.3):
                    if m.error() is not None:
                        continue  # a retriable error while a broker is down
                    value, count = m.value(), m.delivery_count()
                    assert value is not None and count is not None
                    self.deliveries.append((int(value), count, time.monotonic()))
                    self.c.acknowledge(m, AcknowledgeType.ACCEPT)
                    batch.append(int(value))
                if not batch:
                    continue
                try:
                    results = self.c.commit_sync(10)
                except KafkaException:
                    continue  # lost with its broker: the records may come again
                if results and all(error is None for error in results.values()):
                    now = time.monotonic()
                    self.confirmed.update(dict.fromkeys(batch, now))
        finally:
            self.c.close()


@pytest.mark.slow
def test_share_consumers_through_coordinator_and_leader_kills(any_cluster: Any) -> None:
    """Two ShareConsumers under an idempotent producer while (a) the group coordinator's broker and then
    (b) the share-partition's leader are SIGKILLed (each restarted after): every acknowledged record is
    delivered, none is delivered again after its acceptance was confirmed, and at the end the group's
    lag is 0 (every record acknowledged at the share coordinator)."""
    c = any_cluster
    ids = _ids(c)
    bootstrap = ",".join(c.bootstrap(i) for i in ids)
    topic = f"shcf-{uuid.uuid4().hex[:8]}"
    create_topic(bootstrap, topic, 1, 3)
    _until("a full ISR", lambda: _partition_view(bootstrap, topic)[::2] == (3, 3), 60)
    leader = _partition_view(bootstrap, topic)[1]
    group, coordinator = "", leader
    while coordinator == leader:  # a group whose coordinator is not the partition's leader
        group = f"shcf-g-{uuid.uuid4().hex[:8]}"
        coordinator = _coordinator(bootstrap, group)[0]
    _group_configs(bootstrap, group)

    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "enable.idempotence": True, "linger.ms": 5})
    acked: list[int] = []
    sent = [0]

    def on_delivery(err: Any, msg: Any) -> None:
        assert err is None, err
        acked.append(int(msg.value()))

    members = [_Member(bootstrap, group, topic) for _ in range(2)]
    for m in members:
        m.start()

    def delivered() -> set[int]:
        return {v for m in members for v, _, _ in m.deliveries}

    def produce_until(more: int) -> None:
        start, deadline = len(delivered()), time.monotonic() + 60
        while len(delivered()) < start + more:
            assert time.monotonic() < deadline, f"stuck at {len(delivered())} delivered"
            for _ in range(5):
                producer.produce(topic, str(sent[0]).encode(), partition=0, on_delivery=on_delivery)
                sent[0] += 1
            producer.poll(0.02)

    down: list[int] = []
    try:
        produce_until(30)
        _wait_state_topic_in_sync(bootstrap)  # the acceptances so far are on 3 replicas
        c.kill(coordinator)  # (a) the group coordinator's broker
        down.append(coordinator)
        others = ",".join(c.bootstrap(i) for i in ids if i != coordinator)
        _until("a new group coordinator", lambda: _coordinator(others, group)[0] != coordinator, 60)
        produce_until(50)
        _restart(c, coordinator, others, topic)
        down.remove(coordinator)
        _wait_state_topic_in_sync(bootstrap)  # a share coordinator's write kept by 3 replicas again
        leader = _partition_view(bootstrap, topic)[1]
        c.kill(leader)  # (b) the share-partition's leader
        down.append(leader)
        produce_until(50)
        assert producer.flush(60) == 0
        total = sent[0]
        assert sorted(acked) == list(range(total))
        _until(f"all {total} records delivered", lambda: delivered() == set(range(total)), 60)
    finally:
        for m in members:
            m.stopping.set()
        for m in members:
            m.join(30)
        for node in down:  # the cluster is shared with the other tests (Apache's: the session's)
            _restart(c, node, ",".join(c.bootstrap(i) for i in ids if i != node), topic)
    deliveries = [(v, n) for m in members for v, n, _ in m.deliveries]
    assert {v for v, _ in deliveries} == set(range(total))
    same = sorted({d for d in deliveries if deliveries.count(d) > 1})
    if hasattr(c, "broker_ids"):
        # ours only: Kafka does not promise it (a record acquired on a leader that dies before it
        # wrote the acquisition's state may come again with the same delivery count)
        assert not same, f"delivered twice on the same delivery: {same[:10]}"
    confirmed = {v: t for m in members for v, t in m.confirmed.items()}
    again = [(v, n) for m in members for v, n, t in m.deliveries if v in confirmed and t > confirmed[v]]
    assert not again, f"delivered again after its acceptance was confirmed: {again[:10]}"
    with BrokerConnection.from_bootstrap(_coordinator(bootstrap, group)[1], timeout=30) as conn:
        _until("every record acknowledged (lag 0)", lambda: _lags(_describe_one(conn, group, topic)) == 0, 30)


def _describe_one(conn: BrokerConnection, group: str, topic: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    body = describe_rq.DescribeShareGroupOffsetsRequest(
        groups=[
            describe_rq.DescribeShareGroupOffsetsRequestGroup(
                group_id=group,
                topics=[describe_rq.DescribeShareGroupOffsetsRequestTopic(topic_name=topic, partitions=[0])],
            )
        ]
    )
    g = conn.request(DESCRIBE, body, 1).groups[0]
    return {
        (t.topic_name, p.partition_index): (p.start_offset, p.lag, p.error_code) for t in g.topics for p in t.partitions
    }
