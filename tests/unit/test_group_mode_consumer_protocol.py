"""Group mode on KIP-848's consumer protocol (`kafka.group.protocol` = `consumer`), without a broker:
the option's validation, and `GroupSession`'s epoch-fenced commits and commit-before-revoke against a
scripted member (the coordinator's answers are what Kafka's OffsetCommit v9 gives: STALE_MEMBER_EPOCH
when the epoch moved on, UNKNOWN_MEMBER_ID / FENCED_MEMBER_EPOCH when the member was fenced).
The same logic against a real coordinator and in a Spark query: tests/spark/test_group_mode_consumer_protocol.py.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from connector.options import SourceOptionError, parse_source_options
from connector.source.group_mode import GroupSession
from consumer_group import CommitFailedError, Generation, GroupError, OffsetAndMetadata
from consumer_group import TopicPartition as GroupTopicPartition
from kafka_wire.errors import ErrorCode
from offsets.spec import TopicPartition

pytestmark = pytest.mark.timeout(30)

BASE = {"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t", "kafka.group.id": "g", "groupMode": "true"}
P0, P1 = TopicPartition("t", 0), TopicPartition("t", 1)


# --- the option ------------------------------------------------------------------------------------


def test_group_protocol_option_defaults_to_classic_and_accepts_kafkas_values() -> None:
    g = parse_source_options(BASE).group
    assert g is not None and g.group_protocol == "classic" and g.remote_assignor is None
    for raw in ("consumer", "CONSUMER", " Consumer "):
        g = parse_source_options({**BASE, "kafka.group.protocol": raw}).group
        assert g is not None and g.group_protocol == "consumer"
    g = parse_source_options({**BASE, "kafka.group.protocol": "consumer", "kafka.group.remote.assignor": "range"}).group
    assert g is not None and g.remote_assignor == "range"


@pytest.mark.parametrize(
    ("extra", "phrase"),
    [
        ({"kafka.group.protocol": "streams"}, "for option 'kafka.group.protocol': expected 'classic' or 'consumer'"),
        ({"kafka.group.protocol": ""}, "for option 'kafka.group.protocol': expected 'classic' or 'consumer'"),
        (
            {"kafka.group.protocol": "consumer", "kafka.session.timeout.ms": "6000"},
            "'kafka.session.timeout.ms' cannot be set when group.protocol=consumer: the broker's "
            "group.consumer.session.timeout.ms",
        ),
        (
            {"kafka.group.protocol": "consumer", "kafka.heartbeat.interval.ms": "500"},
            "'kafka.heartbeat.interval.ms' cannot be set when group.protocol=consumer",
        ),
        (
            {"kafka.group.protocol": "consumer", "kafka.partition.assignment.strategy": "range"},
            "'kafka.partition.assignment.strategy' cannot be set when group.protocol=consumer",
        ),
        ({"kafka.group.remote.assignor": "uniform"}, "cannot be set when group.protocol=classic"),
        (
            {"kafka.group.protocol": "consumer", "kafka.group.remote.assignor": " "},
            "for option 'kafka.group.remote.assignor'",
        ),
        ({"kafka.group.protocl": "consumer"}, "did you mean 'kafka.group.protocol' ('classic' or 'consumer')"),
    ],
)
def test_bad_group_protocol_options_name_the_option(extra: dict[str, str], phrase: str) -> None:
    with pytest.raises(SourceOptionError) as e:
        parse_source_options({**BASE, **extra})
    assert phrase in str(e.value)


def test_group_protocol_without_group_mode_is_ambiguous() -> None:
    plain = {k: v for k, v in BASE.items() if k != "groupMode"}
    with pytest.raises(SourceOptionError, match="'kafka.group.protocol' configures consumer group membership"):
        parse_source_options({**plain, "kafka.group.protocol": "consumer"})


# --- epoch-fenced commits and commit before revoke -------------------------------------------------


class ScriptedMember:
    """The few `GroupMember` calls GroupSession makes on its commit paths; `answers` scripts each
    OffsetCommit's outcome (None: accepted), `on_commit` runs while a commit is "on the wire"."""

    def __init__(self, epoch: int = 5) -> None:
        self.epoch = epoch
        self.commits: list[tuple[int, dict[TopicPartition, int]]] = []
        self.answers: list[BaseException | None] = []
        self.on_commit: Callable[[], None] | None = None
        self.closed = False

    def generation(self) -> Generation:
        return Generation(self.epoch, "m1", "consumer")

    def commit(
        self, offsets: Mapping[GroupTopicPartition, OffsetAndMetadata], *, generation: Generation, timeout: float
    ) -> None:
        self.commits.append(
            (
                generation.generation_id,
                {TopicPartition(tp.topic, tp.partition): om.offset for tp, om in offsets.items()},
            )
        )
        hook, self.on_commit = self.on_commit, None
        if hook is not None:
            hook()
        answer = self.answers.pop(0) if self.answers else None
        if answer is not None:
            raise answer
        if generation.generation_id != self.epoch:
            raise CommitFailedError("stale", ErrorCode.STALE_MEMBER_EPOCH)

    def close(self, timeout: float) -> None:
        self.closed = True


@pytest.fixture
def session() -> Iterator[tuple[GroupSession, ScriptedMember]]:
    s = GroupSession(parse_source_options({**BASE, "kafka.group.protocol": "consumer"}), ["t"])
    member = ScriptedMember()
    s.member = member  # type: ignore[assignment]
    s._owned = frozenset({P0, P1})
    s._assigned.set()
    yield s, member
    s._closed = True


def _gtp(*tps: TopicPartition) -> frozenset[GroupTopicPartition]:
    return frozenset(GroupTopicPartition(tp[0], tp[1]) for tp in tps)


def _revoke_in_background(s: GroupSession, *tps: TopicPartition) -> threading.Thread:
    t = threading.Thread(target=s._on_revoked, args=(_gtp(*tps),), daemon=True)
    t.start()
    return t


def _until(pred: Callable[[], Any], what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_a_finished_batch_is_committed_with_the_current_member_epoch(
    session: tuple[GroupSession, ScriptedMember],
) -> None:
    s, member = session
    s.planned({P0: 10, P1: 10})
    s.commit_finished({P0: 10, P1: 10})
    assert member.commits == [(5, {P0: 10, P1: 10})]
    s.commit_finished({P0: 10, P1: 10})  # the same offsets again (the next trigger): nothing to send
    assert len(member.commits) == 1


def test_a_stale_epoch_retry_commits_only_what_is_still_owned(session: tuple[GroupSession, ScriptedMember]) -> None:
    """The epoch moved on while the commit was on the wire, because P1 was revoked: the retry with the
    new epoch must not carry P1 (the coordinator would accept it from a valid member)."""
    s, member = session
    s.planned({P0: 10, P1: 10})

    def revoke_p1() -> None:
        s._drop(_gtp(P1))
        member.epoch = 6

    member.on_commit = revoke_p1
    s.commit_finished({P0: 10, P1: 10})
    assert member.commits == [(5, {P0: 10, P1: 10}), (6, {P0: 10})]
    assert s._broker_committed == {P0: 10}


@pytest.mark.parametrize(
    "refusal",
    [
        CommitFailedError("fenced", ErrorCode.UNKNOWN_MEMBER_ID),
        GroupError("fenced", ErrorCode.FENCED_MEMBER_EPOCH),
    ],
)
def test_a_fenced_member_commits_nothing_and_says_so(
    session: tuple[GroupSession, ScriptedMember], refusal: GroupError, caplog: pytest.LogCaptureFixture
) -> None:
    s, member = session
    s.planned({P0: 10, P1: 10})
    member.answers = [refusal]
    with caplog.at_level(logging.WARNING, logger="connector.source.group_mode"):
        s.commit_finished({P0: 10, P1: 10})
    assert len(member.commits) == 1 and s.refused_commits == 1  # no retry: P0/P1 may be another's now
    assert s._broker_committed == {}
    assert any("fenced member epoch 5" in r.getMessage() and "t-1" in r.getMessage() for r in caplog.records)


def test_a_revocation_waits_for_the_planned_batch_then_commits_it_before_release(
    session: tuple[GroupSession, ScriptedMember],
) -> None:
    s, member = session
    s.planned({P0: 10, P1: 10})  # batch N reads both
    with s.planning():  # batch N+1 being planned: the revocation waits for its end
        revoke = _revoke_in_background(s, P1)
        time.sleep(0.2)
        assert P1 in s.view().owned and not s._revoking
    _until(lambda: P1 in s._revoking, "the revocation to start")
    assert P1 not in s.view().owned  # out of planning at once ...
    time.sleep(0.2)
    assert revoke.is_alive() and member.commits == []  # ... but not released while batch N reads it
    s.commit_finished({P0: 10, P1: 10})  # Spark finished batch N (its next latestOffset)
    revoke.join(5)
    assert not revoke.is_alive()
    # committed at the epoch still held during the revocation, P1 included: its next owner resumes at 10
    assert member.commits == [(5, {P0: 10, P1: 10})]
    assert s.view().owned == {P0} and not s._revoking and P1 not in s._in_flight
    member.epoch = 6
    s.planned({P0: 12})
    s.commit_finished({P0: 12, P1: 12})  # a replayed/late end naming P1 commits P0 only
    assert member.commits[-1] == (6, {P0: 12})


def test_a_batch_that_outlasts_the_revocation_budget_never_commits_the_released_partition(
    session: tuple[GroupSession, ScriptedMember],
) -> None:
    s, member = session
    s._revoke_wait_s = 0.3  # half of kafka.max.poll.interval.ms in a real session
    s.planned({P0: 4, P1: 4})
    s.commit_finished({P0: 4, P1: 4})  # batch N-1 finished and committed
    s.planned({P0: 10, P1: 10})  # batch N still reading
    revoke = _revoke_in_background(s, P1)
    revoke.join(5)
    assert not revoke.is_alive()
    # released after the budget at the last finished end (4, committed already): batch N's end (10) is
    # not known to be in the sink, so it is not committed
    assert member.commits == [(5, {P0: 4, P1: 4})]
    member.epoch = 6
    s.commit_finished({P0: 10, P1: 10})  # batch N finishes late: P1 is someone else's now
    assert member.commits[-1] == (6, {P0: 10})


def test_closing_ends_a_revocation_wait(session: tuple[GroupSession, ScriptedMember]) -> None:
    s, member = session
    s._revoke_wait_s = 30
    s.planned({P0: 10, P1: 10})
    revoke = _revoke_in_background(s, P0, P1)
    _until(lambda: s._revoking, "the revocation to start")
    t0 = time.monotonic()
    s.close()  # the query stops: its batch will not finish
    revoke.join(5)
    assert not revoke.is_alive() and time.monotonic() - t0 < 5 and member.closed
    assert member.commits == []  # nothing finished, nothing committed


# --- the member keeps its session while a revoke callback runs ---------------------------------------


def test_a_reconciling_member_heartbeats_while_its_revoke_callback_runs() -> None:
    """Group mode's revoke callback waits for a Spark batch: meanwhile the member heartbeats (as Kafka's
    background thread does while the application thread runs the callback), still reporting the
    partitions being revoked; a fenced member sends nothing until the callback returns."""
    from consumer_group.consumer_member import CallbackKind, InvokeCallback, SendHeartbeat
    from tests.unit.test_group_member_consumer_protocol import T1, answer, one, stable, tp

    m = stable({T1: [0, 1]})
    one(m.poll(3011), SendHeartbeat)
    answer(m, 3020, 2, [(T1, [1])])
    cb = one(m.poll(3020), InvokeCallback)
    assert cb.kind is CallbackKind.REVOKED and cb.partitions == {tp("t1", 0)}
    assert m.poll(6010) == []  # the interval runs from the last send (3011)
    hb = one(m.poll(6011), SendHeartbeat).request
    assert [(t.topic_id, t.partitions) for t in hb.topic_partitions] == [(T1, [0, 1])]  # still owned
    assert m.poll(6011) == []  # one in flight
    m.on_heartbeat_response(ErrorCode.FENCED_MEMBER_EPOCH, 6012)
    assert m.poll(9100) == []  # fenced: nothing until the callback returns, then the rest is lost
    m.callback_done(9100)
    lost = one(m.poll(9100), InvokeCallback)
    assert lost.kind is CallbackKind.LOST and lost.partitions == {tp("t1", 1)}
