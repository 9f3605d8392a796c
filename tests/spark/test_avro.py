"""`connector.avro` in Spark: records produced by confluent-kafka's AvroSerializer (registered in our
schema registry) read with `format("pykafka")` and decoded by `from_confluent_avro` into exactly
Spark's types, field by field; schema evolution (old data read with the new reader schema); bad
input under FAILFAST and PERMISSIVE; plain `from_avro`/`to_avro` and `to_confluent_avro` round trips."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest

fastavro = pytest.importorskip("fastavro")
pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryClient  # noqa: E402
from confluent_kafka.schema_registry.avro import AvroDeserializer, AvroSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from connector.avro import from_avro, from_confluent_avro, to_avro, to_confluent_avro  # noqa: E402
from schema_registry import SchemaRegistry  # noqa: E402

from .avro_records import V1, V2, record  # noqa: E402
from .source_helpers import create_topic, source_options  # noqa: E402

pytestmark = pytest.mark.timeout(240)


@pytest.fixture(scope="module")
def env() -> Iterator[tuple[EmbeddedBroker, SchemaRegistry]]:
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        yield b, sr


def _produce(b: EmbeddedBroker, topic: str, values: list[bytes]) -> None:
    p = Producer({"bootstrap.servers": b.bootstrap_servers, "linger.ms": 5})
    for v in values:
        p.produce(topic, value=v)
    assert p.flush(30) == 0


def _expected(rec: dict[str, Any], with_added: bool) -> dict[str, Any]:
    out = dict(rec)
    out["tsm"] = rec["tsm"].replace(tzinfo=None)  # Spark hands back session-time naive datetimes
    out["tsu"] = rec["tsu"].replace(tzinfo=None)
    out["m"] = dict(rec["m"])
    un = rec["un"]
    out["un"] = {"member0": un, "member1": None} if isinstance(un, int) else {"member0": None, "member1": un}
    if with_added:
        out["added"] = rec.get("added")
    return out


def _rows(df: Any) -> list[dict[str, Any]]:
    return [None if r.v is None else r.v.asDict(recursive=True) for r in df.orderBy("offset").collect()]


def _delta_rows(path: str) -> dict[int, dict[str, Any]]:
    from deltalake import DeltaTable

    return {r["id"]: r for r in DeltaTable(path).to_pyarrow_table().to_pylist()}


def test_confluent_avro_round_trip_with_every_type_and_evolution(spark: Any, env: Any, tmp_path: Any) -> None:
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    b, sr = env
    topic = "avro-all"
    create_topic(b, topic, 1)
    client = SchemaRegistryClient({"url": sr.url})
    ctx = SerializationContext(topic, MessageField.VALUE)
    ser1 = AvroSerializer(client, json.dumps(V1))
    first = [record(k) for k in range(1500)]
    _produce(b, topic, [ser1(r, ctx) for r in first])

    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic)).load()
    decoded = df.select(
        "topic", "partition", "offset", from_confluent_avro("value", sr.url, subject=f"{topic}-value").alias("v")
    )
    got = _rows(decoded)
    assert got == [_expected(r, False) for r in first]
    # the decoded columns land in Delta (exactly once, per-partition offsets in the table's log)
    table = str(tmp_path / "avro_table")
    decoded.select("topic", "partition", "offset", "v.*").write.format("pykafka-delta").option(
        "offsetsOwner", "avro-test"
    ).mode("append").save(table)
    landed = _delta_rows(table)
    assert sorted(landed) == list(range(1500))
    for r in first[:50]:
        row = landed[r["id"]]
        assert (row["s"], row["dec"], row["fdec"], row["date"], row["u"], row["e"], row["fx"]) == (
            r["s"],
            r["dec"],
            r["fdec"],
            r["date"],
            r["u"],
            r["e"],
            r["fx"],
        )
        assert row["tsm"] == r["tsm"] and row["tsu"] == r["tsu"] and row["lts"] == r["lts"]
        assert dict(row["m"]) == r["m"] and row["a"] == r["a"] and row["nested"] == r["nested"]
    # the decoded values agree with confluent-kafka's own deserializer
    deser = AvroDeserializer(client)
    raw = [r.value for r in df.orderBy("offset").limit(3).collect()]
    assert [deser(bytes(v), ctx)["s"] for v in raw] == [r["s"] for r in first[:3]]

    # the subject evolves (a new optional field); old and new records read with the new reader schema
    ser2 = AvroSerializer(client, json.dumps(V2))
    second = [{**record(k), "added": k * 10} for k in range(1500, 2000)]
    _produce(b, topic, [ser2(r, ctx) for r in second])
    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic)).load()
    got = _rows(df.select("offset", from_confluent_avro("value", sr.url, subject=f"{topic}-value").alias("v")))
    assert len(got) == 2000
    assert got == [_expected(r, True) for r in first + second]
    # the new optional field flows to the table with mergeSchema=true
    decoded = df.select(
        "topic", "partition", "offset", from_confluent_avro("value", sr.url, subject=f"{topic}-value").alias("v")
    )
    decoded.where("offset >= 1500").select("topic", "partition", "offset", "v.*").write.format("pykafka-delta").option(
        "offsetsOwner", "avro-test"
    ).option("mergeSchema", "true").mode("append").save(table)
    landed = _delta_rows(table)
    assert sorted(landed) == list(range(2000))
    assert all(landed[k]["added"] is None for k in range(1500))
    assert all(landed[k]["added"] == k * 10 for k in range(1500, 2000))


def test_bad_input_failfast_and_permissive(spark: Any, env: Any) -> None:
    b, sr = env
    topic = "avro-bad"
    create_topic(b, topic, 1)
    client = SchemaRegistryClient({"url": sr.url})
    ctx = SerializationContext(topic, MessageField.VALUE)
    ser = AvroSerializer(client, json.dumps(V1))
    good = ser(record(7), ctx)
    bad = [
        b"\x07" + good[1:],  # no magic byte
        b"\x00\x00\x01\x86\xa0" + good[5:],  # unknown schema id 100000
        good[: len(good) // 2],  # truncated body
    ]
    _produce(b, topic, [good, *bad, good])
    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic)).load()
    got = _rows(
        df.select(
            "offset",
            from_confluent_avro("value", sr.url, reader_schema=json.dumps(V1), options={"mode": "PERMISSIVE"}).alias(
                "v"
            ),
        )
    )
    assert [r is None for r in got] == [False, True, True, True, False]
    assert got[0]["id"] == got[4]["id"] == 7
    with pytest.raises(Exception, match="partition 0 offset 1: not Confluent-framed Avro"):
        df.select(from_confluent_avro("value", sr.url, reader_schema=json.dumps(V1)).alias("v")).collect()
    with pytest.raises(Exception, match="partition 0 offset 2: .*schemas/ids/100000 answered 404"):
        df.where("offset >= 2").select(
            from_confluent_avro("value", sr.url, reader_schema=json.dumps(V1)).alias("v")
        ).collect()
    with pytest.raises(Exception, match="partition 0 offset 3"):
        df.where("offset >= 3").select(
            from_confluent_avro("value", sr.url, reader_schema=json.dumps(V1)).alias("v")
        ).collect()
    with pytest.raises(ValueError, match="option 'mode'"):
        from_confluent_avro("value", sr.url, reader_schema=json.dumps(V1), options={"mode": "LENIENT"})
    with pytest.raises(ValueError, match="'subject' or 'reader_schema'"):
        from_confluent_avro("value", sr.url)
    # a registry that is down: FAILFAST names it
    down = df.select(from_confluent_avro("value", "http://127.0.0.1:9", reader_schema=json.dumps(V1)).alias("v"))
    with pytest.raises(Exception, match="not reachable"):
        down.collect()


def test_plain_and_confluent_writers_round_trip(spark: Any, env: Any) -> None:
    b, sr = env
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    small = {
        "type": "record",
        "name": "S",
        "fields": [{"name": "k", "type": "long"}, {"name": "tags", "type": {"type": "map", "values": "string"}}],
    }
    df = spark.createDataFrame([(i, {"t": str(i)}) for i in range(50)], "k long, tags map<string,string>")
    from pyspark.sql.functions import struct

    enc = df.select(to_avro(struct("k", "tags"), json.dumps(small)).alias("b"))
    back = enc.select(from_avro("b", json.dumps(small)).alias("v")).collect()
    assert sorted((r.v.k, r.v.tags["t"]) for r in back) == [(i, str(i)) for i in range(50)]
    # evolved reader via Spark's option name avroSchema
    evolved = {**small, "fields": [*small["fields"], {"name": "extra", "type": "int", "default": 3}]}
    back = enc.select(from_avro("b", json.dumps(small), {"avroSchema": json.dumps(evolved)}).alias("v")).collect()
    assert {r.v.extra for r in back} == {3}
    from pyspark.sql.functions import struct

    conf = df.select(
        to_confluent_avro(struct("k", "tags"), sr.url, "writer-value", json.dumps(small)).alias("b")
    ).collect()
    deser = AvroDeserializer(SchemaRegistryClient({"url": sr.url}))
    ctx = SerializationContext("writer", MessageField.VALUE)
    assert sorted(deser(bytes(r.b), ctx)["k"] for r in conf) == list(range(50))


def test_from_avro_matches_sparks_own(spark_with: Any) -> None:
    """Parity with Spark's spark-avro: the same plain Avro bytes give the same Spark type and rows
    through ``connector.avro.from_avro`` and ``pyspark.sql.avro.functions.from_avro``."""
    from peers import jvm

    if jvm.spark_avro_version() is None:
        pytest.skip(f"spark-avro is not in {jvm.SPARK_KAFKA_LIB}: run ./scripts/setup.sh")
    session = spark_with(kafka=True)  # spark-avro rides with Spark's Kafka connector jars
    from pyspark.sql.avro.functions import from_avro as spark_from_avro

    session.conf.set("spark.sql.session.timeZone", "UTC")
    schema = fastavro.parse_schema(V1)
    values = []
    for k in range(300):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, schema, record(k))
        values.append((k, buf.getvalue()))
    df = session.createDataFrame(values, "k long, value binary")
    ours = df.select("k", from_avro("value", json.dumps(V1)).alias("v"))
    theirs = df.select("k", spark_from_avro("value", json.dumps(V1)).alias("v"))
    assert ours.schema["v"].dataType == theirs.schema["v"].dataType
    assert ours.orderBy("k").collect() == theirs.orderBy("k").collect()
