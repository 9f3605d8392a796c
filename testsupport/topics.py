"""Topic setup against a running broker (ours or any Kafka), through confluent-kafka's admin client."""

from __future__ import annotations

from typing import TYPE_CHECKING

from confluent_kafka.admin import AdminClient, NewTopic

if TYPE_CHECKING:
    from broker_embedded import EmbeddedBroker


def create_topic(b: EmbeddedBroker, name: str, partitions: int, config: dict[str, str] | None = None) -> None:
    admin = AdminClient({"bootstrap.servers": b.bootstrap_servers})
    fut = admin.create_topics([NewTopic(name, partitions, 1, config=config or {})])[name]
    fut.result(timeout=30)


__all__ = ["create_topic"]
