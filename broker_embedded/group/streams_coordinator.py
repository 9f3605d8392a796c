"""Streams groups (KIP-1071): StreamsGroupHeartbeat as an operation, and its runtime.

As for consumer groups (consumer_coordinator.py), every change is a list of records appended to the
group's ``__consumer_offsets`` partition and then replayed into the in-memory `StreamsGroup`; loading
a partition replays the same records. One heartbeat, in Kafka's order: validate, find or create the
group and member, register the topology on the first join, update the member's metadata, configure
the topology against the topics (missing internal topics are handed back to be created), bump the
group epoch on any change, compute a new target assignment with the sticky assignor when the epoch
moved, and reconcile the member towards its target. Session and revocation deadlines run on the
broker's timing wheel; the clock is injectable.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from broker_embedded.group.member_epoch_coordinator import Append, MemberEpochCoordinator
from broker_embedded.group.offsets_topic import partition_for_group
from broker_embedded.group.streams_assignor import AssignorMember, assign
from broker_embedded.group.streams_group import (
    ASSIGNMENT_DELAYED,
    EMPTY_TASKS,
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    SHUTDOWN_APPLICATION,
    STABLE,
    STALE_TOPOLOGY,
    UNREVOKED_TASKS,
    StreamsGroup,
    StreamsMember,
    TasksTuple,
    configure_topology,
    reconcile,
    tuple_to_record,
)
from broker_embedded.group.streams_records import (
    STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT,
    STREAMS_GROUP_MEMBER_METADATA,
    STREAMS_GROUP_METADATA,
    STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER,
    STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA,
    STREAMS_GROUP_TOPOLOGY,
    StreamsGroupKey,
    StreamsGroupRecord,
    decode_record,
    encode_record,
)
from broker_embedded.purgatory import Timer
from broker_embedded.purgatory.timing_wheel import monotonic_ms
from kafka_wire.errors import ErrorCode, KafkaError

log = logging.getLogger(__name__)


@dataclass
class StreamsHeartbeatInput:
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None = None
    rack_id: str | None = None
    rebalance_timeout_ms: int = -1
    topology: dict[str, Any] | None = None  # the record layout of StreamsGroupTopologyValue
    owned: TasksTuple | None = None
    process_id: str | None = None
    user_endpoint: dict[str, Any] | None = None
    client_tags: dict[str, str] | None = None
    shutdown_application: bool = False
    client_id: str = ""
    client_host: str = ""
    endpoint_information_epoch: int = 0


@dataclass
class StreamsHeartbeatOutput:
    member_id: str
    member_epoch: int
    tasks: TasksTuple | None  # None: unchanged since the last answer
    status: list[tuple[int, str]] = field(default_factory=list)
    topics_to_create: dict[str, tuple[int, int, dict[str, str]]] = field(default_factory=dict)
    records: list[StreamsGroupRecord] = field(default_factory=list)
    endpoint_information_epoch: int = 0
    # (host, port, active {topic: partitions}, standby {topic: partitions}) per member with a
    # UserEndpoint; None when the member already has the group's endpoint information epoch
    partitions_by_user_endpoint: list[Endpoint] | None = None


# an interactive-query endpoint and the source partitions of its member's active and standby tasks
Endpoint = tuple[str, int, dict[str, list[int]], dict[str, list[int]]]


def _invalid(message: str) -> KafkaError:
    return KafkaError(message, ErrorCode.INVALID_REQUEST)


def validate(req: StreamsHeartbeatInput) -> None:
    """Kafka's throwIfStreamsGroupHeartbeatRequestIsInvalid, with its messages."""
    if req.instance_id is not None:
        # Apache Kafka 4.3.1 checks this before anything else, whatever the epoch
        raise _invalid("Static membership is not yet supported.")
    if req.topology is not None and any(s.get("source_topic_regex") for s in req.topology.get("subtopologies") or []):
        # Kafka 4.3.1 refuses them next, before the group id is looked at
        raise _invalid("Regular expressions for source topics are not supported yet.")
    if not req.group_id:
        raise _invalid("GroupId can't be empty.")
    if not req.member_id:
        raise _invalid("MemberId can't be empty.")
    if req.instance_id is not None and not req.instance_id:
        raise _invalid("InstanceId can't be empty.")
    if req.rack_id is not None and not req.rack_id:
        raise _invalid("RackId can't be empty.")
    if req.member_epoch == 0:
        # Kafka 4.3.1's order and messages; the owned tasks must be sent, as empty lists
        if req.owned is None or not req.owned.is_empty():
            raise _invalid("ActiveTasks must be empty when (re-)joining.")
        if req.topology is None:
            raise _invalid("Topology must be non-null when (re-)joining.")
        if req.rebalance_timeout_ms <= 0:
            raise _invalid("RebalanceTimeoutMs must be provided in first request.")
        ids = [s["subtopology_id"] for s in req.topology.get("subtopologies") or []]
        if len(ids) != len(set(ids)):
            raise _invalid("Subtopology ids must be unique.")
    elif req.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        if req.instance_id is None:
            raise _invalid("InstanceId can't be null.")
    elif req.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        raise _invalid(f"MemberEpoch is {req.member_epoch}, but must be greater than or equal to -2.")


def metadata_hash(topology: dict[str, Any] | None, partitions_of: Callable[[str], int | None]) -> int:
    """A hash of the partition counts of the topology's topics: a change bumps the group epoch."""
    if topology is None:
        return 0
    names = sorted(
        {t for s in topology["subtopologies"] for t in s["source_topics"]}
        | {i["name"] for s in topology["subtopologies"] for i in s["repartition_source_topics"]}
        | {i["name"] for s in topology["subtopologies"] for i in s["state_changelog_topics"]}
    )
    text = ";".join(f"{n}:{partitions_of(n)}" for n in names if partitions_of(n) is not None)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big", signed=True) if text else 0


class StreamsGroupCoordinator(MemberEpochCoordinator[StreamsGroup, StreamsGroupRecord]):
    def __init__(
        self,
        config: Any,
        partitions_of: Callable[[str], int | None],
        append: Append,
        timer: Timer,
        coordinator_error: Callable[[str | None], ErrorCode] = lambda _g: ErrorCode.NONE,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        super().__init__("StreamsGroupTimeouts", config, append, timer, coordinator_error, clock)
        self.partitions_of = partitions_of
        self._reported: dict[tuple[str, str], TasksTuple] = {}  # the tasks a member last said it owns
        self._shutdown_requested: set[str] = set()
        self._delayed: dict[str, int] = {}  # group -> end of its initial rebalance delay
        self._next_assignment: dict[str, int] = {}  # group -> earliest next target computation
        self.group_configs: Any = None  # group_configs.GroupConfigStore, set by the broker

    # --- configuration -------------------------------------------------------------------------
    def group_config(self, group_id: str, name: str, default: int) -> int:
        if self.group_configs is not None:
            return int(self.group_configs.get(group_id)[name])
        value = self.config.get(f"group.{name}", default) if hasattr(self.config, "get") else default
        return int(default if value is None else value)

    def heartbeat_interval_ms(self, group_id: str) -> int:
        return self.group_config(group_id, "streams.heartbeat.interval.ms", 5000)

    # --- the write path (member_epoch_coordinator.py): append, then replay ---------------------
    def _new_group(self, group_id: str) -> StreamsGroup:
        return StreamsGroup(group_id)

    def _encode(self, record: StreamsGroupRecord) -> tuple[bytes, bytes | None]:
        return encode_record(record)

    def _decode(self, key: bytes, value: bytes | None) -> StreamsGroupRecord | None:
        return decode_record(key, value)

    def _after_write(self, group: StreamsGroup) -> None:
        self._refresh_endpoints(group)

    def after_load(self) -> None:
        for group in self.groups.values():
            for member_id in group.members:
                self._schedule("session", group.group_id, member_id, self._session_timeout(group.group_id))

    def unload(self, partition: int, num_partitions: int) -> None:
        for gid in [g for g in self.groups if partition_for_group(g, num_partitions) == partition]:
            self._delayed.pop(gid, None)
            self._next_assignment.pop(gid, None)
            for mid in self.groups.pop(gid).members:
                self._forget(gid, mid)

    def delete_group(self, group_id: str) -> None:
        group = self.groups.get(group_id)
        if group is None:
            return
        records: list[StreamsGroupRecord] = []
        for mid in group.targets:
            records.append((StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER, group_id, mid), None))
        records += [
            (StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA, group_id), None),
            (StreamsGroupKey(STREAMS_GROUP_TOPOLOGY, group_id), None),
            (StreamsGroupKey(STREAMS_GROUP_METADATA, group_id), None),
        ]
        self.write(group_id, records)

    # --- StreamsGroupHeartbeat -----------------------------------------------------------------
    def heartbeat(self, req: StreamsHeartbeatInput) -> StreamsHeartbeatOutput:
        """Raises KafkaError with the code (and message) to answer."""
        validate(req)
        if (code := self.coordinator_error(req.group_id)) != ErrorCode.NONE:
            raise KafkaError("not the coordinator", code)
        gid, mid = req.group_id, req.member_id
        existing = self.groups.get(gid)
        if existing is None and req.member_epoch != 0:
            raise KafkaError(f"Streams group {gid} not found.", ErrorCode.GROUP_ID_NOT_FOUND)
        # computed on a copy: the group changes only once the records are appended
        group = copy.deepcopy(existing) if existing is not None else StreamsGroup(gid)
        member = group.members.get(mid)
        if req.topology is not None and group.topology is not None and group.members:
            # Kafka 4.3.1: a live group keeps the topology it registered (compared as stored)
            key = StreamsGroupKey(STREAMS_GROUP_TOPOLOGY, gid)
            if encode_record((key, req.topology)) != encode_record((key, group.topology)):
                raise _invalid("Topology updates are not supported yet.")
        if req.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            if member is None:
                raise KafkaError(f"Member {mid} is not a member of group {gid}.", ErrorCode.UNKNOWN_MEMBER_ID)
            leave = self.remove_member_records(group, mid)
            self.write(gid, leave)
            self._forget(gid, mid)
            return StreamsHeartbeatOutput(mid, req.member_epoch, None, records=leave)
        if req.member_epoch != 0:
            if member is None:
                raise KafkaError(f"Member {mid} is not a member of group {gid}.", ErrorCode.UNKNOWN_MEMBER_ID)
            self._check_epoch(member, req)
        records: list[StreamsGroupRecord] = []
        bump = False
        status: list[tuple[int, str]] = []
        joining = req.member_epoch == 0
        if joining and member is not None and (member.member_epoch != 0 or not member.assigned.is_empty()):
            # a member re-joining with its id (e.g. after being fenced) starts from nothing
            m = StreamsMember(mid, **{k: getattr(member, k) for k in ("instance_id", "client_id", "client_host")})
            m.process_id, m.topology_epoch = member.process_id, member.topology_epoch
            records.append(
                (StreamsGroupKey(STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, gid, mid), m.assignment_record_value())
            )
        # 1. the topology: registered by the first member (or anew once the group is empty)
        if joining and req.topology is not None:
            if group.topology is None or (not group.members and group.topology_epoch != req.topology["epoch"]):
                records.append((StreamsGroupKey(STREAMS_GROUP_TOPOLOGY, gid), req.topology))
                bump = True
        # 2. the member's metadata
        updated = StreamsMember(mid) if member is None else StreamsMember(**{**member.__dict__})
        if req.instance_id is not None:
            updated.instance_id = req.instance_id
        if req.rack_id is not None:
            updated.rack_id = req.rack_id
        if req.rebalance_timeout_ms > 0:
            updated.rebalance_timeout_ms = req.rebalance_timeout_ms
        if req.topology is not None:
            updated.topology_epoch = req.topology["epoch"]
        if req.process_id is not None:
            updated.process_id = req.process_id
        if req.user_endpoint is not None:
            updated.user_endpoint = req.user_endpoint
        if req.client_tags is not None:
            updated.client_tags = dict(req.client_tags)
        updated.client_id, updated.client_host = req.client_id, req.client_host
        if member is None or updated.metadata_record_value() != member.metadata_record_value():
            records.append((StreamsGroupKey(STREAMS_GROUP_MEMBER_METADATA, gid, mid), updated.metadata_record_value()))
            if member is None or (updated.process_id, updated.client_tags, updated.rack_id) != (
                member.process_id,
                member.client_tags,
                member.rack_id,
            ):
                bump = True
        self._apply(group, records)
        records_done = len(records)
        # 3. the topology against the topics that exist now
        topology = group.topology
        if topology is not None and updated.topology_epoch != group.topology_epoch:
            status.append(
                (
                    STALE_TOPOLOGY,
                    f"The member's topology epoch {updated.topology_epoch} is behind the group's topology epoch "
                    f"{group.topology_epoch}.",
                )
            )
        configured = configure_topology(topology, self._partition_counts(topology)) if topology else None
        group.configured = configured
        new_hash = metadata_hash(topology, self.partitions_of)
        if new_hash != group.metadata_hash:
            bump = True
        now = self.clock()
        first = joining and (existing is None or not existing.members)
        if first and (delay := self.group_config(gid, "streams.initial.rebalance.delay.ms", 3000)) > 0:
            self._delayed[gid] = now + delay
        if configured is not None and configured.status is not None:
            status.append(configured.status)
        if bump or group.group_epoch == 0:
            epoch = group.group_epoch + 1 if group.group_epoch else 1
            records.append(
                (
                    StreamsGroupKey(STREAMS_GROUP_METADATA, gid),
                    {
                        "epoch": epoch,
                        "metadata_hash": new_hash,
                        "validated_topology_epoch": group.topology_epoch if configured and configured.ready else -1,
                        "last_assignment_configs": None,
                    },
                )
            )
            self._apply(group, records[records_done:])
            records_done = len(records)
        # 4. a new target assignment when the group epoch moved
        delay_over = gid in self._delayed and now >= self._delayed[gid]
        if group.assignment_epoch < group.group_epoch or delay_over:
            # Kafka 4.3 computes a target at most once per streams.assignment.interval.ms, and a new
            # group's first real one after streams.initial.rebalance.delay.ms (its first target, at
            # the first join, is empty while the delay runs)
            blocked = None
            if not first:
                if now < self._delayed.get(gid, 0):
                    blocked = "initial rebalance delay"
                elif now < self._next_assignment.get(gid, 0):
                    blocked = "assignment interval"
            if blocked is not None:
                status.insert(0, (ASSIGNMENT_DELAYED, f"Assignment delayed due to the configured {blocked}."))
            else:
                records += self._target_records(group, gid in self._delayed and now < self._delayed[gid])
                self._apply(group, records[records_done:])
                records_done = len(records)
                if now >= self._delayed.get(gid, 0):
                    self._delayed.pop(gid, None)
                interval = self.group_config(gid, "streams.assignment.interval.ms", 1000)
                self._next_assignment[gid] = now + interval
        if gid in self._delayed and now < self._delayed[gid] and not any(c == ASSIGNMENT_DELAYED for c, _ in status):
            status.insert(0, (ASSIGNMENT_DELAYED, "Assignment delayed due to the configured initial rebalance delay."))
        # 5. reconcile the member
        owned = req.owned if req.owned is not None else self._reported.get((gid, mid))
        if req.owned is not None:
            self._reported[(gid, mid)] = req.owned
        current = group.members[mid]
        before = (current.member_epoch, current.state, current.assigned)
        epoch, previous, state, assigned, pending = reconcile(group, current, owned)
        if (epoch, previous, state, assigned, pending) != (
            current.member_epoch,
            current.previous_member_epoch,
            current.state,
            current.assigned,
            current.pending_revocation,
        ) or joining:
            nxt = StreamsMember(**{**current.__dict__})
            nxt.member_epoch, nxt.previous_member_epoch, nxt.state = epoch, previous, state
            nxt.assigned, nxt.pending_revocation = assigned, pending
            records.append(
                (StreamsGroupKey(STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, gid, mid), nxt.assignment_record_value())
            )
        if gid in self._shutdown_requested or req.shutdown_application:
            self._shutdown_requested.add(gid)
            status.append((SHUTDOWN_APPLICATION, "The application requested to shut down."))
        # everything computed: store it, then apply it for real
        if records:
            self.append(gid, [encode_record(r) for r in records])
        for r in records[records_done:]:
            group.replay(r)
        self.groups[gid] = group
        self._refresh_endpoints(group)
        member = group.members[mid]
        changed = joining or req.owned is not None or before != (member.member_epoch, member.state, member.assigned)
        self._schedule("session", gid, mid, self._session_timeout(gid))
        if member.state == UNREVOKED_TASKS:
            if not self._has_timer(gid, mid, "rebalance"):
                self._schedule("rebalance", gid, mid, max(member.rebalance_timeout_ms, 0))
        else:
            self._cancel(gid, mid, "rebalance")
        return StreamsHeartbeatOutput(
            mid,
            member.member_epoch,
            member.assigned if changed else None,
            status,
            dict(configured.topics_to_create) if configured else {},
            records,
            group.endpoint_information_epoch,
            (
                list(group.endpoint_information)
                if req.endpoint_information_epoch != group.endpoint_information_epoch
                else None
            ),
        )

    def _refresh_endpoints(self, group: StreamsGroup) -> None:
        """Kafka Streams' IQ metadata: each member's UserEndpoint with the source (and repartition
        source) topic partitions of its current active and standby tasks; the epoch moves on change."""
        topology = group.topology
        subtopologies = {s["subtopology_id"]: s for s in (topology or {}).get("subtopologies", [])}

        def partitions(tasks: dict[str, frozenset[int]]) -> dict[str, list[int]]:
            out: dict[str, set[int]] = {}
            for sid, ps in tasks.items():
                s = subtopologies.get(sid)
                if s is None:
                    continue
                for topic in [*s["source_topics"], *(i["name"] for i in s["repartition_source_topics"])]:
                    count = self.partitions_of(topic)
                    chosen = {p for p in ps if count is not None and p < count}
                    if chosen:
                        out.setdefault(topic, set()).update(chosen)
            return {t: sorted(v) for t, v in sorted(out.items())}

        info = tuple(
            sorted(
                (
                    m.user_endpoint["host"],
                    m.user_endpoint["port"],
                    partitions(m.assigned.active),
                    partitions(m.assigned.standby),
                )
                for m in group.members.values()
                if m.user_endpoint is not None
            )
        )
        if info != group.endpoint_information:
            group.endpoint_information = info
            group.endpoint_information_epoch += 1

    def _apply(self, group: StreamsGroup, records: list[StreamsGroupRecord]) -> None:
        """Replay on the working group while computing (the append comes once at the end)."""
        for r in records:
            group.replay(r)

    def _partition_counts(self, topology: dict[str, Any]) -> dict[str, int]:
        out: dict[str, int] = {}
        for s in topology["subtopologies"]:
            names = [*s["source_topics"], *(i["name"] for i in s["repartition_source_topics"])]
            names += [i["name"] for i in s["state_changelog_topics"]]
            for n in names:
                count = self.partitions_of(n)
                if count is not None:
                    out[n] = count
        return out

    def _check_epoch(self, member: StreamsMember, req: StreamsHeartbeatInput) -> None:
        """Kafka's throwIfStreamsGroupMemberEpochIsInvalid: an epoch ahead is fenced; one behind only
        if it is the previous epoch and the member owns no more than its assignment (a lost answer)."""
        fenced = KafkaError(
            f"The streams group member has a smaller member epoch ({req.member_epoch}) than the one known by "
            f"the group coordinator ({member.member_epoch}). The member must abandon all its partitions and rejoin.",
            ErrorCode.FENCED_MEMBER_EPOCH,
        )
        if req.member_epoch > member.member_epoch:
            raise KafkaError(
                f"The streams group member has a greater member epoch ({req.member_epoch}) than the one known by "
                f"the group coordinator ({member.member_epoch}). "
                "The member must abandon all its partitions and rejoin.",
                ErrorCode.FENCED_MEMBER_EPOCH,
            )
        if req.member_epoch < member.member_epoch:
            if req.member_epoch != member.previous_member_epoch or req.owned is None:
                raise fenced
            owned = req.owned
            for kind in ("active", "standby", "warmup"):
                mine = getattr(member.assigned, kind)
                for s, ps in getattr(owned, kind).items():
                    if not ps <= mine.get(s, frozenset()):
                        raise fenced

    def _target_records(self, group: StreamsGroup, delayed: bool = False) -> list[StreamsGroupRecord]:
        gid = group.group_id
        ready = group.configured is not None and group.configured.ready and not delayed
        counts = group.configured.task_counts() if ready and group.configured is not None else {}
        standbys = self.group_config(gid, "streams.num.standby.replicas", 0)
        members = [
            AssignorMember(m.member_id, m.process_id, group.targets.get(m.member_id, EMPTY_TASKS))
            for m in group.members.values()
        ]
        stateful = (
            {c.subtopology_id for c in (group.configured.subtopologies or []) if c.state_changelog_topics}
            if ready and group.configured is not None
            else set()
        )
        new = assign(members, counts, standbys, stateful)
        records: list[StreamsGroupRecord] = []
        for mid, tasks in sorted(new.items()):
            if group.targets.get(mid) != tasks.normalized():
                records.append(
                    (StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER, gid, mid), tuple_to_record(tasks))
                )
        records.append(
            (
                StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_METADATA, gid),
                {"assignment_epoch": group.group_epoch, "assignment_timestamp": time.time_ns() // 1_000_000},
            )
        )
        return records

    def remove_member_records(self, group: StreamsGroup, mid: str) -> list[StreamsGroupRecord]:
        """A member leaves or is fenced: its records go, the group epoch moves, the target is recomputed."""
        gid = group.group_id
        records: list[StreamsGroupRecord] = [
            (StreamsGroupKey(STREAMS_GROUP_CURRENT_MEMBER_ASSIGNMENT, gid, mid), None),
            (StreamsGroupKey(STREAMS_GROUP_TARGET_ASSIGNMENT_MEMBER, gid, mid), None),
            (StreamsGroupKey(STREAMS_GROUP_MEMBER_METADATA, gid, mid), None),
            (
                StreamsGroupKey(STREAMS_GROUP_METADATA, gid),
                {
                    "epoch": group.group_epoch + 1,
                    "metadata_hash": group.metadata_hash,
                    "validated_topology_epoch": group.validated_topology_epoch,
                    "last_assignment_configs": None,
                },
            ),
        ]
        scratch = copy.copy(group)
        scratch.members = {k: v for k, v in group.members.items() if k != mid}
        scratch.targets = {k: v for k, v in group.targets.items() if k != mid}
        scratch.group_epoch += 1
        if scratch.members:
            records += self._target_records(scratch)
        return records

    # --- timers --------------------------------------------------------------------------------
    def _session_timeout(self, group_id: str) -> int:
        return self.group_config(group_id, "streams.session.timeout.ms", 45000)

    def _schedule(self, kind: str, group_id: str, member_id: str, delay: int) -> None:
        self._schedule_timer(kind, group_id, member_id, delay)

    def _cancel(self, group_id: str, member_id: str, kind: str) -> None:
        self._cancel_timer(group_id, member_id, kind)

    def _forget(self, group_id: str, member_id: str) -> None:
        self._reported.pop((group_id, member_id), None)
        self._cancel_member_timers(group_id, member_id)

    def _fence(self, group_id: str, member_id: str, reason: str) -> None:
        group = self.groups.get(group_id)
        if group is None or member_id not in group.members:
            return
        log.info("member %s of streams group %s fenced: %s", member_id, group_id, reason)
        try:
            self.write(group_id, self.remove_member_records(group, member_id))
        except KafkaError as e:  # e.g. no longer the coordinator: the new one times the member
            log.warning("could not fence %s of %s: %s", member_id, group_id, e)
        self._forget(group_id, member_id)

    def validate_offset_request(self, group_id: str, member_id: str, member_epoch: int, commit: bool) -> ErrorCode:
        """As for consumer groups (Kafka's StreamsGroup.validateOffsetCommit/Fetch)."""
        return self._offset_request_error(group_id, member_id, member_epoch, commit)


__all__ = ["STABLE", "StreamsGroupCoordinator", "StreamsHeartbeatInput", "StreamsHeartbeatOutput"]
