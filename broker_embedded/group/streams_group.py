"""The streams group (KIP-1071) in memory: topology, members, target and current assignments.

`StreamsGroup.replay(record)` is the only thing that changes it (records of streams_records.py),
so a group read back from ``__consumer_offsets`` equals the one that wrote it. A task is a
(subtopology id, partition) pair; an assignment is three maps subtopology id -> partitions
(active, standby and warm-up tasks). `configure_topology` derives the task counts and the internal
topics to create from the registered topology and the topics that exist, as Kafka's
InternalTopicManager does; `reconcile` moves a member towards its target the way Kafka's streams
CurrentAssignmentBuilder does (revoke first, never one active task on two members).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from broker_embedded.group.streams_records import (
    STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT,
    STREAMS_GROUP_MEMBER_METADATA,
    STREAMS_GROUP_METADATA,
    STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER,
    STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA,
    STREAMS_GROUP_TOPOLOGY,
    StreamsGroupRecord,
)

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2

# Kafka's MemberState codes (the State field of the current assignment record)
STABLE, UNREVOKED_TASKS, UNRELEASED_TASKS, UNKNOWN = 1, 2, 3, 127
STATE_NAMES = {STABLE: "STABLE", UNREVOKED_TASKS: "UNREVOKED_TASKS", UNRELEASED_TASKS: "UNRELEASED_TASKS"}

# StreamsGroupHeartbeatResponse.Status codes
STALE_TOPOLOGY, MISSING_SOURCE_TOPICS, INCORRECTLY_PARTITIONED_TOPICS, MISSING_INTERNAL_TOPICS = 0, 1, 2, 3
SHUTDOWN_APPLICATION, ASSIGNMENT_DELAYED = 4, 5

Tasks = dict[str, frozenset[int]]
KINDS = ("active", "standby", "warmup")


@dataclass(frozen=True)
class TasksTuple:
    active: Tasks = field(default_factory=dict)
    standby: Tasks = field(default_factory=dict)
    warmup: Tasks = field(default_factory=dict)

    def kind(self, name: str) -> Tasks:
        return dict(getattr(self, name))

    def is_empty(self) -> bool:
        return not any(ps for k in KINDS for ps in getattr(self, k).values())

    def normalized(self) -> TasksTuple:
        return TasksTuple(*({s: ps for s, ps in getattr(self, k).items() if ps} for k in KINDS))


EMPTY_TASKS = TasksTuple()


def tasks_from_record(items: list[dict[str, Any]] | None) -> Tasks:
    out: Tasks = {}
    for t in items or []:
        out[t["subtopology_id"]] = out.get(t["subtopology_id"], frozenset()) | frozenset(t["partitions"])
    return {s: ps for s, ps in out.items() if ps}


def tasks_to_record(tasks: Tasks) -> list[dict[str, Any]]:
    return [{"subtopology_id": s, "partitions": sorted(ps)} for s, ps in sorted(tasks.items()) if ps]


def tuple_from_record(value: dict[str, Any], suffix: str = "") -> TasksTuple:
    return TasksTuple(*(tasks_from_record(value.get(f"{k}_tasks{suffix}")) for k in KINDS))


def tuple_to_record(t: TasksTuple, suffix: str = "") -> dict[str, Any]:
    return {f"{k}_tasks{suffix}": tasks_to_record(getattr(t, k)) for k in KINDS}


def _minus(a: Tasks, b: Tasks) -> Tasks:
    return {s: ps - b.get(s, frozenset()) for s, ps in a.items() if ps - b.get(s, frozenset())}


def _inter(a: Tasks, b: Tasks) -> Tasks:
    return {s: ps & b[s] for s, ps in a.items() if s in b and ps & b[s]}


def _union(a: Tasks, b: Tasks) -> Tasks:
    out = dict(a)
    for s, ps in b.items():
        out[s] = out.get(s, frozenset()) | ps
    return {s: ps for s, ps in out.items() if ps}


@dataclass
class StreamsMember:
    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    topology_epoch: int = 0
    process_id: str = ""
    user_endpoint: dict[str, Any] | None = None
    client_tags: dict[str, str] = field(default_factory=dict)
    # the current assignment (record 22)
    member_epoch: int = 0
    previous_member_epoch: int = -1
    state: int = STABLE
    assigned: TasksTuple = EMPTY_TASKS
    pending_revocation: TasksTuple = EMPTY_TASKS

    def metadata_record_value(self) -> dict[str, Any]:
        return {
            "instance_id": self.instance_id,
            "rack_id": self.rack_id,
            "client_id": self.client_id,
            "client_host": self.client_host,
            "rebalance_timeout_ms": self.rebalance_timeout_ms,
            "topology_epoch": self.topology_epoch,
            "process_id": self.process_id,
            "user_endpoint": self.user_endpoint,
            "client_tags": [{"key": k, "value": v} for k, v in sorted(self.client_tags.items())],
        }

    def assignment_record_value(self) -> dict[str, Any]:
        return {
            "member_epoch": self.member_epoch,
            "previous_member_epoch": self.previous_member_epoch,
            "state": self.state,
            **tuple_to_record(self.assigned),
            **tuple_to_record(self.pending_revocation, "_pending_revocation"),
        }


@dataclass
class ConfiguredSubtopology:
    subtopology_id: str
    num_tasks: int
    source_topics: list[str]
    repartition_sink_topics: list[str]
    repartition_source_topics: dict[str, int]  # name -> partitions
    state_changelog_topics: dict[str, int]


@dataclass
class ConfiguredTopology:
    """The topology as the topics are: task counts per subtopology, or why it cannot run yet."""

    subtopologies: list[ConfiguredSubtopology] | None
    topics_to_create: dict[str, tuple[int, int, dict[str, str]]]  # name -> (partitions, rf, configs)
    status: tuple[int, str] | None = None

    @property
    def ready(self) -> bool:
        return self.subtopologies is not None

    def task_counts(self) -> dict[str, int]:
        return {s.subtopology_id: s.num_tasks for s in self.subtopologies or []}


def configure_topology(topology: dict[str, Any], partitions_of: dict[str, int]) -> ConfiguredTopology:
    """Kafka's InternalTopicManager.configureTopics: source topics must exist; a repartition topic
    without a fixed count takes the largest task count of the subtopologies writing to it; a
    changelog topic has as many partitions as its subtopology has tasks. Missing internal topics
    are returned to be created (the status MISSING_INTERNAL_TOPICS until they exist)."""
    subs = topology.get("subtopologies") or []
    # as Kafka: a topic named among a subtopology's source topics must exist (repartition topics are
    # named among its repartition source topics instead)
    missing_sources = sorted({t for s in subs for t in s["source_topics"] if t not in partitions_of})
    if missing_sources:
        return ConfiguredTopology(
            None, {}, (MISSING_SOURCE_TOPICS, f"Source topics {', '.join(missing_sources)} are missing.")
        )
    repartition: dict[str, int] = {}
    for s in subs:
        for r in s["repartition_source_topics"]:
            if r["partitions"] > 0:
                repartition[r["name"]] = r["partitions"]
    # a repartition topic's count follows from its writers' counts: iterate to a fixed point
    tasks: dict[str, int] = {}
    for _ in range(len(subs) + 1):
        for s in subs:
            counts = [partitions_of[t] for t in s["source_topics"] if t in partitions_of and t not in repartition]
            counts += [repartition[r["name"]] for r in s["repartition_source_topics"] if r["name"] in repartition]
            if counts:
                tasks[s["subtopology_id"]] = max(counts)
            for sink in s["repartition_sink_topics"]:
                if sink not in repartition and s["subtopology_id"] in tasks:
                    repartition[sink] = tasks[s["subtopology_id"]]
    configured: list[ConfiguredSubtopology] = []
    to_create: dict[str, tuple[int, int, dict[str, str]]] = {}
    for s in sorted(subs, key=lambda x: x["subtopology_id"]):
        n = tasks.get(s["subtopology_id"], 0)
        rsrc = {r["name"]: repartition.get(r["name"], n) for r in s["repartition_source_topics"]}
        changelogs = {c["name"]: n for c in s["state_changelog_topics"]}
        for info in [*s["repartition_source_topics"], *s["state_changelog_topics"]]:
            name = info["name"]
            count = rsrc.get(name, changelogs.get(name, n))
            if name not in partitions_of:
                configs = {kv["key"]: kv["value"] for kv in info.get("topic_configs") or []}
                to_create[name] = (count, info.get("replication_factor", 0), configs)
        configured.append(
            ConfiguredSubtopology(
                s["subtopology_id"],
                n,
                list(s["source_topics"]),
                list(s["repartition_sink_topics"]),
                rsrc,
                changelogs,
            )
        )
    if to_create:
        # Kafka's order: the repartition topics, then the changelog topics
        names = [r["name"] for s in subs for r in s["repartition_source_topics"] if r["name"] in to_create]
        names += [c["name"] for s in subs for c in s["state_changelog_topics"] if c["name"] in to_create]
        names = list(dict.fromkeys(names))
        return ConfiguredTopology(
            None, to_create, (MISSING_INTERNAL_TOPICS, f"Internal topics are missing: {', '.join(names)}")
        )
    return ConfiguredTopology(configured, {})


@dataclass
class StreamsGroup:
    group_id: str
    group_epoch: int = 0
    metadata_hash: int = 0
    validated_topology_epoch: int = -1
    topology: dict[str, Any] | None = None
    members: dict[str, StreamsMember] = field(default_factory=dict)
    targets: dict[str, TasksTuple] = field(default_factory=dict)
    assignment_epoch: int = 0
    assignment_timestamp: int = 0
    deleted: bool = False
    # not stored: the topology as configured against the topics at the last heartbeat
    configured: ConfiguredTopology | None = None
    # not stored (as in Kafka): the interactive-query endpoint information and its epoch, bumped
    # whenever a member's endpoint or the partitions behind it change
    endpoint_information_epoch: int = 0
    endpoint_information: tuple[Any, ...] = ()

    @property
    def topology_epoch(self) -> int:
        return -1 if self.topology is None else int(self.topology["epoch"])

    def state(self) -> str:
        """Kafka's StreamsGroupState as DescribeGroups/ListGroups spell it."""
        if self.deleted:
            return "Dead"
        if not self.members:
            return "Empty"
        if self.topology is None or (self.configured is not None and not self.configured.ready):
            return "NotReady"
        if self.assignment_epoch < self.group_epoch:
            return "Assigning"
        for m in self.members.values():
            if m.state != STABLE or m.member_epoch != self.assignment_epoch:
                return "Reconciling"
        return "Stable"

    def member_or_new(self, member_id: str) -> StreamsMember:
        return self.members.get(member_id) or StreamsMember(member_id)

    def replay(self, record: StreamsGroupRecord) -> None:
        key, value = record
        t = key.record_type
        if t == STREAMS_GROUP_METADATA:
            if value is None:
                self.deleted = True
                return
            self.deleted = False
            self.group_epoch = value["epoch"]
            self.metadata_hash = value["metadata_hash"]
            self.validated_topology_epoch = value["validated_topology_epoch"]
        elif t == STREAMS_GROUP_TOPOLOGY:
            self.topology = value
            self.configured = None
        elif t == STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA:
            if value is not None:
                self.assignment_epoch = value["assignment_epoch"]
                self.assignment_timestamp = value["assignment_timestamp"]
        elif t == STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER:
            if value is None:
                self.targets.pop(key.member_id or "", None)
            else:
                self.targets[key.member_id or ""] = tuple_from_record(value).normalized()
        elif t == STREAMS_GROUP_MEMBER_METADATA:
            mid = key.member_id or ""
            if value is None:
                self.members.pop(mid, None)
                return
            m = self.member_or_new(mid)
            m.instance_id = value["instance_id"]
            m.rack_id = value["rack_id"]
            m.client_id = value["client_id"]
            m.client_host = value["client_host"]
            m.rebalance_timeout_ms = value["rebalance_timeout_ms"]
            m.topology_epoch = value["topology_epoch"]
            m.process_id = value["process_id"]
            m.user_endpoint = value["user_endpoint"]
            m.client_tags = {kv["key"]: kv["value"] for kv in value["client_tags"]}
            self.members[mid] = m
        elif t == STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT:
            mid = key.member_id or ""
            if value is None:
                gone = self.members.get(mid)
                if gone is not None:
                    gone.member_epoch, gone.previous_member_epoch, gone.state = 0, -1, STABLE
                    gone.assigned = gone.pending_revocation = EMPTY_TASKS
                return
            m = self.member_or_new(mid)
            m.member_epoch = value["member_epoch"]
            m.previous_member_epoch = value["previous_member_epoch"]
            m.state = value["state"]
            m.assigned = tuple_from_record(value).normalized()
            m.pending_revocation = tuple_from_record(value, "_pending_revocation").normalized()
            self.members[mid] = m
        # type 18 (partition metadata of Kafka's early access) has no state here

    # --- reconciliation --------------------------------------------------------------------------
    def owners(self, exclude: str) -> tuple[dict[tuple[str, int], str], dict[tuple[str, int], set[str]]]:
        """Who owns what now (assigned or pending revocation), other than `exclude`: active task ->
        member id, and task -> the process ids holding it in any role."""
        active: dict[tuple[str, int], str] = {}
        by_process: dict[tuple[str, int], set[str]] = {}
        for m in self.members.values():
            if m.member_id == exclude:
                continue
            for tasks in (m.assigned, m.pending_revocation):
                for kind in KINDS:
                    for s, ps in getattr(tasks, kind).items():
                        for p in ps:
                            if kind == "active":
                                active[(s, p)] = m.member_id
                            by_process.setdefault((s, p), set()).add(m.process_id)
        return active, by_process


def reconcile(
    group: StreamsGroup, member: StreamsMember, owned: TasksTuple | None
) -> tuple[int, int, int, TasksTuple, TasksTuple]:
    """The member's next (epoch, previous epoch, state, assigned, pending revocation), towards its
    target at the group's assignment epoch. `owned`: the tasks the member reported it still owns
    (None: not reported in this heartbeat, taken as its assignment)."""
    target = group.targets.get(member.member_id, EMPTY_TASKS)
    epoch = group.assignment_epoch
    if member.state == UNREVOKED_TASKS:
        still = owned if owned is not None else member.assigned
        if any(_inter(getattr(still, k), getattr(member.pending_revocation, k)) for k in KINDS):
            return (member.member_epoch, member.previous_member_epoch, UNREVOKED_TASKS, member.assigned,
                    member.pending_revocation)  # fmt: skip
    elif member.state == STABLE and member.member_epoch == epoch and member.pending_revocation.is_empty():
        if all(getattr(member.assigned, k) == getattr(target, k) for k in KINDS):
            return member.member_epoch, member.previous_member_epoch, STABLE, member.assigned, EMPTY_TASKS
    assigned = member.assigned
    keep = TasksTuple(*(_inter(getattr(assigned, k), getattr(target, k)) for k in KINDS))
    revoke = TasksTuple(*(_minus(getattr(assigned, k), getattr(target, k)) for k in KINDS))
    if not revoke.is_empty():
        # revoke first: the member keeps its epoch until it confirms the revocation
        return member.member_epoch, member.previous_member_epoch, UNREVOKED_TASKS, keep, revoke
    active_owner, process_owners = group.owners(member.member_id)
    new: list[Tasks] = []
    unreleased = False
    for kind in KINDS:
        granted = dict(getattr(keep, kind))
        for s, ps in _minus(getattr(target, kind), getattr(keep, kind)).items():
            for p in ps:
                if kind == "active":
                    blocked = (s, p) in active_owner
                else:  # a state directory is per process: no two roles of a task in one process
                    blocked = member.process_id in process_owners.get((s, p), set())
                if blocked:
                    unreleased = True
                    continue
                granted[s] = granted.get(s, frozenset()) | {p}
        new.append(granted)
    previous = member.member_epoch if member.member_epoch != epoch else member.previous_member_epoch
    state = UNRELEASED_TASKS if unreleased else STABLE
    return epoch, previous, state, TasksTuple(*new).normalized(), EMPTY_TASKS


def union_tasks(a: TasksTuple) -> Tasks:
    return _union(_union(a.active, a.standby), a.warmup)
