"""The cluster-id check on the Raft listener (issue 32): Kafka's KafkaRaftClient.hasValidClusterId. A Vote,
BeginQuorumEpoch, EndQuorumEpoch, Fetch or FetchSnapshot naming another cluster gets only the top-level
INCONSISTENT_CLUSTER_ID (104); one without a cluster id is served. A controller formatted for another cluster
therefore neither joins the quorum nor disturbs it."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.apis import vote
from broker_embedded.raft import Role, wire
from broker_embedded.raft import messages as m
from broker_embedded.raft.codecs import fetch_snapshot_request as fsq
from broker_embedded.raft.driver import RaftDriver, read_frame
from broker_embedded.raft.fetch_wire import to_wire_request as fetch_request
from kafka_wire.errors import ErrorCode
from tests.unit.test_raft_driver import CONFIG, free_ports, until


async def ask(addr: tuple[str, int], api_key: int, body: Any) -> Any:
    reader, writer = await asyncio.open_connection(*addr)
    try:
        version = wire.SEND_VERSIONS[api_key]
        writer.write(wire.encode_request(api_key, version, 7, "test", body))
        frame = await asyncio.wait_for(read_frame(reader), 5)
        assert frame is not None
        return wire.decode_response(api_key, version, frame)[1]
    finally:
        writer.close()


def vote_body(cluster_id: str | None, candidate: int = 9) -> Any:
    # a pre-vote at a high epoch from a replica that is no voter: served, it would be refused on its merits
    return vote.to_wire_request(m.VoteRequest(1, candidate, 50, 0, 0, pre_vote=True), 1, cluster_id)


def test_requests_naming_another_cluster_get_inconsistent_cluster_id(tmp_path: Path) -> None:
    async def scenario() -> None:
        port = free_ports(1)[0]
        d = RaftDriver(1, {1: ("127.0.0.1", port)}, tmp_path, config=CONFIG, cluster_id="cluster-A")
        await d.start()
        try:
            await until(lambda: d.node.role is Role.LEADER, 5, "a single voter leads")
            addr = ("127.0.0.1", port)
            epoch = d.node.epoch

            wrong = await ask(addr, wire.VOTE, vote_body("cluster-B"))
            assert (wrong.error_code, wrong.topics) == (ErrorCode.INCONSISTENT_CLUSTER_ID, [])
            for ok_id in ("cluster-A", None):  # ours, or none at all (Kafka accepts a null cluster id)
                served = await ask(addr, wire.VOTE, vote_body(ok_id))
                assert served.error_code == 0 and len(served.topics[0].partitions) == 1

            fetch = m.FetchRequest(1, 9, 0, 0, 0)
            wrong = await ask(addr, wire.FETCH, fetch_request(fetch, "cluster-B", 10))
            assert (wrong.error_code, wrong.responses) == (ErrorCode.INCONSISTENT_CLUSTER_ID, [])
            served = await ask(addr, wire.FETCH, fetch_request(fetch, "cluster-A", 10))
            assert served.error_code == 0 and len(served.responses) == 1

            snap = fsq.FetchSnapshotRequest(cluster_id="cluster-B", replica_id=9, max_bytes=1 << 20, topics=[])
            wrong = await ask(addr, wire.FETCH_SNAPSHOT, snap)
            assert wrong.error_code == ErrorCode.INCONSISTENT_CLUSTER_ID
            # nothing of the refused requests reached the core: same leader, same epoch
            assert d.node.role is Role.LEADER and d.node.epoch == epoch
        finally:
            await d.stop()

    asyncio.run(scenario())


def test_a_controller_of_another_cluster_neither_joins_nor_disturbs_the_quorum(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        voters = {i + 1: ("127.0.0.1", p) for i, p in enumerate(free_ports(3))}
        applied: dict[int, list[bytes]] = {i: [] for i in voters}

        def make(node_id: int, cluster_id: str) -> RaftDriver:
            def on_apply(entries: tuple[m.LogEntry, ...]) -> None:
                applied[node_id].extend(e.value for e in entries if not e.control)

            return RaftDriver(
                node_id, voters, tmp_path / f"c{node_id}", config=CONFIG, cluster_id=cluster_id, on_apply=on_apply
            )

        # node 3 was formatted for another cluster: its Votes and Fetches are refused, and it refuses ours
        drivers = {1: make(1, "A"), 2: make(2, "A"), 3: make(3, "B")}
        for d in drivers.values():
            await d.start()
        # every message that reaches a core of cluster A, by the node it came from (requests and responses alike)
        reached_a: list[int] = []
        for node_id in (1, 2):
            core = drivers[node_id].node
            handle = core.handle

            def recording(source: int, msg: m.Message, handle: Any = handle) -> Any:
                reached_a.append(source)
                return handle(source, msg)

            core.handle = recording  # type: ignore[method-assign,assignment]
        try:
            leader = await until(
                lambda: next((d for d in drivers.values() if d.node.role is Role.LEADER), None), 10, "a leader"
            )
            assert isinstance(leader, RaftDriver) and leader.node_id in (1, 2)
            off = leader.append([b"x", b"y"])
            await leader.wait_committed(off, 5)  # 2 of 3 voters of cluster A commit
            await until(lambda: applied[1] == applied[2] == [b"x", b"y"], 5, "applied on both A voters")
            # over 5 fetch timeouts node 3 stands again and again but never wins, never learns a leader nor any
            # entry, and nothing it sends reaches a core of A. (A's own epoch may move: with a 300 ms fetch
            # timeout a follower of A starved of CPU beside the rest of the suite stands itself -- that is Raft,
            # not node 3, so the check is on what reached A's cores, not on A's epoch.)
            await asyncio.sleep(5 * CONFIG.fetch_timeout_ms / 1000)
            # node 3 did ask A's voters (and was refused: it logs their INCONSISTENT_CLUSTER_ID answers)
            said_3 = (
                re.fullmatch(r"raft node 3: voter (\d+) belongs to another cluster.*", r.getMessage())
                for r in caplog.records
            )
            refused_3 = {int(found[1]) for found in said_3 if found}
            assert refused_3 == {1, 2}, "node 3 never asked A's voters: the scenario proves nothing"
            assert applied[3] == []
            assert drivers[3].node.leader_id is None
            assert 3 not in reached_a, "a message of node 3 (another cluster) reached a core of cluster A"
            assert set(reached_a) == {1, 2}  # A's voters did talk to each other
            # and A still has its leader, one of its own voters, followed by the other
            await until(
                lambda: any(
                    drivers[a].node.role is Role.LEADER and drivers[b].node.leader_id == a for a, b in ((1, 2), (2, 1))
                ),
                5,
                "a leader of A followed by the other A voter",
            )
        finally:
            for d in drivers.values():
                await d.stop(graceful=False)

    asyncio.run(scenario())
