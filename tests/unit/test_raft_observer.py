"""A broker's metadata observer (controller/metadata_observer.py): it fetches `__cluster_metadata` from the quorum
leader without voting, replays snapshots and per-change records, and delivers the image the active controller
would push -- also after a late start (behind the leader's snapshot) and across a leader change."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.metadata_observer import OBSERVER_ID_BASE, MetadataObserver
from broker_embedded.controller.quorum_controller import QuorumControllerServer
from tests.unit.test_raft_controller import RAFT, ask, free_ports, until


def _comparable(msg: dict[str, Any] | None) -> Any:
    return None if msg is None else {k: v for k, v in msg.items() if k != "op"}


def test_an_observer_follows_the_metadata_log(tmp_path: Path) -> None:
    async def run() -> None:
        raft_ports = free_ports(3)
        voters = {i: ("127.0.0.1", raft_ports[i]) for i in (0, 1, 2)}
        config = BrokerConfig({"auto.leader.rebalance.enable": False})
        servers = {
            i: QuorumControllerServer(config, tmp_path / f"c{i}", i, voters, RAFT, snapshot_every_records=3)
            for i in voters
        }
        ports = {i: await s.start("127.0.0.1", 0) for i, s in servers.items()}
        observer: MetadataObserver | None = None
        try:
            first = (await until(lambda: [i for i, s in servers.items() if s.active], 10, "an active controller"))[0]
            register = {"op": "register", "node_id": 1, "host": "127.0.0.1", "port": 9001, "incarnation": "a"}

            def create(name: str, n: int = 2) -> dict[str, Any]:
                topic = {"name": name, "num_partitions": n, "replication_factor": 1, "configs": {}}
                return {"op": "create_topics", "topics": [topic], "validate_only": False}

            for name in ("a", "b", "c", "d"):
                reply = await ask(ports[first], register, create(name))
                assert reply is not None and reply["results"][0]["error"] == 0, reply
            assert servers[first].driver.log.latest_snapshot_id is not None  # the observer starts behind it

            seen: list[dict[str, Any]] = []
            observer = MetadataObserver(OBSERVER_ID_BASE + 1, voters, tmp_path / "broker-1", config, seen.append, RAFT)
            await observer.start()

            def same_as(i: int) -> bool:
                s = servers[i]
                return s.active and bool(seen) and _comparable(seen[-1]) == _comparable(s.state.image())

            await until(lambda: same_as(first), 10, "the observer's image = the active controller's")
            assert observer.snapshots_loaded >= 1  # it started below the leader's log start: FetchSnapshot
            assert [t["name"] for t in seen[-1]["topics"]] == ["a", "b", "c", "d"]
            assert not observer.driver.node.is_voter
            versions = [m["version"] for m in seen]
            assert versions == sorted(set(versions)), "images delivered out of order or twice"

            # the leader goes: the observer finds the new one and follows its changes (per-change records)
            await servers[first].stop()
            rest = {i: s for i, s in servers.items() if i != first}
            second = (await until(lambda: [i for i, s in rest.items() if s.active], 10, "a new active controller"))[0]
            reply = await ask(ports[second], register, create("e", 3))
            assert reply is not None and reply["results"][0]["error"] == 0, reply
            await until(lambda: same_as(second), 10, "the observer following the new leader")
            assert [len(t["partitions"]) for t in seen[-1]["topics"]][-1] == 3
            assert observer.image.delta_records >= 1
            assert observer.driver.node.leader_id == second
        finally:
            if observer is not None:
                await observer.stop()
            for s in servers.values():
                await s.stop()

    asyncio.run(run())


def test_an_observer_id_must_not_be_a_voters(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="voter"):
        MetadataObserver(1, {1: ("127.0.0.1", 1)}, tmp_path, BrokerConfig({}), lambda _m: None)
