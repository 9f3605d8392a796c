"""KIP-848 with the Java 4.3.1 clients and tools, differential (ours and Apache Kafka 4.3.1): two
VerifiableConsumers with `--group-protocol consumer` share a topic, one leaves, the other takes
over; every record is read once; `kafka-consumer-groups --describe` shows the same group.
"""

from __future__ import annotations

import collections
import time
from typing import Any

import pytest

from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.test_kip848_consumer_group import _name, create_topic, produce
from tests.peers.fixtures import JavaClient, JsonLines

pytestmark = pytest.mark.slow


def _records(consumer: JsonLines) -> list[tuple[int, int]]:
    return [(e["partition"], e["offset"]) for e in consumer.of("record_data")]


def _table(text: str, first: str) -> list[dict[str, str]]:
    """Rows of a kafka-consumer-groups table whose header starts with `first`."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    header = next(ln for ln in lines if ln and ln[0] == first)
    return [dict(zip(header, ln, strict=False)) for ln in lines if ln is not header and ln[0] != first]


def _consumer(java_client: JavaClient, bootstrap: str, topic: str, group: str) -> JsonLines:
    return java_client.verifiable_consumer(
        bootstrap, topic, group, "--group-protocol", "consumer", "--verbose", "--reset-policy", "earliest"
    )


def test_java_consumers_share_hand_over_and_describe(java_client: JavaClient, broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group, n = _name("j"), _name("jg"), 4
    create_topic(bs, topic, n)
    a = _consumer(java_client, bs, topic, group)
    a.wait_for(lambda: a.of("partitions_assigned"), 60, "a's first assignment")
    b = _consumer(java_client, bs, topic, group)
    b.wait_for(
        lambda: b.of("partitions_assigned") and any(e["partitions"] for e in b.of("partitions_assigned")),
        60,
        "b's partitions",
    )
    produce(bs, topic, n, 0, 200)
    a.wait_for(lambda: len(_records(a)) + len(_records(b)) >= 200, 60, "the first 200 records")
    assert _records(a) and _records(b), "both members read"
    # the group as the tool shows it: two members, two partitions each, nothing lagging
    state = _table(java_client.consumer_groups(bs, "--describe", "--group", group, "--state").stdout, "GROUP")
    assert [(r["STATE"], r["#MEMBERS"]) for r in state] == [("Stable", "2")], state
    members = _table(java_client.consumer_groups(bs, "--describe", "--group", group, "--members").stdout, "GROUP")
    assert sorted(int(r["#PARTITIONS"]) for r in members) == [2, 2], members
    b.stop()  # a graceful close: the member leaves with epoch -1
    produce(bs, topic, n, 200, 200)
    a.wait_for(lambda: len(_records(a)) + len(_records(b)) >= 400, 90, "the next 200 records at the survivor")
    seen = collections.Counter(_records(a) + _records(b))
    assert len(seen) == 400 and max(seen.values()) == 1, "every record read exactly once"
    deadline = time.monotonic() + 30
    while True:
        out = java_client.consumer_groups(bs, "--describe", "--group", group).stdout
        rows = _table(out, "GROUP")
        if sorted((r["PARTITION"], r["CURRENT-OFFSET"], r["LAG"]) for r in rows) == [
            (str(p), "100", "0") for p in range(n)
        ]:
            break
        assert time.monotonic() < deadline, out
        time.sleep(1)
    assert len({r["CONSUMER-ID"] for r in rows}) == 1, "one member owns every partition"
    a.stop()
