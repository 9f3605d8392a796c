"""Online upgrade of a classic group (group/consumer_migration.py), sans-IO: the conversion records,
their encoding (ClassicMemberMetadata, tag 0 of ConsumerGroupMemberMetadataValue), and when a classic
member of a consumer group is told to rejoin."""

from __future__ import annotations

import pytest

from broker_embedded.group.consumer_group import ConsumerGroup, MemberState
from broker_embedded.group.consumer_heartbeat import HeartbeatInput, heartbeat
from broker_embedded.group.consumer_migration import (
    decode_assignment,
    encode_assignment,
    must_rejoin,
    upgrade_records,
)
from broker_embedded.group.consumer_records import TopicMetadata, decode_record, encode_record
from broker_embedded.group.state import GroupMetadata, GroupState, MemberMetadata
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import consumer_protocol_subscription as cps

T1 = TopicMetadata(b"\x01" * 16, "t1", 4)
TOPICS = {"t1": T1}


def subscription(topics: list[str], version: int = 1) -> bytes:
    out: list[bytes] = [version.to_bytes(2, "big")]
    cps.ENCODERS[version](cps.ConsumerProtocolSubscription(topics=topics, user_data=None, owned_partitions=[]), out)
    return b"".join(out)


def classic_group() -> GroupMetadata:
    g = GroupMetadata("g", state=GroupState.STABLE, generation_id=7, protocol_type="consumer", protocol_name="range")
    for mid, parts in (("a", [0, 1]), ("b", [2, 3])):
        g.members[mid] = MemberMetadata(
            mid, None, f"client-{mid}", "/127.0.0.1", 30000, 10000, "consumer",
            [("range", subscription(["t1"])), ("roundrobin", subscription(["t1"]))],
            assignment=encode_assignment({T1.topic_id: frozenset(parts)}, TOPICS, 0),
        )  # fmt: skip
    return g


def converted() -> ConsumerGroup:
    group = ConsumerGroup("g")
    for r in upgrade_records(classic_group(), None, TOPICS):
        # every record goes through the wire encoding, as it is written to __consumer_offsets
        decoded = decode_record(*encode_record(r))
        assert decoded == r
        group.replay(decoded)
    return group


def test_upgrade_keeps_generation_assignments_and_classic_metadata() -> None:
    group = converted()
    assert (group.group_epoch, group.assignment_epoch) == (7, 7)
    a, b = group.members["a"], group.members["b"]
    assert (a.member_epoch, a.state, a.assigned) == (7, MemberState.STABLE, {T1.topic_id: frozenset({0, 1})})
    assert b.assigned == {T1.topic_id: frozenset({2, 3})}
    assert group.target["b"] == b.assigned
    assert a.subscribed_topic_names == ["t1"] and a.client_id == "client-a"
    assert a.classic is not None and a.classic.session_timeout_ms == 10000
    assert [n for n, _ in a.classic.protocols] == ["range", "roundrobin"]
    assert not must_rejoin(group, a)


def test_a_consumer_member_joining_takes_partitions_only_once_released() -> None:
    group = converted()
    join = HeartbeatInput("g", "k", 0, rebalance_timeout_ms=30000, subscribed_topic_names=["t1"], topic_partitions={})
    out = heartbeat(group, join, TOPICS, ["uniform"], 1)
    for r in out.records:
        group.replay(r)
    assert group.group_epoch == 8
    k = group.members["k"]
    # the classic members still hold everything: the newcomer waits for what they release
    assert out.assignment == {} and k.state == MemberState.UNRELEASED_PARTITIONS
    assert group.target["k"], "the new target gives the newcomer partitions"
    # the classic members learn of the new epoch through their Heartbeat: they must rejoin
    assert must_rejoin(group, group.members["a"]) and must_rejoin(group, group.members["b"])
    owners = group.owners()
    assert sorted(p for (_, p) in owners) == [0, 1, 2, 3]


def test_malformed_embedded_protocol_refuses_the_upgrade() -> None:
    g = classic_group()
    g.members["a"].protocols = [("range", b"\x00")]
    with pytest.raises(KafkaError) as e:
        upgrade_records(g, None, TOPICS)
    assert e.value.code == ErrorCode.GROUP_ID_NOT_FOUND


def test_assignment_codec_drops_unknown_topics() -> None:
    raw = encode_assignment({T1.topic_id: frozenset({3, 1})}, TOPICS, 1)
    assert decode_assignment(raw, TOPICS) == {T1.topic_id: frozenset({1, 3})}
    assert decode_assignment(raw, {}) == {}
    assert decode_assignment(b"", TOPICS) == {}
