"""Kafka -> Delta as a Spark Declarative Pipeline: one append flow from the `pykafka` source into a
`pykafka-delta` sink (`dp.create_sink`). Each run of `spark-pipelines run` reads what the topic holds
since the last run and commits it to the table exactly once (the table records the Kafka offsets of
every micro-batch it holds, see offsets.delta_store). Settings come from the spec's `configuration`."""

from __future__ import annotations

from pyspark import pipelines as dp
from pyspark.sql import DataFrame, SparkSession

spark = SparkSession.active()
BOOTSTRAP = spark.conf.get("pykafka.example.bootstrap.servers", "127.0.0.1:9092")
TOPIC = spark.conf.get("pykafka.example.topic", "events")
TABLE = spark.conf.get("pykafka.example.table", "/tmp/pykafka-pipeline/events_delta")

dp.create_sink("events_delta", format="pykafka-delta", options={"path": TABLE})


@dp.append_flow(target="events_delta")
def kafka_events() -> DataFrame:
    return (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", BOOTSTRAP)
        .option("subscribe", TOPIC)
        .option("startingOffsets", "earliest")
        .option("includeHeaders", "true")
        .load()
    )
