"""A broker's failed log dir, as Kafka's controller handles it (KIP-858, JBOD in KRaft).

The broker reports the partitions of a dir that failed (Kafka: BrokerHeartbeat's OfflineLogDirs, matched
against the partitions' assigned directories; ours has no directory ids, so the broker names the
partitions). For each one, as ReplicationControlManager.handleDirectoriesOffline does, the replica leaves
the ISR and, where it led, another in-sync replica is elected; the replica is recorded offline
(`PartitionRecord.offline_replicas`), so Metadata lists it in `offline_replicas`. Out of the ISR, no clean
election picks it. Where it was the last in-sync replica the ISR is left empty and the partition has no
leader (Kafka with eligible leader replicas, its 4.x default); nothing is lost: when the broker registers
again after a restart (its dirs are online then) it gets that ISR back and is elected.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from broker_embedded.controller.state import ControllerState, PartitionRecord, TopicRecord

log = logging.getLogger(__name__)

NO_LEADER = -1


def _elect(state: ControllerState, topic: TopicRecord, p: PartitionRecord, isr: list[int]) -> tuple[int, list[int]]:
    """(leader, isr) as ControllerState._elect chooses them, never a replica in an offline dir (Kafka's
    LeaderAcceptor: the replica's directory must be online)."""
    for r in p.replicas:
        if r in isr and state.is_live(r) and r not in p.offline_replicas:
            return r, isr
    if state._unclean_allowed(topic):
        for r in p.replicas:
            if state.is_live(r) and r not in p.offline_replicas:
                log.warning(
                    "unclean leader election of %s-%d: broker %d was not in the ISR %s", topic.name, p.partition, r, isr
                )
                return r, [r]
    return NO_LEADER, isr


def handle_directories_offline(state: ControllerState, broker_id: int, partitions: Iterable[tuple[str, int]]) -> bool:
    """Take `broker_id`'s replicas of `partitions` offline; True when the image changed (then saved)."""
    changed: list[str] = []
    for name, index in partitions:
        topic = state.topics.get(name)
        if topic is None or not 0 <= index < len(topic.partitions):
            continue  # deleted meanwhile
        p = topic.partitions[index]
        if broker_id not in p.replicas or broker_id in p.offline_replicas:
            continue
        p.offline_replicas = sorted([*p.offline_replicas, broker_id])
        isr = [r for r in p.isr if r != broker_id]
        leader = p.leader
        if leader in (broker_id, NO_LEADER):
            leader, isr = _elect(state, topic, p, isr)
        if not state._set(p, leader, isr):
            p.partition_epoch += 1  # only the offline replica changed: still a new partition state
        changed.append(f"{name}-{index}")
    if changed:
        log.warning("broker %d: log dir failed, replicas offline: %s", broker_id, ", ".join(changed))
        state.save()
    return bool(changed)


def directories_online_again(state: ControllerState, broker_id: int) -> bool:
    """A restarted broker registered (a new incarnation: its dirs are online again, Kafka's registration
    LogDirs): its replicas count again. One that was the last in-sync replica of a partition left without a
    leader gets its ISR back (its log holds every acknowledged record) and is elected. True when changed
    (then saved)."""
    changed = False
    for topic in state.topics.values():
        for p in topic.partitions:
            if broker_id not in p.offline_replicas:
                continue
            p.offline_replicas = [r for r in p.offline_replicas if r != broker_id]
            isr = p.isr or [broker_id]
            leader = p.leader
            if leader == NO_LEADER:
                leader, isr = _elect(state, topic, p, isr)
            if not state._set(p, leader, isr):
                p.partition_epoch += 1
            changed = True
    if changed:
        state.save()
    return changed
