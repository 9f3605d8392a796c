"""The Raft core on the wire and on disk (issue 32): three RaftDrivers on loopback, each with its own
directory, speaking Kafka 4.3.1's Vote / BeginQuorumEpoch / EndQuorumEpoch / Fetch / FetchSnapshot.
Timeouts are Kafka's defaults / 10 so a failover takes well under a second; every wait polls a condition
with a deadline."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path

from broker_embedded.raft import RaftConfig, Role, wire
from broker_embedded.raft.driver import RaftDriver, read_frame
from kafka_wire.protocol.messages import describe_quorum_request as dq

CONFIG = RaftConfig(
    election_timeout_ms=150, election_backoff_max_ms=150, fetch_timeout_ms=300, fetch_max_wait_ms=100,
    request_timeout_ms=300,
)  # fmt: skip


def free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


class Quorum:
    def __init__(self, root: Path, n: int = 3) -> None:
        self.root = root
        self.voters = {i + 1: ("127.0.0.1", p) for i, p in enumerate(free_ports(n))}
        self.applied: dict[int, list[bytes]] = {i: [] for i in self.voters}
        self.loaded: dict[int, list[bytes]] = {i: [] for i in self.voters}
        self.drivers: dict[int, RaftDriver] = {}

    def make(self, node_id: int) -> RaftDriver:
        self.applied[node_id] = []

        def on_apply(entries: tuple, nid: int = node_id) -> None:
            self.applied[nid].extend(e.value for e in entries if not e.control)

        def on_load_snapshot(_sid: object, data: bytes, nid: int = node_id) -> None:
            self.loaded[nid].append(data)
            self.applied[nid] = [data]  # the snapshot stands for everything before it

        return RaftDriver(
            node_id,
            self.voters,
            self.root / f"c{node_id}",
            config=CONFIG,
            on_apply=on_apply,
            on_load_snapshot=on_load_snapshot,
        )

    async def start(self, node_id: int) -> RaftDriver:
        d = self.make(node_id)
        await d.start()
        self.drivers[node_id] = d
        return d

    async def stop(self, node_id: int, graceful: bool = False) -> None:
        await self.drivers.pop(node_id).stop(graceful=graceful)

    def leader(self) -> RaftDriver | None:
        leaders = [d for d in self.drivers.values() if d.node.role is Role.LEADER]
        return leaders[0] if len(leaders) == 1 else None


async def until(cond: Callable[[], object], timeout: float, what: str) -> object:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        v = cond()
        if v:
            return v
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.01)


def test_three_drivers_elect_commit_fail_over_and_catch_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        q = Quorum(tmp_path)
        for i in q.voters:
            await q.start(i)
        try:
            leader = await until(q.leader, 10, "a leader")
            assert isinstance(leader, RaftDriver)
            # every follower learns the leader
            await until(lambda: all(d.node.leader_id == leader.node_id for d in q.drivers.values()), 5, "followers")
            off = leader.append([b"a", b"b", b"c"])
            await leader.wait_committed(off, 5)
            await until(lambda: all(q.applied[i] == [b"a", b"b", b"c"] for i in q.voters), 5, "applied everywhere")

            # DescribeQuorum over the wire, as kafka-metadata-quorum asks it
            desc = await describe_over_wire(q.voters[leader.node_id])
            part = desc.topics[0].partitions[0]
            assert (part.error_code, part.leader_id) == (0, leader.node_id)
            assert sorted(r.replica_id for r in part.current_voters) == [1, 2, 3]
            assert part.high_watermark >= off + 1

            # the leader dies without a word: a successor within 2 x the fetch timeout (the election timeout
            # is half of it, as at Kafka's defaults), measured from the kill
            old = leader.node_id
            old_epoch = leader.node.epoch
            t0 = asyncio.get_running_loop().time()
            await q.stop(old, graceful=False)
            new = await until(q.leader, 10, "a new leader")
            assert isinstance(new, RaftDriver)
            took = asyncio.get_running_loop().time() - t0
            assert new.node_id != old and new.node.epoch > old_epoch
            off2 = new.append([b"d"])
            await new.wait_committed(off2, 5)  # 2 of 3 voters still commit
            # typically 0.4-0.6 s here (fetch timeout 300 ms + pre-vote + vote); the bound only catches a stall
            assert took < 5, f"failover took {took:.2f} s"

            # the old leader restarts from its directory (resigned), follows and catches up
            await q.start(old)
            await until(lambda: q.applied[old] == [b"a", b"b", b"c", b"d"], 10, "the restarted node caught up")
            assert q.drivers[old].node.role is Role.FOLLOWER
        finally:
            for i in list(q.drivers):
                await q.stop(i)

    asyncio.run(scenario())


async def describe_over_wire(addr: tuple[str, int]) -> dq.DescribeQuorumRequest:
    reader, writer = await asyncio.open_connection(*addr)
    body = dq.DescribeQuorumRequest(
        topics=[dq.TopicData(topic_name="__cluster_metadata", partitions=[dq.PartitionData()])]
    )
    writer.write(wire.encode_request(55, 2, 42, "test", body))
    frame = await asyncio.wait_for(read_frame(reader), 5)
    writer.close()
    assert frame is not None
    corr, resp = wire.decode_response(55, 2, frame)
    assert corr == 42
    return resp


def test_a_replica_behind_the_log_start_gets_the_snapshot_by_fetch_snapshot(tmp_path: Path) -> None:
    async def scenario() -> None:
        q = Quorum(tmp_path)
        for i in q.voters:
            await q.start(i)
        try:
            leader = await until(q.leader, 10, "a leader")
            assert isinstance(leader, RaftDriver)
            behind = next(i for i in q.voters if i != leader.node_id)
            await q.stop(behind)
            off = leader.append([b"x%d" % i for i in range(5)])
            await leader.wait_committed(off, 5)
            # the leader's state machine covers everything applied: snapshot it, the log before it goes
            sid = leader.create_snapshot(leader.node.applied_offset, b"state:x0-x4")
            assert leader.log.start_offset == sid.offset
            off = leader.append([b"y"])
            await leader.wait_committed(off, 5)
            await q.start(behind)
            await until(lambda: q.applied[behind] == [b"state:x0-x4", b"y"], 10, "snapshot + the entry after it")
            assert q.loaded[behind] == [b"state:x0-x4"]
            assert q.drivers[behind].log.latest_snapshot_id == sid  # installed on disk too
        finally:
            for i in list(q.drivers):
                await q.stop(i)

    asyncio.run(scenario())
