"""EmbeddedCluster(controllers=3, quorum="raft") (issue 32, opt-in): three controller processes, each with its
own directory, form a Raft quorum; the brokers find whichever controller leads. SIGKILL the active
controller: another one takes over from the replicated metadata log (same topic ids), the brokers
re-register there, produce goes on and topic admin works through the new leader. SIGSTOP the next active
one: a new leader, no broker fenced, no partition leader change (the issue's isolated-controller case)."""

from __future__ import annotations

import os
import signal
import time

import pytest
from confluent_kafka import Producer

from tests.integration.cluster_util import cluster, create_topic

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


def test_raft_controllers_fail_over_without_shared_state() -> None:
    with cluster(2, controllers=3, quorum="raft", **{"min.insync.replicas": 1, **RAFT}) as c:
        assert [p.name for p in c.log_dir.iterdir() if p.name.startswith("controller-") and p.is_dir()]
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

        # the active controller paused (as cut off from everyone): the others elect a new leader, the brokers
        # (which saw it ack heartbeats) leave the silent one within a third of their session, so none is
        # fenced and no partition changes leader; when it resumes it follows the new leader
        epochs = {t: c.partition_state(t, 0)["leader_epoch"] for t in ("before", "after")}
        pid = c.controller_pid(second)
        os.kill(pid, signal.SIGSTOP)
        try:
            third = c.wait_for(
                lambda: (lambda i: (i,) if i not in (None, second) else None)(c.active_controller(timeout=0.5)),
                timeout=20,
                what="a leader while the old one is paused",
            )[0]
            # three session timeouts (1.5 s each): time enough for the new leader to fence anyone absent
            deadline = time.monotonic() + 4.5
            while time.monotonic() < deadline:
                assert c.live_brokers() == [1, 2], "a broker was fenced although it could reach the majority"
                time.sleep(0.2)
            assert {t: c.partition_state(t, 0)["leader_epoch"] for t in ("before", "after")} == epochs
            assert _produce(c.bootstrap_servers, "before", 20) == 20
        finally:
            os.kill(pid, signal.SIGCONT)
        c.wait_for(lambda: c.active_controller() == third, timeout=10, what="the resumed one a follower")
