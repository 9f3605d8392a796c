"""Streams groups (KIP-1071) with a real Kafka Streams 4.3.1 application, ours and Apache Kafka 4.3.1.

It runs with processing.guarantee=exactly_once_v2, so its TxnOffsetCommits are fenced by the
streams group's member epochs, and the output is read read_committed.

The peer `pykafka.peers.StreamsGroupWordCount` (group.protocol=streams) is a word count with a
repartition topic and a state store, so the broker registers a topology of two subtopologies,
creates the repartition and changelog topics, and assigns 2 + 2 tasks. Two instances count the
words of the input; one leaves (SIGTERM: a leave heartbeat) and the other takes all four tasks and
keeps counting. The same checks hold on both brokers: exact counts, the group's state and members by
StreamsGroupDescribe (89), and `kafka-streams-groups --list / --describe --members` output.
"""

from __future__ import annotations

import collections
import re
import time
import uuid
from pathlib import Path
from typing import Any

from confluent_kafka import Consumer, Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

from kafka_wire.protocol.messages import streams_group_describe_request as sgd
from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.wire_util import connect
from tests.peers.fixtures import JsonLines, require_kafka_peers

STREAMS_GROUPS = "org.apache.kafka.tools.streams.StreamsGroupCommand"
APP = "pykafka.peers.StreamsGroupWordCount"
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]


def _lines(start: int, n: int) -> list[str]:
    return [f"{WORDS[i % 6]} {WORDS[(i * 5 + 1) % 6]} {WORDS[i % 4]}" for i in range(start, start + n)]


def _count(lines: list[str]) -> dict[str, int]:
    return dict(collections.Counter(w for line in lines for w in re.split(r"\W+", line.lower()) if w))


def _describe(bootstrap: str, group: str) -> Any:
    with connect(bootstrap) as conn:
        resp = conn.request(89, sgd.StreamsGroupDescribeRequest(group_ids=[group]), 0)
    return resp.groups[0]


def _tasks(assignment: Any) -> int:
    return sum(len(t.partitions) for t in assignment.active_tasks)


def _wait(pred: Any, timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}: {last!r}")


class Counts:
    """The latest count per word on the output topic, read as it comes."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self.consumer = Consumer(
            {
                "bootstrap.servers": bootstrap,
                "group.id": f"reader-{uuid.uuid4()}",
                "auto.offset.reset": "earliest",
                "isolation.level": "read_committed",
            }
        )
        self.consumer.subscribe([topic])
        self.counts: dict[str, int] = {}

    def until(self, expected: dict[str, int], timeout: float) -> dict[str, int]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.counts != expected:
            m = self.consumer.poll(0.3)
            if m is not None and m.error() is None:
                self.counts[m.key().decode()] = int(m.value().decode())
        return self.counts

    def close(self) -> None:
        self.consumer.close()


def _stable(bootstrap: str, group: str, members: int) -> Any:
    """The group when Stable with `members` members, the 4 active tasks spread evenly and, with two
    instances, each stateful task's standby (streams.num.standby.replicas=1) on the other instance."""
    g = _describe(bootstrap, group)
    if g.error_code or g.group_state != "Stable" or len(g.members) != members:
        return None
    per = sorted(_tasks(m.assignment) for m in g.members)
    if sum(per) != 4 or per[-1] - per[0] > 0 or any(m.member_epoch != g.group_epoch for m in g.members):
        return None
    # standbys only of the stateful subtopology (the one with a changelog), as Kafka assigns them
    stateful = {s.subtopology_id for s in g.topology.subtopologies or [] if s.state_changelog_topics}
    standbys = [{(t.subtopology_id, p) for t in m.assignment.standby_tasks for p in t.partitions} for m in g.members]
    actives = [
        {(t.subtopology_id, p) for t in m.assignment.active_tasks for p in t.partitions if t.subtopology_id in stateful}
        for m in g.members
    ]
    if members == 2 and (standbys[0] != actives[1] or standbys[1] != actives[0] or not standbys[0]):
        return None
    if members == 1 and standbys[0]:
        return None
    return g


def _endpoints(lines: JsonLines) -> dict[int, set[str]] | None:
    """The last endpoint map an instance printed (application.server port -> its active topic partitions)."""
    known = [e for e in list(lines.events) if "endpoints" in e]
    return {ep["port"]: set(ep["active"]) for ep in known[-1]["endpoints"]} if known else None


def test_kafka_streams_word_count_as_a_streams_group(broker: Any, tmp_path: Path) -> None:
    require_kafka_peers()
    from peers import jvm

    bs = broker.bootstrap_servers
    suffix = uuid.uuid4().hex[:8]
    source, sink, app = f"sg-in-{suffix}", f"sg-out-{suffix}", f"sg-app-{suffix}"
    admin = AdminClient({"bootstrap.servers": bs})
    for f in admin.create_topics([NewTopic(source, 2, 1), NewTopic(sink, 2, 1)]).values():
        f.result(30)
    # the group's own configs (GROUP resources): one standby per task, no initial rebalance delay
    configs = [
        ConfigEntry("streams.num.standby.replicas", "1", incremental_operation=AlterConfigOpType.SET),
        ConfigEntry("streams.initial.rebalance.delay.ms", "0", incremental_operation=AlterConfigOpType.SET),
    ]
    resource = ConfigResource(ConfigResource.Type.GROUP, app, incremental_configs=configs)
    for f in admin.incremental_alter_configs([resource]).values():
        f.result(30)
    producer = Producer({"bootstrap.servers": bs})
    first = _lines(0, 30)
    for i, line in enumerate(first):
        producer.produce(source, key=str(i).encode(), value=line.encode())
    producer.flush(30)
    # interactive queries: each instance has an application.server; the group tells every instance
    # which partitions each endpoint serves (PartitionsByUserEndpoint)
    ports = [7101, 7102]
    procs = [
        jvm.java_popen(
            APP, bs, source, sink, app, str(tmp_path / f"state-{i}"), "exactly_once_v2", f"localhost:{ports[i]}",
            jvm_opts=jvm.TOOL_JVM_OPTS,
        )
        for i in range(2)
    ]  # fmt: skip
    lines = [JsonLines(p) for p in procs]
    repartition = f"{app}-KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition"
    every = {f"{source}-0", f"{source}-1", f"{repartition}-0", f"{repartition}-1"}

    def served_by_both() -> bool:
        maps = [_endpoints(x) for x in lines]
        if any(m is None or sorted(m) != ports for m in maps):
            return False
        first = maps[0]
        assert first is not None  # checked above
        actives = list(first.values())
        return (
            all(m == first for m in maps)
            and all(actives)
            and not actives[0] & actives[1]
            and (actives[0] | actives[1] == every)
        )

    counts = Counts(bs, sink)
    try:
        assert counts.until(_count(first), 60) == _count(first)
        g = _wait(lambda: _stable(bs, app, 2), 60, "2 members, Stable, 2 + 2 tasks")
        # the broker registered the topology and created its internal topics
        subs = g.topology.subtopologies
        assert len(subs) == 2, subs
        assert [s.source_topics for s in subs][0] == [source]
        internal = {t.name for s in subs for t in s.repartition_source_topics + s.state_changelog_topics}
        assert internal == {
            f"{app}-KSTREAM-AGGREGATE-STATE-STORE-0000000004-repartition",
            f"{app}-KSTREAM-AGGREGATE-STATE-STORE-0000000004-changelog",
        }
        assert all(t.partitions == 2 for s in subs for t in s.repartition_source_topics + s.state_changelog_topics)
        listed = jvm.java_tool(STREAMS_GROUPS, "--bootstrap-server", bs, "--list").stdout.split()
        assert app in listed
        out = jvm.java_tool(
            STREAMS_GROUPS, "--bootstrap-server", bs, "--describe", "--group", app, "--members", check=False
        )
        rows = [line.split() for line in out.stdout.splitlines() if line.startswith(app)]
        assert len(rows) == 2, out.stdout + out.stderr
        actives = sorted(len(re.findall(r"\d+", " ".join(r[4:]))) for r in rows)
        # "ACTIVE: 0:[0]; 1:[1];" per member: subtopology ids and partitions, 2 tasks each
        assert all("ACTIVE:" in " ".join(r) for r in rows), out.stdout
        assert actives[0] == actives[1], out.stdout
        # both instances learn both endpoints and the partitions each serves
        try:
            _wait(served_by_both, 30, "both instances knowing both endpoints")
        except AssertionError as e:
            raise AssertionError(f"{e}; endpoint maps: {[_endpoints(x) for x in lines]}") from None

        # one instance leaves: the survivor takes all four tasks and goes on counting
        jvm.stop_process(procs.pop(0))
        _wait(lambda: _stable(bs, app, 1), 60, "1 member with all 4 tasks")
        _wait(lambda: _endpoints(lines[1]) == {ports[1]: every}, 30, "the survivor serving every partition")
        second = _lines(30, 20)
        for i, line in enumerate(second):
            producer.produce(source, key=str(100 + i).encode(), value=line.encode())
        producer.flush(30)
        assert counts.until(_count(first + second), 60) == _count(first + second)
        assert procs[0].poll() is None, "the surviving instance died"
    finally:
        counts.close()
        for p in procs:
            jvm.stop_process(p)


# --- the wire, request by request: Kafka 4.3.1's answers -----------------------------------------
def _topology(source: str, app: str) -> Any:
    from kafka_wire.protocol.messages import streams_group_heartbeat_request as q

    def info(name: str) -> Any:
        return q.TopicInfo(name=name, partitions=0, replication_factor=0, topic_configs=[])

    def sub(sid: str, sources: list[str], sinks: list[str], changelogs: list[Any], repartitions: list[Any]) -> Any:
        return q.Subtopology(
            subtopology_id=sid,
            source_topics=sources,
            source_topic_regex=[],
            state_changelog_topics=changelogs,
            repartition_sink_topics=sinks,
            repartition_source_topics=repartitions,
            copartition_groups=[],
        )

    return q.Topology(
        epoch=0,
        subtopologies=[
            sub("0", [source], [f"{app}-rep"], [], []),
            sub("1", [], [], [info(f"{app}-chg")], [info(f"{app}-rep")]),
        ],
    )


def test_streams_group_heartbeat_answers(broker: Any) -> None:
    """Bad input, join statuses (initial rebalance delay, missing internal topics created by the
    broker), fencing, ListGroups/DescribeGroups of a streams group, the other protocols refused on its
    id, leaving and DeleteGroups: each answer as Apache Kafka 4.3.1 gives it."""
    from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgq
    from kafka_wire.protocol.messages import delete_groups_request as dlq
    from kafka_wire.protocol.messages import describe_groups_request as dgq
    from kafka_wire.protocol.messages import find_coordinator_request as fcq
    from kafka_wire.protocol.messages import join_group_request as jgq
    from kafka_wire.protocol.messages import list_groups_request as lgq
    from kafka_wire.protocol.messages import streams_group_heartbeat_request as q

    bs = broker.bootstrap_servers
    suffix = uuid.uuid4().hex[:8]
    source, app = f"sgw-in-{suffix}", f"sgw-app-{suffix}"
    admin = AdminClient({"bootstrap.servers": bs})
    for f in admin.create_topics([NewTopic(source, 2, 1)]).values():
        f.result(30)
    topology = _topology(source, app)

    with connect(bs) as conn:

        def hb(**kw: Any) -> Any:
            fields: dict[str, Any] = dict(
                group_id=app, member_id="m1", member_epoch=0, rebalance_timeout_ms=30000, process_id="p1"
            )
            if kw.get("member_epoch", 0) == 0:
                fields.update(topology=topology, active_tasks=[], standby_tasks=[], warmup_tasks=[])
            fields.update(kw)
            return conn.request(88, q.StreamsGroupHeartbeatRequest(**fields), 0)

        def answer(**kw: Any) -> tuple[int, str | None]:
            r = hb(**kw)
            return r.error_code, r.error_message

        # FindCoordinator creates __consumer_offsets on Apache's first group; then it loads
        find = fcq.FindCoordinatorRequest(key_type=0, coordinator_keys=[app])
        _wait(lambda: conn.request(10, find, 4).coordinators[0].error_code == 0, 60, "FindCoordinator")
        _wait(lambda: _describe(bs, app).error_code == 69, 60, "the coordinator")
        assert answer(member_id="") == (42, "MemberId can't be empty.")
        assert answer(active_tasks=None) == (42, "ActiveTasks must be empty when (re-)joining.")
        assert answer(active_tasks=[q.TaskIds(subtopology_id="0", partitions=[0])]) == (
            42,
            "ActiveTasks must be empty when (re-)joining.",
        )
        assert answer(topology=None) == (42, "Topology must be non-null when (re-)joining.")
        assert answer(rebalance_timeout_ms=-1) == (42, "RebalanceTimeoutMs must be provided in first request.")
        assert answer(member_epoch=-3) == (42, "MemberEpoch is -3, but must be greater than or equal to -2.")
        joined = hb()
        assert (joined.error_code, joined.member_epoch, joined.active_tasks) == (0, 1, [])
        assert joined.status[0].status_code == 5, joined.status
        assert joined.status[0].status_detail == "Assignment delayed due to the configured initial rebalance delay."
        missing = [s.status_detail for s in joined.status if s.status_code == 3]
        # (Apache Kafka lists them in hash order: compared as a set)
        assert len(missing) <= 1, joined.status
        for detail in missing:
            prefix, names = detail.split(": ", 1)
            assert (prefix, set(names.split(", "))) == ("Internal topics are missing", {f"{app}-rep", f"{app}-chg"})
        assert answer(member_epoch=9, process_id=None) == (
            110,
            "The streams group member has a greater member epoch (9) than the one known by the group coordinator "
            "(1). The member must abandon all its partitions and rejoin.",
        )
        assert answer(member_id="zz", member_epoch=1) == (25, f"Member zz is not a member of group {app}.")

        # the broker creates the internal topics with the source topic's partition count (on a
        # heartbeat that finds them missing: the member goes on heartbeating meanwhile)
        epoch = [joined.member_epoch]

        def internal() -> Any:
            r = hb(member_epoch=epoch[0], process_id=None)
            assert r.error_code == 0, (r.error_code, r.error_message)
            epoch[0] = r.member_epoch
            topics = admin.list_topics(timeout=10).topics
            found = {n: len(topics[n].partitions) for n in (f"{app}-rep", f"{app}-chg") if n in topics}
            return found if len(found) == 2 else None

        assert _wait(internal, 30, "internal topics") == {f"{app}-rep": 2, f"{app}-chg": 2}

        listed = conn.request(16, lgq.ListGroupsRequest(states_filter=[], types_filter=["streams"]), 5).groups
        assert [(g.group_id, g.protocol_type, g.group_type) for g in listed if g.group_id == app] == [
            (app, "streams", "streams")
        ]
        described = conn.request(15, dgq.DescribeGroupsRequest(groups=[app]), 6).groups[0]
        assert (described.error_code, described.error_message, described.group_state) == (
            69,
            f"Group {app} is not a classic group.",
            "Dead",
        )
        unknown = _describe(bs, f"{app}-nope")
        assert (unknown.error_code, unknown.error_message, unknown.group_state) == (
            69,
            f"Group {app}-nope not found.",
            "",
        )
        # the group id is a streams group's: other protocols are refused, a live group is not deleted
        consumer = cgq.ConsumerGroupHeartbeatRequest(
            group_id=app,
            member_id="c1",
            member_epoch=0,
            rebalance_timeout_ms=30000,
            subscribed_topic_names=[source],
            topic_partitions=[],
        )
        r = conn.request(68, consumer, 1)
        assert (r.error_code, r.error_message) == (69, f"Group {app} is not a consumer group.")
        protocol = jgq.JoinGroupRequestProtocol(name="range", metadata=b"")
        join = jgq.JoinGroupRequest(
            group_id=app, session_timeout_ms=30000, rebalance_timeout_ms=30000, protocol_type="consumer",
            protocols=[protocol],
        )  # fmt: skip
        assert conn.request(11, join, 9).error_code == 23  # INCONSISTENT_GROUP_PROTOCOL
        delete = dlq.DeleteGroupsRequest(groups_names=[app])
        assert [r.error_code for r in conn.request(42, delete, 2).results] == [68]  # NON_EMPTY_GROUP
        left = hb(member_epoch=-1, process_id=None)
        assert (left.error_code, left.member_epoch, left.heartbeat_interval_ms) == (0, -1, 0)
        assert answer(member_epoch=-1, process_id=None) == (25, f"Member m1 is not a member of group {app}.")
        assert [r.error_code for r in conn.request(42, delete, 2).results] == [0]
        assert _describe(bs, app).error_message == f"Group {app} not found."
