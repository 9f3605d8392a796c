"""The share coordinator in a cluster (KIP-932): each broker serves the share-partition state keys of
the ``__share_group_state`` partitions it leads, as Kafka's ShareCoordinatorService does.

* FindCoordinator key type 2 creates the topic (``share.coordinator.state.topic.num.partitions``,
  ``share.coordinator.state.topic.replication.factor`` capped by the live brokers) and names the
  leader of the key's partition.
* A broker sets itself up on the first share-state RPC (83-87) it is sent: it loads the state
  partitions it leads now and follows the controller's images from then on (a partition it starts
  leading is replayed before it serves it, one it stops leading is forgotten: Kafka's onElection /
  onResignation). Until a partition is loaded the answer is NOT_COORDINATOR, and the sender looks
  the coordinator up again.
* A write (initialize, write, delete) is answered once the state partition's high watermark covers
  it (Kafka's coordinator writes with acks=-1), so the state survives the coordinator's broker.

Share-partition leaders send these RPCs through ``remote_persister.RemotePersister``.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from broker_embedded.replication.coordinator_wait import wait_until_replicated
from kafka_wire.errors import ErrorCode

from .persister import (
    DEFAULT_COLD_SNAPSHOT_INTERVAL_MS,
    DEFAULT_NUM_PARTITIONS,
    DEFAULT_PRUNE_INTERVAL_MS,
    DEFAULT_SNAPSHOT_EVERY,
    SHARE_STATE_TOPIC,
    SharePersister,
    partition_for,
)
from .state import ShareGroupStateKey
from .state_service import ShareStateService

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ControllerClient
    from broker_embedded.partition import Partition
    from broker_embedded.purgatory.purgatory import DelayedOperationPurgatory
    from broker_embedded.topic_registry import TopicRegistry

DEFAULT_REPLICATION_FACTOR = 3  # share.coordinator.state.topic.replication.factor
WRITE_TIMEOUT_MS = 5000  # share.coordinator.write.timeout.ms


class ClusterShareState:
    def __init__(
        self,
        node_id: int,
        topics: TopicRegistry,
        partition_of: Callable[[str, int], Partition | None],
        controller_client: ControllerClient,
        produce_purgatory: DelayedOperationPurgatory[Any],
        config_get: Callable[[str, Any], Any],
    ) -> None:
        self.node_id = node_id
        self.partition_of = partition_of
        self.controller_client = controller_client
        self.produce_purgatory = produce_purgatory
        self.num_partitions = int(config_get("share.coordinator.state.topic.num.partitions", DEFAULT_NUM_PARTITIONS))
        self.replication_factor = int(
            config_get("share.coordinator.state.topic.replication.factor", DEFAULT_REPLICATION_FACTOR)
        )

        def no_create(*_: Any) -> Any:
            raise RuntimeError(f"{SHARE_STATE_TOPIC} is created through the controller in a cluster")

        self.persister = SharePersister(
            topics,
            partition_of,
            no_create,
            self.num_partitions,
            int(config_get("share.coordinator.snapshot.update.records.per.snapshot", DEFAULT_SNAPSHOT_EVERY)),
            int(config_get("share.coordinator.state.topic.prune.interval.ms", DEFAULT_PRUNE_INTERVAL_MS)),
            int(config_get("share.coordinator.cold.partition.snapshot.interval.ms", DEFAULT_COLD_SNAPSHOT_INTERVAL_MS)),
        )
        self.service = ShareStateService(self.persister)
        # state partition -> the leader epoch it was loaded at
        self.loaded: dict[int, int] = {}
        self._lock = threading.Lock()
        self._listening = False

    # ---- topic and lookups ----------------------------------------------------------------------

    def ensure_topic(self) -> None:
        image = self.controller_client.image
        if image is not None and SHARE_STATE_TOPIC not in image.topics:
            live = len(image.live_brokers())
            rf = max(1, min(self.replication_factor, live))
            self.controller_client.create_topic_in_background(SHARE_STATE_TOPIC, self.num_partitions, rf)

    # ---- leadership ---------------------------------------------------------------------------

    def start(self) -> None:
        """Serve from now on: load what this broker leads and follow later images."""
        with self._lock:
            if self._listening:
                return
            self._listening = True
        self.controller_client.image_listeners.append(self.on_cluster_image)
        image = self.controller_client.image
        if image is not None:
            self.on_cluster_image(None, image)

    def on_cluster_image(self, previous: object, image: Any) -> None:
        topic = image.topics.get(SHARE_STATE_TOPIC)
        led: dict[int, int] = {}
        if topic is not None:
            led = {p.partition: p.leader_epoch for p in topic.partitions if p.leader == self.node_id}
        with self._lock:
            for index in list(self.loaded):
                if led.get(index) != self.loaded[index]:
                    del self.loaded[index]
                    self.persister.unload_partition(index)
            for index, epoch in led.items():
                if index not in self.loaded:
                    self.persister.unload_partition(index)  # anything from an earlier term is stale
                    self.persister.load_partition(index)
                    self.loaded[index] = epoch

    def service_for(self, key: ShareGroupStateKey) -> ShareStateService | None:
        """The service if this broker coordinates `key` now, else None (NOT_COORDINATOR)."""
        self.start()
        index = partition_for(key, self.num_partitions)
        with self._lock:
            if index not in self.loaded:
                return None
        p = self.partition_of(SHARE_STATE_TOPIC, index)
        if p is None or not p.is_leader:
            return None
        return self.service

    def replicated(self, key: ShareGroupStateKey) -> asyncio.Future[ErrorCode] | None:
        """A future resolving once the key's state partition's high watermark covers its log end."""
        p = self.partition_of(SHARE_STATE_TOPIC, partition_for(key, self.num_partitions))
        if p is None:
            return None
        return wait_until_replicated(p, self.produce_purgatory, WRITE_TIMEOUT_MS)
