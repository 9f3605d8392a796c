"""One SparkSession for the whole test run (local mode, the venv's Python on both sides).

When the JVM peers are installed (scripts/setup.sh), that one session also carries Spark's own
Kafka connector (``format("kafka")``) and, when it can run in this pyspark, delta-spark, from the
local jars in peers/target/spark-kafka-lib and delta-lib. Tests that need them ask for
``spark_with(kafka=..., delta=...)``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator

import pytest

os.environ["PYSPARK_PYTHON"] = sys.executable
os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (the `spark` extra)")

from peers import jvm  # noqa: E402

# What the shared session was built with: {"kafka": bool, "delta": bool} and why a peer is missing.
SESSION_PEERS: dict[str, bool] = {"kafka": False, "delta": False}
MISSING: dict[str, str] = {}


def _peer_conf() -> dict[str, str]:
    if not jvm.spark_peers_available():
        reason = f"Spark's Kafka connector is not in {jvm.SPARK_KAFKA_LIB}: run ./scripts/setup.sh (needs mvn)"
        MISSING["kafka"] = MISSING["delta"] = reason
        return {}
    SESSION_PEERS["kafka"] = True
    reason = jvm.delta_spark_usable()
    if reason:
        MISSING["delta"] = reason
        return jvm.spark_conf(kafka=True, delta=False)
    SESSION_PEERS["delta"] = True
    return jvm.spark_conf(kafka=True, delta=True)


@pytest.fixture(scope="session")
def spark() -> Iterator[object]:
    from pyspark.sql import SparkSession

    builder = (
        SparkSession.builder.master("local[2]")
        .appName("pykafka-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.streaming.stopTimeout", "10s")
    )
    for key, value in _peer_conf().items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("WARN")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def spark_with(spark: object) -> Callable[..., object]:
    """``spark_with(kafka=True, delta=False)`` -> the shared session, or skip (fail under CI for
    Kafka's connector) when it lacks a requested peer."""

    def get(kafka: bool = True, delta: bool = False) -> object:
        for peer, wanted in (("kafka", kafka), ("delta", delta)):
            if wanted and not SESSION_PEERS[peer]:
                if os.environ.get("CI") and peer == "kafka":
                    pytest.fail(MISSING[peer])
                pytest.skip(MISSING[peer])
        return spark

    return get
