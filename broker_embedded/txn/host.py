"""What the transaction coordinator uses of the broker it runs in, as a narrow interface.

The coordinator writes `__transaction_state`, transactional offsets and markers through the
coordinator door of partitions this broker hosts (`Partition.append_as_coordinator`),
reaches leaders elsewhere through the controller's image, hands committed transactional offsets
to the group coordinator and takes producer ids from the broker's id source. Naming exactly
that (instead of importing `Broker`) keeps the room's door visible and lets tests pass a fake.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from broker_embedded.controller.controller_client import ControllerClient
    from broker_embedded.group.txn_offsets import GroupTxnOffsets
    from broker_embedded.partition import Partition
    from broker_embedded.purgatory import DelayedOperationPurgatory
    from broker_embedded.topic_registry import TopicMetadata, TopicRegistry
    from kafka_wire.errors import ErrorCode


class TxnGroupCoordinator(Protocol):
    """What the transaction coordinator uses of the group coordinator: where a group's offsets
    live, whether this broker coordinates it, and the groups' side of transactional offsets."""

    txn_offsets: GroupTxnOffsets

    def ensure_offsets_topic(self) -> None: ...

    def partition_for(self, group_id: str) -> int: ...

    def coordinator_error(self, group_id: str | None) -> ErrorCode: ...


class TxnReplicas(Protocol):
    """What it uses of the replica manager: the purgatory its acks=-1 writes wait in."""

    @property
    def produce_purgatory(self) -> DelayedOperationPurgatory[Any]: ...


class TxnHost(Protocol):
    node_id: int
    config: Any  # the broker's config: a mapping of Kafka config names
    topics: TopicRegistry
    loop: asyncio.AbstractEventLoop | None
    producer_ids: Any  # ProducerIdManager, or the controller's cluster-wide blocks

    # read-only in the protocol: the broker's attributes hold the concrete classes (a mutable protocol
    # attribute would require exactly these protocol types)
    @property
    def group_coordinator(self) -> TxnGroupCoordinator: ...

    @property
    def replica_manager(self) -> TxnReplicas: ...

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
