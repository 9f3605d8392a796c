"""The exactly-once crash test's child driver: a Kafka -> Kafka streaming query (``pykafka`` source
-> ``pykafka`` sink, ``exactlyOnce`` on or off) in its own Spark driver, so the test can SIGKILL it.

    python -m tests.spark.eos_crash_query --bootstrap-servers H:P --source IN --sink OUT \\
        --checkpoint DIR [--mode exactly-once|at-least-once] [--trace FILE] [--commit-delay S] \\
        [--trigger available-now|'100 milliseconds'] [--max-offsets-per-trigger N]

With ``--trace`` every exactly-once task appends ``commit <batch> <partition> <records>`` or ``skip
<batch> <partition>`` (its transaction was committed before: a replay) to FILE, through the sink's
``TaskObserver`` hook, and sleeps up to ``--commit-delay`` seconds after a commit, so a kill can
land between the tasks' transactions and Spark logging the batch as done. Prints JSON lines:
``{"event": "started", "query_id": ...}`` and, for available-now, ``{"event": "done"}``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any

from pyspark.sql.datasource import DataSourceStreamWriter
from pyspark.sql.types import StructType

from connector.datasource import PyKafkaDataSource


def emit(event: str, **fields: Any) -> None:
    print(json.dumps({"event": event, **fields}, sort_keys=True), flush=True)


def traced_source(trace_path: str, delay_s: float) -> type[PyKafkaDataSource]:
    """``pykafka`` with a TaskObserver in its exactly-once writer. Defined in a function on
    purpose: classes Python cannot import by name are pickled by value into the workers."""

    class Trace:
        def _line(self, text: str) -> None:
            with open(trace_path, "a", encoding="utf-8") as f:
                f.write(text + "\n")

        def committed(self, batch_id: int, partition: int, records: int) -> None:
            self._line(f"commit {batch_id} {partition} {records}")
            if delay_s:
                time.sleep(random.uniform(0, delay_s))

        def skipped(self, batch_id: int, partition: int) -> None:
            self._line(f"skip {batch_id} {partition}")

    class TracedDataSource(PyKafkaDataSource):
        def streamWriter(self, schema: StructType, overwrite: bool) -> DataSourceStreamWriter:  # noqa: N802
            from connector.sink.transactional import create_exactly_once_stream_writer, exactly_once_requested

            if exactly_once_requested(self.options):
                return create_exactly_once_stream_writer(self.options, schema, Trace())
            return PyKafkaDataSource.streamWriter(self, schema, overwrite)

    return TracedDataSource


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bootstrap-servers", required=True)
    p.add_argument("--source", required=True)
    p.add_argument("--sink", required=True)
    p.add_argument("--checkpoint", required=True)
    p.add_argument("--mode", choices=["exactly-once", "at-least-once"], default="exactly-once")
    p.add_argument("--trace", default=None)
    p.add_argument("--commit-delay", type=float, default=0.0)
    p.add_argument("--trigger", default="available-now")
    p.add_argument("--max-offsets-per-trigger", type=int, default=None)
    p.add_argument("--master", default=None)
    p.add_argument("--conf", action="append", default=[])
    args = p.parse_args(argv)

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("pykafka-eos-crash")
    if args.master:
        builder = builder.master(args.master)
    for item in args.conf:
        key, _, value = item.partition("=")
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    if args.trace:
        spark.dataSource.register(traced_source(os.path.abspath(args.trace), args.commit_delay))

    reader = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", args.bootstrap_servers)
        .option("subscribe", args.source)
        .option("startingOffsets", "earliest")
    )
    if args.max_offsets_per_trigger:
        reader = reader.option("maxOffsetsPerTrigger", str(args.max_offsets_per_trigger))
    writer = (
        reader.load()
        .selectExpr("key", "value")
        .writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", args.bootstrap_servers)
        .option("topic", args.sink)
        .option("exactlyOnce", "true" if args.mode == "exactly-once" else "false")
        .option("checkpointLocation", args.checkpoint)
    )
    if args.trigger == "available-now":
        writer = writer.trigger(availableNow=True)
    else:
        writer = writer.trigger(processingTime=args.trigger)
    from connector.checkpoint import discard_unfinished_first_batch

    discard_unfinished_first_batch(args.checkpoint)  # as examples/kafka_to_delta.py: a kill in Spark's first write
    query = writer.start()
    emit("started", query_id=query.id)
    try:
        query.awaitTermination()
    finally:
        if query.isActive:
            query.stop()
    if query.exception() is not None:
        emit("failed", error=str(query.exception()))
        return 1
    emit("done", query_id=query.id)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
