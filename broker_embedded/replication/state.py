"""The replication state a broker is told by the controller (Kafka's LeaderAndIsr / PartitionRecord).

Plain immutable values shared by the controller (R2) and the replica data path (R1).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BrokerEndpoint:
    """Where a broker listens for Kafka clients (and for its followers' Fetch requests)."""

    node_id: int
    host: str
    port: int
    rack: str | None = None


@dataclass(frozen=True, slots=True)
class PartitionState:
    """The controller's committed view of one partition.

    `leader` is -1 while no eligible replica is alive. `leader_epoch` is bumped on every leader
    change; `partition_epoch` on every change of leader or ISR (KIP-497), so a stale AlterPartition
    is refused with INVALID_UPDATE_VERSION.
    """

    topic: str
    partition: int
    topic_id: bytes  # 16 bytes
    leader: int  # -1 = offline (no eligible leader)
    leader_epoch: int
    isr: tuple[int, ...]
    replicas: tuple[int, ...]
    partition_epoch: int  # bumped by the controller on every change of leader or ISR (KIP-497)
    # replicas in a failed log dir of their broker (KIP-858): Metadata lists them in offline_replicas
    offline_replicas: tuple[int, ...] = ()
