"""Leader-side assignors and ConsumerProtocol serialization.

Properties (hypothesis) for every assignor: within a generation no partition has two owners, and
every partition of a subscribed topic has exactly one owner (cooperative-sticky: once the
follow-up rebalances ran). Exact layouts for range/roundrobin against the examples in Kafka's
docs. Stickiness of `sticky` across membership churn, measured against the minimum number of
moves that balance requires. Serialization is checked against kafka-python's independent
implementation of the same Kafka JSON schemas.
"""

from __future__ import annotations

import os
import struct
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from consumer_group.assignors import (
    ASSIGNORS,
    CooperativeStickyAssignor,
    RangeAssignor,
    RoundRobinAssignor,
    StickyAssignor,
    get_assignor,
)
from consumer_group.protocol import (
    Assignment,
    Subscription,
    decode_assignment,
    decode_cooperative_user_data,
    decode_sticky_user_data,
    decode_subscription,
    encode_assignment,
    encode_cooperative_user_data,
    encode_sticky_user_data,
    encode_subscription,
)
from consumer_group.structs import MemberSubscription, TopicPartition
from kafka_wire.errors import ProtocolDecodeError

TP = TopicPartition
# kafka-python (the serialization oracle) loads its JSON schemas with deprecated importlib calls
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ALL_NAMES = sorted(ASSIGNORS)
TOPICS = ["t0", "t1", "t2", "t3"]
# ASSIGNOR_EXAMPLES=5000 for a longer hunt
SETTINGS = settings(
    max_examples=int(os.environ.get("ASSIGNOR_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def members_of(subs: Mapping[str, Sequence[str]], **kw: object) -> list[MemberSubscription]:
    return [MemberSubscription(mid, tuple(topics), **kw) for mid, topics in subs.items()]  # type: ignore[arg-type]


def expected_partitions(partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> set[TP]:
    topics = {t for m in members for t in m.topics}
    return {TP(t, p) for t in topics for p in range(partitions_per_topic.get(t, 0))}


def check_valid(
    partitions_per_topic: Mapping[str, int],
    members: Sequence[MemberSubscription],
    result: Mapping[str, Sequence[TP]],
    complete: bool = True,
) -> None:
    assert set(result) == {m.member_id for m in members}
    owners = Counter(tp for tps in result.values() for tp in tps)
    assert all(n == 1 for n in owners.values()), f"partitions with two owners: {owners}"
    subs = {m.member_id: set(m.topics) for m in members}
    for mid, tps in result.items():
        assert all(tp.topic in subs[mid] for tp in tps), f"{mid} got a topic it does not subscribe to"
        assert all(0 <= tp.partition < partitions_per_topic.get(tp.topic, 0) for tp in tps)
    if complete:
        assert set(owners) == expected_partitions(partitions_per_topic, members)


# --- strategies ---------------------------------------------------------------------------------

partition_counts = st.fixed_dictionaries({t: st.integers(0, 12) for t in TOPICS})


@st.composite
def groups(draw: st.DrawFn, identical: bool | None = None) -> tuple[dict[str, int], list[MemberSubscription]]:
    counts = draw(partition_counts)
    n = draw(st.integers(1, 10))
    same = draw(st.booleans()) if identical is None else identical
    if same:
        topics = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True))
        subs = [topics] * n
    else:
        subs = [draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=4, unique=True)) for _ in range(n)]
    members = []
    for i, topics in enumerate(subs):
        static = draw(st.booleans())
        members.append(
            MemberSubscription(
                member_id=f"member-{draw(st.integers(0, 10**6))}-{i}",
                topics=tuple(topics),
                group_instance_id=f"instance-{draw(st.integers(0, 10**6))}-{i}" if static else None,
            )
        )
    return counts, members


# --- validity for every assignor -------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_NAMES)
@SETTINGS
@given(group=groups())
def test_every_partition_has_exactly_one_owner(
    name: str, group: tuple[dict[str, int], list[MemberSubscription]]
) -> None:
    counts, members = group
    result = get_assignor(name).assign(counts, members)
    check_valid(counts, members, result)
    # deterministic: the same input gives the same layout, whatever the member order
    assert get_assignor(name).assign(counts, list(reversed(members))) == result


@pytest.mark.parametrize("name", ALL_NAMES)
def test_18_partitions_over_8_members(name: str) -> None:
    """The production layout of the cart-processor post-mortem (notes/004 §2.2)."""
    members = members_of({f"node-{i}": ["cart"] for i in range(8)})
    result = get_assignor(name).assign({"cart": 18}, members)
    check_valid({"cart": 18}, members, result)
    assert sorted((len(v) for v in result.values()), reverse=True) == [3, 3, 2, 2, 2, 2, 2, 2]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_more_members_than_partitions_and_empty_topics(name: str) -> None:
    members = members_of({f"m{i}": ["a", "empty", "missing"] for i in range(5)})
    result = get_assignor(name).assign({"a": 2, "empty": 0}, members)
    check_valid({"a": 2, "empty": 0}, members, result)
    assert sorted(len(v) for v in result.values()) == [0, 0, 0, 1, 1]


@pytest.mark.parametrize("name", ALL_NAMES)
def test_no_members_and_no_partitions(name: str) -> None:
    assert get_assignor(name).assign({"a": 3}, []) == {}
    assert get_assignor(name).assign({}, members_of({"m": ["a"]})) == {"m": []}


def test_unknown_assignor_name() -> None:
    with pytest.raises(ValueError, match="unknown assignor"):
        get_assignor("fancy")
    assert get_assignor(" Range ").name == "range"


# --- exact layouts ------------------------------------------------------------------------------


def test_range_layout_from_kafka_docs() -> None:
    # RangeAssignor javadoc: C0, C1 both subscribe t0, t1 (3 partitions each)
    result = RangeAssignor().assign({"t0": 3, "t1": 3}, members_of({"C0": ["t0", "t1"], "C1": ["t0", "t1"]}))
    assert result == {
        "C0": [TP("t0", 0), TP("t0", 1), TP("t1", 0), TP("t1", 1)],
        "C1": [TP("t0", 2), TP("t1", 2)],
    }


def test_range_is_per_topic_over_that_topics_subscribers() -> None:
    members = members_of({"a": ["x", "y"], "b": ["x"], "c": ["y"]})
    result = RangeAssignor().assign({"x": 5, "y": 2}, members)
    assert result == {
        "a": [TP("x", 0), TP("x", 1), TP("x", 2), TP("y", 0)],
        "b": [TP("x", 3), TP("x", 4)],
        "c": [TP("y", 1)],
    }


def test_range_sorts_static_members_by_instance_id_first() -> None:
    members = [
        MemberSubscription("m-0", ("t",)),  # dynamic: after all static members
        MemberSubscription("m-1", ("t",), group_instance_id="zeta"),
        MemberSubscription("m-2", ("t",), group_instance_id="alpha"),
    ]
    result = RangeAssignor().assign({"t": 4}, members)
    assert result == {"m-2": [TP("t", 0), TP("t", 1)], "m-1": [TP("t", 2)], "m-0": [TP("t", 3)]}
    # a restarted static member gets a new member id but keeps its partitions
    restarted = [members[0], members[1], MemberSubscription("m-9", ("t",), group_instance_id="alpha")]
    assert RangeAssignor().assign({"t": 4}, restarted)["m-9"] == [TP("t", 0), TP("t", 1)]


def test_roundrobin_layouts_from_kafka_docs() -> None:
    same = RoundRobinAssignor().assign({"t0": 3, "t1": 3}, members_of({"C0": ["t0", "t1"], "C1": ["t0", "t1"]}))
    assert same == {
        "C0": [TP("t0", 0), TP("t0", 2), TP("t1", 1)],
        "C1": [TP("t0", 1), TP("t1", 0), TP("t1", 2)],
    }
    different = RoundRobinAssignor().assign(
        {"t0": 1, "t1": 2, "t2": 3}, members_of({"C0": ["t0"], "C1": ["t0", "t1"], "C2": ["t0", "t1", "t2"]})
    )
    assert different == {
        "C0": [TP("t0", 0)],
        "C1": [TP("t1", 0)],
        "C2": [TP("t1", 1), TP("t2", 0), TP("t2", 1), TP("t2", 2)],
    }


# --- sticky -------------------------------------------------------------------------------------


def with_claims(
    members: Sequence[MemberSubscription], owned: Mapping[str, Sequence[TP]], generation: int
) -> list[MemberSubscription]:
    return [
        MemberSubscription(
            m.member_id,
            m.topics,
            group_instance_id=m.group_instance_id,
            owned_partitions=tuple(owned.get(m.member_id, ())),
            generation_id=generation,
        )
        for m in members
    ]


def min_moves_for_balance(counts_kept: Sequence[int], total: int) -> int:
    """Lower bound on moves (identical subscriptions): the excess over the best balanced targets."""
    n = len(counts_kept)
    floor, extra = divmod(total, n)
    targets = [floor + 1] * extra + [floor] * (n - extra)
    # give the larger targets to the members that keep the most
    return sum(max(0, c - t) for c, t in zip(sorted(counts_kept, reverse=True), targets, strict=True))


def moved(before: Mapping[str, Sequence[TP]], after: Mapping[str, Sequence[TP]]) -> int:
    """Partitions taken from a previous owner that is still in the group."""
    owner = {tp: mid for mid, tps in before.items() for tp in tps if mid in after}
    return sum(1 for mid, tps in after.items() for tp in tps if tp in owner and owner[tp] != mid)


@st.composite
def churn(draw: st.DrawFn) -> tuple[list[str], int, list[list[str]]]:
    topics = draw(st.lists(st.sampled_from(TOPICS), min_size=1, max_size=3, unique=True))
    total = draw(st.integers(1, 40))
    rounds = []
    members = [f"m{i}" for i in range(draw(st.integers(1, 8)))]
    next_id = len(members)
    for _ in range(draw(st.integers(1, 6))):
        rounds.append(list(members))
        leave = draw(st.lists(st.sampled_from(members), max_size=max(0, len(members) - 1), unique=True))
        members = [m for m in members if m not in leave]
        for _ in range(draw(st.integers(0, 3))):
            members.append(f"m{next_id}")
            next_id += 1
        if not members:
            members = [f"m{next_id}"]
            next_id += 1
    rounds.append(members)
    return topics, total, rounds


def spread(topics: Sequence[str], total: int) -> dict[str, int]:
    counts = dict.fromkeys(topics, total // len(topics))
    counts[topics[0]] += total % len(topics)
    return counts


@SETTINGS
@given(scenario=churn())
def test_sticky_moves_no_more_than_balance_requires(scenario: tuple[list[str], int, list[list[str]]]) -> None:
    topics, total, rounds = scenario
    counts = spread(topics, total)
    previous: dict[str, list[TP]] = {}
    for generation, ids in enumerate(rounds):
        members = with_claims(members_of({m: topics for m in ids}), previous, generation)
        result = StickyAssignor().assign(counts, members)
        check_valid(counts, members, result)
        sizes = [len(v) for v in result.values()]
        assert max(sizes) - min(sizes) <= 1, "identical subscriptions must be balanced"
        kept = [len([tp for tp in previous.get(m, ()) if tp.partition < counts.get(tp.topic, 0)]) for m in ids]
        assert moved(previous, result) <= min_moves_for_balance(kept, total)
        previous = result


@SETTINGS
@given(scenario=churn(), data=st.data())
def test_sticky_member_leaving_moves_only_its_partitions(
    scenario: tuple[list[str], int, list[list[str]]], data: st.DataObject
) -> None:
    topics, total, rounds = scenario
    ids = rounds[0]
    assume(len(ids) >= 2)
    counts = spread(topics, total)
    first = StickyAssignor().assign(counts, members_of({m: topics for m in ids}))
    leaver = data.draw(st.sampled_from(ids))
    remaining = [m for m in ids if m != leaver]
    second = StickyAssignor().assign(counts, with_claims(members_of({m: topics for m in remaining}), first, 1))
    for m in remaining:
        assert set(first[m]) <= set(second[m]), f"{m} lost partitions although only {leaver} left"
    sizes = [len(v) for v in second.values()]
    assert max(sizes) - min(sizes) <= 1


@SETTINGS
@given(group=groups(identical=False), data=st.data())
def test_sticky_with_different_subscriptions_is_locally_balanced(
    group: tuple[dict[str, int], list[MemberSubscription]], data: st.DataObject
) -> None:
    counts, members = group
    # random (possibly overlapping, possibly stale) previous ownership
    universe = sorted(expected_partitions(counts, members))
    owned = {
        m.member_id: data.draw(st.lists(st.sampled_from(universe), unique=True) if universe else st.just([]))
        for m in members
    }
    claimed = [
        MemberSubscription(
            m.member_id,
            m.topics,
            owned_partitions=tuple(owned[m.member_id]),
            generation_id=data.draw(st.integers(-1, 3)),
        )
        for m in members
    ]
    result = StickyAssignor().assign(counts, claimed)
    check_valid(counts, claimed, result)
    subs = {m.member_id: set(m.topics) for m in members}
    # Kafka's balance criterion: no partition could move to a member with 2+ fewer partitions
    for donor, tps in result.items():
        for recipient, theirs in result.items():
            if len(tps) >= len(theirs) + 2:
                assert not any(tp.topic in subs[recipient] for tp in tps), (donor, recipient)


def test_sticky_ignores_stale_generation_claims() -> None:
    members = [
        MemberSubscription("a", ("t",), owned_partitions=(TP("t", 0), TP("t", 1)), generation_id=5),
        MemberSubscription("b", ("t",), owned_partitions=(TP("t", 0), TP("t", 2)), generation_id=4),  # zombie
        MemberSubscription("c", ("t",)),
    ]
    result = StickyAssignor().assign({"t": 3}, members)
    check_valid({"t": 3}, members, result)
    assert result["b"] == [TP("t", 2)]  # its stale claim on t-0 lost; nobody newer claims t-2
    assert len(result["a"]) == 1 and set(result["a"]) < {TP("t", 0), TP("t", 1)}  # gives one to c
    assert len(result["c"]) == 1


def test_sticky_same_generation_conflict_is_invalidated() -> None:
    members = [
        MemberSubscription("a", ("t",), owned_partitions=(TP("t", 0),), generation_id=3),
        MemberSubscription("b", ("t",), owned_partitions=(TP("t", 0),), generation_id=3),
    ]
    result = StickyAssignor().assign({"t": 2}, members)
    check_valid({"t": 2}, members, result)


def test_eager_sticky_reads_previous_assignment_from_user_data() -> None:
    assignor = StickyAssignor()
    prev = {"a": [TP("t", 3), TP("t", 4)], "b": [TP("t", 0), TP("t", 1)], "c": [TP("t", 2), TP("t", 5)]}
    members = [
        MemberSubscription(m, ("t",), user_data=assignor.subscription_user_data(frozenset(tps), 7))
        for m, tps in prev.items()
    ]
    assert assignor.assign({"t": 6}, members) == {m: sorted(tps) for m, tps in prev.items()}
    # unreadable user data is no claim, not an error
    junk = [MemberSubscription("a", ("t",), user_data=b"\xff\xff"), MemberSubscription("b", ("t",))]
    check_valid({"t": 6}, junk, assignor.assign({"t": 6}, junk))


# --- cooperative-sticky -------------------------------------------------------------------------


def check_cooperative_rule(members: Sequence[MemberSubscription], result: Mapping[str, Sequence[TP]]) -> None:
    claims: dict[TP, set[str]] = {}
    for m in members:
        for tp in m.owned_partitions:
            claims.setdefault(tp, set()).add(m.member_id)
    for mid, tps in result.items():
        for tp in tps:
            others = claims.get(tp, set()) - {mid}
            assert not others, f"{tp} given to {mid} while still owned by {others}"


@SETTINGS
@given(group=groups(), data=st.data())
def test_cooperative_never_moves_a_partition_in_the_rebalance_that_revokes_it(
    group: tuple[dict[str, int], list[MemberSubscription]], data: st.DataObject
) -> None:
    counts, members = group
    assignor = CooperativeStickyAssignor()
    # start from some earlier generation's assignment of a (possibly different) partition layout
    old_counts = data.draw(partition_counts)
    before = data.draw(st.sampled_from(ALL_NAMES))
    owned = get_assignor(before).assign(old_counts, members)
    # a member may also leave and a newcomer join with nothing
    if len(members) > 1 and data.draw(st.booleans()):
        members = members[1:] + [MemberSubscription("newcomer", members[0].topics)]
    generation = 1
    for _ in range(4):
        claimed = with_claims(members, owned, generation)
        result = assignor.assign(counts, claimed)
        check_valid(counts, claimed, result, complete=False)
        check_cooperative_rule(claimed, result)
        # members revoke what is missing and keep the rest: their next claim is exactly `result`
        if set().union(*map(set, result.values())) == expected_partitions(counts, members):
            break
        owned = result
        generation += 1
    else:
        pytest.fail("cooperative-sticky did not converge within 4 rebalances")


def test_cooperative_two_phase_move_example() -> None:
    assignor = CooperativeStickyAssignor()
    first = with_claims(members_of({"a": ["t"], "b": ["t"]}), {"a": [TP("t", p) for p in range(4)]}, 1)
    step1 = assignor.assign({"t": 4}, first)
    assert step1 == {"a": [TP("t", 2), TP("t", 3)], "b": []}  # a gives up 0 and 1; b must wait
    step2 = assignor.assign({"t": 4}, with_claims(members_of({"a": ["t"], "b": ["t"]}), step1, 2))
    assert step2 == {"a": [TP("t", 2), TP("t", 3)], "b": [TP("t", 0), TP("t", 1)]}


def test_cooperative_generation_from_user_data_for_old_subscription_versions() -> None:
    a = CooperativeStickyAssignor()
    m = MemberSubscription(
        "a", ("t",), owned_partitions=(TP("t", 0),), user_data=a.subscription_user_data(frozenset(), 9)
    )
    assert a.claim(m) == ((TP("t", 0),), 9)


# --- serialization ------------------------------------------------------------------------------

topic_names = st.text(st.characters(min_codepoint=48, max_codepoint=122), min_size=1, max_size=12)
tp_sets = st.lists(st.tuples(topic_names, st.integers(0, 2**31 - 1)), max_size=8, unique=True).map(
    lambda xs: tuple(sorted(TP(t, p) for t, p in xs))
)


@st.composite
def subscriptions(draw: st.DrawFn) -> tuple[int, Subscription]:
    version = draw(st.integers(0, 3))
    return version, Subscription(
        topics=tuple(draw(st.lists(topic_names, max_size=5, unique=True))),
        user_data=draw(st.none() | st.binary(max_size=32)),
        owned_partitions=draw(tp_sets) if version >= 1 else (),
        generation_id=draw(st.integers(-1, 2**31 - 1)) if version >= 2 else -1,
        rack_id=draw(st.none() | topic_names) if version >= 3 else None,
        version=version,
    )


@SETTINGS
@given(case=subscriptions())
def test_subscription_round_trip_and_kafka_python_oracle(case: tuple[int, Subscription]) -> None:
    from kafka.protocol.consumer.metadata import ConsumerProtocolSubscription as KSub

    version, sub = case
    data = encode_subscription(sub, version)
    assert struct.unpack_from(">h", data)[0] == version
    assert decode_subscription(data) == sub
    theirs = KSub.decode(data)
    assert list(theirs.topics) == list(sub.topics)
    assert (theirs.user_data or None) == (sub.user_data or None)
    if version >= 1:
        assert sorted(TP(t.topic, p) for t in theirs.owned_partitions for p in t.partitions) == list(
            sub.owned_partitions
        )
    if version >= 2:
        assert theirs.generation_id == sub.generation_id
    if version >= 3:
        assert theirs.rack_id == sub.rack_id
    # and the other way round: kafka-python's bytes decode with ours
    assert decode_subscription(theirs.encode(version=version)) == sub


@SETTINGS
@given(partitions=tp_sets, user_data=st.none() | st.binary(max_size=16), version=st.integers(0, 3))
def test_assignment_round_trip_and_kafka_python_oracle(
    partitions: tuple[TP, ...], user_data: bytes | None, version: int
) -> None:
    from kafka.protocol.consumer.metadata import ConsumerProtocolAssignment as KAssign

    data = encode_assignment(Assignment(partitions, user_data), version)
    decoded = decode_assignment(data)
    assert decoded == Assignment(partitions, user_data, version)
    theirs = KAssign.decode(data)
    assert sorted((tp.topic, tp.partition) for tp in theirs.partitions()) == [tuple(tp) for tp in partitions]
    assert decode_assignment(theirs.encode(version=version)).partitions == partitions


def test_newer_versions_decode_as_the_highest_we_know() -> None:
    """Forward compatibility: a v4 member appends fields; the v3 prefix must still decode."""
    sub = Subscription(("a", "b"), b"ud", (TP("a", 1),), 7, "rack-1")
    data = encode_subscription(sub, 3)
    future = struct.pack(">h", 4) + data[2:] + b"\x00\x00\x00\x2a"
    assert decode_subscription(future) == Subscription(("a", "b"), b"ud", (TP("a", 1),), 7, "rack-1", version=4)
    assert decode_assignment(b"") == Assignment()
    with pytest.raises(ProtocolDecodeError):
        decode_subscription(b"\x00")
    with pytest.raises(ProtocolDecodeError):
        decode_subscription(b"\x00\x01\x00\x00\x00\x05")


def test_sticky_user_data_matches_kafka_python() -> None:
    from kafka.coordinator.assignors.sticky.user_data import StickyAssignorUserData

    parts = [TP("b", 2), TP("a", 0), TP("a", 3)]
    ours = encode_sticky_user_data(parts, 11)
    theirs = StickyAssignorUserData([("a", [0, 3]), ("b", [2])], 11)
    assert ours == theirs.encode(header=False)
    assert decode_sticky_user_data(ours) == (tuple(sorted(parts)), 11)
    assert decode_sticky_user_data(encode_sticky_user_data(parts, None)) == (tuple(sorted(parts)), -1)
    # kafka-python embeds it with an int16 version prefix; accept that too
    assert decode_sticky_user_data(theirs.encode()) == (tuple(sorted(parts)), 11)
    assert decode_cooperative_user_data(encode_cooperative_user_data(42)) == 42
    assert decode_cooperative_user_data(None) == -1
