"""`connector.confluent_json` and `connector.confluent_protobuf` in Spark: records produced by
confluent-kafka's JSONSerializer / ProtobufSerializer (registered in our schema registry), half with the
schema id in the 5-byte prefix and half with the GUID in the `__value_schema_id` header, the subject
evolving between them, read with `format("pykafka")` (includeHeaders), decoded by the new functions and
written with `pykafka-delta`; every value is compared with what confluent-kafka's own JSONDeserializer
and ProtobufDeserializer return for the same bytes (the oracle), in Spark and in the Delta table."""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("jsonschema")
pytest.importorskip("grpc_tools")
pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka import Producer  # noqa: E402
from confluent_kafka.schema_registry import SchemaRegistryClient, header_schema_id_serializer  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from connector import (  # noqa: E402
    from_confluent_json,
    from_confluent_protobuf,
    to_confluent_json,
    to_confluent_protobuf,
)
from schema_registry import SchemaRegistry  # noqa: E402
from tests.integration.confluent_serdes import proto_classes  # noqa: E402
from tests.integration.test_schema_registry_json_protobuf import (  # noqa: E402
    ORDER_V1,
    ORDER_V2,
    PERSON_V1,
    PERSON_V2,
)

from .source_helpers import create_topic, source_options  # noqa: E402

pytestmark = pytest.mark.timeout(900)
N = int(os.environ.get("PYKAFKA_SCHEMA_RECORDS", "5000"))  # the 100k: PYKAFKA_SCHEMA_RECORDS=100000
SPLIT = N * 3 // 5  # records before the schema evolves (prefix framing); the rest use v2 and headers


@pytest.fixture(scope="module")
def env() -> Iterator[tuple[EmbeddedBroker, SchemaRegistry]]:
    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        yield b, sr


def _produce(b: EmbeddedBroker, topic: str, records: list[tuple[bytes, list[tuple[str, bytes]]]]) -> None:
    p = Producer({"bootstrap.servers": b.bootstrap_servers, "linger.ms": 20, "batch.num.messages": 2000})
    for value, headers in records:
        p.produce(topic, value=value, headers=headers or None)
        p.poll(0)
    assert p.flush(60) == 0


def _serialize(ser: Any, topic: str, obj: Any) -> tuple[bytes, list[tuple[str, bytes]]]:
    headers: list[tuple[str, bytes]] = []
    return ser(obj, SerializationContext(topic, MessageField.VALUE, headers)), headers


def _oracle_rows(de: Any, topic: str, rows: list[Any]) -> list[Any]:
    """What confluent-kafka's deserializer makes of each record Spark read (value and headers)."""
    out = []
    for r in rows:
        headers = [(h["key"], bytes(h["value"])) for h in (r["headers"] or [])]
        out.append(de(bytes(r["value"]), SerializationContext(topic, MessageField.VALUE, headers)))
    return out


def _delta_rows(path: str) -> list[dict[str, Any]]:
    from deltalake import DeltaTable

    return sorted(DeltaTable(path).to_pyarrow_table().to_pylist(), key=lambda r: r["offset"])


def _person(k: int, v2: bool) -> dict[str, Any]:
    p: dict[str, Any] = {"name": f"p{k}"}
    if k % 3:
        p["age"] = k
    if k % 4:
        p["tags"] = [f"t{k}", f"u{k % 7}"][: k % 3]
    if k % 5:
        p["address"] = {"city": f"c{k % 11}"}
    if v2 and k % 2:
        p["email"] = f"p{k}@x"
    return p


def _json_expected(doc: dict[str, Any]) -> dict[str, Any]:
    """The reader's (v2) struct of a deserialized document: every property, null when absent."""
    addr = doc.get("address")
    return {
        "name": doc.get("name"),
        "age": doc.get("age"),
        "tags": doc.get("tags"),
        "address": None if addr is None else {"city": addr.get("city")},
        "email": doc.get("email"),
    }


def test_json_prefix_and_header_records_through_pykafka_to_delta(spark: Any, env: Any, tmp_path: Any) -> None:
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    b, sr = env
    topic = "json-people"
    create_topic(b, topic, 2)
    client = SchemaRegistryClient({"url": sr.url})
    ser1 = JSONSerializer(json.dumps(PERSON_V1), client)
    ser2 = JSONSerializer(json.dumps(PERSON_V2), client, conf={"schema.id.serializer": header_schema_id_serializer})
    _produce(b, topic, [_serialize(ser1, topic, _person(k, False)) for k in range(SPLIT)])
    _produce(b, topic, [_serialize(ser2, topic, _person(k, True)) for k in range(SPLIT, N)])

    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic), includeHeaders="true").load()
    decoded = df.select(
        "topic",
        "partition",
        "offset",
        "value",
        "headers",
        from_confluent_json("value", sr.url, subject=f"{topic}-value", headers="headers").alias("v"),
    )
    rows = [r.asDict(recursive=True) for r in decoded.orderBy("partition", "offset").collect()]
    assert len(rows) == N
    oracle = _oracle_rows(JSONDeserializer(None, schema_registry_client=client), topic, rows)
    assert [r["v"] for r in rows] == [_json_expected(o) for o in oracle]
    assert sum(1 for r in rows if r["headers"]) == N - SPLIT  # both framings were read
    assert {r["v"]["name"] for r in rows} == {f"p{k}" for k in range(N)}

    table = str(tmp_path / "people")
    decoded.select("topic", "partition", "offset", "v.*").write.format("pykafka-delta").option(
        "offsetsOwner", "json-test"
    ).mode("append").save(table)
    landed = _delta_rows(table)
    by_pos = {(r["partition"], r["offset"]): r for r in landed}
    assert len(by_pos) == N
    for r, o in zip(rows, oracle, strict=True):
        got = by_pos[(r["partition"], r["offset"])]
        assert {k: got[k] for k in ("name", "age", "tags", "address", "email")} == _json_expected(o)


def _order_values(classes: dict, k: int, v2: bool) -> Any:
    Order = classes["shop.Order"]
    o = Order(id=k, customer=f"c{k % 97}", status=Order.Status.PAID if k % 2 else Order.Status.NEW)
    for j in range(k % 4):
        o.lines.add(sku=f"s{j}", qty=j + k % 5, price=j * 0.25 + k)
    if k % 3:
        o.placed.seconds, o.placed.nanos = 1_700_000_000 + k, (k % 1000) * 1000
    for j in range(k % 3):
        o.counts[f"k{j}"] = k + j
    if v2 and k % 2:
        o.note = f"n{k}"
    return o


def _proto_expected(msg: Any) -> dict[str, Any]:
    """The reader's (v2) struct of a deserialized Order, as Spark shows it (UTC session)."""
    return {
        "id": msg.id,
        "customer": msg.customer,
        "lines": [{"sku": x.sku, "qty": x.qty, "price": x.price} for x in msg.lines],
        "placed": (
            dt.datetime(1970, 1, 1) + dt.timedelta(seconds=msg.placed.seconds, microseconds=msg.placed.nanos // 1000)
            if msg.HasField("placed")
            else None
        ),
        "counts": dict(msg.counts),
        "status": type(msg).Status.Name(msg.status),
        "note": msg.note if msg.HasField("note") else None,
    }


def test_protobuf_prefix_and_header_records_through_pykafka_to_delta(spark: Any, env: Any, tmp_path: Any) -> None:
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    b, sr = env
    topic = "proto-orders"
    create_topic(b, topic, 2)
    client = SchemaRegistryClient({"url": sr.url})
    v1, _ = proto_classes({"order.proto": ORDER_V1}, "order.proto")
    v2, _ = proto_classes({"order.proto": ORDER_V2}, "order.proto")
    conf = {"use.deprecated.format": False}
    ser1 = ProtobufSerializer(v1["shop.Order"], client, conf=conf)
    ser2 = ProtobufSerializer(
        v2["shop.Order"], client, conf={**conf, "schema.id.serializer": header_schema_id_serializer}
    )
    _produce(b, topic, [_serialize(ser1, topic, _order_values(v1, k, False)) for k in range(SPLIT)])
    _produce(b, topic, [_serialize(ser2, topic, _order_values(v2, k, True)) for k in range(SPLIT, N)])

    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic), includeHeaders="true").load()
    decoded = df.select(
        "topic",
        "partition",
        "offset",
        "value",
        "headers",
        from_confluent_protobuf("value", sr.url, f"{topic}-value", "Order", headers="headers").alias("v"),
    )
    rows = [r.asDict(recursive=True) for r in decoded.orderBy("partition", "offset").collect()]
    assert len(rows) == N
    de = ProtobufDeserializer(v2["shop.Order"], conf, schema_registry_client=client)
    oracle = [_proto_expected(m) for m in _oracle_rows(de, topic, rows)]
    assert [r["v"] for r in rows] == oracle
    assert sum(1 for r in rows if r["headers"]) == N - SPLIT
    assert sum(1 for o in oracle if o["note"] is not None) > 0

    table = str(tmp_path / "orders")
    decoded.select("topic", "partition", "offset", "v.*").write.format("pykafka-delta").option(
        "offsetsOwner", "proto-test"
    ).mode("append").save(table)
    landed = {(r["partition"], r["offset"]): r for r in _delta_rows(table)}
    assert len(landed) == N
    for r, o in zip(rows, oracle, strict=True):
        got = landed[(r["partition"], r["offset"])]
        placed = got["placed"]
        assert (None if placed is None else placed.replace(tzinfo=None)) == o["placed"]
        assert dict(got["counts"] or []) == o["counts"]
        assert (got["id"], got["customer"], got["lines"], got["status"], got["note"]) == (
            o["id"],
            o["customer"],
            o["lines"],
            o["status"],
            o["note"],
        )


def test_writers_round_trip_through_confluent_deserializers(spark: Any, env: Any) -> None:
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    _, sr = env
    client = SchemaRegistryClient({"url": sr.url})
    from pyspark.sql.functions import col, struct

    people = spark.createDataFrame(
        [(f"p{i}", i, [f"t{i}"], {"city": f"c{i}"}) for i in range(40)],
        "name string, age long, tags array<string>, address struct<city: string>",
    )
    out = people.select(to_confluent_json(struct("name", "age", "tags", "address"), sr.url, "w-json-value",
                                          json.dumps(PERSON_V1)).alias("b")).collect()  # fmt: skip
    de = JSONDeserializer(None, schema_registry_client=client)
    ctx = SerializationContext("w-json", MessageField.VALUE)
    assert sorted((d["name"], d["age"]) for d in (de(bytes(r.b), ctx) for r in out)) == sorted(
        (f"p{i}", i) for i in range(40)
    )

    v1, _ = proto_classes({"order.proto": ORDER_V1}, "order.proto")
    orders = spark.createDataFrame(
        [(i, f"c{i}", [(f"s{i}", i, 1.5)], dt.datetime(2024, 1, 1, 0, 0, i), {"a": i}, "PAID") for i in range(40)],
        "id long, customer string, lines array<struct<sku: string, qty: int, price: double>>, placed timestamp, "
        "counts map<string, int>, status string",
    )
    enc = orders.select(
        to_confluent_protobuf(
            struct("id", "customer", "lines", "placed", "counts", "status"), sr.url, "w-proto-value", ORDER_V1, "Order"
        ).alias("b")
    )
    de = ProtobufDeserializer(v1["shop.Order"], {"use.deprecated.format": False}, schema_registry_client=client)
    ctx = SerializationContext("w-proto", MessageField.VALUE)
    msgs = sorted((de(bytes(r.b), ctx) for r in enc.collect()), key=lambda m: m.id)
    assert [(m.id, m.customer, m.lines[0].sku, m.counts["a"], m.status) for m in msgs] == [
        (i, f"c{i}", f"s{i}", i, 1) for i in range(40)
    ]
    assert msgs[5].placed.ToDatetime() == dt.datetime(2024, 1, 1, 0, 0, 5)
    # and back through from_confluent_protobuf without a Kafka source (no position columns)
    back = enc.select(from_confluent_protobuf(col("b"), sr.url, "w-proto-value", "Order", position=None).alias("v"))
    assert sorted(r.v.id for r in back.collect()) == list(range(40))


def test_bad_records_failfast_and_permissive(spark: Any, env: Any) -> None:
    b, sr = env
    topic = "proto-bad"
    create_topic(b, topic, 1)
    client = SchemaRegistryClient({"url": sr.url})
    v1, _ = proto_classes({"order.proto": ORDER_V1}, "order.proto")
    ser = ProtobufSerializer(v1["shop.Order"], client, conf={"use.deprecated.format": False})
    good, _ = _serialize(ser, topic, _order_values(v1, 7, False))
    header_msg = ProtobufSerializer(v1["shop.Header"], client, conf={"use.deprecated.format": False})
    other, _ = _serialize(header_msg, topic + "-h", v1["shop.Header"](source="x"))
    bad = [b"\x07" + good[1:], good[:-3] + b"\xff\xff\xff", other]
    _produce(b, topic, [(good, []), *[(x, []) for x in bad], (good, [])])
    df = spark.read.format("pykafka").options(**source_options(b, subscribe=topic)).load()
    got = df.select(
        "offset",
        from_confluent_protobuf("value", sr.url, f"{topic}-value", "Order", options={"mode": "PERMISSIVE"}).alias("v"),
    ).orderBy("offset").collect()  # fmt: skip
    assert [r.v is None for r in got] == [False, True, True, True, False]
    with pytest.raises(Exception, match="partition 0 offset 1: not Confluent-framed"):
        df.select(from_confluent_protobuf("value", sr.url, f"{topic}-value", "Order").alias("v")).collect()
    with pytest.raises(Exception, match="partition 0 offset 3: written as shop.Header"):
        df.where("offset >= 3").select(
            from_confluent_protobuf("value", sr.url, f"{topic}-value", "Order").alias("v")
        ).collect()
    with pytest.raises(ValueError, match="option 'mode'"):
        from_confluent_json("value", sr.url, reader_schema="{}", options={"mode": "LENIENT"})
