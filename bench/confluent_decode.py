"""JSON Schema and Protobuf decode throughput: the batch decoders behind ``from_confluent_json`` and
``from_confluent_protobuf`` (the body of their Arrow UDFs: parse each record, one ``pyarrow.array``
per batch) vs plain confluent-kafka ``JSONDeserializer`` / ``ProtobufDeserializer`` loops, on the same
records produced by confluent-kafka's serializers against our registry. Single-threaded, in this process;
the best of ``--rounds`` interleaved rounds counts (CPU time of this thread; the machine is shared).

    python -m bench.confluent_decode [--records 100000] [--batch 10000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from confluent_kafka.schema_registry import SchemaRegistryClient
from confluent_kafka.schema_registry.json_schema import JSONDeserializer, JSONSerializer
from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer, ProtobufSerializer
from confluent_kafka.serialization import MessageField, SerializationContext

from broker_embedded import EmbeddedBroker
from connector import confluent_json, confluent_protobuf
from connector.confluent_framing import SchemaRegistryReader
from schema_registry import SchemaRegistry

JSON_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "user": {"type": "string"},
        "amount": {"type": "number"},
        "ok": {"type": "boolean"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "note": {"type": ["string", "null"]},
    },
    "required": ["id"],
    "additionalProperties": False,
}
PROTO = """syntax = "proto3";
package bench;
import "google/protobuf/timestamp.proto";
message Event {
  int64 id = 1; string user = 2; double amount = 3; bool ok = 4; repeated string tags = 5;
  optional string note = 6; google.protobuf.Timestamp ts = 7;
}
"""


def _event(i: int) -> dict[str, Any]:
    return {"id": i, "user": f"user-{i % 1000}", "amount": i * 0.5, "ok": i % 2 == 0, "tags": ["a", "b"][: i % 3]}


def _cpu(fn: Callable[[], Any]) -> float:
    t0 = time.thread_time()
    fn()
    return time.thread_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from tests.integration.confluent_serdes import proto_classes

    with EmbeddedBroker() as b, SchemaRegistry(bootstrap_servers=b.bootstrap_servers) as sr:
        client = SchemaRegistryClient({"url": sr.url})
        ctx = SerializationContext("bench", MessageField.VALUE)
        jser = JSONSerializer(json.dumps(JSON_SCHEMA), client)
        jvalues = [jser(_event(i), ctx) for i in range(args.records)]
        classes, _ = proto_classes({"event.proto": PROTO}, "event.proto")
        Event = classes["bench.Event"]
        pser = ProtobufSerializer(Event, client, conf={"use.deprecated.format": False})
        pctx = SerializationContext("bench-p", MessageField.VALUE)
        pvalues = []
        for i in range(args.records):
            e = Event(**_event(i))
            e.ts.seconds = 1_700_000_000 + i
            pvalues.append(pser(e, pctx))
        lookup = SchemaRegistryReader(sr.url)
        shape, _ = confluent_json.reader_shape(lookup, lookup.version("bench-value", "latest"))
        reader = confluent_protobuf.ProtoSchema(lookup, lookup.version("bench-p-value", "latest", fmt="serialized"))
        desc = reader.by_name("Event")
        jde = JSONDeserializer(None, schema_registry_client=client)
        pde = ProtobufDeserializer(Event, {"use.deprecated.format": False}, schema_registry_client=client)
        batches = [(i, min(i + args.batch, args.records)) for i in range(0, args.records, args.batch)]
        nohdr = [None] * args.batch

        def ours_json() -> None:
            for lo, hi in batches:
                confluent_json.decode(jvalues[lo:hi], nohdr, lookup, shape, "FAILFAST", False)

        def theirs_json() -> None:
            for v in jvalues:
                jde(v, ctx)

        def ours_proto() -> None:
            for lo, hi in batches:
                confluent_protobuf.decode(pvalues[lo:hi], nohdr, lookup, desc, "FAILFAST")

        def theirs_proto() -> None:
            for v in pvalues:
                pde(v, pctx)

        ours_json(), theirs_json(), ours_proto(), theirs_proto()  # warm caches
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            for name, fn in (("json ours", ours_json), ("json confluent-kafka", theirs_json),
                             ("protobuf ours", ours_proto), ("protobuf confluent-kafka", theirs_proto)):  # fmt: skip
                best[name] = min(best.get(name, float("inf")), _cpu(fn))
    for name, secs in best.items():
        print(f"{name:28s} {args.records / secs:12,.0f} records/s (CPU {secs:.2f} s)")
    for fmt in ("json", "protobuf"):
        print(f"{fmt}: ours / confluent-kafka = {best[f'{fmt} confluent-kafka'] / best[f'{fmt} ours']:.2f}x")


if __name__ == "__main__":
    main()
