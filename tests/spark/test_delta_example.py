"""examples/kafka_to_delta.py as a user runs it: `spark-submit` (its own Spark driver) against an
embedded broker, Trigger.AvailableNow, then the table and its committed offsets are checked."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from broker_embedded import EmbeddedBroker
from examples.query_process import FAST_LOCAL_CONF, REPO_ROOT
from offsets.delta_store import DeltaOffsetStore
from tests.spark.delta_helpers import delta_rs_table, duckdb_query, positions
from tests.spark.proc_helpers import communicate_in_own_session
from tests.spark.source_helpers import create_topic, mixed_records, produce

pytestmark = pytest.mark.timeout(300)


def test_spark_submit_kafka_to_delta(broker: EmbeddedBroker, topic_name: str, tmp_path: Path) -> None:
    create_topic(broker, topic_name, 3)
    acked = produce(broker, topic_name, mixed_records(300, 3, seed=8))
    table, checkpoint = tmp_path / "table", tmp_path / "ck"
    spark_submit = Path(sys.executable).parent / "spark-submit"
    conf = [arg for item in FAST_LOCAL_CONF for arg in ("--conf", item)]
    cmd = [str(spark_submit), "--master", "local[1]", *conf, str(REPO_ROOT / "examples" / "kafka_to_delta.py")]
    cmd += ["--bootstrap-servers", broker.bootstrap_servers, "--topic", topic_name, "--table", str(table)]
    cmd += ["--checkpoint", str(checkpoint), "--trigger", "available-now", "--max-offsets-per-trigger", "120"]
    cmd += ["--partition-by", "partition"]
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable}
    returncode, out, err = communicate_in_own_session(cmd, 240, cwd=tmp_path, env=env)
    assert returncode == 0, err.decode(errors="replace")[-3000:]
    events = [json.loads(line) for line in out.decode().splitlines() if line.startswith("{")]
    assert [e["event"] for e in events] == ["started", "done"]
    ends = {(topic_name, p): 1 + max(r.offset for r in acked if r.partition == p) for p in range(3)}
    assert events[1]["committed"] == {f"{t}:{p}": o for (t, p), o in sorted(ends.items())}
    assert DeltaOffsetStore(str(table), events[0]["query_id"]).committed(ends) == ends
    expected = [(r.topic, r.partition, r.offset) for r in acked]
    assert positions(delta_rs_table(str(table))) == expected
    assert positions(duckdb_query(str(table), 'select topic, partition, "offset" from t')) == expected
