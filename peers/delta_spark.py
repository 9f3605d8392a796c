"""delta-spark as a peer, run in its own Python (``peers/target/delta-venv``, pyspark matching the
Spark that delta-spark was built for) so it never shares a JVM with the tests' SparkSession.

    python -m peers.delta_spark read PATH             -> JSON: rows, version, txns, history
    python -m peers.delta_spark stream PATH           -> JSON: rows seen by readStream.format("delta")
    python -m peers.delta_spark read-stream PATH      -> read's JSON plus "stream_rows" (one JVM for both)
    python -m peers.delta_spark append PATH N K TAG   -> K delta-spark commits of N rows each
    python -m peers.delta_spark kafka-to-delta PATH BOOTSTRAP TOPIC MAX_PER_TRIGGER
        -> Spark's Kafka source into delta-spark through foreachBatch with txnAppId/txnVersion
           (Delta's idempotent-writes recipe), Trigger.AvailableNow; rows and seconds

Prints one JSON object on the last line of stdout. :func:`run` calls it from the tests/bench.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
DELTA_VENV = REPO_ROOT / "peers" / "target" / "delta-venv"
DELTA_PYTHON = DELTA_VENV / "bin" / "python"


def available() -> str | None:
    """None when the delta-spark peer can run, else why not."""
    if not DELTA_PYTHON.exists():
        return f"{DELTA_VENV} is missing: run ./scripts/setup.sh"
    from peers import jvm

    if jvm.spark_peer_versions()["delta"] is None:
        return f"delta-spark is not in {jvm.DELTA_LIB}: run ./scripts/setup.sh"
    return None


def run(*args: str, timeout: float = 300.0) -> dict[str, Any]:
    """Run one command in the delta venv; its JSON result (raises with the output on failure)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["PYSPARK_PYTHON"] = str(DELTA_PYTHON)
    env["PYSPARK_DRIVER_PYTHON"] = str(DELTA_PYTHON)
    env.pop("SPARK_HOME", None)
    # the suite's Spark CDS archive (peers/cds.py) is for the main venv's pyspark jars: another classpath
    # would silently run this JVM without any class sharing at all
    opts = [o for o in env.get("SPARK_SUBMIT_OPTS", "").split() if not o.startswith("-XX:SharedArchiveFile=")]
    env["SPARK_SUBMIT_OPTS"] = " ".join(opts)
    proc = subprocess.run(
        [str(DELTA_PYTHON), "-m", "peers.delta_spark", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=str(REPO_ROOT),
        stdin=subprocess.DEVNULL,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(
            f"delta-spark {' '.join(args)} exited {proc.returncode}\n--- stdout ---\n{proc.stdout[-3000:]}\n"
            f"--- stderr ---\n{proc.stderr[-6000:]}"
        )
    return json.loads(lines[-1])


def popen(*args: str) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), PYSPARK_PYTHON=str(DELTA_PYTHON))
    env["PYSPARK_DRIVER_PYTHON"] = str(DELTA_PYTHON)
    return subprocess.Popen(
        [str(DELTA_PYTHON), "-m", "peers.delta_spark", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=str(REPO_ROOT),
        stdin=subprocess.DEVNULL,
    )


# --- inside the delta venv ------------------------------------------------------------------------


def _session(kafka: bool = False) -> Any:
    from peers import jvm

    return jvm.spark_with(
        kafka=kafka,
        delta=True,
        master="local[1]",
        **{
            "spark.driver.memory": "1g",
            "spark.sql.shuffle.partitions": "1",
            "spark.databricks.delta.snapshotPartitions": "1",
        },
    )


def _transactions(spark: Any, path: str) -> dict[str, int]:
    """The table's app transactions (appId -> version) as delta-spark's snapshot holds them."""
    jvm = spark.sparkContext._jvm
    delta_log = jvm.org.apache.spark.sql.delta.DeltaLog.forTable(spark._jsparkSession, path)
    txns = delta_log.unsafeVolatileSnapshot().transactions()
    java_map = jvm.scala.jdk.javaapi.CollectionConverters.asJava(txns)
    return {str(k): int(java_map.get(k)) for k in java_map.keySet()}


def _read(path: str, spark: Any = None) -> dict[str, Any]:
    own_session = spark is None
    spark = spark or _session()
    df = spark.read.format("delta").load(path)
    rows = df.count()
    history = spark.sql(f"DESCRIBE HISTORY delta.`{path}`").select("version", "operation").collect()
    out: dict[str, Any] = {
        "rows": rows,
        "columns": df.columns,
        "version": max(h["version"] for h in history),
        "versions": sorted(h["version"] for h in history),
        "operations": sorted({h["operation"] for h in history}),
        "txns": _transactions(spark, path),
    }
    if "offset" in df.columns and "partition" in df.columns:
        dup = df.groupBy("topic", "partition", "offset").count().where("count > 1").count()
        out["duplicate_positions"] = dup
    if "topic" in df.columns:
        out["by_topic"] = {r["topic"]: r["count"] for r in df.groupBy("topic").count().collect()}
    if own_session:
        spark.stop()
    return out


def _stream(path: str, spark: Any = None) -> dict[str, Any]:
    own_session = spark is None
    spark = spark or _session()
    cp = tempfile.mkdtemp(prefix="delta-stream-cp-")
    q = (
        spark.readStream.format("delta")
        .load(path)
        .writeStream.format("memory")
        .queryName("delta_peer_stream")
        .option("checkpointLocation", cp)
        .trigger(availableNow=True)
        .start()
    )
    q.awaitTermination(240)
    rows = spark.table("delta_peer_stream").count()
    if own_session:
        spark.stop()
    return {"rows": rows}


def _read_and_stream(path: str) -> dict[str, Any]:
    """read and stream in one session: a delta-spark JVM start costs more than both queries."""
    spark = _session()
    out = _read(path, spark)
    out["stream_rows"] = _stream(path, spark)["rows"]
    spark.stop()
    return out


def _append(path: str, n: int, k: int, tag: str) -> dict[str, Any]:
    """K appends of N rows each, shaped like the table (a Kafka-record table gets topic=TAG,
    partition -1 and offsets 0..), each its own delta-spark commit."""
    from pyspark.sql.functions import col

    spark = _session()
    schema = spark.read.format("delta").load(path).schema
    names = {f.name for f in schema}
    t0 = time.monotonic()
    for i in range(k):
        df = spark.range(i * n, (i + 1) * n)
        if {"topic", "partition", "offset"} <= names:
            df = df.selectExpr(
                "cast(concat('k', id) AS binary) AS key",
                "cast(concat('v', id) AS binary) AS value",
                f"'{tag}' AS topic",
                "-1 AS partition",
                "id AS offset",
                "current_timestamp() AS timestamp",
                "0 AS timestampType",
                "CAST(NULL AS array<struct<key: string, value: binary>>) AS headers",
            )
        else:
            df = df.selectExpr("id", f"'{tag}' AS tag")
        df = df.select([col(f.name).cast(f.dataType) if f.name in df.columns else col(f.name) for f in schema])
        df.write.format("delta").mode("append").save(path)
    seconds = time.monotonic() - t0
    spark.stop()
    return {"commits": k, "rows": n * k, "seconds": seconds}


def _kafka_to_delta(path: str, bootstrap: str, topic: str, per_trigger: str) -> dict[str, Any]:
    spark = _session(kafka=True)
    app_id = f"bench-{os.getpid()}"

    def write(df: Any, batch_id: int, target: str) -> None:
        writer = df.write.format("delta").option("txnAppId", app_id).option("txnVersion", batch_id)
        writer.mode("append").save(target)

    def run_once(target: str) -> float:
        cp = tempfile.mkdtemp(prefix="delta-bench-cp-")
        reader = (
            spark.readStream.format("kafka")
            .option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic)
            .option("startingOffsets", "earliest")
        )
        if per_trigger != "0":
            reader = reader.option("maxOffsetsPerTrigger", per_trigger)
        t0 = time.perf_counter()
        stream = reader.load().writeStream.foreachBatch(lambda df, batch_id: write(df, batch_id, target))
        q = stream.option("checkpointLocation", cp).trigger(availableNow=True).start()
        q.awaitTermination(900)
        return time.perf_counter() - t0

    run_once(path + "-warmup")  # a warm JVM, as the other side's long-lived session has
    seconds = run_once(path)
    rows = spark.read.format("delta").load(path).count()
    spark.stop()
    return {"rows": rows, "seconds": seconds}


def main(argv: list[str]) -> int:
    cmd, path = argv[0], argv[1]
    if cmd == "read":
        result = _read(path)
    elif cmd == "stream":
        result = _stream(path)
    elif cmd == "read-stream":
        result = _read_and_stream(path)
    elif cmd == "kafka-to-delta":
        result = _kafka_to_delta(path, argv[2], argv[3], argv[4])
    elif cmd == "append":
        result = _append(path, int(argv[2]), int(argv[3]), argv[4])
    else:
        print(f"unknown command {cmd!r}", file=sys.stderr)
        return 2
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
