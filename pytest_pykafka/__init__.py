"""pytest-pykafka: fixtures for tests that need Kafka, backed by pykafka's embedded broker.

Installed with the project (a ``pytest11`` entry point); see :mod:`pytest_pykafka.plugin` for the
fixtures, markers and command-line options. It uses public APIs only (``broker_embedded``'s
EmbeddedBroker/EmbeddedCluster, confluent-kafka for the configured clients, pyspark for ``spark``).
"""

from pytest_pykafka.plugin import ExternalKafka, unique_topic_name

__all__ = ["ExternalKafka", "unique_topic_name"]
