"""Streams groups (KIP-1071) without a network: the records in Kafka's layouts, the topology
configuration, the sticky task assignor, and the heartbeat runtime on a fake clock (initial
rebalance delay, revoke-before-assign, session expiry, replay into a fresh coordinator)."""

from __future__ import annotations

from typing import Any

import pytest

from broker_embedded.group.streams_assignor import AssignorMember, assign
from broker_embedded.group.streams_coordinator import StreamsGroupCoordinator, StreamsHeartbeatInput
from broker_embedded.group.streams_group import (
    ASSIGNMENT_DELAYED,
    EMPTY_TASKS,
    MISSING_INTERNAL_TOPICS,
    MISSING_SOURCE_TOPICS,
    STABLE,
    UNREVOKED_TASKS,
    TasksTuple,
    configure_topology,
)
from broker_embedded.group.streams_records import (
    STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT,
    STREAMS_GROUP_MEMBER_METADATA,
    STREAMS_GROUP_METADATA,
    STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA,
    STREAMS_GROUP_TOPOLOGY,
    StreamsGroupKey,
    decode_record,
    encode_record,
)
from broker_embedded.purgatory import ManualClock, SystemTimer
from kafka_wire.errors import ErrorCode, KafkaError


def _info(name: str, partitions: int = 0) -> dict[str, Any]:
    return {"name": name, "partitions": partitions, "replication_factor": 0, "topic_configs": []}


def word_count_topology(epoch: int = 0) -> dict[str, Any]:
    """The shape Kafka Streams sends for a word count: source -> repartition -> count (changelog)."""
    return {
        "epoch": epoch,
        "subtopologies": [
            {
                "subtopology_id": "0",
                "source_topics": ["in"],
                "source_topic_regex": [],
                "state_changelog_topics": [],
                "repartition_sink_topics": ["app-rep"],
                "repartition_source_topics": [],
                "copartition_groups": [],
            },
            {
                "subtopology_id": "1",
                "source_topics": [],
                "source_topic_regex": [],
                "state_changelog_topics": [_info("app-chg")],
                "repartition_sink_topics": [],
                "repartition_source_topics": [_info("app-rep")],
                "copartition_groups": [],
            },
        ],
    }


# --- records -------------------------------------------------------------------------------------
def test_records_round_trip_in_kafkas_layout() -> None:
    records = [
        (
            StreamsGroupKey(STREAMS_GROUP_METADATA, "g"),
            {"epoch": 7, "metadata_hash": -5, "validated_topology_epoch": 2, "last_assignment_configs": None},
        ),
        (StreamsGroupKey(STREAMS_GROUP_TOPOLOGY, "g"), word_count_topology(3)),
        (
            StreamsGroupKey(STREAMS_GROUP_MEMBER_METADATA, "g", "m"),
            {
                "instance_id": None,
                "rack_id": "r1",
                "client_id": "c",
                "client_host": "/127.0.0.1",
                "rebalance_timeout_ms": 300000,
                "topology_epoch": 3,
                "process_id": "p",
                "user_endpoint": {"host": "h", "port": 65535},
                "client_tags": [{"key": "zone", "value": "a"}],
            },
        ),
        (
            StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA, "g"),
            {"assignment_epoch": 7, "assignment_timestamp": 123},
        ),
        (StreamsGroupKey(STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, "g", "m"), None),
    ]
    for record in records:
        key, value = encode_record(record)
        assert key[:2] == record[0].record_type.to_bytes(2, "big")
        assert decode_record(key, value) == record
    # the default of a tagged field is left out of the bytes, as Kafka's writers do
    default = {"epoch": 1, "metadata_hash": 0, "validated_topology_epoch": -1, "last_assignment_configs": None}
    _, value = encode_record((StreamsGroupKey(STREAMS_GROUP_METADATA, "g"), default))
    assert value == b"\x00\x00" + (1).to_bytes(4, "big") + (0).to_bytes(8, "big") + b"\x00"
    # another record family is not ours
    assert decode_record(b"\x00\x03\x00\x01g", b"") is None


# --- topology ------------------------------------------------------------------------------------
def test_topology_configuration() -> None:
    t = word_count_topology()
    missing = configure_topology(t, {})
    assert not missing.ready and missing.status == (MISSING_SOURCE_TOPICS, "Source topics in are missing.")
    internal = configure_topology(t, {"in": 3})
    assert internal.status == (MISSING_INTERNAL_TOPICS, "Internal topics are missing: app-rep, app-chg")
    # the repartition topic takes its writer's task count; the changelog its subtopology's
    assert internal.topics_to_create == {"app-rep": (3, 0, {}), "app-chg": (3, 0, {})}
    ready = configure_topology(t, {"in": 3, "app-rep": 3, "app-chg": 3})
    assert ready.ready and ready.task_counts() == {"0": 3, "1": 3}


# --- assignor ------------------------------------------------------------------------------------
def _n(t: TasksTuple, kind: str = "active") -> int:
    return sum(len(ps) for ps in getattr(t, kind).values())


def test_assignor_balances_and_sticks() -> None:
    counts = {"0": 2, "1": 2}
    first = assign([AssignorMember("a", "p1", EMPTY_TASKS)], counts, 0)
    assert _n(first["a"]) == 4
    second = assign([AssignorMember("a", "p1", first["a"]), AssignorMember("b", "p2", EMPTY_TASKS)], counts, 0)
    assert _n(second["a"]) == _n(second["b"]) == 2
    # what "a" keeps is a subset of what it had: sticky
    assert all(ps <= first["a"].active[s] for s, ps in second["a"].active.items())
    # a third member takes one task, nobody gives up more than needed
    third = assign([AssignorMember(m, f"p-{m}", second.get(m, EMPTY_TASKS)) for m in "abc"], counts, 0)
    assert sorted(_n(t) for t in third.values()) == [1, 1, 2]


def test_assignor_standbys_go_to_other_processes() -> None:
    counts = {"0": 2}
    out = assign([AssignorMember("a", "p1", EMPTY_TASKS), AssignorMember("b", "p2", EMPTY_TASKS)], counts, 1)
    for m, other in (("a", "b"), ("b", "a")):
        assert not set(out[m].active.get("0", ())) & set(out[m].standby.get("0", ()))
        assert set(out[m].standby.get("0", ())) == set(out[other].active.get("0", ()))
    # a stateless subtopology's tasks get no standby
    mixed = assign(
        [AssignorMember("a", "p1", EMPTY_TASKS), AssignorMember("b", "p2", EMPTY_TASKS)], {"0": 2, "1": 2}, 1, {"1"}
    )
    assert all(set(t.standby) == {"1"} and _n(t, "standby") == 1 for t in mixed.values())
    # and each subtopology is spread over the members, as Apache Kafka 4.3.1 does
    assert all(t.active == {"0": frozenset({p}), "1": frozenset({p})} for p, t in enumerate(mixed.values()))
    # two members of one process: no standby is possible
    same = assign([AssignorMember("a", "p1", EMPTY_TASKS), AssignorMember("b", "p1", EMPTY_TASKS)], counts, 1)
    assert all(_n(t, "standby") == 0 for t in same.values())


# --- runtime -------------------------------------------------------------------------------------
CONFIG = {
    "group.streams.session.timeout.ms": 45000,
    "group.streams.heartbeat.interval.ms": 5000,
    "group.streams.initial.rebalance.delay.ms": 3000,
    "group.streams.assignment.interval.ms": 1000,
    "group.streams.num.standby.replicas": 0,
}


class Harness:
    def __init__(self, log: list[tuple[str, bytes, bytes | None]] | None = None) -> None:
        self.clock = ManualClock(1_000)
        self.timer = SystemTimer(name="test", clock=self.clock)
        self.log = log if log is not None else []
        self.topics = {"in": 2, "app-rep": 2, "app-chg": 2}
        self.coordinator = StreamsGroupCoordinator(CONFIG, self.topics.get, self.append, self.timer, clock=self.clock)

    def append(self, group_id: str, records: list[tuple[bytes, bytes | None]]) -> None:
        self.log.extend((group_id, k, v) for k, v in records)

    def advance(self, ms: int) -> None:
        self.timer.advance_clock(self.clock.advance(ms))

    def hb(self, member: str, epoch: int, owned: TasksTuple | None = None, **kw: Any) -> Any:
        if epoch == 0:
            kw.setdefault("topology", word_count_topology())
            kw.setdefault("process_id", f"proc-{member}")
            kw.setdefault("rebalance_timeout_ms", 30000)
            owned = EMPTY_TASKS if owned is None else owned
        return self.coordinator.heartbeat(StreamsHeartbeatInput("app", member, epoch, owned=owned, **kw))

    def member(self, member: str) -> Any:
        return self.coordinator.groups["app"].members[member]


def test_initial_delay_then_revoke_before_assign() -> None:
    h = Harness()
    out = h.hb("a", 0)
    assert out.member_epoch == 1 and out.tasks == EMPTY_TASKS
    assert out.status[0][0] == ASSIGNMENT_DELAYED
    h.advance(3001)
    out = h.hb("a", 1)
    assert _n(out.tasks) == 4 and out.status == []
    a_epoch = out.member_epoch
    h.advance(1001)
    out_b = h.hb("b", 0)
    assert out_b.tasks == EMPTY_TASKS  # nothing yet: "a" still owns every task
    # "a" is told to revoke two tasks and keeps its epoch until it confirms
    out = h.hb("a", a_epoch)
    assert _n(out.tasks) == 2 and h.member("a").state == UNREVOKED_TASKS and out.member_epoch == a_epoch
    revoked = h.member("a").pending_revocation
    out_b = h.hb("b", out_b.member_epoch)
    assert out_b.tasks is None and h.member("b").assigned == EMPTY_TASKS  # still owned by "a": unreleased
    out = h.hb("a", a_epoch, owned=out.tasks)
    assert h.member("a").state == STABLE and out.member_epoch > a_epoch
    out_b = h.hb("b", out_b.member_epoch)
    assert out_b.tasks.active == revoked.active and h.member("b").state == STABLE
    group = h.coordinator.groups["app"]
    assert group.state() == "Stable"
    # never one active task on two members
    a_tasks = {(s, p) for s, ps in h.member("a").assigned.active.items() for p in ps}
    b_tasks = {(s, p) for s, ps in h.member("b").assigned.active.items() for p in ps}
    assert not a_tasks & b_tasks and len(a_tasks | b_tasks) == 4


def test_errors_session_expiry_and_replay() -> None:
    log: list[tuple[str, bytes, bytes | None]] = []
    h = Harness(log)
    with pytest.raises(KafkaError) as e:
        h.hb("a", 3)
    assert e.value.code == ErrorCode.GROUP_ID_NOT_FOUND
    with pytest.raises(KafkaError) as e:
        h.hb("a", 0, owned=TasksTuple({"0": frozenset({0})}))
    assert str(e.value) == "ActiveTasks must be empty when (re-)joining."
    h.hb("a", 0)
    h.advance(3001)
    epoch = h.hb("a", 1).member_epoch
    with pytest.raises(KafkaError) as e:
        h.hb("a", epoch + 1)
    assert e.value.code == ErrorCode.FENCED_MEMBER_EPOCH
    with pytest.raises(KafkaError) as e:
        h.hb("zz", epoch)
    assert e.value.code == ErrorCode.UNKNOWN_MEMBER_ID
    h.advance(1001)
    h.hb("b", 0)
    # a fresh coordinator replaying the log holds the same group
    fresh = Harness()
    for _gid, k, v in log:
        assert fresh.coordinator.replay_raw(k, v)
    before, after = h.coordinator.groups["app"], fresh.coordinator.groups["app"]
    for field in ("group_epoch", "assignment_epoch", "topology", "targets", "members"):
        assert getattr(after, field) == getattr(before, field), field
    # "b" stops heartbeating: fenced after the session timeout, its tasks go back to "a"
    for _ in range(10):
        h.advance(5000)
        h.hb("a", h.member("a").member_epoch, owned=h.member("a").assigned)
    assert set(h.coordinator.groups["app"].members) == {"a"}
    assert _n(h.member("a").assigned) == 4
