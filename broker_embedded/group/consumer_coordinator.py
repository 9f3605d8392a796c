"""The runtime of consumer groups (KIP-848): writes an operation's records, replays them, times members.

Every state change goes one way: an operation (``consumer_heartbeat``) returns records, they are
appended to the group's ``__consumer_offsets`` partition through the metadata manager's append
path, and then replayed into the in-memory group. Loading a partition replays the same records.
Member liveness (session timeout) and revocation deadlines (rebalance timeout) are delayed
operations on the broker's timing wheel; the clock is injectable for tests.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from broker_embedded.group import consumer_migration
from broker_embedded.group.consumer_group import (
    LEAVE_GROUP_MEMBER_EPOCH,
    ConsumerGroup,
    MemberState,
)
from broker_embedded.group.consumer_heartbeat import HeartbeatInput, HeartbeatOutput, heartbeat, remove_member
from broker_embedded.group.consumer_records import (
    CURRENT_MEMBER_ASSIGNMENT,
    GROUP_METADATA,
    MEMBER_METADATA,
    PARTITION_METADATA,
    TARGET_ASSIGNMENT_MEMBER,
    TARGET_ASSIGNMENT_METADATA,
    ConsumerGroupKey,
    ConsumerGroupRecord,
    TopicMetadata,
    decode_record,
    encode_record,
)
from broker_embedded.group.group_configs import GroupConfigStore
from broker_embedded.group.member_epoch_coordinator import Append, MemberEpochCoordinator
from broker_embedded.group.offsets_topic import partition_for_group
from broker_embedded.purgatory import Timer
from broker_embedded.purgatory.timing_wheel import monotonic_ms
from kafka_wire.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker_embedded.topic_registry import TopicRegistry

log = logging.getLogger(__name__)

__all__ = ["Append", "ConsumerGroupCoordinator"]


class ConsumerGroupCoordinator(MemberEpochCoordinator[ConsumerGroup, ConsumerGroupRecord]):
    METADATA_REFRESH_MS = 1000

    def __init__(
        self,
        config: Any,
        topics: TopicRegistry,
        append: Append,
        timer: Timer,
        coordinator_error: Callable[[str | None], ErrorCode] = lambda _g: ErrorCode.NONE,
        clock: Callable[[], int] = monotonic_ms,
    ) -> None:
        super().__init__("ConsumerGroupTimeouts", config, append, timer, coordinator_error, clock)
        self.topics = topics
        self._metadata_deadlines: dict[str, int] = {}
        self._topic_filters: dict[tuple[str, str], Callable[[str], bool]] = {}
        # per-group configs (group_configs.py), set by the broker; None: the broker's defaults
        self.group_configs: GroupConfigStore | None = None
        # the classic GroupCoordinator, for the downgrade (consumer_migration.py); set by the broker
        self.classic_coordinator: Any = None

    # --- configuration ---------------------------------------------------------------------
    def _cfg(self, name: str, default: Any) -> Any:
        value = self.config.get(name, default) if hasattr(self.config, "get") else default
        return default if value is None else value

    @property
    def session_timeout_ms(self) -> int:
        return int(self._cfg("group.consumer.session.timeout.ms", 45000))

    def group_session_timeout_ms(self, group_id: str) -> int:
        """consumer.session.timeout.ms of the group (its config override, else the broker's)."""
        if self.group_configs is None:
            return self.session_timeout_ms
        return self.group_configs.get(group_id).consumer_session_timeout_ms

    def group_heartbeat_interval_ms(self, group_id: str) -> int:
        """consumer.heartbeat.interval.ms of the group (its config override, else the broker's)."""
        if self.group_configs is None:
            return self.heartbeat_interval_ms
        return self.group_configs.get(group_id).consumer_heartbeat_interval_ms

    @property
    def heartbeat_interval_ms(self) -> int:
        return int(self._cfg("group.consumer.heartbeat.interval.ms", 5000))

    @property
    def assignors(self) -> list[str]:
        value = self._cfg("group.consumer.assignors", "uniform,range")
        names = value if isinstance(value, list) else str(value).split(",")
        return [n.strip() for n in names if n.strip()]

    def topic_view(self) -> dict[str, TopicMetadata]:
        return {t.name: TopicMetadata(t.topic_id, t.name, t.num_partitions) for t in self.topics}

    # --- the write path (member_epoch_coordinator.py): append, then replay ---------------------
    def _new_group(self, group_id: str) -> ConsumerGroup:
        return ConsumerGroup(group_id)

    def _encode(self, record: ConsumerGroupRecord) -> tuple[bytes, bytes | None]:
        return encode_record(record)

    def _decode(self, key: bytes, value: bytes | None) -> ConsumerGroupRecord | None:
        return decode_record(key, value)

    def delete_group(self, group_id: str) -> None:
        """DeleteGroups of an empty consumer group: tombstones for all its records (Kafka's order)."""
        group = self.groups.get(group_id)
        if group is None:
            return
        records: list[ConsumerGroupRecord] = []
        for member_id in group.members:
            records += [
                (ConsumerGroupKey(CURRENT_MEMBER_ASSIGNMENT, group_id, member_id), None),
                (ConsumerGroupKey(TARGET_ASSIGNMENT_MEMBER, group_id, member_id), None),
                (ConsumerGroupKey(MEMBER_METADATA, group_id, member_id), None),
            ]
        records += [
            (ConsumerGroupKey(TARGET_ASSIGNMENT_METADATA, group_id), None),
            (ConsumerGroupKey(PARTITION_METADATA, group_id), None),
            (ConsumerGroupKey(GROUP_METADATA, group_id), None),
        ]
        self.write(group_id, records)

    def after_load(self) -> None:
        """Members read back must heartbeat again within a session timeout."""
        for group in self.groups.values():
            for member_id in group.members:
                self._schedule_session(group.group_id, member_id)

    def unload(self, partition: int, num_partitions: int) -> None:
        for group_id in [g for g in self.groups if partition_for_group(g, num_partitions) == partition]:
            group = self.groups.pop(group_id)
            for member_id in group.members:
                self._topic_filters.pop((group_id, member_id), None)
                self._drop_member_timers(group_id, member_id)

    # --- ConsumerGroupHeartbeat --------------------------------------------------------------
    def heartbeat(
        self, req: HeartbeatInput, version: int, describable: Callable[[str], bool] | None = None
    ) -> HeartbeatOutput:
        """Raises KafkaError with the code to answer. `describable`: the topics the requesting member
        may describe (None: no authorizer); its regex resolves to those only, on every later refresh
        too (a member loaded on a coordinator move is unfiltered until its next heartbeat)."""
        if describable is not None:
            self._topic_filters[(req.group_id, req.member_id)] = describable
        filters = self._topic_filters
        gid = req.group_id

        def allowed(member_id: str, topic: str) -> bool:
            check = filters.get((gid, member_id))
            return check is None or check(topic)

        if (code := self.coordinator_error(req.group_id)) != ErrorCode.NONE:
            raise KafkaError("not the coordinator", code)
        group = self.groups.get(req.group_id) or ConsumerGroup(req.group_id)
        leaving = group.members.get(req.member_id) if req.member_epoch == LEAVE_GROUP_MEMBER_EPOCH else None
        if leaving is not None and req.instance_id in (None, leaving.instance_id):
            if self._maybe_downgrade(req.group_id, req.member_id):
                return HeartbeatOutput(req.member_id, LEAVE_GROUP_MEMBER_EPOCH, None, [], [req.member_id])
        # the topics are looked at again at most every METADATA_REFRESH_MS per group (and whenever
        # a subscription changes): a plain heartbeat of a group of 10,000 topics stays cheap
        now = self.clock()
        refresh = now >= self._metadata_deadlines.get(req.group_id, 0)
        out = heartbeat(group, req, self.topic_view, self.assignors, version, refresh_metadata=refresh, allowed=allowed)
        if refresh:
            self._metadata_deadlines[req.group_id] = now + self.METADATA_REFRESH_MS
        group = self.write(req.group_id, out.records)
        for member_id in out.removed_members:
            self._cancel_timers(req.group_id, member_id)
        member = group.members.get(out.member_id)
        if member is not None and req.member_epoch != LEAVE_GROUP_MEMBER_EPOCH:
            self._schedule_session(req.group_id, out.member_id)
            if member.state == MemberState.UNREVOKED_PARTITIONS:
                if not self._has_timer(req.group_id, out.member_id, "rebalance"):
                    self._schedule_rebalance(req.group_id, out.member_id, member.rebalance_timeout_ms)
            else:
                self._deadlines.pop((req.group_id, out.member_id, "rebalance"), None)
        return out

    # --- timers --------------------------------------------------------------------------------
    def cancel_timers(self, group_id: str, member_id: str) -> None:
        self._cancel_timers(group_id, member_id)

    def _maybe_downgrade(self, group_id: str, leaving_member_id: str) -> bool:
        """The last consumer-protocol member leaves a group of classic members: it becomes a classic
        group again (group.consumer.migration.policy downgrade/bidirectional). True if it did."""
        group = self.groups.get(group_id)
        policy = str(self._cfg("group.consumer.migration.policy", "bidirectional"))
        if self.classic_coordinator is None or group is None:
            return False
        if not consumer_migration.downgrade_allowed(group, leaving_member_id, policy):
            return False
        log.info("consumer group %s downgraded to a classic group: %s left", group_id, leaving_member_id)
        consumer_migration.downgrade(self, self.classic_coordinator, group, leaving_member_id)
        return True

    def _cancel_timers(self, group_id: str, member_id: str) -> None:
        self._topic_filters.pop((group_id, member_id), None)
        self._cancel_member_timers(group_id, member_id)

    def _schedule_session(self, group_id: str, member_id: str) -> None:
        # a classic member (online migration) keeps the session timeout of its JoinGroup
        group = self.groups.get(group_id)
        member = group.members.get(member_id) if group is not None else None
        if member is not None and member.classic is not None:
            timeout = member.classic.session_timeout_ms
        else:
            timeout = self.group_session_timeout_ms(group_id)
        self._schedule_timer("session", group_id, member_id, timeout)

    # --- classic members of a consumer group (consumer_migration.py) ---------------------------
    def schedule_member_session(self, group_id: str, member_id: str) -> None:
        self._schedule_session(group_id, member_id)

    def schedule_classic_rebalance(
        self, group_id: str, member_id: str, timeout_ms: int, if_absent: bool = False
    ) -> None:
        """Kafka's join / sync timeouts: a classic member told to rejoin (or to sync) is fenced if it
        does not within its rebalance timeout."""
        if if_absent and self._has_timer(group_id, member_id, "rebalance"):
            return
        self._schedule_rebalance(group_id, member_id, timeout_ms)

    def cancel_classic_rebalance(self, group_id: str, member_id: str) -> None:
        self._cancel_timer(group_id, member_id, "rebalance")

    def classic_heartbeat(self, req: HeartbeatInput) -> HeartbeatOutput:
        """A classic member's JoinGroup as a heartbeat (its timers as any member's)."""
        return self.heartbeat(req, 1)

    # the classic coordinator hands requests of classic members of a consumer group over to these
    def classic_join(self, req: Any, version: int, client_id: str, client_host: str) -> Any:
        return consumer_migration.classic_join(self, req, version, client_id, client_host)

    def classic_sync(self, req: Any, version: int) -> Any:
        return consumer_migration.classic_sync(self, req, version)

    def classic_group_heartbeat(self, req: Any, version: int) -> ErrorCode:
        return consumer_migration.classic_heartbeat(self, req, version)

    def classic_leave(self, group_id: str, members: list[tuple[str, str | None]]) -> list[ErrorCode]:
        return consumer_migration.classic_leave(self, group_id, members)

    def remove_classic_member(self, group_id: str, member_id: str, records: list[ConsumerGroupRecord]) -> None:
        self.write(group_id, records)
        self._cancel_timers(group_id, member_id)

    def upgrade(self, classic: Any) -> None:
        """Convert the live classic group `classic` (state.GroupMetadata) into a consumer group; the
        classic coordinator empties its own side first (GroupCoordinator.hand_over_classic_group)."""
        records = consumer_migration.upgrade_records(classic, self.groups.get(classic.group_id), self.topic_view())
        group = self.write(classic.group_id, records)
        for member_id in group.members:
            self._schedule_session(classic.group_id, member_id)

    def _schedule_rebalance(self, group_id: str, member_id: str, timeout_ms: int) -> None:
        self._schedule_timer("rebalance", group_id, member_id, max(timeout_ms, 0))

    def _fence(self, group_id: str, member_id: str, reason: str) -> None:
        group = self.groups.get(group_id)
        if group is None or member_id not in group.members:
            return
        log.info("member %s of consumer group %s fenced: %s", member_id, group_id, reason)
        try:
            if not self._maybe_downgrade(group_id, member_id):
                self.write(group_id, remove_member(group, member_id))
        except KafkaError as e:  # e.g. no longer the coordinator: the new one times the member
            log.warning("could not fence %s of %s: %s", member_id, group_id, e)
        self._cancel_timers(group_id, member_id)

    # --- offsets (OffsetCommit / OffsetFetch of a consumer group) ------------------------------
    def validate_offset_request(self, group_id: str, member_id: str, member_epoch: int, commit: bool) -> ErrorCode:
        """Kafka's ConsumerGroup.validateOffsetCommit/Fetch (member_epoch_coordinator.py)."""
        return self._offset_request_error(group_id, member_id, member_epoch, commit)

    def commit_partition_errors(
        self, group_id: str, member_id: str, member_epoch: int, partitions: Iterable[tuple[str, int]]
    ) -> dict[tuple[str, int], ErrorCode] | None:
        """KIP-1251 (Kafka 4.3.1's ConsumerGroup.validateOffsetCommit): a member's commit carrying an epoch
        older than its current one is judged per partition: NONE for a partition the member holds
        (assigned, or pending revocation) since that epoch or an earlier one, STALE_MEMBER_EPOCH otherwise;
        the request is taken only if every partition is NONE (offset_commit.py). A commit sent while the
        member's heartbeat brought a new epoch is then not lost. None: a commit this does not apply to
        (unknown member, current or newer epoch)."""
        group = self.groups.get(group_id)
        member = group.members.get(member_id) if group is not None and member_id else None
        if member is None or member_epoch >= member.member_epoch:
            return None
        partitions = list(partitions)
        names = {name for name, _ in partitions}
        ids = {t.name: t.topic_id for t in self.topics if t.name in names}  # only the request's topics
        stale = self._stale_epoch_error(member)
        out: dict[tuple[str, int], ErrorCode] = {}
        for name, partition in partitions:
            topic_id = ids.get(name)
            assigned_at = None if topic_id is None else member.partition_assignment_epoch(topic_id, partition)
            out[(name, partition)] = (
                ErrorCode.NONE if assigned_at is not None and member_epoch >= assigned_at else stale
            )
        return out

    def _stale_epoch_error(self, member: Any) -> ErrorCode:
        # a classic member (online migration) commits with its generation: Kafka's classic error
        return ErrorCode.ILLEGAL_GENERATION if member.classic is not None else ErrorCode.STALE_MEMBER_EPOCH
