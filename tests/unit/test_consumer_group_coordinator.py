"""The consumer group runtime on a fake clock: records go through the append path and are replayed;
members expire after their session timeout, or their revocation deadline; a fresh coordinator that
replays the appended records (a reload or a coordinator move) holds the same groups."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from broker_embedded.group.consumer_coordinator import ConsumerGroupCoordinator
from broker_embedded.group.consumer_group import MemberState
from broker_embedded.group.consumer_heartbeat import HeartbeatInput
from broker_embedded.purgatory import ManualClock, SystemTimer
from kafka_wire.errors import ErrorCode, KafkaError


@dataclass
class Topic:
    name: str
    topic_id: bytes
    num_partitions: int


class Registry:
    def __init__(self, *topics: Topic) -> None:
        self.topics = list(topics)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.topics)


T = Topic("t", uuid.UUID(int=7).bytes, 4)
CONFIG = {"group.consumer.session.timeout.ms": 45000, "group.consumer.heartbeat.interval.ms": 5000}


class Harness:
    def __init__(self, log: list[tuple[str, bytes, bytes | None]] | None = None, fail: bool = False) -> None:
        self.clock = ManualClock(1_000)
        self.timer = SystemTimer(name="test", clock=self.clock)
        self.log = log if log is not None else []
        self.fail = fail
        self.coordinator = ConsumerGroupCoordinator(CONFIG, Registry(T), self.append, self.timer, clock=self.clock)  # type: ignore[arg-type]

    def append(self, group_id: str, records: list[tuple[bytes, bytes | None]]) -> None:
        if self.fail:
            raise KafkaError("disk full", ErrorCode.NOT_COORDINATOR)
        self.log.extend((group_id, k, v) for k, v in records)

    def advance(self, ms: int) -> None:
        self.timer.advance_clock(self.clock.advance(ms))

    def join(self, member: str, **kw: object) -> int:
        req = HeartbeatInput(
            "g", member, 0, rebalance_timeout_ms=30000, subscribed_topic_names=["t"], topic_partitions={}, **kw
        )  # type: ignore[arg-type]
        return self.coordinator.heartbeat(req, 1).member_epoch

    def hb(self, member: str, epoch: int, owned: dict | None = None, **kw: object) -> int:
        return self.coordinator.heartbeat(
            HeartbeatInput("g", member, epoch, topic_partitions=owned, **kw), 1
        ).member_epoch  # type: ignore[arg-type]


def test_session_timeout_fences_a_silent_member() -> None:
    h = Harness()
    h.join("a")
    h.join("b")
    h.advance(40_000)
    h.hb("a", 2, owned=h.coordinator.groups["g"].members["a"].assigned)  # a is alive, b is silent
    h.advance(6_000)
    group = h.coordinator.groups["g"]
    assert set(group.members) == {"a"} and group.group_epoch == 4
    # b comes back: unknown
    with pytest.raises(KafkaError) as e:
        h.hb("b", 3)
    assert e.value.code == ErrorCode.UNKNOWN_MEMBER_ID


def test_rebalance_timeout_fences_a_member_that_does_not_revoke() -> None:
    h = Harness()
    h.coordinator.heartbeat(
        HeartbeatInput("g", "a", 0, rebalance_timeout_ms=10_000, subscribed_topic_names=["t"], topic_partitions={}), 1
    )
    h.join("b")
    h.hb("a", 2)  # told to revoke two partitions
    assert h.coordinator.groups["g"].members["a"].state == MemberState.UNREVOKED_PARTITIONS
    for _ in range(2):  # heartbeats keep the session alive but do not revoke
        h.advance(4_000)
        h.hb("a", 2)
    assert "a" in h.coordinator.groups["g"].members
    h.advance(3_000)  # 11 s since the revocation was asked for: past the 10 s rebalance timeout
    assert "a" not in h.coordinator.groups["g"].members


def test_static_member_left_temporarily_expires_after_session_timeout() -> None:
    h = Harness()
    h.join("s", instance_id="i")
    h.hb("s", -2, instance_id="i")
    assert "s" in h.coordinator.groups["g"].members
    h.advance(46_000)
    assert "s" not in h.coordinator.groups["g"].members


def test_a_failed_append_changes_nothing() -> None:
    h = Harness(fail=True)
    with pytest.raises(KafkaError):
        h.join("a")
    assert "g" not in h.coordinator.groups


def test_replaying_the_appended_records_rebuilds_the_groups() -> None:
    h = Harness()
    h.join("a")
    h.join("b", instance_id="i-b", rack_id="r2")
    h.hb("a", 2, owned=h.coordinator.groups["g"].members["a"].assigned)
    h.hb("a", 2, owned=h.coordinator.groups["g"].members["a"].assigned)
    h.hb("b", 3, owned={})
    moved = Harness(log=[])
    for _group, key, value in h.log:
        assert moved.coordinator.replay_raw(key, value)
    moved.coordinator.after_load()
    assert moved.coordinator.groups == h.coordinator.groups
    # the new coordinator times the members it loaded
    moved.advance(46_000)
    assert moved.coordinator.groups["g"].members == {}
