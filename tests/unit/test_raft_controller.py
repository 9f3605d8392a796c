"""The controller on a Raft quorum (issue 32, opt-in `QuorumControllerServer`): three controllers, each with
its own directory, no shared lock. Only the Raft leader serves the controller protocol; a broker's
registration and a topic created there are replicated, and after the leader dies a new leader serves
the same metadata (cluster id, broker, topic id) and a standby answers NOT_CONTROLLER."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.protocol import encode, read_message
from broker_embedded.controller.quorum_controller import QuorumControllerServer
from broker_embedded.raft import RaftConfig
from kafka_wire.errors import ErrorCode

RAFT = RaftConfig(
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


async def ask(port: int, *msgs: dict[str, Any]) -> dict[str, Any] | None:
    """Send `msgs` on one connection (a broker registers, then asks); the last answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        reply = None
        for i, msg in enumerate(msgs):
            writer.write(encode({"id": i + 1, **msg}))
            while True:
                reply = await asyncio.wait_for(read_message(reader), 10)
                if reply is None or reply.get("op") == "response":
                    break
            if reply is None or reply["error"]:
                return reply
        return reply
    finally:
        writer.close()


async def until(cond: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.01)


def test_metadata_survives_the_leader_on_a_raft_quorum(tmp_path: Path) -> None:
    async def run() -> None:
        raft_ports = free_ports(3)
        voters = {i: ("127.0.0.1", raft_ports[i - 1]) for i in (1, 2, 3)}
        config = BrokerConfig({"auto.leader.rebalance.enable": False})

        def make(i: int) -> QuorumControllerServer:  # a snapshot every 2 metadata records: FetchSnapshot gets used
            return QuorumControllerServer(config, tmp_path / f"c{i}", i, voters, RAFT, snapshot_every_records=2)

        servers = {i: make(i) for i in voters}
        ports = {i: await s.start("127.0.0.1", 0) for i, s in servers.items()}
        try:
            leader = await until(lambda: [i for i, s in servers.items() if s.active], 10, "an active controller")
            assert len(leader) == 1
            first = leader[0]
            register = {"op": "register", "node_id": 1, "host": "127.0.0.1", "port": 9001, "incarnation": "a"}
            reply = await ask(ports[first], register)
            assert reply is not None and reply["error"] == 0, reply
            cluster_id = reply["cluster_id"]
            create = {
                "op": "create_topics",
                "topics": [{"name": "t", "num_partitions": 2, "replication_factor": 1, "configs": {}}],
                "validate_only": False,
            }
            reply = await ask(ports[first], register, create)
            assert reply is not None and reply["results"][0]["error"] == 0, reply
            topic_id = reply["results"][0]["topic_id"]
            standby = next(i for i in servers if i != first)
            reply = await ask(ports[standby], {"op": "describe"})
            assert reply is not None and reply["error"] == ErrorCode.NOT_CONTROLLER

            await servers[first].stop()  # its Raft leadership ends (EndQuorumEpoch): a successor takes over
            rest = {i: s for i, s in servers.items() if i != first}
            second = (await until(lambda: [i for i, s in rest.items() if s.active], 10, "a new active controller"))[0]
            reply = await ask(ports[second], {"op": "describe"})
            assert reply is not None and reply["error"] == 0
            image = reply["image"]
            assert image["cluster_id"] == cluster_id
            assert [b["node_id"] for b in image["brokers"]] == [1]
            assert [(t["name"], t["topic_id"], len(t["partitions"])) for t in image["topics"]] == [("t", topic_id, 2)]
            # the new leader makes changes the remaining majority commits
            for name in ("u", "v", "w"):
                reply = await ask(
                    ports[second], register, {**create, "topics": [{**create["topics"][0], "name": name}]}
                )
                assert reply is not None and reply["results"][0]["error"] == 0, reply
            assert servers[second].driver.log.latest_snapshot_id is not None
            # the changes travelled as per-change records (RegisterBrokerRecord, TopicRecord ...), not whole images
            other = next(i for i in rest if i != second)
            await until(lambda: rest[other].image.delta_records >= 3, 10, "the follower replaying delta records")
            await until(lambda: rest[other].image.image == servers[second].image.image, 10, "the same image")

            # the stopped controller restarts from its directory, behind the leader's log start: it catches up
            # (by FetchSnapshot) to the same image, as a standby
            own_snapshot = servers[first].driver.log.latest_snapshot_id  # loaded again at its restart
            servers[first] = make(first)
            await servers[first].start("127.0.0.1", ports[first])

            def names(server: QuorumControllerServer) -> list[str]:
                last = server.image.last
                return sorted(t["name"] for t in json.loads(last)["topics"]) if last else []

            await until(lambda: names(servers[first]) == ["t", "u", "v", "w"], 10, "the restarted one caught up")
            assert not servers[first].active
            # beyond its own snapshot (if any), it loaded the leader's: fetched by FetchSnapshot
            assert servers[first].snapshots_loaded >= 1 + (own_snapshot is not None)
        finally:
            for s in servers.values():
                await s.stop()

    asyncio.run(run())
