"""KIP-848 in EmbeddedCluster(3): the consumer group's coordinator is killed mid-rebalance (a third
member joined, the other two still have partitions to revoke). The new leader of the group's
__consumer_offsets partition replays the group's records (same group epoch, the members at their
epochs), the reconciliation finishes there, and every record is consumed once (ours only: it kills our
brokers).
"""

from __future__ import annotations

import collections
from collections.abc import Iterator

import pytest
from confluent_kafka import KafkaException

from broker_embedded import EmbeddedCluster
from broker_embedded.group.offsets_topic import partition_for_group
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from tests.integration.test_kip848_consumer_group import Members, consumer, epochs, produce

pytestmark = pytest.mark.slow


class RefusalTolerantMembers(Members):
    """A commit refused mid-rebalance (STALE_MEMBER_EPOCH: the member's epoch moved on under it, as Kafka
    answers too) is counted, not raised: its records may then be read again by their next owner."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[str] = []

    def poll_once(self) -> None:
        for name, c in self.consumers.items():
            m = c.poll(0.05)
            if m is None:
                continue
            if m.error():
                self.errors.append(str(m.error()))
                continue
            topic, partition, offset = m.topic(), m.partition(), m.offset()
            assert topic is not None and partition is not None and offset is not None  # a delivered record
            self.seen.append((topic, partition, offset, name))
            try:
                c.commit(message=m, asynchronous=False)
            except KafkaException as e:
                self.refused.append(e.args[0].name())


@pytest.fixture()
def c() -> Iterator[EmbeddedCluster]:
    with cluster(3, **{"min.insync.replicas": 2, "group.coordinator.rebalance.protocols": "classic,consumer"}) as c:
        yield c


def test_consumer_group_moves_with_its_coordinator(c: EmbeddedCluster) -> None:
    bs, topic, group, n = c.bootstrap_servers, "moving", "kip848-mover", 4
    create_topic(bs, topic, partitions=n, rf=3)
    wait_full_isr(c, topic, n)
    produce(bs, topic, n, 0, 100)
    members = RefusalTolerantMembers()
    try:
        for name in ("m1", "m2"):
            members.add(name, consumer(bs, group, **{"client.id": name}))
            members.consumers[name].subscribe([topic])
        members.poll_until(lambda: members.balanced(n) and len(members.seen) >= 100, 90, "two balanced members")
        index = partition_for_group(group, c.partition_count("__consumer_offsets"))
        coordinator = c.leader("__consumer_offsets", index)
        stable = epochs(c.bootstrap(coordinator), group)
        assert stable[0] == "Stable" and len(stable[3]) == 2
        # a third member joins: the group epoch moves on and m1/m2 must revoke before m3 gets anything
        # (they learn it on their next heartbeat, up to 5 s away): kill the coordinator in between
        members.add("m3", consumer(bs, group, **{"client.id": "m3"}))
        members.consumers["m3"].subscribe([topic])
        members.poll_until(lambda: epochs(c.bootstrap(coordinator), group)[1] > stable[1], 30, "m3's join")
        mid = epochs(c.bootstrap(coordinator), group)
        c.kill(coordinator)
        assert mid[0] == "Reconciling" and len(mid[3]) == 3, mid
        c.wait_for(
            lambda: c.leader("__consumer_offsets", index) not in (-1, coordinator), timeout=30, what="a new coordinator"
        )
        produce(bs, topic, n, 100, 100)
        members.poll_until(
            lambda: len(members.seen) >= 200 and members.balanced(n), 90, "the records and m3's share after the move"
        )
        # the group was replayed, not rebuilt: the group epoch of the join, every member reconciled to it
        after = epochs(c.bootstrap(c.leader("__consumer_offsets", index)), group)
        assert after == ("Stable", mid[1], mid[1], [mid[1]] * 3), (mid, after)
        assert all(members.assignments().values()), members.assignments()
    finally:
        members.close_all()
    seen = collections.Counter((t, p, o) for t, p, o, _ in members.seen)
    assert len(seen) == 200 and sorted(seen) == sorted((topic, i % n, i // n) for i in range(200))
    # once each, unless a refused commit let its records be read again
    assert max(seen.values()) == 1 or members.refused, (seen.most_common(3), members.refused)
    assert set(members.refused) <= {"STALE_MEMBER_EPOCH"}, members.refused
