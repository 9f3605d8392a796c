"""Replication throttles (replication/throttle.py) on a fake clock: which replicas a
`*.replication.throttled.replicas` list names, and a follower quota holding catch-up bytes to its rate."""

from __future__ import annotations

from broker_embedded.replication.throttle import FOLLOWER, LEADER, ReplicationQuota, lists_replica


def test_throttled_replica_lists() -> None:
    assert lists_replica(["0:1", "1:2"], 1, 2) and lists_replica("0:1, 1:2", 0, 1)
    assert not lists_replica(["0:1", "1:2"], 0, 2) and not lists_replica([], 0, 1) and not lists_replica(None, 0, 1)
    assert lists_replica(["*"], 7, 3) and lists_replica("*", 0, 9)


def test_follower_quota_holds_catch_up_to_its_rate() -> None:
    now = [0]
    config = {"follower.replication.throttled.rate": 10_000, "replication.quota.window.num": 11}
    quota = ReplicationQuota(FOLLOWER, config, node_id=2, clock=lambda: now[0])
    overrides = {"follower.replication.throttled.replicas": ["0:2"]}
    assert quota.is_throttled(overrides, 0) and not quota.is_throttled(overrides, 1)
    # an in-sync replica is never held; an unlisted partition neither
    quota.record(10**6)
    assert quota.should_throttle(overrides, 0, replica_in_sync=False)
    assert not quota.should_throttle(overrides, 0, replica_in_sync=True)
    assert not quota.should_throttle(overrides, 1, replica_in_sync=False)
    # a simulated follower fetching 5 KB whenever allowed moves ~10 KB/s over a minute (at most one
    # fetch over the quota per ~10 s window, as Kafka's sampled rate allows)
    quota = ReplicationQuota(FOLLOWER, config, node_id=2, clock=lambda: now[0])
    moved = 0
    for step in range(600):
        now[0] = step * 100
        if not quota.should_throttle(overrides, 0, replica_in_sync=False):
            quota.record(5_000)
            moved += 5_000
    rate = moved / 60
    assert 9_000 <= rate <= 11_000, rate


def test_default_rate_is_unbounded() -> None:
    quota = ReplicationQuota(LEADER, {}, node_id=1, clock=lambda: 0)
    quota.record(10**12)
    assert not quota.is_quota_exceeded()
    assert quota.should_throttle({"leader.replication.throttled.replicas": "*"}, 0, False) is False
