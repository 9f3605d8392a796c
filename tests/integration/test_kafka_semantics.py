"""Kafka semantics other projects' test suites found different on our broker (issue 27), each run
against our broker and Apache Kafka 4.3.1 with real clients, asserting the same outcome:

* topic names with a trailing newline are refused (CreateTopics, auto-creation by Metadata);
* DeleteRecords on a topic whose cleanup.policy lacks "delete" is a POLICY_VIOLATION;
* CreateTopics with a replication factor above the broker count: Kafka's code and message;
* retention runs on Kafka's schedule (first check log.initial.task.delay.ms after start), so
  records with old timestamps are still there a few seconds after they were produced;
* DescribeProducers is answered by any replica (``kafka-transactions.sh find-hanging --broker-id``);
* the first transaction with send_offsets_to_transaction on a brand-new 3-broker cluster succeeds.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker
from kafka_wire.errors import ErrorCode
from peers import jvm
from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import cluster
from tests.peers.fixtures import require_kafka_peers

pytestmark = pytest.mark.timeout(120)

TRANSACTIONS = "org.apache.kafka.tools.TransactionsCommand"
DAY_MS = 86_400_000


@pytest.fixture(scope="module")
def broker(either_broker: Any) -> Any:
    return either_broker


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _create(bootstrap: str, topic: NewTopic) -> KafkaException | None:
    """CreateTopics through librdkafka's admin client: None on success, else its exception."""
    admin = AdminClient({"bootstrap.servers": bootstrap})  # referenced until the result is in
    try:
        admin.create_topics([topic])[topic.topic].result(30)
    except KafkaException as e:
        return e
    return None


def _produce(bootstrap: str, topic: str, n: int, timestamp: int | None = None, partition: int = 0) -> None:
    """n keyed records (a compacted topic refuses keyless ones), every delivery checked."""
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    errors: list[Any] = []
    extra = {} if timestamp is None else {"timestamp": timestamp}
    for i in range(n):
        p.produce(
            topic,
            key=b"k%d" % i,
            value=b"v%d" % i,
            partition=partition,
            on_delivery=lambda e, _m: errors.append(e),
            **extra,
        )
    assert p.flush(30) == 0
    assert errors == [None] * n, errors


# --------------------------------------------------------------------------------------------
# topic names
# --------------------------------------------------------------------------------------------


def _newline_names_refused(bootstrap: str) -> None:
    for name in ("bad\n", _name("bad") + "\n"):
        err = _create(bootstrap, NewTopic(name, 1, 1))
        assert err is not None and err.args[0].code() == KafkaError.TOPIC_EXCEPTION, (name, err)
    # auto-creation through Metadata (a producer asks for unknown topics with auto-creation on)
    p = Producer({"bootstrap.servers": bootstrap, "allow.auto.create.topics": True})
    md = p.list_topics("auto\n", timeout=15)
    assert md.topics["auto\n"].error is not None
    assert md.topics["auto\n"].error.code() == KafkaError.TOPIC_EXCEPTION, md.topics["auto\n"].error
    names = set(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=15).topics)
    assert not {n for n in names if "\n" in n}, names


def test_topic_names_ending_in_a_newline_are_refused(broker: Any) -> None:
    """A regex ending in ``$`` matches before a trailing newline; Kafka checks every character."""
    _newline_names_refused(broker.bootstrap_servers)


@pytest.mark.parametrize(
    ("name", "version", "code"),
    [("pykafka", "1.0", ErrorCode.NONE), ("pykafka\n", "1.0", ErrorCode.INVALID_REQUEST),
     ("pykafka", "1.0\n", ErrorCode.INVALID_REQUEST)],
)  # fmt: skip
def test_client_software_name_ending_in_a_newline_is_refused(broker: Any, name: str, version: str, code: int) -> None:
    """KIP-511's client software name and version are matched whole, as topic names are."""
    from kafka_wire.protocol.messages import api_versions_request as avq
    from tests.integration import wire_util as w

    conn = w.connect(broker.bootstrap_servers, negotiate=False)
    try:
        r = conn.request(18, avq.ApiVersionsRequest(client_software_name=name, client_software_version=version), 3)
        assert r.error_code == code, (name, version, r.error_code)
    finally:
        conn.close()


def test_a_stored_topic_with_an_illegal_name_does_not_stop_a_restart(tmp_path: Any) -> None:
    """Ours only (Apache Kafka never stored one): a log dir from before the fix, holding a topic
    "bad\\n" and its partition directory, starts; that topic stays offline (kept in topics.json for
    inspection), the others work."""
    with EmbeddedBroker(tmp_path, num_partitions=1) as b:
        _produce(b.bootstrap_servers, "good", 3)
        # what the old broker wrote for an accepted "bad\n": a registry entry and a log directory
        b.call(lambda br: br.topics.add("bad\n", 1, 1, {}) and br.topics.save())
        (tmp_path / "bad\n-0").mkdir()
    with EmbeddedBroker(tmp_path, num_partitions=1) as b:
        assert "bad\n" not in b.call(lambda br: set(br.topics.by_name))
        stored = json.loads((tmp_path / "topics.json").read_text())["topics"]
        assert "bad\n" in {t["name"] for t in stored}  # refused, kept for inspection
        md = AdminClient({"bootstrap.servers": b.bootstrap_servers}).list_topics(timeout=15)
        assert "good" in md.topics and not {n for n in md.topics if "\n" in n}
        c = Consumer({"bootstrap.servers": b.bootstrap_servers, "group.id": _name("g")})
        try:
            assert c.get_watermark_offsets(TopicPartition("good", 0), timeout=15) == (0, 3)
        finally:
            c.close()


# --------------------------------------------------------------------------------------------
# DeleteRecords and cleanup.policy
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("policy", "allowed"), [("compact", False), ("compact,delete", True), ("delete", True)])
def test_delete_records_needs_the_delete_policy(broker: Any, policy: str, allowed: bool) -> None:
    """Kafka (Partition.deleteRecordsOnLeader): records of a log without "delete" in its
    cleanup.policy cannot be deleted: POLICY_VIOLATION."""
    topic = _name("dr")
    assert _create(broker.bootstrap_servers, NewTopic(topic, 1, 1, config={"cleanup.policy": policy})) is None
    _produce(broker.bootstrap_servers, topic, 5)
    admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
    fut = admin.delete_records([TopicPartition(topic, 0, 2)])[TopicPartition(topic, 0, 2)]
    if allowed:
        assert fut.result(30).low_watermark == 2
        return
    with pytest.raises(KafkaException) as e:
        fut.result(30)
    assert e.value.args[0].code() == KafkaError.POLICY_VIOLATION, e.value


# --------------------------------------------------------------------------------------------
# CreateTopics: replication factor above the broker count
# --------------------------------------------------------------------------------------------


def test_replication_factor_above_the_broker_count(broker: Any) -> None:
    topic = _name("rf3")
    err = _create(broker.bootstrap_servers, NewTopic(topic, 1, 3))
    assert err is not None
    assert err.args[0].code() == KafkaError.INVALID_REPLICATION_FACTOR, err
    assert err.args[0].str() == (
        "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be reached "
        "because only 1 broker(s) are registered or some brokers have all their log directories cordoned."
    )


# --------------------------------------------------------------------------------------------
# retention schedule
# --------------------------------------------------------------------------------------------


@pytest.fixture(params=["ours", "apache"])
def fresh_broker(request: pytest.FixtureRequest) -> Iterator[Any]:
    """A broker started for this test with the default retention settings: when the first
    retention check runs depends on the broker's start, so the session's broker would not do."""
    if request.param == "ours":
        with EmbeddedBroker(num_partitions=1) as b:
            yield b
        return
    require_kafka_peers()
    with jvm.ApacheKafka(1, num_partitions=1) as k:
        yield k


def test_records_with_old_timestamps_outlive_the_first_seconds(fresh_broker: Any) -> None:
    """Records 8 days old under the default retention.ms (7 days): Kafka deletes them at its
    first retention check, log.initial.task.delay.ms (30 s) after start, not before. A client test
    producing old timestamps reads them back meanwhile on both brokers."""
    topic, n = _name("old"), 20
    assert _create(fresh_broker.bootstrap_servers, NewTopic(topic, 1, 1)) is None
    _produce(fresh_broker.bootstrap_servers, topic, n, timestamp=int(time.time() * 1000) - 8 * DAY_MS)
    c = Consumer(
        {
            "bootstrap.servers": fresh_broker.bootstrap_servers,
            "group.id": _name("g"),
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    try:
        # our old broker checked every second: 3 s is three checks
        time.sleep(3)
        assert c.get_watermark_offsets(TopicPartition(topic, 0), timeout=15) == (0, n)
        c.assign([TopicPartition(topic, 0, 0)])
        got: list[bytes] = []
        deadline = time.monotonic() + 20
        while len(got) < n and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is not None and m.error() is None:
                got.append(m.value())
        assert got == [b"v%d" % i for i in range(n)]
    finally:
        c.close()


def test_retention_check_follows_the_configured_schedule(tmp_path: Any) -> None:
    """Ours only (Kafka's internal log.initial.task.delay.ms is what the default case above shows):
    with a short initial delay and interval the same old records go at once."""
    cfg = {"log.initial.task.delay.ms": 0, "log.retention.check.interval.ms": 100}
    with EmbeddedBroker(tmp_path, num_partitions=1, **cfg) as b:
        _produce(b.bootstrap_servers, "old", 5, timestamp=int(time.time() * 1000) - 8 * DAY_MS)
        wait_until(
            lambda: b.call(lambda br: br.partition("old", 0).log.log_start_offset) == 5,
            timeout=15,
            what="retention to delete the old records",
        )


# --------------------------------------------------------------------------------------------
# clusters: DescribeProducers on followers, the first transaction on a fresh cluster
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["ours", "apache"])
def any_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        with cluster(3) as c:
            yield c
        return
    yield request.getfixturevalue("apache_kafka_cluster")


def test_replication_factor_above_the_cluster_size(any_cluster: Any) -> None:
    err = _create(any_cluster.bootstrap_servers, NewTopic(_name("rf4"), 1, 4))
    assert err is not None and err.args[0].code() == KafkaError.INVALID_REPLICATION_FACTOR, err
    assert err.args[0].str() == (
        "Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot be reached "
        "because only 3 broker(s) are registered or some brokers have all their log directories cordoned."
    )


def test_topic_names_ending_in_a_newline_are_refused_by_a_cluster(any_cluster: Any) -> None:
    """The same on three brokers: CreateTopics goes to the controller, auto-creation through the
    broker that got the Metadata request."""
    _newline_names_refused(any_cluster.bootstrap_servers)


def _replicas(bootstrap: str, topic: str) -> tuple[int, list[int]]:
    """(leader, replicas) of partition 0 once all three replicas are in sync."""
    admin = AdminClient({"bootstrap.servers": bootstrap})

    def state() -> tuple[int, list[int]] | None:
        p = admin.list_topics(topic, timeout=10).topics[topic].partitions.get(0)
        if p is None or p.leader < 0 or len(p.isrs) != 3:
            return None
        return p.leader, list(p.replicas)

    return wait_until(state, timeout=30, what=f"{topic}-0 with an ISR of 3")


@pytest.mark.slow
def test_describe_producers_answered_by_followers(any_cluster: Any, java_client: Any) -> None:
    """An open transaction's producer is described by every replica, leader or follower (Kafka's
    ReplicaManager.activeProducerState reads the local log); Kafka's own kafka-transactions.sh
    describe-producers / find-hanging with --broker-id of a follower succeed."""
    from kafka_wire.protocol.messages import describe_producers_request as dpq
    from tests.integration import wire_util as w

    bootstrap = any_cluster.bootstrap_servers
    topic, tid = _name("dp"), _name("tid")
    assert _create(bootstrap, NewTopic(topic, 1, 3)) is None
    leader, replicas = _replicas(bootstrap, topic)
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": tid, "acks": "all"})
    p.init_transactions(60)
    p.begin_transaction()
    p.produce(topic, value=b"open", partition=0)
    assert p.flush(30) == 0
    try:
        for node in replicas:
            conn = w.connect(any_cluster.bootstrap(node))
            try:
                # followers learn the records by fetching: poll until this replica has them
                def described(conn: Any = conn, node: int = node) -> Any:
                    r = conn.request(
                        61, dpq.DescribeProducersRequest(topics=[dpq.TopicRequest(name=topic, partition_indexes=[0])])
                    )
                    part = r.topics[0].partitions[0]
                    assert part.error_code == ErrorCode.NONE, (node, leader, part)
                    return part.active_producers or None

                (state,) = wait_until(described, timeout=15, what=f"broker {node} to hold the open transaction")
                assert state.current_txn_start_offset == 0, (node, state)
            finally:
                conn.close()
        follower = next(n for n in replicas if n != leader)
        out = java_client.run(
            TRANSACTIONS, "--bootstrap-server", bootstrap, "describe-producers",
            "--topic", topic, "--partition", "0", "--broker-id", str(follower), timeout=90,
        ).stdout  # fmt: skip
        assert "ProducerId" in out and "CurrentTransactionStartOffset" in out, out
        rows = [line.split() for line in out.splitlines()[1:] if line.strip()]
        assert len(rows) == 1 and rows[0][-1] == "0", out  # the open transaction starts at offset 0
        for node in replicas:
            # --max-transaction-timeout 0: the open transaction is a candidate, looked up through
            # ListTransactions / DescribeTransactions, and found not hanging (the coordinator
            # still lists the partition)
            r = java_client.run(
                TRANSACTIONS, "--bootstrap-server", bootstrap, "find-hanging", "--broker-id", str(node),
                "--max-transaction-timeout", "0", timeout=90, check=False,
            )  # fmt: skip
            assert r.returncode == 0, (node, r.stdout[-2000:], r.stderr[-2000:])
            assert r.stdout.split()[:2] == ["Topic", "Partition"] and topic not in r.stdout, (node, r.stdout)
    finally:
        p.abort_transaction(30)


def _first_transaction_with_offsets(bootstrap: str) -> None:
    """init, produce, send_offsets_to_transaction, commit: what a consume-transform-produce app
    does first; then the group's committed offset is the one sent."""
    topic, group, tid = _name("eos"), _name("g"), _name("tid")
    assert _create(bootstrap, NewTopic(topic, 1, 3)) is None  # __consumer_offsets stays uncreated
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": tid, "acks": "all"})
    p.init_transactions(60)
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        p.begin_transaction()
        p.produce(topic, value=b"out")
        p.send_offsets_to_transaction([TopicPartition(topic, 0, 42)], c.consumer_group_metadata(), 60)
        p.commit_transaction(60)
        (tp,) = c.committed([TopicPartition(topic, 0)], timeout=30)
        assert tp.offset == 42 and tp.error is None, tp
    finally:
        c.close()


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["ours", "apache"])
def test_first_transaction_with_offsets_on_a_fresh_cluster(kind: str) -> None:
    """A brand-new cluster has no __consumer_offsets yet when the first AddOffsetsToTxn arrives:
    the answer must be one librdkafka retries (Kafka's coordinator never says LEADER_NOT_AVAILABLE
    there, which librdkafka turns into a failed transaction). A fresh cluster each time: the
    window exists once per cluster (ours three times, bounded; Apache Kafka's JVMs once)."""
    if kind == "ours":
        for _ in range(3):
            with cluster(3) as c:
                _first_transaction_with_offsets(c.bootstrap_servers)
        return
    require_kafka_peers()
    with jvm.ApacheKafka(3, num_partitions=1) as k:
        _first_transaction_with_offsets(k.bootstrap_servers)
