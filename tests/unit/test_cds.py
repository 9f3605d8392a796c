"""peers/cds.py hands a JVM its class-data-sharing archive only when the archive was built for this java
and these jars: a JVM given an archive of another classpath silently runs with no class sharing at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from peers import cds


@pytest.fixture
def cds_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(cds, "CDS_DIR", tmp_path)
    monkeypatch.setattr(cds, "_stamp", lambda name: f"stamp-of-{name}")
    return tmp_path


def test_the_option_names_an_archive_built_for_these_jars_only(cds_dir: Path) -> None:
    assert cds.archive_option("spark") is None  # not built
    (cds_dir / "spark.jsa").write_bytes(b"archive")
    assert cds.archive_option("spark") is None  # no stamp: not known what it was built for
    (cds_dir / "spark.stamp").write_text("stamp-of-an-older-pyspark\n")
    assert cds.archive_option("spark") is None  # stale
    (cds_dir / "spark.stamp").write_text("stamp-of-spark\n")
    assert cds.archive_option("spark") == f"-XX:SharedArchiveFile={cds_dir / 'spark.jsa'}"
    assert cds.archive_option("kafka") is None


def test_kafka_jvms_pick_the_archive_up_once_it_is_built(cds_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr(cds.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(cds, "_kafka_option", ())
    monkeypatch.setattr(cds, "_kafka_checked_at", float("-inf"))
    assert cds.kafka_jvm_opts() == ()
    (cds_dir / "kafka.jsa").write_bytes(b"archive")
    (cds_dir / "kafka.stamp").write_text("stamp-of-kafka\n")
    now[0] += 1.0
    assert cds.kafka_jvm_opts() == ()  # looked for again at most every 5 s
    now[0] += 5.0
    assert cds.kafka_jvm_opts() == (f"-XX:SharedArchiveFile={cds_dir / 'kafka.jsa'}",)


def test_the_stamp_changes_with_the_jars(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cds, "KAFKA_LIB", tmp_path)
    (tmp_path / "kafka-clients-4.3.1.jar").write_bytes(b"x")
    before = cds._stamp("kafka")
    (tmp_path / "kafka-clients-4.3.1.jar").write_bytes(b"xy")
    assert cds._stamp("kafka") != before
    with pytest.raises(ValueError, match="'spark' or 'kafka'"):
        cds._stamp("flink")
