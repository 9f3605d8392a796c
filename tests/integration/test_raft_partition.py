"""Issue 32's headline scenario: a network partition that cuts off only the active controller.

Each of the three Raft controllers (`quorum="raft"`) runs on its own test host, a Linux network namespace with
its own address on a private bridge (testsupport/netns.py); brokers, clients and the test stay in the root
namespace. The active controller's link goes down (a real partition: its packets are dropped, the process runs
on) while acks=all idempotent producers write unique values and a reader follows. Then:

- the majority elects a new controller leader within a few broker session timeouts;
- no broker is fenced (the majority's controllers never fence one) and every partition keeps its leader epoch;
- acks=all produce goes on during the partition, and a topic created then reaches every broker's metadata;
- the cut-off leader steps down by itself (check-quorum; asked from inside its namespace), and once healed it
  follows the new leader with the same metadata (the three controllers' images, and the images the brokers
  replay from `__cluster_metadata` as observers, become identical);
- brokers take every metadata image from `__cluster_metadata` as Raft observers (the controllers' JSON push is
  off: `controller.metadata.push.enable=false`);
- then a follower controller is cut off for 5 fetch timeouts: healed, it catches up without raising the epoch
  or moving the leadership (pre-vote over a real network);
- the checker (testsupport/jepsen.py): 0 acknowledged writes lost, 0 duplicates, no acknowledged offset moved,
  the replicas' logs identical byte for byte, nothing the reader saw later lost.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.cluster import ControllerHost, EmbeddedCluster
from kafka_wire.client import BrokerConnection
from kafka_wire.protocol.messages import describe_quorum_request as dq
from tests.integration import wire_util as w
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from testsupport import netns
from testsupport.jepsen import Reader, Writers, check, read_replica

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]

TOPIC = "jepsen"
PARTITIONS = 2
SESSION_S = 1.5  # cluster_util.FAST's broker.session.timeout.ms
# Kafka's controller.quorum.* defaults / 5 (as test_raft_cluster.py): check-quorum after 1.5 x 400 ms
RAFT = {
    "controller.quorum.election.timeout.ms": 200,
    "controller.quorum.fetch.timeout.ms": 400,
    "controller.quorum.request.timeout.ms": 400,
}

NO_PUSH = {"controller.metadata.push.enable": "false"}

# run inside a host's namespace: is the controller there active? (the JSON controller protocol's describe)
_ASK = """
import json, socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), 3)
body = json.dumps({"op": "describe", "id": 1}).encode()
s.sendall(struct.pack(">I", len(body)) + body)
def exact(n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c:
            raise SystemExit("closed")
        b += c
    return b
(n,) = struct.unpack(">I", exact(4))
print(json.loads(exact(n)).get("error") or 0)
"""


def _skip_reason() -> str | None:
    return netns.available()


def _describe_elsewhere(c: EmbeddedCluster, isolated: int) -> tuple[int, dict[str, Any]] | None:
    """(index, image) of the active controller among the reachable ones (each asked with a short timeout)."""
    for i in c.controller_ids:
        if i == isolated or not c.controller_running(i):
            continue
        try:
            return i, c._request_to(c.controller_ports[i], "describe", 1.0, host=c.controller_host(i))["image"]
        except (OSError, RuntimeError):
            continue
    return None


def _leader_epochs(image: dict[str, Any]) -> dict[int, int]:
    topic = next(t for t in image["topics"] if t["name"] == TOPIC)
    return {p: int(s["leader_epoch"]) for p, s in enumerate(topic["partitions"])}


def _live(image: dict[str, Any]) -> list[int]:
    return sorted(int(b["node_id"]) for b in image["brokers"] if not b["fenced"])


def _error_seen_inside(hosts: netns.TestHosts, name: str, c: EmbeddedCluster, i: int) -> int | None:
    """The controller's answer to describe, asked from inside its own namespace (0: active)."""
    argv = hosts.wrap(name, [sys.executable, "-c", _ASK, c.controller_host(i), str(c.controller_ports[i])])
    r = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    return int(r.stdout.strip()) if r.returncode == 0 and r.stdout.strip() else None


def _images(c: EmbeddedCluster) -> list[dict[str, Any]]:
    """Every controller's committed metadata image, then every broker's (each broker observes the metadata log)."""
    paths = [c.log_dir / f"controller-{i}" / "controller-state.json" for i in c.controller_ids]
    paths += [
        c.broker_log_dir(b) / "metadata-observer" / "metadata-image" / "controller-state.json" for b in c.broker_ids
    ]
    out = []
    for path in paths:
        try:
            out.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            out.append({})
    return out


def _fencings(c: EmbeddedCluster, i: int) -> list[str]:
    log = c.log_dir / ("controller.log" if i == 0 else f"controller-{i}.log")
    text = log.read_text(errors="replace") if log.exists() else ""
    return [line for line in text.splitlines() if "missed its session timeout: fencing" in line]


def _end_offsets(c: EmbeddedCluster) -> dict[int, int]:
    out = {}
    for p in range(PARTITIONS):
        with BrokerConnection.from_bootstrap(c.bootstrap(c.leader(TOPIC, p)), timeout=5) as conn:
            out[p] = w.list_offset(conn, TOPIC, p)
    return out


@pytest.mark.skipif(_skip_reason() is not None, reason=str(_skip_reason()))
def test_isolating_the_active_controller(tmp_path: Path) -> None:
    t_start = time.monotonic()
    with netns.TestHosts([f"c{i}" for i in range(3)]) as hosts:
        placed = {i: ControllerHost(hosts.address(f"c{i}"), tuple(hosts.wrap(f"c{i}", []))) for i in range(3)}
        # brokers take their metadata from the log alone (quorum="raft"'s default, said here for the reader)
        configs = {"min.insync.replicas": 2, "default.replication.factor": 3, **NO_PUSH, **RAFT}
        with cluster(3, controllers=3, quorum="raft", controller_hosts=placed, log_dir=tmp_path, **configs) as c:
            assert all(c.controller_host(i) == hosts.address(f"c{i}") for i in range(3))
            first = c.wait_for(
                lambda: (c.active_controller(),) if c.active_controller() is not None else None,
                timeout=20,
                what="an active controller",
            )[0]
            create_topic(c.bootstrap_servers, TOPIC, partitions=PARTITIONS, rf=3)
            wait_full_isr(c, TOPIC, PARTITIONS)
            epochs = _leader_epochs(c.describe())
            writers = Writers(c.bootstrap_servers, TOPIC).start()
            reader = Reader(c.bootstrap_servers, TOPIC, PARTITIONS).start()
            try:
                writers.wait_for_acks(200, 30)

                # --- the partition: only the active controller is cut off
                hosts.isolate(f"c{first}")
                t0 = time.monotonic()
                second = c.wait_for(
                    lambda: _describe_elsewhere(c, first), timeout=20, what="a new leader on the majority side"
                )[0]
                failover = time.monotonic() - t0
                assert failover < 4 * SESSION_S, f"a new controller leader took {failover:.2f} s"
                # the old leader cannot reach a majority: check-quorum makes it resign (seen from its own host)
                c.wait_for(
                    lambda: _error_seen_inside(hosts, f"c{first}", c, first) not in (None, 0),
                    timeout=15,
                    interval=0.2,
                    what="the isolated controller to step down",
                )
                stepped_down = time.monotonic() - t0
                # produce goes on, and after three session timeouts of partition no broker was fenced
                acked_at_cut = writers.count()
                writers.wait_for_acks(acked_at_cut + 200, 20)
                while time.monotonic() < t0 + 3 * SESSION_S:
                    time.sleep(0.1)
                now, image = c.wait_for(lambda: _describe_elsewhere(c, first), timeout=5, what="the new leader")
                assert now == second, f"leadership moved again during the partition: {second} -> {now}"
                assert _live(image) == [1, 2, 3], f"a broker was fenced although it reaches the majority: {image}"
                assert _leader_epochs(image) == epochs
                during = writers.count() - acked_at_cut
                # metadata changes go on through the new leader and reach every broker through the log alone
                create_topic(c.bootstrap_servers, "during-partition", rf=3)
                c.wait_for(
                    lambda: all(_led_on(c, b, "during-partition") for b in c.broker_ids),
                    timeout=20,
                    what="the topic created during the partition in every broker's metadata",
                )

                # --- heal: the old leader follows the new one, the three images become the same
                hosts.heal(f"c{first}")
                c.wait_for(
                    lambda: _error_seen_inside(hosts, f"c{first}", c, first) not in (None, 0),
                    timeout=10,
                    interval=0.2,
                    what="the healed controller still a follower",
                )
                c.wait_for(
                    lambda: _images_agree(c),
                    timeout=20,
                    interval=0.2,
                    what="identical images on controllers and brokers",
                )
                assert c.active_controller(timeout=1.0) == second
                writers.wait_for_acks(writers.count() + 100, 20)

                # --- a follower controller cut off for 5 fetch timeouts: it pre-votes in vain, and rejoining
                # it neither raises the epoch nor moves the leadership (KIP-996; the first complaint)
                quorum_before = _quorum(c, second)
                follower = next(i for i in c.controller_ids if i not in (first, second))
                hosts.isolate(f"c{follower}")
                cut = time.monotonic()
                writers.wait_for_acks(writers.count() + 100, 20)
                while time.monotonic() < cut + 5 * RAFT["controller.quorum.fetch.timeout.ms"] / 1000:
                    time.sleep(0.1)
                hosts.heal(f"c{follower}")
                healed_ms = time.time() * 1000
                # it fetches from the same leader again (a disruptive rejoin would have deposed that leader first)
                c.wait_for(
                    lambda: _fetched_since(c, second, follower, healed_ms),
                    timeout=15,
                    what="the healed follower fetching from the same leader",
                )
                assert _quorum(c, second)[:2] == quorum_before[:2], "the rejoining follower disturbed the leader"
            except BaseException:
                reader.stop()
                raise
            finally:
                writers.stop()
            assert not writers.errors, writers.errors[:5]
            for i in c.controller_ids:  # the majority side never fenced anyone
                if i != first:
                    assert not _fencings(c, i), f"controller {i}: {_fencings(c, i)[:3]}"
            assert _leader_epochs(c.describe()) == epochs
            wait_full_isr(c, TOPIC, PARTITIONS)
            ends = c.wait_for(lambda: _settled(c, writers), timeout=20, what="every partition's HW at its end")
            reader.drain_until(ends, 20)
            reader.stop()
            leaders = {p: c.leader(TOPIC, p) for p in range(PARTITIONS)}
            for b in c.broker_ids:  # nothing is in flight: a kill leaves the logs as they are
                c.kill(b)
            replicas = {
                p: {b: read_replica(c.broker_log_dir(b) / f"{TOPIC}-{p}") for b in [leaders[p], *c.broker_ids]}
                for p in range(PARTITIONS)
            }

    report = check(writers.acked, reader.seen, replicas)
    assert report.ok, report.summary() + f" lost e.g. {report.lost[:3]}, divergent {report.divergent[:2]}"
    assert report.records == report.acked, report.summary()  # every write was acknowledged at the end
    assert not reader.errors, reader.errors[:5]
    assert len(reader.seen) == report.records
    print(
        f"\ncontroller {first} cut off: controller {second} active after {failover:.2f} s, the old one stepped "
        f"down after {stepped_down:.2f} s (probe from its namespace included); {during} writes acknowledged "
        f"during the partition; {report.summary()}; {time.monotonic() - t_start:.1f} s"
    )


def _quorum(c: EmbeddedCluster, i: int) -> tuple[int, int, dict[int, int]]:
    """(leader id, epoch, voter -> last fetch, wall ms) by DescribeQuorum on controller `i`'s Raft listener;
    ValueError when `i` does not answer as the leader."""
    with BrokerConnection(c.controller_host(i), c.raft_ports[i], timeout=5) as conn:
        body = dq.DescribeQuorumRequest(
            topics=[dq.TopicData(topic_name="__cluster_metadata", partitions=[dq.PartitionData()])]
        )
        p = conn.request(55, body).topics[0].partitions[0]
    if p.error_code or p.leader_id != i:
        raise ValueError(f"controller {i} does not lead (error {p.error_code}, leader {p.leader_id})")
    return p.leader_id, p.leader_epoch, {v.replica_id: v.last_fetch_timestamp for v in p.current_voters}


def _fetched_since(c: EmbeddedCluster, leader: int, follower: int, since_ms: float) -> bool:
    return _quorum(c, leader)[2].get(follower, -1) > since_ms


def _led_on(c: EmbeddedCluster, broker: int, topic: str) -> bool:
    """Whether broker `broker` itself (its Metadata answer) knows `topic` with a leader."""
    with BrokerConnection.from_bootstrap(c.bootstrap(broker), timeout=5) as conn:
        md = w.metadata(conn, [topic])
    return any(t.name == topic and not t.error_code and t.partitions[0].leader_id >= 0 for t in md.topics)


def _images_agree(c: EmbeddedCluster) -> bool:
    images = _images(c)
    return bool(images[0]) and all(img == images[0] for img in images)


def _settled(c: EmbeddedCluster, writers: Writers) -> dict[int, int] | None:
    """Each partition's end offset once the HW covers every acknowledged write."""
    ends = _end_offsets(c)
    top: dict[int, int] = {}
    for p, o, _ in writers.acked:
        if o is not None:
            top[p] = max(top.get(p, -1), o)
    return ends if all(ends.get(p, 0) > o for p, o in top.items()) else None
