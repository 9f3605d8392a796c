"""The server-side assignors (uniform, range) as pure functions: every subscribed partition assigned
exactly once, to a subscriber; balanced; sticky where Kafka's are."""

from __future__ import annotations

import random
import uuid

import pytest

from broker_embedded.group.assignors import ASSIGNORS, MemberSubscription, range_assign, uniform_assign

A, B, C = (uuid.UUID(int=i).bytes for i in (1, 2, 3))


def subs(**members: set[bytes]) -> dict[str, MemberSubscription]:
    return {m: MemberSubscription(frozenset(t)) for m, t in members.items()}


def flat(assignment: dict) -> list[tuple[bytes, int]]:
    return sorted((t, p) for a in assignment.values() for t, ps in a.items() for p in ps)


def sizes(assignment: dict) -> list[int]:
    return sorted(sum(len(ps) for ps in a.values()) for a in assignment.values())


@pytest.mark.parametrize("name", ["uniform", "range"])
def test_every_partition_once_and_only_to_subscribers(name: str) -> None:
    rng = random.Random(5)
    topics = {A: 7, B: 3, C: 5}
    for _ in range(50):
        members = {
            f"m{i}": MemberSubscription(frozenset(rng.sample([A, B, C], rng.randint(1, 3))))
            for i in range(rng.randint(1, 6))
        }
        out = ASSIGNORS[name](members, topics, {})
        subscribed = {t for m in members.values() for t in m.subscribed_topic_ids}
        assert flat(out) == sorted((t, p) for t in subscribed for p in range(topics[t]))
        for m, a in out.items():
            assert set(a) <= members[m].subscribed_topic_ids


def test_uniform_balances_a_homogeneous_group() -> None:
    out = uniform_assign(subs(a={A, B}, b={A, B}, c={A, B}), {A: 7, B: 3}, {})
    assert sizes(out) == [3, 3, 4]


def test_uniform_is_sticky_when_a_member_joins() -> None:
    before = uniform_assign(subs(a={A}, b={A}), {A: 6}, {})
    after = uniform_assign(subs(a={A}, b={A}, c={A}), {A: 6}, before)
    assert sizes(after) == [2, 2, 2]
    for m in ("a", "b"):  # the old members only lose partitions, they gain none
        assert after[m][A] <= before[m][A]


def test_uniform_is_sticky_when_a_member_leaves() -> None:
    before = uniform_assign(subs(a={A}, b={A}, c={A}), {A: 6}, {})
    after = uniform_assign(subs(a={A}, b={A}), {A: 6}, before)
    for m in ("a", "b"):
        assert before[m][A] <= after[m][A]
    assert sizes(after) == [3, 3]


def test_range_gives_contiguous_ranges_in_member_order() -> None:
    out = range_assign(subs(b={A, B}, a={A, B}), {A: 5, B: 2}, {})
    assert out["a"] == {A: frozenset({0, 1, 2}), B: frozenset({0})}
    assert out["b"] == {A: frozenset({3, 4}), B: frozenset({1})}


def test_no_members_no_assignment() -> None:
    assert uniform_assign({}, {A: 3}, {}) == {}
    assert range_assign({}, {A: 3}, {}) == {}
