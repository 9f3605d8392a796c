"""JSON Schema and Protobuf in the registry against confluent-kafka's own JSONSerializer/JSONDeserializer
and ProtobufSerializer/ProtobufDeserializer (the oracle: Confluent's registry itself needs a JVM
distribution that is not on Maven Central nor runnable here): round trips with the schema id in the
5-byte prefix and with the GUID in a record header (Schema Registry 8's header_schema_id_serializer),
evolution accepted and refused by the compatibility rules, references, GUID lookups, and the
``_schemas`` records carrying ``schemaType`` as Confluent writes them."""

from __future__ import annotations

import json
import urllib.request
import uuid
from collections.abc import Iterator

import pytest

pytest.importorskip("jsonschema")
pytest.importorskip("grpc_tools")
pytest.importorskip("werkzeug")
sr_mod = pytest.importorskip("confluent_kafka.schema_registry")

from confluent_kafka import Consumer, TopicPartition  # noqa: E402
from confluent_kafka.schema_registry import (  # noqa: E402
    Schema,
    SchemaReference,
    SchemaRegistryClient,
    header_schema_id_serializer,
)
from confluent_kafka.schema_registry.error import SchemaRegistryError  # noqa: E402
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer  # noqa: E402
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer  # noqa: E402
from confluent_kafka.serialization import MessageField, SerializationContext  # noqa: E402

from broker_embedded import EmbeddedBroker  # noqa: E402
from schema_registry import SchemaRegistry  # noqa: E402

from .confluent_serdes import proto_classes  # noqa: E402

PERSON_V1 = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}, "additionalProperties": False},
    },
    "required": ["name"],
    "additionalProperties": False,
}
PERSON_V2 = {**PERSON_V1, "properties": {**PERSON_V1["properties"], "email": {"type": "string"}}}
PERSON_BAD = {**PERSON_V1, "properties": {**PERSON_V1["properties"], "age": {"type": "string"}}}

ORDER_V1 = """
syntax = "proto3";
package shop;
import "google/protobuf/timestamp.proto";

message Header { string source = 1; }
message Order {
  int64 id = 1;
  string customer = 2;
  repeated Line lines = 3;
  google.protobuf.Timestamp placed = 4;
  map<string, int32> counts = 5;
  Status status = 6;
  message Line { string sku = 1; int32 qty = 2; double price = 3; }
  enum Status { NEW = 0; PAID = 1; }
}
"""
ORDER_V2 = ORDER_V1.replace("Status status = 6;", "Status status = 6;\n  optional string note = 7;")
ORDER_BAD = ORDER_V1.replace("string customer = 2;", "int32 customer = 2;")


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as b:
        yield b


@pytest.fixture(scope="module")
def registry(broker: EmbeddedBroker) -> Iterator[SchemaRegistry]:
    with SchemaRegistry(bootstrap_servers=broker.bootstrap_servers) as sr:
        yield sr


@pytest.fixture
def client(registry: SchemaRegistry) -> SchemaRegistryClient:
    return SchemaRegistryClient({"url": registry.url})


def _get(url: str) -> object:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def test_types_lists_all_three(registry: SchemaRegistry, client: SchemaRegistryClient) -> None:
    assert sorted(client.get_schema_types()) == ["AVRO", "JSON", "PROTOBUF"]
    assert client.get_contexts() == ["."]


@pytest.mark.parametrize("framing", ["prefix", "header"])
def test_json_round_trip_and_evolution(registry: SchemaRegistry, client: SchemaRegistryClient, framing: str) -> None:
    topic = f"people-{framing}"
    conf = {"schema.id.serializer": header_schema_id_serializer} if framing == "header" else {}
    v1 = {"name": "ann", "age": 41, "tags": ["a", "b"], "address": {"city": "Oslo"}}
    ser1 = JSONSerializer(json.dumps(PERSON_V1), client, conf=conf)
    headers: list[tuple[str, bytes]] = []
    ctx = SerializationContext(topic, MessageField.VALUE, headers)
    data = ser1(v1, ctx)
    if framing == "header":
        (name, value), *_ = headers
        assert name == "__value_schema_id" and value[0] == 1 and len(value) == 17
        assert data == json.dumps(v1).encode() or json.loads(data) == v1  # no prefix in the payload
        guid = str(uuid.UUID(bytes=value[1:17]))
        body = _get(f"{registry.url}/schemas/guids/{guid}")
        assert body["schemaType"] == "JSON" and json.loads(body["schema"]) == PERSON_V1 and body["guid"] == guid
    else:
        assert data[0] == 0 and json.loads(data[5:]) == v1
    de = JSONDeserializer(None, schema_registry_client=client)
    assert de(data, SerializationContext(topic, MessageField.VALUE, headers)) == v1

    # a property added to a closed object: BACKWARD-compatible (Confluent: OPTIONAL_PROPERTY_ADDED_TO_UNOPEN_...)
    v2 = {"name": "bob", "email": "b@x"}
    ser2 = JSONSerializer(json.dumps(PERSON_V2), client, conf=conf)
    headers2: list[tuple[str, bytes]] = []
    data2 = ser2(v2, SerializationContext(topic, MessageField.VALUE, headers2))
    assert de(data2, SerializationContext(topic, MessageField.VALUE, headers2)) == v2
    assert client.get_versions(f"{topic}-value") == [1, 2]
    # a changed property type is refused with Confluent's 409
    with pytest.raises(SchemaRegistryError) as ei:
        JSONSerializer(json.dumps(PERSON_BAD), client, conf=conf)(
            {"name": "x"}, SerializationContext(topic, "value", [])
        )
    assert ei.value.http_status_code == 409
    # the deserializer validates against the writer schema: a document the schema refuses fails
    bad = b"\x00" + data[1:5] + json.dumps({"age": 3}).encode() if framing == "prefix" else None
    if bad is not None:
        with pytest.raises(Exception, match="name"):
            de(bad, SerializationContext(topic, MessageField.VALUE, []))


def test_json_references(registry: SchemaRegistry, client: SchemaRegistryClient) -> None:
    address = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    ref_id = client.register_schema("address", Schema(json.dumps(address), "JSON"))
    person = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "home": {"$ref": "address.json"}},
    }
    refs = [SchemaReference("address.json", "address", 1)]
    schema = Schema(json.dumps(person), "JSON", refs)
    ser = JSONSerializer(schema, client, conf={"auto.register.schemas": True})
    ctx = SerializationContext("homes", MessageField.VALUE)
    data = ser({"name": "ann", "home": {"city": "Oslo"}}, ctx)
    assert JSONDeserializer(None, schema_registry_client=client)(data, ctx) == {"name": "ann", "home": {"city": "Oslo"}}
    with pytest.raises(Exception, match="city"):
        ser({"name": "ann", "home": {}}, ctx)  # the referenced schema's `required` applies
    assert client.get_referenced_by("address", 1) == [int.from_bytes(data[1:5], "big")]
    assert ref_id != int.from_bytes(data[1:5], "big")
    with pytest.raises(SchemaRegistryError) as ei:  # a $ref nobody provides
        client.register_schema("dangling", Schema(json.dumps({"$ref": "nowhere.json"}), "JSON"))
    assert ei.value.error_code == 42201


def _order(classes: dict, note: str | None = None) -> object:
    Order = classes["shop.Order"]
    o = Order(id=7, customer="ann", status=Order.Status.PAID)
    o.placed.seconds, o.placed.nanos = 1_700_000_000, 123_000  # the Timestamp of the private pool
    o.lines.add(sku="x1", qty=2, price=1.5)
    o.lines.add(sku="y2", qty=1, price=10.0)
    o.counts["a"] = 1
    o.counts["b"] = 2
    if note is not None:
        o.note = note
    return o


@pytest.mark.parametrize("framing", ["prefix", "header"])
def test_protobuf_round_trip_and_evolution(
    registry: SchemaRegistry, client: SchemaRegistryClient, framing: str
) -> None:
    topic = f"orders-{framing}"
    conf = {"use.deprecated.format": False}
    if framing == "header":
        conf["schema.id.serializer"] = header_schema_id_serializer
    v1, _ = proto_classes({"order.proto": ORDER_V1}, "order.proto")
    msg = _order(v1)
    ser = ProtobufSerializer(v1["shop.Order"], client, conf=conf)
    headers: list[tuple[str, bytes]] = []
    data = ser(msg, SerializationContext(topic, MessageField.VALUE, headers))
    if framing == "header":
        (_, value), *_ = headers
        assert value[0] == 1 and value[17:] == b"\x02\x02"  # GUID, then message index [1] (zigzag)
        assert data == msg.SerializeToString()
    else:
        assert data[0] == 0 and data[5:7] == b"\x02\x02"  # Order is the second message of the file
    de = ProtobufDeserializer(v1["shop.Order"], {"use.deprecated.format": False}, schema_registry_client=client)
    back = de(data, SerializationContext(topic, MessageField.VALUE, headers))
    assert back == msg and back.placed.nanos == 123_000 and dict(back.counts) == {"a": 1, "b": 2}
    # the stored schema is served as a descriptor for the deserializer and as GUID lookups
    sid = client.get_latest_version(f"{topic}-value").schema_id
    body = _get(f"{registry.url}/schemas/ids/{sid}")
    assert body["schemaType"] == "PROTOBUF"
    # the serializer registered a descriptor; like Confluent, the registry keeps it as .proto text
    assert (
        body["schema"].startswith('syntax = "proto3";\npackage shop;') and "map<string, int32> counts" in body["schema"]
    )
    assert _get(f"{registry.url}/schemas/guids/{body['guid']}")["schema"] == body["schema"]

    # a field added: compatible; v1 readers still decode v2 data (and v2 readers v1 data)
    v2, _ = proto_classes({"order.proto": ORDER_V2}, "order.proto")
    ser2 = ProtobufSerializer(v2["shop.Order"], client, conf=conf)
    headers2: list[tuple[str, bytes]] = []
    data2 = ser2(_order(v2, note="gift"), SerializationContext(topic, MessageField.VALUE, headers2))
    assert client.get_versions(f"{topic}-value") == [1, 2]
    old_reader = de(data2, SerializationContext(topic, MessageField.VALUE, headers2))
    old_reader.DiscardUnknownFields()  # field 7, which v1 does not know
    assert old_reader == msg
    de2 = ProtobufDeserializer(v2["shop.Order"], {"use.deprecated.format": False}, schema_registry_client=client)
    assert de2(data, SerializationContext(topic, MessageField.VALUE, headers)).note == ""
    # a string field turned int32 leaves its wire-compatible group: refused
    bad, _ = proto_classes({"order.proto": ORDER_BAD}, "order.proto")
    with pytest.raises(SchemaRegistryError) as ei:
        ProtobufSerializer(bad["shop.Order"], client, conf=conf)(
            bad["shop.Order"](id=1), SerializationContext(topic, MessageField.VALUE, [])
        )
    assert ei.value.http_status_code == 409


def test_protobuf_references_registered_by_the_serializer(
    registry: SchemaRegistry, client: SchemaRegistryClient
) -> None:
    files = {
        "common/money.proto": 'syntax = "proto3";\npackage common;\n'
        "message Money { string currency = 1; int64 units = 2; }\n",
        "invoice.proto": 'syntax = "proto3";\npackage billing;\nimport "common/money.proto";\n'
        "message Invoice { string id = 1; common.Money total = 2; repeated common.Money items = 3; }\n",
    }
    classes, _ = proto_classes(files, "invoice.proto")
    Invoice = classes["billing.Invoice"]
    inv = Invoice(id="i1")
    inv.total.currency, inv.total.units = "EUR", 12
    inv.items.add(currency="EUR", units=5)
    conf = {"use.deprecated.format": False}
    ctx = SerializationContext("invoices", MessageField.VALUE)
    data = ProtobufSerializer(Invoice, client, conf=conf)(inv, ctx)
    assert client.get_versions("common/money.proto") == [1]  # the import, registered under its path
    latest = client.get_latest_version("invoices-value")
    assert [(r.name, r.subject) for r in latest.schema.references] == [("common/money.proto", "common/money.proto")]
    de = ProtobufDeserializer(Invoice, {"use.deprecated.format": False}, schema_registry_client=client)
    assert de(data, ctx) == inv
    # .proto text registered over REST resolves the same reference (protoc compiles it)
    text = files["invoice.proto"].replace("repeated common.Money items = 3;", "")
    sid = client.register_schema(
        "invoices-text", Schema(text, "PROTOBUF", [SchemaReference("common/money.proto", "common/money.proto", 1)])
    )
    assert _get(f"{registry.url}/schemas/ids/{sid}")["schema"].startswith('syntax = "proto3"')
    serialized = _get(f"{registry.url}/schemas/ids/{sid}?format=serialized")["schema"]
    assert "\n" not in serialized and len(serialized) > 20
    with pytest.raises(SchemaRegistryError) as ei:
        client.register_schema("broken", Schema('syntax = "proto3"; message M { Nope x = 1; }', "PROTOBUF"))
    assert ei.value.error_code == 42201 and "Nope" in ei.value.error_message


def test_schemas_topic_records_carry_schema_type(broker: EmbeddedBroker, registry: SchemaRegistry) -> None:
    c = Consumer({"bootstrap.servers": broker.bootstrap_servers, "group.id": "peek", "enable.auto.commit": False})
    c.assign([TopicPartition("_schemas", 0, 0)])
    types: set[str] = set()
    try:
        _, high = c.get_watermark_offsets(TopicPartition("_schemas", 0), timeout=10)
        seen = 0
        while seen < high:
            for m in c.consume(500, timeout=2):
                if m.error() is None:
                    seen = m.offset() + 1
                    if m.value():
                        types.add(json.loads(m.value()).get("schemaType", "AVRO"))
    finally:
        c.close()
    assert {"JSON", "PROTOBUF"} <= types
