"""KIP-848 in EmbeddedCluster(3): the consumer group's coordinator is killed; the new leader of the
group's __consumer_offsets partition replays the group's records, the members go on with their
epochs, and every record is consumed once (ours only: it kills our brokers)."""

from __future__ import annotations

import collections
from collections.abc import Iterator

import pytest

from broker_embedded import EmbeddedCluster
from broker_embedded.group.offsets_topic import partition_for_group
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from tests.integration.test_kip848_consumer_group import Members, consumer, epochs, produce

pytestmark = pytest.mark.slow


@pytest.fixture()
def c() -> Iterator[EmbeddedCluster]:
    with cluster(3, **{"min.insync.replicas": 2, "group.coordinator.rebalance.protocols": "classic,consumer"}) as c:
        yield c


def test_consumer_group_moves_with_its_coordinator(c: EmbeddedCluster) -> None:
    bs, topic, group, n = c.bootstrap_servers, "moving", "kip848-mover", 4
    create_topic(bs, topic, partitions=n, rf=3)
    wait_full_isr(c, topic, n)
    produce(bs, topic, n, 0, 100)
    members = Members()
    try:
        for name in ("m1", "m2"):
            members.add(name, consumer(bs, group, **{"client.id": name}))
            members.consumers[name].subscribe([topic])
        members.poll_until(lambda: members.balanced(n) and len(members.seen) >= 100, 90, "two balanced members")
        index = partition_for_group(group, c.partition_count("__consumer_offsets"))
        before = epochs(c.bootstrap(c.leader("__consumer_offsets", index)), group)
        assert before[0] == "Stable" and len(before[3]) == 2
        coordinator = c.leader("__consumer_offsets", index)
        c.kill(coordinator)
        c.wait_for(
            lambda: c.leader("__consumer_offsets", index) not in (-1, coordinator), timeout=30, what="a new coordinator"
        )
        produce(bs, topic, n, 100, 100)
        members.poll_until(lambda: len(members.seen) >= 200, 90, "the records after the move")
        # the group was replayed, not rebuilt: same epochs, same two members
        assert epochs(c.bootstrap(c.leader("__consumer_offsets", index)), group) == before
    finally:
        members.close_all()
    seen = collections.Counter((t, p, o) for t, p, o, _ in members.seen)
    assert len(seen) == 200 and max(seen.values()) == 1
