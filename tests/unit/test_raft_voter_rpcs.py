"""AddRaftVoter / RemoveRaftVoter / UpdateRaftVoter (80-82, KIP-853) on the wire (issue 32): four RaftDrivers on
loopback, node 4 an observer with a listener. Checks Kafka's errors (NOT_LEADER_OR_FOLLOWER off the leader,
DUPLICATE_VOTER, VOTER_NOT_FOUND, REQUEST_TIMED_OUT for a second change while one is uncommitted,
FENCED_LEADER_EPOCH), and that once added, node 4 counts toward the new majority (3 of 4): with one old voter
down, a commit needs node 4's fetch, and with node 4 down as well nothing commits."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from broker_embedded.raft import Role, wire
from broker_embedded.raft import messages as m
from broker_embedded.raft.codecs import add_raft_voter_request as arq
from broker_embedded.raft.codecs import remove_raft_voter_request as rrq
from broker_embedded.raft.codecs import update_raft_voter_request as urq
from broker_embedded.raft.driver import RaftDriver, read_frame
from kafka_wire.errors import ErrorCode
from tests.unit.test_raft_driver import CONFIG, free_ports, until


async def ask_many(addr: tuple[str, int], requests: list[tuple[int, Any]]) -> list[Any]:
    """Sends the requests in one write (so the listener reads them in one pass) and returns the answers in
    request order (matched by correlation id: a voter change is answered once committed)."""
    reader, writer = await asyncio.open_connection(*addr)
    try:
        frames = [wire.encode_request(k, wire.served_range(k)[1], i, "test", b) for i, (k, b) in enumerate(requests)]
        writer.write(b"".join(frames))
        answers: dict[int, Any] = {}
        while len(answers) < len(requests):
            frame = await asyncio.wait_for(read_frame(reader), 40)
            assert frame is not None
            corr = int.from_bytes(frame[:4], "big")
            key = requests[corr][0]
            answers[corr] = wire.decode_response(key, wire.served_range(key)[1], frame)[1]
        return [answers[i] for i in range(len(requests))]
    finally:
        writer.close()


def add(voter: int, port: int) -> tuple[int, Any]:
    listener = arq.Listener(name="CONTROLLER", host="127.0.0.1", port=port)
    return wire.ADD_RAFT_VOTER, arq.AddRaftVoterRequest(voter_id=voter, listeners=[listener], timeout_ms=20_000)


def remove(voter: int, directory: bytes = b"\x00" * 16) -> tuple[int, Any]:
    return wire.REMOVE_RAFT_VOTER, rrq.RemoveRaftVoterRequest(voter_id=voter, voter_directory_id=directory)


def test_add_and_remove_a_voter_over_the_wire(tmp_path: Path) -> None:
    async def scenario() -> None:
        ports = free_ports(4)
        voters = {i + 1: ("127.0.0.1", ports[i]) for i in range(3)}
        extra = {4: ("127.0.0.1", ports[3])}
        applied: dict[int, list[Any]] = {i: [] for i in range(1, 5)}
        drivers: dict[int, RaftDriver] = {}

        async def start(node_id: int) -> None:
            def on_apply(entries: tuple[m.LogEntry, ...]) -> None:
                applied[node_id].extend(e.value for e in entries if not e.control)

            # only node 4 itself is configured with its listener: the others learn it from the VotersRecord
            own = extra if node_id == 4 else None
            d = RaftDriver(node_id, voters, tmp_path / f"c{node_id}", config=CONFIG, listeners=own, on_apply=on_apply)
            await d.start()
            drivers[node_id] = d

        for i in range(1, 5):
            await start(i)
        try:
            leader = await until(
                lambda: next((d for d in drivers.values() if d.node.role is Role.LEADER), None), 10, "a leader"
            )
            assert isinstance(leader, RaftDriver) and leader.node_id != 4  # an observer never stands
            off = leader.append([b"a"])
            await leader.wait_committed(off, 5)
            await until(lambda: applied[4] == [b"a"], 5, "the observer caught up")
            addr = voters[leader.node_id]
            follower = next(i for i in voters if i != leader.node_id)

            (off_leader,) = await ask_many(voters[follower], [add(4, ports[3])])
            assert off_leader.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
            dup, missing, wrong_dir = await ask_many(addr, [add(follower, 1), remove(4), remove(follower, b"x" * 16)])
            assert dup.error_code == ErrorCode.DUPLICATE_VOTER
            assert missing.error_code == ErrorCode.VOTER_NOT_FOUND
            assert wrong_dir.error_code == ErrorCode.VOTER_NOT_FOUND
            assert leader.node.voters == {1, 2, 3}

            # one change at a time: the removal read in the same pass as the addition finds it uncommitted
            added, second = await ask_many(addr, [add(4, ports[3]), remove(follower)])
            assert added.error_code == 0, added.error_message
            assert second.error_code == ErrorCode.REQUEST_TIMED_OUT
            await until(lambda: all(d.node.voters == {1, 2, 3, 4} for d in drivers.values()), 5, "4 voters")
            # KIP-853: the committed VotersRecord carries node 4's listener to every voter (a new leader among the
            # old voters needs it below, once node 4 is back)
            await until(lambda: all(d.endpoints.get(4) == extra[4] for d in drivers.values()), 5, "4's endpoint")
            assert drivers[4].node.role is Role.FOLLOWER

            # UpdateRaftVoter: a stale epoch is fenced; the current one is taken and names the leader
            upd = urq.UpdateRaftVoterRequest(voter_id=4, listeners=[urq.Listener("CONTROLLER", "127.0.0.1", ports[3])])
            upd.current_leader_epoch = leader.node.epoch - 1
            (fenced,) = await ask_many(addr, [(wire.UPDATE_RAFT_VOTER, upd)])
            assert fenced.error_code == ErrorCode.FENCED_LEADER_EPOCH
            upd.current_leader_epoch = leader.node.epoch
            (updated,) = await ask_many(addr, [(wire.UPDATE_RAFT_VOTER, upd)])
            assert (updated.error_code, updated.current_leader.leader_id) == (0, leader.node_id)

            # the new majority is 3 of 4: with one old voter down, node 4 carries the commit ...
            await drivers.pop(follower).stop(graceful=False)
            off = leader.append([b"b"])
            await leader.wait_committed(off, 5)
            await until(lambda: applied[4][-1:] == [b"b"], 5, "node 4 applied it")
            # ... and with node 4 down too, 2 of 4 cannot commit (the old majority, 2 of 3, would have)
            await drivers.pop(4).stop(graceful=False)
            off = leader.append([b"c"])
            with pytest.raises(TimeoutError):
                await leader.wait_committed(off, 4 * CONFIG.fetch_timeout_ms / 1000)
            # (the leader may have resigned by check-quorum meanwhile: ask whoever leads once node 4 is back)
            await start(4)
            leader = await until(
                lambda: next((d for d in drivers.values() if d.node.role is Role.LEADER), None), 10, "a leader"
            )
            assert isinstance(leader, RaftDriver)
            ls = leader.node.state.leader
            await until(lambda: ls is not None and leader.node.high_watermark > ls.epoch_start_offset, 10, "hw")
            off = leader.append([b"d"])
            await leader.wait_committed(off, 10)

            (removed,) = await ask_many({**voters, **extra}[leader.node_id], [remove(4)])
            assert removed.error_code == 0, removed.error_message
            await until(lambda: all(d.node.voters == {1, 2, 3} for d in drivers.values()), 5, "3 voters again")
        finally:
            for d in drivers.values():
                await d.stop(graceful=False)

    asyncio.run(scenario())
