"""KIP-848 consumer groups as a pure state machine: heartbeats in, records out, replay -> state.

No sockets, no timers: each heartbeat's records are replayed into the group, as the coordinator
does after appending them to __consumer_offsets.
"""

from __future__ import annotations

import uuid

import pytest

from broker_embedded.group.consumer_group import ConsumerGroup, ConsumerGroupState, MemberState
from broker_embedded.group.consumer_heartbeat import HeartbeatInput, HeartbeatOutput, heartbeat, remove_member
from broker_embedded.group.consumer_records import Assignment, TopicMetadata, decode_record, encode_record
from kafka_wire.errors import ErrorCode, KafkaError

T1 = uuid.UUID(int=1).bytes
T2 = uuid.UUID(int=2).bytes
ASSIGNORS = ["uniform", "range"]
JOIN = {"member_epoch": 0, "rebalance_timeout_ms": 1000, "topic_partitions": {}}


def topics(**counts: int) -> dict[str, TopicMetadata]:
    ids = {"t1": T1, "t2": T2}
    return {
        name: TopicMetadata(ids.get(name) or uuid.uuid5(uuid.NAMESPACE_DNS, name).bytes, name, n)
        for name, n in counts.items()
    }


class Sim:
    """A group and its log: every heartbeat's records are encoded, decoded and replayed."""

    def __init__(self, topic_view: dict[str, TopicMetadata]) -> None:
        self.group = ConsumerGroup("g")
        self.topics = topic_view
        self.log: list[tuple[bytes, bytes | None]] = []

    def apply(self, records: list) -> None:
        for r in records:
            raw = encode_record(r)
            self.log.append(raw)
            decoded = decode_record(*raw)
            assert decoded == r
            self.group.replay(decoded)

    def hb(self, member_id: str, epoch: int, owned: Assignment | None = None, **kw: object) -> HeartbeatOutput:
        req = HeartbeatInput("g", member_id, epoch, topic_partitions=owned, **kw)  # type: ignore[arg-type]
        out = heartbeat(self.group, req, self.topics, ASSIGNORS, 1)
        self.apply(out.records)
        return out

    def join(
        self, member_id: str, names: list[str] | None = None, regex: str | None = None, **kw: object
    ) -> HeartbeatOutput:
        return self.hb(
            member_id,
            0,
            {},
            rebalance_timeout_ms=30000,
            subscribed_topic_names=names,
            subscribed_topic_regex=regex,
            **kw,
        )

    def owned_everywhere(self) -> dict[tuple[bytes, int], list[str]]:
        out: dict[tuple[bytes, int], list[str]] = {}
        for m in self.group.members.values():
            for a in (m.assigned, m.pending_revocation):
                for t, ps in a.items():
                    for p in ps:
                        out.setdefault((t, p), []).append(m.member_id)
        return out


def count(a: Assignment | None) -> int:
    return sum(len(ps) for ps in (a or {}).values())


def test_single_member_gets_everything_and_epochs_advance() -> None:
    sim = Sim(topics(t1=4))
    out = sim.join("a", ["t1"])
    # a new group's first epoch is 2, as Kafka 4.3.1 writes it
    assert out.member_epoch == 2 and out.assignment == {T1: frozenset(range(4))}
    assert sim.group.group_epoch == 2 and sim.group.assignment_epoch == 2
    assert sim.group.state == ConsumerGroupState.STABLE
    # a plain heartbeat changes nothing and writes nothing
    out = sim.hb("a", 2)
    assert out.records == [] and out.assignment is None and out.member_epoch == 2


def test_second_member_waits_for_revocation_no_partition_owned_twice() -> None:
    sim = Sim(topics(t1=4))
    sim.join("a", ["t1"])
    out_b = sim.join("b", ["t1"])
    # b's target is half the partitions, but a still owns them: b gets nothing yet
    assert sim.group.group_epoch == 3 and sim.group.assignment_epoch == 3
    assert count(sim.group.target["a"]) == 2 and count(sim.group.target["b"]) == 2
    assert out_b.member_epoch == 3 and count(out_b.assignment) == 0
    assert sim.group.members["b"].state == MemberState.UNRELEASED_PARTITIONS
    # a heartbeats: told to revoke, keeps epoch 2 until it acknowledges
    out_a = sim.hb("a", 2)
    assert out_a.member_epoch == 2 and count(out_a.assignment) == 2
    assert sim.group.members["a"].state == MemberState.UNREVOKED_PARTITIONS
    assert sim.group.state == ConsumerGroupState.RECONCILING
    assert all(len(v) == 1 for v in sim.owned_everywhere().values())
    # b heartbeats before a revoked: still nothing
    assert count(sim.hb("b", 3).assignment) == 0
    # a acknowledges (owns only what it keeps): moves to epoch 3
    out_a = sim.hb("a", 2, owned=sim.group.members["a"].assigned)
    assert out_a.member_epoch == 3 and sim.group.members["a"].state == MemberState.STABLE
    out_b = sim.hb("b", 3, owned={})
    assert count(out_b.assignment) == 2 and sim.group.members["b"].state == MemberState.STABLE
    assert sim.group.state == ConsumerGroupState.STABLE
    assert sorted(len(v) for v in sim.owned_everywhere().values()) == [1, 1, 1, 1]


def test_leave_bumps_epoch_and_survivor_takes_over() -> None:
    sim = Sim(topics(t1=3))
    sim.join("a", ["t1"])
    sim.join("b", ["t1"])
    sim.hb("a", 2, owned=sim.group.members["a"].assigned)
    sim.hb("a", 2, owned=sim.group.members["a"].assigned)
    sim.hb("b", 3, owned={})
    out = sim.hb("b", -1)
    assert out.member_epoch == -1 and "b" not in sim.group.members and sim.group.group_epoch == 4
    out = sim.hb("a", 3)
    assert out.member_epoch == 4 and out.assignment == {T1: frozenset(range(3))}


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"member_epoch": 5}, ErrorCode.GROUP_ID_NOT_FOUND),
        ({"member_epoch": -3}, ErrorCode.INVALID_REQUEST),
        ({**JOIN, "subscribed_topic_regex": "a("}, ErrorCode.INVALID_REGULAR_EXPRESSION),
        ({**JOIN, "subscribed_topic_regex": r"(a)\1"}, ErrorCode.INVALID_REGULAR_EXPRESSION),
        ({**JOIN, "subscribed_topic_names": ["t1"], "server_assignor": "sticky"}, ErrorCode.UNSUPPORTED_ASSIGNOR),
        ({"member_epoch": 0, "topic_partitions": {}, "subscribed_topic_names": ["t1"]}, ErrorCode.INVALID_REQUEST),
        ({"member_epoch": 0, "rebalance_timeout_ms": 1000, "topic_partitions": {}}, ErrorCode.INVALID_REQUEST),
    ],
)
def test_bad_requests(kwargs: dict, code: ErrorCode) -> None:
    sim = Sim(topics(t1=1))
    with pytest.raises(KafkaError) as e:
        heartbeat(sim.group, HeartbeatInput("g", "m", **kwargs), sim.topics, ASSIGNORS, 1)
    assert e.value.code == code


def test_fenced_member_epoch() -> None:
    sim = Sim(topics(t1=2))
    sim.join("a", ["t1"])
    with pytest.raises(KafkaError) as e:
        sim.hb("a", 7)
    assert e.value.code == ErrorCode.FENCED_MEMBER_EPOCH
    with pytest.raises(KafkaError) as e:
        sim.hb("nobody", 2)
    assert e.value.code == ErrorCode.UNKNOWN_MEMBER_ID
    sim.join("b", ["t1"])
    sim.hb("a", 2, owned={T1: frozenset({0, 1})})  # told to revoke one partition
    sim.hb("a", 2, owned={T1: frozenset({0})})  # revoked -> epoch 3
    assert sim.group.members["a"].member_epoch == 3
    # the previous epoch is accepted only while the member owns no more than its assignment
    with pytest.raises(KafkaError) as e:
        sim.hb("a", 2, owned={T1: frozenset({0, 1})})
    assert e.value.code == ErrorCode.FENCED_MEMBER_EPOCH
    assert sim.hb("a", 2, owned=sim.group.members["a"].assigned).member_epoch == 3


def test_static_member_leave_and_rejoin_keeps_assignment() -> None:
    sim = Sim(topics(t1=2))
    sim.join("a", ["t1"], instance_id="i-a")
    epoch = sim.group.group_epoch
    # another member can't take the instance id while it is in use
    with pytest.raises(KafkaError) as e:
        sim.join("a2", ["t1"], instance_id="i-a")
    assert e.value.code == ErrorCode.UNRELEASED_INSTANCE_ID
    out = sim.hb("a", -2, instance_id="i-a")
    assert out.member_epoch == -2 and "a" in sim.group.members
    out = sim.join("a2", ["t1"], instance_id="i-a")
    assert "a" not in sim.group.members and out.member_epoch == 2
    assert out.assignment == {T1: frozenset({0, 1})} and sim.group.group_epoch == epoch


def test_regex_subscription_picks_up_new_topics() -> None:
    sim = Sim(topics(t1=1, other=1))
    out = sim.join("a", regex="t.*")
    assert out.assignment == {T1: frozenset({0})}
    sim.topics = topics(t1=1, other=1, t2=2)
    out = sim.hb("a", 2)
    assert out.member_epoch == 3 and out.assignment == {T1: frozenset({0}), T2: frozenset({0, 1})}


def test_replay_of_the_log_rebuilds_the_same_state() -> None:
    sim = Sim(topics(t1=5, t2=3))
    sim.join("a", ["t1", "t2"])
    sim.join("b", ["t1"], rack_id="r1")
    sim.hb("a", 2, owned=sim.group.members["a"].assigned)
    sim.hb("a", 2, owned=sim.group.members["a"].assigned)
    sim.join("c", regex="t2")
    sim.apply(remove_member(sim.group, "b"))
    again = ConsumerGroup("g")
    for raw in sim.log:
        rec = decode_record(*raw)
        assert rec is not None
        again.replay(rec)
    assert again == sim.group


def test_topics_are_looked_at_again_only_when_asked_or_when_a_subscription_changes() -> None:
    sim = Sim(topics(t1=1))
    sim.join("a", regex="t.*")
    sim.topics = topics(t1=1, t2=1)
    req = HeartbeatInput("g", "a", 2)
    out = heartbeat(sim.group, req, lambda: pytest.fail("topics read without a reason"), ASSIGNORS, 1, False)  # type: ignore[arg-type, return-value]
    assert out.records == [] and out.member_epoch == 2
    out = heartbeat(sim.group, req, sim.topics, ASSIGNORS, 1, refresh_metadata=True)
    sim.apply(out.records)
    assert out.member_epoch == 3 and set(out.assignment or {}) == {T1, T2}


def test_uniform_homogeneous_group_of_many_topics() -> None:
    many = {f"t{i}": TopicMetadata(uuid.UUID(int=100 + i).bytes, f"t{i}", 1) for i in range(1000)}
    sim = Sim(many)
    for m in ("a", "b", "c"):
        sim.join(m, list(many))
    assert sorted(count(a) for a in sim.group.target.values()) == [333, 333, 334]
