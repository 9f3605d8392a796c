"""The Spark workload whose classes go into the Spark CDS archive (peers/cds.py): what the tests' Spark
JVMs do -- a session with the local jars of Spark's Kafka connector and delta-spark, batch SQL with
Python and Arrow UDFs, Parquet and Delta writes, a Python data source (batch and streaming, as our
`pykafka` source is one) and a streaming query with checkpoints, then a clean stop.

    python -m peers.cds_spark_workload WORKDIR
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pyspark.sql import SparkSession
from pyspark.sql.datasource import DataSource, DataSourceReader, DataSourceStreamReader, InputPartition
from pyspark.sql.functions import col, udf
from pyspark.sql.streaming.datasource import ReadAllAvailable, ReadLimit, SupportsTriggerAvailableNow
from pyspark.sql.types import StructType

from peers.jvm import PeersMissing, spark_conf


class _Reader(DataSourceReader):
    def read(self, partition: InputPartition) -> Iterator[tuple[int, str]]:
        yield from ((i, f"v{i}") for i in range(5))


class _StreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    # the admission-control API and Trigger.AvailableNow, as the `pykafka` source implements them
    def initialOffset(self) -> dict:
        return {"offset": 0}

    def getDefaultReadLimit(self) -> ReadLimit:
        return ReadAllAvailable()

    def prepareForTriggerAvailableNow(self) -> None:
        pass

    def latestOffset(self, start: dict, limit: ReadLimit) -> dict:
        return {"offset": 10}

    def partitions(self, start: dict[str, int], end: dict[str, int]) -> list[InputPartition]:
        return [InputPartition((start["offset"], end["offset"]))]

    def read(self, partition: InputPartition) -> Iterator[tuple[int, str]]:
        lo, hi = partition.value
        yield from ((i, f"v{i}") for i in range(lo, hi))


class _Source(DataSource):
    @classmethod
    def name(cls) -> str:
        return "cds_workload"

    def schema(self) -> StructType | str:
        return "id long, value string"

    def reader(self, schema: StructType) -> DataSourceReader:
        return _Reader()

    def streamReader(self, schema: StructType) -> DataSourceStreamReader:
        return _StreamReader()


def run(workdir: Path) -> None:
    try:
        conf = spark_conf(kafka=True, delta=True)
        delta = True
    except PeersMissing:
        conf, delta = {}, False
    builder = SparkSession.builder.master("local[2]").appName("pykafka-cds").config("spark.ui.enabled", "false")
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    try:
        spark.dataSource.register(_Source)
        df = spark.range(1000).withColumn("key", (col("id") % 7).cast("string"))
        plus_one: Any = udf(lambda v: v + 1, "long")
        df = df.withColumn("next", plus_one(col("id")))
        df.groupBy("key").count().collect()
        df.write.mode("overwrite").parquet(str(workdir / "parquet"))
        spark.read.parquet(str(workdir / "parquet")).toPandas()
        spark.createDataFrame(spark.range(10).toPandas()).mapInArrow(lambda batches: batches, "id long").collect()
        spark.read.format("cds_workload").load().collect()
        stream = spark.readStream.format("cds_workload").load()
        sink_format = "delta" if delta else "parquet"
        query = (
            stream.writeStream.format(sink_format)
            .option("checkpointLocation", str(workdir / "checkpoint"))
            .trigger(availableNow=True)
            .start(str(workdir / "table"))
        )
        query.awaitTermination(300)
        spark.read.format(sink_format).load(str(workdir / "table")).count()
        if delta:
            spark.sql(f"DESCRIBE HISTORY delta.`{workdir / 'table'}`").collect()
    finally:
        spark.stop()


if __name__ == "__main__":
    run(Path(sys.argv[1]))
