"""The suite's one Kafka client stack.

* `connection.BrokerConnection`: one blocking connection, version negotiation (ApiVersions);
* `bootstrap.parse_bootstrap`: the one `bootstrap.servers` parser;
* `config.ClientConfig`: settings under Kafka's config names, and the one translation from them;
* `kafka_client.KafkaClient`: the metadata and leader cache, Metadata/ListOffsets/Fetch, coordinator
  lookup, OffsetCommit/OffsetFetch without membership, retries and backoff;
* `coordinator`: FindCoordinator/OffsetCommit/OffsetFetch bodies shared with `consumer_group`;
* `security.SecurityConfig` (TLS and SASL settings under Kafka's names, `ClientConfig.security`),
  `sasl` (the SASL client, KIP-368 re-authentication), `stores` (JKS/PKCS12/PEM trust and key
  stores), `jaas` (`sasl.jaas.config`), `librdkafka` (the one Java -> librdkafka translation).

Names are loaded lazily, so `kafka_wire.client.config` can be imported without the codecs.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kafka_wire.client.bootstrap import parse_bootstrap
    from kafka_wire.client.config import READ_COMMITTED, READ_UNCOMMITTED, ClientConfig
    from kafka_wire.client.connection import BrokerConnection, ConnectionClosedError
    from kafka_wire.client.kafka_client import (
        EARLIEST_TIMESTAMP,
        LATEST_TIMESTAMP,
        ClientAuthenticationError,
        ClusterMetadata,
        KafkaClient,
        KafkaClientError,
        PartitionFetch,
        PendingFetch,
        TopicInfo,
        UnknownTopicOrPartitionError,
    )
    from kafka_wire.client.security import AuthenticationError, SecurityConfig, SslAuthenticationError

_WHERE = {
    "BrokerConnection": "connection",
    "ConnectionClosedError": "connection",
    "parse_bootstrap": "bootstrap",
    "ClientConfig": "config",
    "READ_COMMITTED": "config",
    "READ_UNCOMMITTED": "config",
    "EARLIEST_TIMESTAMP": "kafka_client",
    "LATEST_TIMESTAMP": "kafka_client",
    "ClusterMetadata": "kafka_client",
    "KafkaClient": "kafka_client",
    "KafkaClientError": "kafka_client",
    "PartitionFetch": "kafka_client",
    "PendingFetch": "kafka_client",
    "TopicInfo": "kafka_client",
    "UnknownTopicOrPartitionError": "kafka_client",
    "ClientAuthenticationError": "kafka_client",
    "AuthenticationError": "security",
    "SecurityConfig": "security",
    "SslAuthenticationError": "security",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'kafka_wire.client' has no attribute {name!r}")
    return getattr(importlib.import_module(f"kafka_wire.client.{module}"), name)


__all__ = [
    "EARLIEST_TIMESTAMP",
    "LATEST_TIMESTAMP",
    "READ_COMMITTED",
    "READ_UNCOMMITTED",
    "AuthenticationError",
    "BrokerConnection",
    "ClientAuthenticationError",
    "ClientConfig",
    "ClusterMetadata",
    "ConnectionClosedError",
    "KafkaClient",
    "KafkaClientError",
    "PartitionFetch",
    "PendingFetch",
    "SecurityConfig",
    "SslAuthenticationError",
    "TopicInfo",
    "UnknownTopicOrPartitionError",
    "parse_bootstrap",
]
