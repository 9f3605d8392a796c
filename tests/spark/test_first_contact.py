"""Issue 33, a new user's first contact: a job run by the venv's python without activating the venv
finds `format("pykafka")`; a missing topic fails a batch read and a stream at start as Spark's own
Kafka connector does (differential, same broker); an ending offset past the data is refused when
the read is planned instead of after the poll timeout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from pyspark.errors import StreamingQueryException

from broker_embedded import EmbeddedBroker
from tests.spark.source_helpers import create_topic, mixed_records, produce, source_options

pytestmark = [pytest.mark.timeout(300)]

REPO = Path(__file__).resolve().parents[2]
FORMATS = ["kafka", "pykafka"]


@pytest.fixture(scope="module")
def session(spark_with: Any) -> Any:
    s = spark_with(kafka=True)
    from connector.datasource import PyKafkaDataSource

    s.dataSource.register(PyKafkaDataSource)
    return s


@pytest.fixture(params=FORMATS)
def fmt(request: pytest.FixtureRequest) -> str:
    return request.param


def _missing_topic_error(fmt: str, message: str) -> None:
    # Spark's: org.apache.kafka.common.errors.UnknownTopicOrPartitionException; ours names the Kafka error
    expected = "UnknownTopicOrPartition" if fmt == "kafka" else "UNKNOWN_TOPIC_OR_PARTITION"
    assert expected in message, message[-2000:]


def test_missing_topic_fails_batch_read_at_start(session: Any, broker: EmbeddedBroker, fmt: str) -> None:
    topic = f"no-such-topic-{uuid.uuid4().hex[:8]}"
    t0 = time.monotonic()
    with pytest.raises(Exception) as e:
        session.read.format(fmt).options(**source_options(broker, subscribe=topic)).load().count()
    elapsed = time.monotonic() - t0
    _missing_topic_error(fmt, str(e.value))
    if fmt == "pykafka":
        assert topic in str(e.value)
        assert elapsed < 30, elapsed  # fetchOffset.numRetries=3 x 1 s, then the error


def test_missing_topic_fails_stream_at_start(session: Any, broker: EmbeddedBroker, fmt: str, tmp_path: Path) -> None:
    topic = f"no-such-topic-{uuid.uuid4().hex[:8]}"
    df = session.readStream.format(fmt).options(**source_options(broker, subscribe=topic)).load()
    q = df.writeStream.format("noop").option("checkpointLocation", str(tmp_path / "cp")).start()
    try:
        with pytest.raises(StreamingQueryException) as e:
            q.awaitTermination(120)
        _missing_topic_error(fmt, str(e.value))
    finally:
        q.stop()


def test_ending_offsets_past_the_data_refused_at_planning(session: Any, broker: EmbeddedBroker) -> None:
    topic = f"ending-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    produce(broker, topic, mixed_records(20, 2, seed=3))
    end = json.dumps({topic: {"0": 10_000, "1": -1}})
    reader = session.read.format("pykafka").options(**source_options(broker, subscribe=topic, endingOffsets=end))
    t0 = time.monotonic()
    with pytest.raises(Exception) as e:
        reader.load().count()
    assert time.monotonic() - t0 < 30  # it used to wait kafkaConsumer.pollTimeoutMs (120 s)
    message = str(e.value)
    assert f"{topic}-0 ends at 10000 but its latest offset is" in message, message[-2000:]
    # at the latest offsets exactly, the same read works
    ok = json.dumps({topic: {"0": -1, "1": -1}})
    opts = source_options(broker, subscribe=topic, endingOffsets=ok)
    assert session.read.format("pykafka").options(**opts).load().count() == 20


JOB = """
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
reader = spark.read.format("pykafka").option("kafka.bootstrap.servers", sys.argv[1])
n = reader.option("subscribe", sys.argv[2]).load().count()
print("COUNT", n)
spark.stop()
"""


def _path_without_venv() -> str:
    venv_bin = str(Path(sys.executable).parent)
    return os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != venv_bin)


def test_job_run_by_the_venv_python_without_activation(broker: EmbeddedBroker, tmp_path: Path) -> None:
    """`.venv/bin/python job.py` with PATH not holding .venv/bin and no PYSPARK_PYTHON: Spark starts
    its Python workers with PYSPARK_PYTHON, which the venv's .pth sets to the driver's interpreter."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    env["PATH"] = _path_without_venv()
    env.pop("PYTHONPATH", None)
    other = shutil.which("python3", path=env["PATH"])
    if other is not None:
        probe = subprocess.run([other, "-c", "import pyspark_pykafka"], capture_output=True, env=env, cwd="/")
        if probe.returncode == 0:
            pytest.skip(f"{other} (python3 on PATH) has pyspark_pykafka itself: the test could not fail")
    topic = f"unactivated-{uuid.uuid4().hex[:8]}"
    create_topic(broker, topic, 2)
    produce(broker, topic, mixed_records(30, 2, seed=5))
    job = tmp_path / "job.py"
    job.write_text(textwrap.dedent(JOB))
    out = subprocess.run(
        [sys.executable, str(job), broker.bootstrap_servers, topic],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=240,
    )  # fmt: skip
    assert "COUNT 30" in out.stdout, out.stdout[-2000:] + out.stderr[-4000:]
