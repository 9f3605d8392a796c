"""Replication throttles (Kafka's ReplicationQuotaManager), as kafka-reassign-partitions --throttle
sets them.

Two quotas per broker, each a byte rate over `replication.quota.window.num` samples of
`replication.quota.window.size.seconds`: the leader side (`leader.replication.throttled.rate`) and
the follower side (`follower.replication.throttled.rate`), both dynamic broker configs (default
Long.MAX_VALUE = off). A partition replica is throttled on a side when the topic's
`leader.replication.throttled.replicas` / `follower.replication.throttled.replicas` lists
`partition:<this broker>` (or is `*`). Only replicas out of the ISR are held (a reassignment's new
replicas catching up), never an in-sync follower: acks=all must not wait on a throttle.

Follower side (ReplicaFetcherThread): while the quota is exceeded, a throttled out-of-sync partition
is left out of the next Fetch; the record bytes fetched for throttled partitions are recorded.
Leader side (ReplicaManager.readFromLog): a follower fetch of a throttled out-of-sync replica gets
no records while the quota is exceeded; the bytes sent for throttled replicas are recorded.
The rate is Kafka's SimpleRate (bytes over the time since the oldest sample, at least one
window): unlike client quotas there is no 10 s head start, so a move is held at the rate at once.
Sans-IO: the caller passes the time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from broker_embedded.quotas.rate import SimpleRate
from kafka_wire.types import LONG_MAX

LEADER = "leader"
FOLLOWER = "follower"


def throttled_replicas(value: Any) -> list[str]:
    """A `*.replication.throttled.replicas` value (parsed list or raw string) as its items."""
    if value is None:
        return []
    items = value if isinstance(value, list | tuple) else str(value).split(",")
    return [str(x).strip() for x in items if str(x).strip()]


def lists_replica(value: Any, partition: int, broker: int) -> bool:
    """Whether the list names `partition:broker` (or is the wildcard)."""
    items = throttled_replicas(value)
    if items == ["*"]:
        return True
    for item in items:
        left, _, right = item.partition(":")
        if left.strip() == str(partition) and right.strip() == str(broker):
            return True
    return False


class ReplicationQuota:
    """One side's quota on one broker: is a replica throttled, is the rate over its bound."""

    def __init__(self, side: str, config: Mapping[str, Any], node_id: int, clock: Callable[[], int]) -> None:
        self.side = side
        self.config = config
        self.node_id = node_id
        self.clock = clock
        # Kafka's ReplicationQuotaManager measures with SimpleRate (no padding: no initial burst)
        self._rate = SimpleRate(
            int(self._cfg("replication.quota.window.num", 11)),
            int(self._cfg("replication.quota.window.size.seconds", 1)) * 1000,
        )

    def _cfg(self, name: str, default: int) -> Any:
        try:
            return self.config[name]
        except KeyError:  # a hand-built config without it (tests): Kafka's default
            return default

    @property
    def bound(self) -> int:
        return int(self._cfg(f"{self.side}.replication.throttled.rate", LONG_MAX))

    def is_throttled(self, topic_overrides: Mapping[str, Any], partition: int) -> bool:
        return lists_replica(
            topic_overrides.get(f"{self.side}.replication.throttled.replicas"), partition, self.node_id
        )

    def is_quota_exceeded(self) -> bool:
        return self._rate.measure(self.clock()) > self.bound

    def record(self, value: int) -> None:
        if value > 0:
            self._rate.record(value, self.clock())

    def rate(self) -> float:
        return self._rate.measure(self.clock())

    def should_throttle(self, topic_overrides: Mapping[str, Any], partition: int, replica_in_sync: bool) -> bool:
        """Kafka's shouldLeaderThrottle / shouldFollowerThrottle."""
        return not replica_in_sync and self.is_throttled(topic_overrides, partition) and self.is_quota_exceeded()
