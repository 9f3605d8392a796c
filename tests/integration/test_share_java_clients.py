"""Share groups with the Java 4.3.1 KafkaShareConsumer (Kafka's VerifiableShareConsumer tool),
differential (ours and Apache Kafka 4.3.1): two share consumers on one partition, synchronous
acknowledgement, the group's share.auto.offset.reset set by the tool through the Java Admin
(IncrementalAlterConfigs on the group). Every record is acknowledged, exactly once, by one member.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from typing import Any

import pytest

from peers import jvm
from tests.integration.test_kip848_consumer_group import create_topic
from tests.integration.test_share_groups import _name, _produce
from tests.peers.fixtures import JavaClient, JsonLines

pytestmark = pytest.mark.slow

VERIFIABLE_SHARE_CONSUMER = "org.apache.kafka.tools.VerifiableShareConsumer"


@pytest.fixture(scope="module", params=["ours", "apache"])
def broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        from broker_embedded import EmbeddedBroker

        with EmbeddedBroker(num_partitions=1) as b:
            yield b
        return
    yield request.getfixturevalue("apache_kafka")


def _share_consumer(java_client: JavaClient, bootstrap: str, topic: str, group: str) -> JsonLines:
    proc = jvm.java_popen(
        VERIFIABLE_SHARE_CONSUMER,
        "--bootstrap-server",
        bootstrap,
        "--topic",
        topic,
        "--group-id",
        group,
        "--acknowledgement-mode",
        "sync",
        "--offset-reset-strategy",
        "earliest",
    )
    return java_client._track(JsonLines(proc))


def _acknowledged(consumer: JsonLines) -> list[int]:
    return [
        o
        for e in consumer.of("offsets_acknowledged")
        if e.get("success")
        for p in e["partitions"]
        for o in p["offsets"]
    ]


def test_java_share_consumers_acknowledge_each_record_once(java_client: JavaClient, broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group, n = _name("j"), _name("jg"), 200
    create_topic(bs, topic, 1)
    _produce(bs, topic, range(n))
    a = _share_consumer(java_client, bs, topic, group)
    b = _share_consumer(java_client, bs, topic, group)
    both = [a, b]
    a.wait_for(lambda: len(_acknowledged(a)) + len(_acknowledged(b)) >= n, 60, f"{n} acknowledged offsets")
    counts = collections.Counter(o for c in both for o in _acknowledged(c))
    assert sorted(counts) == list(range(n))
    assert set(counts.values()) == {1}, {o: k for o, k in counts.items() if k > 1}
    for c in both:
        assert c.proc.poll() is None, "a share consumer died"
