"""The share-group side of one broker (KIP-932): groups, share sessions and share-partitions.

``ShareCoordinator`` wires the sans-IO rooms together for a single broker: ``ShareGroups``
(membership and assignment, the group coordinator's part), ``ShareSessionCache`` and the
``SharePartitionManager`` (the partition leader's part). A member that leaves or times out has its
acquired records released at once (Kafka's share-group listener), not after their locks expire.
Member session timeouts are swept on the broker's timer every second while a group has members.

Membership is written to ``__consumer_offsets`` as Kafka's share group records (``store_groups_in``,
share_records.py) and replayed with the group coordinator's partitions. A single broker keeps
share-partition state in ``__share_group_state`` (``persist_to``, ``broker_embedded.share.persister``);
in a cluster the share-partition leaders send it to the share coordinators (RPCs 83-86,
``broker_embedded.share.remote_persister``, set up by the broker).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from broker_embedded.group.share_group import (
    DEFAULT_HEARTBEAT_INTERVAL_MS,
    DEFAULT_MAX_SIZE,
    DEFAULT_SESSION_TIMEOUT_MS,
    ShareGroups,
)
from broker_embedded.purgatory.timing_wheel import TimerTask
from broker_embedded.share.manager import SharePartitionManager, ShareSettings
from broker_embedded.share.persister import (
    DEFAULT_COLD_SNAPSHOT_INTERVAL_MS,
    DEFAULT_NUM_PARTITIONS,
    DEFAULT_PRUNE_INTERVAL_MS,
    DEFAULT_SNAPSHOT_EVERY,
    SharePersister,
)
from broker_embedded.share.remote_persister import RemotePersister
from broker_embedded.share.session import DEFAULT_MAX_SHARE_SESSIONS, ShareSessionCache

if TYPE_CHECKING:
    from broker_embedded.group.coordinator import GroupCoordinator
    from broker_embedded.group.group_configs import GroupConfigStore
    from broker_embedded.partition import Partition
    from broker_embedded.purgatory.purgatory import DelayedOperationPurgatory
    from broker_embedded.purgatory.timing_wheel import Timer
    from broker_embedded.share.cluster_state import ClusterShareState
    from broker_embedded.topic_registry import TopicRegistry

SWEEP_INTERVAL_MS = 1000


def _now_ms() -> int:
    return int(time.time() * 1000)


def other_protocol_group(coordinator: GroupCoordinator) -> Callable[[str], bool]:
    """Whether a group id is taken by a classic group (with members or a protocol) or a consumer group."""

    def exists(group_id: str) -> bool:
        classic = coordinator.groups.get(group_id)
        if classic is not None and (classic.members or classic.protocol_type):
            return True
        return group_id in coordinator.consumer_groups.groups

    return exists


class _Sweep(TimerTask):
    def __init__(self, owner: ShareCoordinator) -> None:
        super().__init__(SWEEP_INTERVAL_MS)
        self.owner = owner

    def run(self) -> None:
        self.owner._sweep()


class ShareCoordinator:
    def __init__(
        self,
        topics: TopicRegistry,
        partition_of: Callable[[str, int], Partition | None],
        timer: Timer,
        purgatory: DelayedOperationPurgatory[Any],
        node_id: int,
        max_size: int = DEFAULT_MAX_SIZE,
        max_share_sessions: int = DEFAULT_MAX_SHARE_SESSIONS,
        other_group_exists: Callable[[str], bool] | None = None,
        clock: Callable[[], int] = _now_ms,
    ) -> None:
        self.topics = topics
        self.partition_of = partition_of
        self.timer = timer
        self.purgatory = purgatory
        self.clock = clock
        # per-group configs (group_configs.py), set by the broker; None: Kafka's defaults
        self._group_configs: GroupConfigStore | None = None
        self.groups = ShareGroups(
            self._topic_lookup,
            timeouts=self._timeouts,
            max_size=max_size,
            on_member_removed=self._member_removed,
            other_group_exists=other_group_exists,
        )
        self.sessions = ShareSessionCache(max_share_sessions)
        self.partitions = SharePartitionManager(timer, partition_of, self.settings, self.wake, node_id)
        self.partitions.on_released = self._released
        self._sweep_task: _Sweep | None = None
        # a cluster: the __share_group_state partitions this broker leads (group/share_state_host.py)
        self.cluster_state: ClusterShareState | None = None

    def persist_to(
        self, create_topic: Callable[[str, int, int, dict[str, Any]], Any], config_get: Callable[[str, Any], Any]
    ) -> int:
        """A single broker: keep share-partition state in __share_group_state and read it back now
        (Kafka's share.coordinator.* configs); the number of records replayed."""
        persister = SharePersister(
            self.topics,
            self.partition_of,
            create_topic,
            int(config_get("share.coordinator.state.topic.num.partitions", DEFAULT_NUM_PARTITIONS)),
            int(config_get("share.coordinator.snapshot.update.records.per.snapshot", DEFAULT_SNAPSHOT_EVERY)),
            int(config_get("share.coordinator.state.topic.prune.interval.ms", DEFAULT_PRUNE_INTERVAL_MS)),
            int(config_get("share.coordinator.cold.partition.snapshot.interval.ms", DEFAULT_COLD_SNAPSHOT_INTERVAL_MS)),
        )
        replayed = persister.load()
        self.partitions.persister = persister
        return replayed

    def store_groups_in(self, coordinator: GroupCoordinator) -> None:
        """Share group membership as Kafka keeps it: records in the group's __consumer_offsets
        partition, replayed when the group coordinator loads it (call before its `load`)."""
        self.groups.append = coordinator.storage.append
        coordinator.share_groups = self.groups

    @property
    def group_configs(self) -> GroupConfigStore | None:
        return self._group_configs

    @group_configs.setter
    def group_configs(self, store: GroupConfigStore | None) -> None:
        self._group_configs = store
        if store is not None:
            # a changed share.* group config applies to the group's live share-partitions too
            store.listeners.append(self._configs_changed)

    def _configs_changed(self, group_ids: set[str]) -> None:
        for group_id in group_ids:
            self.partitions.apply_settings(group_id)

    def settings(self, group_id: str) -> ShareSettings:
        """The group's share.* configs (its overrides over the broker's group.share.* defaults)."""
        if self._group_configs is None:
            return ShareSettings()
        cfg = self._group_configs.get(group_id)
        return ShareSettings(
            record_lock_duration_ms=cfg.share_record_lock_duration_ms,
            delivery_count_limit=cfg.share_delivery_count_limit,
            max_in_flight_records=cfg.share_partition_max_record_locks,
            auto_offset_reset=cfg.share_auto_offset_reset,
            isolation_level=cfg.share_isolation_level,
            renew_acknowledge_enable=cfg.share_renew_acknowledge_enable,
        )

    def _timeouts(self, group_id: str) -> tuple[int, int]:
        if self._group_configs is None:
            return DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_HEARTBEAT_INTERVAL_MS
        cfg = self._group_configs.get(group_id)
        return cfg.share_session_timeout_ms, cfg.share_heartbeat_interval_ms

    def _topic_lookup(self, name: str) -> tuple[bytes, int] | None:
        meta = self.topics.get(name)
        return None if meta is None else (meta.topic_id, meta.num_partitions)

    def wake(self, key: Hashable) -> None:
        self.purgatory.check_and_complete(key)

    def on_disconnect(self, connection_id: int) -> None:
        """A connection closed: the share session it opened last ends, its records go back."""
        session = self.sessions.on_disconnect(str(connection_id))
        if session is None:
            return
        owned = []
        for tid_hex, index in session.partitions:
            meta = self.topics.by_id.get(bytes.fromhex(tid_hex))
            if meta is not None:
                owned.append((meta.name, index))
        self.partitions.release_member(session.group_id, session.member_id, owned)

    def _released(self, group_id: str) -> None:
        """A member's records were released here (its share session ended: final epoch or closed
        connection; or it left the group): once the group has no session left here, a cluster's
        share-partition leader drops the group's share-partitions (Kafka's onGroupEmpty), so the state
        the group's admin deletes or alters at the share coordinators is read again, not overwritten
        from a stale copy. A single broker keeps them (its state is local: admin changes it in place)."""
        if isinstance(self.partitions.persister, RemotePersister) and not self.sessions.has_group(group_id):
            self.partitions.drop_group(group_id)

    def _member_removed(self, group_id: str, member_id: str) -> None:
        self.partitions.release_member(group_id, member_id)

    def heartbeat_seen(self) -> None:
        """Keep the session sweep scheduled while any group has members."""
        if self._sweep_task is None:
            self._sweep_task = _Sweep(self)
            self.timer.add(self._sweep_task)

    def _sweep(self) -> None:
        self._sweep_task = None
        self.groups.expire(self.clock())
        if any(g.members for g in list(self.groups.groups.values())):
            self.heartbeat_seen()
