"""The source's Kafka client: `kafka_wire.client.KafkaClient`, plus a per-process cache of clients.

The driver-side stream reader owns one client; each executor Python worker keeps one per
configuration in a module-level cache (`shared_client`) because Spark reuses Python workers across
tasks, so connections and the leader cache survive from one micro-batch to the next.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from connector.client_config import READ_COMMITTED, READ_UNCOMMITTED, ClientConfig, parse_bootstrap
from kafka_wire.client.kafka_client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    RETRIABLE,
    ClusterMetadata,
    KafkaClient,
    KafkaClientError,
    PartitionFetch,
    PendingFetch,
    TopicInfo,
    UnknownTopicOrPartitionError,
)

# One client per configuration per Python process: executor workers are reused across tasks and
# micro-batches. Every query has its own configuration (its client id), so the cache is bounded:
# the least recently used client is closed when a new one would exceed the bound.
_MAX_SHARED_CLIENTS = 8
_clients: OrderedDict[ClientConfig, KafkaClient] = OrderedDict()
_clients_lock = threading.Lock()


def shared_client(config: ClientConfig) -> KafkaClient:
    evicted: list[KafkaClient] = []
    with _clients_lock:
        client = _clients.get(config)
        if client is None or client.closed:
            client = KafkaClient(config)
            _clients[config] = client
            while len(_clients) > _MAX_SHARED_CLIENTS:
                evicted.append(_clients.popitem(last=False)[1])
        _clients.move_to_end(config)
    for old in evicted:
        old.close()
    return client


def drop_shared_client(config: ClientConfig) -> None:
    with _clients_lock:
        client = _clients.pop(config, None)
    if client is not None:
        client.close()


__all__ = [
    "EARLIEST_TIMESTAMP",
    "LATEST_TIMESTAMP",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "RETRIABLE",
    "ClientConfig",
    "ClusterMetadata",
    "KafkaClient",
    "KafkaClientError",
    "PartitionFetch",
    "PendingFetch",
    "TopicInfo",
    "UnknownTopicOrPartitionError",
    "drop_shared_client",
    "parse_bootstrap",
    "shared_client",
]
