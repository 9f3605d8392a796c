"""A dead member's partitions reach a cooperative survivor within session timeout + one heartbeat.

The group-protocol half of issue 17's group-mode goal (bench/group_mode.py measures the whole
handover through Spark): a member that stops heartbeating without LeaveGroup (as a SIGKILLed
driver) is expired by the coordinator after its session timeout; the survivor learns of the
rebalance from its next heartbeat and gets the orphaned partitions in ONE join/sync round (they
are owned by nobody, so cooperative-sticky needs no second, revoking round).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from broker_embedded import EmbeddedBroker
from consumer_group import GroupMember
from testsupport.topics import create_topic

SESSION_MS = 2000
HEARTBEAT_MS = 500
PARTITIONS = 12


def _wait(pred: Callable[[], bool], timeout: float, what: str) -> float:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.02)
    return time.monotonic()


def test_dead_members_partitions_reach_the_survivor_in_one_round() -> None:
    with EmbeddedBroker(**{"group.min.session.timeout.ms": 1000}) as broker:
        topic, group = f"handover-{uuid.uuid4().hex[:6]}", f"handover-{uuid.uuid4().hex[:6]}"
        create_topic(broker, topic, PARTITIONS)
        opts: dict[str, Any] = {
            "assignors": ["cooperative-sticky"],
            "session_timeout_ms": SESSION_MS,
            "heartbeat_interval_ms": HEARTBEAT_MS,
            "rebalance_timeout_ms": 30_000,
        }
        a = GroupMember(broker.bootstrap_servers, group, [topic], client_id="a", **opts).start()
        b = GroupMember(broker.bootstrap_servers, group, [topic], client_id="b", **opts).start()
        try:
            _wait(
                lambda: a.is_stable() and b.is_stable() and len(a.assignment()) == len(b.assignment()) == 6,
                30,
                "a 6/6 split",
            )
            rounds = b.rebalance_count
            dead = time.monotonic()
            a.close(leave_group=False)  # stops heartbeating, no LeaveGroup: a killed member to the coordinator
            done = _wait(lambda: b.is_stable() and len(b.assignment()) == PARTITIONS, 40, "b owning all partitions")
            elapsed = done - dead
            # not before the session expires (a's last heartbeat came up to one interval before it died) ...
            assert elapsed >= (SESSION_MS - HEARTBEAT_MS) / 1000 - 0.3, elapsed
            # ... and then one heartbeat of b, plus slack for a loaded machine: far below the 30 s
            # rebalance timeout a coordinator waiting for the dead member would add
            assert elapsed < (SESSION_MS + HEARTBEAT_MS) / 1000 + 10.0, elapsed
            assert b.rebalance_count == rounds + 1  # one join/sync round, no cooperative follow-up
        finally:
            a.close()
            b.close()
