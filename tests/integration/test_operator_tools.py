"""Kafka 4.3.1's operator tools against our broker, our cluster and Apache Kafka (issue 30).

Each test runs the same scenario with Kafka's own tool (its main class, as the kafka-*.sh script
does) on ours and on Apache Kafka, and asserts the same outcome and output shape.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import describe_log_dirs_request as dldq
from tests.integration import wire_util as w
from tests.integration.clients_util import wait_until
from tests.integration.cluster_util import cluster

LOG_DIRS = "org.apache.kafka.tools.LogDirsCommand"


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module", params=["ours", "apache"])
def any_cluster(request: pytest.FixtureRequest) -> Iterator[Any]:
    if request.param == "ours":
        with cluster(3) as c:
            yield c
        return
    yield request.getfixturevalue("apache_kafka_cluster")


def _create(bootstrap: str, topic: str, partitions: int, rf: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})  # kept alive until the result is in
    admin.create_topics([NewTopic(topic, partitions, rf)])[topic].result(30)


def _produce(bootstrap: str, topic: str, partitions: int, per_partition: int = 20) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for part in range(partitions):
        for i in range(per_partition):
            p.produce(topic, value=b"v" * 100 + str(i).encode(), partition=part)
    assert p.flush(30) == 0


def _broker_ids(bootstrap: str) -> list[int]:
    return sorted(AdminClient({"bootstrap.servers": bootstrap}).list_topics(timeout=10).brokers)


def _log_dirs_json(java_client: Any, bootstrap: str, *args: str) -> dict[str, Any]:
    out = java_client.run(LOG_DIRS, "--describe", "--bootstrap-server", bootstrap, *args)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    assert len(lines) == 1, out.stdout
    return json.loads(lines[0])  # type: ignore[no-any-return]


def _shape(doc: dict[str, Any], topic: str) -> dict[int, dict[str, Any]]:
    """broker -> {"dirs": n, "errors": [...], "partitions": {name: (size>0, lag, future)}} of `topic`."""
    assert doc["version"] == 1
    out: dict[int, dict[str, Any]] = {}
    for b in doc["brokers"]:
        parts = {
            p["partition"]: (p["size"] > 0, p["offsetLag"], p["isFuture"])
            for d in b["logDirs"]
            for p in d["partitions"]
            if p["partition"].rsplit("-", 1)[0] == topic
        }
        out[b["broker"]] = {
            "dirs": len(b["logDirs"]),
            "errors": [d["error"] for d in b["logDirs"]],
            "partitions": parts,
        }
    return out


# ---------------------------------------------------------------------------------------------
# kafka-log-dirs.sh --describe (DescribeLogDirs, API 35)
# ---------------------------------------------------------------------------------------------


def test_log_dirs_describe_single_broker(either_broker: Any, java_client: Any) -> None:
    bootstrap = either_broker.bootstrap_servers
    topic = _name("ld")
    _create(bootstrap, topic, 2, 1)
    _produce(bootstrap, topic, 2)
    (node,) = _broker_ids(bootstrap)
    doc = _log_dirs_json(java_client, bootstrap, "--broker-list", str(node), "--topic-list", topic)
    assert _shape(doc, topic) == {
        node: {
            "dirs": 1,
            "errors": [None],
            "partitions": {f"{topic}-0": (True, 0, False), f"{topic}-1": (True, 0, False)},
        }
    }
    # --topic-list filters: only that topic's partitions are listed
    assert {p["partition"] for p in doc["brokers"][0]["logDirs"][0]["partitions"]} == {f"{topic}-0", f"{topic}-1"}


def test_describe_log_dirs_wire(either_broker: Any) -> None:
    """v4: total and usable bytes of the dir's file system; a size per partition that grows with
    the records; null topics = all partitions, an empty list = none."""
    bootstrap = either_broker.bootstrap_servers
    topic = _name("ldw")
    _create(bootstrap, topic, 1, 1)
    conn = w.connect(bootstrap)
    try:

        def size() -> int:
            r = conn.request(35, dldq.DescribeLogDirsRequest(topics=[dldq.DescribableLogDirTopic(topic, [0])]), 4)
            assert r.error_code == ErrorCode.NONE and len(r.results) == 1
            d = r.results[0]
            assert d.error_code == 0 and d.total_bytes >= d.usable_bytes > 0, d
            return sum(p.partition_size for t in d.topics if t.name == topic for p in t.partitions)

        before = size()
        _produce(bootstrap, topic, 1, per_partition=50)
        assert size() > before + 50 * 100
        everything = conn.request(35, dldq.DescribeLogDirsRequest(topics=None), 4).results[0]
        assert topic in {t.name for t in everything.topics}
        none = conn.request(35, dldq.DescribeLogDirsRequest(topics=[]), 4).results[0]
        assert none.error_code == 0 and none.topics == []
        v1 = conn.request(35, dldq.DescribeLogDirsRequest(topics=None), 1).results[0]
        assert topic in {t.name for t in v1.topics}
    finally:
        conn.close()


@pytest.mark.slow
def test_log_dirs_describe_cluster(any_cluster: Any, java_client: Any) -> None:
    """Every broker of a 3-broker cluster answers for its own dir: each holds every partition of an
    rf=3 topic, all with data; without --broker-list the tool asks every broker."""
    bootstrap = any_cluster.bootstrap_servers
    topic = _name("ldc")
    _create(bootstrap, topic, 2, 3)
    _produce(bootstrap, topic, 2)
    nodes = _broker_ids(bootstrap)
    assert len(nodes) == 3
    want = {
        n: {"dirs": 1, "errors": [None], "partitions": {f"{topic}-0": (True, 0, False), f"{topic}-1": (True, 0, False)}}
        for n in nodes
    }

    def described() -> bool:
        # followers catch up asynchronously: poll until every replica holds data
        return _shape(_log_dirs_json(java_client, bootstrap, "--topic-list", topic), topic) == want

    wait_until(described, timeout=60, what="every replica of the topic in the log dirs answer")
    one = _shape(_log_dirs_json(java_client, bootstrap, "--broker-list", str(nodes[1]), "--topic-list", topic), topic)
    assert one == {nodes[1]: want[nodes[1]]}


# ---------------------------------------------------------------------------------------------
# kafka-leader-election.sh (ElectLeaders, API 43)
# ---------------------------------------------------------------------------------------------

LEADER_ELECTION = "org.apache.kafka.tools.LeaderElectionCommand"


def _elect(java_client: Any, bootstrap: str, *args: str) -> tuple[int, dict[str, set[str]]]:
    """Run the tool; (exit code, {"ok"|"noop"|"error <Exception>: <message>": partitions})."""
    out = java_client.run(
        LEADER_ELECTION, "--bootstrap-server", bootstrap, "--election-type", "preferred", *args, check=False
    )
    outcome: dict[str, set[str]] = {}
    for line in out.stdout.splitlines():
        if line.startswith("Successfully completed leader election (PREFERRED) for partitions "):
            outcome.setdefault("ok", set()).update(line.split(" for partitions ", 1)[1].split(", "))
        elif line.startswith("Valid replica already elected for partitions "):
            outcome.setdefault("noop", set()).update(line.split(" for partitions ", 1)[1].split(", "))
        elif line.startswith("Error completing leader election (PREFERRED) for partition: "):
            partition, error = line.split(": ", 1)[1].split(": ", 1)
            outcome.setdefault(f"error {error}", set()).add(partition)
    return out.returncode, outcome


def _partition_0(bootstrap: str, topic: str) -> tuple[int, list[int], list[int]]:
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(topic, timeout=10)
    p = md.topics[topic].partitions[0]
    return p.leader, list(p.replicas), list(p.isrs)


@pytest.mark.slow
def test_leader_election_after_a_restart(any_cluster: Any, java_client: Any) -> None:
    """Preferred election with Kafka's tool: not needed while the preferred replica leads; not
    available while it is down (leadership moved away); after it restarts and rejoins the ISR,
    --all-topic-partitions moves leadership back. An unknown topic fails with its own error."""
    bootstrap = any_cluster.bootstrap_servers
    topic = _name("le")
    _create(bootstrap, topic, 1, 3)

    def full_isr() -> tuple[int, list[int], list[int]] | None:
        state = _partition_0(bootstrap, topic)
        return state if state[0] >= 0 and len(state[2]) == 3 else None

    leader, replicas, _ = wait_until(full_isr, timeout=30, what="a full ISR")
    preferred = replicas[0]
    assert leader == preferred
    tp = f"{topic}-0"
    assert _elect(java_client, bootstrap, "--topic", topic, "--partition", "0") == (0, {"noop": {tp}})

    unknown = _name("nope")
    code, outcome = _elect(java_client, bootstrap, "--topic", unknown, "--partition", "0")
    assert code == 1
    assert outcome == {
        "error org.apache.kafka.common.errors.UnknownTopicOrPartitionException: No such topic as " + unknown: {
            f"{unknown}-0"
        }
    }

    others = ",".join(any_cluster.bootstrap(n) for n in replicas[1:])
    any_cluster.kill(preferred)
    try:
        wait_until(
            lambda: _partition_0(others, topic)[0] not in (preferred, -1),
            timeout=60,
            what="leadership to move off the killed broker",
        )
        code, outcome = _elect(java_client, others, "--topic", topic, "--partition", "0")
        assert (code, outcome) == (
            1,
            {
                "error org.apache.kafka.common.errors.PreferredLeaderNotAvailableException: "
                "The preferred leader was not available.": {tp}
            },
        )
    finally:
        any_cluster.start(preferred)
    wait_until(
        lambda: preferred in _partition_0(bootstrap, topic)[2], timeout=90, what="the restarted broker in the ISR"
    )
    assert _partition_0(bootstrap, topic)[0] != preferred
    code, outcome = _elect(java_client, bootstrap, "--all-topic-partitions")
    assert code == 0 and tp in outcome.get("ok", set()), outcome
    assert set(outcome) == {"ok"}, outcome  # no partition failed; not-needed ones are not listed
    wait_until(lambda: _partition_0(bootstrap, topic)[0] == preferred, timeout=30, what="the preferred leader back")
    assert _elect(java_client, bootstrap, "--topic", topic, "--partition", "0") == (0, {"noop": {tp}})


def test_leader_election_single_broker(either_broker: Any, java_client: Any) -> None:
    """One broker is every partition's preferred leader: nothing to elect, unknown topics refused."""
    bootstrap = either_broker.bootstrap_servers
    topic = _name("le1")
    _create(bootstrap, topic, 2, 1)
    code, outcome = _elect(java_client, bootstrap, "--topic", topic, "--partition", "1")
    assert (code, outcome) == (0, {"noop": {f"{topic}-1"}})
    code, outcome = _elect(java_client, bootstrap, "--all-topic-partitions")
    assert (code, outcome) == (0, {})
    code, outcome = _elect(java_client, bootstrap, "--topic", topic, "--partition", "7")
    assert code == 1 and list(outcome) == [
        f"error org.apache.kafka.common.errors.UnknownTopicOrPartitionException: No such partition as {topic}-7"
    ], outcome


# ---------------------------------------------------------------------------------------------
# kafka-features.sh describe (ApiVersions v3+ supported/finalized features, KIP-584/KIP-1022)
# ---------------------------------------------------------------------------------------------

FEATURES = "org.apache.kafka.tools.FeatureCommand"


def _features(java_client: Any, bootstrap: str) -> dict[str, dict[str, str]]:
    out = java_client.run(FEATURES, "--bootstrap-server", bootstrap, "describe")
    described: dict[str, dict[str, str]] = {}
    for line in out.stdout.splitlines():
        if not line.startswith("Feature: "):
            continue
        # "Feature: name   SupportedMinVersion: x   ...": columns padded with spaces
        fields = dict(re.findall(r"(\w+): (\S+)", line))
        described[fields.pop("Feature")] = fields
    return described


def _check_features(described: dict[str, dict[str, str]]) -> None:
    assert "metadata.version" in described, described
    for name, fields in described.items():
        assert set(fields) == {"SupportedMinVersion", "SupportedMaxVersion", "FinalizedVersionLevel", "Epoch"}, name
        assert int(fields["Epoch"]) >= 0
    mv = described["metadata.version"]
    assert mv["SupportedMinVersion"] == "3.3-IV3"  # the oldest KRaft metadata version Kafka 4 supports
    assert mv["FinalizedVersionLevel"] == mv["SupportedMaxVersion"]  # a fresh cluster runs its newest
    assert mv["SupportedMaxVersion"].split("-")[0] >= "4.0"


@pytest.fixture(scope="module")
def apache_features(apache_kafka: Any) -> dict[str, dict[str, str]]:
    from tests.peers.fixtures import JavaClient

    return _features(JavaClient(), apache_kafka.bootstrap_servers)


def test_features_describe(either_broker: Any, java_client: Any, apache_features: dict[str, dict[str, str]]) -> None:
    """The same lines and fields as Apache Kafka's; every feature we list Apache Kafka lists too, from
    the same minimum version (we list only what is real here: metadata.version, group.version)."""
    described = _features(java_client, either_broker.bootstrap_servers)
    _check_features(described)
    assert set(described) <= set(apache_features)
    for name, fields in described.items():
        assert fields["SupportedMinVersion"] == apache_features[name]["SupportedMinVersion"], name


@pytest.mark.slow
def test_features_describe_cluster(
    any_cluster: Any, java_client: Any, apache_features: dict[str, dict[str, str]]
) -> None:
    for node in _broker_ids(any_cluster.bootstrap_servers):
        described = _features(java_client, any_cluster.bootstrap(node))
        _check_features(described)
        assert set(described) <= set(apache_features)


def test_api_versions_features_wire(either_broker: Any) -> None:
    """v4 lists every supported feature; v3 leaves out ranges starting at 0 (KIP-1022); both carry the
    finalized levels and an epoch; v2 carries none."""
    from kafka_wire.protocol.messages import api_versions_request as avq

    conn = w.connect(either_broker.bootstrap_servers, negotiate=False)
    try:
        ask = avq.ApiVersionsRequest(client_software_name="t", client_software_version="1")
        v4, v3 = conn.request(18, ask, 4), conn.request(18, ask, 3)
        v2 = conn.request(18, avq.ApiVersionsRequest(), 2)
    finally:
        conn.close()
    supported4 = {f.name: (f.min_version, f.max_version) for f in v4.supported_features}
    supported3 = {f.name: (f.min_version, f.max_version) for f in v3.supported_features}
    assert supported4["group.version"][0] == 0 and "group.version" not in supported3
    assert supported3 == {n: r for n, r in supported4.items() if r[0] > 0}
    assert supported4["metadata.version"][0] == 7
    for r in (v3, v4):
        finalized = {f.name: (f.min_version_level, f.max_version_level) for f in r.finalized_features}
        level = finalized["metadata.version"][1]
        assert finalized["metadata.version"] == (level, level) and level >= 25
        assert r.finalized_features_epoch >= 0
    assert v2.supported_features == [] and v2.finalized_features == []


# ---------------------------------------------------------------------------------------------
# auto.leader.rebalance.enable (the controller's balance, Kafka 4's schedule)
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("enabled", [True, False])
def test_auto_leader_rebalance_after_a_restart(enabled: bool) -> None:
    """Ours only (the Apache cluster fixture runs the default 300 s check interval): with a 2 s
    interval, leadership returns to the restarted preferred replica by itself once it is in the ISR;
    with auto.leader.rebalance.enable=false it stays away."""
    with cluster(3, **{"leader.imbalance.check.interval.seconds": 2, "auto.leader.rebalance.enable": enabled}) as c:
        topic = _name("alr")
        _create(c.bootstrap_servers, topic, 1, 3)
        c.wait_for(lambda: len(c.isr(topic, 0)) == 3, what="a full ISR")
        preferred = c.partition_state(topic, 0)["replicas"][0]
        assert c.leader(topic, 0) == preferred
        c.kill(preferred)
        try:
            c.wait_for(lambda: c.leader(topic, 0) not in (preferred, -1), what="leadership moved away")
        finally:
            c.start(preferred)
        c.wait_for(lambda: preferred in c.isr(topic, 0), timeout=60, what="the restarted replica in the ISR")
        if enabled:
            c.wait_for(lambda: c.leader(topic, 0) == preferred, timeout=20, what="the automatic balance")
        else:
            time.sleep(5)  # two and a half check intervals: nothing may move
            assert c.leader(topic, 0) != preferred
