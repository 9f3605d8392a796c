"""The main demo: Kafka -> Delta exactly once, through a crash.

Run with ``./scripts/demo.sh``. It

1. starts an embedded broker and produces sample events (keys, JSON values, headers) to a topic
   with several partitions;
2. runs the Spark streaming query ``pykafka`` -> ``pykafka-delta`` (examples/kafka_to_delta.py) in a
   child process with its own Spark driver, and kills that process group with SIGKILL in the middle
   of the run, as a crashed machine would die;
3. restarts the query from the same checkpoint and waits until every record is in the table;
4. prints the table's row count, the committed offsets per partition that the table itself holds
   (``offsets.delta_store``) next to the broker's high watermarks, the duplicates found, and the
   same checks done by an independent reader (DuckDB's delta extension).

Exit status 0 when the table holds every produced record exactly once.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from confluent_kafka import Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker_embedded import EmbeddedBroker
from examples.delta_check import duckdb_positions
from examples.query_process import QueryProcess
from offsets.delta_store import DeltaOffsetStore, query_id_from_checkpoint

TOPIC = "demo-events"


def produce_events(bootstrap: str, partitions: int, records: int) -> dict[int, int]:
    """Produce `records` events; returns acknowledged records per partition."""
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(TOPIC, num_partitions=partitions)])[TOPIC].result(timeout=10)
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "compression.type": "lz4", "acks": "all"})
    acked = dict.fromkeys(range(partitions), 0)

    def on_delivery(err: object, msg: object) -> None:
        if err is None:
            acked[msg.partition()] += 1  # type: ignore[attr-defined]

    for i in range(records):
        producer.produce(
            TOPIC,
            key=f"event-{i}".encode(),
            value=f'{{"user": "user-{i % 97}", "amount": {i % 1000}, "seq": {i}}}'.encode(),
            headers=[("source", b"demo")] if i % 2 == 0 else None,
            on_delivery=on_delivery,
        )
        if i % 1000 == 0:
            producer.poll(0)
    producer.flush(30)
    return acked


def high_watermarks(bootstrap: str, partitions: int) -> dict[int, int]:
    from confluent_kafka import Consumer

    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "demo-watermarks"})
    try:
        return {p: consumer.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=10)[1] for p in range(partitions)}
    finally:
        consumer.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Kafka -> Delta exactly once, through a crash")
    parser.add_argument("--records", type=int, default=4000)
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--workdir", default=None, help="keep the table and checkpoint here (default: a temp dir)")
    args = parser.parse_args(argv)

    workdir = Path(args.workdir or tempfile.mkdtemp(prefix="pykafka-demo-"))
    workdir.mkdir(parents=True, exist_ok=True)
    table, checkpoint = workdir / "events_delta", workdir / "checkpoint"
    t0 = time.perf_counter()
    with EmbeddedBroker(num_partitions=args.partitions) as broker:
        bootstrap = broker.bootstrap_servers
        print(f"embedded broker ready at {bootstrap} in {(time.perf_counter() - t0) * 1000:.0f} ms")
        acked = produce_events(bootstrap, args.partitions, args.records)
        total = sum(acked.values())
        print(f"produced {total} events to {TOPIC!r} ({args.partitions} partitions: {list(acked.values())})")

        common = ["--bootstrap-servers", bootstrap, "--topic", TOPIC, "--table", str(table)]
        common += ["--checkpoint", str(checkpoint)]
        # run 1 moves in small batches so that the kill lands mid-stream; run 2 catches up in one
        # (a micro-batch of pyspark's Python source costs ~1-2 s of fixed work, whatever its size)
        per_trigger = ["--max-offsets-per-trigger", str(max(1, total // 10))]
        log = workdir / "query.log"

        # Run 1: a processing-time query, killed with SIGKILL once a few batches are in.
        print("run 1: Spark streaming query pykafka -> pykafka-delta in a child process")
        run = QueryProcess([*common, *per_trigger, "--trigger", "500 milliseconds"], log).start()
        try:
            started = run.wait_event("started", timeout=180)
            query_id = started["query_id"]
            store = DeltaOffsetStore(str(table), query_id)
            deadline = time.monotonic() + 180
            while (store.batch_id(query_id) or -1) < 2 and time.monotonic() < deadline and run.alive:
                time.sleep(0.1)
            time.sleep(0.3)  # land somewhere inside the next batch
        finally:
            run.kill()
        in_table = sum(DeltaOffsetStore(str(table), query_id).committed([(TOPIC, p) for p in acked]).values())
        print(
            f"  killed the query's process group with SIGKILL after batch {store.batch_id(query_id)}: "
            f"{in_table}/{total} records committed so far"
        )

        # Run 2: the same checkpoint, Trigger.AvailableNow: catch up and stop.
        print("run 2: restarted from the same checkpoint (Trigger.AvailableNow)")
        run = QueryProcess([*common, "--trigger", "available-now"], log).start()
        try:
            run.wait_event("done", timeout=300)
            run.wait(60)
        finally:
            if run.alive:
                run.kill()
        print(f"  caught up; the query id is still {query_id_from_checkpoint(str(checkpoint))}")

        hw = high_watermarks(bootstrap, args.partitions)
    committed = DeltaOffsetStore(str(table), query_id).committed([(TOPIC, p) for p in acked])

    from deltalake import DeltaTable

    dt = DeltaTable(str(table))
    rows = dt.to_pyarrow_table(columns=["partition", "offset"])
    positions = set(zip(rows.column("partition").to_pylist(), rows.column("offset").to_pylist(), strict=True))
    duplicates = rows.num_rows - len(positions)
    print(f"\nDelta table {table} (version {dt.version()}), read with delta-rs:")
    print(f"  rows: {rows.num_rows} (produced {total}); duplicates: {duplicates}")
    print("  committed offsets per partition (Delta app transactions pykafka:<query id>:<topic>:<partition>):")
    for p in sorted(acked):
        print(f"    partition {p}: next offset {committed.get((TOPIC, p))}  (broker high watermark {hw[p]})")
    duck = duckdb_positions(str(table))
    print(
        f"independent reader (DuckDB delta extension): rows {duck['rows']}, distinct positions "
        f"{duck['distinct_positions']}, duplicated positions {duck['duplicated_positions']}, distinct keys "
        f"{duck['distinct_keys']}"
    )
    ok = (
        rows.num_rows == total
        and duplicates == 0
        and all(committed.get((TOPIC, p)) == hw[p] for p in acked)
        and duck["rows"] == total
        and duck["duplicated_positions"] == 0
        and duck["distinct_keys"] == total
    )
    verdict = "OK: every produced record is in the table exactly once" if ok else "MISMATCH: see above"
    print(f"\n{verdict} ({time.perf_counter() - t0:.1f} s)")
    if args.workdir is None and ok:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print(f"table, checkpoint and query log kept in {workdir}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
