"""Kafka 4.3.1's operator tools against our broker, our cluster and Apache Kafka (issue 30).

Each test runs the same scenario with Kafka's own tool (its main class, as the kafka-*.sh script
does) on ours and on Apache Kafka, and asserts the same outcome and output shape.
`test_operator_tool_table` is the table of issue 30's Proof: each command (ROWS) against our single
broker and Apache's, and our 3-broker cluster and Apache's 3 nodes. Reassignment under load and its
throttle: test_reassignment.py.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
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


@pytest.fixture(scope="module")
def our_cluster() -> Iterator[Any]:
    with cluster(3) as c:
        yield c


@pytest.fixture(scope="module", params=["ours", "apache"])
def any_cluster(request: pytest.FixtureRequest) -> Any:
    # ours: the module's cluster, shared with the table below
    return request.getfixturevalue("our_cluster" if request.param == "ours" else "apache_kafka_cluster")


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


# ---------------------------------------------------------------------------------------------
# kafka-leader-election.sh (ElectLeaders, API 43)
# ---------------------------------------------------------------------------------------------

LEADER_ELECTION = "org.apache.kafka.tools.LeaderElectionCommand"


def _elect(tools: Any, bootstrap: str, *args: str) -> tuple[int, dict[str, set[str]]]:
    """Run the tool; (exit code, {"ok"|"noop"|"error <Exception>: <message>": partitions})."""
    out = tools.run(
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
    """Leader, replicas and ISR of partition 0; (-1, [], []) while the broker asked does not list it yet
    (a broker of an Apache Kafka cluster answered a just-created topic without partitions in session
    16's CI-equivalent run 3: its metadata image had not caught up)."""
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(topic, timeout=10)
    p = md.topics[topic].partitions.get(0)
    if p is None:
        return -1, [], []
    return p.leader, list(p.replicas), list(p.isrs)


@pytest.mark.slow
def test_leader_election_after_a_restart(any_cluster: Any, tools: Any) -> None:
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
    assert _elect(tools, bootstrap, "--topic", topic, "--partition", "0") == (0, {"noop": {tp}})

    unknown = _name("nope")
    code, outcome = _elect(tools, bootstrap, "--topic", unknown, "--partition", "0")
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
        code, outcome = _elect(tools, others, "--topic", topic, "--partition", "0")
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
    assert _partition_0(bootstrap, topic)[0] not in (preferred, -1)
    code, outcome = _elect(tools, bootstrap, "--all-topic-partitions")
    assert code == 0 and tp in outcome.get("ok", set()), outcome
    assert set(outcome) == {"ok"}, outcome  # no partition failed; not-needed ones are not listed
    wait_until(lambda: _partition_0(bootstrap, topic)[0] == preferred, timeout=30, what="the preferred leader back")
    assert _elect(tools, bootstrap, "--topic", topic, "--partition", "0") == (0, {"noop": {tp}})


# ---------------------------------------------------------------------------------------------
# kafka-features.sh describe (ApiVersions v3+ supported/finalized features, KIP-584/KIP-1022)
# ---------------------------------------------------------------------------------------------

FEATURES = "org.apache.kafka.tools.FeatureCommand"


def _features(tools: Any, bootstrap: str) -> dict[str, dict[str, str]]:
    out = tools.run(FEATURES, "--bootstrap-server", bootstrap, "describe")
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


# ---------------------------------------------------------------------------------------------
# The table (issue 30's Proof): each operator command of Kafka 4.3.1's tools against our single
# broker and Apache Kafka's, and against our 3-broker cluster and Apache Kafka's, with the same
# normalized outcome (exit code, output, the state read back from every broker). The tools run in
# one JVM (tests/peers/tool_shell.py): a JVM start per command would cost ~2 s each.
# ---------------------------------------------------------------------------------------------

TOPICS = "org.apache.kafka.tools.TopicCommand"
CONFIGS = "kafka.admin.ConfigCommand"
REASSIGN = "org.apache.kafka.tools.reassign.ReassignPartitionsCommand"
TOPIC_RESOURCE, BROKER_RESOURCE, GROUP_RESOURCE = 2, 4, 32


@pytest.fixture(scope="module")
def tools(kafka_tools: Any) -> Any:
    return kafka_tools  # the run's one tool JVM (tests/peers/fixtures.py)


@pytest.fixture(scope="module")
def our_broker() -> Iterator[Any]:
    from broker_embedded import EmbeddedBroker

    with EmbeddedBroker(num_partitions=4) as b:
        yield b


@dataclass
class Target:
    """One broker or cluster under the table: its bootstrap and its broker ids (ours 1..3 or 0,
    Apache 0..2), which the outcomes name by rank (B0, B1, B2) so that they compare."""

    server: Any
    bootstrap: str
    nodes: list[int]

    def at(self, node: int) -> str:
        return self.server.bootstrap(node) if len(self.nodes) > 1 else self.bootstrap

    def rank(self, text: str) -> str:
        """Broker ids in a comma-separated list as their ranks."""
        return ",".join(f"B{self.nodes.index(int(x))}" for x in text.split(",") if x.strip())


def _target(request: pytest.FixtureRequest, backend: str, size: str) -> Target:
    name = {
        ("ours", "single"): "our_broker",
        ("apache", "single"): "apache_kafka",
        ("ours", "cluster"): "our_cluster",
        ("apache", "cluster"): "apache_kafka_cluster",
    }[(backend, size)]
    server = request.getfixturevalue(name)
    bootstrap = server.bootstrap_servers
    return Target(server, bootstrap, _broker_ids(bootstrap))


# Differences between ours and Apache Kafka 4.3.1 the table found and does not compare yet (the
# lead's list to fix; each pattern is removed from both outputs):
KNOWN_DIFFERENCES = {
    # Apache's `kafka-storage format` bootstraps the cluster with a dynamic default
    # min.insync.replicas=1 (DYNAMIC_DEFAULT_BROKER_CONFIG): it shows in kafka-topics' Configs and
    # kafka-configs --entity-default; ours has no such record
    "min.insync.replicas=1 cluster default": r"min\.insync\.replicas=1,|\n  min\.insync\.replicas=1 sensitive=false "
    r"synonyms=\{DYNAMIC_DEFAULT_BROKER_CONFIG:min\.insync\.replicas=1\}",
}


def _tool(tools: Any, main: str, t: Target, *args: str, topic: str = "\0") -> tuple[int, str]:
    """(exit code, stdout + stderr) with the topic named T, the bootstrap B, "on broker(s) <ids>"
    as ranks, no stack trace lines (Java frames) and no KNOWN_DIFFERENCES."""
    out = tools.run(main, "--bootstrap-server", t.bootstrap, *args, check=False)
    text = (out.stdout + out.stderr).replace(topic, "T").replace(t.bootstrap, "B")
    text = "\n".join(line for line in text.splitlines() if not re.match(r"\t(at |\.\.\. \d+ more)", line)).strip()
    for pattern in KNOWN_DIFFERENCES.values():
        text = re.sub(pattern, "", text)
    return out.returncode, re.sub(r"(on brokers? )([\d,]+)", lambda m: m.group(1) + t.rank(m.group(2)), text)


def _describe_config(bootstrap: str, resource_type: int, name: str, key: str) -> tuple[str | None, int] | None:
    """(value, source) of one config as the broker at `bootstrap` describes it; None if unlisted."""
    from kafka_wire.protocol.messages import describe_configs_request as dcq

    conn = w.connect(bootstrap)
    try:
        req = dcq.DescribeConfigsRequest(
            resources=[
                dcq.DescribeConfigsResource(resource_type=resource_type, resource_name=name, configuration_keys=[key])
            ],
        )
        (result,) = conn.request(32, req, 4).results
        assert result.error_code == 0, result.error_message
        found = [(c.value, c.config_source) for c in result.configs if c.name == key]
        return found[0] if found else None
    finally:
        conn.close()


def _everywhere(t: Target, what: str, read: Any, want: Any) -> None:
    """Poll every broker until `read(bootstrap of one broker)` gives `want` (Apache's brokers
    follow the controller's metadata log a moment later)."""
    for node in t.nodes:
        wait_until(lambda n=node: read(t.at(n)) == want, timeout=30, what=f"{what} on broker {node}")


def _row_topics_describe(t: Target, tools: Any, size: str) -> Any:
    """kafka-topics --describe of a topic with a config and an explicit assignment."""
    topic = _name("tt")
    rf = min(2, len(t.nodes))
    assignment = [[t.nodes[(p + r) % len(t.nodes)] for r in range(rf)] for p in range(3)]
    admin = AdminClient({"bootstrap.servers": t.bootstrap})
    admin.create_topics([NewTopic(topic, 3, replica_assignment=assignment, config={"retention.ms": "3600000"})])[
        topic
    ].result(30)

    def described() -> tuple[int, list[str]] | None:
        code, out = _tool(tools, TOPICS, t, "--describe", "--topic", topic, topic=topic)
        lines = [re.sub(r"TopicId: \S+", "TopicId: X", line) for line in out.splitlines()]
        ranked = [
            re.sub(r"(Leader|Replicas|Isr): ([\d,]+)", lambda m: f"{m.group(1)}: {t.rank(m.group(2))}", line)
            for line in lines
        ]
        full = len([line for line in lines if "Isr: " in line]) == 3 and all(
            sorted(re.search(r"Replicas: ([\d,]+)", line).group(1).split(","))  # type: ignore[union-attr]
            == sorted(re.search(r"Isr: ([\d,]+)", line).group(1).split(","))  # type: ignore[union-attr]
            for line in lines
            if "Isr: " in line
        )
        return (code, ranked) if full else None

    return wait_until(described, timeout=30, interval=0.2, what="every partition with a full ISR")


def _row_log_dirs(t: Target, tools: Any, size: str) -> Any:
    """kafka-log-dirs --describe: every broker's dir holds its replicas, all with data."""
    topic = _name("ld")
    _create(t.bootstrap, topic, 2, len(t.nodes))
    _produce(t.bootstrap, topic, 2)

    def shape(*args: str) -> dict[str, Any]:
        out = tools.run(LOG_DIRS, "--describe", "--bootstrap-server", t.bootstrap, "--topic-list", topic, *args)
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        assert len(lines) == 1, out.stdout
        got = _shape(json.loads(lines[0]), topic)
        return {
            t.rank(str(n)): {**v, "partitions": {k.replace(topic, "T"): x for k, x in v["partitions"].items()}}
            for n, v in got.items()
        }

    want = {"dirs": 1, "errors": [None], "partitions": {"T-0": (True, 0, False), "T-1": (True, 0, False)}}

    def everyone() -> dict[str, Any] | None:  # followers catch up asynchronously
        got = shape()
        return got if len(got) == len(t.nodes) and all(v == want for v in got.values()) else None

    every = wait_until(everyone, timeout=60, interval=0.2, what="every replica with data in the log dirs answer")
    return every, shape("--broker-list", str(t.nodes[-1]))


def _row_leader_election(t: Target, tools: Any, size: str) -> Any:
    """kafka-leader-election --election-type preferred: not needed while the preferred replica
    leads; an unknown partition refused (the move-and-return case: test_leader_election_after_a_restart)."""
    topic = _name("le")
    _create(t.bootstrap, topic, 2, len(t.nodes))
    wait_until(lambda: len(_partition_0(t.bootstrap, topic)[2]) == len(t.nodes), 30, 0.1, "a full ISR")

    def elect(*args: str) -> tuple[int, dict[str, set[str]]]:
        out = tools.run(
            LEADER_ELECTION, "--bootstrap-server", t.bootstrap, "--election-type", "preferred", *args, check=False
        )
        outcome: dict[str, set[str]] = {}
        for line in out.stdout.splitlines():
            for prefix, key in (
                ("Valid replica already elected for partitions ", "noop"),
                ("Successfully completed leader election (PREFERRED) for partitions ", "ok"),
            ):
                if line.startswith(prefix):
                    outcome.setdefault(key, set()).update(
                        p.replace(topic, "T") for p in line[len(prefix) :].split(", ")
                    )
            if line.startswith("Error completing leader election (PREFERRED) for partition: "):
                partition, error = line.split(": ", 1)[1].split(": ", 1)
                outcome.setdefault(f"error {error.replace(topic, 'T')}", set()).add(partition.replace(topic, "T"))
        return out.returncode, outcome

    got = [elect("--topic", topic, "--partition", "1"), elect("--topic", topic, "--partition", "7")]
    if size == "single":  # one broker leads every partition it has: nothing to elect anywhere
        got.append(elect("--all-topic-partitions"))
    return got


def _plan_file(topic: str, targets: dict[int, list[int]]) -> str:
    import tempfile

    doc = {"version": 1, "partitions": [{"topic": topic, "partition": p, "replicas": r} for p, r in targets.items()]}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, prefix="reassign-") as f:
        json.dump(doc, f)
    return f.name


def _row_reassign(t: Target, tools: Any, size: str) -> Any:
    """kafka-reassign-partitions: a cluster moves both partitions from {B0,B1} to {B1,B2} (execute,
    verify until completed, the replica sets read back, --list empty again); a single broker has
    nowhere to move to: the tool refuses a plan naming another broker, as on Apache's single broker."""
    import os

    topic = _name("ra")
    admin = AdminClient({"bootstrap.servers": t.bootstrap})
    n = t.nodes
    if size == "single":
        admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
        plan = _plan_file(topic, {0: [n[0] + 1]})
        try:
            code, out = _tool(tools, REASSIGN, t, "--execute", "--reassignment-json-file", plan, topic=topic)
            refused = (code, out.splitlines()[0].replace(str(n[0] + 1), "N"))
            same = _plan_file(topic, {0: [n[0]]})
            verified = _tool(tools, REASSIGN, t, "--verify", "--reassignment-json-file", same, topic=topic)
            os.unlink(same)
        finally:
            os.unlink(plan)
        return refused, verified, _tool(tools, REASSIGN, t, "--list")
    a, b, c = n
    admin.create_topics([NewTopic(topic, 2, replica_assignment=[[a, b], [b, a]])])[topic].result(30)
    _produce(t.bootstrap, topic, 2)
    plan = _plan_file(topic, {0: [b, c], 1: [c, b]})
    try:
        started = _tool(tools, REASSIGN, t, "--execute", "--reassignment-json-file", plan, topic=topic)
        # the tool first prints the current assignment (ids): keep its last line, the outcome
        started = (started[0], started[1].splitlines()[-1])

        def verified() -> tuple[int, str] | None:
            # until both are completed (Apache's metadata answer may lag its controller: "There is no
            # active reassignment of partition T-1, but replica set is 2,1,0 rather than 2,1.")
            got = _tool(tools, REASSIGN, t, "--verify", "--reassignment-json-file", plan, topic=topic)
            return got if got[1].count(" is completed.") == 2 else None

        done = wait_until(verified, timeout=60, interval=0.2, what="the reassignment completed")
    finally:
        os.unlink(plan)
    state = {
        i: (t.rank(",".join(map(str, p.replicas))), t.rank(",".join(map(str, sorted(p.isrs)))))
        for i, p in admin.list_topics(topic, timeout=10).topics[topic].partitions.items()
    }
    return started, done, state, _tool(tools, REASSIGN, t, "--list")


def _row_configs_topic(t: Target, tools: Any, size: str) -> Any:
    """kafka-configs --entity-type topics: alter, describe, every broker reads it back, delete."""
    topic = _name("ct")
    _create(t.bootstrap, topic, 1, len(t.nodes))
    entity = ("--entity-type", "topics", "--entity-name", topic)
    altered = _tool(tools, CONFIGS, t, "--alter", *entity, "--add-config", "retention.ms=3600000", topic=topic)
    read = lambda bs: _describe_config(bs, TOPIC_RESOURCE, topic, "retention.ms")  # noqa: E731
    _everywhere(t, "the topic config", read, ("3600000", 1))  # DYNAMIC_TOPIC_CONFIG
    described = _tool(tools, CONFIGS, t, "--describe", *entity, topic=topic)
    deleted = _tool(tools, CONFIGS, t, "--alter", *entity, "--delete-config", "retention.ms", topic=topic)
    _everywhere(t, "the topic config deleted", lambda bs: read(bs)[1], 5)  # type: ignore[index]  # DEFAULT_CONFIG
    return altered, described, deleted, _tool(tools, CONFIGS, t, "--describe", *entity, topic=topic)


def _row_configs_brokers(t: Target, tools: Any, size: str) -> Any:
    """kafka-configs --entity-type brokers: one broker's dynamic config and the cluster default
    (--entity-default), each read back from the brokers it applies to, then deleted."""
    node = t.nodes[-1]
    mine = ("--entity-type", "brokers", "--entity-name", str(node))
    default = ("--entity-type", "brokers", "--entity-default")

    def run(*args: str) -> tuple[int, str]:
        code, text = _tool(tools, CONFIGS, t, *args)
        return code, text.replace(f"broker {node}", "broker N")

    out: list[Any] = []
    try:
        out.append(run("--alter", *mine, "--add-config", "message.max.bytes=2000000"))
        out.append(run("--alter", *default, "--add-config", "log.retention.ms=7200000"))
        wait_until(
            lambda: _describe_config(t.at(node), BROKER_RESOURCE, str(node), "message.max.bytes") == ("2000000", 2),
            timeout=30,
            what="the broker's own dynamic config",
        )
        # the cluster default reaches every broker: DYNAMIC_DEFAULT_BROKER_CONFIG
        _everywhere(
            t,
            "the cluster default",
            lambda bs: _describe_config(bs, BROKER_RESOURCE, "", "log.retention.ms"),
            ("7200000", 3),
        )
        out.append(run("--describe", *mine))
        out.append(run("--describe", *default))
    finally:
        out.append(run("--alter", *mine, "--delete-config", "message.max.bytes"))
        out.append(run("--alter", *default, "--delete-config", "log.retention.ms"))
    # the cluster default resource lists only the dynamic defaults: none left
    _everywhere(
        t, "the cluster default deleted", lambda bs: _describe_config(bs, BROKER_RESOURCE, "", "log.retention.ms"), None
    )
    return out


def _quota_of(bootstrap: str, user: str) -> dict[str, float]:
    from kafka_wire.protocol.messages import describe_client_quotas_request as dq

    conn = w.connect(bootstrap)
    try:
        req = dq.DescribeClientQuotasRequest(
            components=[dq.ComponentData(entity_type="user", match_type=0, match=user)], strict=False
        )
        r = conn.request(48, req, 1)
        assert r.error_code == 0, r.error_message
        return {v.key: v.value for entry in r.entries for v in entry.values}
    finally:
        conn.close()


def _row_configs_quotas(t: Target, tools: Any, size: str) -> Any:
    """kafka-configs --entity-type users|clients: quotas of a user, of a user and client-id pair,
    read back from every broker (they enforce them), then deleted."""
    user, client = _name("qu"), _name("qc")
    pair = ("--entity-type", "users", "--entity-name", user, "--entity-type", "clients", "--entity-name", client)
    alone = ("--entity-type", "users", "--entity-name", user)
    out = [
        _tool(tools, CONFIGS, t, "--alter", *pair, "--add-config", "request_percentage=50"),
        _tool(tools, CONFIGS, t, "--alter", *alone, "--add-config", "producer_byte_rate=1024,consumer_byte_rate=2048"),
    ]
    _everywhere(
        t,
        "the quotas",
        lambda bs: _quota_of(bs, user),
        {"request_percentage": 50.0, "producer_byte_rate": 1024.0, "consumer_byte_rate": 2048.0},
    )
    out.append(_tool(tools, CONFIGS, t, "--describe", *pair))
    out.append(_tool(tools, CONFIGS, t, "--describe", *alone))
    out.append(_tool(tools, CONFIGS, t, "--alter", *pair, "--delete-config", "request_percentage"))
    out.append(_tool(tools, CONFIGS, t, "--alter", *alone, "--delete-config", "producer_byte_rate,consumer_byte_rate"))
    _everywhere(t, "the quotas deleted", lambda bs: _quota_of(bs, user), {})
    return [(c, x.replace(user, "U").replace(client, "C")) for c, x in out]


def _row_configs_groups(t: Target, tools: Any, size: str) -> Any:
    """kafka-configs --entity-type groups (KIP-848 group configs): alter, describe, read back."""
    group = _name("cg")
    entity = ("--entity-type", "groups", "--entity-name", group)
    out = [
        _tool(tools, CONFIGS, t, "--alter", *entity, "--add-config", "consumer.session.timeout.ms=50000", topic=group)
    ]
    _everywhere(
        t,
        "the group config",
        lambda bs: (_describe_config(bs, GROUP_RESOURCE, group, "consumer.session.timeout.ms") or (None,))[0],
        "50000",
    )
    out.append(_tool(tools, CONFIGS, t, "--describe", *entity, topic=group))
    out.append(
        _tool(tools, CONFIGS, t, "--alter", *entity, "--add-config", "consumer.session.timeout.ms=1", topic=group)
    )
    return out


def _row_features_describe(t: Target, tools: Any, size: str) -> Any:
    """kafka-features describe against each broker: the same answer from every one."""
    answers = [_features(tools, t.at(n)) for n in t.nodes]
    # the epoch is each broker's metadata offset (Apache): compared without it
    same = [{f: {k: v for k, v in x.items() if k != "Epoch"} for f, x in a.items()} for a in answers]
    assert all(a == same[0] for a in same), answers
    _check_features(answers[0])
    return answers[0]


def _same_features(ours: Any, apache: Any) -> None:
    """We list only the features that are real here (a subset of Apache's), each from the same
    minimum and finalized at the same level."""
    assert set(ours) <= set(apache), (ours, apache)
    assert {"metadata.version", "group.version"} <= set(ours)
    for name, fields in ours.items():
        assert fields["SupportedMinVersion"] == apache[name]["SupportedMinVersion"], name
        if name != "metadata.version":  # 4.3-IVx: the newest each supports
            assert fields["FinalizedVersionLevel"] == apache[name]["FinalizedVersionLevel"], name


def _row_features_upgrade(t: Target, tools: Any, size: str) -> Any:
    """kafka-features downgrade/upgrade group.version: every broker's ApiVersions shows the new
    finalized level; an unknown feature is refused with the controller's message."""
    from kafka_wire.protocol.messages import api_versions_request as avq

    def group_version(bootstrap: str) -> int | None:
        conn = w.connect(bootstrap)
        try:
            r = conn.request(18, avq.ApiVersionsRequest(client_software_name="t", client_software_version="1"), 4)
            return {f.name: f.max_version_level for f in r.finalized_features}.get("group.version")
        finally:
            conn.close()

    def run(*args: str) -> tuple[int, str]:
        code, text = _tool(tools, FEATURES, t, *args)
        return code, re.sub(r"Local controller \d+", "Local controller N", text)

    out = [run("upgrade", "--feature", "foo.version=1")]
    try:
        out.append(run("downgrade", "--feature", "group.version=0"))
        _everywhere(t, "group.version 0", group_version, None)  # level 0 leaves the finalized list
    finally:
        out.append(run("upgrade", "--feature", "group.version=1"))
    _everywhere(t, "group.version 1", group_version, 1)
    return out


ROWS: dict[str, tuple[Any, Any]] = {
    "kafka-topics --describe": (_row_topics_describe, None),
    "kafka-log-dirs --describe": (_row_log_dirs, None),
    "kafka-leader-election": (_row_leader_election, None),
    "kafka-reassign-partitions": (_row_reassign, None),
    "kafka-configs topics": (_row_configs_topic, None),
    "kafka-configs brokers": (_row_configs_brokers, None),
    "kafka-configs users+clients": (_row_configs_quotas, None),
    "kafka-configs groups": (_row_configs_groups, None),
    "kafka-features describe": (_row_features_describe, _same_features),
    "kafka-features upgrade/downgrade": (_row_features_upgrade, None),
}


@pytest.mark.parametrize("size", ["single", "cluster"])
@pytest.mark.parametrize("command", list(ROWS))
def test_operator_tool_table(command: str, size: str, request: pytest.FixtureRequest, tools: Any) -> None:
    run, compare = ROWS[command]
    ours = run(_target(request, "ours", size), tools, size)
    apache = run(_target(request, "apache", size), tools, size)
    if compare is not None:
        compare(ours, apache)
    else:
        assert ours == apache
