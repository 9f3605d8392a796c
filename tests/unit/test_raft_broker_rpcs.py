"""BrokerRegistration (62) / BrokerHeartbeat (63) through the quorum (issue 32, raft mode): three in-process
QuorumControllerServers; the RPCs go over the wire to the Raft listener. A standby answers NOT_CONTROLLER,
another cluster id INCONSISTENT_CLUSTER_ID, an old broker epoch STALE_BROKER_EPOCH. A broker registers fenced,
a heartbeat behind its registration record keeps it fenced, a caught-up one unfences it, a silent broker is
fenced after the session timeout, and WantShutDown is a controlled shutdown. Each state is checked in a
follower controller's image, replayed from the committed records of `__cluster_metadata`."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.quorum_controller import QuorumControllerServer
from broker_embedded.raft import wire
from broker_embedded.raft.codecs import broker_heartbeat_request as hb
from broker_embedded.raft.codecs import broker_registration_request as reg
from kafka_wire.errors import ErrorCode
from tests.unit.test_raft_controller import RAFT, free_ports, until
from tests.unit.test_raft_voter_rpcs import ask_many

SESSION_MS = 1000


async def ask(addr: tuple[str, int], api_key: int, body: Any) -> Any:
    (answer,) = await ask_many(addr, [(api_key, body)])
    return answer


def registration(cluster_id: str, incarnation: uuid.UUID) -> reg.BrokerRegistrationRequest:
    listener = reg.Listener(name="PLAINTEXT", host="127.0.0.1", port=9001, security_protocol=0)
    return reg.BrokerRegistrationRequest(
        broker_id=1, cluster_id=cluster_id, incarnation_id=incarnation.bytes, listeners=[listener], rack=None
    )


def heartbeat(epoch: int, offset: int, want_fence: bool = False, shut_down: bool = False) -> hb.BrokerHeartbeatRequest:
    return hb.BrokerHeartbeatRequest(
        broker_id=1, broker_epoch=epoch, current_metadata_offset=offset, want_fence=want_fence, want_shut_down=shut_down
    )


def test_registration_heartbeats_and_fencing_through_the_quorum(tmp_path: Path) -> None:
    async def run() -> None:
        raft_ports = free_ports(3)
        voters = {i: ("127.0.0.1", raft_ports[i - 1]) for i in (1, 2, 3)}
        config = BrokerConfig({"auto.leader.rebalance.enable": False, "broker.session.timeout.ms": SESSION_MS})
        servers = {i: QuorumControllerServer(config, tmp_path / f"c{i}", i, voters, RAFT) for i in voters}
        for s in servers.values():
            await s.start("127.0.0.1", 0)
        try:
            active = await until(lambda: [i for i, s in servers.items() if s.active], 10, "an active controller")
            leader = servers[active[0]]
            follower = servers[next(i for i in voters if i != active[0])]
            cluster_id = leader.state.cluster_id
            addr, standby = voters[active[0]], voters[follower.node_id]

            def fenced_on_follower() -> bool | None:
                image = follower.image.image
                brokers = {b["node_id"]: b for b in image["brokers"]} if image else {}
                return brokers[1]["fenced"] if 1 in brokers else None

            assert (
                await ask(standby, wire.BROKER_REGISTRATION, registration(cluster_id, uuid.uuid4()))
            ).error_code == (ErrorCode.NOT_CONTROLLER)
            wrong = await ask(addr, wire.BROKER_REGISTRATION, registration("another-cluster", uuid.uuid4()))
            assert wrong.error_code == ErrorCode.INCONSISTENT_CLUSTER_ID

            answer = await ask(addr, wire.BROKER_REGISTRATION, registration(cluster_id, uuid.uuid4()))
            assert answer.error_code == 0
            epoch = answer.broker_epoch
            await until(lambda: fenced_on_follower() is True, 5, "registered fenced, on the follower")

            assert (await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch - 1, 10**6))).error_code == (
                ErrorCode.STALE_BROKER_EPOCH
            )
            behind = await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch, 0))
            assert (behind.error_code, behind.is_caught_up, behind.is_fenced) == (0, False, True)
            asks_fence = await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch, 10**6, want_fence=True))
            assert (asks_fence.is_caught_up, asks_fence.is_fenced) == (True, True)
            live = await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch, 10**6))
            assert (live.error_code, live.is_caught_up, live.is_fenced) == (0, True, False)
            await until(lambda: fenced_on_follower() is False, 5, "unfenced, on the follower")

            # silence: the session timeout fences it by a record
            await until(lambda: fenced_on_follower() is True, 4 * SESSION_MS / 1000, "fenced after the session")
            live = await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch, 10**6))
            assert live.is_fenced is False
            await until(lambda: fenced_on_follower() is False, 5, "unfenced again")

            # controlled shutdown
            bye: Any = await ask(addr, wire.BROKER_HEARTBEAT, heartbeat(epoch, 10**6, shut_down=True))
            assert (bye.error_code, bye.is_fenced, bye.should_shut_down) == (0, True, True)
            await until(lambda: fenced_on_follower() is True, 5, "fenced by the controlled shutdown")
        finally:
            for s in servers.values():
                await s.stop()

    asyncio.run(run())
