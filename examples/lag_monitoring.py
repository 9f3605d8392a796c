"""Lag of a streaming query three ways: Kafka's tooling (`commitOffsetsToGroup`), `group_lag`, and
`LagListener`'s Prometheus endpoint, scraped over HTTP.

    .venv/bin/python -m examples.lag_monitoring

Starts an embedded broker, writes 300 records to a 3-partition topic, reads them with a stream that
commits each finished micro-batch to the consumer group `events-lag` (no membership), writes 60
more while the query is stopped, and prints what each tool reports. `run(spark, ...)` is what
tests/spark/test_commit_offsets_to_group.py calls with the shared SparkSession.
"""

from __future__ import annotations

import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from confluent_kafka import Producer
from kafka.admin import KafkaAdminClient

from broker_embedded import EmbeddedBroker
from connector.group_lag import group_lag
from connector.source.lag import LagListener


def _produce(bootstrap: str, topic: str, n: int, tag: str) -> None:
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(n):
        p.produce(topic, value=f"{tag}{i}".encode(), partition=i % 3)
    p.flush(30)


def run(spark: Any, bootstrap: str, work: Path, topic: str = "events", group: str = "events-lag") -> dict[str, str]:
    """The example; returns what it printed, by tool."""
    out: dict[str, str] = {}
    listener = LagListener(prometheus_port=0)  # /metrics on 127.0.0.1, a free port
    spark.streams.addListener(listener)
    try:
        _produce(bootstrap, topic, 300, "a")
        q = (
            spark.readStream.format("pykafka")
            .option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic)
            .option("startingOffsets", "earliest")
            .option("maxOffsetsPerTrigger", "120")
            .option("commitOffsetsToGroup", group)  # finished batches' end offsets go to this group
            .option("checkpointLocation", str(work / "ckpt"))  # names query and batch in the commit metadata
            .load()
            .writeStream.format("parquet")
            .queryName("events_to_parquet")
            .option("path", str(work / "events"))
            .option("checkpointLocation", str(work / "ckpt"))
            .start()
        )
        q.processAllAvailable()
        # the listener hears of progress asynchronously: wait until it has the query's last batch
        last_batch = max(p["batchId"] for p in q.recentProgress if p["numInputRows"] > 0)
        deadline = time.monotonic() + 30
        while not any(b >= last_batch for b, _ in listener.history(q.id)) and time.monotonic() < deadline:
            time.sleep(0.2)
        with urllib.request.urlopen(listener.metrics_url, timeout=5) as resp:  # what Prometheus scrapes
            text = resp.read().decode()
        out["metrics"] = "\n".join(line for line in text.splitlines() if line.startswith("pykafka_source_lag"))
        stats = listener.latest(q.id)
        out["listener"] = f"listener.latest(q.id) = {stats}"
        q.stop()
        _produce(bootstrap, topic, 60, "b")  # arrives while the query is down: lag in Kafka's tooling
        # what any Kafka admin client sees: the query's offsets and who committed them
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        try:
            got = admin.list_group_offsets(group)[group]  # kafka-python's listConsumerGroupOffsets
        finally:
            admin.close()
        out["committed"] = "\n".join(
            f"{tp.topic}-{tp.partition} offset={om.offset} metadata={om.metadata}" for tp, om in sorted(got.items())
        )
        lag = group_lag(bootstrap, group)
        out["group_lag"] = "\n".join(
            f"{p.topic}-{p.partition}: committed={p.committed} latest={p.latest} lag={p.lag}" for p in lag.partitions
        )
        out["group_lag"] += f"\nstate={lag.state} total_lag={lag.total_lag}"
    finally:
        spark.streams.removeListener(listener)
        listener.close()
    for name, text in out.items():
        print(f"--- {name}\n{text}")
    return out


def main() -> int:
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").config("spark.sql.shuffle.partitions", "2").getOrCreate()
    with tempfile.TemporaryDirectory() as tmp, EmbeddedBroker(Path(tmp) / "broker", num_partitions=3) as broker:
        run(spark, broker.bootstrap_servers, Path(tmp))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
