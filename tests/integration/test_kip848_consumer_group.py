"""KIP-848 consumer groups, differential: the same scenarios against our broker and Apache Kafka 4.3.1
with confluent-kafka consumers (`group.protocol=consumer`): members joining and leaving with every
record consumed exactly once under synchronous commits, balanced assignments, member epochs
growing, a regex subscription picking up a topic created later, a static member's rejoin, and
Kafka's answers to bad heartbeats.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from kafka_wire.errors import ErrorCode
from kafka_wire.protocol.messages import consumer_group_describe_request as cgd
from kafka_wire.protocol.messages import consumer_group_heartbeat_request as cgh
from kafka_wire.protocol.messages import describe_groups_request as dgr
from kafka_wire.protocol.messages import find_coordinator_request as fcr
from kafka_wire.protocol.messages import list_groups_request as lgr
from kafka_wire.protocol.messages import offset_commit_request as ocr
from kafka_wire.protocol.messages import offset_fetch_request as ofr
from peers import jvm
from tests.integration.group_util import differential_broker  # noqa: F401 - the `broker` fixture
from tests.integration.wire_util import connect

pytestmark = pytest.mark.slow


JOIN: dict[str, Any] = {"member_epoch": 0, "rebalance_timeout_ms": 30000, "topic_partitions": []}


def is_apache(broker: Any) -> bool:
    return isinstance(broker, jvm.ApacheKafka)


def _name(prefix: str) -> str:
    return f"kip848-{prefix}-{uuid.uuid4().hex[:8]}"


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    for f in admin.create_topics([NewTopic(topic, partitions, 1)]).values():
        f.result(30)
    # wait until the topic's metadata shows its leaders
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        md = admin.list_topics(topic, timeout=10).topics.get(topic)
        if md is not None and md.error is None and len(md.partitions) == partitions:
            return
        time.sleep(0.1)
    raise AssertionError(f"topic {topic} not ready")


def produce(bootstrap: str, topic: str, partitions: int, start: int, count: int) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for i in range(start, start + count):
        p.produce(topic, str(i).encode(), partition=i % partitions)
    assert p.flush(30) == 0


def consumer(bootstrap: str, group: str, **extra: str) -> Consumer:
    conf = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "group.protocol": "consumer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
        **extra,
    }
    return Consumer(conf)


class Members:
    """Consumers polled round-robin; each record is committed synchronously right after it is read."""

    def __init__(self) -> None:
        self.consumers: dict[str, Consumer] = {}
        self.seen: list[tuple[str, int, int, str]] = []  # (topic, partition, offset, member)
        self.errors: list[str] = []

    def add(self, name: str, c: Consumer) -> None:
        self.consumers[name] = c

    def close(self, name: str) -> None:
        self.consumers.pop(name).close()

    def poll_once(self) -> None:
        for name, c in self.consumers.items():
            m = c.poll(0.05)
            if m is None:
                continue
            if m.error():
                self.errors.append(str(m.error()))
                continue
            self.seen.append((m.topic(), m.partition(), m.offset(), name))
            c.commit(message=m, asynchronous=False)

    def poll_until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.poll_once()
            if condition():
                return
        raise AssertionError(f"timed out waiting for {what}: {self.assignments()} errors={self.errors[-3:]}")

    def assignments(self) -> dict[str, list[tuple[str, int]]]:
        return {n: sorted((tp.topic, tp.partition) for tp in c.assignment()) for n, c in self.consumers.items()}

    def balanced(self, partitions: int) -> bool:
        sizes = [len(a) for a in self.assignments().values()]
        owned = [tp for a in self.assignments().values() for tp in a]
        return sum(sizes) == partitions and len(set(owned)) == partitions and max(sizes) - min(sizes) <= 1

    def close_all(self) -> None:
        for name in list(self.consumers):
            self.close(name)


def describe(bootstrap: str, group: str) -> Any:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    return admin.describe_consumer_groups([group])[group].result(30)


def epochs(bootstrap: str, group: str) -> tuple[str, int, int, list[int]]:
    """ConsumerGroupDescribe on the wire: state, group epoch, assignment epoch, member epochs."""
    with connect(bootstrap) as conn:
        response = conn.request(69, cgd.ConsumerGroupDescribeRequest(group_ids=[group]))
    (g,) = response.groups
    assert g.error_code == 0, g
    return g.group_state, g.group_epoch, g.assignment_epoch, sorted(m.member_epoch for m in g.members)


def test_members_join_and_leave_every_record_once(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group, n = _name("t"), _name("g"), 6
    create_topic(bs, topic, n)
    produce(bs, topic, n, 0, 120)
    members = Members()
    try:
        members.add("c1", consumer(bs, group, **{"client.id": "c1"}))
        members.consumers["c1"].subscribe([topic])
        members.poll_until(lambda: len(members.assignments()["c1"]) == n, 30, "c1's assignment")
        first = describe(bs, group)
        epoch_one = {m.member_id: m for m in first.members}
        assert len(epoch_one) == 1 and first.type.name == "CONSUMER"
        for name in ("c2", "c3"):
            members.add(name, consumer(bs, group, **{"client.id": name}))
            members.consumers[name].subscribe([topic])
        members.poll_until(lambda: members.balanced(n) and len(members.seen) >= 120, 60, "three balanced members")
        assert sorted(len(a) for a in members.assignments().values()) == [2, 2, 2]
        d = describe(bs, group)
        assert d.state.name == "STABLE" and len(d.members) == 3
        assert sorted(len(m.assignment.topic_partitions) for m in d.members) == [2, 2, 2]
        # one group epoch per join (a new group's first is 2); every member at the last target
        assert epochs(bs, group) == ("Stable", 4, 4, [4, 4, 4])
        members.close("c3")
        produce(bs, topic, n, 120, 120)
        members.poll_until(lambda: members.balanced(n) and len(members.seen) >= 240, 60, "two members take over")
        assert sorted(len(a) for a in members.assignments().values()) == [3, 3]
        assert epochs(bs, group) == ("Stable", 5, 5, [5, 5])
    finally:
        members.close_all()
    keys = [(t, p, o) for t, p, o, _ in members.seen]
    assert len(keys) == 240 and len(set(keys)) == 240, "every record exactly once"
    assert {name for *_, name in members.seen} >= {"c1", "c2"}
    # the committed offsets cover every partition's end
    c = Consumer({"bootstrap.servers": bs, "group.id": group, "group.protocol": "consumer"})
    try:
        committed = c.committed([TopicPartition(topic, p) for p in range(n)], timeout=30)
    finally:
        c.close()
    assert sorted(tp.offset for tp in committed) == [40] * n


def test_regex_subscription_picks_up_a_topic_created_later(broker: Any) -> None:
    bs = broker.bootstrap_servers
    prefix = _name("rx")
    first, later, other = f"{prefix}-a", f"{prefix}-b", f"{prefix}x-c"
    create_topic(bs, first, 2)
    create_topic(bs, other, 1)
    produce(bs, first, 2, 0, 10)
    produce(bs, other, 1, 0, 5)
    members = Members()
    try:
        members.add("c1", consumer(bs, _name("g"), **{"topic.metadata.refresh.interval.ms": "1000"}))
        members.consumers["c1"].subscribe([f"^{prefix}-.*"])
        members.poll_until(lambda: len(members.seen) >= 10, 30, "the first topic's records")
        create_topic(bs, later, 2)
        produce(bs, later, 2, 0, 10)
        members.poll_until(lambda: len(members.seen) >= 20, 60, "the later topic's records")
        members.poll_until(lambda: True, 2, "a moment more")  # nothing of `other` must come
    finally:
        members.close_all()
    topics = sorted({t for t, *_ in members.seen})
    assert topics == [first, later]
    assert len(members.seen) == 20


def test_static_member_rejoins_with_its_partitions(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("s"), _name("g")
    create_topic(bs, topic, 4)
    produce(bs, topic, 4, 0, 40)
    members = Members()
    try:
        for name in ("s1", "s2"):
            members.add(name, consumer(bs, group, **{"group.instance.id": name}))
            members.consumers[name].subscribe([topic])
        members.poll_until(lambda: members.balanced(4) and len(members.seen) >= 40, 60, "two static members")
        before = members.assignments()["s2"]
        epoch_before = describe(bs, group)
        members.close("s2")  # a static member leaves with epoch -2: its partitions wait for it
        members.poll_until(lambda: True, 1, "a moment")
        assert len(members.assignments()["s1"]) == 2
        members.add("s2", consumer(bs, group, **{"group.instance.id": "s2"}))
        members.consumers["s2"].subscribe([topic])
        members.poll_until(lambda: len(members.assignments()["s2"]) == 2, 30, "the static member's rejoin")
        assert members.assignments()["s2"] == before
        after = describe(bs, group)
        # the group did not rebalance: s1 kept its partitions throughout
        assert sorted(m.group_instance_id for m in after.members) == ["s1", "s2"]
        s1_before = next(m for m in epoch_before.members if m.group_instance_id == "s1")
        s1_after = next(m for m in after.members if m.group_instance_id == "s1")
        assert s1_before.assignment.topic_partitions == s1_after.assignment.topic_partitions
    finally:
        members.close_all()


def test_unsupported_assignor_is_refused(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic = _name("a")
    create_topic(bs, topic, 1)
    c = consumer(bs, _name("g"), **{"group.remote.assignor": "no-such-assignor"})
    try:
        c.subscribe([topic])
        deadline = time.monotonic() + 30
        error = None
        while time.monotonic() < deadline and error is None:
            try:
                m = c.poll(0.2)
            except KafkaException as e:
                error = e.args[0]
                break
            if m is not None and m.error():
                error = m.error()
        assert error is not None and "assignor" in error.str().lower(), error
    finally:
        c.close()


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"member_epoch": 5}, "GROUP_ID_NOT_FOUND"),
        ({"member_epoch": -3}, "INVALID_REQUEST"),
        ({"member_epoch": 0, "subscribed_topic_names": ["x"], "topic_partitions": []}, "INVALID_REQUEST"),
        ({**JOIN, "subscribed_topic_regex": "a(b"}, "INVALID_REGULAR_EXPRESSION"),
        ({**JOIN, "subscribed_topic_names": ["x"], "server_assignor": "nope"}, "UNSUPPORTED_ASSIGNOR"),
        ({**JOIN, "subscribed_topic_names": ["x"], "member_id": ""}, "INVALID_REQUEST"),
    ],
)
def test_bad_heartbeats_get_kafkas_errors(broker: Any, fields: dict[str, Any], error: str) -> None:
    bs = broker.bootstrap_servers
    group = _name("g")
    body = {"group_id": group, "member_id": uuid.uuid4().hex, **fields}
    with connect(bs) as conn:
        find_coordinator(conn, group)
        deadline = time.monotonic() + 30
        while True:
            response = conn.request(68, cgh.ConsumerGroupHeartbeatRequest(**body), version=1)
            if ErrorCode(response.error_code).name not in (
                "COORDINATOR_NOT_AVAILABLE",
                "COORDINATOR_LOAD_IN_PROGRESS",
                "NOT_COORDINATOR",
            ):
                break
            assert time.monotonic() < deadline
            time.sleep(0.2)
    assert ErrorCode(response.error_code).name == error, response


def test_fenced_member_epoch(broker: Any) -> None:
    bs = broker.bootstrap_servers
    group, member = _name("g"), uuid.uuid4().hex
    create_topic(bs, _name("f"), 1)
    join = cgh.ConsumerGroupHeartbeatRequest(
        group_id=group, member_id=member, member_epoch=0, rebalance_timeout_ms=30000,
        subscribed_topic_names=["x"], topic_partitions=[],
    )  # fmt: skip
    with connect(bs) as conn:
        find_coordinator(conn, group)
        deadline = time.monotonic() + 30
        while (joined := conn.request(68, join, version=1)).error_code != 0:
            assert time.monotonic() < deadline, joined
            time.sleep(0.2)
        assert joined.member_epoch == 2 and joined.heartbeat_interval_ms == 5000
        ahead = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=7)
        assert ErrorCode(conn.request(68, ahead, version=1).error_code) == ErrorCode.FENCED_MEMBER_EPOCH
        leave = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=-1)
        left = conn.request(68, leave, version=1)
        assert (left.error_code, left.member_epoch) == (0, -1)
        # gone: a heartbeat now is from an unknown member
        again = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, member_epoch=1)
        assert ErrorCode(conn.request(68, again, version=1).error_code) == ErrorCode.UNKNOWN_MEMBER_ID


def test_list_and_delete_a_consumer_group(broker: Any) -> None:
    bs = broker.bootstrap_servers
    topic, group = _name("d"), _name("g")
    create_topic(bs, topic, 2)
    produce(bs, topic, 2, 0, 10)
    admin = AdminClient({"bootstrap.servers": bs})
    members = Members()
    try:
        members.add("c1", consumer(bs, group))
        members.consumers["c1"].subscribe([topic])
        members.poll_until(lambda: len(members.seen) >= 10, 30, "the records")
        listed = {g.group_id: g for g in admin.list_consumer_groups().result(30).valid}
        assert listed[group].type.name == "CONSUMER" and listed[group].state.name == "STABLE"
        with pytest.raises(KafkaException) as e:
            admin.delete_consumer_groups([group])[group].result(30)
        assert e.value.args[0].name() == "NON_EMPTY_GROUP"
    finally:
        members.close_all()
    deadline = time.monotonic() + 30
    while True:  # the leave is asynchronous to close() on the broker's side of the wire
        listed = {g.group_id: g for g in admin.list_consumer_groups().result(30).valid}
        if listed[group].state.name == "EMPTY" or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert listed[group].state.name == "EMPTY"
    admin.delete_consumer_groups([group])[group].result(30)
    assert group not in {g.group_id for g in admin.list_consumer_groups().result(30).valid}
    c = Consumer({"bootstrap.servers": bs, "group.id": group, "group.protocol": "consumer"})
    try:  # the offsets went with the group
        committed = c.committed([TopicPartition(topic, p) for p in range(2)], timeout=30)
    finally:
        c.close()
    assert [tp.offset for tp in committed] == [-1001, -1001]


def find_coordinator(conn: Any, group: str) -> None:
    """Until the group's coordinator is ready (Apache Kafka creates __consumer_offsets on demand)."""
    deadline = time.monotonic() + 30
    while True:
        r = conn.request(10, fcr.FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), version=4)
        if r.coordinators[0].error_code == 0:
            return
        assert time.monotonic() < deadline, r
        time.sleep(0.2)


def _commit(conn: Any, group: str, topic: str, member: str, epoch: int) -> str:
    body = ocr.OffsetCommitRequest(
        group_id=group,
        generation_id_or_member_epoch=epoch,
        member_id=member,
        topics=[ocr.OffsetCommitRequestTopic(name=topic, partitions=[ocr.OffsetCommitRequestPartition(0, 1)])],
    )
    return ErrorCode(conn.request(8, body, version=9).topics[0].partitions[0].error_code).name


def _fetch(conn: Any, group: str, topic: str, member: str | None, epoch: int) -> str:
    body = ofr.OffsetFetchRequest(
        groups=[
            ofr.OffsetFetchRequestGroup(
                group_id=group,
                member_id=member,
                member_epoch=epoch,
                topics=[ofr.OffsetFetchRequestTopics(name=topic, partition_indexes=[0])],
            )
        ]
    )
    return ErrorCode(conn.request(9, body, version=9).groups[0].error_code).name


def test_offset_commit_and_fetch_carry_the_member_epoch(broker: Any) -> None:
    bs = broker.bootstrap_servers
    group, member, topic = _name("g"), uuid.uuid4().hex, _name("o")
    create_topic(bs, topic, 1)
    join = cgh.ConsumerGroupHeartbeatRequest(
        group_id=group, member_id=member, member_epoch=0, rebalance_timeout_ms=30000,
        subscribed_topic_names=[topic], topic_partitions=[],
    )  # fmt: skip
    with connect(bs) as conn:
        find_coordinator(conn, group)
        deadline = time.monotonic() + 30
        while (joined := conn.request(68, join, version=1)).error_code != 0:
            assert time.monotonic() < deadline, joined
            time.sleep(0.2)
        epoch = joined.member_epoch
        results = {
            "current": _commit(conn, group, topic, member, epoch),
            "older": _commit(conn, group, topic, member, epoch - 1),
            "newer": _commit(conn, group, topic, member, epoch + 1),
            "unknown member": _commit(conn, group, topic, "nobody", epoch),
            "admin": _commit(conn, group, topic, "", -1),
            "fetch current": _fetch(conn, group, topic, member, epoch),
            "fetch older": _fetch(conn, group, topic, member, epoch - 1),
            "fetch unknown member": _fetch(conn, group, topic, "nobody", epoch),
            "fetch admin": _fetch(conn, group, topic, None, -1),
        }
    # Kafka 4.3.1's answers: a commit or fetch of a member carries its current epoch; an admin's none
    assert results == {
        "current": "NONE",
        "older": "STALE_MEMBER_EPOCH",
        "newer": "STALE_MEMBER_EPOCH",
        "unknown member": "UNKNOWN_MEMBER_ID",
        "admin": "UNKNOWN_MEMBER_ID",
        "fetch current": "NONE",
        "fetch older": "STALE_MEMBER_EPOCH",
        "fetch unknown member": "UNKNOWN_MEMBER_ID",
        "fetch admin": "NONE",
    }


def _commit_partitions(conn: Any, group: str, topic: str, member: str, epoch: int, parts: list[int]) -> dict[int, str]:
    """A commit of `parts` (offset 1), v9: topics by name (v10, by topic id, is answered alike; its own
    differential test is tests/integration/test_offset_commit_topic_ids.py)."""
    body = ocr.OffsetCommitRequest(
        group_id=group,
        generation_id_or_member_epoch=epoch,
        member_id=member,
        topics=[
            ocr.OffsetCommitRequestTopic(name=topic, partitions=[ocr.OffsetCommitRequestPartition(p, 1) for p in parts])
        ],
    )
    (t,) = conn.request(8, body, version=9).topics
    return {p.partition_index: ErrorCode(p.error_code).name for p in t.partitions}


def test_a_commit_of_the_previous_epoch_counts_for_the_partitions_held_since(broker: Any) -> None:
    """KIP-1251 (Kafka 4.3.1): a commit sent with the member's previous epoch -- its heartbeat bringing the
    new one was in flight -- is taken if the member has held every partition in it since that epoch, and
    refused whole (STALE_MEMBER_EPOCH) if one of them was given up. The timing is made with raw heartbeats:
    member a holds all four partitions, b joins, a acknowledges giving up two and gets a new epoch, then
    commits with the old.
    (Under CPU load our broker refused such commits whole and the churn test's committed offsets stayed
    behind what was read, where Apache Kafka took them.)"""
    bs = broker.bootstrap_servers
    group, topic, a, b = _name("g"), _name("ae"), uuid.uuid4().hex, uuid.uuid4().hex
    create_topic(bs, topic, 4)
    with connect(bs) as conn:
        find_coordinator(conn, group)

        def hb(member: str, owned: Any = None, **fields: Any) -> Any:
            fields.setdefault("topic_partitions", owned)
            body = cgh.ConsumerGroupHeartbeatRequest(group_id=group, member_id=member, **fields)
            r = conn.request(68, body, version=1)
            assert r.error_code == 0, r
            return r

        def owned(r: Any) -> list[Any]:
            return [cgh.TopicPartitions(t.topic_id, sorted(t.partitions)) for t in r.assignment.topic_partitions]

        def until(member: str, r: Any, done: Callable[[Any], bool]) -> Any:
            deadline = time.monotonic() + 30
            held = owned(r) if r.assignment else []
            while not done(r):
                assert time.monotonic() < deadline, r
                time.sleep(0.2)
                r = hb(member, owned=held, member_epoch=r.member_epoch)
                if r.assignment:
                    held = owned(r)
            return r

        def count(r: Any) -> int:
            return sum(len(t.partitions) for t in r.assignment.topic_partitions) if r.assignment else -1

        r = until(a, hb(a, **JOIN, subscribed_topic_names=[topic]), lambda r: count(r) == 4)
        e1 = r.member_epoch
        hb(b, **JOIN, subscribed_topic_names=[topic])
        r = until(a, r, lambda r: 0 <= count(r) < 4)  # the revocation: a keeps e1 until it acknowledges
        kept = sorted(p for t in r.assignment.topic_partitions for p in t.partitions)
        assert r.member_epoch == e1 and len(kept) == 2, r
        r = until(a, hb(a, owned=owned(r), member_epoch=e1), lambda r: r.member_epoch > e1)
        e2 = r.member_epoch
        results = {
            "previous epoch, held since": _commit_partitions(conn, group, topic, a, e1, kept),
            "previous epoch, with given-up partitions": _commit_partitions(conn, group, topic, a, e1, [0, 1, 2, 3]),
            "before the assignment": _commit_partitions(conn, group, topic, a, e1 - 1, kept),
            "newer": _commit_partitions(conn, group, topic, a, e2 + 1, kept),
            "current": _commit_partitions(conn, group, topic, a, e2, kept),
        }
    # Kafka 4.3.1's answers; a partition not held since the epoch fails the whole request
    assert results == {
        "previous epoch, held since": dict.fromkeys(kept, "NONE"),
        "previous epoch, with given-up partitions": dict.fromkeys(range(4), "STALE_MEMBER_EPOCH"),
        "before the assignment": dict.fromkeys(kept, "STALE_MEMBER_EPOCH"),
        "newer": dict.fromkeys(kept, "STALE_MEMBER_EPOCH"),
        "current": dict.fromkeys(kept, "NONE"),
    }, (e1, e2, kept)


@pytest.mark.parametrize("version", [5, 6])
def test_describe_and_list_groups_of_a_consumer_group(broker: Any, version: int) -> None:
    bs = broker.bootstrap_servers
    group, member = _name("g"), uuid.uuid4().hex
    join = cgh.ConsumerGroupHeartbeatRequest(
        group_id=group, member_id=member, member_epoch=0, rebalance_timeout_ms=30000,
        subscribed_topic_names=["x"], topic_partitions=[],
    )  # fmt: skip
    with connect(bs) as conn:
        find_coordinator(conn, group)
        deadline = time.monotonic() + 30
        while (joined := conn.request(68, join, version=1)).error_code != 0:
            assert time.monotonic() < deadline, joined
            time.sleep(0.2)
        (described,) = conn.request(15, dgr.DescribeGroupsRequest(groups=[group]), version=version).groups
        listed = conn.request(16, lgr.ListGroupsRequest(types_filter=["consumer"]), version=5).groups
        classic_only = conn.request(16, lgr.ListGroupsRequest(types_filter=["classic"]), version=5).groups
    # DescribeGroups is the classic groups' API: Kafka answers a consumer group as not found (v6+
    # with an error code and message; v5 as a Dead group)
    assert (ErrorCode(described.error_code).name, described.group_state, described.members) == (
        ("GROUP_ID_NOT_FOUND", "Dead", []) if version >= 6 else ("NONE", "Dead", [])
    )
    if version >= 6:
        assert described.error_message == f"Group {group} is not a classic group."
    mine = [g for g in listed if g.group_id == group]
    assert [(g.protocol_type, g.group_state, g.group_type) for g in mine] == [("consumer", "Stable", "consumer")]
    assert group not in {g.group_id for g in classic_only}
