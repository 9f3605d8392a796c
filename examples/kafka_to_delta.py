"""Kafka -> Delta, exactly once: a Spark streaming query from the `pykafka` source to the
`pykafka-delta` sink, as a script for ``spark-submit`` (or plain ``python``).

    spark-submit --master 'local[2]' examples/kafka_to_delta.py \\
        --bootstrap-servers 127.0.0.1:9092 --topic events \\
        --table /data/events_delta --checkpoint /data/events_checkpoint \\
        --trigger available-now            # or e.g. --trigger "10 seconds"

Each micro-batch becomes one Delta commit that also records, per Kafka partition, the next offset
to read (`offsets.delta_store`); a restarted query (same checkpoint) neither skips nor repeats
records. It prints one JSON line when the query has started (``{"event": "started", ...}``) and,
for ``available-now``, one when it has caught up (``{"event": "done", "committed": ...}``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bootstrap-servers", required=True, help="Kafka bootstrap servers, host:port[,host:port]")
    p.add_argument("--topic", required=True, help="topic (or comma-separated topics) to read")
    p.add_argument("--table", required=True, help="Delta table directory")
    p.add_argument("--checkpoint", required=True, help="Spark checkpoint directory of the query")
    p.add_argument(
        "--trigger",
        default="available-now",
        help="'available-now' (process what is there, then stop) or a processing-time interval such as '5 seconds'",
    )
    p.add_argument("--starting-offsets", default="earliest", help="where a new query starts: earliest or latest")
    p.add_argument("--max-offsets-per-trigger", type=int, default=None, help="records per micro-batch at most")
    p.add_argument("--partition-by", default=None, help="Delta partition columns, e.g. 'partition'")
    p.add_argument("--master", default=None, help="Spark master when run with plain python (spark-submit sets it)")
    p.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE", help="extra Spark settings")
    p.add_argument("--timeout", type=float, default=None, help="stop a processing-time query after this many seconds")
    args = p.parse_args(argv)
    if args.trigger != "available-now" and not any(ch.isdigit() for ch in args.trigger):
        p.error(f"--trigger must be 'available-now' or an interval such as '5 seconds', got {args.trigger!r}")
    return args


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}, sort_keys=True), flush=True)


def main(argv: list[str] | None = None, prepare: Callable[[Any], None] | None = None) -> int:
    """Run the query; `prepare` is called with the SparkSession before the query starts (the crash
    test registers a data source with fault points there: tests/spark/delta_crash_query.py)."""
    args = parse_args(argv)
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pykafka-kafka-to-delta")
    if args.master:
        builder = builder.master(args.master)
    for item in args.conf:
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"--conf takes KEY=VALUE, got {item!r}")
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    if prepare is not None:
        prepare(spark)

    reader = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", args.bootstrap_servers)
        .option("subscribe", args.topic)
        .option("startingOffsets", args.starting_offsets)
        .option("includeHeaders", "true")
    )
    if args.max_offsets_per_trigger:
        reader = reader.option("maxOffsetsPerTrigger", str(args.max_offsets_per_trigger))
    writer = reader.load().writeStream.format("pykafka-delta").option("checkpointLocation", args.checkpoint)
    if args.partition_by:
        writer = writer.option("partitionBy", args.partition_by)
    if args.trigger == "available-now":
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(processingTime=args.trigger)
    from connector.checkpoint import discard_unfinished_first_batch
    from offsets.delta_store import _local_path

    # a driver killed while Spark wrote the first batch's offsets leaves a temporary file that Spark 4 refuses
    # to restart over (STATE_STORE_CHECKPOINT_LOCATION_NOT_EMPTY); a remote checkpoint is left to Spark
    if _local_path(args.checkpoint) is not None:
        discard_unfinished_first_batch(args.checkpoint)
    query = writer.start(args.table)
    emit("started", query_id=query.id, run_id=query.runId, table=args.table)
    try:
        query.awaitTermination(args.timeout)
    finally:
        if query.isActive:
            query.stop()
    if query.exception() is not None:
        emit("failed", error=str(query.exception()))
        return 1

    from offsets.delta_store import DeltaOffsetStore

    partitions = _partitions(spark, args)
    committed = DeltaOffsetStore(args.table, query.id).committed(partitions)
    emit("done", query_id=query.id, committed={f"{t}:{p}": o for (t, p), o in sorted(committed.items())})
    spark.stop()
    return 0


def _partitions(spark: Any, args: argparse.Namespace) -> list[tuple[str, int]]:
    """The topics' partitions, from the broker's metadata."""
    from confluent_kafka.admin import AdminClient

    metadata = AdminClient({"bootstrap.servers": args.bootstrap_servers}).list_topics(timeout=10)
    out = []
    for topic in args.topic.split(","):
        described = metadata.topics.get(topic.strip())
        if described is not None:
            out.extend((topic.strip(), p) for p in described.partitions)
    return sorted(out)


if __name__ == "__main__":
    sys.exit(main())
