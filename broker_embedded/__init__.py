"""An embedded, Kafka-compatible broker written in Python."""

from broker_embedded.cluster import EmbeddedCluster
from broker_embedded.embedded import EmbeddedBroker

__all__ = ["EmbeddedBroker", "EmbeddedCluster"]
