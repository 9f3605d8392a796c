"""Replication throttle during a reassignment: does `--throttle R` hold the move's rate near R?

    python -m bench.reassign_throttle [--runs 3] [--rate 500000] [--mb 10]

A one-partition topic holding --mb MB (1 KiB values, no compression) on broker a moves to broker b
with leader/follower.replication.throttled.rate = --rate B/s on every broker and the topic's
leader/follower.replication.throttled.replicas naming the move (what `kafka-reassign-partitions
--throttle` sets). Time from AlterPartitionReassignments (45) to the reassignment's completion (the
partition's replicas are [b]); move rate = the log's size (DescribeLogDirs on a) / that time.
Kafka's sampled rate admits about rate x 10 s at first (11 one-second windows), and the first
fetch past the quota is still answered whole (up to replica.fetch.max.bytes), so the move must be
many windows long for the rate to show. Ours (EmbeddedCluster(3, controllers=1)) and Apache Kafka
4.3.1 (3 combined nodes) are run interleaved; prints the runs, their median and min-max.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from collections.abc import Callable
from typing import Any

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic

from bench.report import load_average
from broker_embedded import EmbeddedCluster
from kafka_wire.protocol.messages import alter_partition_reassignments_request as apr
from kafka_wire.protocol.messages import describe_log_dirs_request as dld
from peers import jvm
from tests.integration import wire_util as w


def _wait(pred: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


def _set(admin: AdminClient, resource: ConfigResource, values: dict[str, str | None]) -> None:
    entries = [
        ConfigEntry(k, v or "", incremental_operation=AlterConfigOpType.SET if v else AlterConfigOpType.DELETE)
        for k, v in values.items()
    ]
    res = ConfigResource(resource.restype, resource.name, incremental_configs=entries)
    for f in admin.incremental_alter_configs([res]).values():
        f.result(30)


def move_once(bootstrap: str, rate: int, size_mb: int) -> dict[str, float]:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    md = admin.list_topics(timeout=10)
    brokers = {b.id: f"{b.host}:{b.port}" for b in md.brokers.values()}
    a, b = sorted(brokers)[:2]
    topic = f"throttle-{uuid.uuid4().hex[:8]}"
    admin.create_topics([NewTopic(topic, 1, replica_assignment=[[a]])])[topic].result(30)
    p = Producer({"bootstrap.servers": bootstrap, "acks": 1, "linger.ms": 20, "compression.type": "none"})
    payload = uuid.uuid4().bytes * 64
    for _ in range(size_mb * 1024):
        p.produce(topic, payload, partition=0)
        p.poll(0)
    assert p.flush(60) == 0
    conn = w.connect(brokers[a])
    try:
        r = conn.request(35, dld.DescribeLogDirsRequest(topics=[dld.DescribableLogDirTopic(topic, [0])]), 4)
        size = sum(q.partition_size for d in r.results for t in d.topics for q in t.partitions)
    finally:
        conn.close()
    for broker in brokers:
        _set(
            admin,
            ConfigResource("BROKER", str(broker)),
            {"leader.replication.throttled.rate": str(rate), "follower.replication.throttled.rate": str(rate)},
        )
    _set(
        admin,
        ConfigResource("TOPIC", topic),
        {"leader.replication.throttled.replicas": f"0:{a}", "follower.replication.throttled.replicas": f"0:{b}"},
    )
    time.sleep(1)  # the configs reach every broker (Apache: through its metadata log)
    conn = w.connect(bootstrap)
    try:
        req = apr.AlterPartitionReassignmentsRequest(
            topics=[apr.ReassignableTopic(topic, [apr.ReassignablePartition(0, [b])])]
        )
        start = time.monotonic()
        resp = conn.request(45, req, 0)
        assert resp.error_code == 0 and all(q.error_code == 0 for t in resp.responses for q in t.partitions), resp
    finally:
        conn.close()

    def done() -> bool:
        parts = admin.list_topics(topic, timeout=10).topics[topic].partitions
        return list(parts[0].replicas) == [b]

    _wait(done, 600, "move completed")
    took = time.monotonic() - start
    for broker in brokers:
        _set(
            admin,
            ConfigResource("BROKER", str(broker)),
            {"leader.replication.throttled.rate": None, "follower.replication.throttled.rate": None},
        )
    admin.delete_topics([topic])
    return {"bytes": size, "seconds": took, "rate": size / took}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rate", type=int, default=500_000)
    ap.add_argument("--mb", type=int, default=10)
    args = ap.parse_args(argv)
    print(f"load at start: {load_average()}")
    results: dict[str, list[dict[str, float]]] = {"ours": [], "apache": []}
    with EmbeddedCluster(brokers=3, controllers=1) as ours, jvm.ApacheKafka(3, num_partitions=1) as apache:
        clusters: dict[str, Any] = {"ours": ours, "apache": apache}
        for run in range(args.runs):
            for name, c in clusters.items():
                got = move_once(c.bootstrap_servers, args.rate, args.mb)
                results[name].append(got)
                print(
                    f"run {run + 1} {name}: {got['bytes'] / 1e6:.2f} MB in {got['seconds']:.1f} s = "
                    f"{got['rate'] / 1e3:.0f} KB/s ({got['rate'] / args.rate:.2f} x the throttle)",
                    flush=True,
                )
    for name, runs in results.items():
        ratios = [r["rate"] / args.rate for r in runs]
        print(
            f"{name}: move rate / throttle median {statistics.median(ratios):.2f}, "
            f"min-max {min(ratios):.2f}-{max(ratios):.2f} over {len(runs)} runs"
        )
    print(f"load at end: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
