"""Consumer groups under churn, differential (our broker and Apache Kafka 4.3.1 with the same short group
timeouts), on both group protocols: five members of two client libraries -- confluent-kafka in child
processes (testsupport/group_member_proc.py) and Kafka's Java `VerifiableConsumer` -- join a group while
a producer writes, one leaves, two are SIGKILLed (one of each library), and the survivors take over.
Every record written is consumed, the group's committed offsets (sampled all along) never go back, no
partition is owned by two members at once (by the members' own rebalance callbacks, a killed member
owning its partitions until its death), and `kafka-consumer-groups --describe` shows the survivors of the
consumer-protocol group with no lag (a classic group's describe: tests/peers/test_java_clients.py).
Also: group mode's revocation (connector/source/group_mode.py, commit before revoke) against both
coordinators, and a member subscribing to 10,000 topics.

The Apache broker is this module's own (Kafka's defaults put the consumer protocol's session timeout at
45 s and its heartbeat at 5 s, minimums included; the session's `apache_kafka` keeps Kafka's defaults
for the tests that check them), started once for the module.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from broker_embedded import EmbeddedBroker
from connector.options import parse_source_options
from connector.source.group_mode import GroupSession
from consumer_group import GroupMember, TopicPartition
from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh
from kafka_wire.protocol.messages import offset_fetch_request as ofr
from offsets.spec import TopicPartition as SourceTopicPartition
from peers import jvm
from tests.integration.test_kip848_consumer_group import create_topic, find_coordinator
from tests.integration.wire_util import connect
from tests.peers.fixtures import JavaClient, JsonLines, require_kafka_peers
from testsupport.group_member_proc import MemberProcess, double_owners, ownership_intervals

pytestmark = pytest.mark.slow

SESSION_MS, HEARTBEAT_MS = 3000, 500
# the same on both brokers: the consumer protocol's session and heartbeat are the broker's, the
# classic one's the members' (bounded by group.min.session.timeout.ms)
FAST_GROUPS: dict[str, Any] = {
    "group.consumer.session.timeout.ms": SESSION_MS,
    "group.consumer.min.session.timeout.ms": 1000,
    "group.consumer.heartbeat.interval.ms": HEARTBEAT_MS,
    "group.consumer.min.heartbeat.interval.ms": HEARTBEAT_MS,
    "group.min.session.timeout.ms": 1000,
    "group.initial.rebalance.delay.ms": 0,
}
PARTITIONS = 8


@pytest.fixture(scope="module", params=["ours", "apache"])
def broker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if request.param == "ours":
        with EmbeddedBroker(tmp_path_factory.mktemp("kip848-churn"), num_partitions=4, **FAST_GROUPS) as b:
            yield b
        return
    require_kafka_peers()
    with jvm.ApacheKafka(1, num_partitions=4, overrides=FAST_GROUPS) as kafka:
        yield kafka


def _name(prefix: str) -> str:
    return f"churn-{prefix}-{uuid.uuid4().hex[:8]}"


def wait_until(condition: Callable[[], Any], timeout: float, what: Callable[[], str] | str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what() if callable(what) else what}")
        time.sleep(0.05)


class Writer(threading.Thread):
    """Writes one record to every partition every 0.1 s until stopped; keeps what was acknowledged."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        super().__init__(daemon=True)
        self.producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
        self.topic = topic
        self.stopping = threading.Event()
        self.acked: set[tuple[int, int]] = set()
        self.failed: list[str] = []

    def _on_delivery(self, err: Any, msg: Any) -> None:
        if err is not None:
            self.failed.append(str(err))
        else:
            self.acked.add((msg.partition(), msg.offset()))

    def run(self) -> None:
        while not self.stopping.wait(0.1):
            for p in range(PARTITIONS):
                self.producer.produce(self.topic, b"v", partition=p, on_delivery=self._on_delivery)
            self.producer.poll(0)
        self.producer.flush(30)

    def stop(self) -> None:
        self.stopping.set()
        self.join(40)

    def ends(self) -> dict[int, int]:
        acked = self.acked.copy()  # (atomic: the delivery callbacks add from the writer's thread)
        return {p: 1 + max((o for q, o in acked if q == p), default=-1) for p in range(PARTITIONS)}


class CommittedOffsets(threading.Thread):
    """Samples the group's committed offsets (OffsetFetch, as an admin) every 0.2 s: each partition's must
    never go back. Over the wire, not through librdkafka's admin client, which crashed this process now
    and then (a SIGSEGV in one of its threads) polling Apache Kafka for a group not created yet."""

    def __init__(self, bootstrap: str, group: str, topic: str) -> None:
        super().__init__(daemon=True)
        self.bootstrap, self.group, self.topic = bootstrap, group, topic
        self.stopping = threading.Event()
        self.latest: dict[int, int] = {}
        self.samples = 0
        self.went_back: list[tuple[int, int, int]] = []  # (partition, before, after)

    def _fetch(self, conn: Any) -> dict[int, int]:
        body = ofr.OffsetFetchRequest(
            groups=[
                ofr.OffsetFetchRequestGroup(
                    group_id=self.group,
                    member_id=None,
                    member_epoch=-1,
                    topics=[ofr.OffsetFetchRequestTopics(name=self.topic, partition_indexes=list(range(PARTITIONS)))],
                )
            ]
        )
        (g,) = conn.request(9, body, version=9).groups
        if g.error_code:
            return {}
        return {
            p.partition_index: p.committed_offset for t in g.topics for p in t.partitions if p.committed_offset >= 0
        }

    def run(self) -> None:
        conn = None
        while not self.stopping.wait(0.2):
            try:
                if conn is None:
                    conn = connect(self.bootstrap)
                got = self._fetch(conn)
            except Exception:
                if conn is not None:
                    conn.close()
                conn = None
                continue  # e.g. the coordinator busy loading: the next sample tells
            for p, o in got.items():
                if o < self.latest.get(p, -1):
                    self.went_back.append((p, self.latest[p], o))
            self.latest.update(got)
            self.samples += 1
        if conn is not None:
            conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self.join(20)


class JavaMember:
    """A VerifiableConsumer seen like a MemberProcess: its callbacks, records, SIGKILL and stop."""

    def __init__(self, lines: JsonLines) -> None:
        self.lines = lines
        self.ended: float | None = None

    def callbacks(self) -> list[tuple[float, str, list[int]]]:
        kinds = {"partitions_assigned": "assign", "partitions_revoked": "revoke"}
        return [
            (e["timestamp"] / 1000, kinds[e["name"]], [tp["partition"] for tp in e["partitions"]])
            for name in kinds
            for e in self.lines.of(name)
        ]

    def records(self) -> list[tuple[int, int]]:
        return [(e["partition"], e["offset"]) for e in self.lines.of("record_data")]

    def kill9(self) -> float:
        t = time.time()
        os.killpg(self.lines.proc.pid, signal.SIGKILL)
        self.lines.proc.wait(10)
        self.ended = t
        return t

    def terminate(self) -> None:
        self.lines.stop()  # SIGTERM: the shutdown hook closes the consumer (revoke, leave)
        self.ended = time.time()

    def close(self) -> None:
        self.lines.stop()


def _table(text: str, first: str) -> list[dict[str, str]]:
    """Rows of a kafka-consumer-groups table whose header starts with `first`."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    header = next(ln for ln in lines if ln and ln[0] == first)
    return [dict(zip(header, ln, strict=False)) for ln in lines if ln is not header and ln[0] != first]


@pytest.mark.parametrize("protocol", ["consumer", "classic"])
def test_five_members_join_leave_and_are_killed_under_a_producer(
    broker: Any, java_client: JavaClient, protocol: str, tmp_path: Path
) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("t"), _name("g")
    create_topic(bs, topic, PARTITIONS)
    java_args = ["--group-protocol", protocol, "--verbose", "--reset-policy", "earliest"]
    if protocol == "classic":
        config = tmp_path / "consumer.properties"
        config.write_text(f"heartbeat.interval.ms={HEARTBEAT_MS}\n")
        java_args += ["--session-timeout", str(SESSION_MS), "--consumer.config", str(config)]
    py_args = [
        "--protocol",
        protocol,
        "--records",
        "--session-ms",
        str(SESSION_MS),
        "--heartbeat-ms",
        str(HEARTBEAT_MS),
    ]
    members: dict[str, Any] = {}

    def java(name: str) -> None:
        members[name] = JavaMember(java_client.verifiable_consumer(bs, topic, group, *java_args))

    def python(name: str) -> None:
        members[name] = MemberProcess(name, bs, topic, group, *py_args)

    def owned(name: str) -> set[int]:
        m = members[name]
        return {p for p, _, end in ownership_intervals(m.callbacks(), m.ended) if end == float("inf")}

    def cover(names: list[str]) -> bool:
        mine = [owned(n) for n in names]
        return all(mine) and set().union(*mine) == set(range(PARTITIONS))

    def state() -> str:
        return str({n: sorted(owned(n)) for n in members})

    def refused() -> dict[str, list[Any]]:
        """Each member's refused commits (the Java member logs every commit, the Python one the refused)."""
        out: dict[str, list[Any]] = {}
        for n, m in members.items():
            if isinstance(m, JavaMember):
                out[n] = [
                    (e.get("error"), e.get("offsets")) for e in m.lines.of("offsets_committed") if not e["success"]
                ]
            else:
                out[n] = [(e["error"], e.get("p")) for e in m.of("commit") if not e.get("ok")]
        return out

    writer, commits = Writer(bs, topic), CommittedOffsets(bs, group, topic)
    writer.start()
    commits.start()
    try:
        for start, name in ((java, "j1"), (java, "j2"), (python, "c1")):  # the JVMs start slowest: first
            start(name)
        wait_until(lambda: cover(["j1", "j2", "c1"]), 90, lambda: f"three members sharing the topic: {state()}")
        python("c2")
        python("c3")
        everyone = ["j1", "j2", "c1", "c2", "c3"]
        wait_until(lambda: cover(everyone), 60, lambda: f"five members sharing the topic: {state()}")
        # the members about to go away have read from what they own (under load an assignment can land just
        # before the leave, with no fetch yet: the handoff would then prove nothing about their offsets)
        leaving = ("c2", "c3", "j2")
        wait_until(
            lambda: all(members[n].records() for n in leaving),
            60,
            lambda: f"the leaving members reading: { {n: len(members[n].records()) for n in leaving} } {state()}",
        )
        members["c2"].terminate()  # leaves the group
        wait_until(lambda: cover(["j1", "j2", "c1", "c3"]), 60, lambda: f"c2's partitions moved: {state()}")
        members["c3"].kill9()  # no leave: both are found dead by their session timeouts
        members["j2"].kill9()
        wait_until(lambda: cover(["j1", "c1"]), 60, lambda: f"the survivors owning everything: {state()}")
        # A commit sent with the member epoch a heartbeat is just replacing is taken only if the member has held
        # every partition in it since that epoch (KIP-1251, Kafka 4.3.1 -- ours refused every such commit until
        # session 18: in its CI-equivalent run 1 a partition's committed offset stayed at 81 of 83); else it is
        # refused STALE_MEMBER_EPOCH, by both brokers, and neither client retries it. Had the writer stopped
        # here, such a partition would keep its committed offset behind what was read. So a round more is
        # written once the survivors own everything: its commits carry their final epochs and must all land.
        settled = writer.ends()
        wait_until(
            lambda: all(end > settled[p] for p, end in writer.ends().items()),
            30,
            "a round written after the survivors took over",
        )
        writer.stop()
        ends = writer.ends()

        def consumed() -> set[tuple[int, int]]:
            return {r for m in members.values() for r in m.records()}

        wait_until(lambda: writer.acked <= consumed(), 60, lambda: f"{len(writer.acked - consumed())} unconsumed")
        wait_until(
            lambda: commits.latest == ends,
            30,
            lambda: f"offsets {commits.latest} committed up to {ends}; {state()}; refused: {refused()}",
        )
        print(f"\n[{protocol}] refused commits: {refused()}")
        if protocol == "consumer":  # (a classic group's: tests/peers/test_java_clients.py)
            # the tool's view of the survivors: two members, the broker's assignor, nothing lagging
            out = java_client.consumer_groups(bs, "--describe", "--group", group, "--state").stdout
            assert [(r["STATE"], r["#MEMBERS"], r["ASSIGNMENT-STRATEGY"]) for r in _table(out, "GROUP")] == [
                ("Stable", "2", "uniform")
            ], out
            rows = _table(java_client.consumer_groups(bs, "--describe", "--group", group).stdout, "GROUP")
            assert sorted((int(r["PARTITION"]), int(r["CURRENT-OFFSET"]), r["LAG"]) for r in rows) == [
                (p, ends[p], "0") for p in range(PARTITIONS)
            ], rows
            assert len({r["CONSUMER-ID"] for r in rows}) == 2, rows
    finally:
        writer.stop()
        commits.stop()
        for m in members.values():
            m.close()
    assert not writer.failed, writer.failed[:3]
    assert commits.samples > 10 and not commits.went_back, f"committed offsets went back: {commits.went_back[:5]}"
    intervals = {n: ownership_intervals(m.callbacks(), m.ended) for n, m in members.items()}
    assert not double_owners(intervals), f"owned twice (partition, members, seconds): {double_owners(intervals)[:5]}"


def _group_mode_options(bs: str, topic: str, group: str) -> dict[str, str]:
    return {
        "kafka.bootstrap.servers": bs,
        "subscribe": topic,
        "kafka.group.id": group,
        "groupMode": "true",
        "kafka.group.protocol": "consumer",
        "startingOffsets": "earliest",
        "kafka.max.poll.interval.ms": "20000",  # a revocation waits up to 10 s for the batch
        "kafka.default.api.timeout.ms": "20000",
        "kafka.metadata.max.age.ms": "1000",
    }


def test_group_mode_commits_before_it_releases_and_keeps_reading_its_own(broker: Any) -> None:
    """Group mode's session (the stream reader's membership) against both coordinators: a member joins
    while a batch reads all four partitions; the two that move leave planning at once, reach the new
    member only after that batch is committed and resume at its end, and the two that stay are planned
    throughout; the other member leaves and the session gets its partitions back."""
    bs = broker.bootstrap_servers
    topic, group = _name("gm"), _name("gmg")
    create_topic(bs, topic, 4)
    every = {SourceTopicPartition(topic, p) for p in range(4)}
    session = GroupSession(parse_source_options(_group_mode_options(bs, topic, group)), [topic]).start()
    resumed: dict[tuple[str, int], int | None] = {}

    def assigned(parts: frozenset[TopicPartition]) -> None:
        for tp, om in other.committed(parts, timeout=10).items():
            resumed[(tp.topic, tp.partition)] = None if om is None else om.offset

    other = GroupMember(bs, group, [topic], group_protocol="consumer", on_partitions_assigned=assigned)
    try:
        wait_until(lambda: session.view().owned == every, 60, "the session owning the topic")
        with session.planning():
            assert session.view().owned == every
            session.planned({tp: 10 for tp in every})  # batch 1 reads offsets up to 10 of all four
        other.start()
        wait_until(lambda: len(session._revoking) == 2, 60, "the session's revocation")
        moving = set(session._revoking)
        kept = every - moving
        assert session.view().owned == kept  # out of planning at once; the rest is planned on
        held_until = time.monotonic() + 3 * HEARTBEAT_MS / 1000
        while time.monotonic() < held_until:  # a few heartbeats: not released while batch 1 runs
            assert not other.assignment() and not resumed
            assert session.view().owned == kept and moving == set(session._revoking)
            time.sleep(0.05)
        session.commit_finished({tp: 10 for tp in every})  # Spark finished batch 1
        wait_until(lambda: len(resumed) == 2 and other.is_stable(), 60, "the new member owning the moved two")
        assert resumed == {(tp.topic, tp.partition): 10 for tp in moving}  # where batch 1 ended
        assert session.view().owned == kept and session.refused_commits == 0
        other.close(10)
        wait_until(lambda: session.view().owned == every, 60, "the session owning everything again")
    finally:
        other.close(10)
        session.close(10)


def test_a_member_subscribing_to_10000_topics_disturbs_no_one(broker: Any) -> None:
    """10,000 subscribed names (one of them a real topic) in one heartbeat: the member gets that topic's
    partitions and nothing else; a member of another group meanwhile heartbeats on at its epoch; two
    regular expressions RE2/J refuses are answered INVALID_REGULAR_EXPRESSION."""
    bs = broker.bootstrap_servers
    topic, big, quiet = _name("big"), _name("bigg"), _name("quiet")
    create_topic(bs, topic, 2)
    names = [topic, *(f"{topic}-absent-{i}" for i in range(9999))]
    with connect(bs) as conn:
        find_coordinator(conn, big)
        find_coordinator(conn, quiet)

        def heartbeat(group: str, member: str, **fields: Any) -> Any:
            body = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, **fields)
            return conn.request(68, body, version=1)

        join = {"member_epoch": 0, "rebalance_timeout_ms": 30000, "topic_partitions": []}

        def assigned(group: str, member: str, r: Any) -> Any:
            """Heartbeats until the member's assignment comes (the join's answer may carry it)."""
            deadline = time.monotonic() + 30
            while not r.assignment or not r.assignment.topic_partitions:
                assert r.error_code == 0 and time.monotonic() < deadline, r
                time.sleep(0.2)
                r = heartbeat(group, member, member_epoch=r.member_epoch)
            return r

        q = uuid.uuid4().hex
        quiet_joined = assigned(quiet, q, heartbeat(quiet, q, **join, subscribed_topic_names=[topic]))
        b = uuid.uuid4().hex
        t0 = time.monotonic()
        joined = heartbeat(big, b, **join, subscribed_topic_names=names)
        took = time.monotonic() - t0
        assert joined.error_code == 0 and took < 10, (joined, took)
        r = assigned(big, b, joined)
        assert [sorted(t.partitions) for t in r.assignment.topic_partitions] == [[0, 1]]
        # the other group's member goes on as before: same epoch, no error
        again = heartbeat(quiet, q, member_epoch=quiet_joined.member_epoch)
        assert again.error_code == 0 and again.member_epoch == quiet_joined.member_epoch, again
        for regex in ("a(?=b)", "(a)\\1"):  # lookahead and backreference: not RE2/J
            refused = heartbeat(_name("rx"), uuid.uuid4().hex, **join, subscribed_topic_regex=regex)
            assert ErrorCode(refused.error_code) == ErrorCode.INVALID_REGULAR_EXPRESSION, (regex, refused)
        assert heartbeat(big, b, member_epoch=-1).error_code == 0
        assert heartbeat(quiet, q, member_epoch=-1).error_code == 0
