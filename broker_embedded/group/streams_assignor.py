"""The server-side task assignor of streams groups: Kafka's "sticky" assignor, as a pure function.

Kafka's StickyTaskAssignor balances tasks over processes (a process is one Kafka Streams instance,
possibly with several member threads), weighting each process by its member count, and keeps a
task where it was when that stays within balance. Active tasks first: a task stays with its
previous active owner while that member is under its share (overall, and of the task's subtopology:
as Apache Kafka 4.3.1 does, each subtopology is spread evenly), the rest go to the least loaded
member (ties broken by its load of that subtopology, the lighter process, then the member id).
Then each stateful task (a subtopology with changelog topics) gets up to `num_standby_replicas`
standbys, each on a process that holds no copy of it yet, preferring its previous standby owners.
The sticky assignor produces no warm-up tasks.
"""

from __future__ import annotations

from dataclasses import dataclass

from broker_embedded.group.streams_group import TasksTuple

Task = tuple[str, int]


@dataclass(frozen=True)
class AssignorMember:
    member_id: str
    process_id: str
    previous: TasksTuple


def assign(
    members: list[AssignorMember],
    task_counts: dict[str, int],
    num_standby_replicas: int,
    stateful: set[str] | None = None,
) -> dict[str, TasksTuple]:
    """`stateful`: the subtopologies with state (changelog topics); only their tasks get standbys
    (None: all of them)."""
    if not members:
        return {}
    tasks: list[Task] = [(s, p) for s in sorted(task_counts) for p in range(task_counts[s])]
    ids = sorted(m.member_id for m in members)
    by_id = {m.member_id: m for m in members}
    load = dict.fromkeys(ids, 0)
    process_load: dict[str, int] = {}
    active: dict[str, set[Task]] = {i: set() for i in ids}
    valid = set(tasks)

    # each subtopology spread evenly too: at most ceil(n/M) of its tasks stay with one member
    sub_cap = {sid: -(-n // len(ids)) for sid, n in task_counts.items()}
    sub_load: dict[tuple[str, str], int] = {}

    def give(member_id: str, task: Task, table: dict[str, set[Task]]) -> None:
        table[member_id].add(task)
        load[member_id] += 1
        if table is active:
            sub_load[(member_id, task[0])] = sub_load.get((member_id, task[0]), 0) + 1
        pid = by_id[member_id].process_id
        process_load[pid] = process_load.get(pid, 0) + 1

    # 1. sticky actives: each previous owner keeps what it had, up to its fair share (floor(T/M),
    # and floor+1 for as many members as the remainder allows)
    base, extra = divmod(len(tasks), len(ids))
    owner: dict[Task, str] = {}
    previous = {
        mid: sorted(t for t in ((s, p) for s, ps in by_id[mid].previous.active.items() for p in ps) if t in valid)
        for mid in ids
    }

    def fits(mid: str, t: Task, limit: int) -> bool:
        return t not in owner and load[mid] < limit and sub_load.get((mid, t[0]), 0) < sub_cap[t[0]]

    for mid in ids:
        for t in previous[mid]:
            if fits(mid, t, base):
                owner[t] = mid
                give(mid, t, active)
    for mid in ids:
        if extra <= 0:
            break
        for t in previous[mid]:
            if fits(mid, t, base + 1):
                owner[t] = mid
                give(mid, t, active)
                extra -= 1
                break

    def least_loaded(candidates: list[str], sid: str = "") -> str:
        return min(
            candidates,
            key=lambda i: (load[i], sub_load.get((i, sid), 0), process_load.get(by_id[i].process_id, 0), i),
        )

    # 2. the rest to the least loaded member (then the one with fewest of the task's subtopology)
    for t in tasks:
        if t not in owner:
            mid = least_loaded(ids, t[0])
            owner[t] = mid
            give(mid, t, active)

    # 3. standbys: never on a process that already holds the task
    standby: dict[str, set[Task]] = {i: set() for i in ids}
    if num_standby_replicas > 0:
        for t in tasks:
            if stateful is not None and t[0] not in stateful:
                continue  # a stateless task has nothing to keep warm
            holders = {by_id[owner[t]].process_id}
            for _ in range(num_standby_replicas):
                candidates = [i for i in ids if by_id[i].process_id not in holders]
                if not candidates:
                    break  # fewer processes than replicas: Kafka assigns what it can
                sticky = [i for i in candidates if t[1] in by_id[i].previous.standby.get(t[0], frozenset())]
                mid = least_loaded(sticky or candidates)
                give(mid, t, standby)
                holders.add(by_id[mid].process_id)

    def as_tasks(ts: set[Task]) -> dict[str, frozenset[int]]:
        out: dict[str, set[int]] = {}
        for s, p in ts:
            out.setdefault(s, set()).add(p)
        return {s: frozenset(ps) for s, ps in out.items()}

    return {i: TasksTuple(as_tasks(active[i]), as_tasks(standby[i]), {}) for i in ids}
