"""The classic group coordinator: membership, rebalances, and committed offsets.

Runs on the broker's loop thread. Rebalances wait in the purgatory (DelayedJoin, bounded by the
largest rebalance timeout); every member's liveness is a DelayedHeartbeat that fires after its
session timeout. Offsets and group metadata are written as records to the compacted
``__consumer_offsets`` topic before they are acknowledged, and replayed when the broker starts.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.consumer_coordinator import ConsumerGroupCoordinator
from broker_embedded.group.coordinator_offsets import GroupOffsets
from broker_embedded.group.metadata_manager import CoordinatorReplicas, CreateTopic, GroupMetadataManager
from broker_embedded.group.offsets_topic import (
    OFFSETS_TOPIC,
    partition_for_group,
)
from broker_embedded.group.state import (
    GroupMetadata,
    GroupState,
    MemberMetadata,
    OffsetAndMetadata,
)
from broker_embedded.group.streams_coordinator import StreamsGroupCoordinator
from broker_embedded.group.txn_offsets import GroupTxnOffsets
from broker_embedded.purgatory import DelayedCallback, DelayedOperationPurgatory, Timer
from kafka_wire.errors import ErrorCode, KafkaError
from kafka_wire.protocol.messages import join_group_response as jrs
from kafka_wire.protocol.messages import sync_group_response as srs

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ClusterImage
    from broker_embedded.group.share_group import ShareGroups
    from broker_embedded.topic_registry import TopicRegistry


log = logging.getLogger(__name__)

UNKNOWN_MEMBER_ID = ""


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _partitions_of(topics: TopicRegistry) -> Callable[[str], int | None]:
    def count(name: str) -> int | None:
        topic = topics.get(name)
        return None if topic is None else topic.num_partitions

    return count


class GroupCoordinator(GroupOffsets):
    def __init__(
        self,
        config: Any,
        topics: TopicRegistry,
        replicas: CoordinatorReplicas,
        timer: Timer,
        create_topic: CreateTopic,
        cluster_image: Callable[[], ClusterImage | None] | None = None,
    ) -> None:
        """`cluster_image`: the controller's latest image in cluster mode (None: a single node).
        Everything about __consumer_offsets goes through `self.storage`."""
        self.config = config
        self.groups: dict[str, GroupMetadata] = {}
        self.join_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Rebalance", timer)
        self.heartbeat_purgatory: DelayedOperationPurgatory[Any] = DelayedOperationPurgatory("Heartbeat", timer)
        self.storage = GroupMetadataManager(config, topics, replicas, create_topic, cluster_image)
        # consumer groups of the KIP-848 protocol, stored through the same append path
        self.consumer_groups = ConsumerGroupCoordinator(
            config, topics, self.storage.append, timer, self.storage.coordinator_error
        )
        # streams groups (KIP-1071), stored through the same append path
        self.streams_groups = StreamsGroupCoordinator(
            config, _partitions_of(topics), self.storage.append, timer, self.storage.coordinator_error
        )
        # what transactional offset commits use of the groups (txn.offsets)
        self.txn_offsets = GroupTxnOffsets(self.groups, self.storage)
        self.txn_offsets.member_groups = [self.consumer_groups, self.streams_groups]
        # share groups (KIP-932), set by the broker before `load`: their records are replayed here too
        self.share_groups: ShareGroups | None = None

    # --- __consumer_offsets (stored by the GroupMetadataManager) -----------------------------
    @property
    def num_offsets_partitions(self) -> int:
        return self.storage.num_offsets_partitions

    @property
    def loaded_partitions(self) -> dict[int, int]:
        return self.storage.loaded_partitions

    def ensure_offsets_topic(self) -> None:
        self.storage.ensure_offsets_topic()

    def partition_for(self, group_id: str) -> int:
        return self.storage.partition_for(group_id)

    def coordinator_error(self, group_id: str | None) -> ErrorCode:
        return self.storage.coordinator_error(group_id)

    def replication_wait(self, group_id: str) -> asyncio.Future[ErrorCode] | None:
        return self.storage.replication_wait(group_id)

    def on_cluster_image(self, previous: Any, image: Any) -> None:
        """Cluster mode: load the groups of the offsets partitions this broker now leads (Kafka's
        onElection), drop those of partitions it no longer leads (onResignation), and delete the offsets
        of deleted topics (onPartitionsDeleted)."""
        if previous is not None:
            # topics gone (or created again under a new id) since the last image: their offsets go too
            deleted = [
                name
                for name, t in previous.topics.items()
                if (now := image.topics.get(name)) is None or now.topic_id != t.topic_id
            ]
            if deleted:
                self.on_topics_deleted(deleted)
        led = self.storage.led_partitions(image)
        loaded = self.storage.loaded_partitions
        for index in list(loaded):
            if led.get(index) != loaded[index]:
                self._unload_partition(index)
        for index, epoch in led.items():
            if index not in loaded:
                self._unload_partition(index)  # anything left from an earlier term is stale
                self.load([index])
                loaded[index] = epoch

    def _unload_partition(self, index: int) -> None:
        self.storage.loaded_partitions.pop(index, None)
        n = self.num_offsets_partitions
        self.txn_offsets.unload(index)
        self.consumer_groups.unload(index, n)
        self.streams_groups.unload(index, n)
        if self.share_groups is not None:
            self.share_groups.unload(index, n)
        for group_id in [g for g in self.groups if partition_for_group(g, n) == index]:
            group = self.groups.pop(group_id)
            for member in list(group.members.values()):
                for f in (member.join_future, member.sync_future):
                    if f is not None and not f.done():
                        f.cancel()  # the client times out and finds the new coordinator
            group.members.clear()
            group.pending_members.clear()
            group.pending_sync_members.clear()

    def load(self, partitions: list[int] | None = None) -> None:
        """Groups and offsets back from __consumer_offsets (single node: every partition at
        startup; cluster mode: each partition when this broker becomes its leader)."""
        consumer, streams = self.consumer_groups.replay_raw, self.streams_groups.replay_raw
        share = self.share_groups.replay_raw if self.share_groups is not None else lambda _k, _v: False
        replayed = self.storage.replay(partitions, lambda k, v: consumer(k, v) or streams(k, v) or share(k, v))
        if replayed is None:
            return
        self.consumer_groups.after_load()
        self.streams_groups.after_load()
        if self.share_groups is not None:
            self.share_groups.after_load(_now_ms())
        offsets, loaded_groups, open_txns = replayed
        self.txn_offsets.add_replayed(open_txns)
        for key, ov in offsets.items():
            if ov is None:
                continue
            group = self.groups.get(key.group) or self.groups.setdefault(key.group, GroupMetadata(key.group))
            group.offsets[(key.topic, key.partition)] = OffsetAndMetadata(
                ov.offset, ov.leader_epoch, ov.metadata, ov.commit_timestamp
            )
        for group_id, gv in loaded_groups.items():
            if gv is None:
                if group_id in self.groups and not self.groups[group_id].offsets:
                    del self.groups[group_id]
                continue
            group = self.groups.get(group_id) or self.groups.setdefault(group_id, GroupMetadata(group_id))
            group.generation_id = gv.generation
            group.protocol_type = gv.protocol_type or None
            group.protocol_name = gv.protocol
            group.state_timestamp_ms = gv.current_state_timestamp
            for mv in gv.members:
                member = MemberMetadata(
                    mv.member_id,
                    mv.group_instance_id,
                    mv.client_id,
                    mv.client_host,
                    mv.rebalance_timeout_ms,
                    mv.session_timeout_ms,
                    gv.protocol_type,
                    [(gv.protocol or "", mv.subscription)],
                    mv.assignment,
                )
                group.add_member(member)
            group.leader_id = gv.leader if gv.leader in group.members else group.leader_id
            # members come back Stable and must heartbeat within their session timeout
            group.state = GroupState.STABLE if group.members else GroupState.EMPTY
        for group in self.groups.values():
            for member in group.members.values():
                self._schedule_heartbeat_expiry(group, member)
        if self.groups:
            log.info("loaded %d groups from %s", len(self.groups), OFFSETS_TOPIC)

    # --- join --------------------------------------------------------------------------------
    def _validate_group_id(self, group_id: str | None) -> None:
        if not group_id:
            raise KafkaError("group id is empty", ErrorCode.INVALID_GROUP_ID)

    def join_group(self, req: Any, version: int, client_id: str, client_host: str) -> asyncio.Future[Any] | Any:
        loop = asyncio.get_running_loop()

        def error(code: ErrorCode, member_id: str = UNKNOWN_MEMBER_ID) -> jrs.JoinGroupResponse:
            return jrs.JoinGroupResponse(error_code=code, generation_id=-1, member_id=member_id, members=[])

        try:
            self._validate_group_id(req.group_id)
        except KafkaError as e:
            return error(e.code)
        if (code := self.coordinator_error(req.group_id)) != ErrorCode.NONE:
            return error(code)
        if req.group_id in self.streams_groups.groups:  # a streams group (KIP-1071): Kafka 4.3.1's answer
            return error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, req.member_id)
        consumer_group = self.consumer_groups.groups.get(req.group_id)
        if consumer_group is not None and consumer_group.members:
            # a live consumer group (KIP-848) takes classic members through translation (online migration)
            return self.consumer_groups.classic_join(req, version, client_id, client_host)
        cfg = self.config
        if not cfg["group.min.session.timeout.ms"] <= req.session_timeout_ms <= cfg["group.max.session.timeout.ms"]:
            return error(ErrorCode.INVALID_SESSION_TIMEOUT, req.member_id)
        rebalance_timeout = (
            req.rebalance_timeout_ms if version >= 1 and req.rebalance_timeout_ms > 0 else (req.session_timeout_ms)
        )
        protocols = [(p.name, bytes(p.metadata)) for p in req.protocols]
        group = self.groups.get(req.group_id)
        if group is None:
            if req.member_id != UNKNOWN_MEMBER_ID:
                return error(ErrorCode.UNKNOWN_MEMBER_ID, req.member_id)
            group = self.groups[req.group_id] = GroupMetadata(req.group_id, state_timestamp_ms=_now_ms())
        if group.state == GroupState.DEAD:
            return error(ErrorCode.COORDINATOR_NOT_AVAILABLE, req.member_id)
        if not group.supports_protocols(req.protocol_type, protocols):
            return error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, req.member_id)
        future: asyncio.Future[Any] = loop.create_future()
        instance_id = req.group_instance_id if version >= 5 else None

        if req.member_id == UNKNOWN_MEMBER_ID:
            member_id = f"{client_id or 'member'}-{uuid.uuid4()}"
            if instance_id is not None:
                old_id = group.static_members.get(instance_id)
                if old_id is not None and old_id in group.members:
                    # a static member restarting: it takes over its old identity (the old
                    # member id is fenced) without a rebalance if nothing changed
                    old = group.members[old_id]
                    return self._replace_static_member(group, old, member_id, protocols, req, future, version)
            elif version >= 4:
                # KIP-394: hand out the id first; the member must come back with it
                group.pending_members.add(member_id)
                self._schedule_pending_expiry(group, member_id, req.session_timeout_ms)
                return error(ErrorCode.MEMBER_ID_REQUIRED, member_id)
            member = MemberMetadata(
                member_id,
                instance_id,
                client_id,
                client_host,
                rebalance_timeout,
                req.session_timeout_ms,
                req.protocol_type,
                protocols,
                join_future=future,
                is_new=True,
            )
            self._add_member_and_rebalance(group, member)
            return future

        # a known member (or a pending one coming back with its assigned id)
        member_id = req.member_id
        if member_id in group.pending_members:
            member = MemberMetadata(
                member_id,
                instance_id,
                client_id,
                client_host,
                rebalance_timeout,
                req.session_timeout_ms,
                req.protocol_type,
                protocols,
                join_future=future,
                is_new=True,
            )
            self._add_member_and_rebalance(group, member)
            return future
        if group.is_static_member_fenced(member_id, instance_id):
            # the instance id belongs to a newer member id: this is an old instance, shut it out
            return error(ErrorCode.FENCED_INSTANCE_ID, member_id)
        known = group.members.get(member_id)
        if known is None or (instance_id is not None and instance_id not in group.static_members):
            return error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
        member = known
        if group.state == GroupState.PREPARING_REBALANCE:
            self._update_member(group, member, protocols, rebalance_timeout, req.session_timeout_ms, future)
            self.join_purgatory.check_and_complete(("join", group.group_id))
            return future
        if group.state == GroupState.COMPLETING_REBALANCE:
            if member.matches(protocols):
                # the join response was lost: send it again, nothing changed
                future.set_result(self._join_response(group, member))
                return future
            self._update_member(group, member, protocols, rebalance_timeout, req.session_timeout_ms, future)
            self._prepare_rebalance(group, f"{member_id} changed its protocols")
            return future
        if group.state == GroupState.STABLE:
            if member_id == group.leader_id or not member.matches(protocols):
                # the leader rejoining means it wants a new assignment (e.g. metadata changed)
                self._update_member(group, member, protocols, rebalance_timeout, req.session_timeout_ms, future)
                self._prepare_rebalance(group, f"{member_id} rejoined")
                return future
            future.set_result(self._join_response(group, member))
            return future
        # Empty groups have no members, so a known member cannot be here
        return error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)

    def _replace_static_member(
        self,
        group: GroupMetadata,
        old: MemberMetadata,
        new_id: str,
        protocols: list[tuple[str, bytes]],
        req: Any,
        future: asyncio.Future[Any],
        version: int,
    ) -> asyncio.Future[Any]:
        # fence the old instance: anything waiting on its behalf fails
        for f in (old.join_future, old.sync_future):
            if f is not None and not f.done():
                f.set_result(None)
        current_leader = group.leader_id
        was_leader = current_leader == old.member_id
        group.members.pop(old.member_id, None)
        if old.member_id in group.pending_sync_members:  # the new instance owes the SyncGroup now
            group.pending_sync_members.discard(old.member_id)
            group.pending_sync_members.add(new_id)
        old.member_id = new_id
        old.join_future = None
        old.sync_future = None
        group.members[new_id] = old
        group.static_members[old.group_instance_id or ""] = new_id
        if was_leader:
            group.leader_id = new_id
        self._schedule_heartbeat_expiry(group, old)
        # Kafka's rule: a restarted static member whose protocols still include the group's
        # selected one rejoins without a rebalance, even if its metadata bytes changed (a restarted
        # consumer reports generation -1 in its subscription, so the bytes usually differ).
        if group.state == GroupState.STABLE and group.protocol_name in {name for name, _ in protocols}:
            old.protocols = protocols
            # the new member id must survive a coordinator restart, or the instance is fenced by its past
            self.storage.store_group(group)
            response = self._join_response(group, old)
            if version >= 9:
                # KIP-814: a restarted static leader learns it leads but must skip the assignment
                # (a Stable group would drop whatever it computed)
                response.skip_assignment = was_leader
            else:
                # before v9 it must not think it leads at all: name the leader it replaced, no members
                response.leader = current_leader or ""
                response.members = []
            future.set_result(response)
            return future
        old.protocols = protocols
        old.join_future = future
        if group.state == GroupState.PREPARING_REBALANCE:
            self.join_purgatory.check_and_complete(("join", group.group_id))
        else:
            self._prepare_rebalance(group, f"static member {old.group_instance_id} rejoined")
        return future

    def _update_member(
        self,
        group: GroupMetadata,
        member: MemberMetadata,
        protocols: list[tuple[str, bytes]],
        rebalance_timeout: int,
        session_timeout: int,
        future: asyncio.Future[Any],
    ) -> None:
        member.protocols = protocols
        member.rebalance_timeout_ms = rebalance_timeout
        member.session_timeout_ms = session_timeout
        if member.join_future is not None and not member.join_future.done():
            # a second join while the first waits: the first gets a retriable error
            member.join_future.set_result(
                jrs.JoinGroupResponse(error_code=ErrorCode.REBALANCE_IN_PROGRESS, member_id=member.member_id)
            )
        member.join_future = future

    def _add_member_and_rebalance(self, group: GroupMetadata, member: MemberMetadata) -> None:
        group.add_member(member)
        group.new_member_added = True
        self._schedule_heartbeat_expiry(group, member)
        if group.state == GroupState.PREPARING_REBALANCE:
            self.join_purgatory.check_and_complete(("join", group.group_id))
        else:
            self._prepare_rebalance(group, f"adding new member {member.member_id}")

    def _prepare_rebalance(self, group: GroupMetadata, reason: str) -> None:
        if group.state == GroupState.COMPLETING_REBALANCE:
            # assignments computed for the old membership are void: members must rejoin
            self._fail_pending_syncs(group, ErrorCode.REBALANCE_IN_PROGRESS)
        log.info("preparing to rebalance group %s (generation %d): %s", group.group_id, group.generation_id, reason)
        group.pending_sync_members.clear()  # Kafka's removeSyncExpiration
        self.join_purgatory.check_and_complete(("sync", group.group_id))
        was_empty = group.state == GroupState.EMPTY
        group.transition_to(GroupState.PREPARING_REBALANCE, _now_ms())
        timeout = max((m.rebalance_timeout_ms for m in group.members.values()), default=0)
        initial_delay = self.config["group.initial.rebalance.delay.ms"]
        if was_empty and initial_delay > 0:
            # Kafka's InitialDelayedJoin: an Empty group waits `initial_delay` for more members,
            # again while members keep arriving, but never longer than the rebalance timeout
            group.new_member_added = False
            self._delay_initial_join(group, min(initial_delay, timeout), max(timeout - initial_delay, 0))
            return
        self._watch_join(group, timeout)

    def _watch_join(self, group: GroupMetadata, timeout_ms: int) -> None:
        """Kafka's DelayedJoin: the join phase completes when every member has rejoined, or at the timeout."""
        op = DelayedCallback(
            timeout_ms,
            condition=lambda: group.state == GroupState.PREPARING_REBALANCE and group.all_members_joined(),
            on_done=lambda expired: self._complete_join(group),
        )
        self.join_purgatory.try_complete_else_watch(op, [("join", group.group_id)])

    def _delay_initial_join(self, group: GroupMetadata, delay_ms: int, remaining_ms: int) -> None:
        def on_done(expired: bool) -> None:
            if group.state != GroupState.PREPARING_REBALANCE:
                return
            if group.new_member_added and remaining_ms > 0:
                group.new_member_added = False
                step = min(self.config["group.initial.rebalance.delay.ms"], remaining_ms)
                self._delay_initial_join(group, step, remaining_ms - step)
                return
            self._complete_join(group)

        op = DelayedCallback(delay_ms, condition=lambda: group.state != GroupState.PREPARING_REBALANCE, on_done=on_done)
        self.join_purgatory.try_complete_else_watch(op, [("initial-join", group.group_id)])

    def _complete_join(self, group: GroupMetadata) -> None:
        if group.state != GroupState.PREPARING_REBALANCE:
            return
        for member in list(group.members.values()):
            # a static member that did not rejoin keeps its place (and its share of the assignment) until
            # its session runs out: it is expected back under the same instance id (KIP-345; Kafka's
            # completeClassicGroupJoin removes only dynamic members)
            if not member.is_awaiting_join and member.group_instance_id is None:
                log.info("removing member %s of group %s: it did not rejoin", member.member_id, group.group_id)
                self._drop_member(group, member)
        previous_leader = group.leader_id
        if not group.elect_joined_leader():
            # only static members that did not rejoin are left: nobody can lead this generation. Wait
            # another rebalance timeout; their sessions expire meanwhile unless they come back (Kafka)
            log.warning("group %s could not complete its rebalance: no member rejoined", group.group_id)
            self._watch_join(group, max(m.rebalance_timeout_ms for m in group.members.values()))
            return
        if group.leader_id != previous_leader and previous_leader in group.members:
            log.info(
                "group %s: %s leads in place of %s, which did not rejoin",
                group.group_id,
                group.leader_id,
                previous_leader,
            )
        group.pending_members.clear()
        group.new_member_added = False
        now = _now_ms()
        group.generation_id += 1
        if group.is_empty:
            group.protocol_name = None
            group.transition_to(GroupState.EMPTY, now)
            try:
                self.storage.store_group(group)
            except KafkaError as e:
                # as Kafka: the empty group stays in memory; only its record could not be written
                log.warning("failed to write the empty metadata of group %s: %s", group.group_id, e)
            return
        group.protocol_name = group.select_protocol()
        group.transition_to(GroupState.COMPLETING_REBALANCE, now)
        for member in group.members.values():
            fut = member.join_future
            member.join_future = None
            member.is_new = False
            if fut is not None and not fut.done():
                fut.set_result(self._join_response(group, member))
            self._schedule_heartbeat_expiry(group, member)
        group.pending_sync_members = set(group.members)
        self._schedule_pending_sync_expiry(group)

    def _schedule_pending_sync_expiry(self, group: GroupMetadata) -> None:
        """Kafka's schedulePendingSync: members that have not sent their SyncGroup within the rebalance
        timeout are removed and the group rebalances. Followers waiting in SyncGroup count as alive
        (_on_heartbeat_expired), so a leader that heartbeats but never syncs must not hold them forever."""
        generation = group.generation_id
        timeout = max((m.rebalance_timeout_ms for m in group.members.values()), default=0)

        def expire(expired: bool) -> None:
            if not expired or group.generation_id != generation or not group.pending_sync_members:
                return
            if self.groups.get(group.group_id) is not group:  # unloaded (coordinator moved) or deleted
                return
            if group.state not in (GroupState.COMPLETING_REBALANCE, GroupState.STABLE):
                return
            missing = sorted(group.pending_sync_members)
            log.info(
                "removing members %s of group %s: no SyncGroup within the rebalance timeout", missing, group.group_id
            )
            for member_id in missing:
                if (member := group.members.get(member_id)) is not None:
                    self._drop_member(group, member)
            group.pending_sync_members.clear()
            self._prepare_rebalance(group, f"removing {missing} on pending sync request expiration")

        op = DelayedCallback(
            timeout,
            condition=lambda: group.generation_id != generation or not group.pending_sync_members,
            on_done=expire,
        )
        self.join_purgatory.try_complete_else_watch(op, [("sync", group.group_id)])

    def _join_response(self, group: GroupMetadata, member: MemberMetadata) -> jrs.JoinGroupResponse:
        members = []
        if member.member_id == group.leader_id and group.protocol_name is not None:
            members = [
                jrs.JoinGroupResponseMember(
                    member_id=m.member_id,
                    group_instance_id=m.group_instance_id,
                    metadata=m.metadata_for(group.protocol_name),
                )
                for m in group.members.values()
            ]
        return jrs.JoinGroupResponse(
            throttle_time_ms=0,
            error_code=ErrorCode.NONE,
            generation_id=group.generation_id,
            protocol_type=group.protocol_type,
            protocol_name=group.protocol_name,
            leader=group.leader_id or "",
            skip_assignment=False,
            member_id=member.member_id,
            members=members,
        )

    # --- sync --------------------------------------------------------------------------------
    def sync_group(self, req: Any, version: int) -> Any:
        def error(code: ErrorCode) -> srs.SyncGroupResponse:
            return srs.SyncGroupResponse(error_code=code, assignment=b"")

        if (code := self.coordinator_error(req.group_id)) != ErrorCode.NONE:
            return error(code)
        if self.consumer_groups.has_members(req.group_id):  # a classic member of a consumer group
            return self.consumer_groups.classic_sync(req, version)
        group = self.groups.get(req.group_id)
        if group is None or group.state == GroupState.DEAD:
            return error(ErrorCode.UNKNOWN_MEMBER_ID if group is None else ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if group.is_static_member_fenced(req.member_id, req.group_instance_id if version >= 3 else None):
            return error(ErrorCode.FENCED_INSTANCE_ID)
        member = group.members.get(req.member_id)
        if member is None:
            return error(ErrorCode.UNKNOWN_MEMBER_ID)
        if req.generation_id != group.generation_id:
            return error(ErrorCode.ILLEGAL_GENERATION)
        if version >= 5 and (
            (req.protocol_type is not None and req.protocol_type != group.protocol_type)
            or (req.protocol_name is not None and req.protocol_name != group.protocol_name)
        ):
            return error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        if group.state == GroupState.PREPARING_REBALANCE:
            return error(ErrorCode.REBALANCE_IN_PROGRESS)
        group.pending_sync_members.discard(member.member_id)
        if not group.pending_sync_members:
            self.join_purgatory.check_and_complete(("sync", group.group_id))
        if group.state == GroupState.STABLE:
            self._schedule_heartbeat_expiry(group, member)
            return self._sync_response(group, member)
        if group.state != GroupState.COMPLETING_REBALANCE:
            return error(ErrorCode.UNKNOWN_MEMBER_ID)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if member.sync_future is not None and not member.sync_future.done():
            member.sync_future.set_result(error(ErrorCode.REBALANCE_IN_PROGRESS))
        member.sync_future = future
        self._schedule_heartbeat_expiry(group, member)
        if req.member_id == group.leader_id:
            assignments = {a.member_id: bytes(a.assignment) for a in req.assignments}
            for m in group.members.values():
                m.assignment = assignments.get(m.member_id, b"")
            try:
                self.storage.store_group(group)
            except KafkaError as e:
                self._fail_pending_syncs(group, e.code)
                self._prepare_rebalance(group, "failed to persist the assignment")
                return future
            group.transition_to(GroupState.STABLE, _now_ms())
            for m in group.members.values():
                if m.sync_future is not None and not m.sync_future.done():
                    m.sync_future.set_result(self._sync_response(group, m))
                    # a full session from the assignment on (Kafka's propagateAssignment): the member
                    # may have waited most of its session for the leader, without heartbeats
                    self._schedule_heartbeat_expiry(group, m)
                m.sync_future = None
        return future

    def _sync_response(self, group: GroupMetadata, member: MemberMetadata) -> srs.SyncGroupResponse:
        return srs.SyncGroupResponse(
            throttle_time_ms=0,
            error_code=ErrorCode.NONE,
            protocol_type=group.protocol_type,
            protocol_name=group.protocol_name,
            assignment=member.assignment,
        )

    def _fail_pending_syncs(self, group: GroupMetadata, code: ErrorCode) -> None:
        for m in group.members.values():
            if m.sync_future is not None and not m.sync_future.done():
                m.sync_future.set_result(srs.SyncGroupResponse(error_code=code, assignment=b""))
                self._schedule_heartbeat_expiry(group, m)  # as above: its session starts again from here
            m.sync_future = None

    # --- heartbeat / liveness ----------------------------------------------------------------
    def heartbeat(self, req: Any, version: int) -> ErrorCode:
        if (code := self.coordinator_error(req.group_id)) != ErrorCode.NONE:
            return code
        if self.consumer_groups.has_members(req.group_id):  # a classic member of a consumer group
            return self.consumer_groups.classic_group_heartbeat(req, version)
        group = self.groups.get(req.group_id)
        if group is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.state == GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        # a fenced static member is told so before anything else: its member id is gone
        if group.is_static_member_fenced(req.member_id, req.group_instance_id if version >= 3 else None):
            return ErrorCode.FENCED_INSTANCE_ID
        member = group.members.get(req.member_id)
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if req.generation_id != group.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        if group.state == GroupState.EMPTY:
            return ErrorCode.UNKNOWN_MEMBER_ID
        self._schedule_heartbeat_expiry(group, member)
        if group.state == GroupState.PREPARING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    def _schedule_heartbeat_expiry(self, group: GroupMetadata, member: MemberMetadata) -> None:
        """(Re)arm the member's session timer: a DelayedHeartbeat that expires it if not renewed."""
        # which arming of the timer this is: a count, not a time (two armings in the same millisecond,
        # or on a clock that does not move, must still tell the superseded one from the current one)
        member.session_timer_id += 1
        timer_id = member.session_timer_id
        key = ("heartbeat", group.group_id, member.member_id)
        # complete the previous timer for this member: it is superseded
        self.heartbeat_purgatory.check_and_complete(key)
        op = DelayedCallback(
            member.session_timeout_ms,
            condition=lambda: member.session_timer_id != timer_id or group.members.get(member.member_id) is not member,
            on_done=lambda expired: self._on_heartbeat_expired(group, member, timer_id) if expired else None,
        )
        self.heartbeat_purgatory.try_complete_else_watch(op, [key])

    def _on_heartbeat_expired(self, group: GroupMetadata, member: MemberMetadata, timer_id: int) -> None:
        if member.session_timer_id != timer_id or group.members.get(member.member_id) is not member:
            return
        if (member.is_awaiting_join and group.state == GroupState.PREPARING_REBALANCE) or (
            member.is_awaiting_sync and group.state == GroupState.COMPLETING_REBALANCE
        ):
            # a member parked in JoinGroup, or in SyncGroup until the leader sends the assignment, is
            # alive: it waits for the rebalance, not heartbeats (Kafka's ClassicGroupMember
            # hasSatisfiedHeartbeat; clients stop heartbeating during join and sync)
            self._schedule_heartbeat_expiry(group, member)
            return
        log.info("member %s of group %s failed: session timeout expired", member.member_id, group.group_id)
        self._remove_member_and_update(group, member, "session timeout expired")

    def _schedule_pending_expiry(self, group: GroupMetadata, member_id: str, session_timeout_ms: int) -> None:
        def expire(expired: bool) -> None:
            if expired and member_id in group.pending_members:
                group.pending_members.discard(member_id)
                if group.state == GroupState.PREPARING_REBALANCE:
                    self.join_purgatory.check_and_complete(("join", group.group_id))

        op = DelayedCallback(
            session_timeout_ms, condition=lambda: member_id not in group.pending_members, on_done=expire
        )
        self.heartbeat_purgatory.try_complete_else_watch(op, [("pending", group.group_id, member_id)])

    def _drop_member(self, group: GroupMetadata, member: MemberMetadata) -> None:
        """Remove the member: its waiting JoinGroup/SyncGroup are answered UNKNOWN_MEMBER_ID (None), its
        session timer retired."""
        for f in (member.join_future, member.sync_future):
            if f is not None and not f.done():
                f.set_result(None)
        group.remove_member(member.member_id)
        self.heartbeat_purgatory.check_and_complete(("heartbeat", group.group_id, member.member_id))

    def _remove_member_and_update(self, group: GroupMetadata, member: MemberMetadata, reason: str) -> None:
        self._drop_member(group, member)
        if group.state in (GroupState.STABLE, GroupState.COMPLETING_REBALANCE):
            self._prepare_rebalance(group, reason)
        elif group.state == GroupState.PREPARING_REBALANCE:
            self.join_purgatory.check_and_complete(("join", group.group_id))

    # --- leave -------------------------------------------------------------------------------
    def leave_group(self, group_id: str, members: list[tuple[str, str | None]]) -> tuple[ErrorCode, list[ErrorCode]]:
        if (code := self.coordinator_error(group_id)) != ErrorCode.NONE:
            return code, [code for _ in members]
        if self.consumer_groups.has_members(group_id):  # classic members of a consumer group
            return ErrorCode.NONE, self.consumer_groups.classic_leave(group_id, members)
        group = self.groups.get(group_id)
        if group is None or group.state == GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE if group else ErrorCode.UNKNOWN_MEMBER_ID, [
                ErrorCode.UNKNOWN_MEMBER_ID for _ in members
            ]
        codes = []
        for member_id, instance_id in members:
            if instance_id is not None:
                current = group.static_members.get(instance_id)
                if current is None:
                    codes.append(ErrorCode.UNKNOWN_MEMBER_ID)
                    continue
                if member_id != UNKNOWN_MEMBER_ID and current != member_id:
                    codes.append(ErrorCode.FENCED_INSTANCE_ID)
                    continue
                member_id = current
            member = group.members.get(member_id)
            if member is None:
                if member_id in group.pending_members:
                    group.pending_members.discard(member_id)
                    codes.append(ErrorCode.NONE)
                    if group.state == GroupState.PREPARING_REBALANCE:
                        self.join_purgatory.check_and_complete(("join", group.group_id))
                else:
                    codes.append(ErrorCode.UNKNOWN_MEMBER_ID)
                continue
            log.info("member %s is leaving group %s", member_id, group_id)
            self._remove_member_and_update(group, member, f"member {member_id} left")
            codes.append(ErrorCode.NONE)
        return ErrorCode.NONE, codes

    def shutdown(self) -> None:
        self.consumer_groups.shutdown()
        self.streams_groups.shutdown()
        self.join_purgatory.shutdown()
        self.heartbeat_purgatory.shutdown()
