"""Value types shared by every package of the suite (the broker, the clients, the connector)."""

from __future__ import annotations

from typing import NamedTuple

# Java's Long.MAX_VALUE / Integer.MAX_VALUE: "no limit" in Kafka's configs, the open end of ranges
LONG_MAX = 2**63 - 1
INT_MAX = 2**31 - 1


class TopicPartition(NamedTuple):
    """A partition of a topic, as Kafka names it. A tuple: `("t", 0) == TopicPartition("t", 0)`."""

    topic: str
    partition: int


def tp_str(tp: tuple[str, int]) -> str:
    """`topic-partition`, the way Kafka prints a TopicPartition."""
    return f"{tp[0]}-{tp[1]}"


__all__ = ["INT_MAX", "LONG_MAX", "TopicPartition", "tp_str"]
