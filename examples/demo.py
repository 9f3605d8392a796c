"""The quickstart demo: an embedded broker, a produce/consume round trip with confluent-kafka.

Run with ``./scripts/demo.sh``. It prints what it did: how fast the broker started, how many
records went in and came out per partition, and the offsets the broker reports.
"""

from __future__ import annotations

import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker

TOPIC = "demo-events"
PARTITIONS = 4
RECORDS = 20_000


def main() -> int:
    t0 = time.perf_counter()
    with EmbeddedBroker(num_partitions=PARTITIONS) as broker:
        started_ms = (time.perf_counter() - t0) * 1000
        print(
            f"embedded broker ready at {broker.bootstrap_servers} in {started_ms:.0f} ms (log dir {broker.log_dir})"
        )
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        admin.create_topics([NewTopic(TOPIC, num_partitions=PARTITIONS)])[TOPIC].result(timeout=10)
        print(f"created topic {TOPIC!r} with {PARTITIONS} partitions")

        producer = Producer(
            {
                "bootstrap.servers": broker.bootstrap_servers,
                "linger.ms": 5,
                "compression.type": "lz4",
                "acks": "all",
            }
        )
        acked = 0

        def on_delivery(err: object, _msg: object) -> None:
            nonlocal acked
            if err is None:
                acked += 1

        t1 = time.perf_counter()
        for i in range(RECORDS):
            producer.produce(
                TOPIC,
                key=f"user-{i % 100}".encode(),
                value=f'{{"event": {i}}}'.encode(),
                on_delivery=on_delivery,
            )
            if i % 10_000 == 0:
                producer.poll(0)
        producer.flush(30)
        produce_s = time.perf_counter() - t1
        print(f"produced {acked}/{RECORDS} records (lz4, acks=all, idempotent) in {produce_s:.2f} s")

        consumer = Consumer(
            {"bootstrap.servers": broker.bootstrap_servers, "group.id": "demo", "enable.auto.commit": False}
        )
        consumer.assign([TopicPartition(TOPIC, p, 0) for p in range(PARTITIONS)])
        per_partition = dict.fromkeys(range(PARTITIONS), 0)
        t2 = time.perf_counter()
        deadline = time.time() + 30
        while sum(per_partition.values()) < RECORDS and time.time() < deadline:
            for msg in consumer.consume(10_000, timeout=1):
                if msg.error() is None:
                    per_partition[msg.partition()] += 1
        consume_s = time.perf_counter() - t2
        total = sum(per_partition.values())
        print(f"consumed {total} records in {consume_s:.2f} s")
        for p in range(PARTITIONS):
            low, high = consumer.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=5)
            print(
                f"  partition {p}: {per_partition[p]} records, log start offset {low}, high watermark {high}"
            )
        consumer.close()
        ok = total == RECORDS == acked
        print("round trip OK" if ok else "round trip FAILED")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
