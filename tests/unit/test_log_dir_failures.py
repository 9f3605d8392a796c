"""A failed log dir (JBOD, KIP-858): the controller side (controller/log_dir_failures.py, sans-IO, as Kafka's
ReplicationControlManager.handleDirectoriesOffline) and the broker side's LogDirs hooks."""

from __future__ import annotations

from pathlib import Path

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.log_dir_failures import directories_online_again, handle_directories_offline
from broker_embedded.controller.state import ControllerState
from broker_embedded.log.config import LogConfig
from broker_embedded.log.log_dirs import LogDirs


def make(tmp_path: Path, **configs: object) -> ControllerState:
    s = ControllerState(BrokerConfig(dict(configs)), tmp_path)
    for b in (1, 2, 3):
        s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc-{b}")
    return s


def test_a_failed_leader_replica_leaves_isr_and_leadership(tmp_path: Path) -> None:
    s = make(tmp_path)
    p = s.create_topic("t", -1, -1, {}, [[1, 2, 3]]).partitions[0]
    epoch, partition_epoch = p.leader_epoch, p.partition_epoch
    assert handle_directories_offline(s, 1, [("t", 0), ("gone", 0), ("t", 7)])
    assert (p.leader, p.isr, p.offline_replicas) == (2, [2, 3], [1])
    assert p.leader_epoch == epoch + 1 and p.partition_epoch > partition_epoch
    assert not handle_directories_offline(s, 1, [("t", 0)])  # reported again: nothing changes
    # a follower's failed dir: out of the ISR, the leader stays
    assert handle_directories_offline(s, 3, [("t", 0)])
    assert (p.leader, p.isr, p.offline_replicas) == (2, [2], [1, 3])
    # persisted and in the image the brokers get
    (t,) = ControllerState(BrokerConfig({}), tmp_path).image()["topics"]
    assert t["partitions"][0]["offline_replicas"] == [1, 3]


def test_the_last_in_sync_replica_leaves_no_leader_until_its_broker_restarts(tmp_path: Path) -> None:
    s = make(tmp_path)
    p = s.create_topic("t", -1, -1, {}, [[2, 1]]).partitions[0]
    s.alter_partition(2, "t", 0, p.leader_epoch, [2], p.partition_epoch)  # 1 fell out of sync
    assert handle_directories_offline(s, 2, [("t", 0)])
    # no clean candidate: no leader, an empty ISR (Kafka 4's eligible leader replicas), replica 2 offline
    assert (p.leader, p.isr, p.offline_replicas) == (-1, [], [2])
    # restarted with its dirs online: it has every acknowledged record, so it gets the ISR back and leads
    assert directories_online_again(s, 2)
    assert (p.leader, p.isr, p.offline_replicas) == (2, [2], [])


def test_an_unclean_election_never_picks_the_failed_replica(tmp_path: Path) -> None:
    s = make(tmp_path, **{"unclean.leader.election.enable": True})
    p = s.create_topic("t", -1, -1, {}, [[1, 2]]).partitions[0]
    s.alter_partition(1, "t", 0, p.leader_epoch, [1], p.partition_epoch)
    assert handle_directories_offline(s, 1, [("t", 0)])
    assert (p.leader, p.isr) == (2, [2])  # unclean: the live out-of-sync replica
    q = s.create_topic("u", -1, -1, {}, [[3]]).partitions[0]
    assert handle_directories_offline(s, 3, [("u", 0)])
    assert (q.leader, q.isr, q.offline_replicas) == (-1, [], [3])


def test_log_dirs_report_a_failed_dir_once_and_keep_it_offline(tmp_path: Path) -> None:
    dirs = LogDirs([tmp_path / "a", tmp_path / "b"], background=False)
    dirs.startup()
    try:
        dirs.create_logs("t", [0, 1], LogConfig())
        failed: list[str] = []
        dirs.on_dir_failure(failed.append)
        b = str((tmp_path / "b").absolute())
        assert dirs.partitions_in(b) == [("t", 1)]
        state = dirs.managers[b].dir_state
        state.fail("a test write", OSError(5, "Input/output error"))
        state.fail("another write", OSError(5, "Input/output error"))
        assert failed == [b] and dirs.offline_dirs() == [b]
        assert dirs.is_offline("t", 1) and not dirs.is_offline("t", 0) and not dirs.is_offline("t", 9)
        # unlike a single log dir, a JBOD dir does not come back by itself (Kafka: only a restart does)
        assert not state.probe() and not state.online
    finally:
        dirs.shutdown()


def test_raft_mode_registration_of_a_new_incarnation_brings_its_dirs_back(tmp_path: Path) -> None:
    """Raft mode registers by BrokerRegistration (62): a restarted broker (new incarnation) gets back the ISR
    its failed dir left empty, as the lock mode's register op does; it leads once unfenced."""
    import asyncio
    import uuid
    from typing import Any

    from broker_embedded.apis import broker_registration as reg_api
    from broker_embedded.raft.codecs import broker_registration_request as rq

    s = make(tmp_path)
    p = s.create_topic("t", -1, -1, {}, [[2, 1]]).partitions[0]
    s.alter_partition(2, "t", 0, p.leader_epoch, [2], p.partition_epoch)
    assert handle_directories_offline(s, 2, [("t", 0)])
    assert (p.leader, p.isr, p.offline_replicas) == (-1, [], [2])

    class Controller:
        active = True
        state = s
        last_heartbeat: dict[int, float] = {2: -100.0}  # its old session expired long ago
        session_timeout_s = 9.0

        def push(self) -> None:
            pass

        def next_metadata_offset(self) -> int:
            return 50

        async def commit_appended(self) -> int | None:
            return 50

    def register(incarnation: str) -> Any:
        listener = rq.Listener(name="PLAINTEXT", host="127.0.0.1", port=9002, security_protocol=0)
        body = rq.BrokerRegistrationRequest(
            broker_id=2, cluster_id=s.cluster_id, incarnation_id=uuid.UUID(incarnation).bytes, listeners=[listener]
        )
        return asyncio.run(reg_api.serve(Controller(), body, 0.0))

    new = str(uuid.uuid4())
    assert register(new).error_code == 0
    assert (p.isr, p.offline_replicas) == ([2], [])  # registered fenced: no leader until unfenced
    assert s.unfence(2) and p.leader == 2
    # the same incarnation again (a retry) changes nothing; a later failure is not undone by it
    assert handle_directories_offline(s, 2, [("t", 0)])
    assert register(new).error_code == 0
    assert p.offline_replicas == [2]
