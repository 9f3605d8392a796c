"""The controller's state machine (sans-IO): assignment, elections from the ISR, epochs, fencing,
AlterPartition validation, unclean election, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest

from broker_embedded.config import BrokerConfig
from broker_embedded.controller.state import NO_LEADER, ControllerState
from kafka_wire.errors import ErrorCode, KafkaError


def make(tmp_path: Path, brokers: int = 3, **configs: object) -> ControllerState:
    s = ControllerState(BrokerConfig(configs), tmp_path)
    for b in range(1, brokers + 1):
        s.register_broker(b, "127.0.0.1", 9000 + b, None, f"inc-{b}")
    return s


def test_assignment_spreads_leaders_and_full_isr(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", 3, 3, {})
    assert sorted(p.leader for p in t.partitions) == [1, 2, 3]
    for p in t.partitions:
        assert sorted(p.replicas) == [1, 2, 3]
        assert p.isr == p.replicas
        assert p.leader == p.replicas[0]
        assert (p.leader_epoch, p.partition_epoch) == (0, 0)


def test_replication_factor_beyond_live_brokers(tmp_path: Path) -> None:
    s = make(tmp_path)
    with pytest.raises(KafkaError) as e:
        s.create_topic("t", 1, 4, {})
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
    assert "only 3 broker(s) are registered" in str(e.value)
    s.fence_broker(3)
    with pytest.raises(KafkaError) as e:
        s.create_topic("t", 1, 3, {})
    assert e.value.code == ErrorCode.INVALID_REPLICATION_FACTOR
    assert "t" not in s.topics


def test_default_replication_factor_and_bad_inputs(tmp_path: Path) -> None:
    s = make(tmp_path, **{"default.replication.factor": 2, "num.partitions": 2})
    t = s.create_topic("t", -1, -1, {})
    assert len(t.partitions) == 2 and all(len(p.replicas) == 2 for p in t.partitions)
    for args, code in [
        (("t", 1, 1, {}), ErrorCode.TOPIC_ALREADY_EXISTS),
        (("u", 0, 1, {}), ErrorCode.INVALID_PARTITIONS),
        (("u", 1, 0, {}), ErrorCode.INVALID_REPLICATION_FACTOR),
        (("u", 1, 1, {"retention.ms": "x"}), ErrorCode.INVALID_CONFIG),
        (("u", 1, 1, {"no.such": "1"}), ErrorCode.INVALID_CONFIG),
        (("bad name", 1, 1, {}), ErrorCode.INVALID_TOPIC_EXCEPTION),
    ]:
        with pytest.raises(KafkaError) as e:
            s.create_topic(*args)  # type: ignore[arg-type]
        assert e.value.code == code, args
    with pytest.raises(KafkaError) as e:
        s.create_topic("u", -1, -1, {}, assignments=[[1, 2], [3]])
    assert e.value.code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
    with pytest.raises(KafkaError) as e:
        s.create_topic("u", -1, -1, {}, assignments=[[1, 9]])
    assert e.value.code == ErrorCode.INVALID_REPLICA_ASSIGNMENT


def test_leader_fenced_new_leader_from_isr_with_epoch_bumps(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, assignments=[[1, 2, 3]])
    p = t.partitions[0]
    s.fence_broker(1)
    assert p.leader == 2 and p.isr == [2, 3]
    assert (p.leader_epoch, p.partition_epoch) == (1, 1)
    # a follower's death only shrinks the ISR: the leader epoch stays
    s.fence_broker(3)
    assert p.leader == 2 and p.isr == [2]
    assert (p.leader_epoch, p.partition_epoch) == (1, 2)
    # the last ISR member dies: offline, and it stays in the ISR (it has every acked record)
    s.fence_broker(2)
    assert p.leader == NO_LEADER and p.isr == [2]
    assert p.leader_epoch == 2
    # an out-of-sync replica coming back does not lead (unclean election is off)
    s.register_broker(1, "127.0.0.1", 9001, None, "inc-1b")
    assert p.leader == NO_LEADER
    # the last ISR member coming back does
    s.register_broker(2, "127.0.0.1", 9002, None, "inc-2b")
    assert p.leader == 2 and p.isr == [2] and p.leader_epoch == 3


def test_unclean_election(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {"unclean.leader.election.enable": "true"}, assignments=[[1, 2]])
    p = t.partitions[0]
    s.fence_broker(2)
    assert p.isr == [1]
    s.fence_broker(1)
    assert p.leader == NO_LEADER
    s.register_broker(2, "127.0.0.1", 9002, None, "inc-2b")
    assert p.leader == 2 and p.isr == [2]


def test_unclean_enabled_later_elects_offline_partitions(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, assignments=[[1, 2]])
    p = t.partitions[0]
    s.fence_broker(2)
    s.fence_broker(1)
    s.register_broker(2, "127.0.0.1", 9002, None, "inc-2b")
    assert p.leader == NO_LEADER
    s.set_topic_configs("t", {"unclean.leader.election.enable": "true"})
    assert p.leader == 2 and p.isr == [2]


def test_restart_with_new_incarnation_fences_the_old_one(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, assignments=[[1, 2, 3]])
    p = t.partitions[0]
    epoch = s.brokers[1].broker_epoch
    s.register_broker(1, "127.0.0.1", 9001, None, "inc-1-restarted")
    assert p.leader == 2 and p.isr == [2, 3] and p.leader_epoch == 1
    assert s.brokers[1].broker_epoch > epoch and not s.brokers[1].fenced
    # the same incarnation re-registering (a reconnect) changes nothing
    s.register_broker(2, "127.0.0.1", 9002, None, "inc-2")
    assert p.leader == 2 and p.leader_epoch == 1


def test_alter_partition_validation(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, assignments=[[1, 2, 3]])
    p = t.partitions[0]
    _, q = s.alter_partition(1, "t", 0, 0, [1, 2], 0)
    assert q.isr == [1, 2] and q.partition_epoch == 1 and q.leader_epoch == 0
    cases = [
        ((1, "t", 0, 0, [1, 2, 3], 0), ErrorCode.INVALID_UPDATE_VERSION),  # stale partition epoch
        ((1, "t", 0, 5, [1, 2, 3], 1), ErrorCode.FENCED_LEADER_EPOCH),
        ((2, "t", 0, 0, [1, 2, 3], 1), ErrorCode.INVALID_REQUEST),  # not the leader
        ((1, "t", 0, 0, [2, 3], 1), ErrorCode.INVALID_REQUEST),  # the leader left out
        ((1, "t", 0, 0, [1, 7], 1), ErrorCode.INVALID_REQUEST),  # not a replica
        ((1, "t", 3, 0, [1], 1), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
        ((1, "nope", 0, 0, [1], 1), ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
    ]
    for args, code in cases:
        with pytest.raises(KafkaError) as e:
            s.alter_partition(*args)  # type: ignore[arg-type]
        assert e.value.code == code, args
    s.fence_broker(3)
    with pytest.raises(KafkaError) as e:
        s.alter_partition(1, "t", 0, 0, [1, 2, 3], p.partition_epoch)
    assert e.value.code == ErrorCode.INELIGIBLE_REPLICA
    # a fenced leader's stale shrink is refused: its epoch is gone
    s.fence_broker(1)
    with pytest.raises(KafkaError) as e:
        s.alter_partition(1, "t", 0, 0, [1], p.partition_epoch)
    assert e.value.code == ErrorCode.FENCED_LEADER_EPOCH


def test_state_persists_across_restart(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.create_topic("t", 2, 3, {"retention.ms": "1000"})
    s.create_partitions("t", 3)
    s.fence_broker(1)
    before = s.image()
    s2 = ControllerState(BrokerConfig({}), tmp_path)
    after = s2.image()
    assert after["cluster_id"] == before["cluster_id"]
    assert after["topics"] == before["topics"]
    assert after["brokers"] == before["brokers"]
    assert s2.brokers[1].fenced
    s2.delete_topic("t")
    assert ControllerState(BrokerConfig({}), tmp_path).topics == {}


def test_create_partitions_checks(tmp_path: Path) -> None:
    s = make(tmp_path)
    s.create_topic("t", 1, 2, {})
    for count, code in [(1, ErrorCode.INVALID_PARTITIONS), (0, ErrorCode.INVALID_PARTITIONS)]:
        with pytest.raises(KafkaError) as e:
            s.create_partitions("t", count)
        assert e.value.code == code
    with pytest.raises(KafkaError) as e:
        s.create_partitions("t", 2, [[1, 2, 3]])
    assert e.value.code == ErrorCode.INVALID_REPLICA_ASSIGNMENT
    with pytest.raises(KafkaError) as e:
        s.create_partitions("nope", 2)
    assert e.value.code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    s.create_partitions("t", 3)
    assert [len(p.replicas) for p in s.topics["t"].partitions] == [2, 2, 2]


def test_producer_id_blocks_never_repeat(tmp_path: Path) -> None:
    s = make(tmp_path)
    a = s.allocate_producer_ids()
    b = s.allocate_producer_ids()
    assert a[0] + a[1] <= b[0]
    c = ControllerState(BrokerConfig({}), tmp_path).allocate_producer_ids()
    assert b[0] + b[1] <= c[0], "a restarted controller handed out a block again"


def test_preferred_leader_election(tmp_path: Path) -> None:
    s = make(tmp_path)
    t = s.create_topic("t", -1, -1, {}, assignments=[[1, 2, 3], [2, 3, 1]])
    p0, p1 = t.partitions
    s.register_broker(1, "127.0.0.1", 9001, None, "inc-1b")  # restarted: leadership moved, out of the ISR
    assert p0.leader == 2 and 1 not in p0.isr
    assert s.elect_preferred_leaders() == 0, "the preferred replica is not in the ISR yet"
    s.alter_partition(2, "t", 0, p0.leader_epoch, [2, 3, 1], p0.partition_epoch)  # its leader expands the ISR
    epoch = p0.leader_epoch
    assert s.elect_preferred_leaders() == 1
    assert p0.leader == 1 and p0.leader_epoch == epoch + 1 and p0.isr == [2, 3, 1]
    assert p1.leader == 2  # already on its preferred replica
    s.fence_broker(1)
    s.fence_broker(2)
    assert s.elect_preferred_leaders() == 0, "fenced preferred replicas do not lead"


def test_standby_controller_serves_only_once_it_holds_the_lock(tmp_path: Path) -> None:
    """Two controllers on one state dir: the one with the flock serves; the standby answers
    NOT_CONTROLLER (and closes) until the active one goes, then reloads the persisted state."""
    import asyncio
    import time

    from broker_embedded.controller.protocol import encode, read_message
    from broker_embedded.controller.server import ControllerServer

    async def ask(port: int, msg: dict[str, object]) -> tuple[dict[str, object] | None, bool]:
        """The answer to `msg`, and whether the controller closed the connection after it."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(encode({"id": 1, **msg}))
            answer = None
            while True:
                m = await asyncio.wait_for(read_message(reader), 5)
                if m is None or m["op"] == "response":
                    answer = m
                    break
            closed = False
            if answer is not None and answer["error"]:
                closed = await asyncio.wait_for(read_message(reader), 5) is None
            return answer, closed
        finally:
            writer.close()

    register = {"op": "register", "node_id": 1, "host": "127.0.0.1", "port": 9001, "incarnation": "a"}

    async def run() -> None:
        config = BrokerConfig({"auto.leader.rebalance.enable": False})
        active, standby = ControllerServer(config, tmp_path), ControllerServer(config, tmp_path)
        active_port = await active.start("127.0.0.1", 0)
        standby_port = await standby.start("127.0.0.1", 0)
        try:
            assert active.active and not standby.active
            reply, _ = await ask(active_port, register)
            assert reply is not None and reply["error"] == 0
            await asyncio.sleep(0.3)  # several lock polls: the standby must stay a standby
            for msg in (register, {"op": "describe"}):
                reply, closed = await ask(standby_port, msg)
                assert reply is not None and reply["error"] == ErrorCode.NOT_CONTROLLER, reply
                assert closed
            assert not standby.active
            await active.stop()  # releases the lock, as the OS does when the process dies
            deadline = time.monotonic() + 3
            while not standby.active and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert standby.active
            reply, _ = await ask(standby_port, {"op": "describe"})
            assert reply is not None and reply["error"] == 0
            brokers = reply["image"]["brokers"]  # type: ignore[index]
            assert [b["node_id"] for b in brokers] == [1]  # reloaded from the state the active one persisted
            reply, _ = await ask(standby_port, {**register, "incarnation": "a"})
            assert reply is not None and reply["error"] == 0
        finally:
            await standby.stop()
            await active.stop()

    asyncio.run(run())
