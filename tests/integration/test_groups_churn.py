"""Consumer groups, scenario 6: membership churn while a producer writes (KAFKA-2978 style).

Members (confluent-kafka consumers, each on its own thread, auto-commit on) join and leave at
random moments, without waiting for the group to settle, while a producer keeps writing to every
partition. Throughout, whenever the coordinator has the group Stable, no partition is assigned to
two members. At the end:

- the last members' assignments are disjoint and cover every partition, and the group then stays
  in its generation (no endless rebalancing);
- a marker record written to every partition afterwards is consumed by the partition's owner
  (no partition is "assigned but not fetched");
- every record written was consumed at least once by some member, and (every handoff being
  clean, with auto-commit) none twice;
- the broker logged no error and still answers.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.group_util import (
    decode_assignment,
    describe_group,
    generation_of,
    group_broker,
    make_topic,
    unique,
    wait_until,
)

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

PARTITIONS = 12
CYCLES = 10


@pytest.fixture(scope="module")
def gb() -> Iterator[Any]:
    with group_broker() as b:
        yield b


class Member(threading.Thread):
    def __init__(self, name: str, bootstrap: str, group: str, topic: str, strategy: str) -> None:
        super().__init__(name=name, daemon=True)
        from confluent_kafka import Consumer

        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": group,
                "client.id": name,
                "partition.assignment.strategy": strategy,
                "session.timeout.ms": 3000,
                "heartbeat.interval.ms": 300,
                "max.poll.interval.ms": 10000,
                "auto.offset.reset": "earliest",
                "enable.auto.commit": True,
                "auto.commit.interval.ms": 200,
            }
        )
        self.topic = topic
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.seen: set[tuple[int, int]] = set()
        self.delivered = 0  # including records this member saw twice
        self.assignment: list[int] = []
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            self.consumer.subscribe([self.topic])
            while not self.stopping.is_set():
                msgs = self.consumer.consume(num_messages=500, timeout=0.05)
                with self.lock:
                    for m in msgs:
                        if m.error() is None:
                            self.seen.add((m.partition(), m.offset()))
                            self.delivered += 1
                        elif m.error().fatal():
                            self.errors.append(m.error().str())
                    self.assignment = sorted(tp.partition for tp in self.consumer.assignment())
        except Exception as e:  # reported by the test
            self.errors.append(repr(e))
        finally:
            self.consumer.close()  # commits what was consumed and leaves the group

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=20)
        assert not self.is_alive(), f"{self.name} did not close"


class Writer(threading.Thread):
    """Writes to every partition in turn until stopped; remembers what was acknowledged."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        super().__init__(daemon=True)
        from confluent_kafka import Producer

        self.producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 2})
        self.topic = topic
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
            for p in range(PARTITIONS):
                self.producer.produce(self.topic, value=f"{p}:{i}".encode(), partition=p, on_delivery=self._on_delivery)
            i += 1
            self.producer.poll(0.02)
        self.producer.flush(20)

    def stop(self) -> None:
        self.stopping.set()
        self.join(timeout=30)


def _stable_assignments(gb: Any, group: str, topic: str) -> list[list[int]] | None:
    """The assignments the coordinator holds for the group, if it is Stable right now."""

    def get(broker: Any) -> list[bytes] | None:
        g = broker.group_coordinator.groups.get(group)
        if g is None or g.state.value != "Stable":
            return None
        return [m.assignment for m in g.members.values()]

    raw = gb.call(get)
    if raw is None:
        return None
    return [decode_assignment(a).get(topic, []) for a in raw]


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_churn_every_partition_owned_and_fetched(gb: Any, strategy: str) -> None:
    rng = random.Random(2978)
    bs = gb.bootstrap_servers
    topic = make_topic(bs, PARTITIONS)
    group = unique("churn")
    writer = Writer(bs, topic)
    members: list[Member] = []
    retired: list[Member] = []
    stable_checks = 0
    t0 = time.monotonic()
    writer.start()
    try:
        for i in range(2):
            m = Member(f"c{i}", bs, group, topic, strategy)
            m.start()
            members.append(m)
        for cycle in range(CYCLES):
            grow = len(members) < 2 or (len(members) < 4 and rng.random() < 0.5)
            if grow:
                m = Member(f"c{cycle + 2}", bs, group, topic, strategy)
                m.start()
                members.append(m)
            else:
                victim = members.pop(rng.randrange(len(members)))
                victim.stop()
                retired.append(victim)
            # do not wait for the group to settle: sample the coordinator while it churns
            until = time.monotonic() + rng.uniform(0.2, 1.2)
            while time.monotonic() < until:
                stable = _stable_assignments(gb, group, topic)
                if stable is not None:
                    stable_checks += 1
                    flat = [p for a in stable for p in a]
                    assert len(flat) == len(set(flat)), f"cycle {cycle}: a partition has two owners: {stable}"
                time.sleep(0.05)
        churn_s = time.monotonic() - t0

        # the last members settle on a complete, disjoint assignment
        def settled() -> list[list[int]] | None:
            views = []
            for m in members:
                with m.lock:
                    views.append(list(m.assignment))
            flat = [p for a in views for p in a]
            ok = len(flat) == len(set(flat)) and sorted(flat) == list(range(PARTITIONS))
            return views if ok and _stable_assignments(gb, group, topic) is not None else None

        views = wait_until(settled, 30, what="a complete assignment after the churn")
        owner = {p: m for m, a in zip(members, views, strict=True) for p in a}

        # a marker on every partition must reach the partition's owner
        from confluent_kafka import Producer

        markers: dict[int, int] = {}
        p = Producer({"bootstrap.servers": bs})
        for part in range(PARTITIONS):
            p.produce(
                topic,
                value=b"marker",
                partition=part,
                on_delivery=lambda err, msg: markers.__setitem__(msg.partition(), msg.offset()),
            )
        assert p.flush(10) == 0
        assert len(markers) == PARTITIONS

        def markers_consumed() -> bool:
            for part, off in markers.items():
                with owner[part].lock:
                    if (part, off) not in owner[part].seen:
                        return False
            return True

        try:
            wait_until(markers_consumed, 20, what="each partition's owner to fetch its marker")
        except AssertionError:
            missing = {part: owner[part].name for part, off in markers.items() if (part, off) not in owner[part].seen}
            raise AssertionError(f"partitions assigned but not fetched: {missing}; views {views}") from None

        # and it stays settled: no further rebalances once every member is content
        generation = generation_of(gb, group)
        time.sleep(2.0)
        assert generation_of(gb, group) == generation, "the group kept rebalancing after the churn"

        writer.stop()
        assert not writer.failed, writer.failed[:5]

        # every acknowledged record was consumed by someone (at least once)
        def all_seen() -> set[tuple[int, int]]:
            seen: set[tuple[int, int]] = set()
            for m in [*members, *retired]:
                with m.lock:
                    seen |= m.seen
            return writer.acked - seen

        wait_until(lambda: not all_seen(), 20, what="every record consumed")
        everyone = [*members, *retired]
        delivered = sum(m.delivered for m in everyone)
        distinct = len(set().union(*(m.seen for m in everyone)))
        duplicates = delivered - distinct
        errors = [e for m in [*members, *retired] for e in m.errors]
        assert not errors, errors
        d = describe_group(bs, group)
        assert d.group_state == "Stable" and len(d.members) == len(members)
        print(
            f"\n[{strategy}] {CYCLES} churn cycles in {churn_s:.1f}s ({len(members)} members left, "
            f"{len(retired)} left the group), {len(writer.acked)} records, {duplicates} delivered twice, "
            f"{stable_checks} Stable samples, "
            f"total {time.monotonic() - t0:.1f}s"
        )
        assert stable_checks > 0
        # every handoff here is clean (close() or a revoke): librdkafka commits what the member
        # consumed before giving a partition up, with the generation that is ending, while the group
        # is PreparingRebalance. The coordinator must accept those commits; one it refused would
        # make the next owner read the same records again.
        assert duplicates == 0, f"{duplicates} records were delivered twice"
    finally:
        writer.stop()
        for m in members:
            m.stop()
