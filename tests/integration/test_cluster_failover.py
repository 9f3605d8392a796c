"""Broker failures in a 3-broker cluster: a follower or a leader stopped cleanly or killed (-9),
elections from the ISR with leader epoch bumps, an offline partition, a restarted controller, and
consumer groups whose coordinator dies."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient

from broker_embedded import EmbeddedCluster
from kafka_wire.errors import ErrorCode
from tests.integration import wire_util as w
from tests.integration.cluster_util import StreamingProducer, cluster, create_topic, wait_full_isr

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]


@pytest.fixture()
def c(request: pytest.FixtureRequest) -> Iterator[EmbeddedCluster]:
    """A 3-broker cluster; a test may override configs with indirect parametrization."""
    overrides = getattr(request, "param", {})
    with cluster(3, **{"min.insync.replicas": 2, **overrides}) as c:
        yield c


def _epoch(c: EmbeddedCluster, topic: str, p: int = 0) -> int:
    return int(c.partition_state(topic, p)["leader_epoch"])


def _read_all(bootstrap: str, topic: str, n: int, timeout: float = 30.0) -> list[bytes]:
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"read-{time.monotonic_ns()}", "enable.auto.commit": False}
    )
    try:
        consumer.assign([TopicPartition(topic, 0, 0)])
        out: list[bytes] = []
        deadline = time.monotonic() + timeout
        while len(out) < n and time.monotonic() < deadline:
            m = consumer.poll(0.5)
            if m is not None and not m.error():
                out.append(m.value())
        return out
    finally:
        consumer.close()


def test_follower_killed_then_restarted_rejoins_isr(c: EmbeddedCluster) -> None:
    create_topic(c.bootstrap_servers, "f", rf=3)
    wait_full_isr(c, "f")
    leader = c.leader("f", 0)
    follower = next(b for b in c.isr("f", 0) if b != leader)
    prod = StreamingProducer(c.bootstrap_servers, "f").start()
    try:
        prod.wait_for_acks(200, 20)
        epoch = _epoch(c, "f")
        c.kill(follower)
        c.wait_for(lambda: follower not in c.isr("f", 0), timeout=15, what="the dead follower leaves the ISR")
        assert c.leader("f", 0) == leader and _epoch(c, "f") == epoch, "a follower's death must not move leadership"
        n = prod.count()
        prod.wait_for_acks(n + 200, 20)  # min.insync.replicas=2 still met by leader + other follower
        c.start(follower)
        wait_full_isr(c, "f", timeout=30)
        n = prod.count()
        prod.wait_for_acks(n + 200, 20)
    finally:
        prod.stop()
    assert not prod.errors
    values = _read_all(c.bootstrap_servers, "f", len(prod.acked))
    assert values == prod.acked_in_log_order()


# A controlled shutdown is told apart from a session expiry by time, so the "stop" cluster gets a
# 10 s broker session: leadership must move in a fraction of it, a margin no CPU load closes.
SLOW_SESSION = {"broker.session.timeout.ms": 10_000}


@pytest.mark.parametrize(("how", "c"), [("kill", {}), ("stop", SLOW_SESSION)], indirect=["c"], ids=["kill", "stop"])
def test_leader_dies_new_leader_from_isr(c: EmbeddedCluster, how: str) -> None:
    create_topic(c.bootstrap_servers, "l", rf=3)
    wait_full_isr(c, "l")
    old = c.leader("l", 0)
    isr_before = c.isr("l", 0)
    epoch = _epoch(c, "l")
    prod = StreamingProducer(c.bootstrap_servers, "l").start()
    try:
        prod.wait_for_acks(200, 20)
        t0 = time.monotonic()
        # signalled from a thread: c.stop() returns when the process has exited, leadership moves before
        stopper = threading.Thread(target=c.kill if how == "kill" else c.stop, args=(old,))
        stopper.start()
        new = c.wait_for(
            lambda: (lambda ld: ld if ld not in (-1, old) else None)(c.leader("l", 0)),
            timeout=15,
            what="a new leader",
        )
        elapsed = time.monotonic() - t0
        assert new in isr_before
        assert _epoch(c, "l") == epoch + 1
        assert old not in c.isr("l", 0)
        stopper.join(30)
        if how == "stop":
            # a controlled shutdown moves leadership before the process exits, not a session later
            assert elapsed < 5.0, elapsed  # a session expiry would take >= 10 s - one heartbeat
        # clients follow: metadata from the survivors names the new leader and its epoch
        md = AdminClient({"bootstrap.servers": c.bootstrap(new)}).list_topics("l", timeout=10)
        assert md.topics["l"].partitions[0].leader == new
        n = prod.count()
        prod.wait_for_acks(n + 200, 30)
        c.start(old)
        wait_full_isr(c, "l", timeout=30)
        assert c.leader("l", 0) == new, "a returning broker does not take leadership back by itself"
        # the preferred leader election (auto.leader.rebalance.enable; run now instead of every 300 s)
        epoch = _epoch(c, "l")
        assert c.elect_preferred_leaders() == (1 if c.partition_state("l", 0)["replicas"][0] == old else 0)
        if c.partition_state("l", 0)["replicas"][0] == old:
            assert c.leader("l", 0) == old and _epoch(c, "l") == epoch + 1
        n = prod.count()
        prod.wait_for_acks(n + 100, 30)
    finally:
        prod.stop()
    assert not prod.errors
    values = _read_all(c.bootstrap_servers, "l", len(prod.acked))
    assert values == prod.acked_in_log_order()


def test_offline_partition_and_its_return(c: EmbeddedCluster) -> None:
    create_topic(c.bootstrap_servers, "solo", rf=1, **{"min.insync.replicas": "1"})
    owner = c.leader("solo", 0)
    p = Producer({"bootstrap.servers": c.bootstrap_servers, "acks": "all"})
    for i in range(10):
        p.produce("solo", value=b"%d" % i)
    assert p.flush(20) == 0
    c.kill(owner)
    c.wait_for(lambda: c.leader("solo", 0) == -1, timeout=15, what="the partition goes offline")
    assert c.isr("solo", 0) == [owner], "the last ISR member stays in the ISR"
    other = next(b for b in c.broker_ids if b != owner)
    with w.connect(c.bootstrap(other)) as conn:
        md = w.metadata(conn, ["solo"])
        part = md.topics[0].partitions[0]
        assert part.error_code == ErrorCode.LEADER_NOT_AVAILABLE
        assert part.leader_id == -1
        assert list(part.offline_replicas) == [owner]
        assert owner not in [b.node_id for b in md.brokers]
    c.start(owner)
    c.wait_for(lambda: c.leader("solo", 0) == owner, timeout=15, what="the partition back online")
    assert _read_all(c.bootstrap_servers, "solo", 10) == [b"%d" % i for i in range(10)]


def test_unclean_leader_election_when_enabled() -> None:
    with cluster(2) as c:
        create_topic(c.bootstrap_servers, "u", rf=2, **{"unclean.leader.election.enable": "true"})
        wait_full_isr(c, "u", size=2)
        first = c.leader("u", 0)
        second = next(b for b in c.broker_ids if b != first)
        c.kill(second)
        c.wait_for(lambda: c.isr("u", 0) == [first], timeout=15, what="ISR shrinks to the leader")
        c.kill(first)
        c.wait_for(lambda: c.leader("u", 0) == -1, timeout=15, what="offline")
        c.start(second)  # out of sync, but unclean election is allowed for this topic
        c.wait_for(lambda: c.leader("u", 0) == second, timeout=15, what="unclean election of the restarted replica")
        assert c.isr("u", 0) == [second]


def test_controller_restart(c: EmbeddedCluster) -> None:
    create_topic(c.bootstrap_servers, "cr", rf=3)
    wait_full_isr(c, "cr")
    prod = StreamingProducer(c.bootstrap_servers, "cr").start()
    try:
        prod.wait_for_acks(100, 20)
        for i in c.controller_ids:  # the active one and every standby: no controller at all
            c.kill_controller(i)
        # brokers keep serving with their last image: acks=all keeps working
        n = prod.count()
        prod.wait_for_acks(n + 300, 20)
        # admin needs the controller: answered with an error, not hung
        with w.connect(c.bootstrap(1)) as conn:
            from kafka_wire.protocol.messages import create_topics_request as ct

            resp = conn.request(
                19,
                ct.CreateTopicsRequest(
                    topics=[ct.CreatableTopic(name="while-down", num_partitions=1, replication_factor=1)],
                    timeout_ms=1000,
                ),
            )
            assert resp.topics[0].error_code == ErrorCode.REQUEST_TIMED_OUT
        c.start_controller()  # reloads its persisted state; brokers reconnect and re-register
        c.wait_for(lambda: c.live_brokers() == [1, 2, 3], timeout=15, what="brokers re-registered")
        assert c.isr("cr", 0) and c.leader("cr", 0) >= 0
        # and it still elects: kill the leader
        old = c.leader("cr", 0)
        c.kill(old)
        c.wait_for(lambda: c.leader("cr", 0) not in (-1, old), timeout=15, what="election after controller restart")
        n = prod.count()
        prod.wait_for_acks(n + 200, 30)
    finally:
        prod.stop()
    assert not prod.errors


@pytest.mark.timeout(60)
def test_standby_controller_takes_over(c: EmbeddedCluster) -> None:
    """SIGKILL the active controller, then a partition leader: the standby (which took the lock)
    elects a new leader from the ISR, acks=all produces go on, and admin works through it."""
    assert c.controller_ids == [0, 1] and c.active_controller() == 0
    create_topic(c.bootstrap_servers, "sb", rf=3)
    wait_full_isr(c, "sb")
    prod = StreamingProducer(c.bootstrap_servers, "sb").start()
    try:
        prod.wait_for_acks(100, 20)
        assert c.kill_controller() == 0
        c.wait_for(lambda: c.active_controller() == 1, timeout=5, what="the standby controller active")
        c.wait_for(lambda: c.live_brokers() == [1, 2, 3], timeout=10, what="brokers registered with the standby")
        old = c.leader("sb", 0)
        isr_before = c.isr("sb", 0)
        epoch = _epoch(c, "sb")
        c.kill(old)
        # the new active controller fences the dead leader after its session timeout (1.5 s)
        new = c.wait_for(
            lambda: (lambda x: x if x not in (-1, old) else None)(c.leader("sb", 0)),
            timeout=8,
            what="a new leader elected by the new active controller",
        )
        assert new in isr_before and old not in c.isr("sb", 0)
        assert _epoch(c, "sb") > epoch
        n = prod.count()
        prod.wait_for_acks(n + 200, 15)
        # topic admin is forwarded to the new active controller
        create_topic(c.bootstrap(new), "after-failover", rf=2)
        c.wait_for(lambda: c.leader("after-failover", 0) >= 0, timeout=5, what="the new topic led")
    finally:
        prod.stop()
    assert not prod.errors


def test_consumer_group_survives_its_coordinator(c: EmbeddedCluster) -> None:
    create_topic(c.bootstrap_servers, "g", partitions=2, rf=3)
    wait_full_isr(c, "g", 2)
    p = Producer({"bootstrap.servers": c.bootstrap_servers, "acks": "all"})
    for i in range(40):
        p.produce("g", key=b"%d" % i, value=b"v%d" % i)
    assert p.flush(20) == 0
    conf = {
        "bootstrap.servers": c.bootstrap_servers,
        "group.id": "survivor",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        "session.timeout.ms": 6000,
    }
    consumer = Consumer(conf)
    consumer.subscribe(["g"])
    got = 0
    deadline = time.monotonic() + 30
    while got < 40 and time.monotonic() < deadline:
        m = consumer.poll(0.5)
        if m is not None and not m.error():
            got += 1
    assert got == 40
    consumer.commit(asynchronous=False)
    consumer.close()
    # the group's coordinator = leader of its __consumer_offsets partition; kill it
    from broker_embedded.group.offsets_topic import partition_for_group

    n = c.partition_count("__consumer_offsets")
    coordinator = c.leader("__consumer_offsets", partition_for_group("survivor", n))
    c.kill(coordinator)
    c.wait_for(
        lambda: c.leader("__consumer_offsets", partition_for_group("survivor", n)) not in (-1, coordinator),
        timeout=15,
        what="a new coordinator",
    )
    consumer = Consumer(conf)
    try:
        committed = consumer.committed([TopicPartition("g", 0), TopicPartition("g", 1)], timeout=20)
        assert sum(tp.offset for tp in committed) == 40, committed
    finally:
        consumer.close()
