"""The executor read path freezes what a Python worker has loaded, once per process.

pyspark's daemon runs a full gc.collect() in a reused worker after every task; with pyspark, pyarrow
and pandas loaded that walked ~80k objects (~50 ms of CPU) per task of a micro-batch. Run in a fresh
interpreter: freezing the pytest process would change the GC of every later test.
"""

from __future__ import annotations

import json
import subprocess
import sys

CODE = """
import gc, json
from connector.client_config import ClientConfig
from connector.source.input_partition import KafkaInputPartition, ReadSpec
from connector.source.partition_reader import freeze_gc_once, read_partition

before = len(gc.get_objects())
spec = ReadSpec(ClientConfig(bootstrap_servers="127.0.0.1:1"), False, True, 1000, 0, 10)
empty = KafkaInputPartition("t", 0, 5, 5, spec)  # nothing to fetch: no connection is made
assert list(read_partition(empty)) == []
frozen = gc.get_freeze_count()
tracked = len(gc.get_objects())
again = freeze_gc_once()
assert list(read_partition(empty)) == []


class Node:
    pass


a, b = Node(), Node()
a.other, b.other = b, a  # a cycle created after the freeze is still collected
del a, b
print(json.dumps({"before": before, "frozen": frozen, "tracked": tracked, "again": again,
                  "frozen_after": gc.get_freeze_count(), "collected": gc.collect()}))
"""


def test_first_read_freezes_once_and_later_garbage_is_collected() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["before"] > 20_000  # pyspark + pyarrow + the read path
    assert r["frozen"] >= r["before"] // 2
    assert r["tracked"] < 2_000  # what the next gc.collect() walks
    assert r["again"] is False
    assert r["frozen_after"] == r["frozen"]
    assert r["collected"] >= 2


SINK_CODE = """
import gc, json
from pyspark.sql.types import BinaryType, StructField, StructType
from connector.sink.writer import PykafkaBatchWriter, parse_sink_options, validate_sink_schema

config = parse_sink_options({"kafka.bootstrap.servers": "127.0.0.1:1", "topic": "t"})
columns = validate_sink_schema(StructType([StructField("value", BinaryType())]), "t")
before = gc.get_freeze_count()
written = PykafkaBatchWriter(config, columns).write(iter([])).records  # no rows: nothing is sent
print(json.dumps({"before": before, "frozen": gc.get_freeze_count(), "written": written}))
"""


def test_the_sink_write_path_freezes_too() -> None:
    # The same per-task collection hits the sinks' reused workers (22 ms of CPU per task measured
    # with the sinks loaded, session 12).
    out = subprocess.run([sys.executable, "-c", SINK_CODE], capture_output=True, text=True, timeout=120, check=True)
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["before"] == 0
    assert r["frozen"] > 20_000
    assert r["written"] == 0
