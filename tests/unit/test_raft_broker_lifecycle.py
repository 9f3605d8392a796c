"""The broker's side of BrokerRegistration (62) / BrokerHeartbeat (63) (issue 32, raft mode; Kafka's
BrokerLifecycleManager): the sans-IO state machine, and a `BrokerLifecycleManager` against three in-process
Raft controllers. It starts at a standby (NOT_CONTROLLER: it moves on), registers fenced with the offset of its
registration record as the epoch, is unfenced once caught up and ready, keeps its session through a leader
failover (no fencing), and a controlled shutdown (WantShutDown) is granted and fences it."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.broker_lifecycle import (
    STARTING_HEARTBEAT_S,
    BrokerLifecycle,
    BrokerLifecycleManager,
    BrokerState,
)
from broker_embedded.controller.quorum_controller import QuorumControllerServer
from kafka_wire.errors import ErrorCode
from tests.unit.test_raft_controller import RAFT, free_ports, until

INTERVAL = 0.1
SESSION_MS = 600


def test_lifecycle_states_as_kafka() -> None:
    lc = BrokerLifecycle(heartbeat_interval_s=2.0, max_backoff_s=1.0)
    assert lc.next_request() == "register"
    assert lc.on_registration(int(ErrorCode.DUPLICATE_BROKER_REGISTRATION), -1) > 0 and not lc.registered
    assert lc.on_registration(0, 42) == 0.0 and (lc.registered, lc.broker_epoch) == (True, 42)
    assert lc.next_request() == "heartbeat" and lc.heartbeat_flags().want_fence
    # STARTING: quick heartbeats until caught up
    assert lc.on_heartbeat(0, False, True, False) == STARTING_HEARTBEAT_S and lc.state is BrokerState.STARTING
    lc.on_heartbeat(0, True, True, False)
    assert lc.state is BrokerState.RECOVERY and lc.caught_up_once and not lc.unfenced_once
    # RECOVERY: asks to stay fenced until ready; unfenced: RUNNING
    lc.on_heartbeat(0, True, True, False)
    assert lc.state is BrokerState.RECOVERY
    assert lc.set_ready_to_unfence() == 0.0 and not lc.heartbeat_flags().want_fence
    assert lc.on_heartbeat(0, True, False, False) == 2.0
    assert (lc.state, lc.unfenced_once, lc.fenced) == (BrokerState.RUNNING, True, False)
    # failures back off exponentially up to the cap, and a success resets it
    delays = [lc.on_failure() for _ in range(8)]
    assert delays == sorted(delays) and delays[0] < delays[-1] == 1.0
    lc.on_heartbeat(0, True, False, False)
    assert lc.failed_attempts == 0
    # a registration the controller does not know: register again
    lc.on_heartbeat(int(ErrorCode.STALE_BROKER_EPOCH), False, True, False)
    assert lc.next_request() == "register"
    lc.on_registration(0, 50)
    # controlled shutdown: WantShutDown until ShouldShutDown
    lc.begin_controlled_shutdown()
    assert lc.state is BrokerState.PENDING_CONTROLLED_SHUTDOWN and lc.heartbeat_flags().want_shut_down
    lc.on_heartbeat(0, True, True, False)
    assert lc.state is BrokerState.PENDING_CONTROLLED_SHUTDOWN
    lc.on_heartbeat(0, True, True, True)
    assert lc.state is BrokerState.SHUTTING_DOWN and lc.next_request() is None
    # a broker that never ran shuts down without asking
    other = BrokerLifecycle(2.0, 1.0)
    other.begin_controlled_shutdown()
    assert other.next_request() is None


def test_lifecycle_manager_against_a_quorum(tmp_path: Path) -> None:
    async def run() -> None:
        ports = free_ports(3)
        voters = {i: ("127.0.0.1", ports[i - 1]) for i in (1, 2, 3)}
        config = BrokerConfig({"auto.leader.rebalance.enable": False, "broker.session.timeout.ms": SESSION_MS})
        servers = {i: QuorumControllerServer(config, tmp_path / f"c{i}", i, voters, RAFT) for i in voters}
        for s in servers.values():
            await s.start("127.0.0.1", 0)
        managers: list[BrokerLifecycleManager] = []
        try:
            first = (await until(lambda: [i for i, s in servers.items() if s.active], 10, "an active controller"))[0]
            leader = servers[first]
            standby = next(i for i in voters if i != first)

            def leader_now() -> QuorumControllerServer | None:
                return next((s for s in servers.values() if s.active), None)

            def applied() -> int:  # the broker's metadata offset: what a follower controller has replayed
                follower = next(s for i, s in servers.items() if i not in (first,) and s.driver.running)
                return follower.driver.node.applied_offset - 1

            m = BrokerLifecycleManager(
                1,
                uuid.uuid4(),
                voters,
                cluster_id=lambda: leader.state.cluster_id,
                listeners=lambda: [("PLAINTEXT", "127.0.0.1", 9001)],
                metadata_offset=applied,
                leader_hint=lambda: standby,  # a stale hint: NOT_CONTROLLER first
                heartbeat_interval_s=INTERVAL,
                request_timeout_s=SESSION_MS / 3000,
                registration_timeout_s=3.0,
            )
            managers.append(m)
            m.start()
            await until(lambda: m.lifecycle.caught_up_once, 10, "caught up with the registration record")
            registered = leader.state.brokers[1]
            assert registered.broker_epoch == m.lifecycle.broker_epoch
            # the epoch is the registration record's offset; the broker stays fenced until ready
            assert registered.fenced and m.lifecycle.heartbeat_flags().want_fence
            await asyncio.sleep(3 * INTERVAL)
            assert leader.state.brokers[1].fenced
            m.set_ready_to_unfence()
            await until(lambda: m.lifecycle.unfenced_once, 5, "unfenced")
            await until(lambda: leader_now() is leader and not leader.state.brokers[1].fenced, 5, "live in the image")

            # a second process under the same id while the first one's session is alive: refused
            m2 = BrokerLifecycleManager(
                1, uuid.uuid4(), voters, cluster_id=lambda: leader.state.cluster_id,
                listeners=lambda: [("PLAINTEXT", "127.0.0.1", 9002)], metadata_offset=applied,
                leader_hint=lambda: first, heartbeat_interval_s=INTERVAL, request_timeout_s=0.5,
                registration_timeout_s=3.0,
            )  # fmt: skip
            answer = await m2._call(62, _registration(m2), 3.0)
            await m2.close()
            assert getattr(answer, "error_code", None) == ErrorCode.DUPLICATE_BROKER_REGISTRATION

            # the leader stops: the broker finds the new one within its session and is never fenced
            await leader.stop()
            await until(lambda: leader_now(), 10, "a new active controller")
            # a loaded machine can miss the 150 ms election timeout and move the leadership once more: the checks
            # follow whichever controller is active at the moment (none while an election runs)
            await until(lambda: (c := leader_now()) is not None and m.controller_id == c.node_id, 5, "heartbeats to it")
            for _ in range(int(SESSION_MS / 1000 / INTERVAL) + 2):  # longer than a session from the activation
                await asyncio.sleep(INTERVAL)
                current = leader_now()
                assert current is None or not current.state.brokers[1].fenced

            # controlled shutdown through the leader of the moment
            assert await m.controlled_shutdown(5.0)
            await until(lambda: (c := leader_now()) is not None and c.state.brokers[1].fenced, 5, "fenced in the image")
        finally:
            for mgr in managers:
                await mgr.close()
            for s in servers.values():
                if s.driver.running:
                    await s.stop()

    asyncio.run(run())


def _registration(m: BrokerLifecycleManager) -> object:
    from broker_embedded.raft.codecs import broker_registration_request as rgq

    return rgq.BrokerRegistrationRequest(
        broker_id=1,
        cluster_id=m.cluster_id(),
        incarnation_id=m.incarnation.bytes,
        listeners=[rgq.Listener(name="PLAINTEXT", host="127.0.0.1", port=9002, security_protocol=0)],
        rack=None,
    )
