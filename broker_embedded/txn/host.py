"""What the transaction coordinator uses of the broker it runs in, as a narrow interface.

The coordinator writes `__transaction_state` and markers through partitions this broker hosts,
reaches leaders elsewhere through the controller's image, hands committed transactional offsets
to the group coordinator and takes producer ids from the broker's id source. Naming exactly
that (instead of importing `Broker`) keeps the room's door visible and lets tests pass a fake.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from broker_embedded.group.coordinator import GroupCoordinator
    from broker_embedded.metadata import TopicMetadata, TopicRegistry
    from broker_embedded.partition import Partition
    from broker_embedded.replication.controller_client import ControllerClient
    from broker_embedded.replication.replica_manager import ReplicaManager


class TxnHost(Protocol):
    node_id: int
    config: Any  # the broker's config: a mapping of Kafka config names
    topics: TopicRegistry
    loop: asyncio.AbstractEventLoop | None
    producer_ids: Any  # ProducerIdManager, or the controller's cluster-wide blocks
    group_coordinator: GroupCoordinator
    replica_manager: ReplicaManager
    controller_client: ControllerClient | None

    def partition(self, topic: str, index: int) -> Partition | None: ...

    def create_topic(
        self,
        name: str,
        num_partitions: int = -1,
        replication_factor: int = -1,
        configs: dict[str, Any] | None = None,
        validate_only: bool = False,
    ) -> TopicMetadata: ...
