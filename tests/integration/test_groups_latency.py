"""Consumer groups, scenario 8: time from subscribe() to the first record for a NEW group.

One confluent-kafka consumer with librdkafka defaults except group.id and
auto.offset.reset=earliest, on a broker with default group settings
(group.initial.rebalance.delay.ms is 0 here, Kafka's default is 3000). The time is split into
subscribe -> partitions assigned (FindCoordinator, JoinGroup x2 for KIP-394, SyncGroup, and
librdkafka's own timers) and assigned -> first record (OffsetFetch, ListOffsets, Fetch).
"""

from __future__ import annotations

import statistics
import time

import pytest

from tests.integration.group_util import group_broker, make_topic, produce_keyed, unique

pytestmark = pytest.mark.timeout(60)

RUNS = 5


def _first_record(bootstrap: str, topic: str) -> tuple[float, float]:
    """(seconds to the assignment, seconds to the first record), both from subscribe()."""
    from confluent_kafka import Consumer

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": unique("lat"), "auto.offset.reset": "earliest"})
    assigned_at: list[float] = []
    try:
        t0 = time.perf_counter()
        c.subscribe([topic], on_assign=lambda consumer, parts: assigned_at.append(time.perf_counter()))
        deadline = t0 + 10
        while time.perf_counter() < deadline:
            m = c.poll(0.005)
            if m is not None and m.error() is None:
                first = time.perf_counter()
                assert assigned_at, "a record before the assignment"
                return assigned_at[0] - t0, first - t0
        raise AssertionError("no record within 10 s of subscribe()")
    finally:
        c.close()


def test_new_group_time_to_first_record() -> None:
    with group_broker() as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, 1)
        produce_keyed(bs, topic, 1, 3)
        # warm up the client library and the broker's connection path (not measured)
        _first_record(bs, topic)
        results: list[tuple[float, float]] = [_first_record(bs, topic) for _ in range(RUNS)]
    to_assign = [a for a, _ in results]
    to_record = [r for _, r in results]
    print(
        f"\n[new group, confluent defaults] subscribe -> assigned: median {statistics.median(to_assign) * 1000:.0f} ms "
        f"(min {min(to_assign) * 1000:.0f}, max {max(to_assign) * 1000:.0f}); "
        f"subscribe -> first record: median {statistics.median(to_record) * 1000:.0f} ms "
        f"(min {min(to_record) * 1000:.0f}, max {max(to_record) * 1000:.0f})"
    )
    assert max(to_record) < 1.5, results


def test_initial_rebalance_delay_gathers_a_starting_group() -> None:
    """group.initial.rebalance.delay.ms: the first rebalance of a new group waits, so members
    that start within the delay all land in generation 1 instead of one rebalance each."""
    from confluent_kafka import Consumer

    delay_ms = 1500
    with group_broker(**{"group.initial.rebalance.delay.ms": delay_ms}) as b:
        bs = b.bootstrap_servers
        topic = make_topic(bs, 6)
        group = unique("delay")
        consumers = []
        try:
            t0 = time.perf_counter()
            for _ in range(3):
                c = Consumer(
                    {
                        "bootstrap.servers": bs,
                        "group.id": group,
                        "session.timeout.ms": 6000,
                        "heartbeat.interval.ms": 300,
                    }
                )
                c.subscribe([topic])
                consumers.append(c)
                for c in consumers:
                    c.poll(0.05)
                time.sleep(0.3)
            first_assignment = None
            deadline = time.perf_counter() + 15
            while time.perf_counter() < deadline:
                for c in consumers:
                    c.poll(0.02)
                owned = [len(c.assignment()) for c in consumers]
                if first_assignment is None and any(owned):
                    first_assignment = time.perf_counter() - t0
                if owned == [2, 2, 2]:
                    break
            else:
                raise AssertionError(f"no 2/2/2 split: {[len(c.assignment()) for c in consumers]}")
            generation = b.call(lambda br: br.group_coordinator.groups[group].generation_id)
            print(f"\n[initial delay {delay_ms} ms] first assignment after {first_assignment:.2f}s, gen {generation}")
            assert first_assignment is not None and first_assignment >= delay_ms / 1000 - 0.1
            assert generation == 1, "members that started within the delay should share one rebalance"
        finally:
            for c in consumers:
                c.close()
