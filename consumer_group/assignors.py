"""Leader-side partition assignors: `range`, `roundrobin`, `sticky`, `cooperative-sticky`.

Pure functions of (partitions per topic, group members) -> partitions per member, with the
semantics of Kafka's assignors of the same protocol names, so a group can mix our members with
Java or librdkafka members whichever of them is elected leader.

Ordering of members: static members (with a group.instance.id) first, sorted by instance id, then
dynamic members sorted by member id, as Kafka does. With static membership the member id changes
on every restart but the instance id does not, so sorting by instance id keeps `range` and
`roundrobin` layouts stable across restarts.

Not implemented: rack-aware placement (KIP-881); rack ids are accepted and ignored.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import ClassVar

from consumer_group.protocol import (
    decode_cooperative_user_data,
    decode_sticky_user_data,
    encode_cooperative_user_data,
    encode_sticky_user_data,
)
from consumer_group.structs import MemberSubscription, TopicPartition
from kafka_wire.errors import ProtocolDecodeError

GroupAssignment = dict[str, list[TopicPartition]]


def member_sort_key(member: MemberSubscription) -> tuple[int, str, str]:
    """Static members first by group.instance.id, then dynamic members by member id."""
    if member.group_instance_id is not None:
        return (0, member.group_instance_id, member.member_id)
    return (1, member.member_id, "")


def _subscribed_topics(member: MemberSubscription, partitions_per_topic: Mapping[str, int]) -> frozenset[str]:
    # topics that do not exist (yet) or have no partitions contribute nothing to assign
    return frozenset(t for t in member.topics if partitions_per_topic.get(t, 0) > 0)


def _finish(assignment: Mapping[str, Iterable[TopicPartition]]) -> GroupAssignment:
    return {mid: sorted(tps) for mid, tps in assignment.items()}


class Assignor(ABC):
    """A partition assignment strategy, named by its JoinGroup protocol name."""

    name: ClassVar[str]
    # True when the assignor never hands a partition to a new owner in the rebalance that
    # revokes it from the old one (KIP-429), so members may keep partitions across rebalances
    supports_cooperative: ClassVar[bool] = False

    def subscription_user_data(self, owned: frozenset[TopicPartition], generation_id: int) -> bytes | None:
        """User data this member puts in its subscription for this assignor."""
        return None

    @abstractmethod
    def assign(self, partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> GroupAssignment:
        """Partitions per member id; every member of `members` appears (possibly with [])."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RangeAssignor(Assignor):
    """Per topic: contiguous ranges over the sorted subscribers, the first P mod N get one extra."""

    name = "range"

    def assign(self, partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> GroupAssignment:
        out: dict[str, list[TopicPartition]] = {m.member_id: [] for m in members}
        subscribers: dict[str, list[str]] = {}
        for m in sorted(members, key=member_sort_key):
            for topic in sorted(_subscribed_topics(m, partitions_per_topic)):
                subscribers.setdefault(topic, []).append(m.member_id)
        for topic, mids in sorted(subscribers.items()):
            per_member, extra = divmod(partitions_per_topic[topic], len(mids))
            start = 0
            for i, mid in enumerate(mids):
                length = per_member + (1 if i < extra else 0)
                out[mid].extend(TopicPartition(topic, p) for p in range(start, start + length))
                start += length
        return _finish(out)


class RoundRobinAssignor(Assignor):
    """All subscribed partitions, sorted by (topic, partition), dealt over the sorted members.

    The cursor walks the members in a circle and skips those not subscribed to the partition's
    topic, so with different subscriptions the deal stays as even as the subscriptions allow.
    """

    name = "roundrobin"

    def assign(self, partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> GroupAssignment:
        ordered = sorted(members, key=member_sort_key)
        out: dict[str, list[TopicPartition]] = {m.member_id: [] for m in members}
        if not ordered:
            return out
        subs = {m.member_id: _subscribed_topics(m, partitions_per_topic) for m in ordered}
        topics = sorted(set().union(*subs.values()))
        cursor = 0
        for topic in topics:
            for p in range(partitions_per_topic[topic]):
                for _ in range(len(ordered)):
                    member = ordered[cursor % len(ordered)]
                    cursor += 1
                    if topic in subs[member.member_id]:
                        out[member.member_id].append(TopicPartition(topic, p))
                        break
        return _finish(out)


# ---------------------------------------------------------------------------------------------
# sticky
# ---------------------------------------------------------------------------------------------

Claims = Mapping[str, tuple[Iterable[TopicPartition], int]]


def sticky_target(
    partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription], claims: Claims
) -> dict[str, set[TopicPartition]]:
    """A balanced assignment that keeps as many claimed partitions with their owners as possible.

    `claims` maps member id -> (partitions the member says it owns, generation of that claim).
    Per partition only the claims of the highest generation count: a member that missed a
    rebalance (zombie) reports stale ownership. Two claims in the same top generation cannot both
    be right, so neither is honoured and the partition is placed like an unowned one.

    Balance: when subscriptions are identical the partition counts differ by at most one. With
    different subscriptions we move partitions (along chains of members if needed) while some
    member holds at least two more partitions than another member that could take one of them
    through such a chain; that minimizes the sum of squared counts, the best balance the
    subscriptions allow.
    """
    ordered = sorted(members, key=member_sort_key)
    ids = [m.member_id for m in ordered]
    rank = {mid: i for i, mid in enumerate(ids)}
    subs = {m.member_id: _subscribed_topics(m, partitions_per_topic) for m in ordered}
    subscribers: dict[str, list[str]] = {}
    for mid in ids:
        for topic in sorted(subs[mid]):
            subscribers.setdefault(topic, []).append(mid)

    best: dict[TopicPartition, tuple[int, list[str]]] = {}
    for mid in ids:
        owned, generation = claims.get(mid, ((), -1))
        for tp in set(owned):
            if tp.topic not in subs[mid] or not 0 <= tp.partition < partitions_per_topic[tp.topic]:
                continue
            current = best.get(tp)
            if current is None or generation > current[0]:
                best[tp] = (generation, [mid])
            elif generation == current[0]:
                current[1].append(mid)

    assignment: dict[str, set[TopicPartition]] = {mid: set() for mid in ids}
    previous: dict[TopicPartition, str] = {}
    for tp, (_, owners) in best.items():
        if len(owners) == 1:
            assignment[owners[0]].add(tp)
            previous[tp] = owners[0]

    # unowned partitions: the most constrained first, each to the least loaded subscriber
    unowned = [
        TopicPartition(topic, p)
        for topic in subscribers
        for p in range(partitions_per_topic[topic])
        if TopicPartition(topic, p) not in previous
    ]
    unowned.sort(key=lambda tp: (len(subscribers[tp.topic]), tp))
    for tp in unowned:
        mid = min(subscribers[tp.topic], key=lambda m: (len(assignment[m]), rank[m]))
        assignment[mid].add(tp)

    _balance(assignment, subs, ids, previous)
    return assignment


def _balance(
    assignment: dict[str, set[TopicPartition]],
    subs: Mapping[str, frozenset[str]],
    ids: Sequence[str],
    previous: Mapping[TopicPartition, str],
) -> None:
    held_topics = {mid: Counter(tp.topic for tp in tps) for mid, tps in assignment.items()}
    rank = {mid: i for i, mid in enumerate(ids)}

    def pick(donor: str, recipient: str) -> TopicPartition:
        # moving a partition the donor did not own before costs no stickiness: prefer those
        candidates = [tp for tp in assignment[donor] if tp.topic in subs[recipient]]
        return min(candidates, key=lambda tp: (previous.get(tp) == donor, tp))

    def move(donor: str, recipient: str) -> None:
        tp = pick(donor, recipient)
        assignment[donor].remove(tp)
        assignment[recipient].add(tp)
        held_topics[donor][tp.topic] -= 1
        if not held_topics[donor][tp.topic]:
            del held_topics[donor][tp.topic]
        held_topics[recipient][tp.topic] += 1

    def can_take(recipient: str, donor: str) -> bool:
        return recipient != donor and any(t in subs[recipient] for t in held_topics[donor])

    # every move goes from a member with count c to one with count <= c - 2 (possibly through
    # intermediate members whose counts do not change), so the sum of squared counts strictly
    # decreases and the loop terminates
    while True:
        donors = sorted(ids, key=lambda m: (-len(assignment[m]), rank[m]))
        moved = False
        for donor in donors:
            limit = len(assignment[donor]) - 2
            if limit < 0:
                break
            direct = [m for m in ids if len(assignment[m]) <= limit and can_take(m, donor)]
            if direct:
                move(donor, min(direct, key=lambda m: (len(assignment[m]), rank[m])))
                moved = True
                break
        if moved:
            continue
        for donor in donors:
            limit = len(assignment[donor]) - 2
            if limit < 0:
                break
            path = _find_chain(donor, limit, ids, assignment, can_take)
            if path:
                for a, b in reversed(list(zip(path, path[1:], strict=False))):
                    move(a, b)
                moved = True
                break
        if not moved:
            return


def _find_chain(
    donor: str,
    limit: int,
    ids: Sequence[str],
    assignment: Mapping[str, set[TopicPartition]],
    can_take: Callable[[str, str], bool],
) -> list[str] | None:
    """Shortest chain donor -> ... -> member with count <= limit; can_take(recipient, donor)."""
    parent: dict[str, str | None] = {donor: None}
    queue = deque([donor])
    while queue:
        x = queue.popleft()
        for y in ids:
            if y in parent or not can_take(y, x):
                continue
            parent[y] = x
            if len(assignment[y]) <= limit:
                chain = [y]
                while parent[chain[-1]] is not None:
                    # the while condition just checked parent[...] is not None
                    chain.append(parent[chain[-1]])  # type: ignore[arg-type]
                return chain[::-1]
            queue.append(y)
    return None


class StickyAssignor(Assignor):
    """Eager `sticky`: balanced, and keeps each member's previous partitions where it can.

    Eager members revoke everything before rejoining, so their previous assignment and its
    generation travel in the user data (StickyAssignorUserData); the subscription's owned
    partitions are used instead when a member fills them.
    """

    name = "sticky"

    def subscription_user_data(self, owned: frozenset[TopicPartition], generation_id: int) -> bytes | None:
        return encode_sticky_user_data(owned, generation_id)

    @staticmethod
    def claim(member: MemberSubscription) -> tuple[tuple[TopicPartition, ...], int]:
        if member.owned_partitions:
            generation = member.generation_id
            if generation < 0:
                generation = _safe_sticky_generation(member.user_data)
            return member.owned_partitions, generation
        try:
            return decode_sticky_user_data(member.user_data)
        except ProtocolDecodeError:  # unreadable user data: no claim, as Kafka does
            return (), -1

    def assign(self, partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> GroupAssignment:
        claims = {m.member_id: self.claim(m) for m in members}
        return _finish(sticky_target(partitions_per_topic, members, claims))


def _safe_sticky_generation(user_data: bytes | None) -> int:
    try:
        return decode_sticky_user_data(user_data)[1]
    except ProtocolDecodeError:
        return -1


class CooperativeStickyAssignor(Assignor):
    """`cooperative-sticky` (KIP-429): the sticky target, minus partitions that change owner.

    A partition that some other member still claims is left out of this rebalance: its owner
    sees it missing from its assignment, revokes it and rejoins, and the follow-up rebalance
    hands it to its new owner. So no partition ever has two owners, even for a moment. We
    withhold on *any* other claim, stale generations included: a zombie still consuming is
    exactly the case where a second owner would hurt.
    """

    name = "cooperative-sticky"
    supports_cooperative = True

    def subscription_user_data(self, owned: frozenset[TopicPartition], generation_id: int) -> bytes | None:
        # read by peers whose subscription version predates the generation field (v0/v1)
        return encode_cooperative_user_data(generation_id)

    @staticmethod
    def claim(member: MemberSubscription) -> tuple[tuple[TopicPartition, ...], int]:
        generation = member.generation_id
        if generation < 0:
            generation = decode_cooperative_user_data(member.user_data)
        return member.owned_partitions, generation

    def assign(self, partitions_per_topic: Mapping[str, int], members: Sequence[MemberSubscription]) -> GroupAssignment:
        claims = {m.member_id: self.claim(m) for m in members}
        target = sticky_target(partitions_per_topic, members, claims)
        claimants: dict[TopicPartition, set[str]] = {}
        for m in members:
            for tp in m.owned_partitions:
                claimants.setdefault(tp, set()).add(m.member_id)
        for mid, tps in target.items():
            target[mid] = {tp for tp in tps if not (claimants.get(tp, set()) - {mid})}
        return _finish(target)


ASSIGNORS: dict[str, type[Assignor]] = {
    cls.name: cls for cls in (RangeAssignor, RoundRobinAssignor, StickyAssignor, CooperativeStickyAssignor)
}


def get_assignor(assignor: str | Assignor) -> Assignor:
    """An assignor instance from a protocol name (`partition.assignment.strategy` value)."""
    if isinstance(assignor, Assignor):
        return assignor
    try:
        return ASSIGNORS[assignor.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown assignor {assignor!r}; known: {', '.join(ASSIGNORS)}") from None


__all__ = [
    "ASSIGNORS",
    "Assignor",
    "CooperativeStickyAssignor",
    "GroupAssignment",
    "RangeAssignor",
    "RoundRobinAssignor",
    "StickyAssignor",
    "get_assignor",
    "member_sort_key",
    "sticky_target",
]
