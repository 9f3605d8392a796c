"""examples/pipelines/kafka_to_delta, the Spark Declarative Pipelines example (issue 33), run as a
user runs it: `spark-pipelines run` in the project directory, the `pykafka` source into a
`pykafka-delta` sink (`dp.create_sink`), then the table read back with delta-rs: every record once."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from broker_embedded import EmbeddedBroker
from tests.spark.source_helpers import create_topic, mixed_records, produce

pytestmark = [pytest.mark.timeout(1200), pytest.mark.slow]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pipelines" / "kafka_to_delta"
SPARK_PIPELINES = Path(sys.executable).parent / "spark-pipelines"


def _project(tmp_path: Path, bootstrap: str, topic: str) -> tuple[Path, Path]:
    """The example copied, its spec pointed at this broker, topic, table and storage."""
    project = tmp_path / "pipeline"
    shutil.copytree(EXAMPLE, project)
    table = tmp_path / "events_delta"
    spec = project / "spark-pipeline.yml"
    text = spec.read_text()
    for old, new in (
        ('"127.0.0.1:9092"', f'"{bootstrap}"'),
        ('"events"', f'"{topic}"'),
        ('"/tmp/pykafka-pipeline/events_delta"', f'"{table}"'),
        ("file:///tmp/pykafka-pipeline/storage", f"file://{tmp_path / 'storage'}"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    spec.write_text(text)
    return project, table


def test_spark_pipelines_run_kafka_to_delta(broker: EmbeddedBroker, tmp_path: Path) -> None:
    pytest.importorskip("pyspark.pipelines")
    pytest.importorskip("yaml", reason="spark-pipelines needs pyspark[pipelines] (the `pipelines` extra)")
    topic = "pipeline-events"
    create_topic(broker, topic, 3)
    acked = produce(broker, topic, mixed_records(300, 3, seed=11))
    project, table = _project(tmp_path, broker.bootstrap_servers, topic)
    env = dict(
        os.environ, PYSPARK_PYTHON=sys.executable, PATH=f"{SPARK_PIPELINES.parent}{os.pathsep}{os.environ['PATH']}"
    )
    env.pop("PYSPARK_DRIVER_PYTHON", None)
    out = subprocess.run(
        [str(SPARK_PIPELINES), "run"], cwd=project, env=env, capture_output=True, text=True, timeout=1100
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-5000:]
    assert "Flow kafka_events" in out.stdout + out.stderr

    from deltalake import DeltaTable

    rows = DeltaTable(str(table)).to_pyarrow_table(columns=["topic", "partition", "offset"])
    positions = set(zip(rows.column("partition").to_pylist(), rows.column("offset").to_pylist(), strict=True))
    assert rows.num_rows == len(acked) == len(positions)
    assert positions == {(r.partition, r.offset) for r in acked}
