"""Replication inside one broker: partition states from the controller, leader/follower roles,
follower fetchers, ISR changes and the high watermark (Kafka's ReplicaManager)."""

from broker_embedded.replication.replica_manager import ReplicaManager
from broker_embedded.replication.state import BrokerEndpoint, PartitionState

__all__ = ["BrokerEndpoint", "PartitionState", "ReplicaManager"]
