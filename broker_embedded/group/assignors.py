"""Server-side assignors of the consumer group protocol (KIP-848): pure functions.

An assignor gets each member's subscribed topics (resolved names, regex included) and the current
target assignment, and the partition counts of the subscribed topics; it returns the new target
assignment, member id -> topic id -> partitions. Nothing else is read: no clock, no randomness, so
every coordinator computes the same assignment from the same records.

- ``uniform`` (Kafka's default): balanced (partition counts differ by at most one between members
  of the same subscription) and sticky: a member keeps what it has while that keeps the balance.
- ``range``: per topic, the partitions split into contiguous ranges over the subscribed members
  in member id order (co-partitioned topics land together), sticky when the member set is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from broker_embedded.group.consumer_records import Assignment


@dataclass(frozen=True)
class MemberSubscription:
    subscribed_topic_ids: frozenset[bytes]
    rack_id: str | None = None


# topic id -> number of partitions
TopicPartitionCounts = Mapping[bytes, int]
GroupAssignment = dict[str, Assignment]


def _freeze(out: dict[str, dict[bytes, set[int]]]) -> GroupAssignment:
    return {m: {t: frozenset(ps) for t, ps in topics.items() if ps} for m, topics in out.items()}


def uniform_assign(
    members: Mapping[str, MemberSubscription],
    topics: TopicPartitionCounts,
    current: Mapping[str, Assignment],
) -> GroupAssignment:
    """Balanced and sticky. Each partition goes to one of its topic's subscribers; a member's quota
    is computed over the members that share its subscription, and partitions move only to keep
    members within one partition of each other."""
    if not members:
        return {}
    first = next(iter(members.values())).subscribed_topic_ids
    if all(m.subscribed_topic_ids == first for m in members.values()):
        return _uniform_homogeneous(sorted(members), [t for t in sorted(first) if t in topics], topics, current)
    out: dict[str, dict[bytes, set[int]]] = {m: {} for m in members}
    subscribers: dict[bytes, list[str]] = {}
    for m in sorted(members):
        for t in members[m].subscribed_topic_ids:
            if t in topics:
                subscribers.setdefault(t, []).append(m)
    counts = dict.fromkeys(members, 0)
    unassigned: list[tuple[bytes, int]] = []
    # the fair share of each member: partitions of its topics divided over their subscribers
    share: dict[str, float] = dict.fromkeys(members, 0.0)
    for t, subs in subscribers.items():
        for m in subs:
            share[m] += topics[t] / len(subs)
    quota = {m: int(share[m]) + (1 if share[m] - int(share[m]) > 1e-9 else 0) for m in members}
    # keep what is still valid, up to the member's ceiling quota
    for t in sorted(subscribers):
        for p in range(topics[t]):
            owner = next((m for m in subscribers[t] if p in current.get(m, {}).get(t, ())), None)
            if owner is not None and counts[owner] < quota[owner]:
                out[owner].setdefault(t, set()).add(p)
                counts[owner] += 1
            else:
                unassigned.append((t, p))
    for t, p in unassigned:
        target = min(subscribers[t], key=lambda m: (counts[m], m))
        out[target].setdefault(t, set()).add(p)
        counts[target] += 1
    # rebalance: move from the fullest to the emptiest member of a shared topic until within one
    changed = True
    while changed:
        changed = False
        for t in sorted(subscribers):
            subs = subscribers[t]
            if len(subs) < 2:
                continue
            hi = max(subs, key=lambda m: (counts[m], m))
            lo = min(subs, key=lambda m: (counts[m], m))
            if counts[hi] - counts[lo] > 1 and out[hi].get(t):
                p = max(out[hi][t])
                out[hi][t].discard(p)
                out[lo].setdefault(t, set()).add(p)
                counts[hi] -= 1
                counts[lo] += 1
                changed = True
    return _freeze(out)


def _uniform_homogeneous(
    members: list[str], subscribed: list[bytes], topics: TopicPartitionCounts, current: Mapping[str, Assignment]
) -> GroupAssignment:
    """Every member subscribes to the same topics (the usual case): one pass over the partitions.
    Members keep what they own up to their quota (those owning most get the extra partitions), the
    rest goes to the members below quota."""
    wanted = set(subscribed)
    owner: dict[tuple[bytes, int], str] = {}
    for m in members:
        for t, ps in current.get(m, {}).items():
            if t in wanted:
                for p in ps:
                    if p < topics[t]:
                        owner.setdefault((t, p), m)
    partitions = [(t, p) for t in subscribed for p in range(topics[t])]
    kept: dict[str, list[tuple[bytes, int]]] = {m: [] for m in members}
    for tp in partitions:
        if (o := owner.get(tp)) is not None:
            kept[o].append(tp)
    base, extra = divmod(len(partitions), len(members))
    order = sorted(members, key=lambda m: (-len(kept[m]), m))
    quota = {m: base + (1 if i < extra else 0) for i, m in enumerate(order)}
    out: dict[str, dict[bytes, set[int]]] = {m: {} for m in members}
    taken: set[tuple[bytes, int]] = set()
    for m in members:
        for t, p in kept[m][: quota[m]]:
            out[m].setdefault(t, set()).add(p)
            taken.add((t, p))
    counts = {m: min(len(kept[m]), quota[m]) for m in members}
    needy = iter([m for m in order for _ in range(quota[m] - counts[m])])
    for tp in partitions:
        if tp not in taken:
            m = next(needy)
            out[m].setdefault(tp[0], set()).add(tp[1])
    return _freeze(out)


def range_assign(
    members: Mapping[str, MemberSubscription],
    topics: TopicPartitionCounts,
    current: Mapping[str, Assignment],
) -> GroupAssignment:
    """Per topic: partitions in contiguous ranges over its subscribers sorted by member id, the first
    `n % members` subscribers taking one more."""
    out: dict[str, dict[bytes, set[int]]] = {m: {} for m in members}
    for t in sorted(topics):
        subs = sorted(m for m in members if t in members[m].subscribed_topic_ids)
        if not subs:
            continue
        n = topics[t]
        base, extra = divmod(n, len(subs))
        start = 0
        for i, m in enumerate(subs):
            size = base + (1 if i < extra else 0)
            if size:
                out[m][t] = set(range(start, start + size))
            start += size
    return _freeze(out)


Assignor = Callable[[Mapping[str, MemberSubscription], TopicPartitionCounts, Mapping[str, Assignment]], GroupAssignment]

ASSIGNORS: dict[str, Assignor] = {"uniform": uniform_assign, "range": range_assign}
