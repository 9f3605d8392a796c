"""Consumer groups, scenarios 2 and 3: failure detection, clean leave, and liveness vs processing.

Members are child processes (`group_members/member.py`) that report their assignment as JSON
lines with wall-clock timestamps, so the time from a kill/SIGTERM to the survivors owning every
partition can be measured.

- kill -9: the coordinator notices only through the missing heartbeats, so the partitions move
  after about one session timeout (not before: a brief pause must not cost a member its
  partitions), plus one rebalance.
- SIGTERM: the member's close() sends LeaveGroup, and the rebalance starts at once.
- a member that processes longer than session.timeout.ms while its client heartbeats from a
  background thread keeps its partitions (no rebalance at all); one that exceeds
  max.poll.interval.ms leaves the group, its partitions move, and it rejoins on its next poll.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from tests.integration.group_util import (
    ClientHang,
    MemberPool,
    check_hangs,
    decode_assignment,
    describe_group,
    generation_of,
    make_topic,
    merged_positions,
    produce_keyed,
    retry_on_client_hang,
    unique,
    wait_split,
    wait_until,
)

pytestmark = pytest.mark.timeout(90)

PARTITIONS = 12
PER_PARTITION = 5
HEARTBEAT_MS = 300


@pytest.fixture
def topic(gb: Any) -> str:
    name = make_topic(gb.bootstrap_servers, PARTITIONS)
    produce_keyed(gb.bootstrap_servers, name, PARTITIONS, PER_PARTITION)
    return name


def _member_args(client: str, strategy: str, session_ms: int, max_poll_ms: int = 30000) -> list[str]:
    # kafka-python at INFO says why it rejoins (session expired on its side, member id not recognised,
    # coordinator marked dead): a few KB per member per test, read only in failure reports (wait_split)
    default_level = "INFO" if client == "kafka-python" else "WARNING"
    return [
        "--log-level",
        os.environ.get("GROUP_MEMBER_LOG_LEVEL", default_level),
        "--client",
        client,
        "--strategy",
        strategy,
        "--session-ms",
        str(session_ms),
        "--heartbeat-ms",
        str(HEARTBEAT_MS),
        "--max-poll-ms",
        str(max_poll_ms),
    ]


def _wait_fetched(members: list[Any], partitions: list[int], timeout: float) -> None:
    wait_until(
        lambda: all(merged_positions(members).get(p, 0) >= PER_PARTITION for p in partitions),
        timeout,
        what=f"partitions {partitions} fetched to the end",
    )


@pytest.mark.parametrize(
    "client,strategy",
    [("confluent", "range"), ("confluent", "cooperative-sticky"), ("kafka-python", "range")],
)
@retry_on_client_hang()
def test_kill9_partitions_move_after_session_timeout(gb: Any, topic: str, client: str, strategy: str) -> None:
    session_ms = 3000
    group = unique("kill9")
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        members = [pool.start(f"m{i}", *_member_args(client, strategy, session_ms)) for i in range(3)]
        wait_split(members, PARTITIONS, 30)
        victim, survivors = members[0], members[1:]
        orphaned = list(victim.assignment or [])
        killed_at = victim.kill9()
        done_at = wait_split(survivors, PARTITIONS, 20)
        elapsed = done_at - killed_at
        print(
            f"\n[{client} {strategy}] kill -9 -> survivors own all partitions after {elapsed:.2f}s "
            f"(session.timeout.ms={session_ms})"
        )
        # not before the session expires (minus one heartbeat interval and some slack) ...
        assert elapsed >= (session_ms - HEARTBEAT_MS) / 1000 - 0.5, elapsed
        # ... and by the session, not by something far longer (the 30 s rebalance timeout, a default
        # 45 s session): a liveness bound that a loaded CI box does not reach
        assert elapsed < session_ms / 1000 + 12.0, elapsed
        # the orphaned partitions are not just assigned but fetched to the end by their new owners
        _wait_fetched(survivors, orphaned, 10)
        d = describe_group(gb.bootstrap_servers, group)
        assert d.group_state == "Stable"
        assert len(d.members) == 2


@pytest.mark.parametrize("client", ["confluent", "kafka-python"])
@retry_on_client_hang()
def test_sigterm_leave_group_rebalances_at_once(gb: Any, topic: str, client: str) -> None:
    # a long session, so that "LeaveGroup" and "expiry" stay far apart however loaded the machine is
    session_ms = 30_000
    group = unique("leave")
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        members = [pool.start(f"m{i}", *_member_args(client, "range", session_ms)) for i in range(3)]
        wait_split(members, PARTITIONS, 30)
        leaver, survivors = members[0], members[1:]
        orphaned = list(leaver.assignment or [])
        sent_at = leaver.terminate()
        check_hangs([leaver])
        assert leaver.proc.returncode == 0, leaver.stderr()
        assert leaver.count("closed") == 1
        done_at = wait_split(survivors, PARTITIONS, 20)
        elapsed = done_at - sent_at
        print(
            f"\n[{client}] SIGTERM -> survivors own all partitions after {elapsed:.2f}s "
            f"(session.timeout.ms={session_ms})"
        )
        assert elapsed < 10.0, elapsed  # << the 30 s session timeout: LeaveGroup, not expiry
        _wait_fetched(survivors, orphaned, 10)


@pytest.mark.parametrize(
    "client,busy",
    [("confluent", False), ("kafka-python", False), ("kafka-python", True)],
    ids=["confluent-sleep", "kafka-python-sleep", "kafka-python-cpu-bound"],
)
@retry_on_client_hang()
def test_processing_longer_than_session_timeout_keeps_membership(gb: Any, topic: str, client: str, busy: bool) -> None:
    """The slow member spends 2.5 session timeouts between two polls (sleeping, or burning CPU in
    pure Python with the GIL); its client heartbeats from a background thread and
    max.poll.interval.ms is larger than that: no rebalance."""
    session_ms, sleep_ms = 2000, 5000
    group = unique("slow")
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        fast = [pool.start(f"fast{i}", *_member_args(client, "range", session_ms)) for i in range(2)]
        # the slow member joins last so that its first batch comes after the group is complete
        wait_split(fast, PARTITIONS, 30)
        slow = pool.start(
            "slow",
            *_member_args(client, "range", session_ms, max_poll_ms=20000),
            "--process-ms",
            str(sleep_ms),
            "--process-batches",
            "1",
            *(["--busy"] if busy else []),
        )
        members = [*fast, slow]
        wait_split(members, PARTITIONS, 30)
        slow.wait_event(lambda e: e["ev"] == "processing", 15)
        generation = generation_of(gb, group)
        marks = [len(m.snapshot()) for m in members]
        slow.wait_event(lambda e: e["ev"] == "processed", sleep_ms / 1000 + 5)
        time.sleep(1.0)  # a rebalance, had one started, would show up by now
        for m, mark in zip(members, marks, strict=True):
            moved = [e for e in m.snapshot()[mark:] if e["ev"] in ("assign", "revoke", "lost", "assignment")]
            assert not moved, f"{m.name} saw a rebalance while the slow member processed: {moved}"
        assert generation_of(gb, group) == generation
        assert len(describe_group(gb.bootstrap_servers, group).members) == 3
        # and the slow member went on to fetch its partitions to the end
        _wait_fetched([slow], slow.assignment or [], 10)


@pytest.mark.parametrize("client", ["confluent", "kafka-python"])
@retry_on_client_hang()
def test_exceeding_max_poll_interval_leaves_group(gb: Any, topic: str, client: str) -> None:
    # the stuck member's own next poll (after sleep_ms) would also rebalance: keep it far from
    # max.poll.interval.ms so that the two cannot be confused under load
    # 16 s: under load (session 16's CI-equivalent run 2, the Spark run's tail) the rebalance after the
    # leave was not complete 12 s into the stall, when the stuck member's next poll rejoins; the bound that
    # matters is the elapsed time asserted below
    session_ms, max_poll_ms, sleep_ms = 2000, 3000, 16_000
    group = unique("maxpoll")
    with MemberPool(gb.bootstrap_servers, topic, group) as pool:
        fast = [pool.start(f"fast{i}", *_member_args(client, "range", session_ms)) for i in range(2)]
        wait_split(fast, PARTITIONS, 30)
        stuck = pool.start(
            "stuck",
            *_member_args(client, "range", session_ms, max_poll_ms=max_poll_ms),
            "--process-ms",
            str(sleep_ms),
            "--process-batches",
            "1",
        )
        wait_split([*fast, stuck], PARTITIONS, 30)
        orphaned = list(stuck.assignment or [])
        started = stuck.wait_event(lambda e: e["ev"] == "processing", 15)["t"]
        try:
            done_at = wait_split(fast, PARTITIONS, sleep_ms / 1000)
        except AssertionError as e:
            d = describe_group(gb.bootstrap_servers, group)
            members = {m.client_id: decode_assignment(m.member_assignment).get(topic, []) for m in d.members}
            stderr = stuck.stderr()
            own = f"--- stuck ---\nstderr:\n{stderr[-6000:]}\nstacks:\n{stuck.dump_stacks()[-4000:]}"
            if client == "kafka-python" and "Marking the coordinator dead" in stderr:
                # kafka-python 3.0.12 restarts its max.poll.interval.ms timer when it finds the coordinator
                # again (Heartbeat.reset_timeouts on FindCoordinator), so a heartbeat that waited out its
                # session under load keeps the stuck member in: a client's behaviour (Java's consumer keeps
                # its poll timer), not the broker's -- run again, as for its hangs
                raise ClientHang(f"the stuck kafka-python member lost and found the coordinator: {own}") from None
            raise AssertionError(f"the coordinator has the group {d.group_state}: {members}\n{e}\n{own}") from None
        elapsed = done_at - started
        print(
            f"\n[{client}] poll gap > max.poll.interval.ms={max_poll_ms} -> others own all partitions "
            f"{elapsed:.2f}s after the last poll"
        )
        assert max_poll_ms / 1000 - 0.5 <= elapsed < max_poll_ms / 1000 + 6.0, elapsed
        d = describe_group(gb.bootstrap_servers, group)
        assert len(d.members) == 2, [m.client_id for m in d.members]
        _wait_fetched(fast, orphaned, 10)
        # the member's next poll (after its sleep) rejoins: a new generation with three members
        stuck.wait_event(lambda e: e["ev"] == "processed", sleep_ms / 1000 + 5)
        wait_split([*fast, stuck], PARTITIONS, 20)
        assert len(describe_group(gb.bootstrap_servers, group).members) == 3
