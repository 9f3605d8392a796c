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
    # fetch over the quota at a time, as Kafka's SimpleRate allows)
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


class _Data:
    def __init__(self, records: bytes) -> None:
        self.records = records
        self.remote = None
        self.high_watermark = self.last_stable_offset = 10
        self.log_start_offset = 0


class _Log:
    log_end_offset = 10
    log_start_offset = 0


class _Partition:
    """A leader's partition holding 5000 bytes from offset 0, with the ISR {1}."""

    isr = (1,)
    log = _Log()

    def check_leader_epoch(self, epoch: int) -> None:
        pass

    def check_leader(self) -> None:
        pass

    def read(
        self, offset: int, max_bytes: int, min_one_batch: bool, read_committed: bool, from_follower: bool
    ) -> _Data:
        return _Data(b"x" * (5000 if min_one_batch else min(5000, max_bytes)))


class _Replicas:
    """The replica manager's side of a fetch, with the leader quota of ReplicaManager.leader_throttle."""

    endpoints: dict[int, object] = {}

    def __init__(self, quota: ReplicationQuota, overrides: dict[str, object]) -> None:
        self.quota = quota
        self.overrides = overrides
        self.p = _Partition()

    def partition(self, topic: str, index: int) -> _Partition:
        return self.p

    def current_leader(self, topic: str, partition: int) -> tuple[int, int] | None:
        return None

    def leader_throttle(self, partition: _Partition, replica_id: int) -> tuple[bool, bool]:
        listed = self.quota.is_throttled(self.overrides, 0)
        return listed, listed and replica_id not in partition.isr and self.quota.is_quota_exceeded()

    def record_leader_throttled(self, size: int) -> None:
        self.quota.record(size)


def test_leader_side_throttle_holds_a_catching_up_follower() -> None:
    """Kafka's shouldLeaderThrottle in the fetch read: once the leader quota is exceeded a listed,
    out-of-sync follower gets no records (so its long poll waits instead of spinning); an in-sync
    follower always does; the bytes sent for listed replicas are recorded."""
    from broker_embedded.replication.fetch_read import FetchPartitionStatus, read_partitions
    from kafka_wire.protocol.messages import fetch_request as frq

    now = [0]
    quota = ReplicationQuota(LEADER, {"leader.replication.throttled.rate": 100}, node_id=1, clock=lambda: now[0])
    replicas = _Replicas(quota, {"leader.replication.throttled.replicas": ["0:1"]})
    status = FetchPartitionStatus(
        "t", b"\x00" * 16, frq.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=10**6)
    )
    request = frq.FetchRequest(max_bytes=10**6, min_bytes=1, topics=[])

    def fetched(replica_id: int) -> int:
        return read_partitions(replicas, [status], request, replica_id).total_bytes  # type: ignore[arg-type]

    assert fetched(2) == 5000  # within the quota: read and recorded (5000 B against 100 B/s)
    assert quota.is_quota_exceeded()
    assert fetched(2) == 0  # out of the ISR, over the quota: held
    assert fetched(1) == 5000  # an in-sync follower is never held
    assert fetched(-1) == 5000  # nor a consumer
    replicas.overrides = {}
    assert fetched(2) == 5000  # not listed: not throttled


def test_no_initial_burst_the_move_is_held_from_its_first_second() -> None:
    """Kafka measures replication quotas with SimpleRate: bytes over the time since the oldest sample,
    at least one window, without the client quotas' padding to 10 windows. A 10.6 MB catch-up in 1 MB
    fetches at 500 KB/s therefore takes ~21 s (Apache 4.3.1 measured 22.7-23.4 s end to end); with
    the padded rate it would be let through ~5 MB at once and again at 11 s (11.5 s, 1.9x the rate)."""
    now = [0]
    config = {"follower.replication.throttled.rate": 500_000}
    quota = ReplicationQuota(FOLLOWER, config, node_id=2, clock=lambda: now[0])
    overrides = {"follower.replication.throttled.replicas": ["0:2"]}
    moved, first_second = 0, 0
    while moved < 10_590_000:
        if not quota.should_throttle(overrides, 0, replica_in_sync=False):
            chunk = min(1 << 20, 10_590_000 - moved)
            quota.record(chunk)
            moved += chunk
            if now[0] < 1000:
                first_second += chunk
        now[0] += 10
    assert first_second <= 1 << 20  # one fetch, then held: no 10 s head start
    assert 19.0 <= now[0] / 1000 <= 23.0, now[0]
