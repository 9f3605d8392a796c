"""The group churn scenario (KAFKA-2978 style), shared by tests/integration/test_groups_churn.py and
``python -m bench.group_churn``: confluent-kafka members (auto-commit on) join and leave at seeded
random moments, without waiting for the group to settle, while a producer writes to every
partition. It runs against any broker, so our coordinator and Apache Kafka's can be compared.

What it reports besides the delivery counts: every offset commit the coordinator refused, by error
name, as librdkafka's commit callback saw it. Kafka's guarantee under churn is at least once; a
record is delivered twice only when a member's last commit before its partitions moved was
refused or never made (a member evicted by its session timeout cannot commit). So "no duplicates"
is owed exactly where every commit was accepted and no member was evicted.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from confluent_kafka import Consumer, Producer

# the member settings of the scenario: short sessions so a dead member is noticed in seconds (an
# Apache Kafka with default settings needs session.timeout.ms >= 6000: see `member_config`)
MEMBER_CONFIG: dict[str, Any] = {
    "session.timeout.ms": 3000,
    "heartbeat.interval.ms": 300,
    "max.poll.interval.ms": 10000,
    "auto.offset.reset": "earliest",
    "enable.auto.commit": True,
    "auto.commit.interval.ms": 200,
}


class Member(threading.Thread):
    """A consumer on its own thread: remembers every (partition, offset) it was given, how many
    deliveries in all, and the commits the coordinator refused (error name -> count)."""

    def __init__(
        self, name: str, bootstrap: str, group: str, topic: str, strategy: str, config: dict[str, Any] | None = None
    ) -> None:
        super().__init__(name=name, daemon=True)
        self.lock = threading.Lock()
        self.refused_commits: Counter[str] = Counter()
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "client.id": name,
                "partition.assignment.strategy": strategy,
                "on_commit": self._on_commit,
                "error_cb": self._on_error,
                **MEMBER_CONFIG,
                **(config or {}),
            }
        )
        self.topic = topic
        self.stopping = threading.Event()
        self.seen: set[tuple[int, int]] = set()
        self.delivered = 0  # including records this member saw twice
        self.assignment: list[int] = []
        self.errors: list[str] = []

    def _on_commit(self, err: Any, partitions: list[Any]) -> None:
        with self.lock:
            if err is not None and err.code() != -168:  # _NO_OFFSET: nothing new to commit
                self.refused_commits[err.name()] += 1
            for tp in partitions:
                if tp.error is not None:
                    self.refused_commits[tp.error.name()] += 1

    def _on_error(self, err: Any) -> None:
        if err.fatal():
            with self.lock:
                self.errors.append(err.str())

    def run(self) -> None:
        try:
            self.consumer.subscribe([self.topic])
            while not self.stopping.is_set():
                msgs = self.consumer.consume(num_messages=500, timeout=0.05)
                with self.lock:
                    for m in msgs:
                        err = m.error()
                        if err is None:
                            # a delivered message has its partition and offset
                            self.seen.add((m.partition(), m.offset()))  # type: ignore[arg-type]
                            self.delivered += 1
                        elif err.fatal():
                            self.errors.append(err.str())
                    self.assignment = sorted(tp.partition for tp in self.consumer.assignment())
        except Exception as e:  # reported by the scenario
            self.errors.append(repr(e))
        finally:
            self.consumer.close()  # commits what was consumed and leaves the group

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=20)
        assert not self.is_alive(), f"{self.name} did not close"


class Writer(threading.Thread):
    """Writes to every partition in turn until stopped; remembers what was acknowledged."""

    def __init__(self, bootstrap: str, topic: str, partitions: int) -> None:
        super().__init__(daemon=True)
        self.producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 2})
        self.topic = topic
        self.partitions = partitions
        self.stopping = threading.Event()
        self.acked: set[tuple[int, int]] = set()
        self.failed: list[str] = []

    def _on_delivery(self, err: Any, msg: Any) -> None:
        if err is not None:
            self.failed.append(str(err))
        else:
            self.acked.add((msg.partition(), msg.offset()))

    def run(self) -> None:
        i = 0
        while not self.stopping.is_set():
            for p in range(self.partitions):
                self.producer.produce(self.topic, value=f"{p}:{i}".encode(), partition=p, on_delivery=self._on_delivery)
            i += 1
            self.producer.poll(0.02)
        self.producer.flush(20)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)


def wait_until(condition: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.05)


@dataclass
class ChurnResult:
    strategy: str
    seed: int
    records: int = 0
    delivered: int = 0
    distinct: int = 0
    churn_s: float = 0.0
    total_s: float = 0.0
    members_left: int = 0
    members_retired: int = 0
    stable_samples: int = 0
    refused_commits: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    write_failures: list[str] = field(default_factory=list)
    unconsumed: int = 0

    @property
    def duplicates(self) -> int:
        return self.delivered - self.distinct

    def summary(self) -> str:
        refused = ", ".join(f"{k} x{v}" for k, v in sorted(self.refused_commits.items())) or "none"
        return (
            f"[{self.strategy} seed {self.seed}] {self.records} records, {self.duplicates} delivered twice, "
            f"{self.unconsumed} never consumed; refused commits: {refused}; churn {self.churn_s:.1f}s, "
            f"total {self.total_s:.1f}s, {self.members_left} members left, {self.members_retired} retired, "
            f"{self.stable_samples} Stable samples"
        )


def run_churn(
    bootstrap: str,
    topic: str,
    group: str,
    strategy: str,
    *,
    partitions: int,
    cycles: int = 10,
    seed: int = 2978,
    stable_assignments: Callable[[], list[list[int]] | None] | None = None,
    on_settled: Callable[[list[Member], list[list[int]]], None] | None = None,
    member_config: dict[str, Any] | None = None,
) -> ChurnResult:
    """Run the scenario on `topic` (already created with `partitions`). `stable_assignments`, when
    the broker can be looked into, returns the coordinator's assignments while the group is Stable
    (each sample must be disjoint); `on_settled(members, views)` runs once the last members hold a
    complete, disjoint and balanced assignment, with the views (member by member) that were found complete: the
    test checks markers and generation there."""
    rng = random.Random(seed)
    result = ChurnResult(strategy, seed)
    writer = Writer(bootstrap, topic, partitions)
    members: list[Member] = []
    retired: list[Member] = []
    t0 = time.monotonic()
    writer.start()
    try:
        for i in range(2):
            m = Member(f"c{i}", bootstrap, group, topic, strategy, member_config)
            m.start()
            members.append(m)
        for cycle in range(cycles):
            grow = len(members) < 2 or (len(members) < 4 and rng.random() < 0.5)
            if grow:
                m = Member(f"c{cycle + 2}", bootstrap, group, topic, strategy, member_config)
                m.start()
                members.append(m)
            else:
                victim = members.pop(rng.randrange(len(members)))
                victim.stop()
                retired.append(victim)
            # do not wait for the group to settle: sample the coordinator while it churns
            until = time.monotonic() + rng.uniform(0.2, 1.2)
            while time.monotonic() < until:
                if stable_assignments is not None and (stable := stable_assignments()) is not None:
                    result.stable_samples += 1
                    flat = [p for a in stable for p in a]
                    assert len(flat) == len(set(flat)), f"cycle {cycle}: a partition has two owners: {stable}"
                time.sleep(0.05)
        result.churn_s = time.monotonic() - t0

        def settled() -> list[list[int]] | None:
            views = []
            for m in members:
                with m.lock:
                    views.append(list(m.assignment))
            flat = [p for a in views for p in a]
            complete = len(flat) == len(set(flat)) and sorted(flat) == list(range(partitions))
            # balanced too (range and cooperative-sticky both end within one partition of each other): a
            # cooperative rebalance passes through complete splits such as 4/4/4/0 while the owners have
            # not yet given up what the newcomer is to get, and a marker sent then goes to the next owner
            sizes = [len(a) for a in views]
            balanced = max(sizes) - min(sizes) <= 1
            stable = complete and balanced and (stable_assignments is None or stable_assignments() is not None)
            return views if stable else None

        views = wait_until(settled, 30, what="a complete assignment after the churn")
        if on_settled is not None:
            on_settled(members, views)
        writer.stop()
        result.write_failures = list(writer.failed)

        def unconsumed() -> set[tuple[int, int]]:
            seen: set[tuple[int, int]] = set()
            for m in [*members, *retired]:
                with m.lock:
                    seen |= m.seen
            return writer.acked - seen

        try:
            wait_until(lambda: not unconsumed(), 20, what="every record consumed")
        except AssertionError:
            result.unconsumed = len(unconsumed())
    finally:
        writer.stop()
        for m in members:
            m.stop()
    everyone = [*members, *retired]
    result.records = len(writer.acked)
    result.delivered = sum(m.delivered for m in everyone)
    result.distinct = len(set().union(*(m.seen for m in everyone)))
    for m in everyone:
        result.refused_commits.update(m.refused_commits)
        result.errors.extend(m.errors)
    result.members_left, result.members_retired = len(members), len(retired)
    result.total_s = time.monotonic() - t0
    return result
