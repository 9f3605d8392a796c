"""EmbeddedCluster(controllers=3, quorum="raft") (issue 32, opt-in): three controller processes, each with its
own directory, form a Raft quorum; the brokers find whichever controller leads, registering and heartbeating
by BrokerRegistration/BrokerHeartbeat (62/63) as KRaft brokers do.

- SIGKILL a broker: it misses its heartbeats, the quorum fences it and its partition's leadership moves (as a
  confluent-kafka client sees it); restarted, it registers again and is unfenced once caught up.
- SIGKILL the active controller: another one takes over from the replicated metadata log (same topic ids),
  the brokers heartbeat to it, produce goes on and topic admin works through the new leader.
- SIGSTOP the next active one: a new leader, no broker fenced, no partition leader change (the issue's
  isolated-controller case).

Both tests share one cluster (the broker test first): a raft cluster's start is most of their time."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient

from broker_embedded import EmbeddedCluster
from kafka_wire.errors import ErrorCode
from tests.integration.cluster_util import cluster, create_topic
from tests.unit.test_raft_cluster_id import ask, vote_body

pytestmark = [pytest.mark.timeout(120)]

# Kafka's controller.quorum.* defaults / 5: a failover in about a second on a loaded machine
RAFT = {
    "controller.quorum.election.timeout.ms": 200,
    "controller.quorum.fetch.timeout.ms": 400,
    "controller.quorum.request.timeout.ms": 400,
}


def _produce(bootstrap: str, topic: str, n: int) -> int:
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all", "message.timeout.ms": 20000})
    acked = []
    for i in range(n):
        p.produce(topic, f"m{i}".encode(), on_delivery=lambda err, _m: acked.append(err is None))
    p.flush(30)
    return sum(acked)


@pytest.fixture(scope="module")
def raft_cluster() -> Iterator[EmbeddedCluster]:
    with cluster(2, controllers=3, quorum="raft", **{"min.insync.replicas": 1, **RAFT}) as c:
        yield c


def test_a_killed_broker_is_fenced_by_missed_heartbeats_and_unfenced_when_back(raft_cluster: EmbeddedCluster) -> None:
    c = raft_cluster
    create_topic(c.bootstrap_servers, "hb", rf=2)
    admin = AdminClient({"bootstrap.servers": c.bootstrap_servers})

    def seen() -> tuple[list[int], int, list[int]]:
        """The live brokers and the partition's leader and ISR, as a client's Metadata shows them."""
        p = admin.list_topics("hb", timeout=5).topics["hb"].partitions[0]
        return sorted(admin.list_topics(timeout=5).brokers), p.leader, sorted(p.isrs)

    victim = c.wait_for(lambda: seen()[2] == [1, 2] and seen()[1], timeout=20, what="hb led with both in the ISR")
    survivor = 3 - victim
    epoch = c.partition_state("hb", 0)["leader_epoch"]
    registration = {b["node_id"]: b["broker_epoch"] for b in c.describe()["brokers"]}[victim]

    c.kill(victim)  # no controlled shutdown: only the missed heartbeats tell the quorum
    c.wait_for(lambda: seen() == ([survivor], survivor, [survivor]), timeout=20, what="the client sees it fenced")
    assert c.live_brokers() == [survivor] and c.partition_state("hb", 0)["leader_epoch"] > epoch
    assert _produce(c.bootstrap_servers, "hb", 10) == 10

    c.start(victim)
    c.wait_for(lambda: seen()[0] == [1, 2], timeout=20, what="the client sees it unfenced")
    c.wait_for(lambda: c.isr("hb", 0) and sorted(c.isr("hb", 0)) == [1, 2], timeout=20, what="back in the ISR")
    # a new incarnation: a new registration record, whose offset is the new broker epoch
    assert {b["node_id"]: b["broker_epoch"] for b in c.describe()["brokers"]}[victim] > registration


def test_raft_controllers_fail_over_without_shared_state(raft_cluster: EmbeddedCluster) -> None:
    c = raft_cluster
    assert [p.name for p in c.log_dir.iterdir() if p.name.startswith("controller-") and p.is_dir()]
    # every node has the cluster's id (cluster.id, as kafka-storage format gives it): the Raft listeners refuse
    # another cluster's requests and serve this one's
    cluster_id = c.describe()["cluster_id"]
    voter = ("127.0.0.1", c.raft_ports[0])
    assert asyncio.run(ask(voter, 52, vote_body("another-cluster"))).error_code == ErrorCode.INCONSISTENT_CLUSTER_ID
    assert asyncio.run(ask(voter, 52, vote_body(cluster_id))).error_code == 0
    first = c.wait_for(
        lambda: (c.active_controller(),) if c.active_controller() is not None else None,
        timeout=20,
        what="an active controller",
    )[0]
    create_topic(c.bootstrap_servers, "before", rf=2)
    c.wait_for(lambda: c.leader("before", 0) >= 0, timeout=10, what="the topic led")
    topic_id = next(t["topic_id"] for t in c.describe()["topics"] if t["name"] == "before")
    assert _produce(c.bootstrap_servers, "before", 20) == 20

    t0 = time.monotonic()
    assert c.kill_controller() == first
    second = c.wait_for(
        lambda: (lambda i: (i,) if i not in (None, first) else None)(c.active_controller()),
        timeout=20,
        what="another controller active",
    )[0]
    took = time.monotonic() - t0
    assert second != first and took < 20
    c.wait_for(lambda: c.live_brokers() == [1, 2], timeout=20, what="brokers registered with the new leader")
    # the metadata came through the Raft log: the topic is there with its id and partition state
    assert c.leader("before", 0) >= 0
    assert next(t["topic_id"] for t in c.describe()["topics"] if t["name"] == "before") == topic_id
    assert _produce(c.bootstrap_servers, "before", 20) == 20
    create_topic(c.bootstrap_servers, "after", rf=2)
    c.wait_for(lambda: c.leader("after", 0) >= 0, timeout=10, what="a topic created through the new leader")
    # the killed controller comes back as a follower of the quorum
    c.start_controller(first)
    c.wait_for(lambda: c.active_controller() == second, timeout=10, what="the leader kept after the restart")
    print(f"controller failover: {took:.2f} s")

    # the active controller paused (as cut off from everyone): the others elect a new leader, the brokers'
    # BrokerHeartbeats to the silent one time out within a third of their session and go to the new leader, so
    # none is fenced and no partition changes leader; when it resumes it follows the new leader
    epochs = {t: c.partition_state(t, 0)["leader_epoch"] for t in ("before", "after")}
    pid = c.controller_pid(second)
    os.kill(pid, signal.SIGSTOP)
    try:
        third = c.wait_for(
            lambda: (lambda i: (i,) if i not in (None, second) else None)(c.active_controller(timeout=0.5)),
            timeout=20,
            what="a leader while the old one is paused",
        )[0]
        # a session timeout (1.5 s) and a third from the new leader's activation, when it starts every session
        # afresh: time enough for it to fence anyone whose heartbeats do not reach it (it checks every 0.1 s)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            assert c.live_brokers() == [1, 2], "a broker was fenced although it could reach the majority"
            time.sleep(0.2)
        assert {t: c.partition_state(t, 0)["leader_epoch"] for t in ("before", "after")} == epochs
        assert _produce(c.bootstrap_servers, "before", 20) == 20
    finally:
        os.kill(pid, signal.SIGCONT)
    c.wait_for(lambda: c.active_controller() == third, timeout=10, what="the resumed one a follower")
