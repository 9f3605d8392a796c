"""The README's Spark examples as one script, to run them unchanged on any deployment:

    spark-submit --master spark://host:7077 --py-files dist/pykafka_suite-0.1.0.zip \\
        examples/readme_examples.py --bootstrap-servers HOST:PORT --topic events --workdir /shared/dir
    python examples/readme_examples.py --remote sc://host:15002 --pyfiles dist/pykafka_suite-0.1.0.zip ...
    python examples/readme_examples.py --master 'local[2]' ...

It runs, in order, each snippet of README.md's "Spark", "Exactly-once into Delta" and "Group mode"
sections against the topic (which must already hold data): a batch read of the `pykafka` source, the
streaming `pykafka` -> `pykafka` pipeline (values upper-cased into `<topic>-upper-<run>`), the streaming
`pykafka` -> `pykafka-delta` pipeline, a batch `df.write.format("pykafka-delta")`, and a group-mode
query into a Delta table. Streaming queries use ``trigger(availableNow=True)`` so they end once caught
up. It prints one JSON line: per example, the row count and a digest of the sorted rows, so runs on
different deployments can be compared (``tests/spark/test_deploy_cluster.py``).

The package reaches the executors' Python workers as shipped: ``--py-files`` (spark-submit), or with
``--remote`` (Spark Connect) as a session artifact (``spark.addArtifacts(zip, pyfile=True)``); the
formats are registered with ``connector.register(spark)``, which shipped code needs (see README,
"Running on a Spark cluster").
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from typing import Any


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bootstrap-servers", required=True)
    p.add_argument("--topic", required=True, help="input topic, already holding records")
    p.add_argument("--workdir", required=True, help="directory for tables and checkpoints (shared by all nodes)")
    p.add_argument("--run", default="run", help="suffix of this run's output topic, tables and checkpoints")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--master", default=None, help="Spark master (spark-submit sets it)")
    where.add_argument("--remote", default=None, help="Spark Connect URL, sc://host:port")
    p.add_argument("--register", action="store_true", help="call connector.register(spark) (shipped code)")
    p.add_argument("--pyfiles", default=None, help="with --remote: the packed project zip to add as an artifact")
    return p.parse_args(argv)


def digest(rows: list[tuple]) -> dict[str, Any]:
    rows = sorted(rows)
    return {"count": len(rows), "sha256": hashlib.sha256(repr(rows).encode()).hexdigest()}


def session(args: argparse.Namespace) -> Any:
    from pyspark.sql import SparkSession

    import connector

    builder = SparkSession.builder.appName(f"pykafka-readme-{args.run}")
    if args.remote:
        spark = builder.remote(args.remote).getOrCreate()
        if args.pyfiles:
            # Spark Connect's way to ship Python code: a session artifact, put on the sys.path of every
            # Python worker of this session (the server's planner workers and the executors' workers)
            spark.addArtifacts(args.pyfiles, pyfile=True)
    else:
        if args.master:
            builder = builder.master(args.master)
        spark = builder.config("spark.sql.shuffle.partitions", "2").getOrCreate()
    if args.register:
        # code that is not installed in the driver's Python (a Connect artifact, --py-files alone) is not
        # seen by pyspark's data source discovery (`pyspark_pykafka`): register the formats explicitly
        connector.register(spark)
    return spark


def executor_connector_file(spark: Any) -> str:
    """Where an executor's Python worker imports `connector` from (a diagnostic for shipping)."""
    from pyspark.sql.functions import udf

    @udf("string")
    def connector_file() -> str:
        import connector

        return connector.__file__

    return spark.range(1).select(connector_file()).first()[0]


def table_rows(path: str, columns: list[str]) -> list[tuple]:
    from deltalake import DeltaTable

    data = DeltaTable(path).to_pyarrow_table(columns=columns).to_pylist()
    return [tuple(r[c] for c in columns) for r in data]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    spark = session(args)
    servers, topic, run = args.bootstrap_servers, args.topic, args.run
    work = os.path.abspath(args.workdir)
    out: dict[str, Any] = {"run": run}

    # README "Spark": batch read of the source
    df = (
        spark.read.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
    )
    rows = df.selectExpr("partition", "offset", "CAST(key AS STRING)", "CAST(value AS STRING)").collect()
    out["source_batch"] = digest([tuple(r) for r in rows])
    out["executor_connector_file"] = executor_connector_file(spark)

    # README "Spark": streaming source -> pykafka sink
    upper = f"{topic}-upper-{run}"
    df = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", 10_000)
        .load()
    )
    query = (
        df.selectExpr("key", "upper(CAST(value AS STRING)) AS value")
        .writeStream.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("topic", upper)
        .option("checkpointLocation", f"{work}/ckpt-upper-{run}")
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    assert query.exception() is None, query.exception()
    rows = (
        spark.read.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", upper)
        .load()
        .selectExpr("CAST(key AS STRING)", "CAST(value AS STRING)")
        .collect()
    )
    out["sink_stream"] = digest([tuple(r) for r in rows])

    # README "Exactly-once into Delta": streaming source -> pykafka-delta, then a batch df.write
    query = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .load()
        .writeStream.format("pykafka-delta")
        .option("checkpointLocation", f"{work}/ckpt-events-{run}")
        .option("partitionBy", "partition")
        .trigger(availableNow=True)
        .start(f"{work}/events-{run}")
    )
    query.awaitTermination()
    assert query.exception() is None, query.exception()
    out["delta_stream"] = digest(table_rows(f"{work}/events-{run}", ["partition", "offset", "value"]))
    df = spark.read.format("pykafka").option("kafka.bootstrap.servers", servers).option("subscribe", topic).load()
    df.write.format("pykafka-delta").mode("append").save(f"{work}/events-batch-{run}")
    out["delta_batch"] = digest(table_rows(f"{work}/events-batch-{run}", ["partition", "offset", "value"]))

    # README "Group mode": a query that is a member of a consumer group, exactly once into Delta
    group = f"billing-{run}"
    df = (
        spark.readStream.format("pykafka")
        .option("kafka.bootstrap.servers", servers)
        .option("subscribe", topic)
        .option("kafka.group.id", group)
        .option("groupMode", "true")
        .option("offsetsTable", f"{work}/billing-{run}")
        .option("startingOffsets", "earliest")
        .load()
    )
    query = (
        df.writeStream.format("pykafka-delta")
        .option("offsetsOwner", group)
        .option("checkpointLocation", f"{work}/ckpt-billing-{run}")
        .trigger(availableNow=True)
        .start(f"{work}/billing-{run}")
    )
    query.awaitTermination()
    assert query.exception() is None, query.exception()
    out["group_delta"] = digest(table_rows(f"{work}/billing-{run}", ["partition", "offset", "value"]))

    print(json.dumps(out, sort_keys=True), flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
