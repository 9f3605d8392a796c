"""peers/jvm.py helpers that need no JVM: jar names, the Spark classpath filter, delta-spark's
Spark-version check."""

from __future__ import annotations

from pathlib import Path

import pytest

from peers import jvm


@pytest.mark.parametrize(
    ("jar", "artifact"),
    [
        ("jackson-core-2.13.5.jar", "jackson-core"),
        ("spark-sql-kafka-0-10_2.13-4.2.0.jar", "spark-sql-kafka"),
        ("kafka-clients-3.9.2.jar", "kafka-clients"),
        ("zstd-jni-1.5.7-3.jar", "zstd-jni"),
        ("peers-kafka.jar", "peers-kafka"),
        ("scala-library-2.13.17.jar", "scala-library"),
    ],
)
def test_artifact_name(jar: str, artifact: str) -> None:
    assert jvm._artifact(jar) == artifact


def _fake_libs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spark: str, delta: str) -> None:
    kafka_lib, delta_lib = tmp_path / "spark-kafka-lib", tmp_path / "delta-lib"
    kafka_lib.mkdir()
    delta_lib.mkdir()
    for name in (f"spark-sql-kafka-0-10_2.13-{spark}.jar", "kafka-clients-3.9.2.jar", "scala-library-2.13.15.jar"):
        (kafka_lib / name).touch()
    for name in (f"delta-spark_2.13-{delta}.jar", "delta-storage-4.4.0.jar", "jackson-core-2.13.5.jar"):
        (delta_lib / name).touch()
    monkeypatch.setattr(jvm, "SPARK_KAFKA_LIB", kafka_lib)
    monkeypatch.setattr(jvm, "DELTA_LIB", delta_lib)


def test_spark_jars_leave_out_what_pyspark_ships(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pyspark")
    _fake_libs(tmp_path, monkeypatch, "4.2.0", "4.4.0")
    names = [Path(j).name for j in jvm.spark_jars(kafka=True, delta=True)]
    # pyspark ships Scala and Jackson: two versions on one classpath break Spark
    assert "scala-library-2.13.15.jar" not in names and "jackson-core-2.13.5.jar" not in names
    assert {"spark-sql-kafka-0-10_2.13-4.2.0.jar", "kafka-clients-3.9.2.jar", "delta-spark_2.13-4.4.0.jar"} <= set(
        names
    )
    assert not any("delta" in n for n in jvm.spark_jars(kafka=True, delta=False))
    assert not any("kafka" in n for n in jvm.spark_jars(kafka=False, delta=True))
    assert jvm.spark_peer_versions() == {"spark": "4.2.0", "delta": "4.4.0"}


def test_delta_spark_only_in_the_spark_minor_it_was_built_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pyspark = pytest.importorskip("pyspark")
    running = ".".join(pyspark.__version__.split(".")[:2])
    _fake_libs(tmp_path, monkeypatch, f"{running}.9", "9.9.9")
    assert jvm.delta_spark_usable() is None
    conf = jvm.spark_conf(kafka=False, delta=True)
    assert conf["spark.sql.extensions"] == "io.delta.sql.DeltaSparkSessionExtension"
    monkeypatch.setattr(jvm, "SPARK_KAFKA_LIB", tmp_path / "other")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "spark-sql-kafka-0-10_2.13-1.0.0.jar").touch()
    reason = jvm.delta_spark_usable()
    assert reason is not None and "built for Spark 1.0" in reason
    with pytest.raises(jvm.PeersMissing, match="built for Spark 1.0"):
        jvm.spark_conf(kafka=True, delta=True)


def test_random_cluster_id_never_starts_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    """kafka-storage format -t <id> reads an id starting with '-' as an option (seen in CI)."""
    import uuid

    dash_first = uuid.UUID(bytes=bytes([0xF8]) + bytes(15))  # base64url of 0xF8... is "-..."
    draws = iter([dash_first, uuid.UUID(int=1)])
    monkeypatch.setattr(jvm.uuid, "uuid4", lambda: next(draws))
    cluster_id = jvm._random_cluster_id()
    assert not cluster_id.startswith("-") and len(cluster_id) == 22
