"""Apache Kafka's own Java clients and tools against our broker (and, for the CLIs, against real
Apache Kafka side by side): the verifiable producer/consumer that Kafka's system tests use, with
a broker SIGKILL in the middle; kafka-consumer-groups, kafka-topics, kafka-configs; a Kafka
Streams word count."""

from __future__ import annotations

import collections
import re
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, Producer

from broker_embedded import EmbeddedCluster
from peers import jvm
from tests.integration.cluster_util import cluster, create_topic, wait_full_isr
from tests.peers.fixtures import JavaClient, JsonLines

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


@pytest.fixture(params=["ours", "apache"])
def any_bootstrap(request: pytest.FixtureRequest, broker: object) -> str:
    """The bootstrap of our broker (module fixture) or of the session's Apache Kafka."""
    if request.param == "ours":
        return broker.bootstrap_servers  # type: ignore[attr-defined]
    return request.getfixturevalue("apache_kafka").bootstrap_servers


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


# --- topics / configs CLIs ----------------------------------------------------------------------


def test_topics_cli_create_describe_alter_delete(java_client: JavaClient, any_bootstrap: str) -> None:
    topic = _name("cli-topic")
    java_client.topics(any_bootstrap, "--create", "--topic", topic, "--partitions", "2", "--replication-factor", "1")
    listed = java_client.topics(any_bootstrap, "--list").stdout.split()
    assert topic in listed
    described = java_client.topics(any_bootstrap, "--describe", "--topic", topic).stdout
    assert "PartitionCount: 2" in described
    assert len(re.findall(r"Partition: \d+\s+Leader: \d+", described)) == 2
    java_client.topics(any_bootstrap, "--alter", "--topic", topic, "--partitions", "3")
    described = java_client.topics(any_bootstrap, "--describe", "--topic", topic).stdout
    assert "PartitionCount: 3" in described
    # creating it again is refused with Kafka's TopicExistsException
    again = java_client.topics(any_bootstrap, "--create", "--topic", topic, "--partitions", "1", check=False)
    assert again.returncode != 0
    assert "already exists" in again.stdout + again.stderr
    java_client.topics(any_bootstrap, "--delete", "--topic", topic)
    deadline = time.monotonic() + 30
    while topic in java_client.topics(any_bootstrap, "--list").stdout.split():
        assert time.monotonic() < deadline, "deleted topic still listed"
        time.sleep(0.5)


def test_configs_cli_alter_and_describe_topic(java_client: JavaClient, any_bootstrap: str) -> None:
    topic = _name("cli-config")
    java_client.topics(any_bootstrap, "--create", "--topic", topic, "--partitions", "1", "--replication-factor", "1")
    java_client.configs(
        any_bootstrap,
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--add-config",
        "retention.ms=3600000,cleanup.policy=compact",
    )
    out = java_client.configs(any_bootstrap, "--describe", "--entity-type", "topics", "--entity-name", topic).stdout
    assert "retention.ms=3600000" in out
    assert "cleanup.policy=compact" in out
    java_client.configs(
        any_bootstrap, "--alter", "--entity-type", "topics", "--entity-name", topic, "--delete-config", "retention.ms"
    )
    out = java_client.configs(any_bootstrap, "--describe", "--entity-type", "topics", "--entity-name", topic).stdout
    assert "retention.ms=3600000" not in out
    assert "cleanup.policy=compact" in out
    # an unknown config name is refused
    bad = java_client.configs(
        any_bootstrap,
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--add-config",
        "no.such.config=1",
        check=False,
    )
    assert bad.returncode != 0


# --- consumer groups CLI: lag -------------------------------------------------------------------


def _describe_rows(text: str, group: str) -> dict[int, dict[str, str]]:
    """Rows of `kafka-consumer-groups --describe` keyed by partition."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    header = next(ln for ln in lines if "PARTITION" in ln and "LAG" in ln)
    rows: dict[int, dict[str, str]] = {}
    for ln in lines:
        if ln and ln[0] == group and len(ln) >= len(header) - 3:
            row = dict(zip(header, ln, strict=False))
            rows[int(row["PARTITION"])] = row
    return rows


def test_consumer_groups_describe_shows_lag(java_client: JavaClient, any_bootstrap: str) -> None:
    topic, group = _name("lag"), _name("lag-group")
    create_topic(any_bootstrap, topic, partitions=2, rf=1)
    producer = Producer({"bootstrap.servers": any_bootstrap, "acks": "all"})
    for i in range(30):
        producer.produce(topic, value=str(i).encode(), partition=i % 2)
    assert producer.flush(30) == 0
    consumer = Consumer(
        {
            "bootstrap.servers": any_bootstrap,
            "group.id": group,
            "enable.auto.commit": False,
            "auto.offset.reset": "earliest",
        }
    )
    try:
        from confluent_kafka import TopicPartition

        consumer.commit(offsets=[TopicPartition(topic, 0, 5), TopicPartition(topic, 1, 15)], asynchronous=False)
    finally:
        consumer.close()
    out = java_client.consumer_groups(any_bootstrap, "--describe", "--group", group).stdout
    rows = _describe_rows(out, group)
    assert set(rows) == {0, 1}, out
    assert (rows[0]["CURRENT-OFFSET"], rows[0]["LOG-END-OFFSET"], rows[0]["LAG"]) == ("5", "15", "10")
    assert (rows[1]["CURRENT-OFFSET"], rows[1]["LOG-END-OFFSET"], rows[1]["LAG"]) == ("15", "15", "0")
    listed = java_client.consumer_groups(any_bootstrap, "--list").stdout.split()
    assert group in listed
    # reset offsets to earliest with the tool, then the lag is the whole log
    java_client.consumer_groups(
        any_bootstrap, "--reset-offsets", "--group", group, "--topic", topic, "--to-earliest", "--execute"
    )
    rows = _describe_rows(java_client.consumer_groups(any_bootstrap, "--describe", "--group", group).stdout, group)
    assert rows[0]["LAG"] == "15" and rows[1]["LAG"] == "15"


# --- verifiable producer + consumer with a broker SIGKILL -----------------------------------------


class _ApacheAsCluster:
    """The session's 3-node Apache Kafka behind EmbeddedCluster's few methods the test uses: the
    same scenario run against the reference, so the test itself is checked too."""

    def __init__(self, kafka: jvm.ApacheKafka) -> None:
        self.kafka = kafka
        self.num_brokers = kafka.nodes
        self.bootstrap_servers = kafka.bootstrap_servers

    def leader(self, topic: str, partition: int) -> int:
        from confluent_kafka.admin import AdminClient

        md = AdminClient({"bootstrap.servers": self.bootstrap_servers}).list_topics(topic, timeout=10)
        return int(md.topics[topic].partitions[partition].leader)

    def kill(self, node: int) -> None:
        self.kafka.kill(node)

    def start(self, node: int) -> None:
        self.kafka.start(node)


@pytest.fixture(params=["single", "cluster3", "apache3"])
def our_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "apache3":
        yield _ApacheAsCluster(request.getfixturevalue("apache_kafka_cluster"))
        return
    n = 1 if request.param == "single" else 3
    configs = {"min.insync.replicas": 2} if n == 3 else {}
    with cluster(n, **configs) as c:
        yield c


def _acked(producer: JsonLines) -> set[tuple[int, int, str]]:
    return {(e["partition"], e["offset"], e["value"]) for e in producer.of("producer_send_success")}


def _consumed(consumer: JsonLines) -> set[tuple[int, int, str]]:
    return {(e["partition"], e["offset"], e["value"]) for e in consumer.of("record_data")}


def test_verifiable_producer_consumer_survive_broker_sigkill(
    java_client: JavaClient, our_cluster: Any, tmp_path: object
) -> None:
    c = our_cluster
    n = c.num_brokers
    topic, group = _name("verifiable"), _name("verifiable-group")
    create_topic(c.bootstrap_servers, topic, partitions=3, rf=n, **({"min.insync.replicas": "2"} if n == 3 else {}))
    if isinstance(c, EmbeddedCluster) and n == 3:
        wait_full_isr(c, topic, partitions=3)
    config = tempfile.NamedTemporaryFile("w", suffix=".properties", delete=False)  # noqa: SIM115
    config.write("enable.idempotence=true\nacks=all\nretries=2147483647\ndelivery.timeout.ms=120000\n")
    config.write("request.timeout.ms=5000\nretry.backoff.ms=100\n")
    config.close()
    total = 2000
    consumer = java_client.verifiable_consumer(
        c.bootstrap_servers, topic, group, "--verbose", "--reset-policy", "earliest", "--session-timeout", "10000"
    )
    consumer.wait_for(lambda: consumer.of("partitions_assigned"), 60, "the consumer's first assignment")
    producer = java_client.verifiable_producer(
        c.bootstrap_servers,
        topic,
        "--max-messages",
        str(total),
        "--throughput",
        "400",
        "--acks",
        "-1",
        "--producer.config",
        config.name,
    )
    producer.wait_for(lambda: len(producer.of("producer_send_success")) >= total // 4, 60, "a quarter acked")
    victim = 1 if n == 1 else c.leader(topic, 0)
    c.kill(victim)
    time.sleep(2.0)
    c.start(victim)
    producer.wait_for(lambda: producer.proc.poll() is not None, 180, "the producer to finish")
    acked = _acked(producer)
    errors = producer.of("producer_send_error")
    assert len(acked) + len(errors) == total, (len(acked), errors[:3])
    assert not errors, errors[:3]
    # every acknowledged record is consumed by the group (at the same partition and offset)
    consumer.wait_for(lambda: acked <= _consumed(consumer), 120, "every acknowledged record consumed")
    # the values are the producer's sequence 0..total-1, each acknowledged exactly once
    values = collections.Counter(v for _, _, v in acked)
    assert sorted(int(v) for v in values) == list(range(total))
    # and the consumer committed offsets covering everything it read
    committed = consumer.of("offsets_committed")
    assert committed and any(e.get("success") for e in committed)


# --- Kafka Streams word count -----------------------------------------------------------------


def _latest_counts(bootstrap: str, topic: str, expected: dict[str, int], timeout: float) -> dict[str, int]:
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": _name("wc-reader"),
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    counts: dict[str, int] = {}
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and counts != expected:
            msg = consumer.poll(0.5)
            if msg is None or msg.error():
                continue
            counts[msg.key().decode()] = int(msg.value().decode())
        return counts
    finally:
        consumer.close()


def test_kafka_streams_word_count(java_client: JavaClient, any_bootstrap: str) -> None:
    bootstrap = any_bootstrap
    source, sink, app = _name("wc-in"), _name("wc-out"), _name("wordcount")
    create_topic(bootstrap, source, partitions=2, rf=1)
    create_topic(bootstrap, sink, partitions=2, rf=1)
    lines = ["the quick brown fox", "jumps over the lazy dog", "The dog barks", "fox and dog and THE end"]
    expected: collections.Counter[str] = collections.Counter()
    for line in lines:
        expected.update(w for w in re.split(r"\W+", line.lower()) if w)
    producer = Producer({"bootstrap.servers": bootstrap})
    for i, line in enumerate(lines):
        producer.produce(source, key=str(i).encode(), value=line.encode())
    assert producer.flush(30) == 0
    with tempfile.TemporaryDirectory() as state:
        proc = java_client.word_count(bootstrap, source, sink, app, state)
        counts = _latest_counts(bootstrap, sink, dict(expected), timeout=120)
        assert proc.poll() is None, "the word count application died"
    assert counts == dict(expected)
