"""Consumer groups, scenario 6: membership churn while a producer writes (KAFKA-2978 style).

Members (confluent-kafka consumers, each on its own thread, auto-commit on) join and leave at
random moments, without waiting for the group to settle, while a producer keeps writing to every
partition (testsupport/group_churn.py), on our broker and on Apache Kafka 4.3.1. Throughout,
whenever our coordinator has the group Stable, no partition is assigned to two members. At the
end:

- the last members' assignments are disjoint and cover every partition, and the group then stays
  in its generation (no endless rebalancing; after a standstill of our broker's event loop that
  expired the sessions, one rebalance, and the group settles again);
- a marker record written to every partition afterwards is consumed by the partition's owner
  (no partition is "assigned but not fetched");
- every record written was consumed at least once by some member, and none twice unless a commit
  was refused (Kafka's own guarantee: see the end of the test);
- our broker logged no error and still answers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.group_util import (
    describe_group,
    generation_of,
    group_broker,
    make_topic,
    stable_assignments,
    state_of,
    unique,
)
from tests.peers.fixtures import is_apache
from testsupport.group_churn import Member, run_churn, wait_until

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

PARTITIONS = 12
CYCLES = 10


@pytest.fixture(scope="module", params=["ours", "apache"])
def gb(request: pytest.FixtureRequest) -> Iterator[Any]:
    """Our broker, then Apache Kafka 4.3.1 with the same scenario (the oracle for what a
    coordinator guarantees under churn)."""
    if request.param == "apache":
        yield request.getfixturevalue("apache_kafka")
        return
    with group_broker() as b:
        yield b


@pytest.mark.parametrize("strategy", ["range", "cooperative-sticky"])
def test_churn_every_partition_owned_and_fetched(gb: Any, strategy: str) -> None:
    bs = gb.bootstrap_servers
    topic = make_topic(bs, PARTITIONS)
    group = unique("churn")

    def settled_checks(members: list[Member], views: list[list[int]]) -> None:
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
        if not is_apache(gb) and not generation_holds():
            # Only a standstill of the broker's event loop (loop_stalls: those of 5 s and more)
            # excuses one: the members' sessions expire while nothing is served, as they do on a paused
            # Kafka coordinator. Seen once beside the Spark half of the suite: the loop stood still for
            # 19.9 s in a produce (broker, clients and writer share this process's GIL), every member's
            # session timed out and the group rebalanced once. It must then settle again.
            assert gb.loop_stalls > stalls_before, "the group kept rebalancing after the churn"
            wait_until(generation_holds, 30, what="the group to settle again after the broker's loop stood still")
        d = describe_group(bs, group)
        assert d.group_state == "Stable" and len(d.members) == len(members)

    def generation_holds() -> bool:
        """Stable in one generation, and still so 2 s later."""
        generation = generation_of(gb, group)
        time.sleep(2.0)
        return state_of(gb, group) == "Stable" and generation_of(gb, group) == generation

    stalls_before = 0 if is_apache(gb) else gb.loop_stalls
    result = run_churn(
        bs,
        topic,
        group,
        strategy,
        partitions=PARTITIONS,
        cycles=CYCLES,
        stable_assignments=None if is_apache(gb) else lambda: stable_assignments(gb, group, topic),
        on_settled=settled_checks,
        # 6 s on both (Apache Kafka's group.min.session.timeout.ms): members leave by close(), so the
        # session timeout only bounds starvation, and 3 s was too short for ours beside the Spark
        # half of the suite (librdkafka "session timed out ... without a successful response" at load 12)
        member_config={"session.timeout.ms": 6000},
    )
    print("\n" + result.summary())
    assert not result.write_failures, result.write_failures[:5]
    assert not result.unconsumed, f"{result.unconsumed} acknowledged records were never consumed"
    assert not result.errors, result.errors
    assert result.stable_samples > 0 or is_apache(gb)
    # Kafka's guarantee under churn is at least once. With cooperative-sticky, librdkafka's commit
    # of revoked partitions races the next rebalance: under CPU load Apache Kafka 4.3.1 refuses
    # some (ILLEGAL_GENERATION) and the next owner reads those records again (bench.group_churn,
    # bench/RESULTS.md: 8 of 10 runs with duplicates on Apache Kafka, 4 of 10 on ours, every one
    # after a refused commit). So no duplicates are owed exactly where every commit was accepted
    # (every handoff here is otherwise clean: close() or a revoke, after which librdkafka commits
    # what the member consumed).
    if not result.refused_commits:
        assert result.duplicates == 0, f"{result.duplicates} records delivered twice with every commit accepted"
