"""Issue 15's round trip at scale, as a streaming query: confluent-kafka's AvroSerializer produces
records of a schema with every Avro type -> ``readStream.format("pykafka")`` -> ``from_confluent_avro``
-> ``writeStream.format("pykafka-delta")`` (Trigger.AvailableNow) -> read back with delta-rs and
compared field by field; then the subject's schema evolves (a new optional field), more records are
produced with it, and the same query (same checkpoint) continues with the new reader schema, the
Delta table gaining the column (mergeSchema)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastavro")
pytest.importorskip("deltalake")
pytest.importorskip("confluent_kafka.schema_registry")

import pyarrow as pa  # noqa: E402
from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from connector.avro import from_confluent_avro  # noqa: E402
from schema_registry import SchemaRegistry  # noqa: E402

from .avro_records import V1, V2, record  # noqa: E402
from .delta_helpers import delta_rs_table  # noqa: E402
from .source_helpers import create_topic, source_options  # noqa: E402

# the scale: 100,000 records with the first schema, then 20,000 with the evolved one
# (PYKAFKA_AVRO_STREAM_RECORDS scales it)
FIRST = int(os.environ.get("PYKAFKA_AVRO_STREAM_RECORDS", "100000"))
SECOND = max(FIRST // 5, 1)
PARTITIONS = 2


@pytest.fixture(scope="module")
def env() -> Iterator[tuple[EmbeddedBroker, SchemaRegistry]]:
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        yield b, sr


def _produce(b: EmbeddedBroker, topic: str, values: list[bytes]) -> None:
    p = Producer({"bootstrap.servers": b.bootstrap_servers, "linger.ms": 20, "batch.num.messages": 10000})
    for k, v in enumerate(values):
        while True:
            try:
                p.produce(topic, value=v, partition=k % PARTITIONS)
                break
            except BufferError:  # the local queue is full: let deliveries drain it
                p.poll(0.05)
    assert p.flush(60) == 0


def _run(spark: Any, b: EmbeddedBroker, sr: SchemaRegistry, topic: str, path: str, checkpoint: str) -> None:
    """One AvailableNow run of the query; the reader schema is the subject's latest when planned."""
    decoded = (
        spark.readStream.format("pykafka")
        .options(**source_options(b, subscribe=topic, startingOffsets="earliest"))
        .option("maxOffsetsPerTrigger", "50000")
        .load()
        .select(
            "topic", "partition", "offset", from_confluent_avro("value", sr.url, subject=f"{topic}-value").alias("v")
        )
        .select("topic", "partition", "offset", "v.*")
    )
    q = (
        decoded.writeStream.format("pykafka-delta")
        .option("checkpointLocation", checkpoint)
        .option("mergeSchema", "true")
        .trigger(availableNow=True)
        .start(path)
    )
    q.awaitTermination(240)
    assert q.exception() is None, q.exception()
    for progress in q.recentProgress:  # where the time went (shown with -s)
        print("batch", progress["batchId"], progress["numInputRows"], "rows", progress["durationMs"])


def _expected(name: str, value: Any) -> Any:
    if name == "un":  # a union of int and string is Spark's struct<member0, member1>
        return {"member0": value, "member1": None} if isinstance(value, int) else {"member0": None, "member1": value}
    return value


def _check(table: pa.Table, want: list[dict[str, Any]]) -> None:
    """The Delta table (as delta-rs reads it), sorted by id, against the records produced (``want``,
    in id order), field by field: each column equals the column built from the records' values."""
    table = table.sort_by("id")
    assert table.column("id").to_pylist() == [r["id"] for r in want]
    for name in want[0]:
        got = table.column(name).combine_chunks()
        expected = pa.array([_expected(name, r.get(name)) for r in want], type=got.type)
        if not got.equals(expected):
            bad = next(i for i, (g, e) in enumerate(zip(got.to_pylist(), expected.to_pylist(), strict=True)) if g != e)
            raise AssertionError(f"id {want[bad]['id']} field {name}: {got[bad]} != {expected[bad]}")


@pytest.mark.slow
@pytest.mark.timeout(420)
def test_streaming_round_trip_at_scale_with_evolution(spark: Any, env: Any, tmp_path: Path) -> None:
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    b, sr = env
    topic = "avro-stream"
    create_topic(b, topic, PARTITIONS)
    client = SchemaRegistryClient({"url": sr.url})
    ctx = SerializationContext(topic, MessageField.VALUE)
    path, checkpoint = str(tmp_path / "table"), str(tmp_path / "ck")
    times: dict[str, float] = {}

    t = time.monotonic()
    ser1 = AvroSerializer(client, json.dumps(V1))
    first = [record(k) for k in range(FIRST)]
    _produce(b, topic, [ser1(r, ctx) for r in first])
    times["produce v1"] = time.monotonic() - t

    t = time.monotonic()
    _run(spark, b, sr, topic, path, checkpoint)
    times["stream v1"] = time.monotonic() - t

    t = time.monotonic()
    table = delta_rs_table(path)
    assert table.num_rows == FIRST
    landed = set(zip(table.column("partition").to_pylist(), table.column("offset").to_pylist(), strict=True))
    assert landed == {(k % PARTITIONS, k // PARTITIONS) for k in range(FIRST)}  # each record once
    _check(table, first)
    times["check v1"] = time.monotonic() - t

    # the schema evolves; records of both versions are in the topic, the query continues from its checkpoint
    t = time.monotonic()
    ser2 = AvroSerializer(client, json.dumps(V2))
    second = [{**record(k), "added": k * 10} for k in range(FIRST, FIRST + SECOND)]
    _produce(b, topic, [ser2(r, ctx) for r in second])
    _run(spark, b, sr, topic, path, checkpoint)
    times["produce + stream v2"] = time.monotonic() - t

    t = time.monotonic()
    table = delta_rs_table(path)
    assert table.num_rows == FIRST + SECOND  # nothing read twice: the second run started where the first ended
    # old rows unchanged, the new column null for them; new rows with it
    _check(table, [{**r, "added": None} for r in first] + second)
    times["check v2"] = time.monotonic() - t
    print("avro stream timings (s):", {k: round(v, 1) for k, v in times.items()})
