"""Watch keys of the replica manager's purgatories, in one place so that whoever parks an operation
and whoever completes it (appends, high watermark moves, role changes, deletions) agree.

Kafka keys its delayed produces and fetches by ``TopicPartitionOperationKey``; ours is a tuple
that names the purgatory too, so a key can never complete an operation of the other kind.
"""

from __future__ import annotations

PurgatoryKey = tuple[str, str, int]


def fetch_key(topic: str, partition: int) -> PurgatoryKey:
    """A DelayedFetch (consumer or follower long poll) on this partition."""
    return ("fetch", topic, partition)


def produce_key(topic: str, partition: int) -> PurgatoryKey:
    """A DelayedProduce (acks=all) or a coordinator's replication wait on this partition."""
    return ("produce", topic, partition)
