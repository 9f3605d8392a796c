"""Our `GroupMember(group_protocol="consumer")` (KIP-848) in one group with a confluent-kafka consumer
(`group.protocol=consumer`), differential: the same scenario against our broker and Apache Kafka
4.3.1. Members join and leave while records are read and committed one by one; every record is
committed exactly once across the members (revoke before assign, commit before revoke).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from confluent_kafka import Consumer

from consumer_group import (
    CommitFailedError,
    GroupMember,
    GroupMemberClosedError,
    RebalanceInProgressError,
    TopicPartition,
)
from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.test_kip848_consumer_group import _name, create_topic, describe, produce
from tests.integration.wire_util import connect, fetch_records

pytestmark = pytest.mark.timeout(120)

N = 4  # partitions


class OursConsumer:
    """A `GroupMember` on the consumer protocol plus a plain Fetch connection: the record loop
    holds `lock` per record, the revoke callback takes it, so nothing owned is read after it is
    revoked and the last commit of a partition precedes its revocation."""

    def __init__(self, bootstrap: str, group: str, topic: str, name: str, seen: list[tuple[int, int, str]]) -> None:
        self.name = name
        self.seen = seen
        self.lock = threading.Lock()
        self.positions: dict[TopicPartition, int] = {}
        self.conn = connect(bootstrap)
        self.member = GroupMember(
            bootstrap,
            group,
            [topic],
            group_protocol="consumer",
            heartbeat_interval_ms=500,
            session_timeout_ms=10_000,
            on_partitions_assigned=self._assigned,
            on_partitions_revoked=self._revoked,
            on_partitions_lost=self._revoked,
            client_id=name,
        ).start()

    def _assigned(self, parts: frozenset[TopicPartition]) -> None:
        committed = self.member.committed(parts, timeout=20)
        with self.lock:
            for tp in parts:
                om = committed.get(tp)
                self.positions[tp] = om.offset if om is not None else 0

    def _revoked(self, parts: frozenset[TopicPartition]) -> None:
        with self.lock:
            for tp in parts:
                self.positions.pop(tp, None)

    def poll_once(self) -> None:
        with self.lock:
            owned = sorted(self.positions)
        for tp in owned:
            with self.lock:
                if tp not in self.positions:
                    continue
                records = fetch_records(self.conn, tp.topic, tp.partition, self.positions[tp], max_rounds=1)[:5]
                for r in records:
                    try:
                        self.member.commit({tp: r.offset + 1}, timeout=10)
                    except (CommitFailedError, RebalanceInProgressError):
                        return  # not committed: its next owner reads it again
                    self.seen.append((tp.partition, r.offset, self.name))
                    self.positions[tp] = r.offset + 1

    def assignment(self) -> set[tuple[str, int]]:
        return {(tp.topic, tp.partition) for tp in self.member.assignment()}

    def close(self) -> None:
        self.member.close(20)
        self.conn.close()


class RdKafka:
    def __init__(self, bootstrap: str, group: str, topic: str, name: str, seen: list[tuple[int, int, str]]) -> None:
        self.name = name
        self.seen = seen
        self.errors: list[str] = []
        self.c = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "group.protocol": "consumer",
                "auto.offset.reset": "earliest",
                "enable.auto.commit": False,
                "client.id": name,
            }
        )
        self.c.subscribe([topic])

    def poll_once(self) -> None:
        m = self.c.poll(0.05)
        if m is None:
            return
        if m.error():
            self.errors.append(str(m.error()))
            return
        self.c.commit(message=m, asynchronous=False)
        self.seen.append((m.partition(), m.offset(), self.name))

    def assignment(self) -> set[tuple[str, int]]:
        return {(tp.topic, tp.partition) for tp in self.c.assignment()}

    def close(self) -> None:
        self.c.close()


def test_our_member_and_librdkafka_share_a_consumer_group(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("ours"), _name("g")
    create_topic(bs, topic, N)
    produce(bs, topic, N, 0, 80)
    seen: list[tuple[int, int, str]] = []
    members: dict[str, Any] = {}

    def poll_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for m in list(members.values()):
                m.poll_once()
            if condition():
                return
        state = {n: sorted(m.assignment()) for n, m in members.items()}
        raise AssertionError(f"timed out waiting for {what}: {state}, {len(seen)} records")

    def covered(names: set[str]) -> bool:
        parts = [members[n].assignment() for n in names]
        owned = [tp for p in parts for tp in p]
        return all(parts) and len(owned) == N and len(set(owned)) == N

    try:
        members["ours-1"] = OursConsumer(bs, group, topic, "ours-1", seen)
        poll_until(lambda: covered({"ours-1"}) and len(seen) >= 20, 40, "our member alone")
        members["rd-1"] = RdKafka(bs, group, topic, "rd-1", seen)
        poll_until(lambda: covered({"ours-1", "rd-1"}) and len(seen) >= 50, 40, "two members sharing")
        members["ours-2"] = OursConsumer(bs, group, topic, "ours-2", seen)
        poll_until(lambda: covered({"ours-1", "rd-1", "ours-2"}) and len(seen) >= 80, 40, "three members")
        assert members["ours-1"].member.generation().generation_id > 0
        produce(bs, topic, N, 80, 80)
        members.pop("ours-1").close()  # revokes (its last commits came first), then leaves: epoch -1
        poll_until(lambda: covered({"rd-1", "ours-2"}) and len(seen) >= 160, 40, "the others take over")
    finally:
        for m in members.values():
            m.close()
    keys = [(p, o) for p, o, _ in seen]
    assert len(keys) == 160 and len(set(keys)) == 160, "every record committed exactly once"
    assert {name for *_, name in seen} == {"ours-1", "ours-2", "rd-1"}


def test_static_member_restart_gets_its_partitions_back(broker: Any) -> None:
    """A static member (group.instance.id) closes with epoch -2: the coordinator keeps its partitions
    for the session timeout, the other member keeps its own, and the restarted instance gets the
    same partitions back."""
    bs = broker.bootstrap_servers
    topic, group = _name("static"), _name("g")
    create_topic(bs, topic, N)
    kw: dict[str, Any] = {"group_protocol": "consumer", "session_timeout_ms": 45_000}

    def settled(*members: GroupMember) -> bool:
        owned = [tp for m in members for tp in m.assignment()]
        return all(m.is_stable() and m.assignment() for m in members) and len(set(owned)) == len(owned) == N

    def wait(condition: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + 30
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.05)

    static = GroupMember(bs, group, [topic], group_instance_id="static-1", **kw).start()
    other = GroupMember(bs, group, [topic], **kw).start()
    restarted: GroupMember | None = None
    try:
        wait(lambda: settled(static, other), "two members")
        mine, theirs = static.assignment(), other.assignment()
        static.close()  # epoch -2: a temporary leave, answered before close() returns
        kept = describe(bs, group).members
        assert sorted(m.group_instance_id or "" for m in kept) == ["", "static-1"], kept
        restarted = GroupMember(bs, group, [topic], group_instance_id="static-1", **kw).start()
        wait(lambda: settled(restarted, other), "the restarted static member")  # type: ignore[arg-type]
        assert restarted.assignment() == mine and other.assignment() == theirs
    finally:
        for m in (restarted, other, static):
            if m is not None:
                m.close()


def test_a_broker_without_the_consumer_protocol_fails_the_member_clearly() -> None:
    """Against a broker that does not advertise ConsumerGroupHeartbeat (ours with the classic
    protocol only) the member fails at once with a message naming the way out, not silently."""
    from broker_embedded import EmbeddedBroker

    with EmbeddedBroker(**{"group.coordinator.rebalance.protocols": "classic"}) as b:
        member = GroupMember(b.bootstrap_servers, _name("g"), ["t"], group_protocol="consumer").start()
        try:
            with pytest.raises(GroupMemberClosedError, match="does not support the consumer group protocol.*classic"):
                member.wait_for_assignment(timeout=20)
        finally:
            member.close()
